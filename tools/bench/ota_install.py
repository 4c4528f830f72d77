"""What an update costs the board (issue 31), in the real MicroPython binary: run by
`tools/maker/release.py measure` (which builds and signs the bundle, gives this its path and turns
the times into board estimates with tools/bench/bench.py's BOARD_FACTOR).

    MICROPYPATH=firmware:tools/host:host_tests/both:tools/bench micropython -X heapsize=4m \\
        tools/bench/ota_install.py BUNDLE KEYHEX FLASH_KB HOST_FOLDER [FLAT_TREE]

On littlefs in RAM formatted as the rp2 port formats it (4096-byte blocks, progsize=256) of
FLASH_KB: the signature's check alone (HMAC-SHA256 over the manifest), SHA-256 over every
file's bytes alone, and the whole install (read, check, write, read back, flip); the heap the
install holds at its peak (collected at each file: live, not garbage); and what one slot, the
root's flashed tree and the data take on that flash (statvfs), for the room on the board.
With FLAT_TREE (the build's tree, as `make flash` writes it): the board starts flashed without
slots, that tree at its root; the first update goes in beside it, the second (into the other
slot) removes it: the flash as a board has it through its first two updates. And a release
packed into an image (slots.IMAGE): the slot booted (its image mounted, `version` imported
from it) and every file of the tree read through the mount, against the same files read at
the root (what the image costs a boot's imports).
Prints ROW lines (tools/bench/benchlib.py).
"""

import gc
import hashlib
import sys

import vfs
from benchlib import row, ticks_diff, ticks_us
from blockdev import RamBlocks


def main(path, keyhex, flash_kb):
    import slots
    from ota.hmac import hmac
    from ota.install import UpdateError, install

    key = bytes([int(keyhex[i:i + 2], 16) for i in range(0, 64, 2)])
    block = 4096
    gc.collect()
    flash = bytearray(flash_kb * 1024)
    dev = RamBlocks(flash, block)
    dev.wipe()
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    fs = vfs.VfsLfs2(dev, progsize=256)
    files = slots.Files("", fs)

    def free():
        s = fs.statvfs("/")
        return s[0] * s[3]

    with open(path, "rb") as f:
        f.readline()
        f.readline()
        raw = f.read(int(f.readline()))
        data = f.read()
    t = ticks_us()
    for _ in range(10):
        hmac(key, (b"update\n", raw))
    row("signature check (HMAC-SHA256, manifest %d bytes)" % len(raw),
        ticks_diff(ticks_us(), t) / 10000, "ms")
    mv = memoryview(data)
    t = ticks_us()
    h = hashlib.sha256()
    for i in range(0, len(data), 512):
        h.update(mv[i:i + 512])
    row("SHA-256 of every file (%d bytes, 512 at a time)" % len(data),
        ticks_diff(ticks_us(), t) / 1000, "ms")
    data = mv = None
    flat = sys.argv[5] if len(sys.argv) > 5 else None
    if flat:
        copy(flat, files, "")
    empty = free()
    peak = [0]

    def progress(done, total):
        gc.collect()
        peak[0] = max(peak[0], gc.mem_alloc())

    gc.collect()
    base = gc.mem_alloc()
    with open(path, "rb") as f:
        t = ticks_us()
        install(f, files, key=key, board="rp2040", running="0.0.1", keep=0, progress=progress)
        row("whole install into RAM littlefs (checked, written, read back, flipped)",
            ticks_diff(ticks_us(), t) / 1000, "ms")
    row("install's live heap at its peak", peak[0] - base, "B",
        note="the 512-byte buffer, the manifest and its parse, littlefs's file buffers")
    row("one slot on a %d KB littlefs" % flash_kb, empty - free(), "B")
    if len(sys.argv) > 4:  # the same into a folder of the host's: the Python's own time
        with open(path, "rb") as f:  # without the RAM flash's (a Python block device here,
            t = ticks_us()  # C and the flash chip's time on a board)
            install(f, slots.Files(sys.argv[4]), key=key, board="rp2040", running="0.0.1",
                    keep=0)
            row("whole install, its Python alone (into a host folder)",
                ticks_diff(ticks_us(), t) / 1000, "ms")
    print("SLOT_BYTES %d" % (empty - free()))
    print("FREE_BYTES %d" % empty)
    if flat:
        row("left free on a %d KB littlefs with the flashed tree and a slot" % flash_kb, free(),
            "B")
        print("ROOT_AND_SLOT_FREE %d" % free())
        boot(files, flat)
    slots.confirm(files)  # and a second slot beside it (the most a board holds: two trees)
    try:
        with open(path, "rb") as f:
            install(f, files, key=key, board="rp2040", running="0.0.1", keep=0)
    except UpdateError as e:  # no room for a second slot: said, as -1 free
        row("a second slot on a %d KB littlefs: refused (%s)" % (flash_kb, e), -1, "B")
        print("TWO_SLOTS_FREE -1")
        return
    row("left free on a %d KB littlefs with two slots" % flash_kb, free(), "B")
    print("TWO_SLOTS_FREE %d" % free())


def copy(host, files, rel):
    """The host folder's tree onto the RAM littlefs (what `make flash` writes)."""
    import os

    for name, kind, *_x in os.ilistdir(host + "/" + rel if rel else host):
        r = rel + "/" + name if rel else name
        if kind & 0x4000:
            files.fs.mkdir("/" + r)
            copy(host, files, r)
        else:
            with open(host + "/" + r, "rb") as f, files.open("/" + r, "wb") as g:
                g.write(f.read())


def walk(fs, top):
    import os

    for name, kind, *_x in (fs.ilistdir(top) if fs else os.ilistdir(top)):
        p = top.rstrip("/") + "/" + name
        if fs and p.startswith(("/slot_", "/data")):  # (at the root: the flashed tree alone)
            continue
        if kind & 0x4000:
            yield from walk(fs, p)
        else:
            yield p


def read_all(fs, top, buf):
    n = 0
    for p in walk(fs, top):
        with (fs.open(p, "rb") if fs else open(p, "rb")) as f:
            while True:
                k = f.readinto(buf)
                if not k:
                    break
                n += k
    return n


def boot(files, flat):
    """The installed slot booted as the loader does it (its image mounted): `version` comes
    from it; then every file of the tree read through the mount, and at the root."""
    import json

    import slots

    man = json.loads(files.fs.open("/slot_a/bundle.json", "rb").read())
    if "tree" not in man:
        return
    saved = list(sys.path)
    folder = slots.start(files)
    assert folder == "slot_a" and slots.mounted is not None, folder
    sys.modules.pop("version", None)
    import version

    assert man["version"] == version.VERSION, version.VERSION
    print("BOOTED_IMAGE %s" % version.VERSION)
    buf = bytearray(512)
    gc.collect()
    t = ticks_us()
    n = read_all(None, slots.mounted[0], buf)
    row("read every file of the tree (%d bytes) from the slot's mounted image" % n,
        ticks_diff(ticks_us(), t) / 1000, "ms")
    t = ticks_us()
    m = read_all(files.fs, "/", buf)
    row("read every file of the tree (%d bytes) as files at the root (flashed)" % m,
        ticks_diff(ticks_us(), t) / 1000, "ms")
    sys.path[:] = saved
    slots.unmount(slots.mounted)
    slots.mounted = None


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
