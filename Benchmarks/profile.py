#!/usr/bin/env python3
"""Reads `perf script -F pid,comm,ip,sym,dso` of a whole-machine profile (profile-engine.sh) and
prints the CPU per push of each process and Herald's samples split by phase of the hot path.

A sample belongs to the first frame, from the leaf up, that names a phase: so the retains, hashes,
allocations and system calls made for SQLite, for the provider client or for planning count in
that phase, not in the runtime's. Frames that name none (NIO's event loop, the concurrency
runtime) count in the first of those that matches.

    python3 Benchmarks/profile.py samples.txt --server-pid PID [--bench-pid PID] [--cpu-per-push µs]
"""
import argparse
import collections
import re
import subprocess

# (phase, what it is, pattern over "symbol (dso)"), in the order a frame is tested against them.
PHASES = [
    ("sqlite", "SQLite itself, GRDB and Herald's SQLite layer (statements, WAL writes)",
     r"libsqlite3|^GRDB\.|HeraldStorage\.SQLite|HeraldStorage\.DeliveryUserIndex"),
    ("send", "the provider clients: HTTP/2, HPACK, TLS, results",
     r"HeraldProviders\.|NIOHTTP2|NIOHPACK|NIOSSL|CNIOBoringSSL|HeraldCore\.Dispatcher"),
    ("intake", "the HTTP server and POST /v1/events: JSON, parsing and checking events",
     r"Hummingbird|NIOHTTP1|HeraldCore\.EventIntake|HeraldCore\.EventParser|HeraldCore\.FieldReader|"
     r"HeraldModels\.JSONReader|HeraldServer\."),
    ("storage", "repositories, caches, SQLKit, the PostgreSQL client",
     r"HeraldStorage\.|SQLKit\.|PostgresNIO|PostgresKit"),
    ("plan", "the fan-out: resolving, deciding, payloads, delivery rows",
     r"HeraldCore\.|HeraldModels\."),
]
FALLBACK = [
    ("kernel", "system calls and scheduling not asked for by a phase above", r"\[kernel"),
    ("event loops", "NIO's event loops and buffers", r"NIOPosix|NIOCore|NIOEmbedded"),
    ("tasks", "the concurrency runtime and dispatch", r"libswift_Concurrency|libdispatch"),
]
RUNTIME = r"libswiftCore|libjemalloc|libc\.so"


def read(path):
    samples = []
    current = None
    for line in open(path, errors="replace"):
        if not line.strip():
            if current:
                samples.append(current)
            current = None
        elif not line.startswith("\t"):
            fields = line.split()
            current = (int(fields[-1]), " ".join(fields[:-1]), [])
        elif current is not None:
            rest = line.strip().split(" ", 1)[1] if " " in line.strip() else ""
            match = re.match(r"(.*) \((.*)\)$", rest)
            symbol, dso = match.groups() if match else (rest, "")
            if symbol == "[unknown]":
                symbol = f"[unknown in {dso.rsplit('/', 1)[-1]}]"
            current[2].append((symbol, dso))
    if current:
        samples.append(current)
    return samples


def demangled(symbols):
    symbols = sorted(symbols)
    out = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(symbols), capture_output=True, text=True)
    names = out.stdout.split("\n") if out.returncode == 0 else symbols
    return dict(zip(symbols, names))


def phase_of(frames):
    for rules in (PHASES, FALLBACK):
        for text in frames:
            for name, _, pattern in rules:
                if re.search(pattern, text):
                    return name
    return "unattributed"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--bench-pid", type=lambda text: int(text) if text else None, default=None)
    parser.add_argument("--cpu-per-push", type=float, default=None, help="the server's CPU per push (µs), as the bench measured it")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()

    samples = read(args.samples)
    by_process = collections.Counter()
    for pid, comm, _ in samples:
        if pid == args.server_pid:
            by_process["herald"] += 1
        elif args.bench_pid and pid == args.bench_pid:
            by_process["herald-bench (load, APNs stand-in)"] += 1
        elif comm.startswith("postgres"):
            by_process["postgres"] += 1
        elif pid == 0:
            by_process["idle"] += 1
        else:
            by_process["other"] += 1
    server = [frames for pid, _, frames in samples if pid == args.server_pid]
    if not server:
        raise SystemExit("no samples of the server's process")
    per_sample = args.cpu_per_push / len(server) if args.cpu_per_push else None
    unit = "µs/push" if per_sample else "samples"

    def amount(count):
        return f"{count * per_sample:6.1f}" if per_sample else f"{count:6d}"

    print(f"\nCPU by process ({sum(by_process.values())} samples on all CPUs; µs per push from Herald's own figure)")
    for name, count in by_process.most_common():
        print(f"  {name:38s} {amount(count)} {unit}  {count * 100 / sum(by_process.values()):5.1f} %")

    names = demangled({symbol for frames in server for symbol, _ in frames})
    texts = [[f"{names.get(symbol, symbol)} ({dso})" for symbol, dso in frames] for frames in server]
    phases = collections.Counter()
    runtime = collections.Counter()
    leaves = collections.defaultdict(collections.Counter)
    for frames in texts:
        if not frames:
            continue
        phase = phase_of(frames)
        phases[phase] += 1
        if re.search(RUNTIME, frames[0]):
            runtime[phase] += 1
        leaves[phase][re.sub(r" \(.*\)$", "", frames[0])[:110]] += 1
    described = {name: text for name, text, _ in PHASES + FALLBACK}
    described["unattributed"] = "the stack ends in the runtime or allocator (a caller without frame pointers)"
    print(f"\nHerald by phase ({len(server)} samples): {unit}, share, of which in the Swift runtime and allocator")
    for name, count in phases.most_common():
        print(
            f"  {name:12s} {amount(count)}  {count * 100 / len(server):5.1f} %  "
            f"(runtime {runtime[name] * 100 / max(count, 1):4.0f} %)  {described.get(name, '')}"
        )
    print(f"\nHerald's functions by own time (top {args.top})")
    own = collections.Counter(re.sub(r" \(.*\)$", "", frames[0])[:120] for frames in texts if frames)
    for name, count in own.most_common(args.top):
        print(f"  {amount(count)}  {count * 100 / len(server):5.1f} %  {name}")
    for name, _ in phases.most_common(3):
        print(f"\nin {name}, by own time")
        for leaf, count in leaves[name].most_common(8):
            print(f"  {amount(count)}  {count * 100 / len(server):5.1f} %  {leaf}")


if __name__ == "__main__":
    main()
