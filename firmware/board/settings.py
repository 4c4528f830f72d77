"""The board's settings: a few small numbers, saved as bytes beside the game.

The game's own rules (players, 61/121, muggins, skunk lines, the match mode: the first RULES
names) are copied into each new game and saved inside it by the engine; changing them here
applies from the next new game. Each setting: (name, default, lowest, highest, step) -- the
menu walks this table; its help line is in board/menu.py (display only).

match: 0 single games (games won add up, as on earlier firmware), 1 best of 3, 2 best of 5,
3 ACC game points (cribbage.match SINGLE, BEST_OF_3, BEST_OF_5, ACC).

Saved form (version 2): version, count of values, each value (2 bytes, little-endian), the
sum of the bytes before (low 8 bits). Version 1 files (earlier firmware, 7 values: no
"match") load with match at its default.
"""

from micropython import const

NAMES = ("players", "game", "muggins", "skunk", "match", "bright", "limit", "watchdog")
# each setting's (default, lowest, highest, step), by NAMES (one table: every module-level
# name is one more interned on a board for good)
_RANGE = ((2, 2, 6, 1), (121, 61, 121, 60), (0, 0, 1, 1), (1, 0, 1, 1), (0, 0, 3, 1),
          (64, 8, 255, 8), (2000, 200, 9000, 100), (0, 0, 1, 1))
RULES = const(5)  # NAMES[:RULES] are the game's rules: a new game applies them
_VERSION = const(2)
_MATCH = const(4)  # "match": version 1 files have no value for it


class Settings:
    def __init__(self, values=None):
        v = [0] * len(NAMES)  # ints (no comprehension: each is a function object in RAM)
        if values:
            v[:] = values
        else:
            for i in range(len(v)):
                v[i] = _RANGE[i][0]
        self.values = v

    def get(self, name):
        return self.values[NAMES.index(name)]

    def set(self, name, value):
        """Set a setting; ValueError (and no change) when out of range."""
        _, low, high, _ = _RANGE[NAMES.index(name)]  # (unpacked: no slice made)
        if not (isinstance(value, int) and low <= value <= high):
            raise ValueError("%s is %d to %d, not %r" % (name, low, high, value))
        if name == "game" and value not in (61, 121):
            raise ValueError("the game is 61 or 121")
        self.values[NAMES.index(name)] = value

    def step(self, name, up=True):
        """The next value (wrapping round), as a menu's + key does."""
        i = NAMES.index(name)
        _, low, high, step = _RANGE[i]
        v = self.values[i] + (step if up else -step)
        if v > high:
            v = low
        if v < low:
            v = high
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
    """Settings from dumps() bytes (or a version 1 file); ValueError when they are not ours
    or out of range."""
    n = len(NAMES)
    k = n if data[:1] == bytes((_VERSION,)) else n - 1 if data[:1] == b"\x01" else -1
    if k < 0 or len(data) != 3 + 2 * k or data[1] != k:
        raise ValueError("not a settings file")
    if sum(data[:-1]) & 255 != data[-1]:
        raise ValueError("settings checksum")
    s = Settings()
    j = 2
    for i in range(n):
        if k < n and i == _MATCH:
            continue  # version 1: the match mode keeps its default
        s.set(NAMES[i], data[j] | data[j + 1] << 8)
        j += 2
    return s
