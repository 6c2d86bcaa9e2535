#!/usr/bin/env python3
"""Runs `edgecompiler-workbench MODEL --screenshot OUT.png` under xvfb-run and
checks the PNG exists, has the window's size and is not blank (many distinct
colours). Also checks that a broken model makes it exit non-zero.

usage: check_screenshot.py WORKBENCH MODEL OUT_DIR
"""
import os
import struct
import subprocess
import sys
import zlib


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA PNG (no interlace) into (width, height, rows)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
            bpp = 3 if colour == 2 else 4
        elif ctype == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1: line[i] = (line[i] + a) & 255
            elif ftype == 2: line[i] = (line[i] + b) & 255
            elif ftype == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def main():
    exe, model, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "workbench.png")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(["xvfb-run", "-a", exe, model, "--screenshot", out],
                       capture_output=True, text=True, timeout=120)
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
        print(("ok   " if cond else "FAIL ") + what)

    check(p.returncode == 0, f"screenshot run exits 0 (got {p.returncode}; {p.stderr.strip()[-200:]})")
    check(os.path.exists(out), f"{out} exists")
    if os.path.exists(out):
        w, h, rows, bpp = png_pixels(out)
        colours = set()
        for row in rows[::4]:
            for x in range(0, w * bpp, bpp * 4):
                colours.add(row[x:x + 3])
        check(w >= 640 and h >= 400, f"window size {w}x{h}")
        check(len(colours) >= 8, f"not blank: {len(colours)} distinct colours")
    broken = os.path.join(out_dir, "broken.onnx")
    with open(broken, "wb") as f:
        f.write(os.urandom(2048))
    q = subprocess.run(["xvfb-run", "-a", exe, broken, "--screenshot", out + ".broken.png"],
                       capture_output=True, text=True, timeout=120)
    check(q.returncode != 0, f"broken model exits non-zero (got {q.returncode})")
    check("broken.onnx" in q.stderr, "broken model's error names the file")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
