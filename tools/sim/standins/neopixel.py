"""A fake `neopixel` module: the micropython-lib driver's interface (pin, n, bpp, __setitem__,
fill, write) on the fake board's strip (tools/host/fakeboard/fake.py's Strip: the GRB buffer,
write() counting frames). For tools/sim --board and host_tests/test_board_hw.py."""

from fakeboard.fake import Strip


class NeoPixel(Strip):
    def __init__(self, pin, n, bpp=3, timing=1):
        if bpp != Strip.bpp:
            raise ValueError("this fake strip is GRB, 3 bytes a pixel")
        Strip.__init__(self, n)
        self.pin = pin

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v
