#!/usr/bin/env python3
"""Prints what count-calls.sh counted: each runtime call per push, the functions whose copies
ask for the most retains, and those that hash the most (a dictionary's or a set's lookup, insert
or removal: one hash of its key each).

bpftrace gives each retain's stack as addresses; they are named here from the server's memory
map (taken while it ran) and each library's symbol table (`nm`), then demangled. A retain is
charged to the first frame above it that is neither a copy helper (value witnesses, outlined
copies) nor the Swift runtime or standard library: the function that made the copy.
"""
import argparse
import bisect
import collections
import re
import subprocess

# Frames that copy on someone else's behalf: value witnesses (`Vwc` initializeWithCopy, `Vwx`
# destroy, `Vwt`/`Vwd` take and assign), outlined copies and retains (`WOy`, `WOc`, `WOh`…), and
# everything in the runtime or the standard library (`$ss`, `$sS`: Array, Dictionary…).
HELPER = re.compile(r"([VO]w[a-z]|WO[a-z])[A-Za-z0-9_]{0,4}$|^\$s[sS]|^swift_|^_swift|^\?")
RUNTIME_LIBRARY = re.compile(r"libswiftCore|libswift_Concurrency|libc\.so|libjemalloc")


class Symbols:
    """Names addresses from a process's executable mappings and each file's symbol table."""

    def __init__(self, maps_path):
        self.mappings = []
        for line in open(maps_path):
            fields = line.split()
            if len(fields) >= 6 and "x" in fields[1]:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                self.mappings.append((start, end, int(fields[2], 16), fields[5]))
        self.tables = {}

    def table(self, path):
        if path not in self.tables:
            entries = []
            for flags in (["-n", "--defined-only"], ["-D", "-n", "--defined-only"]):
                listing = subprocess.run(["nm", *flags, path], capture_output=True, text=True).stdout
                for line in listing.splitlines():
                    parts = line.split()
                    if len(parts) == 3 and parts[1] in "tTwW":
                        entries.append((int(parts[0], 16), parts[2]))
                if entries:
                    break
            entries.sort()
            self.tables[path] = ([address for address, _ in entries], [name for _, name in entries])
        return self.tables[path]

    def name(self, address):
        for start, end, offset, path in self.mappings:
            if start <= address < end:
                addresses, names = self.table(path)
                index = bisect.bisect_right(addresses, address - start + offset) - 1
                return (names[index] if index >= 0 else "?"), path.rsplit("/", 1)[-1]
        return "?", "?"


def demangled(names):
    names = list(names)
    text = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names), capture_output=True, text=True).stdout
    return dict(zip(names, text.split("\n")))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("counts")
    parser.add_argument("--maps", required=True)
    parser.add_argument("--pushes", type=float, required=True)
    parser.add_argument("--top", type=int, default=30)
    arguments = parser.parse_args()
    text = open(arguments.counts).read()
    calls = {name: int(count) for name, count in re.findall(r"@calls\[(\w+)\]: (\d+)", text)}
    print("\nServer calls per push (all of its threads, intake to commit)")
    for name in ("swift_retain", "swift_release", "swift_allocObject", "malloc", "hash"):
        print(f"  {name:<18} {calls.get(name, 0) / arguments.pushes:8.1f}")

    symbols = Symbols(arguments.maps)
    for stacks, what in (("retain", "Retains"), ("hash", "Hashes")):
        by_caller, counted = callers(text, stacks, symbols)
        if not counted:
            continue
        names = demangled(by_caller)
        print(f"\n{what} per push by the function that asked (the first above the copy helpers; {counted / arguments.pushes:.0f} a push in the stacks kept)")
        for caller, count in by_caller.most_common(arguments.top):
            print(f"  {count / arguments.pushes:7.1f}  {names.get(caller, caller)[:140]}")


def callers(text, stacks, symbols):
    """The calls of the bpftrace map `@stacks` (stack → count), by the function that asked (the
    first frame above the copy helpers), and their total."""
    by_caller = collections.Counter()
    counted = 0
    for frames, count in re.findall(r"@" + stacks + r"\[\n(.*?)\]: (\d+)", text, re.S):
        addresses = [int(frame.strip(), 16) for frame in frames.strip().splitlines() if frame.strip()]
        counted += int(count)
        caller = "(deeper than the stack kept)"
        for address in addresses[1:]:
            name, library = symbols.name(address)
            if not HELPER.search(name) and not RUNTIME_LIBRARY.search(library):
                caller = name
                break
        by_caller[caller] += int(count)
    return by_caller, counted

if __name__ == "__main__":
    main()
