"""Install an update: a signed release bundle, streamed from any reader into the slot that is
not running, each file checked as it lands, then the pointer flipped to it, on trial.

A bundle (tools/maker/release.py makes and signs it) is, in this order:

    b"cribbage-bundle 1\\n"
    the signature: 64 hex digits of HMAC-SHA256(secret, b"update\\n" + manifest), then "\\n"
    the manifest's length in bytes, in decimal, then "\\n"
    the manifest: JSON {"bundle": 1, "version": "0.7.0", "board": "rp2040",
        "saves": {"game": [oldest it reads, the one it writes], "settings": [..], ...},
        "files": [[path, size, sha256 hex], ...]}
    every file's bytes, one after the other, in the manifest's order

A release's files are one, slotboot.IMAGE: the tree packed in a littlefs image, with "tree":
[[path, size, sha256 hex], ...] in the manifest naming every file in it, each read back
through the image's filesystem before the flip (as the loader will mount it).

The secret is the board's own (its Wi-Fi file's "broker": {"secret": 64 hex}): a bundle
signed for one board installs on no other, and nothing on the network can sign one.

    from ota.install import install, can_install
    if can_install(app):                      # between games only
        v = install(response)                 # anything with read(n) (or readinto)
        machine.reset()                       # the new version boots on trial (slots.py)

Errors are UpdateError (what and where); the running slot, the one it goes back to and the
data are never touched.
Memory: one 512-byte buffer and the manifest (at most _MANIFEST_MOST bytes) on the heap.
"""

import hashlib
import json
import sys
from binascii import hexlify

import slotboot  # the loader's records, Files and image (let go with this module)
from micropython import const
from ota.hmac import hmac, same

MAGIC = b"cribbage-bundle 1"
_MANIFEST_MOST = const(24576)  # the manifest's bound (about 110 bytes a file)
_FILES_MOST = const(400)
_FILE_MOST = const(262144)  # one file's bound
_IMAGE_MOST = const(524288)  # a slot's image's (slotboot.IMAGE: its whole tree)
_PATH_MOST = const(64)
_ROOM = const(32768)  # bytes left free after the slot is written: the saved game and its
# temporary copy (16 KB each at most), the history's 8 KB (docs/memory.md: room on flash)
_BUF = const(512)
_DIR = const(0x4000)  # stat()'s and ilistdir()'s mode bit for a directory (S_IFDIR)
_KINDS = {"rp2": "rp2040", "esp32": "esp32"}  # sys.platform -> the bundle's board kind
_PATH_OK = "abcdefghijklmnopqrstuvwxyz0123456789_-./"


class UpdateError(Exception):
    pass


def can_install(app):
    """True between games (the last one over, or the next not dealt yet): never mid-game."""
    from cribbage.events import DEAL, OVER  # (loaded with the app already)

    m = app.m
    return m.phase == OVER or (m.phase == DEAL and m.deals == 0)


def kind():
    """This board's kind, as a bundle names it."""
    return _KINDS.get(sys.platform, sys.platform)


def secret(files):
    """The board's 32-byte secret from its Wi-Fi file (/wifi.json: "broker": {"secret"})."""
    d = files.read("wifi.json", 2048)
    try:
        s = json.loads(d)["broker"]["secret"]
        b = bytes([int(s[i:i + 2], 16) for i in range(0, 64, 2)])
        if len(s) == 64:
            return b
    except Exception:  # noqa: BLE001
        pass
    raise UpdateError("no secret in wifi.json: this board takes no updates over the air")


def _version(v):
    """(0, 7, 0) of "0.7.0"; UpdateError when it is not one."""
    try:
        t = tuple(int(x) for x in v.split("."))
        if 1 <= len(t) <= 4:
            return t
    except Exception:  # noqa: BLE001
        pass
    raise UpdateError("bad version %r" % (v,))


class _Reader:
    """Exactly n bytes from the source, or UpdateError (the bundle ends too soon)."""

    def __init__(self, src):
        self.src = src
        self.buf = bytearray(_BUF)
        self.mv = memoryview(self.buf)
        self.into = getattr(src, "readinto", None)

    def chunk(self, n):
        """A memoryview of up to min(n, _BUF) bytes (at least 1)."""
        n = min(n, _BUF)
        if self.into is not None:
            got = self.into(self.mv[:n])
            got = got or 0
        else:
            d = self.src.read(n)
            got = len(d) if d else 0
            self.buf[:got] = d[:got] if got else b""
        if not got:
            raise UpdateError("the bundle ends too soon")
        return self.mv[:got]

    def exactly(self, n):
        out = bytearray()
        while len(out) < n:
            out.extend(self.chunk(n - len(out)))
        return bytes(out)

    def line(self, most):
        out = bytearray()
        while True:
            c = self.chunk(1)[0]
            if c == 10:
                return bytes(out)
            out.append(c)
            if len(out) > most:
                raise UpdateError("not a bundle (a header line too long)")


def _check(man, board, running, force, saves):
    # Every field of the manifest, bounded, before a byte is written.
    if not isinstance(man, dict) or man.get("bundle") != 1:
        raise UpdateError("not a bundle of format 1")
    if man.get("board") != board:
        raise UpdateError("a bundle for %s, this board is %s" % (man.get("board"), board))
    v = man.get("version")
    if not isinstance(v, str) or len(v) > 16:
        raise UpdateError("bad version")
    if _version(v) < _version(running) and not force:
        raise UpdateError("%s is older than the running %s (refused unless forced)" % (v, running))
    new = man.get("saves")
    if not isinstance(new, dict):
        raise UpdateError("no saved formats in the manifest")
    for name in saves or ():  # what the running app writes: can the new one read it?
        r = new.get(name)
        if not (isinstance(r, list) and len(r) == 2 and isinstance(r[0], int)):
            raise UpdateError("no format for %s" % name)
        # it reads what the board has saved: its oldest format not past the board's (too
        # new), nor its own older than the board's (a version back: refused as a target)
        if (r[0] > saves[name][1] or r[1] < saves[name][1]) and not force:
            raise UpdateError("%s cannot read this board's %s (format %d): refused unless "
                              "forced (the save would be set aside)" % (v, name, saves[name][1]))
    total = _entries(man.get("files"), True)
    if "tree" in man:  # the files inside the one file of an image slot (slotboot.IMAGE)
        _entries(man["tree"], False)
        if [e[0] for e in man["files"]] != [slotboot.IMAGE]:
            raise UpdateError("a tree without its image")
    return total


def _entries(fl, top):
    """The bytes a file list ([[path, size, sha256 hex], ...]) names, each entry bounded;
    top: the files of the slot's folder (not its own bundle.json or slot.json)."""
    if not isinstance(fl, list) or not 0 < len(fl) <= _FILES_MOST:
        raise UpdateError("bad file list")
    total = 0
    for e in fl:
        if not (isinstance(e, list) and len(e) == 3):
            raise UpdateError("bad file entry")
        p, n, h = e
        if not (isinstance(p, str) and 0 < len(p) <= _PATH_MOST and p[0] not in "./"
                and ".." not in p and "//" not in p and p[-1] != "/"
                and all(c in _PATH_OK for c in p)
                and not (top and p in ("bundle.json", slotboot.INFO))):
            raise UpdateError("bad path %r" % (p,))
        if not (isinstance(n, int) and 0 <= n <= (_IMAGE_MOST if top else _FILE_MOST)):
            raise UpdateError("bad size for %s" % p)
        if not (isinstance(h, str) and len(h) == 64):
            raise UpdateError("bad hash for %s" % p)
        total += n
    return total


def _clear(fs, path):
    """Remove path and all it holds (a slot's old tree), or the file path; nothing when it is
    not there."""
    try:
        entries = list(fs.ilistdir(path))
    except OSError:
        try:
            fs.remove(path)
        except OSError:
            pass
        return
    for e in entries:
        p = path + "/" + e[0]
        if e[1] & _DIR:
            _clear(fs, p)
        else:
            fs.remove(p)
    fs.rmdir(path)


def _mkdirs(fs, path):
    i = path.find("/", 1)
    while i > 0:
        try:
            fs.mkdir(path[:i])
        except OSError:
            pass
        i = path.find("/", i + 1)


def _free(files):
    """(block size, bytes free) of the filesystem; (0, -1) when it cannot say."""
    try:
        s = files.fs.statvfs(files.root or "/")
        return s[0], s[0] * s[4]
    except (OSError, AttributeError):
        return 0, -1


def _need(man, bs):
    """The bytes the files take on a filesystem of bs-byte blocks: littlefs gives a file
    whole blocks (only the smallest live in their folder's own), and each folder a pair."""
    if bs <= 0:
        return 0
    dirs = []
    n = 0
    for p, size, _h in man["files"]:
        n += (size + bs - 1) // bs * bs
        d = p[:p.rfind("/") + 1]
        if d not in dirs:
            dirs.append(d)
    return n + 2 * bs * (len(dirs) + 1)


_NOT_APP = ("main.py", "slots.py", "slots.mpy", "slotboot.py", "slotboot.mpy", "slotimg.py",
            "slotimg.mpy", "wifi.json", "data", "lib", "boot.py", "slot_a", "slot_b",
            slotboot.REC, slotboot.NOTE)


def _root_app(files, man):
    """Remove the app a board flashed without slots kept at its root, once nothing can go
    back to it: every top-level name of the bundle's tree (under lib/, its packages) there."""
    seen = []
    for p, _n, _h in man.get("tree") or man["files"]:  # (an image's: the files in it)
        parts = p.split("/")
        name = "/".join(parts[:2]) if parts[0] == "lib" and len(parts) > 2 else parts[0]
        if name not in seen and name not in _NOT_APP:
            seen.append(name)
            _clear(files.fs, files.path(name))


def install(src, files=None, key=None, board=None, running=None, force=False, progress=None,
            keep=_ROOM):
    """Stream the bundle from src (read(n) or readinto(buf)) into the slot not running, check
    it, and point the board at it, on trial from its next boot. key: the board's secret (None:
    from /wifi.json); board: its kind (None: kind()); running: the running version (None:
    version.VERSION); force: an older version, or one that cannot read the saves, too; keep:
    the bytes the filesystem must keep free after it (the saves, the history's growth).
    Returns the manifest (a dict). UpdateError when refused; nothing is then pointed at."""
    files = files or slotboot.Files()
    fs = files.fs
    if key is None:
        key = secret(files)
    if running is None:
        from version import VERSION as running
    rec = slotboot.read(files)
    if rec[2] == "T":
        raise UpdateError("the running version is on trial: no update until it is confirmed")
    r = _Reader(src)
    if r.line(len(MAGIC)) != MAGIC:
        raise UpdateError("not a bundle")
    sig = r.line(64)
    n = r.line(8)
    try:
        n = int(n)
    except ValueError:
        n = -1
    if not 0 < n <= _MANIFEST_MOST:
        raise UpdateError("bad manifest length")
    raw = r.exactly(n)
    if len(sig) != 64:
        raise UpdateError("the bundle is not signed")
    try:
        want = bytes([int(sig[i:i + 2], 16) for i in range(0, 64, 2)])
    except ValueError:
        raise UpdateError("the bundle is not signed") from None
    if not same(hmac(key, (b"update\n", raw)), want):
        raise UpdateError("bad signature: not signed for this board")
    try:
        man = json.loads(raw)
    except ValueError:
        raise UpdateError("the manifest is not JSON") from None
    old = _saves(files, rec[0])
    total = _check(man, board or kind(), running, force, old)
    target = "b" if rec[0] == "a" else "a"
    top = files.path(slotboot.folder(target))
    _clear(fs, top)  # (the slot not running: the previous version, or a failed install's)
    if rec[0] != "r":  # the root's app (a board flashed without slots) is no way back now
        _root_app(files, man)
    bs, free = _free(files)
    if free >= 0 and _need(man, bs) + keep > free:
        raise UpdateError("no room: %d bytes to write (%d on flash), %d free" % (
            total, _need(man, bs), free))
    fs.mkdir(top)
    done = 0
    if progress is not None:
        progress(0, total)
    for p, size, h in man["files"]:
        path = top + "/" + p
        _mkdirs(fs, path)
        sha = hashlib.sha256()
        with files.open(path, "wb") as f:
            left = size
            while left:
                b = r.chunk(left)
                sha.update(b)
                f.write(b)
                left -= len(b)
        if _hex(sha.digest()) != h:
            raise UpdateError("%s: its SHA-256 is not the manifest's" % p)
        done += size
        if progress is not None:
            progress(done, total)
    for p, _n, h in man["files"]:  # read back from flash: what boots is what was signed
        if _hex(_hash(files, top + "/" + p, r.mv)) != h:
            raise UpdateError("%s: reads back wrong from flash" % p)
    if "tree" in man:  # and every file in the image, through the littlefs the loader mounts
        _image(files, top, man["tree"], r.mv)
    with files.open(top + "/bundle.json", "wb") as f:  # (what was installed, hashes and all)
        f.write(raw)
    with files.open(top + "/" + slotboot.INFO, "wb") as f:  # (what the loader and the next
        f.write(json.dumps({"version": man["version"], "saves": man["saves"]}).encode())  # read)
    files.write(slotboot.REC, slotboot.pack(target, rec[0], "T", 0))  # the flip (atomic)
    return man


def _image(files, top, tree, mv):
    """Every file of the tree, read from the slot's image as the loader will mount it, is
    the manifest's (a file the image lacks, or that reads wrong: UpdateError)."""
    import slotimg  # (the loader's mount: kept, as while a slot's image is mounted)

    with files.open(top + "/" + slotboot.IMAGE, "rb") as img:
        try:
            fs = slotimg.fs(img)
        except OSError as e:
            raise UpdateError("%s: not a filesystem (%s)" % (slotboot.IMAGE, e)) from None
        for p, n, h in tree:
            try:
                ok = fs.stat("/" + p)[6] == n and _hex(_hash(fs, "/" + p, mv)) == h
            except OSError:
                ok = False
            if not ok:
                raise UpdateError("%s in %s: not the manifest's" % (p, slotboot.IMAGE))


def _hash(files, path, mv):
    sha = hashlib.sha256()
    with files.open(path, "rb") as f:
        while True:
            n = f.readinto(mv)
            if not n:
                break
            sha.update(mv[:n])
    return sha.digest()


def _hex(b):
    return hexlify(b).decode()


def _saves(files, slot):
    """The running slot's saved formats ({name: [oldest read, written]}); None for a flashed
    tree (not checked)."""
    return slotboot.about(files, slot).get("saves")
