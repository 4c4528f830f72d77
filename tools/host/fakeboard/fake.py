"""The host board: fake hardware with the same small interfaces as the real drivers.

Used by the tests, the benchmarks and the simulator (which may pass its own objects instead).
Nothing here imports `machine`; it runs under CPython and under the micropython binary.

    hw = build(storage_dir="/tmp/x")   # a dict: see firmware/board/app.py
    hw["fake_matrix"].press("5"); hw["clock"].advance(50); ...
A filesystem in RAM for tests is in fakeboard/ramfs.py.
"""

from board.keypad import KEYS_4X4
from board.layout import Layout



class Strip:
    """Stands in for neopixel.NeoPixel: a GRB bytearray `buf` and write()."""

    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1

    def rgb(self, i):
        """(r, g, b) of pixel i as it was last written (for tests and the simulator)."""
        b = self.buf
        return (b[3 * i + 1], b[3 * i], b[3 * i + 2])

    def lit(self):
        """Indexes of every pixel that is not dark."""
        b = self.buf
        return [i for i in range(self.n) if b[3 * i] or b[3 * i + 1] or b[3 * i + 2]]


class Clock:
    """ticks_ms() under the test's control: clock() reads it, advance(ms) moves it."""

    def __init__(self, t=0):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, ms):
        self.t += ms


class _Row:
    """A row pin: pin(0) drives it low, pin(1) releases it, pin() reads it back."""

    def __init__(self, matrix, r):
        self.matrix = matrix
        self.r = r

    def __call__(self, v=None):
        if v is None:
            return self.matrix.level[self.r]
        self.matrix.level[self.r] = 1 if v else 0


class _Col:
    """A column pin: reads 0 while a pressed key joins it to a row driven low."""

    def __init__(self, matrix, c):
        self.matrix = matrix
        self.c = c

    def __call__(self):
        m = self.matrix
        for r in range(len(m.level)):
            if not m.level[r] and m.held[r * m.n_cols + self.c]:
                return 0
        return 1


class Matrix:
    """A 4x4 keypad wired as rows (outputs, driven low to scan) and columns (inputs with
    pull-ups, read 0 when a key joins them to a low row). press()/release() by key name."""

    def __init__(self, names=KEYS_4X4, n_rows=4, n_cols=4):
        self.names = names
        self.n_cols = n_cols
        self.held = bytearray(len(names))  # 1: the key at that index is down (no str made)
        self.level = bytearray(b"\x01" * n_rows)
        self.rows = [_Row(self, r) for r in range(n_rows)]
        self.cols = [_Col(self, c) for c in range(n_cols)]

    def press(self, name):
        if len(name) != 1 or name not in self.names:
            raise ValueError("no key %r on this keypad" % (name,))
        self.held[self.names.index(name)] = 1

    def release(self, name=None):
        if name is None:
            self.held[:] = bytes(len(self.held))
        elif len(name) == 1 and name in self.names:
            self.held[self.names.index(name)] = 0


class Button:
    """A discrete button to ground with a pull-up: reads 1 idle, 0 pressed."""

    def __init__(self):
        self.pressed = False

    def __call__(self):
        return 0 if self.pressed else 1


class Display:
    """Stands in for ssd1306.SSD1306_I2C: text/fill/show; keeps the text lines shown."""

    width = 128
    height = 64

    def __init__(self):
        self.lines = {}
        self.shown = []
        self.shows = 0

    def fill(self, c):
        self.lines = {}

    def text(self, s, x, y, c=1):
        self.lines[y // 8] = s

    def show(self):
        self.shows += 1
        self.shown = [self.lines.get(i, "") for i in range(8)]


def build(storage_dir=".sim", display=True, layout=None, buttons=0, fs=None):
    """The host board's hardware, as the app wants it (see board/app.py)."""
    L = layout or Layout()
    m = Matrix()
    btns = [Button() for _ in range(buttons)]
    return {
        "layout": L,
        "strip": Strip(L.count),
        "rows": m.rows,
        "cols": m.cols,
        "buttons": btns,
        "fake_matrix": m,  # fake_*: the fake's own handles (tests press keys through them)
        "fake_buttons": btns,
        "display": Display() if display else None,
        "clock": Clock(),
        "storage_dir": storage_dir,
        "fs": fs,
    }
