#!/usr/bin/env python3
"""Compares the pixels of PNG files pairwise, whatever their compression (zlib versions and
filter choices differ between builds; the pixels must not).

usage: png-diff.py DIR_A DIR_B      compares every *.png of DIR_A with the same name in DIR_B
Prints, per file, identical or the count of differing pixels and the largest channel difference;
exits 1 when any pair differs or a file is missing. Reads 8-bit, non-interlaced greyscale, RGB
and RGBA PNGs (what Buoy writes) with the standard library only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png  # noqa: E402


def pixels(path):
    """(width, height, channels, the rows joined)."""
    width, height, channels, rows = read_png(path)
    return width, height, channels, b"".join(rows)


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
        a, b = pixels(os.path.join(a_dir, name)), pixels(b_path)
        if a[:3] != b[:3]:
            print(f"{name}: size or format differs: {a[:3]} vs {b[:3]}")
            bad += 1
            continue
        pa, pb, bpp = a[3], b[3], a[2]
        if pa == pb:
            print(f"{name}: identical ({a[0]}x{a[1]})")
            continue
        differing = sum(1 for i in range(0, len(pa), bpp) if pa[i:i + bpp] != pb[i:i + bpp])
        worst = max(abs(x - y) for x, y in zip(pa, pb))
        print(f"{name}: {differing} pixels differ, largest channel difference {worst}")
        bad += 1
    print(f"png-diff: {len(names) - bad} of {len(names)} frames identical")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
