#!/usr/bin/env bash
# Issue 6's figures, for SQLite then PostgreSQL: time to send a campaign with a push to every user
# (items written, pushes at a local HTTP/2 APNs stand-in), then p50/p99 of GET /v1/me/feed and of
# the unread count with the store holding ITEMS items. One release herald process; the stand-in
# and the load live in herald-bench, a second process on the same cores.
#
#   Benchmarks/run-feed.sh [users] [items]        (PostgreSQL when HERALD_BENCH_POSTGRES_URL is set)
set -euo pipefail
exec "$(dirname "$0")/run-scenario.sh" feed --users "${1:-100000}" --items "${2:-1000000}"
