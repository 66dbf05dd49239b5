"""peer_fidelity - which renderer draws which corpus frame, for tools/bench-corpus.

A speed ratio means something only when both renderers draw the same picture. A peer that
leaves out part of a file (text it cannot set, a layer style or effect it ignores) is fast on
that file because it draws less. The corpus's fidelity scorer (../shared/tools/fidelity/score.py,
lottie-ios's snapshot criterion) says per frame whether a renderer's image matches the
reference; this module reads its reports and applies the comparison rule:

    On a file, a peer counts only if, on every frame of it the scorer judges, the peer does
    not draw less than buoy: it passes every frame buoy passes, and where both fail, the share
    of pixels it matches is not below buoy's by more than MATCH_MARGIN (0.5 % of the frame);
    and it does not leave the file's text layers out altogether (drawing no words where the
    reference has some in a font nobody here has can match more pixels than drawing them in a
    stand-in font, so the match alone does not show it: tools/peer_text_probe.py does).

A frame only buoy fails does not disqualify a peer (buoy is then the one drawing less, which
can only flatter buoy's figure). A file no counting peer is left for is listed apart, with the
frames where each peer draws less and the features the file uses that peers commonly leave out.

The peers' verdicts do not change from one buoy build to the next, so they are scored once and
cached (keyed by the manifest, the scorer and the peer wheels' versions); buoy's come from the
report `bash .ci/fidelity` writes (/tmp/buoy-fidelity.json), or are scored here when missing.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

# peer_bench's peer names -> the scorer's built-in renderer drawing with the same library
# (rlottie-0.2 is the librlottie bundled in rlottie-python, ThorVG the one in thorvg-python).
SCORER_RENDERER = {"rlottie-0.2": "rlottie", "thorvg": "thorvg"}
PEER_WHEELS = ("rlottie-python", "thorvg-python")
# Bumped when what the cache holds changes.
CACHE_FORMAT = 2
# Where buoy fails a frame too, a peer whose match fraction (share of pixels within the
# criterion's colour distance) is below buoy's by more than this draws less of it than buoy.
MATCH_MARGIN = 0.005


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def corpus_samples(corpus_dir):
    """{path of the Lottie file relative to corpus_dir: sample name} from the manifest."""
    with open(os.path.join(corpus_dir, "manifest.json")) as f:
        manifest = json.load(f)
    return {os.path.normpath(entry["file"]): name for name, entry in manifest.get("samples", {}).items()
            if isinstance(entry, dict) and "file" in entry}


def frame_verdicts(report):
    """{sample: {label: [passed, match fraction]}} from a score.py --report; skipped frames are
    left out."""
    out = {}
    for row in report.get("frames", []):
        if row.get("status") == "skipped":
            continue
        match = row.get("match")
        out.setdefault(row["sample"], {})[row["label"]] = [bool(row.get("pass")),
                                                           float(match) if match is not None else 0.0]
    return out


def run_scorer(python, scorer, corpus_dir, report_path, renderer_args, env=None):
    """Runs score.py into report_path (written by the scorer, read back here)."""
    argv = [python, scorer, corpus_dir] + renderer_args + ["--report", report_path, "-q"]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if not os.path.exists(report_path):
        sys.exit("fidelity scorer failed (%s): %s" % (" ".join(renderer_args), proc.stdout[-1500:]))
    with open(report_path) as f:
        return json.load(f)


def wheel_versions(python):
    code = ("import importlib.metadata as m, json; print(json.dumps({w: m.version(w) for w in %r}))"
            % (PEER_WHEELS,))
    proc = subprocess.run([python, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit("the fidelity python %s lacks the peer wheels (%s): pip install rlottie-python==1.3.8 "
                 "thorvg-python==1.1.3 pillow numpy" % (python, proc.stderr.strip()[-300:]))
    return json.loads(proc.stdout)


def write_atomically(path, data):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".peer-fidelity-")
    os.fchmod(fd, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def cache_key(python, scorer, corpus_dir):
    return {"format": CACHE_FORMAT, "manifest": sha256_of(os.path.join(corpus_dir, "manifest.json")),
            "scorer": sha256_of(scorer), "wheels": wheel_versions(python)}


def read_cache(cache_path, key):
    """The cache's contents when its key still holds, else {}."""
    try:
        with open(cache_path) as f:
            data = json.load(f)
        return data if data.get("key") == key else {}
    except (OSError, ValueError):
        return {}


def peer_verdicts(cache_path, python, scorer, corpus_dir, peers, rescore=False):
    """{peer: {sample: {label: passed}}} for the peers the scorer can draw with, from the cache
    when its key still holds, else scored now (a minute or two per peer) and cached."""
    key = cache_key(python, scorer, corpus_dir)
    data = {} if rescore else read_cache(cache_path, key)
    cached = data.get("peers", {})
    wanted = [p for p in peers if p in SCORER_RENDERER]
    missing = [p for p in wanted if p not in cached]
    if missing:
        with tempfile.TemporaryDirectory(prefix="peer-fidelity-") as tmp:
            for peer in missing:
                print("# scoring %s's fidelity on the corpus once (cached in %s)" % (peer, cache_path), flush=True)
                report = run_scorer(python, scorer, corpus_dir, os.path.join(tmp, peer + ".json"),
                                    ["--renderer", SCORER_RENDERER[peer]])
                cached[peer] = frame_verdicts(report)
        write_atomically(cache_path, {"key": key, "peers": cached})
    return {p: cached[p] for p in wanted}


def text_left_out(cache_path, python, scorer, corpus_dir, peers, buoy):
    """{peer: samples whose text layers the peer draws none of} (tools/peer_text_probe.py: the
    peer's frames with and without the text layers are identical where buoy's are not), probed
    once and kept in the verdicts' cache. Such a peer does not count on that file, whatever its pixel match."""
    key = cache_key(python, scorer, corpus_dir)
    data = read_cache(cache_path, key)
    wanted = [p for p in peers if p in SCORER_RENDERER]
    known = data.get("text_left_out", {})
    missing = [p for p in wanted if p not in known]
    if missing:
        with_text = [name for path, name in sorted(corpus_samples(corpus_dir).items())
                     if "text" in features(os.path.join(corpus_dir, path))]
        print("# probing which peers leave out the text of %d files (cached in %s)" % (len(with_text), cache_path),
              flush=True)
        probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer_text_probe.py")
        argv = [python, probe, buoy, scorer, corpus_dir, ",".join(SCORER_RENDERER[p] for p in missing)] + with_text
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            sys.exit("the text probe failed: %s" % proc.stderr[-1500:])
        found = json.loads(proc.stdout)
        for p in missing:
            known[p] = found.get(SCORER_RENDERER[p], [])
        if data:
            data["text_left_out"] = known
            write_atomically(cache_path, data)
    return {p: set(known.get(p, [])) for p in wanted}


def buoy_verdicts(report_path, python, scorer, corpus_dir, buoy):
    """buoy's {sample: {label: passed}}: from report_path (what .ci/fidelity writes), scored with
    `buoy render --batch` into it when missing. Returns (verdicts, note)."""
    note = ""
    if not os.path.exists(report_path):
        print("# scoring buoy's fidelity on the corpus into %s" % report_path, flush=True)
        env = dict(os.environ, BUOY_FONT_DIRS=os.path.join(corpus_dir, "fonts"))
        report = run_scorer(python, scorer, corpus_dir, report_path,
                            ["--renderer", "cmd", "--batch-cmd", "%s render --batch {batch}" % buoy], env=env)
    else:
        with open(report_path) as f:
            report = json.load(f)
        if os.path.getmtime(report_path) < os.path.getmtime(buoy):
            note = "buoy's fidelity report %s is older than %s (bash .ci/fidelity refreshes it)" % (report_path, buoy)
    return frame_verdicts(report), note


def peer_shortfall(buoy_frames, peer_frames):
    """Labels of the frames where the peer draws less than buoy: frames buoy passes and the peer
    fails, and frames both fail where the peer matches the reference on fewer pixels than buoy
    (by more than MATCH_MARGIN: a peer that cannot set a file's text fails as buoy does when a
    font differs, but matches far fewer pixels). None: the peer was not scored on this file, so
    nothing says it leaves anything out."""
    if buoy_frames is None or peer_frames is None:
        return None
    short = []
    for label, (passed, match) in buoy_frames.items():
        peer_passed, peer_match = peer_frames.get(label, [False, 0.0])
        if passed and not peer_passed or not passed and not peer_passed and peer_match < match - MATCH_MARGIN:
            short.append(label)
    return short


def label_order(label):
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def features(path):
    """What a Lottie file uses among the things renderers commonly leave out, by name."""
    try:
        with open(path) as f:
            root = json.load(f)
    except (OSError, ValueError):
        return []
    found = set()
    effect_names = {29: "gaussian blur", 25: "drop shadow", 20: "tint", 21: "fill effect", 22: "stroke effect",
                    23: "tritone", 24: "pro levels", 26: "radial wipe", 27: "displacement map", 28: "matte3"}

    def walk(node, in_layers):
        if isinstance(node, dict):
            if in_layers:
                ty = node.get("ty")
                if ty == 5:
                    found.add("text")
                if ty == 2:
                    found.add("images")
                if node.get("sy"):
                    found.add("layer styles")
                for effect in node.get("ef") or []:
                    if isinstance(effect, dict):
                        found.add(effect_names.get(effect.get("ty"), "effects"))
                if node.get("masksProperties"):
                    found.add("masks")
                if node.get("tt"):
                    found.add("mattes")
                if node.get("ddd") == 1:
                    found.add("3D layers")
                if node.get("bm"):
                    found.add("blend modes")
            if isinstance(node.get("x"), str):
                found.add("expressions")
            if node.get("ty") == "mm":
                found.add("merge paths")
            if node.get("ty") == "rp":
                found.add("repeaters")
            for key, value in node.items():
                walk(value, in_layers or key == "layers")
        elif isinstance(node, list):
            for value in node:
                walk(value, in_layers)

    walk(root, False)
    return sorted(found)
