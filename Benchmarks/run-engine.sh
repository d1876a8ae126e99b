#!/usr/bin/env bash
# Issue 5's figures, for SQLite then PostgreSQL: sustained events/s and pushes/s for 1:1 messages
# into a local HTTP/2 APNs stand-in, time from one event to the last push for a group of every
# user, and p50/p99 latency from POST /v1/events to APNs at 1,000 events/s. One release herald
# process; the stand-in and the load live in herald-bench, a second process on the same cores.
#
#   Benchmarks/run-engine.sh [users] [events]        (PostgreSQL when HERALD_BENCH_POSTGRES_URL is set)
set -euo pipefail
cd "$(dirname "$0")/.."
USERS=${1:-10000}
EVENTS=${2:-100000}
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/herald-engine.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "== SQLite"
"$BIN/herald-bench" engine --herald "$BIN/herald" --database "sqlite://$WORK/herald.sqlite" --users "$USERS" --events "$EVENTS" --json "$WORK/sqlite.json"
cp "$WORK/sqlite.json" "${HERALD_BENCH_OUT:-/tmp}/engine-sqlite.json"
if [ -n "${HERALD_BENCH_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL"
  "$BIN/herald-bench" engine --herald "$BIN/herald" --database "$HERALD_BENCH_POSTGRES_URL" --users "$USERS" --events "$EVENTS" --json "$WORK/postgres.json"
  cp "$WORK/postgres.json" "${HERALD_BENCH_OUT:-/tmp}/engine-postgres.json"
fi
