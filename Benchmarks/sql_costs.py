#!/usr/bin/env python3
"""Prints what each SQL statement cost a push between two of the server's statement profiles
(HERALD_SQLITE_PROFILE): thread CPU in µs, runs and rows per push, the pushes being the delivery
rows stored between the two. Used by sql-costs.sh."""
import json
import sys


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: sql_costs.py start.json end.json")
    start, end = (json.load(open(path)) for path in sys.argv[1:])
    delta = {}
    for statement, totals in end.items():
        before = start.get(statement, {"runs": 0, "rows": 0, "nanoseconds": 0})
        change = {key: totals[key] - before[key] for key in ("runs", "rows", "nanoseconds")}
        if change["runs"]:
            delta[statement] = change
    inserts = [totals["rows"] for statement, totals in delta.items() if statement.startswith("INSERT INTO deliveries")]
    pushes = sum(inserts)
    if not pushes:
        raise SystemExit("no delivery was stored between the two profiles")
    total = sum(totals["nanoseconds"] for totals in delta.values())
    print(f"\nSQL statements over {pushes} pushes: {total / pushes / 1000:.1f} µs of thread CPU a push in all")
    print(f"{'µs/push':>8} {'runs/push':>10} {'rows/push':>10}  statement")
    for statement, totals in sorted(delta.items(), key=lambda item: -item[1]["nanoseconds"]):
        cost = totals["nanoseconds"] / pushes / 1000
        if cost < 0.01:
            continue
        print(f"{cost:8.2f} {totals['runs'] / pushes:10.3f} {totals['rows'] / pushes:10.3f}  {statement}")


if __name__ == "__main__":
    main()
