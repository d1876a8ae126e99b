#!/usr/bin/env bash
# API fuzzing: schemathesis (PyPI) generates requests from the served /openapi.yaml and checks
# every answer — no 5xx, status codes, content types, headers and bodies as the spec declares
# them, and no route that ignores its credentials. It runs twice per database: with an app's API
# key (admin) and with a user's auth token. SQLite always; PostgreSQL too when
# HERALD_TEST_POSTGRES_URL names a database it may create others beside.
#
#   Scripts/fuzz-api.sh [examples per operation]   # 25 in .ci/run; 100 for the full run (Scripts/reliability.sh)
#
# HERALD_BIN picks the herald executable (default: the debug build, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES=${1:-25}
CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,ignored_auth

if ! command -v schemathesis >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore schemathesis >/dev/null
fi
HERALD=${HERALD_BIN:-.build/debug/herald}
[ -x "$HERALD" ] || swift build --product herald >/dev/null

WORK=$(mktemp -d /tmp/herald-fuzz.XXXXXX)
SERVER_PID=
cleanup() { [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

fuzz() {  # fuzz <label> <database URL>
  local label=$1 database=$2 port
  port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
  export HERALD_DATABASE_URL=$database HERALD_SECRET_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') HERALD_LOG_LEVEL=warning
  local key
  key=$("$HERALD" apps create --name "Fuzz $label" --json | json_field apiKey)
  "$HERALD" serve --host 127.0.0.1 --port "$port" >"$WORK/$label.log" 2>&1 &
  SERVER_PID=$!
  local url=http://127.0.0.1:$port
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  # Something for the generated requests to find: a user with a session, a group, a provider.
  curl -sf -X PUT "$url/v1/users/fuzz-user" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{"name":"Fuzz"}' >/dev/null
  curl -sf -X PUT "$url/v1/groups/fuzz-group" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{"name":"Fuzz"}' >/dev/null
  local token
  token=$(curl -sf -X POST "$url/v1/users/fuzz-user/sessions" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{}' | json_field authToken)
  local status=0
  for who in admin user; do
    local bearer=$key
    [ "$who" = admin ] || bearer=$token
    echo "== schemathesis: $label, $who credentials, $EXAMPLES examples per operation"
    schemathesis run "$url/openapi.yaml" -H "Authorization: Bearer $bearer" --checks "$CHECKS" \
      --max-examples "$EXAMPLES" --phases examples,coverage,fuzzing --workers 2 --no-color --seed 1 \
      --suppress-health-check all --warnings off >"$WORK/$label-$who.txt" 2>&1 || status=$?
    grep -E "generated|failures|passed" "$WORK/$label-$who.txt" | tail -n 2
    # schemathesis also exits non-zero on its own errors (a request it could not generate); those
    # pass when no check failed and the server still answers.
    if [ "$status" != 0 ] && ! grep -qE "unique failure|[0-9]+ failures?[ ,]" "$WORK/$label-$who.txt" && curl -sf "$url/health" >/dev/null; then
      echo "(schemathesis reported an error of its own, not a failed check:)"
      grep -E "Error:|KeyError" "$WORK/$label-$who.txt" | head -n 2 | cut -c1-200
      status=0
    fi
    if [ "$status" != 0 ]; then
      cat "$WORK/$label-$who.txt"
      echo "--- server log"; tail -n 50 "$WORK/$label.log"
      return "$status"
    fi
  done
  if grep -Eq '"level" ?: ?"(error|critical)"' "$WORK/$label.log"; then
    echo "the server logged errors while fuzzed:"; grep -E '"level" ?: ?"(error|critical)"' "$WORK/$label.log" | head -n 20
    return 1
  fi
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
}

# FUZZ_BACKENDS picks the back-ends (default: both; PostgreSQL only with HERALD_TEST_POSTGRES_URL).
BACKENDS=" ${FUZZ_BACKENDS:-sqlite postgres} "
if [[ $BACKENDS == *" sqlite "* ]]; then fuzz sqlite "sqlite://$WORK/herald.sqlite"; fi
if [ -n "${HERALD_TEST_POSTGRES_URL:-}" ] && [[ $BACKENDS == *" postgres "* ]]; then
  base=${HERALD_TEST_POSTGRES_URL%/*}
  name="herald_fuzz_$$"
  psql "$HERALD_TEST_POSTGRES_URL" -qc "CREATE DATABASE $name" >/dev/null
  fuzz postgres "$base/$name"
fi
echo "API fuzzing: no failures"
