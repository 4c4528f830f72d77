"""The lean host board the board benchmarks run the app on (mp_board.py, mp_soak.py), and the
median they report: fakeboard/fake.py's hardware without its test helpers (the key matrix
model, the display, the clock), which would cost the measured heap ~5 KB.

The keypad's pins are C callables, never scanned: abs() drives a row, object() reads a column
(or a button) high. The benchmarks put key events in the keypad's ring themselves.
"""


class Strip:
    """The LED strip: a buffer, and write() counted."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1


def host_board(folder, fs=None, buttons=0):
    """The hw dict of board/app.py: layout, strip, keypad (and buttons), no display,
    a clock at 0, the saved game in folder on fs (None: the host's filesystem). (The firmware
    is imported here, not at the top: a benchmark imports this module before it measures the
    heap its own code takes, then the firmware's.)"""
    from board.keypad import Keypad
    from board.layout import Layout

    L = Layout()
    return {"layout": L, "strip": Strip(L.count), "display": None,
            "keys": Keypad([abs] * 4, [object] * 4, [object] * buttons),
            "clock": lambda: 0, "storage_dir": folder, "fs": fs}


def median(a, n):
    """The median of a[:n] without allocating (the heap is nearly full after a game)."""
    for i in range(n):
        below = same = 0
        for j in range(n):
            if a[j] < a[i]:
                below += 1
            elif a[j] == a[i]:
                same += 1
        if below <= n // 2 < below + same:
            return a[i]
    return 0


def xorshift(x):
    """The next state of dealer.autoplay.seeded's xorshift32 (rand(n) = (x >> 3) % n),
    without importing autoplay (2.7 KB of the measured heap)."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x
