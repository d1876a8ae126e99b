#!/usr/bin/env bash
# Issue 5's figures, for SQLite then PostgreSQL: sustained events/s and pushes/s for 1:1 messages
# into a local HTTP/2 APNs stand-in, time from one event to the last push for a group of every
# user, and p50/p99 latency from POST /v1/events to APNs at 1,000 events/s. One release herald
# process; the stand-in and the load live in herald-bench, a second process on the same cores.
#
#   Benchmarks/run-engine.sh [users] [events]        (PostgreSQL when HERALD_BENCH_POSTGRES_URL is set)
set -euo pipefail
exec "$(dirname "$0")/run-scenario.sh" engine --users "${1:-10000}" --events "${2:-100000}"
