"""Saved games survive a power cut at every step of a save: the old or the new game loads.

The fake filesystem here persists each byte as it is written and "loses power" after a
budget of steps; the littlefs test (real MicroPython only) cuts a RAM block device at every
block program, partially written, and remounts the image.
"""

import binascii

from check import ON_MICROPYTHON
from board.storage import Storage


class PowerCut(Exception):
    pass


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

    def write(self, b):
        for x in b:
            self.fs.step()
            self.data.append(x)
        return len(b)

    def read(self):
        return bytes(self.data)

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
    for steps in range(12):
        fs = NoReplaceFs()
        Storage("", fs).save("game", old)
        fs.budget = steps
        try:
            Storage("", fs).save("game", new)
        except PowerCut:
            pass
        fs.budget = -1
        assert Storage("", fs).load("game", unpack) in ("old", "new!"), steps


class RamBlocks:
    """A block device in RAM for vfs.VfsLfs2 that loses power after `budget` programs:
    the cut program writes only the first half of its bytes."""

    def __init__(self, data, block=256, budget=-1):
        self.data = data
        self.image = data
        self.block = block
        self.budget = budget

    def readblocks(self, n, buf, off=0):
        a = n * self.block + off
        d = self.data
        for i in range(len(buf)):  # no slice: a finaliser may read with the heap locked
            buf[i] = d[a + i]

    def writeblocks(self, n, buf, off=None):
        a = n * self.block + (off or 0)
        if self.budget == 0:
            self.budget = -1
            half = len(buf) // 2
            self.data[a:a + half] = buf[:half]
            # the power is off: `image` is what the flash holds from now on; later writes
            # (the file's finaliser closing it) go to a scratch copy and are lost
            self.image = self.data
            self.data = bytearray(self.data)
            raise PowerCut()
        if self.budget > 0:
            self.budget -= 1
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.block
        if op == 5:
            return self.block
        if op == 6:  # erase
            a = arg * self.block
            for i in range(a, a + self.block):
                self.data[i] = 0xFF
            return 0
        return 0


def test_littlefs_power_cut_at_every_block_program():
    if not ON_MICROPYTHON:
        return  # vfs.VfsLfs2 exists only in MicroPython; the fake tests above run on both
    import gc
    import vfs

    old = pack("the game so far, " * 4)
    new = pack("the game so far, and one more event " * 2)
    image = bytearray(b"\xff" * (16 * 256))
    vfs.VfsLfs2.mkfs(RamBlocks(image))
    Storage("", vfs.VfsLfs2(RamBlocks(image))).save("game", old)
    cuts = 0
    while True:
        gc.collect()
        dev = RamBlocks(bytearray(image), budget=cuts)
        try:
            Storage("", vfs.VfsLfs2(dev)).save("game", new)
            done = True
        except PowerCut:
            done = False
        got = Storage("", vfs.VfsLfs2(RamBlocks(dev.image))).load("game", unpack)
        assert got in (unpack(old), unpack(new)), cuts
        if done:
            assert got == unpack(new)
            break
        cuts += 1
    assert cuts >= 2  # the save took several block programs, each one cut
