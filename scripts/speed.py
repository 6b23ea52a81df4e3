#!/usr/bin/env python3
"""Midgame playouts per second of engine binaries, interleaved so that the machine's load
falls on all of them alike (docs/engine.md, "Measured"):

    scripts/speed.py NODES REPS BINARY[|Option=value,...] ...
    scripts/speed.py 1000 3 "baselines/v0/punct|" "target/release/punct|" "target/release/punct|Threads=2"

Each binary runs `punct engine` and searches every position of midgame-positions.txt (30
positions from self-play) with `go nodes NODES` from a fresh game, REPS times over; its rate
is the sum of the last `info` line's nodes over the sum of its times. The binaries take
turns position by position, in alternating order. Ratios to the first binary are what to
compare: absolute rates move with the load."""
import pathlib
import subprocess
import sys

nodes, reps, bins = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
here = pathlib.Path(__file__).parent
positions = [l.strip() for l in open(here / "midgame-positions.txt") if l.strip()]
procs = {}
for b in bins:
    path, _, opts = b.partition("|")
    pr = subprocess.Popen(path.split() + ["engine"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, bufsize=1)
    for o in filter(None, opts.split(",")):
        k, v = o.split("=")
        pr.stdin.write(f"setoption name {k} value {v}\n")
    procs[b] = pr


def search(b, p):
    pr = procs[b]
    pr.stdin.write(f"newgame\nposition pos {p}\ngo nodes {nodes}\n")
    pr.stdin.flush()
    last = (0, 0)
    while True:
        line = pr.stdout.readline()
        if line.startswith("info"):
            w = line.split()
            last = (int(w[w.index("nodes") + 1]), int(w[w.index("time") + 1]))
        if line.startswith("bestmove") or not line:
            return last


tot = {b: [0, 0] for b in bins}
for r in range(reps):
    for i, p in enumerate(positions):
        for b in (bins if (i + r) % 2 == 0 else bins[::-1]):
            n, t = search(b, p)
            tot[b][0] += n
            tot[b][1] += t
first = tot[bins[0]][0] / max(1, tot[bins[0]][1])
for b in bins:
    n, t = tot[b]
    rate = n / max(1, t)
    print(f"{b}: {n} playouts in {t / 1000:.1f} s: {1000 * rate:.0f}/s, {rate / first:.2f}x the first")
