#!/usr/bin/env bash
# Issue 3's figures: pushes per second from one Herald process to a local HTTP/2 stand-in (APNs,
# then FCM) running as a second process on the same cores (200,000 sends, one credential, 10,000
# devices). The stand-ins serve with the lean HTTP/2 server (same checks and answers as the test
# stand-ins); pass --full-stack as the 4th argument to serve with swift-nio-http2's full stack.
#
#   Benchmarks/run-providers.sh [count] [senders] [batch] [--full-stack]
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-200000}
CONCURRENCY=${2:-8}
BATCH=${3:-50}
STACK=${4:-}
swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)/herald-bench
OUT=$(mktemp)
STANDIN=
trap 'if [ -n "$STANDIN" ]; then kill $STANDIN 2>/dev/null || true; fi; rm -f "$OUT"' EXIT

start_standin() {
  : >"$OUT"
  "$BIN" "$1" $STACK >"$OUT" 2>&1 &
  STANDIN=$!
  for _ in $(seq 1 50); do grep -q PORT "$OUT" && break; sleep 0.2; done
}
standin_cpu() {
  echo "stand-in CPU: $(awk '{printf "%.1f s", ($14 + $15) / '"$(getconf CLK_TCK)"'}' /proc/$STANDIN/stat)"
  kill $STANDIN; wait $STANDIN 2>/dev/null || true; STANDIN=
}

start_standin apns-standin
read -r PORT KEYID PEM CA <<<"$(awk '{print $2, $4, $6, $8}' "$OUT")"
"$BIN" apns --url "https://127.0.0.1:$PORT" --ca "$CA" --key "$PEM" --key-id "$KEYID" --count "$COUNT" --concurrency "$CONCURRENCY" --batch "$BATCH" --devices 10000
standin_cpu

start_standin fcm-standin
read -r PORT ACCOUNT CA <<<"$(awk '{print $2, $4, $6}' "$OUT")"
"$BIN" fcm --url "https://127.0.0.1:$PORT" --ca "$CA" --account "$ACCOUNT" --count "$COUNT" --concurrency "$CONCURRENCY" --batch "$BATCH" --devices 10000
standin_cpu
