"""peer_text_probe - which peer draws none of a file's text (run by the fidelity venv's python).

A peer that does not draw text layers (rlottie has no text support) can still pass the corpus
fidelity rule on a text file where buoy fails every frame: drawing nothing where the reference
has words in a font no one here has can match more pixels than drawing them in a stand-in font.
The issue's comparison rule asks such a peer to be left out. This probe shows it directly: each
peer draws every snapshot frame of the file as it is and with its text layers removed (the
scorer's own peer renderers, at the snapshot size); when the two are identical on every frame
while buoy's differ on some frame (the text does show: a hidden text layer or one outside the
frames drawn proves nothing), the peer left the text out.

    python peer_text_probe.py BUOY SCORER MANIFEST_DIR PEER[,PEER...] SAMPLE...   # prints JSON
    {peer: [samples whose text it draws none of]}
"""
import copy
import importlib.util
import json
import os
import sys
import tempfile

import subprocess

import numpy as np
from PIL import Image


def load_scorer(path):
    spec = importlib.util.spec_from_file_location("fidelity_score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def without_text(root, folder):
    """A copy of the animation with every text layer (ty 5) removed, its image folders made
    absolute so the copy can live elsewhere."""
    root = copy.deepcopy(root)

    def strip(layers):
        return [l for l in layers if not (isinstance(l, dict) and l.get("ty") == 5)]

    if isinstance(root.get("layers"), list):
        root["layers"] = strip(root["layers"])
    for asset in root.get("assets") or []:
        if not isinstance(asset, dict):
            continue
        if isinstance(asset.get("layers"), list):
            asset["layers"] = strip(asset["layers"])
        if isinstance(asset.get("p"), str) and not asset.get("e") and not asset["p"].startswith("data:"):
            asset["u"] = os.path.join(folder, asset.get("u") or "")
    return root


def draws_no_text(score, kind, manifest_dir, entry, stripped_path):
    json_path = os.path.join(manifest_dir, entry["file"])
    fonts = [os.path.join(manifest_dir, f) for f in entry.get("fonts", [])]
    cls = score.PEER_CLASSES[kind]
    full = cls(json_path, entry["width"], entry["height"], entry, fonts)
    bare = cls(stripped_path, entry["width"], entry["height"], entry, fonts)
    anim = entry["animation"]
    for frame in entry.get("frames", []):
        at = score.peer_frame(kind, float(frame["frame"]), anim["ip"], anim["op"], "clamp")
        if not np.array_equal(full.render(at), bare.render(at)):
            return False
    return bool(entry.get("frames"))


def text_shows(buoy, manifest_dir, entry, stripped_path, tmp):
    """Whether buoy's frames of the file differ from those without its text layers."""
    json_path = os.path.join(manifest_dir, entry["file"])
    lines, pairs = [], []
    for n, frame in enumerate(entry.get("frames", [])):
        outs = [os.path.join(tmp, "f%d-%s.png" % (n, which)) for which in ("full", "bare")]
        for path, out in zip((json_path, stripped_path), outs):
            lines.append("\t".join([path, repr(float(frame["frame"])), str(entry["width"]), str(entry["height"]), out]))
        pairs.append(outs)
    batch = os.path.join(tmp, "batch.tsv")
    with open(batch, "w") as f:
        f.write("\n".join(lines) + "\n")
    env = dict(os.environ, BUOY_FONT_DIRS=os.path.join(manifest_dir, "fonts"))
    subprocess.run([buoy, "render", "--batch", batch], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    for full, bare in pairs:
        if not (os.path.exists(full) and os.path.exists(bare)):
            continue
        if not np.array_equal(np.asarray(Image.open(full)), np.asarray(Image.open(bare))):
            return True
    return False


def main():
    buoy, scorer, manifest_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    peers, samples = sys.argv[4].split(","), sys.argv[5:]
    score = load_scorer(scorer)
    with open(os.path.join(manifest_dir, "manifest.json")) as f:
        manifest = json.load(f)["samples"]
    found = {peer: [] for peer in peers}
    with tempfile.TemporaryDirectory(prefix="peer-text-") as tmp:
        for n, sample in enumerate(samples):
            entry = manifest[sample]
            json_path = os.path.join(manifest_dir, entry["file"])
            with open(json_path) as f:
                root = json.load(f)
            stripped = os.path.join(tmp, "%d.json" % n)
            with open(stripped, "w") as f:
                json.dump(without_text(root, os.path.dirname(os.path.abspath(json_path))), f)
            if not text_shows(buoy, manifest_dir, entry, stripped, tmp):
                continue
            for peer in peers:
                try:
                    if draws_no_text(score, peer, manifest_dir, entry, stripped):
                        found[peer].append(sample)
                except Exception as error:  # a peer that cannot load the file is judged by the scorer
                    print("# %s on %s: %s" % (peer, sample, error), file=sys.stderr)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
