"""The boot loader's other half (slots.py is the resident one; neither is updated over the air):
the pointer record, the choice of the slot to boot, the image's mount, the way back. slots.py
loads it for one call and lets it go (start() at a power-up that is not one of the two common
boots: a trial, the way back, a record that does not check, a folder slot, an image that will
not mount; confirm() and failed() when there is a trial to end; note() for a Files given), and
ota/ imports it for an install: its code leaves the heap after the call (board/fault.py's
table: policy 1). The common boot of a board that has taken an update is slotimg.start()'s,
which reads the record as unpack() does (test_ota_boot.py holds them to it). It imports
nothing of the loader's but slotimg: slots.py keeps the state its calls return (trial, wdt,
running, mounted).

The app lives in one of two folders, /slot_a and /slot_b (or, on a board flashed without
slots, at the root). A pointer record, /slots.rec, names the one to run; it is written whole
to a temporary file and renamed over the old one (atomic on littlefs), so a power cut leaves
the old record or the new one. Its 7 bytes, all ASCII:

    S  active  previous  state  boots  check(2 hex digits)      e.g. b"SbaT13f"

active, previous: "a", "b" or "r" (the root); state: "T" on trial, "C" confirmed; boots: the
trial boots so far ("0".."9"); check: the sum of the first 5 bytes, low byte, in hex. No
record (or one that does not check): the root's app if it has one, else slot a, else b.

A new slot boots on trial under the watchdog: start() counts the boot; a trial boot after a
watchdog reset (a hang), after TRIES boots without confirming, or one whose app raised (at
import or in its loop: failed()) goes back to the previous slot, and /slots.note says so
once (note()). The app confirms its slot (confirm()) once it has run a while: ota/trial.py.

A slot is a folder of .mpy files, or its tree packed into one file, IMAGE: a littlefs image of
IMAGE_BLOCK-byte blocks (tools/maker/release.py builds it), mounted read-only at the slot's folder +
"/app" through slotimg.Image, a block device over the file. On littlefs every file takes whole 4 KB
blocks: the Pico W's tree takes 456 KB as files, 172 KB as an image (docs/memory.md).
"""

import os
import sys

REC = "slots.rec"
NOTE = "slots.note"  # what the loader has to say once (slotimg.note() reads it on a board)
INFO = "slot.json"  # in each slot: its version and saved formats
TRIES = 2  # trial boots a new slot gets before it goes back (a hang goes back at once)
WATCH_MS = 8000  # the trial's watchdog (the RP2040's longest is 8388 ms)
_DIR = 0x4000  # stat()'s mode bit for a directory
IMAGE = "app.img"  # a slot's tree in one file (a littlefs image), when it has one
IMAGE_BLOCK = 512  # the image's block size (tools/maker/release.py's IMAGE_BLOCK)


class Files:
    """The filesystem the slots live on: root folder and fs (a vfs object, e.g. VfsLfs2, or
    None: the running system's, through os and open)."""

    def __init__(self, root="", fs=None):
        self.root = root.rstrip("/")
        self.fs = fs if fs is not None else os
        self.open = fs.open if fs is not None else open

    def path(self, name):
        return self.root + "/" + name if self.root else name  # (relative: from / on a board)

    def read(self, name, n=64):
        """The file's bytes, or None: not there, or more than n bytes."""
        try:
            with self.open(self.path(name), "rb") as f:
                size = f.seek(0, 2)
                if size > n:
                    return None
                f.seek(0)
                return f.read(size)
        except OSError:
            return None

    def write(self, name, data):
        """name holds data, or (a power cut) what it held before: temp file, then rename."""
        p = self.path(name)
        with self.open(p + ".tmp", "wb") as f:
            f.write(data)
        self.fs.rename(p + ".tmp", p)

    def remove(self, name):
        try:
            self.fs.remove(self.path(name))
        except OSError:
            pass

    def exists(self, name):
        try:
            self.fs.stat(self.path(name))
            return True
        except OSError:
            return False


def unmount(m):
    """Unmount m, a slot's image as start() mounted it (slots.mounted), if any."""
    if m is not None:
        import vfs

        try:
            vfs.umount(m[0])
            m[1].close()
        except OSError:
            pass


def _enter(files, slot):
    """Put the slot's folder (or its mounted image) first on sys.path: (the folder name, the
    mount or None). OSError when its image will not mount."""
    m = None
    f = folder(slot)
    if f:
        p = files.path(f)
        if files.exists(f + "/" + IMAGE):
            import vfs

            from slotimg import fs  # (kept while mounted: slotimg.py says why it is not here)

            img = files.open(p + "/" + IMAGE, "rb")
            mnt = (p if p[:1] == "/" else "/" + p) + "/app"  # (the board's cwd is /)
            try:
                vfs.mount(fs(img), mnt, readonly=True)
            except OSError:
                img.close()
                raise
            m = (mnt, img)
            p = mnt
        sys.path.insert(0, p + "/lib")
        sys.path.insert(0, p)
    return f, m


def folder(slot):
    """The slot's folder name: "slot_a", "slot_b", or "" (the root)."""
    return "" if slot == "r" else "slot_" + slot


def pack(active, previous, state, boots):
    b = b"S" + (active + previous + state + str(boots)).encode()
    return b + ("%02x" % (sum(b) & 255)).encode()


def unpack(d):
    """(active, previous, state, boots) of a record's bytes, or None when they do not check."""
    if not d or len(d) != 7 or d[0] != 83 or d[5:] != ("%02x" % (sum(d[:5]) & 255)).encode():
        return None
    a, p, s, n = chr(d[1]), chr(d[2]), chr(d[3]), d[4] - 48
    if a not in "abr" or p not in "abr" or s not in "TC" or not 0 <= n <= 9:
        return None
    return a, p, s, n


def read(files):
    """The pointer record, or the one to assume without a good one (a confirmed slot)."""
    rec = unpack(files.read(REC, 8))
    if rec is not None:
        return rec
    for s in ("r", "a", "b"):
        if files.exists(folder(s) + ("/" if s != "r" else "") + "board_config.py"):
            return s, s, "C", 0
    return "r", "r", "C", 0


def back(files, rec, why):
    """Go back from the slot on trial to the one before it: the note first, then the record
    (a cut in between: the next boot goes back again, and writes the note again)."""
    active, previous = rec[0], rec[1]
    files.write(NOTE, ("update to %s failed (%s): back to %s" % (
        version(files, active), why, version(files, previous))).encode())
    files.write(REC, pack(previous, active, "C", 0))
    return previous


def about(files, slot):
    """What a slot's slot.json says ({"version": "0.7.0", "saves": {...}}; ota/install.py
    writes it), or {} (a flashed tree has none)."""
    d = files.read(folder(slot) + ("/" if slot != "r" else "") + INFO, 1024)
    try:
        import json
        return json.loads(d)
    except Exception:  # noqa: BLE001
        return {}


def version(files, slot):
    """The version installed in a slot ("?" for a flashed tree)."""
    return about(files, slot).get("version", "?")


def start(files=None, watchdog=None, hung=False, held=None):
    """Pick the slot to run (counting a trial boot, or going back from a failed trial), put
    its folder first on sys.path, and start the trial's watchdog (watchdog(ms) -> object with
    feed(), e.g. machine.WDT; None: none). hung: this boot follows a watchdog reset; held: the
    image a start() before mounted, unmounted first. Returns what slots.start() keeps: (the
    folder, "" for the root; the slot running; the trial, (active, previous) or None; its
    watchdog or None; the image's mount, (mount point, open file) or None)."""
    files = files or Files()
    unmount(held)
    rec = read(files)
    slot = rec[0]
    on = False
    if rec[2] == "T":
        try:
            if hung and rec[3]:  # (the first trial boot follows the install's reset, which
                slot = back(files, rec, "it hung: watchdog")  # the RP2040 makes with its
            elif rec[3] >= TRIES:  # watchdog: no hang of the trial's)
                slot = back(files, rec, "not confirmed in %d boots" % TRIES)
            else:
                files.write(REC, pack(rec[0], rec[1], "T", rec[3] + 1))
                on = True
        except OSError:  # the flash will not take the record: the slot before, this boot
            slot = rec[1]
    try:
        f, m = _enter(files, slot)
    except OSError:  # its image will not mount (hurt since the install read it back): the
        if on:  # slot before (for good, if this one was on trial)
            on = False
            try:
                back(files, rec, "its image does not mount")
            except OSError:
                pass
        slot = rec[1]
        f, m = _enter(files, slot)
    if not on:
        return f, slot, None, None, m
    return f, slot, (rec[0], rec[1]), watchdog(WATCH_MS) if watchdog else None, m


def failed(e, files=None):
    """The app raised e out of main.py (at import, or from its loop), on trial by slots.trial:
    the record's slot on trial goes back to the one before (True: the caller restarts the
    board); else False."""
    files = files or Files()
    rec = read(files)
    if rec[2] != "T":
        return False
    try:
        back(files, rec, "%s %s" % (type(e).__name__, e))
    except OSError:  # (the flash will not take it: after the restart, start() runs the slot
        pass  # before all the same)
    return True


def confirm(files=None):
    """The slot on trial has run well: it is the board's app from now on."""
    files = files or Files()
    rec = read(files)
    if rec[2] == "T":
        files.write(REC, pack(rec[0], rec[1], "C", 0))


def note(files=None):
    """The loader's message, once (a failed update said on the display): its text, then the
    file goes; None when there is none."""
    files = files or Files()
    d = files.read(NOTE, 200)
    if d is None:
        return None
    files.remove(NOTE)
    return d.decode()
