"""Saved games survive a power cut at every step of a save: the old or the new game loads.

The fake filesystem here persists each byte as it is written and "loses power" after a
budget of steps; the littlefs tests (real MicroPython only) cut blockdev.py's RAM flash at
every block program (half written) and every block erase (half done) of a save, with 256-
and 4096-byte blocks, and remount what the flash held. host_tests/test_board_powercut.py
does the same through the whole board app, for every save of a whole game.
"""

import binascii

from blockdev import PowerCut, RamBlocks
from check import ON_MICROPYTHON, raises
from board.storage import Storage


class CutFs:
    """Files as a dict of bytearrays; every created file, byte written and rename is one step."""

    def __init__(self, files=None, budget=-1):
        self.files = files if files is not None else {}
        self.budget = budget

    def step(self):
        if self.budget == 0:
            raise PowerCut()
        if self.budget > 0:
            self.budget -= 1

    def open(self, path, mode):
        if "w" in mode:
            self.step()
            self.files[path] = bytearray()
            return _File(self, self.files[path])
        if path not in self.files:
            raise OSError(2)
        return _File(self, bytearray(self.files[path]))

    def rename(self, a, b):
        if a not in self.files:
            raise OSError(2)
        self.step()
        self.files[b] = self.files.pop(a)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        self.step()
        del self.files[path]

    def mkdir(self, path):
        raise OSError(17)


class _File:
    def __init__(self, fs, data):
        self.fs = fs
        self.data = data
        self.pos = 0

    def seek(self, pos, whence=0):
        self.pos = pos + (len(self.data) if whence == 2 else 0)
        return self.pos

    def write(self, b):
        for x in b:
            self.fs.step()
            self.data.append(x)
        return len(b)

    def read(self):
        return bytes(self.data[self.pos:])

    def close(self):
        pass


def pack(text):
    b = text.encode()
    return b + (binascii.crc32(b) & 0xFFFFFFFF).to_bytes(4, "little")


def unpack(data):
    b = data[:-4]
    if len(data) < 5 or (binascii.crc32(b) & 0xFFFFFFFF).to_bytes(4, "little") != data[-4:]:
        raise ValueError("corrupt")
    return b.decode()


def test_save_and_load_round_trip():
    fs = CutFs()
    st = Storage("/data", fs)
    assert st.load("game", unpack) is None
    st.save("game", pack("one"))
    st.save("game", pack("two"))
    assert Storage("/data", fs).load("game", unpack) == "two"
    assert "/data/game.tmp" not in fs.files
    st.delete("game")
    assert st.load("game", unpack) is None


def test_power_cut_at_every_step_loses_at_most_the_new_entry():
    old = pack("game after 40 events" * 3)
    new = pack("game after 41 events" * 3)
    steps = 0
    while True:
        fs = CutFs()
        Storage("/data", fs).save("game", old)
        fs.budget = steps
        try:
            Storage("/data", fs).save("game", new)
            done = True
        except PowerCut:
            done = False
        fs.budget = -1
        got = Storage("/data", fs).load("game", unpack)
        assert got in (unpack(old), unpack(new)), steps
        if done:
            assert got == unpack(new)
            break
        steps += 1
    assert steps == 1 + len(new) + 1  # create, every byte, rename


class NoReplaceFs(CutFs):
    """FAT-like: rename onto an existing file fails."""

    def rename(self, a, b):
        if b in self.files:
            raise OSError(17)
        CutFs.rename(self, a, b)


def test_filesystem_without_atomic_replace_falls_back_to_the_temporary_file():
    old = pack("old")
    new = pack("new!")
    done = False
    for steps in range(12):
        fs = NoReplaceFs()
        Storage("", fs).save("game", old)
        fs.budget = steps
        try:
            Storage("", fs).save("game", new)
            done = True
        except PowerCut:
            pass
        fs.budget = -1
        got = Storage("", fs).load("game", unpack)
        assert got in ("old", "new!"), steps
        if done:  # a save that ended saved the new game
            assert got == "new!", steps
    assert done  # (the steps reach a save that ends: every cut before it was tried)


def test_ram_blocks_count_ops_and_cut_a_program_or_an_erase_part_way():
    flash = bytearray(4 * 256)
    dev = RamBlocks(flash, 256, raise_cut=True)
    assert dev.ioctl(4, 0) == 4 and dev.ioctl(5, 0) == 256
    dev.writeblocks(1, b"\x11" * 16, 8)
    assert flash[256 + 8:256 + 24] == b"\x11" * 16 and flash[256 + 24] == 0
    assert dev.ioctl(6, 2) == 0 and flash[512:768] == b"\xff" * 256
    buf = bytearray(4)
    dev.readblocks(1, buf, 6)
    assert buf == b"\x00\x00\x11\x11"
    assert (dev.ops, dev.programs, dev.erases, dev.cut) == (2, 1, 1, False)
    # a cut program writes the first half of its bytes (raise_cut: and raises PowerCut)
    dev.arm(1)
    dev.writeblocks(0, b"\x22" * 4)
    raises(PowerCut, dev.writeblocks, 0, b"\x33" * 10, 100)
    assert flash[100:110] == b"\x33" * 5 + b"\x00" * 5
    assert dev.cut and dev.cut_op == "program" and dev.ops == 2
    # then the flash is frozen: later writes go to a scratch copy that reads see
    dev.writeblocks(0, b"\x44" * 2, 0)
    assert dev.ioctl(6, 1) == 0
    assert flash[0:4] == b"\x22" * 4 and flash[256 + 8] == 0x11
    dev.readblocks(0, buf)
    assert buf == b"\x44\x44\x22\x22"
    dev.readblocks(1, buf, 8)
    assert buf == b"\xff" * 4
    # a cut erase: the first half of the block erased, the rest as it was
    flash[768:] = b"\x55" * 256
    dev.arm(0)
    raises(PowerCut, dev.ioctl, 6, 3)
    assert flash[768:896] == b"\xff" * 128 and flash[896:] == b"\x55" * 128
    assert dev.cut_op == "erase" and dev.erases == 1
    # by default the cut op and every later one fail with EIO (littlefs unwinds itself)
    flash[:] = bytes(len(flash))
    dev = RamBlocks(flash, 256, cut=1)
    assert dev.writeblocks(2, b"\x66" * 8) == 0
    assert dev.writeblocks(2, b"\x77" * 8, 8) == -5 and flash[520:528] == b"\x77" * 4 + bytes(4)
    assert dev.ioctl(6, 2) == -5 and flash[512:520] == b"\x66" * 8
    assert dev.cut and dev.ops == 3


def cut_every_op(block, blocks, old, new, raise_cut=False, bufs=None, **fmt):
    """Save old, then new with the power cut at block op 0, 1, 2, ... until the save gets
    through: after each cut the remounted flash loads old or new. (cuts, erases cut).
    fmt: VfsLfs2's options (progsize=...); raise_cut: RamBlocks's (how the chip dies); bufs:
    the two flash-sized buffers, when the caller took them while the heap was in one piece."""
    import gc
    import vfs

    if bufs is None:
        gc.collect()
        bufs = (bytearray(block * blocks), bytearray(block * blocks))
    flash, image = bufs
    dev = RamBlocks(flash, block)
    dev.wipe()
    vfs.VfsLfs2.mkfs(dev, **fmt)
    Storage("", vfs.VfsLfs2(dev, **fmt)).save("game", old)
    image[:] = flash  # the flash before the save; `flash` is the copy each run cuts
    gc.collect()
    heap = gc.mem_alloc()
    cuts = erases = 0
    while True:
        flash[:] = image
        dev = RamBlocks(flash, block, cut=cuts, raise_cut=raise_cut)
        try:
            Storage("", vfs.VfsLfs2(dev, **fmt)).save("game", new)
        except (PowerCut, OSError):  # PowerCut may become what littlefs made of it
            assert dev.cut, cuts
        # power back: mount what the flash held when it went
        got = Storage("", vfs.VfsLfs2(RamBlocks(flash, block), **fmt)).load("game", unpack)
        assert got in (unpack(old), unpack(new)), cuts
        if not dev.cut:
            assert got == unpack(new)
            break
        cuts += 1
        if dev.cut_op == "erase":
            erases += 1
        dev = None
        gc.collect()
        assert gc.mem_alloc() - heap < 2048, cuts  # nothing piles up from cut to cut
    return cuts, erases


def test_littlefs_power_cut_at_every_block_program_and_erase():
    if not ON_MICROPYTHON:
        return  # vfs.VfsLfs2 exists only in MicroPython; the fake tests above run on both
    old = pack("the game so far, " * 4)
    new = pack("the game so far, and one more event " * 2)
    for raise_cut in (True, False):
        cuts, erases = cut_every_op(256, 16, old, new, raise_cut)
        assert cuts >= 2  # the save took several block programs, each one cut
        assert erases >= 1  # and erased a block for the new file: that was cut too


def test_littlefs_power_cut_with_4096_byte_blocks():
    """The Pico's and the ESP32's flash sector. A save of a whole game's size (300 bytes) takes
    a block of its own with the default progsize (the ESP32's mount): 4 blocks is the fewest it
    runs in (the superblock pair, the old file's block and the new one's; with 3 the save
    fails for room), 16 KB of flash and 16 KB more for the copy. The rp2 port mounts with
    progsize=256: the file then fits in its directory's metadata."""
    if not ON_MICROPYTHON:
        return
    import gc

    gc.collect()  # 2 x 16 KB, taken once for both runs: littlefs's own buffers come and go
    bufs = (bytearray(4 * 4096), bytearray(4 * 4096))  # between them and break the heap up
    old = pack("the game after 140 events, " * 11)
    new = pack("the game after 141 events!, " * 11)
    cuts, erases = cut_every_op(4096, 4, old, new, bufs=bufs)
    assert cuts >= 3 and erases >= 1
    cuts, erases = cut_every_op(4096, 4, old, new, bufs=bufs, progsize=256)
    assert cuts >= 2

