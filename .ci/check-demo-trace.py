#!/usr/bin/env python3
"""Checks the trace of `buoy demo`: while downloading the frames stay in the loop segment, the
received fraction only grows and the water level rises, eased, to full on the last downloading frame; the finishing run is at 4x, the success segment at 1x from
the loop's end; the run ends done at the last frame.

With --frames DIR (the demo's frames/ folder) it also reads the pixels: no frame is one flat colour (the
most common colour covers less than 95 % of it), and every frame while downloading shows the figure (at
least --figure-pixels pixels of the boat's hull colour, --figure RRGGBB) and text at the bottom (the
progress line's white pixels in the bottom fifth)."""
import argparse, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser()
parser.add_argument("trace")
parser.add_argument("--frames", help="the demo's frames folder: check the pixels too")
parser.add_argument("--figure", default="384052", help="the figure's colour, RRGGBB (the built-in boat's hull)")
parser.add_argument("--figure-pixels", type=int, default=40, help="pixels of that colour a frame must show")
args = parser.parse_args()
rows = [json.loads(line) for line in open(args.trace)]
checks = []
def check(name, ok, detail=""):
    checks.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""))

down = [r for r in rows if r["state"] == "downloading"]
check("frames while downloading stay in the loop segment", all(r["progress"] <= 0.5 + 1e-6 for r in down), f"{len(down)} frames")
fractions = [r["download"] for r in down if r["download"] is not None]
check("the received fraction only grows", fractions == sorted(fractions) and len(fractions) > 3, f"{len(fractions)} figures")
levels = [r["level"] for r in down]
check("the water level only rises, through eased values, to full", levels == sorted(levels) and levels[-1] == 1
      and len({l for l in levels if 0 < l < 1}) >= 3, f"{len(set(levels))} levels")
fin = [r for r in rows if r["state"] == "finishing"]
check("finishing runs at 4x to the loop's end", all(r["speed"] == 4 and r["progress"] <= 0.5 + 1e-6 for r in fin), f"{len(fin)} frames")
suc = [r for r in rows if r["state"] == "success"]
check("the success segment plays at 1x after the loop", bool(suc) and all(r["speed"] == 1 and r["progress"] >= 0.5 - 1e-6 for r in suc),
      f"{len(suc)} frames")
order = ["downloading", "finishing", "success", "done"]
states = [r["state"] for r in rows]
ranks = [order.index(s) for s in states if s in order]
check("states in order, ending done at the last frame", ranks == sorted(ranks) and states[-1] == "done" and rows[-1]["progress"] == 1)
times = [r["t"] for r in rows]
check("presentation times only grow", times == sorted(times))

if args.frames:
    from demo_frames import frame_facts
    figure = bytes.fromhex(args.figure)
    names = sorted(n for n in os.listdir(args.frames) if n.startswith("frame-") and n.endswith(".png"))
    check("one frame file per trace line", len(names) == len(rows), f"{len(names)} files, {len(rows)} lines")
    flat, hidden, silent = [], [], []
    for seq, name in enumerate(names):
        share, figure_pixels, text_pixels = frame_facts(os.path.join(args.frames, name), figure)
        if share >= 0.95:
            flat.append(seq)
        if seq < len(rows) and rows[seq]["state"] == "downloading" and figure_pixels < args.figure_pixels:
            hidden.append(seq)
        if seq < len(rows) and rows[seq]["state"] == "downloading" and text_pixels < 20:
            silent.append(seq)
    check("no frame is one flat colour", not flat, f"{len(flat)} of {len(names)} flat" + (f": {flat[:12]}" if flat else ""))
    check("every downloading frame shows the figure", not hidden and bool(down),
          f"{len(down) - len(hidden)} of {len(down)} show it" + (f"; not {hidden[:12]}" if hidden else ""))
    check("every downloading frame draws the progress line", not silent and bool(down),
          f"{len(down) - len(silent)} of {len(down)} draw it" + (f"; not {silent[:12]}" if silent else ""))

failed = len(checks) - sum(checks)
print(f"demo-trace: {sum(checks)} passed, {failed} failed")
sys.exit(1 if failed else 0)
