"""The board's settings: a few small numbers, saved as bytes beside the game.

The game's own rules (players, 61/121, muggins, skunk lines) are copied into each new game
and saved inside it by the engine; changing them here applies from the next new game.
Each setting: (name, default, lowest, highest, step) -- the menu walks this table; its help
line is in board/menu.py (display only).
"""

NAMES = ("players", "game", "muggins", "skunk", "bright", "limit", "watchdog")
DEFAULT = (2, 121, 0, 1, 64, 2000, 0)
LOW = (2, 61, 0, 0, 8, 200, 0)
HIGH = (6, 121, 1, 1, 255, 9000, 1)
STEP = (1, 60, 1, 1, 8, 100, 1)
_VERSION = 1


class Settings:
    def __init__(self, values=None):
        v = [0] * len(NAMES)  # ints (no comprehension: each is a function object in RAM)
        v[:] = values or DEFAULT
        self.values = v

    def get(self, name):
        return self.values[NAMES.index(name)]

    def set(self, name, value):
        """Set a setting; ValueError (and no change) when out of range."""
        i = NAMES.index(name)
        if not (isinstance(value, int) and LOW[i] <= value <= HIGH[i]):
            raise ValueError("%s is %d to %d, not %r" % (name, LOW[i], HIGH[i], value))
        if name == "game" and value not in (61, 121):
            raise ValueError("the game is 61 or 121")
        self.values[i] = value

    def step(self, name, up=True):
        """The next value (wrapping round), as a menu's + key does."""
        i = NAMES.index(name)
        v = self.values[i] + (STEP[i] if up else -STEP[i])
        if v > HIGH[i]:
            v = LOW[i]
        if v < LOW[i]:
            v = HIGH[i]
        self.values[i] = v
        return v

    def dumps(self):
        out = bytearray([_VERSION, len(NAMES)])
        for v in self.values:
            out.append(v & 255)
            out.append(v >> 8)
        out.append(sum(out) & 255)
        return bytes(out)


def loads(data):
    """Settings from dumps() bytes; ValueError when they are not ours or out of range."""
    n = len(NAMES)
    if len(data) != 3 + 2 * n or data[0] != _VERSION or data[1] != n:
        raise ValueError("not a settings file")
    if sum(data[:-1]) & 255 != data[-1]:
        raise ValueError("settings checksum")
    s = Settings()
    for i in range(n):
        s.set(NAMES[i], data[2 + 2 * i] | data[3 + 2 * i] << 8)
    return s
