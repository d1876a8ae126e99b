"""Seeds a running Herald for the benchmarks, over HTTP, with several keep-alive connections.

    python3 seed.py URL API_KEY users N --sessions FILE   # N users, one session each; auth tokens to FILE
    python3 seed.py URL API_KEY members N                 # N users, then one group; times adding them as members
"""
import http.client
import json
import sys
import threading
import time
from urllib.parse import urlparse

WORKERS = 8


class Client:
    def __init__(self, url, key):
        parsed = urlparse(url)
        self.conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
        self.key = key

    def call(self, method, path, body=None, bearer=None):
        headers = {"Authorization": "Bearer " + (bearer or self.key), "Content-Type": "application/json"}
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
        return json.loads(data) if data else None


def parallel(url, key, count, work):
    """Runs work(client, i) for i in range(count) over WORKERS connections; returns the results in order."""
    results = [None] * count

    def worker(offset):
        client = Client(url, key)
        for i in range(offset, count, WORKERS):
            results[i] = work(client, i)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def make_users(url, key, count, prefix):
    started = time.time()
    parallel(url, key, count, lambda c, i: c.call("PUT", f"/v1/users/{prefix}{i:06d}", {"name": f"User {i}"}))
    return time.time() - started


def main():
    url, key, mode, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if mode == "users":
        out = sys.argv[sys.argv.index("--sessions") + 1]
        took = make_users(url, key, count, "u")
        tokens = parallel(url, key, count, lambda c, i: c.call("POST", f"/v1/users/u{i:06d}/sessions", {"deviceName": "bench"})["authToken"])
        with open(out, "w") as f:
            f.write("\n".join(tokens) + "\n")
        print(json.dumps({"users": count, "userSeconds": round(took, 2)}))
    elif mode == "members":
        took_users = make_users(url, key, count, "m")
        client = Client(url, key)
        client.call("PUT", "/v1/groups/big", {"name": "Big group"})
        uids = [f"m{i:06d}" for i in range(count)]
        started = time.time()
        added = 0
        for start in range(0, count, 10_000):
            added += client.call("POST", "/v1/groups/big/members", {"uids": uids[start:start + 10_000]})["added"]
        took = time.time() - started
        assert added == count, added
        count_back = client.call("GET", "/v1/groups/big")["membersCount"]
        assert count_back == count, count_back
        # Reading them all back, 1,000 per page.
        started = time.time()
        cursor, seen = None, 0
        while True:
            page = client.call("GET", "/v1/groups/big/members?limit=1000" + (f"&cursor={cursor}" if cursor else ""))
            seen += len(page["data"])
            cursor = page.get("nextCursor")
            if not cursor:
                break
        paged = time.time() - started
        assert seen == count, seen
        print(json.dumps({"members": count, "addSeconds": round(took, 2), "pageAllSeconds": round(paged, 2),
                          "userCreationSeconds": round(took_users, 2)}))


if __name__ == "__main__":
    main()
