#!/usr/bin/env bash
# The reliability suites at full size: the crash suite (a 100,000-user campaign and a stream of
# direct messages through five SIGKILLs; on PostgreSQL also two processes), the fault suite
# (2,000 users through refusals, GOAWAYs, latency and a hanging webhook) and API fuzzing with
# 100 examples per operation. CI runs the same suites at a reduced size (.ci/run).
#
#   HERALD_TEST_POSTGRES_URL=postgres://… Scripts/reliability.sh     (without it: SQLite only)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
# The processes the suites start and kill are a release build (seeding 100,000 users through a
# debug build takes ~10 minutes a scenario); the tests and stand-ins stay debug.
swift build -c release --product herald --scratch-path .build-release
export HERALD_EXECUTABLE="$PWD/.build-release/release/herald"
ulimit -n "$(ulimit -Hn)"
HERALD_SUITE_SCALE=full swift test --skip-build --no-parallel --filter "CrashSuiteTests|FaultToleranceTests" 2>&1 \
  | tee /tmp/herald-reliability.log | grep -E "crash suite|fault suite|✔|✘"
Scripts/fuzz-api.sh 100
