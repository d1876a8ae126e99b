#!/usr/bin/env bash
# Every figure, one command: builds release, then on this machine
#   1. h2load (nghttp2-client) against the APNs stand-in alone: the stand-in's own ceiling;
#   2. the provider clients alone (APNs, FCM) against their stand-ins;
#   3. the engine end to end, SQLite then PostgreSQL: 1:1 events → APNs and FCM pushes/s, a 10,000-member
#      group's fan-out, p50/p99 event→APNs latency at 1,000 events/s;
#   4. RSS with 10,000 idle WebSockets and the fan-out to them;
#   5. a campaign to 100,000 users and feed p50/p99 with 1,000,000 items, SQLite then PostgreSQL;
#   6. token registrations per second over HTTP (wrk against 10,000 users' sessions);
#   7. a restart mid-load: SIGKILL and SIGTERM while accepted events are being pushed.
# Prints the table (every throughput next to its ratio to the h2load ceiling), saves the results
# as JSON and a PNG plot of throughput and latency in $HERALD_BENCH_OUT (default Benchmarks/results).
#
#   HERALD_BENCH_POSTGRES_URL=postgres://… Benchmarks/run-all.sh [--quick]
#   (--quick: a tenth of every size, for a smoke run; PostgreSQL is skipped without the URL)
set -euo pipefail
cd "$(dirname "$0")/.."
QUICK=${1:-}
OUT=${HERALD_BENCH_OUT:-$PWD/Benchmarks/results}
mkdir -p "$OUT"
export HERALD_BENCH_OUT=$OUT HERALD_BENCH_SKIP_BUILD=1
command -v h2load >/dev/null || { apt-get update -qq && apt-get install -y -qq nghttp2-client >/dev/null; }
python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore matplotlib >/dev/null
swift build -c release --product herald --scratch-path .build-release >/dev/null
swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
ulimit -n "$(ulimit -Hn)"

scale() { if [ "$QUICK" = --quick ]; then echo $(( $1 / 10 )); else echo "$1"; fi; }

echo "== 1. h2load against the APNs stand-in"
LOG=$(mktemp)
"$BIN/herald-bench" apns-standin >"$LOG" 2>&1 &
STANDIN=$!
trap 'kill $STANDIN 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 50); do grep -q PORT "$LOG" && break; sleep 0.2; done
read -r PORT JWT <<<"$(awk '{print $2, $10}' "$LOG")"
printf '%s' '{"aps":{"alert":{"title":"Ana","body":"Hello from Herald"},"sound":"default","mutable-content":1},"conversationId":"ana_user_bo"}' >"$OUT/payload.json"
# A million requests: the stand-in answers ~200,000 a second, and a shorter run measures its start.
REQUESTS=$(scale 1000000)
h2load -n "$REQUESTS" -c 4 -m 100 -t 1 -H "authorization: bearer $JWT" -H "apns-topic: com.acme.app" -H "apns-push-type: alert" \
  -d "$OUT/payload.json" "https://127.0.0.1:$PORT/3/device/$(printf 'ab%.0s' $(seq 1 32))" | tee "$OUT/h2load.txt" | grep -E "finished in|requests:|status codes:"
kill $STANDIN; wait $STANDIN 2>/dev/null || true
grep -q "status codes: $REQUESTS 2xx" "$OUT/h2load.txt" || { echo "h2load's requests were not all answered 2xx: no ceiling"; exit 1; }

echo "== 2. provider clients alone"
Benchmarks/run-providers.sh "$(scale 200000)" | tee "$OUT/providers.txt"

echo "== 3. engine end to end"
Benchmarks/run-scenario.sh engine --users "$(scale 10000)" --events "$(scale 100000)" | tee "$OUT/engine.txt"
Benchmarks/run-scenario.sh engine-fcm --users "$(scale 10000)" --events "$(scale 100000)" | tee "$OUT/engine-fcm.txt"

echo "== 4. WebSockets"
Benchmarks/run-realtime.sh "$(scale 10000)" 20 | tee "$OUT/realtime.txt"

echo "== 5. campaign and feed"
Benchmarks/run-scenario.sh feed --users "$(scale 100000)" --items "$(scale 1000000)" | tee "$OUT/feed.txt"

echo "== 6. token registrations over HTTP (wrk, 10,000 sessions)"
Benchmarks/run-core.sh sqlite | tee "$OUT/core-sqlite.txt"
[ -z "${HERALD_BENCH_POSTGRES_URL:-}" ] || Benchmarks/run-core.sh postgres | tee "$OUT/core-postgres.txt"

echo "== 7. a restart mid-load (SIGKILL, then SIGTERM, twice each)"
Benchmarks/run-scenario.sh recovery --users "$(scale 2000)" --events "$(scale 16000)" | tee "$OUT/recovery.txt"

git rev-parse --short HEAD >"$OUT/commit.txt" 2>/dev/null || true
python3 Benchmarks/report.py "$OUT"
