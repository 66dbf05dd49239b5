"""The pixels of `buoy demo`'s frames, for .ci/check-demo-trace.py: a small PNG reader (8-bit RGB or
RGBA, not interlaced: what Buoy's headless output writes) and the two questions asked of each frame:
is it one flat colour, does it show the figure (the boat's hull and mast colour), and is there text at
the bottom (the progress line)."""
import os, sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pngread import read_png  # noqa: E402


def frame_facts(path, figure, tolerance=4):
    """(share of the most common colour, pixels within `tolerance` of the figure's colour, white
    pixels in the bottom fifth: the progress line's text)."""
    width, height, channels, rows = read_png(path)
    colours = Counter()
    figure_pixels = text_pixels = 0
    for y, row in enumerate(rows):
        pixels = [row[i:i + 3] for i in range(0, len(row), channels)]
        colours.update(pixels)
        if y >= height * 4 // 5:
            text_pixels += sum(1 for p in pixels if p[0] >= 0xF0 and p[1] >= 0xF0 and p[2] >= 0xF0)
    for colour, count in colours.items():
        if all(abs(colour[k] - figure[k]) <= tolerance for k in range(3)):
            figure_pixels += count
    return colours.most_common(1)[0][1] / (width * height), figure_pixels, text_pixels
