"""Release bundles: the board's .mpy tree (tools/maker/build.py's) and a manifest, in one stream a
board installs over the air (firmware/ota/install.py says the format), signed per board.

    python tools/maker/release.py build --board pico_w [--out build/release] [--pack image|flat]
        -> build/release/cribbage-0.7.0-rp2040.bundle (unsigned: no board takes it)
    python tools/maker/release.py sign --wifi wifi.json BUNDLE [-o FILE]
        -> FILE (default BUNDLE with .<board id> before .bundle): signed for the board whose
           Wi-Fi file it is ("broker": {"board": "t1", "secret": "<64 hex>"})
    python tools/maker/release.py show BUNDLE      # the manifest, and whether it is signed
    python tools/maker/release.py measure [--board pico_w]  # what verifying and installing cost

`make release BOARD=pico_w` runs build. The tree is tools/maker/build.py's for the board's kind
(rp2040 for the Pico and the Pico W, esp32), less the boot loader (main.py, slots.mpy,
slotboot.mpy and slotimg.mpy: they stay at the board's root, never updated over the air).
Each board's slots are packed as PACKING says (--pack chooses otherwise): the tree in one
littlefs image (the Pico and Pico W, whose small filesystems take it in 172 KB, not 456 as
files) or flat (the ESP32, whose 4 MB flash has room: its slot a folder of .mpy files, nothing
mounted at boot, the app imported from the board's own littlefs, and ~3.8 KB of heap less than
from an image: docs/updates.md, docs/memory.md).
The manifest names the firmware's version, the board kind, each file's path, size and SHA-256,
and the saved formats the version reads: {name: [the oldest it reads, the one it writes]}
(SAVES says where each is found in the sources; a format that cannot be found stops the build).

The signature for one board is HMAC-SHA256(secret, b"update\\n" + manifest): only who holds
a board's secret (its Wi-Fi file, the club's registry) can sign for it, and a secret read off
one board signs for no other.
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import shutil
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import build
from hostenv import ROOT

MAGIC = b"cribbage-bundle 1"
LOADER = ("main.py", "slots.mpy", "slots.py", "slotboot.mpy", "slotboot.py", "slotimg.mpy",
          "slotimg.py")  # the root's, never in a bundle (slots: the loader's resident half;
# slotboot: its boot half, let go after start(); slotimg: an image slot's block device)
KINDS = {"pico": "rp2040", "pico_w": "rp2040", "esp32": "esp32"}  # tools/maker/flash.py's boards
# the build tree (tools/maker/build.py's target) of each: the Pico W's carries the page and the club
TREES = {"pico": "rp2040", "pico_w": "rp2040w", "esp32": "esp32"}
UNSIGNED = b"-"
# How each board's update is packed, by its flash (docs/updates.md): "image", the tree in one
# littlefs file (IMAGE), mounted at boot through slotimg (a Pico's 2 MB flash: 848 KB of
# filesystem on the Pico W, 1408 KB on the Pico); "flat", a folder of the tree's files,
# nothing mounted (the ESP32's 4 MB: a larger filesystem, and the heap the mount takes,
# ~3.8 KB of 64-bit heap, is what its 96 KB budget lacks for its 15 %: issue 34)
PACKING = {"pico": "image", "pico_w": "image", "esp32": "flat"}
# Packings a board's budget cannot take, refused (issue 34): an ESP32's game with its slot
# mounted needs ~86.5 KB of its 96 KB heap (1.11, docs/memory.md), short of the 15 % every
# budget keeps; flat, 1.15. (A slot an older release packed in an image still boots and runs.)
REFUSED = {"esp32": "image"}
IMAGE = "app.img"  # a slot's tree packed in one file (firmware/slots.py's IMAGE)
IMAGE_BLOCK = 512  # its littlefs's block size (slots.IMAGE_BLOCK): 172 KB for the Pico W's
# tree (456 KB as files on the board's littlefs, whose every file takes whole 4 KB blocks)

# Saved formats: name -> (file, the pattern of the version it writes, of the oldest it reads).
# A pattern's group 1 is the number. Each is the sources' own statement of the format.
SAVES = {
    "game": ("cribbage/events.py", r"^VERSION = const\((\d+)\)",
             None, ("cribbage/loadgame.py", r"^_OLD = const\((\d+)\)")),
    "settings": ("board/settings.py", r"^VERSION = const\((\d+)\)",
                 None, ("board/boot.py", r"k = n - VERSION \+ v if (\d+) <= v <= VERSION")),
    "history": ("board/history.py", r"A record \(version (\d+);",
                None, ("board/history.py", r"Records of earlier firmware \(version (\d+):")),
    "outbox": ("publish/outbox.py", r"^outbox: \[N, mark\] as JSON()",
               None, None),
}


def _find(src, rel, pattern):
    with open(os.path.join(src, rel)) as f:
        m = re.search(pattern, f.read(), re.M)
    if not m:
        raise SystemExit("release: cannot find the saved format in %s (%s): update "
                         "tools/maker/release.py's SAVES" % (rel, pattern))
    return int(m.group(1)) if m.group(1) else 1  # (the outbox has no version byte: format 1)


def saves(src=None):
    """{name: [oldest read, written]} of every saved file, from the sources."""
    src = src or os.path.join(ROOT, "firmware")
    out = {}
    for name, (rel, pat, _x, oldest) in SAVES.items():
        v = _find(src, rel, pat)
        out[name] = [_find(src, *oldest) if oldest else v, v]
    return out


def listing(tree):
    """[[path, size, sha256 hex], ...] of a built tree's files (sorted, the loader left out)."""
    files = []
    for rel in sorted(build_files(tree)):
        with open(os.path.join(tree, rel), "rb") as f:
            data = f.read()
        files.append([rel, len(data), hashlib.sha256(data).hexdigest()])
    return files


def manifest(tree, version, kind, save_formats, flat=False):
    """The manifest's bytes for a built tree. Packed (the default): the tree goes into one
    file, IMAGE (written into the tree's folder: image()), the manifest's one file, and
    "tree" names the files in it; flat: every file of the tree is one of the bundle's."""
    files = listing(tree)
    m = {"bundle": 1, "version": version, "board": kind, "saves": save_formats, "files": files}
    if not flat:
        img = image(tree, [f[0] for f in files])
        with open(os.path.join(tree, IMAGE), "wb") as f:
            f.write(img)
        m["tree"] = files
        m["files"] = [[IMAGE, len(img), hashlib.sha256(img).hexdigest()]]
    return json.dumps(m, separators=(",", ":"), sort_keys=True).encode()


def image(tree, rels, block=None):
    """The files rels of the tree packed into a littlefs image of IMAGE_BLOCK-byte blocks
    (littlefs-python), in as few blocks as hold them: the board mounts it read-only
    (firmware/slots.py). Disk version 2.0, which every MicroPython's littlefs v2 mounts."""
    from littlefs import LittleFS, LittleFSError

    block = block or IMAGE_BLOCK
    data = {}
    for rel in rels:
        with open(os.path.join(tree, rel), "rb") as f:
            data[rel] = f.read()

    def fill(count):
        fs = LittleFS(block_size=block, block_count=count, disk_version=0x00020000,
                      name_max=255)
        for rel in rels:
            d = os.path.dirname(rel)
            if d:
                fs.makedirs(d, exist_ok=True)
            with fs.open(rel, "wb") as f:
                f.write(data[rel])
        return fs

    count = fill(2 * sum(len(d) for d in data.values()) // block + 64).used_block_count
    while True:  # (the fewest blocks: littlefs needs a few spare ones while it writes)
        try:
            return bytes(fill(count).context.buffer)
        except LittleFSError:
            count += 1


def build_files(tree):
    out = []
    for d, dirs, files in os.walk(tree):
        dirs.sort()
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(d, name), tree).replace(os.sep, "/")
            if rel not in LOADER:
                out.append(rel)
    return out


def write(out, man, tree, sig=UNSIGNED):
    """The bundle: magic, signature line, manifest length, manifest, the files."""
    files = json.loads(man)["files"]
    with open(out, "wb") as f:
        f.write(MAGIC + b"\n" + sig + b"\n" + str(len(man)).encode() + b"\n" + man)
        for rel, _n, _h in files:
            with open(os.path.join(tree, rel), "rb") as g:
                shutil.copyfileobj(g, f)
    return out


def make(board, out, src=None, flat=None):
    """Build the board kind's tree (tools/maker/build.py) and its bundle in out, packed as
    PACKING says for the board (flat: True or False chooses otherwise; manifest()); its path."""
    kind = KINDS[board]
    if flat is None:
        flat = PACKING[board] == "flat"
    if REFUSED.get(board) == ("flat" if flat else "image"):
        raise SystemExit("release: an %s's update cannot be packed as %s: its game would "
                         "lack the 15 %% of heap its budget keeps (docs/updates.md); "
                         "leave --pack out for its own (%s)"
                         % (board, REFUSED[board], PACKING[board]))
    src = src or os.path.join(ROOT, "firmware")
    version = build.read_version(src)
    with tempfile.TemporaryDirectory() as tmp:
        build.build(TREES[board], src, tmp)
        tree = os.path.join(tmp, TREES[board])
        man = manifest(tree, version, kind, saves(src), flat)
        os.makedirs(out, exist_ok=True)
        return write(os.path.join(out, "cribbage-%s-%s.bundle" % (version, kind)), man, tree)


def read_head(path):
    """(signature line, manifest bytes, offset of the files) of a bundle file."""
    with open(path, "rb") as f:
        if f.readline().rstrip(b"\n") != MAGIC:
            raise SystemExit("release: %s is not a bundle" % path)
        sig = f.readline().rstrip(b"\n")
        n = int(f.readline())
        man = f.read(n)
        return sig, man, f.tell()


def secret(wifi):
    """(board id, 32-byte secret) from a board's Wi-Fi file ("broker": {"board", "secret"})."""
    with open(wifi) as f:
        b = json.load(f).get("broker") or {}
    s = b.get("secret")
    if not (isinstance(s, str) and re.fullmatch(r"[0-9a-fA-F]{64}", s)):
        raise SystemExit('release: %s has no "broker": {"secret": "<64 hex digits>"} (the '
                         "club's registry issues it)" % wifi)
    return str(b.get("board") or "board"), bytes.fromhex(s)


def signature(key, man):
    return hmac.new(key, b"update\n" + man, hashlib.sha256).hexdigest().encode()


def sign(path, wifi, out=None):
    """A copy of the bundle signed for the board of the Wi-Fi file; its path."""
    board, key = secret(wifi)
    _sig, man, at = read_head(path)
    out = out or re.sub(r"(\.bundle)?$", ".%s.bundle" % board, path, count=1)
    with open(path, "rb") as f, open(out, "wb") as g:
        g.write(MAGIC + b"\n" + signature(key, man) + b"\n" + str(len(man)).encode() + b"\n"
                + man)
        f.seek(at)
        shutil.copyfileobj(f, g)
    return out


def measure(board="pico_w", out=None):
    """Build and sign a bundle, install it in the real MicroPython binary on littlefs of the
    Pico W's and the Pico's filesystem sizes (tools/bench/ota_install.py), and print the
    figures with board estimates (tools/bench/bench.py's BOARD_FACTOR: bytecode; SHA-256 is C on
    both, so its estimate is an upper bound). Returns {flash KB: {what: (value, unit)}}."""
    import subprocess

    import bench
    from hostenv import venv_program

    out = out or sys.stdout
    key = os.urandom(32)
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = make(board, tmp)
        w = os.path.join(tmp, "wifi.json")
        with open(w, "w") as f:
            json.dump({"broker": {"board": "bench", "secret": key.hex()}}, f)
        signed = sign(path, w)
        build.build(TREES[board], os.path.join(ROOT, "firmware"), os.path.join(tmp, "flat"))
        flat = os.path.join(tmp, "flat", TREES[board])  # (what `make flash` writes)
        env = dict(os.environ, MICROPYPATH=":".join(
            os.path.join(ROOT, p) for p in ("firmware", "tools/host", "host_tests/both",
                                            "tools/bench")))
        for kb in (848, 1408):  # the Pico W's filesystem, the Pico's (MicroPython's rp2 boards)
            p = subprocess.run([venv_program("micropython") or "micropython", "-X",
                                "heapsize=4m", os.path.join(ROOT, "tools", "bench",
                                                            "ota_install.py"),
                                signed, key.hex(), str(kb), tempfile.mkdtemp(dir=tmp), flat],
                               env=env, capture_output=True, text=True, timeout=600)
            if p.returncode:
                raise SystemExit("release: measure failed:\n" + p.stdout + p.stderr)
            rows = got[kb] = {}
            out.write("littlefs of %d KB (%s):\n" % (kb, "Pico W" if kb == 848 else "Pico"))
            for line in p.stdout.splitlines():
                if line.startswith("ROW "):
                    r = json.loads(line[4:])
                    rows[r["what"]] = (r["value"], r["unit"])
                    out.write("  %-72s %10.2f %-2s %s\n" % (r["what"], r["value"], r["unit"],
                                                            bench.board(r)))
                elif line.startswith("BOOTED_IMAGE"):
                    rows["BOOTED_IMAGE"] = (line.split()[1], "")
                elif line.startswith(("SLOT_BYTES", "FREE_BYTES", "TWO_SLOTS_FREE",
                                      "ROOT_AND_SLOT_FREE")):
                    k, v = line.split()
                    rows[k] = (int(v), "B")
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build a board kind's bundle (unsigned)")
    b.add_argument("--board", choices=sorted(KINDS), default="pico_w")
    b.add_argument("--out", default=os.path.join(ROOT, "build", "release"))
    b.add_argument("--pack", choices=("image", "flat"), default=None,
                   help="how the slot is packed (default: the board's, PACKING)")
    s = sub.add_parser("sign", help="sign a bundle for the board of a Wi-Fi file")
    s.add_argument("--wifi", required=True, help="the board's Wi-Fi file (wifi.json)")
    s.add_argument("bundle")
    s.add_argument("-o", "--out", default=None)
    w = sub.add_parser("show", help="a bundle's manifest")
    w.add_argument("bundle")
    m = sub.add_parser("measure", help="what verifying and installing cost on the board")
    m.add_argument("--board", choices=sorted(KINDS), default="pico_w")
    a = ap.parse_args(argv)
    if a.cmd == "build":
        path = make(a.board, a.out, flat=None if a.pack is None else a.pack == "flat")
        _sig, man, _at = read_head(path)
        m = json.loads(man)
        print("%s: %s for %s, %d files%s, %d bytes (manifest %d bytes)" % (
            path, m["version"], m["board"], len(m.get("tree") or m["files"]),
            " in one image" if "tree" in m else "", os.path.getsize(path), len(man)))
    elif a.cmd == "sign":
        print(sign(a.bundle, a.wifi, a.out))
    elif a.cmd == "measure":
        measure(a.board)
    else:
        sig, man, _at = read_head(a.bundle)
        m = json.loads(man)
        print("version %s, board kind %s, %d files%s, %d bytes, saves %s, %s" % (
            m["version"], m["board"], len(m.get("tree") or m["files"]),
            " in one image" if "tree" in m else "", sum(f[1] for f in m["files"]),
            json.dumps(m["saves"], sort_keys=True), "unsigned" if sig == UNSIGNED else "signed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
