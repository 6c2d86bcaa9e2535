#!/usr/bin/env python3
"""Runs `edgecompiler-workbench MODEL --quantize --screenshot OUT.png` under
xvfb-run and checks what the Quantisation panel should put on screen: the run
exits 0, the PNG has the window's size, the graph is coloured on the SQNR heat
scale (viridis colours, the legend among them) and the SQNR bar chart is drawn
(many pixels of the bar colour).

usage: check_quant_screenshot.py WORKBENCH MODEL OUT_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_screenshot import png_pixels  # noqa: E402

# widgets/OpFormat.cpp viridis() stops and SqnrChart's bar colour.
VIRIDIS = [(0x44, 0x01, 0x54), (0x3b, 0x52, 0x8b), (0x21, 0x91, 0x8c), (0x5e, 0xc9, 0x62),
           (0xfd, 0xe7, 0x25)]
BAR = (0x3b, 0x6e, 0xa8)


def near(p, c, tol):
    return all(abs(a - b) <= tol for a, b in zip(p, c))


def main():
    exe, model, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "workbench_quant.png")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(["xvfb-run", "-a", exe, model, "--quantize", "--screenshot", out],
                       capture_output=True, text=True, timeout=280)
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
        print(("ok   " if cond else "FAIL ") + what)

    check(p.returncode == 0, f"quantise + screenshot run exits 0 (got {p.returncode}; {p.stderr.strip()[-200:]})")
    check(os.path.exists(out), f"{out} exists")
    if os.path.exists(out):
        w, h, rows, bpp = png_pixels(out)
        check(w >= 640 and h >= 400, f"window size {w}x{h}")
        bar = 0
        viridis = [0] * len(VIRIDIS)
        for row in rows:
            for x in range(0, w * bpp, bpp):
                px = tuple(row[x:x + 3])
                if near(px, BAR, 6):
                    bar += 1
                for i, c in enumerate(VIRIDIS):
                    if near(px, c, 12):
                        viridis[i] += 1
        check(bar >= 2000, f"SQNR bar chart drawn: {bar} bar-coloured pixels")
        check(sum(1 for n in viridis if n >= 20) >= 3,
              f"graph coloured on the SQNR scale: pixels near viridis stops {viridis}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
