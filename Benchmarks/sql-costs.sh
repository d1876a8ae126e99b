#!/usr/bin/env bash
# What each SQL statement costs a push on SQLite: runs the engine's 1:1 scenario
# (`herald-bench engine --throughput-only`, 10,000 users) with the server keeping its statement
# profile (`HERALD_SQLITE_PROFILE`: each statement's runs, rows and the CPU time of the thread that
# ran it — binding, SQLite's work, reading rows, a commit's writes to the WAL), takes the profile
# once the load has run for a second and again `seconds` later, and prints, via sql_costs.py, each
# statement's CPU per push over that window, with its runs and rows per push. Pushes are counted
# by the delivery rows stored in the window, so the window's edges need not be exact.
#
# A statement's CPU is that of one thread, not of the machine's other tenants: two runs of one
# build agree within a few percent where the server's CPU per push moves by ten (e.g. the
# delivery insert 3.92 and 4.00 µs a push), so two builds compare in a run or two each.
#
#   Benchmarks/sql-costs.sh [events] [seconds]      (200,000 and 4 by default)
#   HERALD_BINARY=/path/to/herald Benchmarks/sql-costs.sh   (another build, e.g. the one before a change)
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-200000}
SECONDS_MEASURED=${2:-4}
case "$EVENTS$SECONDS_MEASURED" in '' | *[!0-9]*) echo "usage: $0 [events] [seconds]" >&2; exit 2 ;; esac
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
HERALD=${HERALD_BINARY:-$BIN/herald}
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/herald-sql-costs.XXXXXX)
BENCH=
# The bench's server too: a bench killed midway leaves it running (and retrying its pushes).
trap 'for p in $BENCH ${SERVER:-}; do kill $p 2>/dev/null || true; done; rm -rf "$WORK"' EXIT

# Every Herald process the bench starts keeps a profile of its own ({pid}); the server's is read.
HERALD_SQLITE_PROFILE="$WORK/profile-{pid}.json" stdbuf -oL "$BIN/herald-bench" engine --herald "$HERALD" \
  --database "sqlite://$WORK/herald.sqlite" --users 10000 --events "$EVENTS" --throughput-only --json "$WORK/result.json" \
  >"$WORK/bench.log" 2>&1 &
BENCH=$!
source Benchmarks/wait-for-load.sh
wait_for_load $BENCH "$WORK/bench.log" "$HERALD"
PROFILE="$WORK/profile-$SERVER.json"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -f "$PROFILE" ] && break; sleep 0.3; done
[ -f "$PROFILE" ] || { echo "$HERALD keeps no statement profile (HERALD_SQLITE_PROFILE): a build from before sql-costs.sh?" >&2; exit 1; }
sleep 1
cp "$PROFILE" "$WORK/start.json"
sleep "$SECONDS_MEASURED"
cp "$PROFILE" "$WORK/end.json"
kill -0 $BENCH 2>/dev/null || { echo "the load ended before the window did: give more events" >&2; exit 1; }
wait $BENCH || { cat "$WORK/bench.log"; exit 1; }
BENCH=
grep "1:1" "$WORK/bench.log"
python3 Benchmarks/sql_costs.py "$WORK/start.json" "$WORK/end.json"
