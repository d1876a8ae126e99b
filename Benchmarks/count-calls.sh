#!/usr/bin/env bash
# How many retains, allocations and frees a push costs: runs the engine's 1:1 scenario on SQLite
# (`herald-bench engine --throughput-only`, 10,000 users) with bpftrace counting, in the kernel,
# every call the server makes to `swift_retain`, `swift_release`, `swift_allocObject` and
# `malloc`, and every hash it finishes (a dictionary's or a set's lookup, insert or removal hashes
# its key once), and prints each per push, with the functions that ask for the most retains (the
# first Herald function above the copy it makes: a struct copied whole is a retain per reference
# it holds) and for the most hashes.
#
# Unlike a time, a count does not move with the machine's other tenants (on this machine the same
# binary's CPU per push spans 66–91 µs over a day): two binaries compare in one run each. The
# probes slow the server ~70 times (~330 pushes/s), so the counts are those of a slower run
# (batches come as they come): compare counts with counts, never with times.
#
#   Benchmarks/count-calls.sh [events]        (20,000 by default; root, for the probes)
#   HERALD_BINARY=/path/to/herald Benchmarks/count-calls.sh   (another build, e.g. the one before a change)
#
# bpftrace comes from Debian's packages when missing; python3 and `swift demangle` name the callers.
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-20000}
case "$EVENTS" in '' | *[!0-9]*) echo "usage: $0 [events]" >&2; exit 2 ;; esac
command -v bpftrace >/dev/null || { apt-get update -qq && apt-get install -y -qq bpftrace >/dev/null; }
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald --scratch-path .build-release >/dev/null
[ -n "${HERALD_BENCH_SKIP_BUILD:-}" ] || swift build -c release --product herald-bench --scratch-path .build-release >/dev/null
BIN=$(swift build -c release --scratch-path .build-release --show-bin-path)
HERALD=${HERALD_BINARY:-$BIN/herald}
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/herald-count.XXXXXX)
BENCH=
TRACER=
trap 'for p in $TRACER $BENCH; do kill $p 2>/dev/null || true; done; rm -rf "$WORK"' EXIT

# The libraries the server's calls land in, as it maps them.
library() { ldd "$HERALD" | awk -v name="$1" '!found && $1 ~ name {print $3; found = 1}'; }
SWIFT_CORE=$(library libswiftCore)
MALLOC=$(library libjemalloc)
MALLOC=${MALLOC:-$(library libc.so)}

# Counting starts in the server's first event intake (after the bench has seeded its users and
# tokens), and the tracer is attached before the bench starts, so that no push goes uncounted.
ACCEPT=$(nm "$HERALD" | awk '!found && $2 == "T" && $3 ~ /11EventIntakeV6accept5appId4body5bytes.*F$/ {print $3; found = 1}')
[ -n "$ACCEPT" ] || { echo "no EventIntake.accept(appId:body:bytes:) in $HERALD" >&2; exit 1; }
# Stacks of eight frames: a retain's own frame, then the copy that asked for it (value witnesses
# and outlined copies, often two or three deep), then the function that made the copy.
BPFTRACE_MAP_KEYS_MAX=500000 bpftrace -o "$WORK/counts.txt" -e "
uprobe:$HERALD:\"$ACCEPT\" { @on[pid] = 1; }
uprobe:$SWIFT_CORE:swift_retain /@on[pid]/ { @retain[ustack(8)] = count(); @calls[\"swift_retain\"] = count(); }
uprobe:$SWIFT_CORE:swift_release /@on[pid]/ { @calls[\"swift_release\"] = count(); }
uprobe:$SWIFT_CORE:swift_allocObject /@on[pid]/ { @calls[\"swift_allocObject\"] = count(); }
uprobe:$MALLOC:malloc /@on[pid]/ { @calls[\"malloc\"] = count(); }
uprobe:$SWIFT_CORE:\"\$ss6HasherV9_finalizeSiyF\",
uprobe:$SWIFT_CORE:\"\$ss6HasherV8finalizeSiyF\",
uprobe:$SWIFT_CORE:\"\$ss6HasherV5_hash4seed_S2i_s6UInt64VtFZ\",
uprobe:$SWIFT_CORE:\"\$ss6HasherV5_hash4seed_S2i_SutFZ\",
uprobe:$SWIFT_CORE:\"\$ss6HasherV5_hash4seed5bytesS2i_SWtFZ\",
uprobe:$SWIFT_CORE:\"\$ss6HasherV5_hash4seed5bytes5countS2i_s6UInt64VSitFZ\" /@on[pid]/ { @hash[ustack(8)] = count(); @calls[\"hash\"] = count(); }
" 2>"$WORK/bpftrace.log" &
TRACER=$!
until grep -q Attaching "$WORK/counts.txt" 2>/dev/null; do
  kill -0 $TRACER 2>/dev/null || { cat "$WORK/bpftrace.log"; exit 1; }
  sleep 0.2
done
sleep 1
stdbuf -oL "$BIN/herald-bench" engine --herald "$HERALD" --database "sqlite://$WORK/herald.sqlite" --users 10000 --events "$EVENTS" \
  --throughput-only --json "$WORK/result.json" >"$WORK/bench.log" 2>&1 &
BENCH=$!
until SERVER=$(pgrep -f "^$HERALD serve" | head -1); [ -n "$SERVER" ]; do
  kill -0 $BENCH 2>/dev/null || { cat "$WORK/bench.log"; exit 1; }
  sleep 0.1
done
sleep 1
cp "/proc/$SERVER/maps" "$WORK/maps"
wait $BENCH || { cat "$WORK/bench.log"; exit 1; }
BENCH=
kill -INT $TRACER
wait $TRACER || true
TRACER=
grep "1:1" "$WORK/bench.log"
python3 Benchmarks/count_calls.py "$WORK/counts.txt" --maps "$WORK/maps" --pushes "$EVENTS"
