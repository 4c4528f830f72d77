"""What an update costs the board (issue 31), in the real MicroPython binary: run by
`tools/release.py measure` (which builds and signs the bundle, gives this its path and turns
the times into board estimates with tools/bench.py's BOARD_FACTOR).

    MICROPYPATH=firmware:host_tests/both:tools/bench micropython -X heapsize=4m \\
        tools/bench/ota_install.py BUNDLE KEYHEX FLASH_KB [HOST_FOLDER]

On littlefs in RAM formatted as the rp2 port formats it (4096-byte blocks, progsize=256) of
FLASH_KB: the signature's check alone (HMAC-SHA256 over the manifest), SHA-256 over every
file's bytes alone, and the whole install (read, check, write, read back, flip); the heap the
install holds at its peak (collected at each file: live, not garbage); and what one slot, the
root's flashed tree and the data take on that flash (statvfs), for the room on the board.
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


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
