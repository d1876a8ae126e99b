#!/usr/bin/env bash
# Issue 3's figure: pushes per second from one Herald process to a local HTTP/2 APNs stand-in
# running as a second process on the same cores (200,000 sends, one credential, 10,000 devices).
#
#   Benchmarks/run-providers.sh [count] [senders] [batch]
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-200000}
CONCURRENCY=${2:-8}
BATCH=${3:-50}
swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)/herald-bench
OUT=$(mktemp)
"$BIN" apns-standin >"$OUT" 2>&1 &
STANDIN=$!
trap 'kill $STANDIN 2>/dev/null || true; rm -f "$OUT"' EXIT
for _ in $(seq 1 50); do grep -q PORT "$OUT" && break; sleep 0.2; done
read -r PORT KEYID PEM CA <<<"$(awk '{print $2, $4, $6, $8}' "$OUT")"
"$BIN" apns --url "https://127.0.0.1:$PORT" --ca "$CA" --key "$PEM" --key-id "$KEYID" --count "$COUNT" --concurrency "$CONCURRENCY" --batch "$BATCH" --devices 10000
echo "stand-in CPU: $(awk '{printf "%.1f s", ($14 + $15) / '"$(getconf CLK_TCK)"'}' /proc/$STANDIN/stat)"
