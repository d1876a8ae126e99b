#!/usr/bin/env python3
"""Reads what Benchmarks/run-all.sh left in a results folder; prints the table (throughputs next
to their ratio to the h2load ceiling of the APNs stand-in), writes results.json and results.png.

    python3 Benchmarks/report.py Benchmarks/results
"""
import json
import os
import re
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/results"


def text(name):
    path = os.path.join(folder, name)
    return open(path).read() if os.path.exists(path) else ""


def number(pattern, source, group=1):
    match = re.search(pattern, source)
    return float(match.group(group)) if match else None


def load(name):
    path = os.path.join(folder, name)
    return json.load(open(path)) if os.path.exists(path) else None


h2load = text("h2load.txt")
providers = text("providers.txt")
realtime = text("realtime.txt")
results = {
    "commit": text("commit.txt").strip(),
    "h2load": {
        "requestsPerSecond": number(r"finished in [\d.]+m?s, ([\d.]+) req/s", h2load),
        "succeeded": number(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded", h2load),
        "status2xx": number(r"status codes: (\d+) 2xx", h2load),
    },
    "providers": {
        kind: {
            "pushesPerSecond": number(kind + r" \(.*?= ([\d.]+) pushes/s", providers),
            "cpuMicrosecondsPerPush": number(kind + r" \(.*?client CPU ([\d.]+) µs/push", providers),
            "peakRSSMiB": number(kind + r" \(.*?peak RSS ([\d.]+) MiB", providers),
        }
        for kind in ("apns", "fcm")
    },
    "engine": {backend: load(f"engine-{backend}.json") for backend in ("sqlite", "postgres")},
    "engineFCM": {backend: load(f"engine-fcm-{backend}.json") for backend in ("sqlite", "postgres")},
    "realtime": {
        "sockets": number(r"websockets: (\d+) open", realtime),
        "rssBeforeMiB": number(r"server RSS ([\d.]+) MiB before", realtime),
        "rssWithSocketsMiB": number(r"MiB before, ([\d.]+) MiB with them", realtime),
        "kibPerSocket": number(r"\(([\d.]+) KiB per socket\)", realtime),
        "envelopesPerSecond": number(r"= ([\d.]+) envelopes/s", realtime),
        "cpuMicrosecondsPerEnvelope": number(r"server CPU ([\d.]+) µs per envelope", realtime),
    },
    "feed": {backend: load(f"feed-{backend}.json") for backend in ("sqlite", "postgres")},
    "registrations": {
        backend: {
            "perSecond": number(r"Requests/sec:\s+([\d.]+)", text(f"core-{backend}.txt")),
            "cpuMicrosecondsEach": number(r"server CPU per registration: ([\d.]+) µs", text(f"core-{backend}.txt")),
            "p99Milliseconds": number(r"99%\s+([\d.]+)ms", text(f"core-{backend}.txt")),
        }
        for backend in ("sqlite", "postgres")
    },
    "recovery": {backend: load(f"recovery-{backend}.json") for backend in ("sqlite", "postgres")},
}
ceiling = results["h2load"]["requestsPerSecond"]


def fmt(value, unit="", digits=0):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}{unit}"


def ratio(value):
    if value is None or not ceiling:
        return "—"
    return f"{value / ceiling:.2f}×"


rows = [("h2load → APNs stand-in (the ceiling)", fmt(ceiling, "/s"), "1.00×", "4 connections × 100 streams, one thread")]
for kind, label in (("apns", "APNs client alone"), ("fcm", "FCM client alone")):
    p = results["providers"][kind]
    rows.append((label, fmt(p["pushesPerSecond"], "/s"), ratio(p["pushesPerSecond"]),
                 f"{fmt(p['cpuMicrosecondsPerPush'], ' µs', 1)} CPU/push, {fmt(p['peakRSSMiB'], ' MiB')}"))
for backend, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
    e = results["engine"][backend]
    if not e:
        continue
    rows.append((f"1:1 events → APNs pushes ({name})", fmt(e["pushesPerSecond"], "/s"), ratio(e["pushesPerSecond"]),
                 f"{fmt(e['serverCPUMicrosecondsPerPush'], ' µs')} server CPU/push, {fmt(e['acceptedPerSecond'], ' events/s')} accepted, RSS {fmt(e['serverPeakRSSMiB'], ' MiB')}"))
    f = results["engineFCM"][backend]
    if f:
        rows.append((f"1:1 events → FCM pushes ({name})", fmt(f["pushesPerSecond"], "/s"), ratio(f["pushesPerSecond"]),
                     f"{fmt(f['serverCPUMicrosecondsPerPush'], ' µs')} server CPU/push, {fmt(f['acceptedPerSecond'], ' events/s')} accepted"))
    rows.append((f"group of {e['groupMembers']:,}: event → last push ({name})", fmt(e["groupSeconds"], " s", 2), "",
                 f"{e['groupMembers'] / e['groupSeconds']:,.0f} pushes/s" if e["groupSeconds"] else ""))
    rows.append((f"latency POST → APNs at {e['latencyRate']:,} events/s ({name})",
                 f"p50 {fmt(e['latencyP50Milliseconds'], ' ms', 1)}, p99 {fmt(e['latencyP99Milliseconds'], ' ms', 1)}", "",
                 f"{e['latencySamples']:,} samples"))
r = results["realtime"]
rows.append((f"RSS with {fmt(r['sockets'])} idle WebSockets", fmt(r["rssWithSocketsMiB"], " MiB"), "",
             f"from {fmt(r['rssBeforeMiB'], ' MiB')}; {fmt(r['kibPerSocket'], ' KiB', 1)} per socket"))
rows.append(("WebSocket fan-out", fmt(r["envelopesPerSecond"], " envelopes/s"), ratio(r["envelopesPerSecond"]),
             f"{fmt(r['cpuMicrosecondsPerEnvelope'], ' µs', 1)} server CPU/envelope"))
for backend, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
    f = results["feed"][backend]
    if not f:
        continue
    rows.append((f"campaign to {f['users']:,} users ({name})", f"items {fmt(f['campaignItemsSeconds'], ' s', 1)}, last push {fmt(f['campaignPushesSeconds'], ' s', 1)}",
                 ratio(f["campaignPushes"] / f["campaignPushesSeconds"]) if f["campaignPushesSeconds"] else "",
                 f"{f['campaignPushes']:,} pushes"))
    rows.append((f"feed with {f['itemsInStore']:,} items ({name})", f"p50 {fmt(f['feedP50Milliseconds'], ' ms', 2)}, p99 {fmt(f['feedP99Milliseconds'], ' ms', 2)}", "",
                 f"unread count p50 {fmt(f['unreadP50Milliseconds'], ' ms', 2)}, p99 {fmt(f['unreadP99Milliseconds'], ' ms', 2)}"))

for backend, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
    g = results["registrations"][backend]
    if g["perSecond"] is None:
        continue
    rows.append((f"token registrations over HTTP ({name})", fmt(g["perSecond"], "/s"), "",
                 f"{fmt(g['cpuMicrosecondsEach'], ' µs')} server CPU each, p99 {fmt(g['p99Milliseconds'], ' ms', 1)}"))
for backend, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
    v = results["recovery"][backend]
    if not v:
        continue
    for stop in ("kill", "term"):
        s = v[stop]
        rows.append((f"{s['signal']} ×{s['stops']} mid-load, restart ({name})", f"last push {fmt(s['lastPushAfterRestartSeconds'], ' s', 1)} after",
                     "", f"{s['arrived']:,} of {s['events']:,} arrived, {s['sentTwice']:,} sent twice"))

widths = [max(len(row[i]) for row in rows) for i in range(4)]
header = ("figure", "value", "÷ ceiling", "also")
widths = [max(w, len(h)) for w, h in zip(widths, header)]
print()
print(f"Herald benchmarks (commit {results['commit'] or '?'})")
print(" | ".join(h.ljust(w) for h, w in zip(header, widths)))
print("-+-".join("-" * w for w in widths))
for row in rows:
    print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths)))
results["table"] = [dict(zip(header, row)) for row in rows]
with open(os.path.join(folder, "results.json"), "w") as out:
    json.dump(results, out, indent=2, sort_keys=True)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(matplotlib is missing: no plot)")
    sys.exit(0)

bars = [("h2load\nceiling", ceiling), ("APNs\nclient", results["providers"]["apns"]["pushesPerSecond"]),
        ("FCM\nclient", results["providers"]["fcm"]["pushesPerSecond"])]
latency = []
for backend, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
    e = results["engine"][backend]
    if e:
        bars.append((f"engine→APNs\n{name}", e["pushesPerSecond"]))
        if results["engineFCM"][backend]:
            bars.append((f"engine→FCM\n{name}", results["engineFCM"][backend]["pushesPerSecond"]))
        latency.append((name, e["latencyP50Milliseconds"], e["latencyP99Milliseconds"]))
bars = [(label, value) for label, value in bars if value]
figure, (left, right) = plt.subplots(1, 2, figsize=(15, 5), gridspec_kw={"width_ratios": [2, 1]})
left.bar([b[0] for b in bars], [b[1] for b in bars], color=["#888888"] + ["#2b7bb9"] * (len(bars) - 1))
for index, (_, value) in enumerate(bars):
    left.text(index, value, f"{value:,.0f}\n({value / ceiling:.2f}×)" if ceiling else f"{value:,.0f}", ha="center", va="bottom", fontsize=8)
left.tick_params(axis="x", labelsize=8)
left.axhline(25_000, color="#d9534f", linestyle="--", linewidth=1)
left.text(len(bars) - 0.5, 25_000, "target 25,000/s", color="#d9534f", ha="right", va="bottom", fontsize=8)
left.set_ylabel("pushes per second")
left.set_title("Throughput (one process, 2 cores)")
if latency:
    x = range(len(latency))
    right.bar([i - 0.2 for i in x], [l[1] for l in latency], width=0.4, label="p50")
    right.bar([i + 0.2 for i in x], [l[2] for l in latency], width=0.4, label="p99")
    right.set_xticks(list(x))
    right.set_xticklabels([l[0] for l in latency])
    right.set_ylabel("milliseconds")
    right.set_title("Latency POST /v1/events → APNs at 1,000 events/s")
    right.legend()
figure.tight_layout()
figure.savefig(os.path.join(folder, "results.png"), dpi=110)
print(f"\nresults: {os.path.join(folder, 'results.json')}, plot: {os.path.join(folder, 'results.png')}")
