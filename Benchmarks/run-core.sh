#!/usr/bin/env bash
# Issue 2's figures: token registrations per second over HTTP with 10,000 users, and the time to
# add 100,000 members to a group. Runs a release `herald serve` on 127.0.0.1 and drives it with
# wrk (a separate process) and seed.py.
#
#   Benchmarks/run-core.sh sqlite
#   HERALD_BENCH_POSTGRES_URL=postgres://user:pass@127.0.0.1:5432/db Benchmarks/run-core.sh postgres
#   (the PostgreSQL database is emptied first: fresh-postgres.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
BACKEND=${1:-sqlite}
PORT=${HERALD_BENCH_PORT:-18080}
DURATION=${HERALD_BENCH_DURATION:-20s}
CONNECTIONS=${HERALD_BENCH_CONNECTIONS:-64}
WORK=$(mktemp -d /tmp/herald-bench.XXXXXX)
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }

# A separate scratch path keeps the release build from contending with debug builds in .build.
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)/herald

case "$BACKEND" in
  sqlite) DB="sqlite://$WORK/herald.sqlite" ;;
  postgres) DB=${HERALD_BENCH_POSTGRES_URL:?set HERALD_BENCH_POSTGRES_URL}; Benchmarks/fresh-postgres.sh ;;
  *) echo "backend: sqlite or postgres"; exit 1 ;;
esac
export HERALD_DATA_DIR=$WORK HERALD_LOG_LEVEL=warning HERALD_RATE_LIMIT=0 HERALD_USER_RATE_LIMIT=0

"$BIN" serve --database "$DB" --port "$PORT" --host 127.0.0.1 2>"$WORK/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/ready" >/dev/null && break; sleep 0.2; done

KEY=$("$BIN" apps create --database "$DB" --name "bench-$(date +%s)" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
URL="http://127.0.0.1:$PORT"
python3 - "$URL" "$KEY" <<'PY'
import json, subprocess, sys, urllib.request
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives import serialization
pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
body = {"providerId": "fcm-1", "kind": "fcm", "serviceAccount": {"type": "service_account", "project_id": "bench",
        "private_key": pem, "client_email": "bench@bench.iam.gserviceaccount.com"}}
request = urllib.request.Request(sys.argv[1] + "/v1/push/providers", json.dumps(body).encode(), method="POST",
    headers={"Authorization": "Bearer " + sys.argv[2], "Content-Type": "application/json"})
urllib.request.urlopen(request).read()
PY

echo "== seeding 10,000 users with one session each ($BACKEND)"
python3 Benchmarks/seed.py "$URL" "$KEY" users 10000 --sessions "$WORK/sessions.txt"

cpu() { awk '{print $14 + $15}' /proc/$SERVER/stat; }
TICKS=$(getconf CLK_TCK)
echo "== token registrations: wrk -t2 -c$CONNECTIONS -d$DURATION"
BEFORE=$(cpu)
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s Benchmarks/register-token.lua "$URL" -- "$WORK/sessions.txt" | tee "$WORK/wrk.txt"
AFTER=$(cpu)
REQUESTS=$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")
python3 -c "print('server CPU per registration: %.0f µs' % (($AFTER - $BEFORE) / $TICKS * 1e6 / $REQUESTS))"
echo "server RSS: $(awk '/VmRSS/ {print $2, $3}' /proc/$SERVER/status)"

echo "== 100,000 members in one group ($BACKEND)"
python3 Benchmarks/seed.py "$URL" "$KEY" members 100000
rm -rf "$WORK"
