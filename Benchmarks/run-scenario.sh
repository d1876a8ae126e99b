#!/usr/bin/env bash
# Runs one herald-bench scenario that starts its own `herald serve`, on SQLite then (when
# HERALD_BENCH_POSTGRES_URL is set) PostgreSQL; results as JSON in $HERALD_BENCH_OUT (/tmp) as
# <scenario>-sqlite.json and <scenario>-postgres.json. Used by run-engine.sh and run-feed.sh. The
# PostgreSQL database is emptied first (fresh-postgres.sh), as SQLite starts from a new file.
#
#   Benchmarks/run-scenario.sh <scenario> [herald-bench arguments…]
set -euo pipefail
cd "$(dirname "$0")/.."
SCENARIO=$1
shift
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d "/tmp/herald-$SCENARIO.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "== SQLite"
"$BIN/herald-bench" "$SCENARIO" --herald "$BIN/herald" --database "sqlite://$WORK/herald.sqlite" "$@" --json "$WORK/sqlite.json"
cp "$WORK/sqlite.json" "${HERALD_BENCH_OUT:-/tmp}/$SCENARIO-sqlite.json"
if [ -n "${HERALD_BENCH_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL"
  Benchmarks/fresh-postgres.sh
  "$BIN/herald-bench" "$SCENARIO" --herald "$BIN/herald" --database "$HERALD_BENCH_POSTGRES_URL" "$@" --json "$WORK/postgres.json"
  cp "$WORK/postgres.json" "${HERALD_BENCH_OUT:-/tmp}/$SCENARIO-postgres.json"
fi
