#!/usr/bin/env bash
# Proves the release archive needs no Swift toolchain: unpacks it into a bare Debian bookworm
# root made with debootstrap (minbase, the CA certificates, SQLite's library and jemalloc; no Swift, no build tools), starts
# `herald serve` inside it with
# chroot, and checks that /ready answers, an app is created and a test push reaches a stand-in
# (an HTTPS webhook receiver outside the root, on 127.0.0.1).
#
#   Scripts/release.sh && Scripts/release-check.sh [archive]
#
# Needs root, debootstrap and openssl (Debian packages). The root is kept in
# ${HERALD_CHECK_ROOT:-/var/tmp/herald-bookworm} and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE=${1:-$(ls -t dist/herald-*.tar.gz | head -n 1)}
ROOT=${HERALD_CHECK_ROOT:-/var/tmp/herald-bookworm}
PORT=18480
HOOK_PORT=18443
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }

# Debian's minimal system plus the CA certificates every server needs to reach Apple and Google
# (without them no TLS connection to a provider can be verified), the system's SQLite, which
# Herald's embedded database links, and jemalloc, the allocator the server links; no Swift, no
# compiler.
if [ ! -f "$ROOT/etc/ssl/certs/ca-certificates.crt" ] || ! ls "$ROOT"/usr/lib/*/libsqlite3.so.0 >/dev/null 2>&1 \
  || ! ls "$ROOT"/usr/lib/*/libjemalloc.so.2 >/dev/null 2>&1; then
  rm -rf "$ROOT"
  echo "making a bare Debian bookworm root in $ROOT (debootstrap, minbase + ca-certificates, libsqlite3-0, libjemalloc2)…"
  debootstrap --variant=minbase --include=ca-certificates,libsqlite3-0,libjemalloc2 bookworm "$ROOT" http://deb.debian.org/debian >/dev/null
fi
echo "root: $(cat "$ROOT/etc/debian_version") — swift: $(chroot "$ROOT" /bin/sh -c 'command -v swift || echo none')"
rm -rf "$ROOT/opt/herald" "$ROOT/var/lib/herald"
mkdir -p "$ROOT/opt/herald" "$ROOT/var/lib/herald" "$ROOT/etc/herald"
tar -C "$ROOT/opt/herald" --strip-components=1 -xzf "$ARCHIVE"
echo "unpacked $(basename "$ARCHIVE"): $(ls "$ROOT/opt/herald" | tr '\n' ' ')"
echo "the binary links: $(chroot "$ROOT" /usr/bin/ldd /opt/herald/herald 2>/dev/null | awk '{print $1}' | tr '\n' ' ' || echo '(ldd not in the root)')"

WORK=$(mktemp -d)
SERVER_PID= HOOK_PID=
cleanup() {
  [ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; } || true
  [ -z "$HOOK_PID" ] || kill "$HOOK_PID" 2>/dev/null || true
  umount "$ROOT/proc" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
mount -t proc proc "$ROOT/proc" 2>/dev/null || echo "(/proc not mounted in the root: herald runs without it)"

# The stand-in: an HTTPS webhook receiver with a self-signed certificate the root trusts.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
cp "$WORK/cert.pem" "$ROOT/etc/herald/stand-in.pem"
cat > "$WORK/hook.py" <<'PY'
import http.server, json, ssl, sys
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        print("stand-in received:", self.path, body.decode()[:300], flush=True)
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hook)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); context.load_cert_chain(sys.argv[2], sys.argv[3])
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
PY
python3 "$WORK/hook.py" "$HOOK_PORT" "$WORK/cert.pem" "$WORK/key.pem" > "$WORK/hook.log" 2>&1 &
HOOK_PID=$!

cat > "$ROOT/etc/herald/herald.yaml" <<YAML
database: sqlite:///var/lib/herald/herald.sqlite
host: 127.0.0.1
port: $PORT
dataDir: /var/lib/herald
webhooks:
  allowPrivate: true
providers:
  caFile: /etc/herald/stand-in.pem
YAML
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/herald "$@"; }
in_root /opt/herald/herald --version
in_root /opt/herald/herald config check --config /etc/herald/herald.yaml | sed -n '1,4p'
chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/herald /opt/herald/herald serve --config /etc/herald/herald.yaml \
  > "$WORK/serve.log" 2>&1 &
SERVER_PID=$!
URL=http://127.0.0.1:$PORT
curl -sf --retry 30 --retry-connrefused --retry-delay 1 "$URL/ready" >/dev/null || { cat "$WORK/serve.log"; echo "FAILED: /ready did not answer"; exit 1; }
echo "/ready: $(curl -s "$URL/ready")"
KEY=$(in_root /opt/herald/herald apps create --name "Release check" --config /etc/herald/herald.yaml --json \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
echo "app created: key ${KEY:0:6}…"
curl -sS --fail-with-body -X POST "$URL/v1/push/providers" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
     -d "{\"providerId\":\"hook\",\"kind\":\"custom\",\"url\":\"https://127.0.0.1:$HOOK_PORT/push\"}" >/dev/null
VERDICT=$(curl -s -X POST "$URL/v1/push/providers/hook/test" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
     -d '{"uid":"release-check","title":"Hello","body":"from the release binary"}')
echo "test push verdict: $(tr -d '\n ' <<<"$VERDICT")"
sleep 0.5
cat "$WORK/hook.log"
python3 -c 'import json,sys; sys.exit(json.loads(sys.argv[1]).get("status") != "delivered")' "$VERDICT" && grep -q "stand-in received" "$WORK/hook.log" \
  || { echo "FAILED"; tail -n 20 "$WORK/serve.log"; exit 1; }
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
grep -o '"msg":"[^"]*"' "$WORK/serve.log" | sort | uniq -c | sed 's/^/  log: /'
echo "OK: the release binary ran in a bare Debian root and its test push reached the stand-in"
