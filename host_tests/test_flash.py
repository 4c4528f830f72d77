"""tools/maker/flash.py and tools/maker/micropython_fw.py without hardware or network: the plan, the
command lines, and whole flashes onto a fake board (a folder, read by the real PROBE in the
micropython binary, written by a fake mpremote), the offline fallback for the OLED driver, Ctrl-C in
dev."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time

import build
import flash
import micropython_fw
from hostenv import venv_program
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLASH = os.path.join(ROOT, "tools", "maker", "flash.py")
FW = os.path.join(ROOT, "tools", "maker", "micropython_fw.py")
MICROPYTHON = venv_program("micropython") or "micropython"

# A fake mpremote: FAKE_BOARD is the board's filesystem, every call is logged (one JSON list of
# words a line) in FAKE_LOG. exec runs the code in the real micropython binary in that folder
# (its platform and version replaced by FAKE_PLATFORM / FAKE_VERSION); cp/rm/mkdir/rmdir act
# on the folder; mip fails as offline when FAKE_OFFLINE is set; FAKE_CORRUPT names a file that
# cp writes short; FAKE_HANG makes an exec of `import main` run until it is killed. FAKE_ROMFS
# gives the board a ROMFS partition of that many bytes (the file FAKE_BOARD.rom): `romfs deploy`
# writes it (its last byte wrong with FAKE_ROMFS_CORRUPT), the probe says R 1 SIZE (and O 1
# while it holds more than an empty image), and the partition's check (flash.ROM_CHECK) is
# answered from it. FAKE_FROZEN (module names, comma-separated: 'board/app,ssd1306') are added
# to help('modules') as a MicroPython image with those modules frozen lists them, and
# FAKE_FROZEN_APP is the firmware version frozen into it (PROBE's Y line).
FAKE_MPREMOTE = r'''#!%(python)s
import json, os, shutil, subprocess, sys, time
board, env = os.environ["FAKE_BOARD"], os.environ
args = sys.argv[1:]
with open(env["FAKE_LOG"], "a") as f:
    f.write(json.dumps(args) + "\n")
if args[:1] == ["connect"]:
    args = args[2:]
steps, cur = [], []
for a in args + ["+"]:
    if a == "+":
        steps.append(cur)
        cur = []
    else:
        cur.append(a)
def at(p):
    return os.path.join(board, p.lstrip(":"))
for step in steps:
    cmd, rest = step[0], step[1:]
    if cmd == "mount":  # mount FOLDER, then the next command
        cmd, rest = rest[1], rest[2:]
    if cmd == "exec" and "memoryview(vfs.rom_ioctl(2" in rest[0]:  # flash.ROM_CHECK
        import hashlib, re
        n = int(re.search(r"\[:(\d+)\]", rest[0]).group(1))
        with open(board + ".rom", "rb") as f:
            print("I", hashlib.sha256(f.read()[:n]).hexdigest())
        continue
    if cmd == "exec":
        if "import main" in rest[0] and env.get("FAKE_HANG"):
            time.sleep(60)
        r = subprocess.run([%(micropython)r, "-c", rest[0]], cwd=board, capture_output=True,
                           text=True)
        for line in r.stdout.splitlines():
            if line.startswith("P "):
                line = "P " + env.get("FAKE_PLATFORM", "rp2")
            elif line.startswith("V ") and env.get("FAKE_VERSION"):
                line = "V " + env["FAKE_VERSION"]
            elif line == "R 0 0" and env.get("FAKE_ROMFS"):
                line = "R 1 " + env["FAKE_ROMFS"]
            elif line == "z" and env.get("FAKE_FROZEN"):
                print(" ".join(env["FAKE_FROZEN"].split(",")))
            elif line == "Y -" and env.get("FAKE_FROZEN_APP"):
                line = "Y " + env["FAKE_FROZEN_APP"]
            elif line == "O 0" and os.path.exists(board + ".rom") \
                    and os.path.getsize(board + ".rom") > 16:
                line = "O 1"  # /rom holds an image of the firmware
            print(line)
        if r.returncode:
            sys.exit(r.stderr or 1)
    elif cmd == "rm":
        for p in rest:
            os.remove(at(p))
    elif cmd == "rmdir":
        for p in rest:
            os.rmdir(at(p))
    elif cmd == "mkdir":
        for p in rest:
            if os.path.exists(at(p)):
                sys.exit("mpremote: mkdir: File exists")
            os.mkdir(at(p))
    elif cmd == "cp":
        shutil.copyfile(rest[0], at(rest[1]))
        if rest[1] == ":" + env.get("FAKE_CORRUPT", "-"):
            with open(at(rest[1]), "ab") as f:
                f.write(b"#")
    elif cmd == "mip":
        if env.get("FAKE_OFFLINE"):
            sys.exit("mpremote: [Errno -3] Temporary failure in name resolution requesting "
                     "https://micropython.org/pi/v2/package/6/ssd1306/latest.json")
        os.makedirs(at("lib"), exist_ok=True)
        with open(at("lib/%%s.mpy" %% rest[1]), "wb") as f:
            f.write(b"M\x06 from mip")
    elif cmd == "romfs" and rest[0] == "deploy":
        if not env.get("FAKE_ROMFS"):
            sys.exit("mpremote: no ROMFS partition")
        with open(rest[1], "rb") as f:
            data = f.read()
        if env.get("FAKE_ROMFS_CORRUPT"):
            data = data[:-1] + b"X"
        with open(board + ".rom", "wb") as f:
            f.write(data)
    elif cmd not in ("reset", "soft-reset", "bootloader"):
        sys.exit("fake mpremote: no %%s" %% cmd)
'''


def fake_build(tmp_path):
    """A small build root: every target with a module, main.py and the right board_config."""
    root = tmp_path / "build"
    for t in build.TARGETS:
        d = root / t
        (d / "cribbage").mkdir(parents=True)
        (d / "cribbage" / "score.mpy").write_bytes(b"M\x06 score " + t.encode())
        (d / "main.py").write_text("import board\n")
        (d / "board_config.py").write_text(build.board_config(t))
    return root


def real_build(tmp_path, target="rp2040"):
    """A real build of firmware/ for the Pico (its version.mpy imports in micropython), or
    for target (rp2040w: the Pico W's)."""
    root = tmp_path / "build"
    build.build(target, os.path.join(ROOT, "firmware"), str(root))
    return root


def write(folder, files):
    for rel, data in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode())


def files_of(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def cli(script, *args, env=None):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                          timeout=120, env=env)


def commands(stdout):
    return [shlex.split(line[2:], comments=True) for line in stdout.splitlines()
            if line.startswith("$ ")]


# --- the plan --------------------------------------------------------------------------------

BOARD_LISTING = """\
P rp2
V 1.24.1
M 6
U Raspberry Pi Pico with RP2040
A 0.1.0
D data
F 300 aa data/game
F 12 ab data/settings
F 64 ac data/history
F 1 ad data/boots
F 20 ae data/game.bad
F 300 af data/game.tmp
F 40 ag data/wifi.json
D cribbage
F 2 b0 cribbage/score.py
F 9 b1 cribbage/score.mpy
F 5 b2 cribbage/old.mpy
D oldpkg
D oldpkg/sub
F 3 b3 oldpkg/sub/x.py
D lib
F 9 b4 lib/ssd1306.mpy
F 9 b5 lib/ssd1306.py
F 9 b6 lib/other.mpy
F 10 b7 boot.py
F 10 b8 wifi.json
F 14 b9 main.py
F 18 ba version.py
"""


def test_plan_removes_stale_files_and_keeps_the_data():
    board = flash.parse_listing(BOARD_LISTING)
    assert board.app == "0.1.0" and board.version == "1.24.1" and board.platform == "rp2"
    files = {"main.py": (14, "b9"), "cribbage/score.mpy": (9, "new"), "version.mpy": (30, "c0"),
             "board/app.mpy": (100, "c1"), "board_config.py": (15, "c2")}
    p = flash.plan(files, board)
    removed = dict(p["remove"])
    assert set(removed) == {"cribbage/score.py", "cribbage/old.mpy", "oldpkg/sub/x.py",
                            "lib/ssd1306.py", "lib/other.mpy", "version.py"}
    # MicroPython imports a .py before the .mpy of the same name: such a .py goes, saying why
    assert "stale .py beside the build's .mpy" in removed["cribbage/score.py"]
    assert "stale .py" in removed["version.py"]
    assert "stale .py" not in removed["cribbage/old.mpy"]
    kept = dict(p["keep"])
    assert set(kept) == {"data/game", "data/settings", "data/history", "data/boots",
                         "data/game.bad", "data/game.tmp", "data/wifi.json", "lib/ssd1306.mpy",
                         "boot.py", "wifi.json"}
    assert "saved game" in kept["data/game"] and "Wi-Fi" in kept["wifi.json"]
    assert p["same"] == ["main.py"]
    assert p["update"] == ["cribbage/score.mpy"]
    assert p["add"] == ["board/app.mpy", "board_config.py", "version.mpy"]
    assert p["mkdir"] == ["board"]
    assert p["rmdir"] == ["oldpkg/sub", "oldpkg"]  # the deepest first; data/ and lib/ stay


def test_change_command_removes_then_copies(tmp_path):
    board = flash.parse_listing(BOARD_LISTING)
    p = flash.plan({"main.py": (1, "x"), "board/app.mpy": (1, "y")}, board)
    cmd = flash.change_cmd(p, str(tmp_path), "/dev/ttyACM0")
    steps = " ".join(cmd[3:]).split(" + ")
    assert steps[0].startswith("rm :") and ":cribbage/score.py" in steps[0]
    assert not any("data/" in s or "wifi.json" in s or "boot.py" in s for s in steps)
    assert steps[1] == "rmdir :oldpkg/sub :cribbage :oldpkg"  # the deepest first
    assert steps[2] == "mkdir :board"
    assert "cp %s :board/app.mpy" % os.path.join(tmp_path, "board", "app.mpy") in steps
    assert "cp %s :main.py" % os.path.join(tmp_path, "main.py") in steps
    assert flash.change_cmd(flash.plan({}, flash.Board()), str(tmp_path), None) is None


def test_dry_run_plans_from_a_listing_and_runs_nothing(tmp_path, fake):
    _board, env, calls = fake
    b = fake_build(tmp_path)
    listing = tmp_path / "board.txt"
    listing.write_text(BOARD_LISTING)
    r = cli(FLASH, "flash", "--board", "pico", "--port", "/dev/ttyFAKE0", "--dry-run",
            "--build", str(b), "--board-files", str(listing), env=env)
    assert r.returncode == 0, r.stderr
    assert calls() == []  # nothing ran: every command is only printed
    out = r.stdout
    assert "before: cribbage board 0.1.0 (MicroPython 1.24.1 on rp2)" in out
    for line in ("remove  cribbage/score.py", "remove  version.py", "remove  oldpkg/",
                 "keep    data/game ", "keep    data/boots", "keep    data/game.bad",
                 "keep    wifi.json", "keep    lib/ssd1306.mpy", "add     board_config.py",
                 "update  cribbage/score.mpy", "update  main.py"):
        assert line in out, line
    cmds = commands(out)
    assert all(c[1:3] == ["connect", "/dev/ttyFAKE0"] for c in cmds)
    rm = next(c for c in cmds if "rm" in c)
    assert ":cribbage/score.py" in rm and not any("data/" in w for w in rm)
    assert not any("mip" in c for c in cmds)  # the driver is on the board already: kept
    assert cmds[-1][3:] == ["reset"]


@pytest.mark.parametrize("board,target", [("pico", "rp2040"), ("pico_w", "rp2040w"),
                                          ("esp32", "esp32")])
def test_flash_command_lines_for_an_empty_board(tmp_path, board, target):
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", board, "--port", "/dev/ttyFAKE0", "--dry-run",
            "--build", str(b))
    assert r.returncode == 0, r.stderr
    assert "planned as for an empty board" in r.stdout
    cmds = [c[1:] for c in commands(r.stdout)]
    assert all(os.path.basename(c[0]) == "mpremote" for c in commands(r.stdout))
    assert cmds[0][2] == "exec" and "flash.PROBE" in cmds[0][3]  # the board is read first
    assert ["mip", "install", "ssd1306"] in [c[2:] for c in cmds]
    copy = next(c for c in cmds if "cp" in c)
    steps = " ".join(copy[2:]).split(" + ")
    assert steps[0] == "mkdir :cribbage"
    assert "cp %s :main.py" % os.path.join(b, target, "main.py") in steps
    assert "cp %s :board_config.py" % os.path.join(b, target, "board_config.py") in steps
    for other in build.TARGETS:
        if other != target:  # the other targets' trees are never used
            assert os.path.join(b, other) + os.sep not in " ".join(copy)
    assert cmds[-1][2:] == ["reset"]


def test_a_build_with_another_boards_config_is_refused(tmp_path):
    b = fake_build(tmp_path)
    (b / "esp32" / "board_config.py").write_text(build.config_text("pico"))
    r = cli(FLASH, "flash", "--board", "esp32", "--dry-run", "--build", str(b))
    assert r.returncode == 2
    assert "does not say `from hw.esp32_devkit import build" in r.stderr
    assert "make build" in r.stderr


# --- whole flashes onto a fake board --------------------------------------------------------

def test_flash_makes_the_board_exactly_the_build(tmp_path, fake):
    board, env, calls = fake
    b = real_build(tmp_path)
    data = {"data/game": b"\x02saved game", "data/settings": b"\x01\x02", "data/boots": b"\x01",
            "data/history": b"h" * 32, "data/game.bad": b"bad", "wifi.json": b"{}"}
    write(board, data)
    write(board, {"version.py": 'VERSION = "0.1.0"\n', "cribbage/score.py": "stale = 1\n",
                  "cribbage/gone.mpy": b"M\x06", "old/x.py": "x = 1\n",
                  "lib/ssd1306.mpy": b"M\x06 driver",
                  "board_config.py": build.board_config("rp2040")})
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    want = files_of(b / "rp2040")
    got = files_of(board)
    for rel, blob in data.items():
        assert got.pop(rel) == blob  # the data is kept, byte for byte
    assert got.pop("lib/ssd1306.mpy") == b"M\x06 driver"
    assert got == want  # and the rest is exactly the build: stale .py, old files, old/ gone
    assert not (board / "old").exists()
    out = r.stdout
    assert "version: 0.1.0 -> %s" % build.read_version() in out
    assert "remove  cribbage/score.py" in out and "stale .py" in out
    assert "changed: %d added, 0 updated, 4 removed, 7 kept" % (len(want) - 1) in out
    assert "%d files checked on the board (size and sha256)" % len(want) in out
    assert calls()[-1][2:] == ["reset"]
    # a second flash finds nothing to do and still checks everything
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)
    assert r.returncode == 0, r.stderr
    assert "changed: 0 added, 0 updated, 0 removed, 7 kept, %d unchanged" % len(want) in r.stdout
    assert "version: %s -> %s" % ((build.read_version(),) * 2) in r.stdout


def test_romfs_flash_puts_the_code_in_the_partition_and_only_the_rest_in_files(tmp_path, fake):
    """ROMFS=1: the build's image goes into the partition first, checked by its sha256; the
    filesystem keeps main.py, board_config.py and the board's data, and the build's modules
    left there by an earlier flash are removed (they would be imported before /rom's)."""
    board, env, calls = fake
    b = real_build(tmp_path)
    write(board, {"data/game": b"\x02saved", "wifi.json": b"{}"})
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)  # files, as before
    assert r.returncode == 0, r.stdout + r.stderr
    assert (board / "board" / "app.mpy").exists()
    env = dict(env, FAKE_ROMFS="262144")
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), "--romfs", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    image = (b / ("rp2040" + build.ROMFS_EXT)).read_bytes()
    assert (tmp_path / "board.rom").read_bytes() == image
    got = files_of(board)
    assert sorted(got) == ["board_config.py", "data/game", "lib/ssd1306.mpy", "main.py",
                           "wifi.json"], sorted(got)  # (the OLED driver: mip, on the files)
    assert got["data/game"] == b"\x02saved"
    steps = [c[2] if c[2] != "romfs" else "romfs" for c in calls()[-6:]]
    assert steps.index("romfs") < steps.index("rm")  # the image first, then the files go
    assert "romfs   rp2040.romfs" in r.stdout
    assert "remove  board/app.mpy" in r.stdout and "in the ROMFS image now" in r.stdout
    assert "version: %s -> " % build.read_version() in r.stdout
    # the board's MicroPython has no partition: refused before anything changes
    before = files_of(board)
    n = len(calls())
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), "--romfs",
            env=dict(env, FAKE_ROMFS=""))
    assert r.returncode == 2 and "no ROMFS partition" in r.stderr, r.stderr
    assert files_of(board) == before and [c[2] for c in calls()[n:]] == ["exec", "reset"]
    assert "the board was reset and runs as before" in r.stderr  # not left at its REPL
    # a partition that does not read back as the image: said, with what to do
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), "--romfs",
            env=dict(env, FAKE_ROMFS_CORRUPT="1"))
    assert r.returncode == 2 and "ROMFS partition does not hold" in r.stderr, r.stderr
    # a partition too small for the image: refused before anything changes
    n = len(calls())
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), "--romfs",
            env=dict(env, FAKE_ROMFS="4096"))
    assert r.returncode == 2 and "the board's partition 4096" in r.stderr, r.stderr
    assert [c[2] for c in calls()[n:]] == ["exec", "reset"]
    # back to files: the partition is emptied, or its old modules would stay importable
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "/rom" in r.stdout and "emptied" in r.stdout
    assert (tmp_path / "board.rom").read_bytes() == build.romfs_image(None)
    assert (board / "board" / "app.mpy").exists() and files_of(board)["data/game"] == b"\x02saved"


def test_romfs_dry_run_prints_the_deploy(tmp_path):
    b = fake_build(tmp_path)
    (b / ("esp32" + build.ROMFS_EXT)).write_bytes(b"\xd2\xcd\x31 image")
    r = cli(FLASH, "flash", "--board", "esp32", "--build", str(b), "--romfs", "--dry-run")
    assert r.returncode == 0, r.stderr
    cmds = commands(r.stdout)
    deploy = [c for c in cmds if "romfs" in c]
    assert deploy and deploy[0][-3:] == ["romfs", "deploy", str(b / "esp32.romfs")]
    assert "add     main.py" in r.stdout and "add     board_config.py" in r.stdout
    assert "cribbage/score.mpy" not in r.stdout  # in the image, not in the files
    assert "ROMFS partition is not checked" in r.stdout


def frozen_env(env, build_dir, version, leave_out=()):
    """The fake board's MicroPython as an image with build_dir's modules frozen (but those
    whose path starts with one of leave_out) and the OLED driver, firmware version."""
    names = {flash.module_of(p) for p in flash.tree(str(build_dir))
             if not build.on_filesystem(p) and not p.startswith(tuple(leave_out) or ("\0",))}
    names.discard(None)
    return dict(env, FAKE_FROZEN=",".join(sorted(names) + ["ssd1306"]),
                FAKE_FROZEN_APP=version)


def test_flash_onto_a_frozen_image_installs_only_what_it_lacks(tmp_path, fake):
    """A board whose MicroPython has the firmware frozen in (make firmware): flash copies
    main.py, board_config.py and what the image lacks (here: publish/says.py, left out of
    it), removes the module files of an earlier flash (imported first, '' precedes .frozen:
    they would shadow the frozen ones), keeps the data, and knows the OLED driver is frozen."""
    board, env, calls = fake
    b = real_build(tmp_path, "rp2040w")
    data = {"data/game": b"\x02saved", "data/history": b"h" * 32, "wifi.json": b"{}"}
    write(board, data)
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), env=env)  # .mpy files
    assert r.returncode == 0, r.stdout + r.stderr
    assert (board / "board" / "app.mpy").exists() and (board / "lib" / "ssd1306.mpy").exists()
    # then the frozen image goes on (make micropython FIRMWARE=...): the files are the old ones
    env = frozen_env(env, b / "rp2040w", build.read_version(), leave_out=("publish/says",))
    listing = flash.parse_listing(cli(FLASH, "files", env=env).stdout)
    assert "board/app" in listing.frozen and "ssd1306" in listing.frozen
    assert "asyncio/core" in listing.frozen  # (the unix port's own frozen modules)
    assert listing.frozen_app == build.read_version()
    n = len(calls())
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    got = files_of(board)
    for rel, blob in data.items():
        assert got.pop(rel) == blob  # the data is kept, byte for byte
    on_fs = {p for p in files_of(b / "rp2040w") if build.on_filesystem(p)
             or p.startswith("publish/says.") or not p.endswith((".mpy", ".py"))}
    assert set(got) == on_fs, sorted(set(got) ^ on_fs)  # main.py, board_config.py, www/...
    assert "publish/says.mpy" in got  # the image lacks it: copied
    assert not [p for p in got if p.startswith("lib/")]  # (no MQTT client: issue 33)
    assert "remove  board/app.mpy" in r.stdout and "'' comes before .frozen" in r.stdout
    assert "remove  lib/ssd1306.mpy" in r.stdout
    assert "ssd1306: frozen in the board's MicroPython" in r.stdout
    assert "NOT on the board" not in r.stdout
    assert not any("mip" in c for c in calls()[n:])
    assert "only what it lacks was copied" in r.stdout
    assert calls()[-1][2:] == ["reset"]
    # again: nothing to do
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), env=env)
    assert r.returncode == 0 and "changed: 0 added, 0 updated, 0 removed" in r.stdout, r.stdout
    # ROMFS=1 onto it: refused before anything changes, the board left running
    before = files_of(board)
    n = len(calls())
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), "--romfs",
            env=dict(env, FAKE_ROMFS="262144"))
    assert r.returncode == 2 and "frozen in: its code runs from flash already" in r.stderr
    assert files_of(board) == before and [c[2] for c in calls()[n:]] == ["exec", "reset"]
    # back to stock MicroPython: every file again, the data kept
    env = {k: v for k, v in env.items() if not k.startswith("FAKE_FROZEN")}
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    got = files_of(board)
    for rel, blob in data.items():
        assert got.pop(rel) == blob
    assert got.pop("lib/ssd1306.mpy") == b"M\x06 from mip"
    assert got == files_of(b / "rp2040w")


def test_flash_onto_another_versions_frozen_image_copies_everything(tmp_path, fake):
    """An image with another version of the firmware frozen: mixing its modules with the
    build's would not work, so every file is copied (imported first, they shadow it), and
    the flash says what that costs and what to do."""
    board, env, _calls = fake
    b = real_build(tmp_path)
    env = frozen_env(env, b / "rp2040", "0.0.1")
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert files_of(board) == files_of(b / "rp2040")  # (the driver: frozen, not installed)
    assert "has firmware 0.0.1 frozen, the build is %s" % build.read_version() in r.stdout
    assert "put the image of this version on the board" in r.stdout


def test_module_of():
    assert flash.module_of("board/app.mpy") == "board/app"
    assert flash.module_of("lib/ssd1306.mpy") == "ssd1306"
    assert flash.module_of("lib/umqtt/simple.mpy") == "umqtt/simple"
    assert flash.module_of("version.py") == "version"
    assert flash.module_of("www/index.html") is None
    board = flash.parse_listing("P rp2\nZ\n__main__  board/app   gc\nversion\n"
                                "Plus any modules on the filesystem\nz\nY 0.3.0\n")
    assert board.frozen == {"__main__", "board/app", "gc", "version"}
    assert board.frozen_app == "0.3.0" and board.platform == "rp2"


def test_wifi_credentials_go_on_the_board_and_stay(tmp_path, fake):
    board, env, _calls = fake
    b = real_build(tmp_path, "rp2040w")
    creds = tmp_path / "my-wifi.json"
    creds.write_text(json.dumps({"ssid": "home", "password": "s3cret-pass"}))
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), "--wifi", str(creds),
            env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (board / "wifi.json").read_bytes() == creds.read_bytes()
    assert "joins 'home'" in r.stdout and "s3cret" not in r.stdout + r.stderr
    import hashlib
    plain = hashlib.sha256(creds.read_bytes()).hexdigest()
    listing = cli(FLASH, "files", env=env).stdout  # what the board's listing says of it
    assert "wifi.json" in listing and plain not in listing + r.stdout  # salted, each run
    assert (board / "page" / "http.mpy").exists()  # the page's own HTTP
    r = cli(FLASH, "flash", "--board", "pico_w", "--build", str(b), env=env)  # a later flash
    assert r.returncode == 0 and "keep    wifi.json" in r.stdout
    assert (board / "wifi.json").read_bytes() == creds.read_bytes()


@pytest.mark.parametrize("text, says", [
    ("{bad", "not JSON"), ('{"password": "x"}', 'no "ssid"'), ("[]", 'no "ssid"'),
    ('{"ssid": "home", "password": 5}', "is text"),
    ('{"ssid": "home", "country": "GBR"}', "two letters")])
def test_a_bad_wifi_file_is_refused_before_anything_changes(tmp_path, fake, text, says):
    board, env, calls = fake
    creds = tmp_path / "wifi.json"
    creds.write_text(text)
    r = cli(FLASH, "flash", "--board", "esp32", "--build", str(tmp_path), "--wifi", str(creds),
            env=env)
    assert r.returncode == 2 and says in r.stderr and calls() == []


def test_offline_the_driver_comes_from_the_builds_copy(tmp_path, fake):
    board, env, calls = fake
    b = fake_build(tmp_path)
    lib = b / "lib"
    lib.mkdir()
    (lib / "ssd1306.mpy").write_bytes(b"M\x06 kept driver")
    sha = flash.file_hash(str(lib / "ssd1306.mpy"))[1]
    (lib / "ssd1306.json").write_text(json.dumps({"hashes": [["ssd1306.mpy", sha[:8]]]}))
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b),
            env=dict(env, FAKE_OFFLINE="1"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert (board / "lib" / "ssd1306.mpy").read_bytes() == b"M\x06 kept driver"
    assert "mip could not fetch it (mpremote: [Errno -3] Temporary failure" in r.stdout
    assert "installed the copy from" in r.stdout
    assert ["mip", "install", "ssd1306"] in [c[2:] for c in calls()]
    # a copy for another .mpy format is not used
    assert flash.cached_lib("ssd1306", str(b), 7) is None
    assert flash.cached_lib("ssd1306", str(b), 6) == [("lib/ssd1306.mpy",
                                                       str(lib / "ssd1306.mpy"))]


def test_offline_without_a_copy_the_flash_goes_on_with_a_note(tmp_path, fake):
    board, env, _calls = fake
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", "esp32", "--build", str(b),
            env=dict(env, FAKE_OFFLINE="1", FAKE_PLATFORM="esp32"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert files_of(board) == files_of(b / "esp32")  # the firmware is on, without the driver
    assert "NOTE: ssd1306 (the OLED driver) is NOT on the board" in r.stdout
    assert "make flash" in r.stdout and "mpremote mip install ssd1306" in r.stdout


def test_online_the_driver_is_installed_with_mip(tmp_path, fake):
    board, env, _calls = fake
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (board / "lib" / "ssd1306.mpy").read_bytes() == b"M\x06 from mip"
    assert "ssd1306: installed with mip" in r.stdout


def test_a_copy_that_does_not_verify_fails(tmp_path, fake):
    _board, env, _calls = fake
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b),
            env=dict(env, FAKE_CORRUPT="main.py"))
    assert r.returncode == 2
    assert "does not hold the build: main.py: 14 bytes on the board, 13 in the build" in r.stderr
    assert "make flash again" in r.stderr


@pytest.mark.parametrize("version", ["1.22.2", "1.19.1"])
def test_old_micropython_is_refused_before_anything_changes(tmp_path, fake, version):
    board, env, calls = fake
    b = fake_build(tmp_path)
    write(board, {"main.py": "old\n"})
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b),
            env=dict(env, FAKE_VERSION=version))
    assert r.returncode == 2
    assert "runs MicroPython %s; the firmware needs 1.23 or newer" % version in r.stderr
    assert "mpy" in r.stderr and "make micropython" in r.stderr  # why, and what to do
    assert [c[2] for c in calls()] == ["exec", "reset"]  # only read, then left running
    assert files_of(board) == {"main.py": b"old\n"}


def test_wrong_board_is_named(tmp_path, fake):
    _board, env, _calls = fake
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", "pico", "--build", str(b),
            env=dict(env, FAKE_PLATFORM="esp32"))
    assert r.returncode == 2 and "BOARD=esp32" in r.stderr
    board = flash.parse_listing("P esp32\nV 1.24.0\n")
    flash.check_board("esp32", None, board)  # the right one passes


def test_files_prints_the_listing_dry_run_reads(fake, tmp_path):
    board, env, _calls = fake
    write(board, {"data/game": b"g", "main.py": "x\n"})
    r = cli(FLASH, "files", env=env)
    assert r.returncode == 0, r.stderr
    b = flash.parse_listing(r.stdout)
    assert b.platform == "rp2" and b.app == "unknown"
    assert b.files["main.py"] == (2, flash.file_hash(str(board / "main.py"))[1])
    assert "data" in b.dirs


# --- dev, repl, errors -------------------------------------------------------------------------

def test_auto_port_and_dev_and_repl(tmp_path):
    b = fake_build(tmp_path)
    r = cli(FLASH, "flash", "--board", "pico", "--dry-run", "--build", str(b))
    cmds = commands(r.stdout)
    assert r.returncode == 0 and cmds, r.stderr  # (an empty plan would pass the next line)
    assert all(c[1:3] == ["connect", "auto"] for c in cmds)
    r = cli(FLASH, "dev", "--board", "esp32", "--port", "/dev/ttyUSB7", "--dry-run")
    dev, reset = commands(r.stdout)
    assert dev[dev.index("mount") + 1].endswith("firmware")
    assert dev[-2] == "exec"
    assert dev[-1] == ("import sys; from hw import esp32_devkit as b; "
                       "sys.modules['board_config'] = b; import main")
    assert reset[1:] == ["connect", "/dev/ttyUSB7", "soft-reset"]
    r = cli(FLASH, "dev", "--board", "pico_w", "--dry-run")  # the Pico W's own module
    assert "from hw import pico_w as b;" in commands(r.stdout)[0][-1]
    r = cli(FLASH, "repl", "--port", "/dev/ttyUSB7", "--dry-run")
    assert [c[1:] for c in commands(r.stdout)] == [["connect", "/dev/ttyUSB7", "repl"]]


def test_ctrl_c_in_dev_stops_cleanly_and_resets_the_board(fake):
    """Ctrl-C (SIGINT to the terminal's process group) while the app runs from source: no
    traceback, the mpremote session ends, the board gets a soft reset (its normal REPL)."""
    _board, env, calls = fake
    p = subprocess.Popen([sys.executable, FLASH, "dev", "--board", "pico"],
                         env=dict(env, FAKE_HANG="1"), start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(200):
        if any("mount" in c for c in calls()):
            break
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert "Traceback" not in err + out
    assert p.returncode == 0, err
    assert "stopped: the board is at its REPL" in out
    assert calls()[-1][2:] == ["soft-reset"]


def test_stop_dev_says_when_the_board_does_not_answer(monkeypatch, capsys):
    class Child:
        def terminate(self):
            self.stopped = True

        def wait(self, timeout=None):
            return -15

    monkeypatch.setattr(flash.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 1, "", "no device"))
    child = Child()
    assert flash.stop_dev(child, None) == 1
    assert child.stopped
    assert "press its reset button" in capsys.readouterr().out


def test_missing_build_is_a_clear_error(tmp_path):
    r = cli(FLASH, "flash", "--board", "pico", "--dry-run", "--build", str(tmp_path / "nothing"))
    assert r.returncode == 2
    assert "make build" in r.stderr


def test_real_mpremote_on_a_missing_port_says_so(tmp_path):
    """One real mpremote run: the port does not exist, the message says so and what to do."""
    b = fake_build(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "MPREMOTE"}
    r = cli(FLASH, "flash", "--board", "pico", "--port", "/dev/ttyNOBOARD9", "--build", str(b),
            env=env)
    assert r.returncode == 2
    assert "no board at /dev/ttyNOBOARD9" in r.stderr
    assert "mpremote devs" in r.stderr
    assert "mip" not in r.stdout  # it stopped before installing or copying anything


def test_no_device_message():
    msg = flash.explain(None, "mpremote: no device found\n")
    assert "no board found" in msg and "PORT=" in msg


def test_config_names_a_board_module_the_firmware_has():
    """board_config.py as the build writes it is what firmware/main.py reads: the board
    module's build(), imported by name (a plain import a reader and pyright can follow)."""
    import ast
    for board, (target, _platform, _module) in flash.BOARDS.items():
        tree = ast.parse(build.config_text(build.BOARD_MODULE[target]))
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and n.module.startswith("hw")]
        assert nodes and all([a.name for a in n.names] == ["build"] for n in nodes)
        modules = [n.module.split(".")[1] for n in nodes]
        for module in modules:
            assert os.path.exists(os.path.join(ROOT, "firmware", "hw", module + ".py")), board
        assert board.replace("esp32", "esp32_devkit") in modules, (board, modules)


@pytest.mark.parametrize("machine,module", [("Raspberry Pi Pico W with RP2040", "pico_w"),
                                            ("Raspberry Pi Pico 2 W with RP2350", "pico_w"),
                                            ("Raspberry Pi Pico with RP2040", "pico"),
                                            ("Raspberry Pi Pico 2 with RP2350", "pico")])
def test_the_rp2040_tree_picks_the_pico_w_module_on_a_pico_w(machine, module, monkeypatch):
    """One rp2040w build for both: its board_config.py asks the machine's name (os.uname());
    the Pico's own build (rp2040, no radio) is the Pico's, whatever runs it."""
    assert build.board_config("rp2040") == build.config_text("pico", False) == \
        "from hw.pico import build  # noqa: F401\n"
    import types
    picked = {}
    fake = types.SimpleNamespace(uname=lambda: types.SimpleNamespace(machine=machine))
    hw_pkg = types.ModuleType("hw")
    for name in ("pico", "pico_w"):
        m = types.ModuleType("hw." + name)
        m.build = name
        setattr(hw_pkg, name, m)
        monkeypatch.setitem(sys.modules, "hw." + name, m)
    monkeypatch.setitem(sys.modules, "hw", hw_pkg)
    monkeypatch.setitem(sys.modules, "os", fake)
    exec(build.board_config("rp2040w"), picked)
    monkeypatch.undo()
    assert picked["build"] == module
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        assert "from %s import build" % flash.CONFIG_FILE[:-3] in f.read()


def test_versions():
    assert flash.version_tuple("1.24.1") == (1, 24, 1)
    assert flash.version_tuple("(1, 23, 0, '')") == (1, 23, 0)
    assert flash.version_tuple("v1.25.0-preview.123.gabc") == (1, 25, 0)
    assert flash.version_tuple("1.22") == (1, 22, 0)
    for ok in ("1.23.0", "1.24.1", "1.29.0", (2, 0, 0)):
        flash.check_micropython(ok)
    for old in ("1.22.2", "1.21.0", "1.9.4", (0, 9, 9)):
        with pytest.raises(flash.FlashError) as e:
            flash.check_micropython(old)
        assert "needs 1.23 or newer: " + flash.WHY_MIN in str(e.value)
    with pytest.raises(flash.FlashError):
        flash.check_micropython(None)


# --- make micropython ---------------------------------------------------------------------------

@pytest.mark.parametrize("board,name,tool,offset", [
    ("pico", "RPI_PICO-20241129-v1.24.1.uf2", "cp", None),
    ("pico_w", "RPI_PICO_W-20241129-v1.24.1.uf2", "cp", None),
    ("esp32", "ESP32_GENERIC-20241129-v1.24.1.bin", "esptool", "0x1000"),
])
def test_micropython_dry_run_picks_tool_and_offset(tmp_path, board, name, tool, offset):
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nBoard-ID: RPI-RP2\n")
    r = cli(FW, "--board", board, "--firmware", name, "--port", "/dev/ttyX", "--drive",
            str(drive), "--dry-run")
    assert r.returncode == 0, r.stderr
    cmds = commands(r.stdout)
    if tool == "cp":
        assert "UF2 copy onto the RPI-RP2 drive" in r.stdout and "no offset" in r.stdout
        assert cmds[0] == ["cp", name, str(drive) + "/"]
    else:
        erase, write_ = cmds[:2]
        assert os.path.basename(erase[0]) == "esptool"
        assert erase[1:] == ["--chip", "esp32", "--port", "/dev/ttyX", "erase-flash"]
        assert write_[-3:] == ["write-flash", offset, name]
        assert "offset 0x1000" in r.stdout
    assert "flash.PROBE" in cmds[-1][-1]  # then the version the board answers with


def test_make_micropython_dry_run():
    r = subprocess.run(["make", "micropython", "BOARD=esp32", "PORT=/dev/ttyUSB0", "DRY_RUN=1",
                        "FIRMWARE=ESP32_GENERIC-20250415-v1.25.0.bin"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "write-flash 0x1000 ESP32_GENERIC-20250415-v1.25.0.bin" in r.stdout


@pytest.mark.parametrize("board,name,says", [
    ("pico", "RPI_PICO_W-20241129-v1.24.1.uf2", "MicroPython for RPI_PICO_W, not for BOARD=pico"),
    ("pico", "RPI_PICO2-20241129-v1.24.1.uf2", "for RPI_PICO2"),
    ("esp32", "ESP32_GENERIC_S3-20241129-v1.24.1.bin", "for ESP32_GENERIC_S3"),
    ("esp32", "RPI_PICO-20241129-v1.24.1.uf2", "not a .bin file"),
    ("pico", "ESP32_GENERIC-20241129-v1.24.1.bin", "not a .uf2 file"),
    ("pico", "RPI_PICO-20240222-v1.22.2.uf2", "is MicroPython 1.22.2; the firmware needs 1.23"),
    ("esp32", "esp32-20230426-v1.20.0.bin", "needs 1.23 or newer"),
])
def test_micropython_refuses_the_wrong_file(board, name, says):
    with pytest.raises(flash.FlashError) as e:
        micropython_fw.check_file(board, name)
    assert says in str(e.value)
    assert micropython_fw.check_file("pico", "RPI_PICO-20250415-v1.25.0.uf2") == (1, 25, 0)
    assert micropython_fw.check_file("esp32", "ESP32_GENERIC-SPIRAM-20250415-v1.25.0.bin")


def fake_esptool(tmp_path):
    exe = tmp_path / "esptool"
    exe.write_text("#!%s\nimport json, os, sys\nopen(os.environ['FAKE_LOG'], 'a').write("
                   "json.dumps(['esptool'] + sys.argv[1:]) + '\\n')\n" % sys.executable)
    exe.chmod(0o755)
    return str(exe)


def test_micropython_esp32_erases_writes_and_checks_the_version(tmp_path, fake):
    _board, env, calls = fake
    fw = tmp_path / "ESP32_GENERIC-20250415-v1.25.0.bin"
    fw.write_bytes(b"\xe9firmware")
    env = dict(env, ESPTOOL=fake_esptool(tmp_path), FAKE_PLATFORM="esp32")
    r = cli(FW, "--board", "esp32", "--firmware", str(fw), "--port", "/dev/ttyUSB0", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    log = calls()
    assert log[0][-1] == "erase-flash"
    assert log[1][-3:] == ["write-flash", "0x1000", str(fw)]
    assert log[2][2] == "exec"  # the board is asked its version afterwards
    assert "supported (1.23 or newer). Next: make flash BOARD=esp32" in r.stdout
    # a board that answers with an older MicroPython (an odd file) is refused, with the reason
    r = cli(FW, "--board", "esp32", "--firmware", str(fw), env=dict(env, FAKE_VERSION="1.22.0"))
    assert r.returncode == 2
    assert "the board runs MicroPython 1.22.0; the firmware needs 1.23 or newer" in r.stderr


def test_micropython_pico_copies_the_uf2_to_the_drive(tmp_path, fake):
    _board, env, _calls = fake
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("Board-ID: RPI-RP2\n")
    fw = tmp_path / "RPI_PICO-20250415-v1.25.0.uf2"
    fw.write_bytes(b"UF2\n" * 100)
    r = cli(FW, "--board", "pico", "--firmware", str(fw), "--drive", str(drive), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (drive / fw.name).read_bytes() == fw.read_bytes()
    r = cli(FW, "--board", "pico", "--firmware", str(fw), "--drive", str(tmp_path), env=env)
    assert r.returncode == 2 and "not the Pico's RPI-RP2 drive" in r.stderr


def test_find_drive(tmp_path):
    (tmp_path / "u" / "RPI-RP2").mkdir(parents=True)
    pattern = str(tmp_path / "*" / "RPI-RP2")
    assert micropython_fw.find_drive((pattern,)) is None  # not the boot loader's drive
    (tmp_path / "u" / "RPI-RP2" / "INFO_UF2.TXT").write_text("Board-ID: RPI-RP2\n")
    assert micropython_fw.find_drive((pattern,)) == str(tmp_path / "u" / "RPI-RP2")


def test_make_targets_call_the_tools():
    def dry_make(*args):
        r = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout

    out = dry_make("flash", "BOARD=esp32", "PORT=/dev/ttyUSB3")
    assert "tools/maker/build.py --package-json --fetch-libs" in out  # flash builds first
    assert "tools/maker/flash.py flash --board esp32 --port /dev/ttyUSB3" in out
    out = dry_make("flash", "DRY_RUN=1", "BOARD_FILES=b.txt")
    assert "--dry-run" in out and "--board-files 'b.txt'" in out
    assert "tools/maker/flash.py dev --board pico" in dry_make("dev")
    assert "tools/maker/flash.py repl --port /dev/ttyACM1" in dry_make("repl", "PORT=/dev/ttyACM1")
    out = dry_make("micropython", "BOARD=pico_w", "FIRMWARE=f.uf2", "DRIVE=/mnt/RPI-RP2")
    assert "tools/maker/micropython_fw.py --board pico_w --firmware 'f.uf2'" in out
    assert "--drive '/mnt/RPI-RP2'" in out
