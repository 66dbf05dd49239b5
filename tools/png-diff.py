#!/usr/bin/env python3
"""Compares the pixels of PNG files pairwise, whatever their compression (zlib versions and
filter choices differ between builds; the pixels must not).

usage: png-diff.py DIR_A DIR_B      compares every *.png of DIR_A with the same name in DIR_B
Prints, per file, identical or the count of differing pixels and the largest channel difference;
exits 1 when any pair differs or a file is missing. Reads 8-bit, non-interlaced greyscale, RGB
and RGBA PNGs (what Buoy writes) with the standard library only.
"""
import os
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            corner = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + pred) & 0xFF
            elif kind != 0:
                raise ValueError(f"bad filter type {kind}")
        rows.append(bytes(line))
        prev = line
    return b"".join(rows)


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace:
        raise ValueError(f"{path}: only 8-bit non-interlaced PNGs are read here")
    bpp = CHANNELS[colour]
    return width, height, bpp, unfilter(zlib.decompress(idat), width, height, bpp)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a_dir, b_dir = sys.argv[1:]
    names = sorted(n for n in os.listdir(a_dir) if n.endswith(".png"))
    if not names:
        sys.exit(f"png-diff: no PNG in {a_dir}")
    bad = 0
    for name in names:
        b_path = os.path.join(b_dir, name)
        if not os.path.exists(b_path):
            print(f"{name}: missing in {b_dir}")
            bad += 1
            continue
        a, b = read_png(os.path.join(a_dir, name)), read_png(b_path)
        if a[:3] != b[:3]:
            print(f"{name}: size or format differs: {a[:3]} vs {b[:3]}")
            bad += 1
            continue
        pa, pb, bpp = a[3], b[3], a[2]
        if pa == pb:
            print(f"{name}: identical ({a[0]}x{a[1]})")
            continue
        pixels = sum(1 for i in range(0, len(pa), bpp) if pa[i:i + bpp] != pb[i:i + bpp])
        worst = max(abs(x - y) for x, y in zip(pa, pb))
        print(f"{name}: {pixels} pixels differ, largest channel difference {worst}")
        bad += 1
    print(f"png-diff: {len(names) - bad} of {len(names)} frames identical")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
