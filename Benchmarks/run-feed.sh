#!/usr/bin/env bash
# Issue 6's figures, for SQLite then PostgreSQL: time to send a campaign with a push to every user
# (items written, pushes at a local HTTP/2 APNs stand-in), then p50/p99 of GET /v1/me/feed and of
# the unread count with the store holding ITEMS items. One release herald process; the stand-in
# and the load live in herald-bench, a second process on the same cores.
#
#   Benchmarks/run-feed.sh [users] [items]        (PostgreSQL when HERALD_BENCH_POSTGRES_URL is set)
set -euo pipefail
cd "$(dirname "$0")/.."
USERS=${1:-100000}
ITEMS=${2:-1000000}
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/herald-feed.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "== SQLite"
"$BIN/herald-bench" feed --herald "$BIN/herald" --database "sqlite://$WORK/herald.sqlite" --users "$USERS" --items "$ITEMS" --json "$WORK/sqlite.json"
cp "$WORK/sqlite.json" "${HERALD_BENCH_OUT:-/tmp}/feed-sqlite.json"
if [ -n "${HERALD_BENCH_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL"
  "$BIN/herald-bench" feed --herald "$BIN/herald" --database "$HERALD_BENCH_POSTGRES_URL" --users "$USERS" --items "$ITEMS" --json "$WORK/postgres.json"
  cp "$WORK/postgres.json" "${HERALD_BENCH_OUT:-/tmp}/feed-postgres.json"
fi
