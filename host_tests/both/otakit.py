"""Helpers for the update tests (issue 31), under CPython and MicroPython alike: a bundle made
in memory (as tools/maker/release.py makes one), a source that streams it, a filesystem to put the
slots on (real littlefs on RAM blocks under MicroPython; a temporary folder under CPython),
and a boot that does what firmware/main.py does."""

import hashlib
import json
import sys

from check import ON_MICROPYTHON

from ota.hmac import hmac
from ota.install import install

KEY = bytes(range(32))  # this board's secret
OTHER = bytes(range(1, 33))  # another board's
OLD = "0.6.0"  # the version the board runs before an update
GAME = b"\x02 the saved game, 300 bytes of it " * 9
SAVES = {"game": [1, 2], "settings": [1, 4], "history": [1, 2], "outbox": [1, 1]}


def hexs(b):
    return "".join("%02x" % x for x in b)


def app_files(version, behaviour="good", size=300):
    """A small app tree: (path, bytes) pairs; app.txt says how it behaves when booted."""
    pad = (version * (size // len(version) + 1)).encode()[:size]
    return [("app.txt", behaviour.encode()), ("board/app.mpy", b"A" + pad),
            ("board/tasks.mpy", b"T" + pad), ("board_config.py", b"# " + pad),
            ("lib/umqtt/simple.mpy", b"M" + pad), ("version.mpy", version.encode())]


def bundle(version="0.7.0", files=None, key=KEY, board="rp2040", saves=None, sig=None,
           tree=None):
    """A bundle's bytes, as tools/maker/release.py makes one and signs it for the board of key.
    sig: the signature line to use instead (b"-": unsigned); tree: the manifest's "tree"."""
    files = files if files is not None else app_files(version)
    out = [head(version, [[p, len(d), hexs(hashlib.sha256(d).digest())] for p, d in files],
                key, board, saves, sig, tree)]
    for _p, d in files:
        out.append(d)
    return b"".join(out)


def head(version, entries, key=KEY, board="rp2040", saves=None, sig=None, tree=None):
    """A bundle's head: the magic line, the signature, the manifest's length, the manifest."""
    m = {"bundle": 1, "version": version, "board": board, "saves": saves or SAVES,
         "files": entries}
    if tree is not None:
        m["tree"] = tree
    raw = json.dumps(m).encode()
    if sig is None:
        sig = hexs(hmac(key, b"update\n" + raw)).encode()
    return b"".join([b"cribbage-bundle 1\n", sig, b"\n", str(len(raw)).encode(), b"\n", raw])


def image(files, blocks=16):
    """A littlefs image (MicroPython only) of slots.IMAGE_BLOCK-byte blocks holding the
    (path, bytes) pairs, as tools/maker/release.py packs a release's tree: its blocks (a list of
    bytearrays: no large piece of the test's heap)."""
    import vfs

    import slots
    dev = Blocks(blocks, slots.IMAGE_BLOCK)
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev)
    for p, d in files:
        i = p.find("/")
        while i > 0:
            try:
                fs.mkdir("/" + p[:i])
            except OSError:
                pass
            i = p.find("/", i + 1)
        with fs.open("/" + p, "wb") as f:
            f.write(d)
    return dev.b


def image_bundle(version="0.7.0", files=None, tree=None, img=None, **kw):
    """A release packed as tools/maker/release.py makes it: one file, slots.IMAGE, the tree in it
    (img: other blocks), and the manifest's "tree" naming every file in it (tree: another
    list of (path, bytes) to name). A list of pieces (Src reads them in turn)."""
    import slots
    files = files if files is not None else app_files(version)
    img = img if img is not None else image(files)
    sha = hashlib.sha256()
    for b in img:
        sha.update(b)
    tree = tree if tree is not None else files
    return [head(version, [[slots.IMAGE, sum(len(b) for b in img), hexs(sha.digest())]],
                 tree=[[p, len(d), hexs(hashlib.sha256(d).digest())] for p, d in tree], **kw)
            ] + list(img)


class Src:
    """A bundle's bytes read as a socket gives them: at most `piece` at a time; read(n).
    data: bytes, or a list of bytes read one after the other."""

    def __init__(self, data, piece=100):
        self.parts = data if isinstance(data, list) else [data]
        self.data = self.parts[0]
        self.i = 0
        self.at = 0
        self.piece = piece

    def read(self, n):
        while self.at >= len(self.data) and self.i + 1 < len(self.parts):
            self.i += 1
            self.data = self.parts[self.i]
            self.at = 0
        n = min(n, self.piece)
        d = self.data[self.at:self.at + n]
        self.at += len(d)
        return bytes(d)


class DirFs:
    """A folder as a MicroPython vfs object (CPython only): open, rename, remove, mkdir,
    rmdir, stat, ilistdir, statvfs."""

    def __init__(self, root):
        self.root = root

    def _p(self, p):
        return self.root + "/" + p.lstrip("/")

    def open(self, p, mode):
        return open(self._p(p), mode)

    def rename(self, a, b):
        import os
        os.rename(self._p(a), self._p(b))

    def remove(self, p):
        import os
        if os.path.isdir(self._p(p)):
            raise OSError(21, "is a directory")
        os.remove(self._p(p))

    def mkdir(self, p):
        import os
        os.mkdir(self._p(p))

    def rmdir(self, p):
        import os
        os.rmdir(self._p(p))

    def stat(self, p):
        import os
        return tuple(os.stat(self._p(p)))

    def ilistdir(self, p):
        import os
        for e in os.scandir(self._p(p)):
            yield e.name, 0x4000 if e.is_dir() else 0x8000, 0

    def statvfs(self, p):
        import os
        return tuple(os.statvfs(self.root))


class Blocks:
    """A RAM flash for vfs.VfsLfs2 in one bytearray per block (no large piece of heap: the
    tests' heap is a board's). The power cuts are host_tests/mp_ota_powercut.py's."""

    def __init__(self, n, size):
        self.ff = b"\xff" * size
        self.b = [bytearray(self.ff) for _ in range(n)]
        self.size = size

    def readblocks(self, n, buf, off=0):
        buf[:] = self.b[n][off:off + len(buf)]

    def writeblocks(self, n, buf, off=None):
        off = off or 0
        self.b[n][off:off + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.b)
        if op == 5:
            return self.size
        if op == 6:
            self.b[arg][:] = self.ff
        return 0


_DEV = []  # the one RAM flash the tests share, wiped for each (the heap is a board's)


def new_fs(blocks=64, block=512):
    """A fresh filesystem for the slots: MicroPython: littlefs on a RAM flash of blocks x
    block bytes; CPython: a temporary folder."""
    if ON_MICROPYTHON:
        import vfs

        if not _DEV or len(_DEV[0].b) != blocks or _DEV[0].size != block:
            del _DEV[:]
            _DEV.append(Blocks(blocks, block))
        dev = _DEV[0]
        for b in dev.b:
            b[:] = dev.ff
        vfs.VfsLfs2.mkfs(dev)
        return vfs.VfsLfs2(dev)
    import tempfile
    return DirFs(tempfile.mkdtemp(prefix="ota"))


def put(files, tree, top=""):
    """Write (path, bytes) pairs under folder top of a slots.Files."""
    for p, d in tree:
        path = (top + "/" if top else "") + p
        i = path.find("/")
        while i > 0:
            try:
                files.fs.mkdir(files.path(path[:i]))
            except OSError:
                pass
            i = path.find("/", i + 1)
        with files.open(files.path(path), "wb") as f:
            f.write(d)


def get(files, path):
    try:
        with files.open(files.path(path), "rb") as f:
            return f.read()
    except OSError:
        return None


class Dog:
    """A fake machine.WDT: records its timeout and counts feeds."""

    def __init__(self, ms):
        self.ms = ms
        self.fed = 0

    def feed(self):
        self.fed += 1


def boot(files, hung=False):
    """One power-up as firmware/main.py does it: the loader picks the folder, then the app
    "runs" as its app.txt says. Returns (folder, what happened): "ran" (a good app: it
    confirms), "raised" (it raised: back), "hung" (its watchdog will reset the board),
    "unconfirmed" (ran, was switched off before it confirmed)."""
    import slots
    saved = list(sys.path)
    dogs = []
    try:
        folder = slots.start(files, lambda ms: dogs.append(Dog(ms)) or dogs[-1], hung)
    finally:
        while len(sys.path) > len(saved):
            sys.path.pop(0)
    if slots.mounted is not None:  # (an image's slot: its files in the mounted image)
        with open(slots.mounted[0] + "/app.txt", "rb") as f:
            how = f.read()
    else:
        how = get(files, (folder + "/" if folder else "") + "app.txt") or b"good"
    on_trial = slots.trial is not None
    if on_trial:
        assert dogs and dogs[0].ms <= 8388  # (the RP2040's longest)
    if how == b"raise":
        r = slots.failed(ImportError("no module named 'board.nope'"), files)
        assert r == on_trial
        return folder, "raised"
    if how == b"hang":
        return folder, "hung"
    if how == b"noconfirm":
        slots.trial = None
        return folder, "unconfirmed"
    if on_trial:
        slots.confirm(files)
    return folder, "ran"


def board():
    """A board flashed without slots (today's layout: the app at the root), a saved game and
    its Wi-Fi file: a slots.Files on a fresh filesystem."""
    fs = new_fs()
    import slots
    files = slots.Files("", fs)
    put(files, app_files(OLD))
    put(files, [("data/game", GAME), ("wifi.json", b'{"ssid": "club", "broker": {"host": "h",'
                 b' "board": "t1", "secret": "' + "".join(
                     "%02x" % x for x in KEY).encode() + b'"}}')])
    return files


def update(files, data, **kw):
    kw.setdefault("board", "rp2040")
    kw.setdefault("running", OLD)
    kw.setdefault("keep", 2048)  # (a small flash)
    return install(Src(data), files, **kw)
