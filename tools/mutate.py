#!/usr/bin/env python3
"""Writes mutations of Lottie files: one change each, at a random place in the JSON tree.

    tools/mutate.py OUT_DIR COUNT FILE...

The changes are the ones hostile and sloppy exporters make: a value of another JSON type, a
deleted member, a huge or tiny number, an extra level of nesting, an empty string. The same
seed gives the same mutations, so figures before and after a change compare the same files.
Used with `LottieFuzz --count-refusals OUT_DIR/*` to measure how many the parser refuses.
"""
import json, os, random, sys

HUGE = ["1e17", "-1.6e17", "1e300", "5e-324", "1e400", "-1e400"]


def nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def replacement(rng, value):
    kind = rng.choice(["swap", "huge", "nest", "empty", "delete"])
    if kind == "huge":
        return ("raw", rng.choice(HUGE))
    if kind == "nest":
        return ("value", [value])
    if kind == "empty":
        return ("value", "" if not isinstance(value, str) else [])
    if kind == "delete":
        return ("delete", None)
    swaps = [0, 1.5, "x", "#ff0000", [], [1], {}, True, None]
    return ("value", rng.choice([s for s in swaps if type(s) is not type(value)]))


def mutate(rng, doc):
    candidates = [p for p, _ in nodes(doc) if p]
    path = rng.choice(candidates)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    action, new = replacement(rng, parent[path[-1]])
    marker = "@@HUGE@@"
    if action == "delete":
        del parent[path[-1]]
    elif action == "raw":
        parent[path[-1]] = marker
    else:
        parent[path[-1]] = new
    return json.dumps(doc, separators=(",", ":")).replace('"' + marker + '"', new if action == "raw" else marker)


def main():
    out, count, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rng = random.Random(10)
    os.makedirs(out, exist_ok=True)
    texts = [open(f, encoding="utf-8").read() for f in files]
    for i in range(count):
        doc = json.loads(texts[i % len(texts)])
        with open(os.path.join(out, "m%05d.json" % i), "w") as f:
            f.write(mutate(rng, doc))


main()
