#!/usr/bin/env bash
# Issue 4's figures: server RSS with 10,000 idle WebSockets, and envelopes per second fanned out to
# 10,000 connected sessions. A release `herald serve` (SQLite) on 127.0.0.1; `herald-bench ws`
# holds the sockets in a second process on the same cores.
#
#   Benchmarks/run-realtime.sh [sockets] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
SOCKETS=${1:-10000}
ROUNDS=${2:-20}
PORT=${HERALD_BENCH_PORT:-18081}
WORK=$(mktemp -d /tmp/herald-rt.XXXXXX)
ulimit -n "$(ulimit -Hn)"
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
DB="sqlite://$WORK/herald.sqlite"
export HERALD_DATA_DIR=$WORK HERALD_LOG_LEVEL=warning HERALD_RATE_LIMIT=0 HERALD_USER_RATE_LIMIT=0

"$BIN/herald" serve --database "$DB" --port "$PORT" --host 127.0.0.1 2>"$WORK/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/ready" >/dev/null && break; sleep 0.2; done
KEY=$("$BIN/herald" apps create --database "$DB" --name "rt-$(date +%s)" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
URL="http://127.0.0.1:$PORT"
echo "== seeding $SOCKETS users with one session each"
python3 Benchmarks/seed.py "$URL" "$KEY" users "$SOCKETS" --sessions "$WORK/tokens.txt"
python3 -c "print('\n'.join('u%06d' % i for i in range($SOCKETS)))" >"$WORK/uids.txt"
echo "== $SOCKETS WebSockets, then $ROUNDS fan-outs to all of them"
"$BIN/herald-bench" ws --port "$PORT" --key "$KEY" --tokens "$WORK/tokens.txt" --uids "$WORK/uids.txt" --server-pid "$SERVER" --rounds "$ROUNDS"
