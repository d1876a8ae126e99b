"""Synapse against Herald's Matrix push gateway: a real homeserver (matrix-synapse from PyPI,
SQLite, 127.0.0.1) with two users; Bo's pushers point at Herald; Ana sends Bo a message.

Run by Tests/HeraldServerTests/SynapseTests.swift with the virtualenv's python. Environment:
HERALD_URL, HERALD_API_KEY, PUSHERS (JSON: [{app_id, pushkey, format?}]), DEAD_PUSHKEY, WORK.
Prints one JSON line: {"room_id", "event_id", "pushers_left", "matrix_events"}.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import yaml

HERALD = os.environ["HERALD_URL"]
API_KEY = os.environ["HERALD_API_KEY"]
WORK = os.environ["WORK"]
PUSHERS = json.loads(os.environ["PUSHERS"])
DEAD = os.environ["DEAD_PUSHKEY"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(method, url, body=None, token=None, ok=(200,)):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        payload = json.loads(error.read() or b"{}")
        if error.code in ok:
            return error.code, payload
        raise SystemExit(f"{method} {url}: {error.code} {payload}")


def configure(port):
    config = os.path.join(WORK, "homeserver.yaml")
    subprocess.run(
        [sys.executable, "-m", "synapse.app.homeserver", "--server-name", "localhost", "--config-path", config,
         "--data-directory", WORK, "--generate-config", "--report-stats=no"],
        check=True, capture_output=True, cwd=WORK,
    )
    with open(config) as f:
        settings = yaml.safe_load(f)
    unlimited = {"per_second": 1000, "burst_count": 1000}
    settings.update({
        "listeners": [{"port": port, "bind_addresses": ["127.0.0.1"], "type": "http", "tls": False,
                       "x_forwarded": False, "resources": [{"names": ["client"], "compress": False}]}],
        "database": {"name": "sqlite3", "args": {"database": os.path.join(WORK, "homeserver.db")}},
        "enable_registration": True,
        "enable_registration_without_verification": True,
        # Synapse refuses to push to private addresses unless told: Herald listens on loopback.
        "ip_range_whitelist": ["127.0.0.0/8"],
        "rc_message": unlimited, "rc_registration": unlimited,
        "rc_login": {"address": unlimited, "account": unlimited, "failed_attempts": unlimited},
        "rc_joins": {"local": unlimited, "remote": unlimited},
        "rc_invites": {"per_room": unlimited, "per_user": unlimited},
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "report_stats": False,
        "push": {"include_content": True},
    })
    with open(config, "w") as f:
        yaml.safe_dump(settings, f)
    return config


def register(base, name):
    url = base + "/_matrix/client/v3/register"
    status, challenge = call("POST", url, {"username": name, "password": "correct horse " + name}, ok=(401,))
    _, answer = call("POST", url, {"username": name, "password": "correct horse " + name,
                                   "auth": {"type": "m.login.dummy", "session": challenge.get("session")}})
    return answer["access_token"]


def main():
    port = free_port()
    config = configure(port)
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(WORK, "synapse.out"), "w")
    synapse = subprocess.Popen([sys.executable, "-m", "synapse.app.homeserver", "-c", config], cwd=WORK, stdout=log, stderr=log)
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except Exception:
                pass
            if synapse.poll() is not None or time.time() > deadline:
                raise SystemExit("Synapse did not start: " + open(os.path.join(WORK, "synapse.out")).read()[-3000:])
            time.sleep(0.3)

        ana = register(base, "ana")
        bo = register(base, "bo")
        for pusher in PUSHERS:
            data = {"url": HERALD + "/_matrix/push/v1/notify"}
            if pusher.get("format"):
                data["format"] = pusher["format"]
            call("POST", base + "/_matrix/client/v3/pushers/set", {
                "kind": "http", "app_id": pusher["app_id"], "pushkey": pusher["pushkey"], "app_display_name": "Herald test",
                "device_display_name": "Bo's device", "lang": "en", "data": data, "append": True,
            }, token=bo)
        _, room = call("POST", base + "/_matrix/client/v3/createRoom",
                       {"preset": "trusted_private_chat", "invite": ["@bo:localhost"], "is_direct": True}, token=ana)
        room_id = room["room_id"]
        call("POST", base + f"/_matrix/client/v3/join/{urllib.parse.quote(room_id)}", {}, token=bo)
        _, sent = call("PUT", base + f"/_matrix/client/v3/rooms/{urllib.parse.quote(room_id)}/send/m.room.message/txn1",
                       {"msgtype": "m.text", "body": "Hello from Synapse"}, token=ana)

        # Synapse drops the pusher whose pushkey Herald rejected; Herald logs one event per device.
        deadline = time.time() + 90
        while True:
            _, pushers = call("GET", base + "/_matrix/client/v3/pushers", token=bo)
            left = [p["pushkey"] for p in pushers.get("pushers", [])]
            _, events = call("GET", HERALD + "/v1/events?limit=100", token=API_KEY)
            matrix = [e for e in events.get("data", []) if e.get("type") == "matrix"]
            if DEAD not in left and len(matrix) >= len(PUSHERS):
                break
            if time.time() > deadline:
                raise SystemExit(f"timed out: pushers {left}, {len(matrix)} matrix events; synapse log:\n"
                                 + open(os.path.join(WORK, "synapse.out")).read()[-3000:])
            time.sleep(0.5)
        print(json.dumps({"room_id": room_id, "event_id": sent["event_id"], "pushers_left": left, "matrix_events": len(matrix)}))
    finally:
        synapse.terminate()
        try:
            synapse.wait(timeout=20)
        except subprocess.TimeoutExpired:
            synapse.kill()


if __name__ == "__main__":
    import urllib.parse  # noqa: E402 (quote)
    main()
