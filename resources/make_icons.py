#!/usr/bin/env python3
"""Draws the application icon: a model graph on a rounded tile, one op lit as the
accelerator's. One geometry, written as SVG and rasterised to PNG (numpy, 4x4
supersampling per pixel; no image library needed), so the sizes cannot differ.

usage: make_icons.py OUT_DIR    writes OUT_DIR/org.edgecompiler.Workbench.svg and
                                OUT_DIR/<size>/org.edgecompiler.Workbench.png
"""
import os
import struct
import sys
import zlib

import numpy as np

NAME = "org.edgecompiler.Workbench"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# In a 256-unit square.
TILE = dict(x=16, y=16, w=224, h=224, r=44, color=(0x1f, 0x3a, 0x5f))
NODES = [  # (cx, cy, r, color)
    (128, 62, 24, (0xe8, 0xee, 0xf4)),
    (70, 128, 24, (0xe8, 0xee, 0xf4)),
    (186, 128, 24, (0xf5, 0x9e, 0x2b)),  # the op on the accelerator
    (128, 194, 24, (0xe8, 0xee, 0xf4)),
]
EDGES = [(0, 1), (0, 2), (1, 3), (2, 3)]
EDGE_WIDTH = 12
EDGE_COLOR = (0x8f, 0xb3, 0xd9)


def hexcolor(c):
    return "#%02x%02x%02x" % c


def svg():
    t = TILE
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">',
             f'<rect x="{t["x"]}" y="{t["y"]}" width="{t["w"]}" height="{t["h"]}" rx="{t["r"]}" fill="{hexcolor(t["color"])}"/>']
    for a, b in EDGES:
        (x1, y1, _, _), (x2, y2, _, _) = NODES[a], NODES[b]
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{hexcolor(EDGE_COLOR)}" '
                     f'stroke-width="{EDGE_WIDTH}" stroke-linecap="round"/>')
    for cx, cy, r, c in NODES:
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{hexcolor(c)}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def raster(size):
    ss = 4
    n = size * ss
    u = (np.arange(n) + 0.5) * 256.0 / n
    x, y = np.meshgrid(u, u)
    rgba = np.zeros((n, n, 4))

    def paint(mask, color):
        rgba[mask, :3] = np.array(color) / 255.0
        rgba[mask, 3] = 1.0

    t = TILE
    # rounded rectangle: distance to the inner rectangle <= r
    qx = np.maximum(np.abs(x - (t["x"] + t["w"] / 2)) - (t["w"] / 2 - t["r"]), 0)
    qy = np.maximum(np.abs(y - (t["y"] + t["h"] / 2)) - (t["h"] / 2 - t["r"]), 0)
    paint(qx * qx + qy * qy <= t["r"] ** 2, t["color"])
    for a, b in EDGES:
        (x1, y1, _, _), (x2, y2, _, _) = NODES[a], NODES[b]
        dx, dy = x2 - x1, y2 - y1
        s = np.clip(((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy), 0, 1)
        d2 = (x - (x1 + s * dx)) ** 2 + (y - (y1 + s * dy)) ** 2
        paint(d2 <= (EDGE_WIDTH / 2) ** 2, EDGE_COLOR)
    for cx, cy, r, c in NODES:
        paint((x - cx) ** 2 + (y - cy) ** 2 <= r * r, c)
    # average each ss x ss block (premultiplied colour, then un-premultiplied)
    rgba[..., :3] *= rgba[..., 3:4]
    small = rgba.reshape(size, ss, size, ss, 4).mean(axis=(1, 3))
    alpha = small[..., 3:4]
    small[..., :3] = np.where(alpha > 0, small[..., :3] / np.maximum(alpha, 1e-9), 0)
    return np.clip(np.round(small * 255), 0, 255).astype(np.uint8)


def png(pixels):
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[i].tobytes() for i in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    write(os.path.join(out, NAME + ".svg"), svg().encode())
    for size in SIZES:
        write(os.path.join(out, str(size), NAME + ".png"), png(raster(size)))


if __name__ == "__main__":
    main()
