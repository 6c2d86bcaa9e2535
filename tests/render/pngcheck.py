"""A small PNG reader for the tests (no PIL on the test machine): size and pixels of
8-bit RGB/RGBA non-interlaced PNGs, which cairo and chromium write."""
import struct
import zlib


def read_png(path):
    """-> (width, height, channels, rows) with rows a list of bytes per row (unfiltered)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"{path}: depth {depth}, colour type {ctype}, interlace {interlace} not read here")
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, ch, rows


def non_blank(path):
    """-> (width, height, distinct colours sampled, share of non-background pixels)."""
    w, h, ch, rows = read_png(path)
    colours, other = set(), 0
    bg = rows[0][:ch]
    step = max(1, (w * h) // 200000)
    n = 0
    for y in range(0, h):
        r = rows[y]
        for x in range(0, w, step):
            px = r[x * ch:(x + 1) * ch]
            colours.add(px)
            other += px != bg
            n += 1
    return w, h, len(colours), other / max(n, 1)
