#!/usr/bin/env bash
# Renders the HeraldCards sample card (or any card HTML made by CardHTMLRenderer) to PNG in
# headless Chromium, light and dark, so a person can look at it.
#
#   Scripts/render-card-png.sh [out-folder]        (needs chromium: apt-get install chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/herald-cards}
mkdir -p "$OUT"
# The snapshots are the renderer's output for the sample card; refresh them first.
HERALD_RECORD_SNAPSHOTS=1 swift test --filter CardRenderingTests >/dev/null
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
for scheme in light dark; do
  "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=520,1100 \
    --screenshot="$OUT/sample-card.$scheme.png" "file://$PWD/Tests/HeraldKitTests/Snapshots/sample-card.$scheme.html" 2>/dev/null
  echo "$OUT/sample-card.$scheme.png"
done
