"""A flash chip in RAM for vfs.VfsLfs2 that can lose power at any block program or erase.

    flash = bytearray(6 * 4096)                  # 6 blocks of 4096, as on a Pico or ESP32
    dev = RamBlocks(flash, 4096)
    dev.wipe()                                   # all 0xFF, as from the factory
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev)
    dev.arm(k)                  # count block ops from 0 again; the power goes at op k
    ... fs.open / write / close / rename ...     # op k is cut: OSError (EIO) from littlefs
    fs = vfs.VfsLfs2(RamBlocks(flash, 4096))     # power back: mount what the flash holds

The interface is MicroPython's extended block protocol (what VfsLfs2 uses): readblocks and
writeblocks with a byte offset into the block, ioctl 4 (block count), 5 (block size) and
6 (erase one block). littlefs erases a block before it programs it, in pieces of its cache.
`flash` is any writable buffer (a bytearray, or a memoryview of a larger one).

Every program (a writeblocks call) and every erase is one block op, counted in `ops` (and in
`programs` and `erases`). The op the power goes at does part of its work: a program writes
the first half of its bytes, an erase sets the first half of the block to 0xFF and leaves the
rest as it was (`cut_op` says which it was). From then on `flash` is frozen: it is what the
chip held when the power went. What the code does after that cannot reach it:

* raise_cut=False (the default): the cut op and every later program and erase fail with EIO
  (-5, as a dead chip's driver would say), so littlefs unwinds through its own error paths
  and the file call raises OSError; reads still see the frozen flash.
* raise_cut=True: the cut op raises PowerCut, so the code stops right there, as the CPU does
  (the existing test's model). The exception unwinds through littlefs's C code, leaving it
  half way through an operation: a later close of the dead board's file (in a `finally`, or
  by its finaliser, whose error the collector prints) then fails with whatever littlefs makes
  of that, e.g. OSError 28, and may replace the PowerCut. Later writes go to a scratch copy
  of the blocks they touch, which reads see, and which is lost.
The frozen flash is the same in both.

Memory: no copy of the whole flash is made here (a scratch block is copied only when a write
comes after a raised cut). Reads and writes fall back to a byte loop when the heap is locked
(a finaliser closing a file runs during a collection), so they never fail for lack of heap.
"""

_ERASED = {}  # block size -> bytes of 0xFF (one per size, shared by every device)
_EIO = -5


class PowerCut(Exception):
    """The power went during a block op (raise_cut=True)."""


class RamBlocks:
    def __init__(self, flash, block=4096, cut=-1, raise_cut=False):
        if len(flash) % block:
            raise ValueError("the flash is not a whole number of blocks")
        self.flash = flash
        self.block = block
        ff = _ERASED.get(block)
        if ff is None:
            ff = _ERASED[block] = b"\xff" * block
        self._ff = ff  # what an erased block holds
        self.raise_cut = raise_cut
        self.arm(cut)

    def arm(self, cut=-1):
        """Count block ops from 0 again and cut the power at op `cut` (0: the next op;
        -1: never). The power comes back: writes go to `flash` again."""
        self.ops = 0
        self.programs = 0
        self.erases = 0
        self.cut_at = cut
        self.cut_op = None  # after the cut: "program" or "erase", the op it cut
        self.scratch = {}  # after a raised cut: {block number: bytearray} later writes land in
        self._exc = PowerCut()  # made now: the cut may come in a finaliser (heap locked)

    def wipe(self):
        """Erase the whole chip, as it comes from the factory (not counted as ops)."""
        for n in range(len(self.flash) // self.block):
            _copy(self.flash, n * self.block, self._ff, 0, self.block)

    @property
    def cut(self):
        """True once the power has gone."""
        return self.cut_op is not None

    def _op(self):
        """Count one op; True if the power goes now."""
        k = self.ops
        self.ops = k + 1
        return k == self.cut_at

    def readblocks(self, n, buf, off=0):
        s = self.scratch
        if n in s:
            _copy(buf, 0, s[n], off, len(buf))
        else:
            _copy(buf, 0, self.flash, n * self.block + off, len(buf))

    def writeblocks(self, n, buf, off=0):
        self.programs += 1
        k = len(buf)
        if self._op():
            _copy(self.flash, n * self.block + off, buf, 0, k // 2)
            return self._power_off("program")
        return self._write(n, off, buf, k)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.flash) // self.block
        if op == 5:  # block size
            return self.block
        if op == 6:  # erase block arg
            self.erases += 1
            if self._op():
                _copy(self.flash, arg * self.block, self._ff, 0, self.block // 2)
                return self._power_off("erase")
            return self._write(arg, 0, self._ff, self.block)
        return 0  # 1 init, 2 deinit, 3 sync

    def _power_off(self, op):
        self.cut_op = op
        if self.raise_cut:
            raise self._exc
        return _EIO

    def _write(self, n, off, buf, k):
        if self.cut_op is None:
            _copy(self.flash, n * self.block + off, buf, 0, k)
            return 0
        if not self.raise_cut:
            return _EIO  # the chip is dead
        s = self.scratch
        b = s.get(n)
        if b is None:
            a = n * self.block
            try:
                b = bytearray(memoryview(self.flash)[a:a + self.block])
            except MemoryError:  # heap locked (a finaliser): the write is lost all the same
                return 0
            s[n] = b
        _copy(b, off, buf, 0, k)
        return 0


def _copy(dst, d, src, s, k):
    """dst[d:d + k] = src[s:s + k], byte by byte if the heap is locked (no memoryview then)."""
    try:
        dst[d:d + k] = memoryview(src)[s:s + k]
    except MemoryError:
        for i in range(k):
            dst[d + i] = src[s + i]
