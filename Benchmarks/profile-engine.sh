#!/usr/bin/env bash
# Where a push's CPU goes: runs the engine's 1:1 scenario (`herald-bench engine --throughput-only`,
# 10,000 users) on SQLite or PostgreSQL, records every CPU with perf for a few seconds of the
# steady state (call graphs by frame pointer), and prints, via profile.py, the CPU per push of
# each process (Herald, PostgreSQL, the bench with its APNs stand-in) and Herald's split by phase
# of the hot path (intake, planning, storage, SQLite, the provider client…), each in µs per push,
# with the functions that take the most. The raw profile stays in $HERALD_BENCH_OUT (perf.data,
# for `perf report -i`).
#
#   Benchmarks/profile-engine.sh [sqlite|postgres] [events] [seconds]
#   (postgres: HERALD_BENCH_POSTGRES_URL, emptied first as in every scenario; perf comes from
#   Debian's linux-perf when missing, python3 and `swift demangle` read the samples)
set -euo pipefail
cd "$(dirname "$0")/.."
BACKEND=${1:-sqlite}
EVENTS=${2:-200000}
SECONDS_RECORDED=${3:-6}
case "$BACKEND" in
  sqlite) ;;
  postgres) : "${HERALD_BENCH_POSTGRES_URL:?set HERALD_BENCH_POSTGRES_URL to profile on PostgreSQL}" ;;
  *) echo "usage: $0 [sqlite|postgres] [events] [seconds]" >&2; exit 2 ;;
esac
OUT=${HERALD_BENCH_OUT:-/tmp/herald-profile}
mkdir -p "$OUT"
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null; }
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/herald-profile.XXXXXX)
BENCH=
# The bench's server too: a bench killed midway leaves it running (and retrying its pushes).
trap 'for p in $BENCH ${SERVER:-}; do kill $p 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
case "$BACKEND" in
  sqlite) DATABASE="sqlite://$WORK/herald.sqlite" ;;
  postgres)
    DATABASE=$HERALD_BENCH_POSTGRES_URL
    Benchmarks/fresh-postgres.sh >/dev/null
    ;;
esac

stdbuf -oL "$BIN/herald-bench" engine --herald "$BIN/herald" --database "$DATABASE" --users 10000 --events "$EVENTS" \
  --throughput-only --json "$WORK/result.json" >"$WORK/bench.log" 2>&1 &
BENCH=$!
source Benchmarks/wait-for-load.sh
wait_for_load $BENCH "$WORK/bench.log" "$BIN/herald"
perf record -F 999 -a -g -o "$OUT/perf.data" -- sleep "$SECONDS_RECORDED" 2>/dev/null >/dev/null
BENCH_PID=$BENCH
wait $BENCH || { cat "$WORK/bench.log"; exit 1; }
BENCH=
RESULT=$(grep "1:1" "$WORK/bench.log")
echo "$RESULT"
perf script -i "$OUT/perf.data" -F pid,comm,ip,sym,dso 2>/dev/null >"$WORK/samples.txt"
python3 Benchmarks/profile.py "$WORK/samples.txt" --server-pid "$SERVER" --bench-pid "$BENCH_PID" \
  --cpu-per-push "$(sed -n 's/.*server CPU \([0-9.]*\) µs per push.*/\1/p' <<<"$RESULT")"
echo "raw profile: $OUT/perf.data"
