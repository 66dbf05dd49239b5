#!/usr/bin/env python3
"""Boots the board under QEMU and checks Buoy on a real kernel DRM driver.

Checks: the frame on screen (QMP screendump) is the frame `buoy render` draws; page flips
keep coming; SIGTERM ends buoy with status 143 and gives the display back to the console; the
daemon's held screen after a download costs no CPU and no flips; `--on-complete retain` with and
without another holder of the device (what the panel shows after buoy exits); `buoy play` of a
still file whose layers enter and leave sleeps between the changes.
Prints figures (boot time, flips per second, held-screen CPU) and ends with 'N passed, N failed'.

usage: test.py BUOY_HOST_BINARY ANIMATION [--gpu std|virtio ...] [--keep DIR] [--only gpu|vkms|kiosk|daemon|retain|still]
                  [--render-with HOST_BUOY]
The board's kernel and architecture come from run.sh's and build-initramfs.sh's BOARD_* variables.
"""
import argparse, json, os, re, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w, h = int(parts.group(1)), int(parts.group(2))
    return w, h, data[parts.end():parts.end() + w * h * 3]


def read_png_rgb_over_black(path):
    # Buoy renders with an opaque background here, so RGB is all that matters.
    from PIL import Image
    im = Image.open(path).convert("RGB")
    return im.size[0], im.size[1], im.tobytes()


class QMP:
    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.buf = b""
        self._read()
        self.command("qmp_capabilities")

    def _read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("QMP closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def command(self, name, **args):
        self.sock.sendall(json.dumps({"execute": name, "arguments": args}).encode() + b"\n")
        while True:
            reply = self._read()
            if "error" in reply:
                raise RuntimeError(f"QMP {name}: {reply['error'].get('desc', reply['error'])}")
            if "return" in reply:
                return reply


def wait_for(log, pattern, timeout):
    # An emulated board of another architecture (Board/qemu-aarch64) is several times slower.
    timeout *= float(os.environ.get("BOARD_TIMEOUT_SCALE", "1"))
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            text = open(log, errors="replace").read()
        except FileNotFoundError:
            text = ""
        m = re.search(pattern, text)
        if m:
            return m
        time.sleep(0.2)
    raise TimeoutError(f"no '{pattern}' on the serial console within {timeout} s; log:\n" + text[-3000:])


class Checks:
    """Prints PASS/FAIL lines tagged with the board part and keeps the outcomes."""

    def __init__(self, tag):
        self.tag = tag
        self.results = []

    def __call__(self, name, ok, detail=""):
        self.results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} [{self.tag}] {name}" + (f": {detail}" if detail else ""), flush=True)


def run_gpu(args, gpu, workdir):
    check = Checks(gpu)

    initramfs = os.path.join(workdir, "initramfs.cpio")
    serial = os.path.join(workdir, f"serial-{gpu}.log")
    qmp_path = os.path.join(workdir, f"qmp-{gpu}.sock")
    for p in (serial, qmp_path):
        if os.path.exists(p):
            os.remove(p)
    start = time.time()
    vm = subprocess.Popen([os.path.join(HERE, "run.sh"), initramfs, serial, qmp_path, gpu])
    try:
        qmp = QMP(qmp_path)
        wait_for(serial, r"BOARD: booted", 120)
        boot_s = time.time() - start
        m = wait_for(serial, r"first frame on screen ([0-9.]+) ms after process start, ([0-9.]+) ms after opening the display, on (.*)", 180)
        print(f"figure [{gpu}]: boot to init {boot_s:.1f} s; buoy process start to first frame on screen {m.group(1)} ms "
              f"({m.group(2)} ms after opening the display; TCG)", flush=True)
        check("atomic modesetting where the driver offers it", m.group(3).strip().endswith("atomic"), m.group(3).strip())
        wait_for(serial, r"BOARD: showing", 60)
        time.sleep(1.5)
        shot = os.path.join(workdir, f"shot-{gpu}.ppm")
        qmp.command("screendump", filename=shot)
        busy = wait_for(serial, r"BOARD: busy exit (\d+) (.*)", 60)
        check("a second buoy (--display auto) while the first holds DRM master exits 4 naming the card",
              busy.group(1) == "4" and "/dev/dri/card0" in busy.group(2) and "master" in busy.group(2), busy.group(2).strip())
        fa = wait_for(serial, r"BOARD: frames-a (\d+) cpu (\d+)", 60)
        fb = wait_for(serial, r"BOARD: frames-b (\d+) cpu (\d+)", 60)
        a, b = int(fa.group(1)), int(fb.group(1))
        # Clock ticks of 10 ms (USER_HZ 100) over 3 s.
        held_cpu = (int(fb.group(2)) - int(fa.group(2))) / 100
        check("a held picture is presented once and flips no page after", a >= 1 and b == a,
              f"{a} frames, then {b - a} more in 3 s")
        check("a held picture uses at most 0.05 s CPU in 3 s", held_cpu <= 0.05, f"{held_cpu:.2f} s CPU (TCG)")
        print(f"figure [{gpu}]: held picture: {b - a} page flips and {held_cpu:.2f} s CPU in 3 s", flush=True)
        last = json.loads(wait_for(serial, r"BOARD: last (\{.*\})", 30).group(1))
        check("trace lines are JSON with a frame", "frame" in last and "missed" in last, json.dumps(last))

        w, h, screen = read_ppm(shot)
        expected_png = os.path.join(workdir, f"expected-{gpu}.png")
        frame = last["frame"]
        subprocess.run([args.render_with or args.buoy, "render", args.animation, "--frame", str(frame), "--size", f"{w}x{h}",
                        "--background", "#000000", "-o", expected_png], check=True)
        ew, eh, expected = read_png_rgb_over_black(expected_png)
        differing = sum(1 for i in range(0, len(screen), 3)
                        if max(abs(screen[i + k] - expected[i + k]) for k in range(3)) > 8) if (ew, eh) == (w, h) else w * h
        fraction = differing / (w * h)
        check("screen shows the frame buoy render draws", fraction < 0.005, f"{w}x{h}, {fraction * 100:.3f}% pixels differ")

        code = int(wait_for(serial, r"BOARD: exit (\d+)", 60).group(1))
        held = re.search(r"held a still picture ([0-9.]+) s: (\d+) frames presented .*CPU ([0-9.]+) s",
                         open(serial, errors="replace").read())
        if held:
            print(f"figure [{gpu}]: held frame: {held.group(2)} flips after the first in {held.group(1)} s, CPU {held.group(3)} s "
                  "(buoy's summary; TCG)", flush=True)
        check("SIGTERM ends buoy with status 143", code == 143, f"status {code}")
        time.sleep(1.5)
        after = os.path.join(workdir, f"after-{gpu}.ppm")
        qmp.command("screendump", filename=after)
        _, _, restored = read_ppm(after)
        changed = sum(1 for i in range(0, min(len(restored), len(screen)), 3) if restored[i:i + 3] != screen[i:i + 3])
        check("the console gets the display back", changed > 0.05 * w * h, f"{changed} pixels changed after exit")
        legacy = wait_for(serial, r"BOARD: legacy exit (\d+) frames (\d+) (.*)", 120)
        check("legacy modeset and page flips", legacy.group(1) == "0" and int(legacy.group(2)) > 1,
              f"exit {legacy.group(1)}, {legacy.group(2)} frames")
        check("--display auto chooses DRM", "playing on drm:/dev/dri/card0" in legacy.group(3), legacy.group(3).strip())
        r565 = wait_for(serial, r"BOARD: rgb565 exit (\d+) (.*)", 120)
        check("an unsupported scan-out format is a clear error", r565.group(1) == "4" and "/dev/dri/card0" in r565.group(2),
              r565.group(2).strip())
        fb = wait_for(serial, r"BOARD: fbdev (absent|exit (\d+) frames (\d+))", 120)
        if fb.group(1) != "absent":
            check("fbdev presenter", fb.group(2) == "0" and int(fb.group(3)) > 1, f"exit {fb.group(2)}, {fb.group(3)} frames")
        wait_for(serial, r"BOARD: end", 60)
    except Exception as e:  # a hang or a crash in the VM is a failure, with the log shown
        check("board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def boot(args, directory, scenario, gpu, env=None):
    """Builds an initramfs for `scenario` in `directory` and boots it; returns (vm, serial, qmp)."""
    os.makedirs(directory, exist_ok=True)
    subprocess.run([os.path.join(HERE, "build-initramfs.sh"), directory, os.path.join(HERE, scenario), args.animation],
                   check=True, env=env)
    serial = os.path.join(directory, "serial.log")
    qmp_path = os.path.join(directory, "qmp.sock")
    for p in (serial, qmp_path):
        if os.path.exists(p):
            os.remove(p)
    vm = subprocess.Popen([os.path.join(HERE, "run.sh"), os.path.join(directory, "initramfs.cpio"), serial, qmp_path, gpu])
    return vm, serial, qmp_path


def run_vkms(args, workdir):
    """Pacing on vkms's 60 Hz vblank: a held frame is presented once and then neither rendered
    nor flipped (CPU near zero); animated playback keeps animation time equal to presentation
    time (frames skipped, never slowed)."""
    check = Checks("vkms")
    vdir = os.path.join(workdir, "vkms")
    os.makedirs(vdir, exist_ok=True)
    try:
        ko = subprocess.run([os.path.join(HERE, "build-vkms.sh"), vdir], check=True, capture_output=True, text=True).stdout.strip()
    except subprocess.CalledProcessError as e:
        check("vkms builds from linux-source", False, e.stderr[-2000:])
        return check.results
    vm, serial, _ = boot(args, vdir, "scenario-vkms.sh", "none", env=dict(os.environ, BOARD_EXTRA_MODULES=ko))
    try:
        wait_for(serial, r"BOARD: end", 300)
        text = open(serial, errors="replace").read()
        runs = {m.group(1): dict(frames=int(m.group(2)), missed=int(m.group(3)), first=float(m.group(4)),
                                 seconds=float(m.group(5)), last=float(m.group(6)), early=int(m.group(7)), late=float(m.group(8)))
                for m in re.finditer(r"BOARD: pacing (\S+) frames=(\d+) missed=(\d+) first=([0-9.]+) seconds=([0-9.]+) "
                                     r"lastframe=([0-9.]+) early=(\d+) late=(-?[0-9.]+)", text)}
        cpu = {m.group(1): m.group(2) for m in re.finditer(r"BOARD: cpu (\S+) .*CPU ([0-9.]+) ms per frame", text)}
        held_cpu = {m.group(1): (float(m.group(2)), int(m.group(3)), float(m.group(4))) for m in re.finditer(
            r"BOARD: cpu (\S+) .*held a still picture ([0-9.]+) s: (\d+) frames presented .*CPU ([0-9.]+) s", text)}
        check("all pacing runs reported", len(runs) == 4, ", ".join(runs))
        r565 = re.search(r"BOARD: rgb565 exit (\d+) frames (\d+)", text)
        check("RGB565 scan-out, rotated 90°", bool(r565) and r565.group(1) == "0" and int(r565.group(2)) > 10,
              r565.group(0) if r565 else "no report")
        for name, r in sorted(runs.items()):
            # The rate counts flips after the first one, so the modeset does not weigh on it.
            span = r["seconds"] - r["first"]
            rate = (r["frames"] - 1) / span if span > 0 else 0
            print(f"figure [vkms]: {name}: {r['frames']} frames in {r['seconds']:.2f} s ({rate:.1f} Hz after the "
                  f"first flip at {r['first']:.2f} s), {r['missed']} refreshes missed, CPU {cpu.get(name, '?')} ms per frame",
                  flush=True)
            if name.startswith("held"):
                # A still picture goes on screen once; after it the process sleeps until
                # --duration ends: no frame, no flip, (next to) no CPU.
                seconds, flips, used = held_cpu.get(name, (0.0, -1, 99.0))
                check(f"{name}: one frame, then no flip and near-zero CPU",
                      r["frames"] == 1 and flips == 0 and seconds >= 3 and used <= 0.05,
                      f"{r['frames']} frames, held {seconds:.2f} s with {flips} more and {used:.3f} s CPU")
            else:
                # Boat_Loader runs at 60 fps: animation frame = 60 × presentation time.
                # A frame ready early is held until its refresh: none is seen before its time.
                check(f"{name} animation time follows presentation time",
                      abs(r["last"] - 60 * r["seconds"]) <= 3 and r["early"] == 0,
                      f"frame {r['last']:.1f} at {r['seconds']:.2f} s; {r['early']} frames early, latest "
                      f"{r['late']:.1f} refreshes late")
    except Exception as e:
        check("vkms board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def run_kiosk(args, workdir):
    """An injected key starts the download; the screen runs the whole sequence; the file lands.
    Then with --touch prompt: a tap off the prompt is ignored, a tap on it starts."""
    check = Checks("kiosk")
    kdir = os.path.join(workdir, "kiosk")
    vm, serial, qmp_path = boot(args, kdir, "scenario-kiosk.sh", "std")
    try:
        qmp = QMP(qmp_path)
        wait_for(serial, r"BOARD: waiting for a key", 180)
        text = open(serial, errors="replace").read()
        check("the keyboard is found by capability", "input: watching /dev/input/event" in text,
              "; ".join(re.findall(r"input: watching [^\n]*", text)))
        time.sleep(1.0)
        before = os.path.join(kdir, "waiting.ppm")
        qmp.command("screendump", filename=before)
        qmp.command("send-key", keys=[{"type": "qcode", "data": "ret"}])
        code = int(wait_for(serial, r"BOARD: run exit (\d+)", 180).group(1))
        check("buoy run exits 0 after the success segment", code == 0, f"status {code}")
        states = wait_for(serial, r"BOARD: states (.*)", 30).group(1).split()
        # Under TCG a frame can take longer than the 4x run to the loop's end, so "finishing"
        # may fall between two frames; the order must hold.
        order = ["waiting", "downloading", "finishing", "success", "done"]
        ranks = [order.index(s) for s in states if s in order]
        check("states run waiting → downloading → (finishing) → success → done",
              states[:1] == ["waiting"] and states[-1] == "done" and "success" in states and ranks == sorted(ranks), " ".join(states))
        intact = wait_for(serial, r"BOARD: (payload ok|end)", 60).group(1)
        check("the downloaded file is intact", intact == "payload ok")
        w, h, pixels = read_ppm(before)
        check("the default animation is on screen while waiting", len(set(pixels[i:i + 3] for i in range(0, len(pixels), 3 * 97))) > 5,
              f"{w}x{h}")

        # --touch prompt: the tablet taps the sky (ignored), then the prompt band at the bottom.
        # Absolute events go to the virtio tablet, the only absolute pointer; its button with them.
        wait_for(serial, r"BOARD: waiting for a touch", 120)
        time.sleep(1.0)

        def tap(x, y):
            move = [{"type": "abs", "data": {"axis": "x", "value": int(x * 32767)}},
                    {"type": "abs", "data": {"axis": "y", "value": int(y * 32767)}}]
            qmp.command("input-send-event", events=move + [{"type": "btn", "data": {"down": True, "button": "left"}}])
            qmp.command("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

        tap(0.5, 0.2)
        ignored = wait_for(serial, r"input: touch at (\d+),(\d+) is not on the start prompt", 30)
        time.sleep(1.0)
        after = open(serial, errors="replace").read().split("BOARD: waiting for a touch", 1)[1]
        check("a tap away from the start prompt is ignored", "starting the download" not in after,
              f"touch at {ignored.group(1)},{ignored.group(2)}")
        tap(0.5, 0.97)
        code = int(wait_for(serial, r"BOARD: touch run exit (\d+)", 180).group(1))
        states = wait_for(serial, r"BOARD: touch states (.*)", 30).group(1).split()
        check("a tap on the start prompt starts the download", code == 0 and states[:1] == ["waiting"] and states[-1] == "done",
              f"status {code}, states {' '.join(states)}")
        intact = wait_for(serial, r"BOARD: (touch payload ok|end)", 60).group(1)
        check("the file fetched after the tap is intact", intact == "touch payload ok")
        wait_for(serial, r"BOARD: end", 60)
    except Exception as e:
        check("kiosk board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def water_share(path):
    """Share of pixels in the default animation's front-water blue."""
    w, h, px = read_ppm(path)
    n = 0
    for i in range(0, len(px), 3 * 7):
        r, g, b = px[i], px[i + 1], px[i + 2]
        if abs(r - 28) < 24 and abs(g - 128) < 24 and abs(b - 199) < 24:
            n += 1
    return n / (w * h / 7)


def run_daemon(args, workdir):
    """`buoy fetch` through the daemon's socket drives the panel while `buoy status` reads it."""
    check = Checks("daemon")
    ddir = os.path.join(workdir, "daemon")
    vm, serial, qmp_path = boot(args, ddir, "scenario-daemon.sh", "std")
    try:
        qmp = QMP(qmp_path)
        wait_for(serial, r"BOARD: daemon ready", 180)
        wait_for(serial, r"BOARD: rising-1", 60)
        first = os.path.join(ddir, "rising-1.ppm")
        qmp.command("screendump", filename=first)
        wait_for(serial, r"BOARD: rising-2", 60)
        second = os.path.join(ddir, "rising-2.ppm")
        qmp.command("screendump", filename=second)
        a, b = water_share(first), water_share(second)
        check("the water rises on the panel as bytes arrive", b > a + 0.05, f"{a * 100:.0f}% → {b * 100:.0f}% water")
        text = open(serial, errors="replace").read()
        statuses = re.findall(r"BOARD: status (\{.*\})", text)
        check("a second client reads the status while it downloads",
              any(json.loads(s).get("state") == "downloading" for s in statuses), "; ".join(statuses[:2]))
        m = wait_for(serial, r"BOARD: fetch exit (\d+) events (\d+) last (.*)", 120)
        last = json.loads(m.group(3)) if m.group(3).startswith("{") else {}
        check("buoy fetch through the socket ends done with progress events",
              m.group(1) == "0" and int(m.group(2)) >= 3 and last.get("event") == "done", f"exit {m.group(1)}, {m.group(2)} events")
        states = wait_for(serial, r"BOARD: states (.*)", 30).group(1).split()
        check("the daemon ran the sequence", "downloading" in states and states[-1] == "done", " ".join(states))
        held = wait_for(serial, r"BOARD: held cpu (\d+) (\d+) frames (\d+) (\d+)", 60)
        # Clock ticks of 10 ms (USER_HZ 100); a held screen renders and flips nothing.
        seconds = (int(held.group(2)) - int(held.group(1))) / 100
        flips = int(held.group(4)) - int(held.group(3))
        print(f"figure [daemon]: held screen after done (--on-complete hold, DRM): {seconds:.2f} s CPU in 10 s, {flips} page flips",
              flush=True)
        check("a held screen uses at most 0.05 s CPU in 10 s and flips no page", seconds <= 0.05 and flips == 0,
              f"{seconds:.2f} s, {flips} flips")
        wait_for(serial, r"BOARD: end", 60)
    except Exception as e:
        check("daemon board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def lit_share(path):
    """Share of pixels that are not (nearly) black."""
    w, h, px = read_ppm(path)
    n = sum(1 for i in range(0, len(px), 3 * 5) if max(px[i], px[i + 1], px[i + 2]) > 16)
    return n / (w * h / 5)


def run_retain(args, workdir):
    """`--on-complete retain` on a real DRM driver: the last frame outlives buoy only while
    another process holds the device, on a kernel with DRM_IOCTL_MODE_CLOSEFB (Linux 6.8+);
    on an older kernel buoy gives the console back with a warning, never a blank panel;
    `--on-complete exit` gives the console back."""
    check = Checks("retain")
    rdir = os.path.join(workdir, "retain")
    vm, serial, qmp_path = boot(args, rdir, "scenario-retain.sh", "std")
    try:
        qmp = QMP(qmp_path)
        kernel = wait_for(serial, r"BOARD: kernel (\S+)", 180).group(1)
        closefb = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", kernel).groups()) >= (6, 8)
        shots = {}
        runs = ["exit-held", "retain-held", "retain-alone"]
        names = [n for run in runs for n in [run + "-showing", run, run + "-text"] + ([run + "-released-text"] if "held" in run else [])]
        for name in names:
            wait_for(serial, rf"BOARD: shot {name}\n", 240)
            path = os.path.join(rdir, f"{name}.ppm")
            qmp.command("screendump", filename=path)
            shots[name] = lit_share(path)
            print(f"figure [retain]: {name}: {shots[name] * 100:.1f}% of pixels lit", flush=True)
        text = open(serial, errors="replace").read()
        for run in runs:
            m = re.search(rf"BOARD: {run} exit (\d+) holder (.*)", text)
            check(f"{run}: the download ends with status 0", bool(m) and m.group(1) == "0", m.group(0) if m else "no report")
            check(f"{run}: buoy's picture is on the panel while it runs", shots[run + "-showing"] > 0.5,
                  f"{shots[run + '-showing'] * 100:.0f}% lit")
        held = re.search(r"BOARD: retain-held exit \d+ holder (.*)", text)
        check("the holder had /dev/dri/card0 open when buoy exited", bool(held) and "/dev/dri/card0" in held.group(1),
              held.group(1) if held else "")

        def picture(name):  # buoy's frame fills the panel; the console's lines light a few percent
            return shots[name] > 0.5

        def console_text(name):
            return 0.002 < shots[name] < 0.3

        def blank(name):
            return shots[name] < 0.002

        check("--on-complete exit with a holder: the console has the panel back", console_text("exit-held-text"),
              f"{shots['exit-held-text'] * 100:.1f}% lit after writing to it")
        after = f"{shots['retain-held'] * 100:.1f}% lit"
        if closefb:
            check(f"retain with a holder leaves buoy's last frame on the panel (Linux {kernel})", picture("retain-held"), after)
            # retain leaves the console in graphics mode: the kernel restores its fbdev mode at the
            # last close but draws no text; the panel stays as it is until the next program draws.
            for name in ["retain-held-text", "retain-held-released-text", "retain-alone-text"]:
                check(f"{name.replace('-text', '')}: the console stays in graphics mode (its text is not drawn)",
                      blank(name) or picture(name), f"{shots[name] * 100:.1f}% lit after writing to it")
        else:
            # Without CLOSEFB the framebuffer goes with buoy's file, which turns the CRTC off: the
            # picture cannot outlive buoy, so buoy gives the console back (as exit does) and says so.
            check(f"retain with a holder on Linux {kernel} (no CLOSEFB): buoy's picture goes when it exits",
                  not picture("retain-held"), after)
            for run in ["retain-held", "retain-alone"]:
                check(f"{run}: the console has the panel back, not a blank screen", console_text(run + "-text"),
                      f"{shots[run + '-text'] * 100:.1f}% lit after writing to it")
                warned = re.search(rf"BOARD: {run} fallback warnings (\d+)", text)
                check(f"{run}: buoy says this kernel cannot keep the picture", bool(warned) and warned.group(1) == "1",
                      warned.group(0) if warned else "no report")
        wait_for(serial, r"BOARD: end", 60)
    except Exception as e:
        check("retain board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def run_still(args, workdir):
    """`buoy play` of a still file whose layers enter and leave: it sleeps between the changes
    (no wake every refresh) and still shows each change on time."""
    check = Checks("still")
    sdir = os.path.join(workdir, "still")
    vm, serial, _ = boot(args, sdir, "scenario-still.sh", "std")
    try:
        m = wait_for(serial, r"BOARD: still exit (\d+) frames (\d+) times real\s+(\d+)m\s*([0-9.]+)s user\s+(\d+)m\s*([0-9.]+)s "
                             r"sys\s+(\d+)m\s*([0-9.]+)s", 300)
        real = int(m.group(3)) * 60 + float(m.group(4))
        cpu = int(m.group(5)) * 60 + float(m.group(6)) + int(m.group(7)) * 60 + float(m.group(8))
        between = wait_for(serial, r"BOARD: still between changes cpu (\d+) (\d+) frames (\d+)", 10)
        # Clock ticks of 10 ms (USER_HZ 100).
        idle = (int(between.group(2)) - int(between.group(1))) / 100
        print(f"figure [still]: buoy play of a still file with layers entering and leaving, 10 s on DRM: {cpu:.2f} s CPU "
              f"(user + sys, start-up and {m.group(2)} frames drawn included), {real:.1f} s real; between two changes "
              f"{idle:.2f} s CPU in 2 s (TCG)", flush=True)
        wait_for(serial, r"BOARD: end", 60)
        shown = [float(x) for x in re.findall(r"BOARD: still frame ([0-9.]+)", open(serial, errors="replace").read())]
        check("the play ends with status 0", m.group(1) == "0", f"status {m.group(1)}")
        check("each layer change is shown within 10 frames of it",
              any(100 < f <= 110 for f in shown) and any(200 < f <= 210 for f in shown) and any(f <= 10 for f in shown),
              " ".join(f"{f:.1f}" for f in shown))
        check("between the changes it sleeps: at most 0.05 s CPU in 2 s", idle <= 0.05 and between.group(3) == "2",
              f"{idle:.2f} s, {between.group(3)} frames shown by then")
    except Exception as e:
        check("still board run", False, str(e))
    finally:
        vm.kill()
        vm.wait()
    return check.results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("buoy")
    ap.add_argument("animation")
    ap.add_argument("--gpu", action="append")
    ap.add_argument("--keep")
    ap.add_argument("--no-vkms", action="store_true")
    ap.add_argument("--only", help="run just one part: gpu (the --gpu boards), vkms, kiosk, daemon, retain or still")
    ap.add_argument("--render-with", help="a buoy that runs here, to draw the expected frames "
                    "(when BUOY_HOST_BINARY is for another architecture)")
    args = ap.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="buoy-board-")
    os.makedirs(workdir, exist_ok=True)
    subprocess.run([os.path.join(HERE, "build-initramfs.sh"), workdir, os.path.join(HERE, "scenario-drm.sh"), args.animation],
                   check=True)
    results = []
    if args.only == "gpu":
        for gpu in args.gpu or ["std", "virtio"]:
            results += run_gpu(args, gpu, workdir)
    elif args.only:
        results += {"vkms": run_vkms, "kiosk": run_kiosk, "daemon": run_daemon,
                    "retain": run_retain, "still": run_still}[args.only](args, workdir)
    else:
        for gpu in args.gpu or ["std", "virtio"]:
            results += run_gpu(args, gpu, workdir)
        if not args.no_vkms:
            results += run_vkms(args, workdir)
        results += run_kiosk(args, workdir)
        results += run_daemon(args, workdir)
        results += run_retain(args, workdir)
        results += run_still(args, workdir)
    passed = sum(results)
    print(f"board: {passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
