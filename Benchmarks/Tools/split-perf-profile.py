#!/usr/bin/env python3
"""Splits a perf profile of a paired benchmark run into floor and Understudy samples.

Usage (see Documentation/Performance.md, "Finding where the time goes"):
  UNDERSTUDY_BENCH_TRACE=1 perf record -k CLOCK_MONOTONIC -F 2500 -g -o ab.perf \\
      Benchmarks/.build/release/understudy-bench --only "one exact stub" 2> runs.txt
  perf script -i ab.perf -F comm,tid,time,ip,sym > ab.txt
  Benchmarks/Tools/split-perf-profile.py ab.txt runs.txt [self|total] [rows]

Both sides run the same number of requests, so sample counts compare directly: the rows are
symbols, with Understudy's samples, the floor's, and the difference, largest difference first.
'self' counts the sampled function only; 'total' counts every function on the stack.
"""
import bisect
import collections
import subprocess
import sys


def main():
    profile, runs_file = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else "self"
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    runs = []
    for line in open(runs_file):
        if line.startswith("run "):
            _, side, start, end = line.split()
            runs.append((int(start) / 1e9, int(end) / 1e9, side))
    runs.sort()
    starts = [run[0] for run in runs]
    counts = collections.defaultdict(collections.Counter)
    samples = collections.Counter()
    for block in open(profile).read().split("\n\n"):
        lines = block.strip().split("\n")
        if len(lines) < 2:
            continue
        try:
            time = float(lines[0].split()[2].rstrip(":"))
        except (IndexError, ValueError):
            continue
        index = bisect.bisect_right(starts, time) - 1
        if index < 0 or time > runs[index][1]:
            continue  # between timed runs: warm-up, set-up
        side = runs[index][2]
        samples[side] += 1
        frames = [line.strip().split(" ", 1)[-1] for line in lines[1:]]
        for symbol in ({frames[0]} if mode == "self" else set(frames)):
            counts[side][symbol] += 1
    names = sorted(set(counts["floor"]) | set(counts["understudy"]),
                   key=lambda name: counts["floor"][name] - counts["understudy"][name])[:rows]
    demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"],
                               input="\n".join(names), capture_output=True, text=True).stdout
    print(f"samples: understudy {samples['understudy']}, floor {samples['floor']}")
    print(f"{'understudy':>10} {'floor':>7} {'diff':>7}  symbol")
    for name, pretty in zip(names, demangled.split("\n")):
        u, f = counts["understudy"][name], counts["floor"][name]
        print(f"{u:10d} {f:7d} {u - f:+7d}  {pretty[:100]}")


if __name__ == "__main__":
    main()
