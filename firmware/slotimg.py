"""A slot's image, the boot loader's every-boot half on a board that has taken an update (never
updated over the air, as slots.py and slotboot.py).

A Pico's update is its tree packed into one littlefs file (slotboot.IMAGE), mounted read-only
at the slot's folder + "/app" through Image, a block device over the file; an ESP32's is the
slot's folder of files (tools/maker/release.py's PACKING). The mount keeps Image, and so this
module, for as long as the app runs; a folder slot needs nothing of it after start(), which
lets it go. Loaded only on a board with a record (slotboot.REC), it is what such a board's
every boot needs and no more (issue 34):

- start(): the common boot, a confirmed record of slot a or b: its image mounted, or its
  folder (when it holds its app) taken as it is, first on sys.path, without slotboot, whose
  ~30 names would stay interned for good (an ESP32's game has none to spare: its sixth pool
  of names is 7 KB). Any other boot (a trial, the way back, a record that does not check, a
  folder without its app, an image that will not mount) is slotboot.start()'s, which reads
  it all again and writes what it has to.
- note(): the loader's note, said once (slotboot.back() writes it), read without slotboot.
- fs(): the image's littlefs as a vfs object (slotboot's mount, ota/install.py's check).

Names are interned as a module loads, run or not: the strings here are either names the app
has anyway or longer than 10 characters (then objects, not names), and the block size is a
const: each new one would count against the ESP32's pools (docs/memory.md, 2026-11-29, third
session).
"""

import os
import sys

from micropython import const

mounted = False  # fs() has made a vfs of an image: kept (note() lets this module go otherwise)
_BLOCK = const(512)  # the image's block size (slotboot.IMAGE_BLOCK, release.py's IMAGE_BLOCK)


class Image:
    """A read-only block device over an open file of _BLOCK-byte blocks, for vfs.VfsLfs2 (no
    writeblocks(): MicroPython's block protocol then marks the device read-only)."""

    def __init__(self, f):
        self.f = f
        self.n = f.seek(0, 2) // _BLOCK

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * _BLOCK + off)
        return 0 if self.f.readinto(buf) == len(buf) else -5  # (EIO: the file is short)

    def ioctl(self, n, arg):  # (n: the operation; 4 the block count, 5 the block size)
        return self.n if n == 4 else _BLOCK if n == 5 else 0


def fs(f):
    """The littlefs in an image file (open for reading), as a vfs object (not mounted)."""
    global mounted
    import vfs

    # (Image has the block protocol's methods; the stubs' AbstractBlockDev is no class a
    # board has to derive from)
    f = vfs.VfsLfs2(Image(f), readsize=_BLOCK, progsize=_BLOCK)  # pyright: ignore
    mounted = True  # (made: an image that is no filesystem raised above and keeps nothing;
    return f  # the name is slots.py's too: no name more)


def start():
    """The common boot of a board that has taken an update: its record (slotboot.REC, in
    slotboot.pack()'s format) confirmed, its slot a or b, the slot's image (slotboot.IMAGE)
    mounted read-only at /slot_X/app (slotboot._enter()'s place) and first on sys.path, its
    lib/ next; with no image, the slot's folder and its lib/ when it holds board_config.py,
    nothing mounted, and this module let go: what slotboot.start() returns (the folder, the
    slot, no trial, no watchdog, the mount: (mount point, open file) or None). None for any
    other boot, with nothing changed:
    slotboot.start()'s. It writes nothing: a power cut in it is a boot that did not happen."""
    try:
        with open("slots.rec", "rb") as f:
            d = f.read(8)
    except OSError:
        return None
    # slotboot.unpack()'s checks, those of a confirmed record of slot a or b only: "S", the
    # slot, the one before (a, b or r), "C", the boots (a digit), the check (two hex digits)
    if (len(d) != 7 or d[1] not in (97, 98) or d[2] not in (97, 98, 114)
            or not 48 <= d[4] <= 57
            or d != ("S%c%cC%c%02x" % (d[1], d[2], d[4], sum(d[:5]) & 255)).encode()):
        return None
    p = "slot_%c/app.img" % d[1]  # (relative: from / on a board, as slotboot.Files())
    try:
        f = open(p, "rb")  # noqa: SIM115  (open while mounted: slots.mounted)
    except OSError:  # a folder slot (an ESP32's update: release.py's PACKING), its app there:
        try:  # first on sys.path as slotboot._enter() puts it, nothing mounted
            os.stat("slot_%c/board_config.py" % d[1])  # (slotboot.read()'s sign of an app)
        except OSError:  # (files missing: slotboot's)
            return None
        sys.path.insert(0, "slot_%c/lib" % d[1])
        sys.path.insert(0, p[:6])
        sys.modules.pop(__name__, None)  # (nothing of this module is needed: its code goes)
        return p[:6], chr(d[1]), None, None, None
    m = "/slot_%c/app" % d[1]
    try:
        import vfs

        vfs.mount(fs(f), m, readonly=True)
    except OSError:  # (slotboot.start() tries it again, and runs the slot before)
        f.close()
        return None
    sys.path.insert(0, "/slot_%c/app/lib" % d[1])
    sys.path.insert(0, m)
    return p[:6], chr(d[1]), None, None, (m, f)


def note():
    """The loader's message, once, from the board's own files: its text, then the file goes;
    None when there is none (slotboot.note() for a slotboot.Files: the same file, the same
    200 bytes at most). Let go again when no image is mounted (a folder slot's boot:
    slots.note() imported it anew)."""
    if not mounted:
        sys.modules.pop(__name__, None)
    try:
        with open("slots.note", "rb") as f:  # (slotboot.NOTE)
            n = f.seek(0, 2)
            if n > 200:
                return None
            f.seek(0)
            d = f.read(n)
    except OSError:
        return None
    try:
        os.remove("slots.note")
    except OSError:
        pass
    return d.decode()
