#!/usr/bin/env python3
"""Generates Buoy's own default animation: a boat riding rolling waves under a light sky.

Layers (a 1920x1080 composition): Sky (gradient and sun), Boat (the water and the boat; the layer's anchor and
position are the composition's centre, which the download lifts), Check (the success badge, in the middle of the
screen). The water line sits low (at SEA, three quarters down) and the download lifts the layer by LIFT display
heights at 100 %, so the boat rides the rising water from the lower quarter to the upper one and stays on screen,
with a strip of sky above it, at every level (the water is the progress bar; the boat never leaves). Frames 0-120
(0-50 %) are a seamless wave loop: every motion completes whole cycles; frames 120-240 (50-100 %) are the
success segment: the waves keep rolling and a check mark draws itself in the centre.

Writes the JSON to stdout, or with --swift the Swift source that embeds it.
"""
import json, sys

W, H, FR, OP, LOOP = 1920, 1080, 60, 240, 120
CX, LINE = W // 2, H // 2  # the Boat layer's anchor: the composition's centre
SEA = 820  # the water line at 0 %: 0.76 of the height
LIFT = 0.5  # display heights the water rises at 100 %: the line ends at SEA - LIFT * H = 280 (0.26 of the height)


def static(v):
    return {"a": 0, "k": v}


def anim(frames, values, ease=True):
    """Keyframes at `frames` with `values` (lists); smooth in-out easing."""
    ks = []
    for i, (t, v) in enumerate(zip(frames, values)):
        k = {"t": t, "s": v if isinstance(v, list) else [v]}
        if i < len(frames) - 1:
            k["o"] = {"x": [0.45], "y": [0]} if ease else {"x": [0], "y": [0]}
            k["i"] = {"x": [0.55], "y": [1]} if ease else {"x": [1], "y": [1]}
        ks.append(k)
    return {"a": 1, "k": ks}


def transform(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100, **animated):
    t = {"ty": "tr", "p": static(list(p)), "a": static(list(a)), "s": static(list(s)), "r": static(r), "o": static(o),
         "sk": static(0), "sa": static(0), "nm": "Transform"}
    t.update(animated)
    return t


def layer_ks(p=(0, 0), a=(0, 0), **animated):
    ks = {"o": static(100), "r": static(0), "p": static(list(p) + [0]), "a": static(list(a) + [0]), "s": static([100, 100, 100])}
    ks.update(animated)
    return ks


def fill(color, name="Fill 1", opacity=100):
    return {"ty": "fl", "nm": name, "c": static(color + [1]), "o": static(opacity), "r": 1}


def stroke(color, width, name="Stroke 1", **extra):
    s = {"ty": "st", "nm": name, "c": static(color + [1]), "o": static(100), "w": static(width), "lc": 2, "lj": 2, "ml": 4}
    s.update(extra)
    return s


def path(vertices, ins, outs, closed=True, name="Path 1"):
    return {"ty": "sh", "nm": name, "ks": static({"c": closed, "v": vertices, "i": ins, "o": outs})}


def wave(wavelength, amplitude, x0, x1, depth):
    """A closed water body whose top is a cosine-like wave, crests and troughs joined by cubics
    with horizontal tangents (0.36 of the half wavelength reproduces a cosine closely)."""
    half = wavelength / 2
    h = half * 0.3642
    v, i, o = [], [], []
    x, up = x0, True
    while x <= x1 + 1e-9:
        y = -amplitude if up else amplitude
        v.append([x, y]); i.append([-h, 0]); o.append([h, 0])
        x += half
        up = not up
    last = v[-1][0]
    v += [[last, depth], [x0, depth]]
    i += [[0, 0], [0, 0]]
    o += [[0, 0], [0, 0]]
    i[0] = [0, 0]
    o[-3] = [0, 0]
    return v, i, o


def group(name, items, tr=None):
    return {"ty": "gr", "nm": name, "it": items + [tr or transform()]}


def water_group(name, color, wavelength, amplitude, phase, cycles, y):
    v, i, o = wave(wavelength, amplitude, -3000 - phase, W + 3000, 4000)
    # Whole wavelengths per loop keep the loop seamless; the success half continues the motion.
    shift = anim([0, LOOP, OP], [[0, y], [wavelength * cycles, y], [2 * wavelength * cycles, y]], ease=False)
    return group(name, [path(v, i, o, name="Wave"), fill(color)], transform(p=(0, y)) | {"p": shift})


def boat_group():
    hull = path([[-70, -6], [70, -6], [46, 30], [-46, 30]], [[0, 0]] * 4, [[0, 0]] * 4, name="Hull")
    deck = path([[-74, -10], [74, -10], [74, -2], [-74, -2]], [[0, 0]] * 4, [[0, 0]] * 4, name="Deck")
    mast = path([[0, -6], [0, -128]], [[0, 0]] * 2, [[0, 0]] * 2, closed=False, name="Mast")
    sail = path([[6, -120], [6, -20], [74, -20]], [[0, 0], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0]], name="Sail")
    jib = path([[-6, -108], [-6, -20], [-54, -20]], [[0, 0]] * 3, [[0, 0]] * 3, name="Jib")
    flag = path([[0, -128], [26, -120], [0, -112]], [[0, 0]] * 3, [[0, 0]] * 3, name="Flag")
    # Bobbing: two whole rolls and two whole heaves per loop.
    roll = anim([0, 30, 60, 90, 120, 150, 180, 210, 240], [-4, 4, -4, 4, -4, 4, -4, 4, -4])
    heave = anim([0, 30, 60, 90, 120, 150, 180, 210, 240],
                 [[CX, SEA - 4] if i % 2 == 0 else [CX, SEA + 6] for i in range(9)])
    return group("Boat Body", [
        group("Flag", [flag, fill([0.97, 0.42, 0.28])]),
        group("Sail", [sail, fill([1, 1, 1])]),
        group("Jib", [jib, fill([0.99, 0.93, 0.82])]),
        group("Mast", [mast, stroke([0.22, 0.25, 0.32], 5)]),
        group("Deck", [deck, fill([0.55, 0.33, 0.2])]),
        group("Hull", [hull, fill([0.22, 0.25, 0.32])]),
    ], transform(p=(CX, SEA), s=(160, 160)) | {"p": heave, "r": roll})


def build():
    sky = {
        "ty": 4, "nm": "Sky", "ind": 3, "ip": 0, "op": OP, "st": 0, "ks": layer_ks(),
        "shapes": [
            group("Sun", [{"ty": "el", "nm": "Disc", "p": static([CX + 215, 170]), "s": static([150, 150])},
                          fill([1, 0.86, 0.45])],
                  transform() | {"o": anim([0, 60, 120, 180, 240], [92, 100, 92, 100, 92])}),
            group("Air", [{"ty": "rc", "nm": "Rect", "p": static([CX, LINE]), "s": static([6000, 6000]), "r": static(0)},
                          {"ty": "gf", "nm": "Gradient", "o": static(100), "t": 1, "r": 1,
                           "s": static([CX, 0]), "e": static([CX, SEA + 60]),
                           "g": {"p": 2, "k": static([0, 0.63, 0.83, 0.98, 1, 0.9, 0.96, 1])}}]),
        ],
    }
    boat = {
        "ty": 4, "nm": "Boat", "ind": 2, "ip": 0, "op": OP, "st": 0,
        "ks": layer_ks(p=(CX, LINE), a=(CX, LINE)),
        "shapes": [
            water_group("Front Water", [0.11, 0.5, 0.78], 480, 24, 0, 1, SEA + 32),
            boat_group(),
            water_group("Back Water", [0.36, 0.68, 0.9], 400, 18, 130, -1, SEA - 8),
        ],
    }
    tick = path([[-66, 4], [-18, 52], [74, -46]], [[0, 0]] * 3, [[0, 0]] * 3, closed=False, name="Tick")
    pop = anim([LOOP + 10, LOOP + 40, LOOP + 55], [[0, 0, 100], [150, 150, 100], [134, 134, 100]])
    check = {
        "ty": 4, "nm": "Check", "ind": 1, "ip": LOOP, "op": OP, "st": 0,
        "ks": layer_ks(p=(CX, LINE)) | {"s": pop},
        "shapes": [
            group("Badge", [
                group("Mark", [tick, stroke([0.13, 0.62, 0.45], 24),
                               {"ty": "tm", "nm": "Trim Paths 1", "s": static(0), "o": static(0), "m": 1,
                                "e": anim([LOOP + 35, LOOP + 75], [0, 100])}]),
                group("Disc", [{"ty": "el", "nm": "Circle", "p": static([0, 0]), "s": static([240, 240])},
                               fill([1, 1, 1])]),
                group("Shadow", [{"ty": "el", "nm": "Ring", "p": static([0, 6]), "s": static([272, 272])},
                                 fill([0.04, 0.12, 0.2], opacity=35)]),
            ]),
        ],
    }
    return {"v": "5.7.0", "nm": "Buoy", "fr": FR, "ip": 0, "op": OP, "w": W, "h": H, "ddd": 0, "assets": [],
            "markers": [{"cm": "loop", "tm": 0, "dr": LOOP}, {"cm": "success", "tm": LOOP, "dr": OP - LOOP}],
            "layers": [check, boat, sky]}


def main():
    text = json.dumps(build(), separators=(",", ":"))
    if "--swift" in sys.argv:
        print("// Generated by tools/make-default-animation.py; edit that script, not this file.")
        print("/// Buoy's own animation: a boat riding rolling waves (frames 0–120 loop, 120–240 success).")
        print("public enum DefaultAnimation {")
        print("    /// How far the download lifts the water at 100 %, in display heights: the boat stays on screen.")
        print(f"    public static let lift = {LIFT}")
        print("    public static let json = #\"\"\"")
        print(text)
        print("\"\"\"#")
        print("}")
    else:
        print(text)


if __name__ == "__main__":
    main()
