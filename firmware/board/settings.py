"""The board's settings: a few small numbers, saved as bytes beside the game.

The game's own rules (players, 61/121, muggins, skunk lines, the match mode: the first RULES
names) are copied into each new game and saved inside it by the engine; changing them here
applies from the next game (OK at a game's end, or a new game: board/commands.py). Each
setting: (name, default, lowest, highest, step) -- the menu walks this table; its help line
is in board/menutext.py (display only).

match: 0 single games (games won add up, as on earlier firmware), 1 best of 3, 2 best of 5,
3 ACC game points (cribbage.match SINGLE, BEST_OF_3, BEST_OF_5, ACC).
deal: who deals a game after the first: 0 the deal goes on round the table (as earlier
firmware), 1 the players cut for deal (the sheets; the board asks who deals, as for the first
game), 2 the loser (cribbage.match.Match(deal=...)); ACC points: the loser.

cards: 6 six-card cribbage, 5 five-card cribbage (two players to 61 whatever "players" and
"game" say: cribbage.match.Match(cards=5)); a rule of the game like the first RULES names,
last in the table so the menu's other items keep their places.

colours: the LEDs' (and the page's) side colours: 0 the usual palette, 1 a colour-blind safe
one (board/render.py's PALETTE); a setting of the board, not of the game: it applies at once.

Saved form (version 6): version, count of values, each value (2 bytes, little-endian), the
sum of the bytes before (low 8 bits). With colours at its default the file is version 5's
(11 values), as the firmware before it wrote it and reads it. Files of earlier firmware load
with what they lack at its default: version 5 (no "colours"), 4 (no "auto-dimming" either),
3 (no "cards" either), 2 (no "deal" either), 1 (no "match" either).
"""
# auto-dimming: 1 the LEDs' brightness follows the room's light (board/power.py: the ambient
# light sensor, under "bright"), 0 off: "bright" as set, whatever the room. (Its name has over
# 10 letters, so a board does not intern it: the game's runs sit at the end of a name pool.)

from micropython import const

# the match setting's values (cribbage.events SINGLE..ACC): the menu's and the page's words
# (here, loaded at boot, so that the page need not load the menu for them)
MATCHES = ("single games", "best of 3", "best of 5", "ACC points")
NAMES = ("players", "game", "muggins", "skunk", "match", "deal", "bright", "limit",
         "watchdog", "cards", "auto-dimming", "colours")
# each setting's (default, lowest, highest, step), by NAMES, as 16-bit little-endian numbers
# (one table, and bytes: a tuple per setting would be built on the heap at every boot; every
# module-level name is one more interned on a board for good)
_RANGE = (
    b"\x02\x00\x02\x00\x06\x00\x01\x00"  # players (2, 2, 6, 1)
    b"\x79\x00\x3d\x00\x79\x00\x3c\x00"  # game (121, 61, 121, 60)
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # muggins (0, 0, 1, 1)
    b"\x01\x00\x00\x00\x01\x00\x01\x00"  # skunk (1, 0, 1, 1)
    b"\x00\x00\x00\x00\x03\x00\x01\x00"  # match (0, 0, 3, 1)
    b"\x01\x00\x00\x00\x02\x00\x01\x00"  # deal (1, 0, 2, 1)
    b"\x40\x00\x08\x00\xff\x00\x08\x00"  # bright (64, 8, 255, 8)
    b"\xd0\x07\xc8\x00\x28\x23\x64\x00"  # limit (2000, 200, 9000, 100)
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # watchdog (0, 0, 1, 1)
    b"\x06\x00\x05\x00\x06\x00\x01\x00"  # cards (6, 5, 6, 1)
    b"\x01\x00\x00\x00\x01\x00\x01\x00"  # auto-dimming (1, 0, 1, 1)
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # colours (0, 0, 1, 1)
)
RULES = const(6)  # NAMES[:RULES] are the game's rules: a new game applies them
VERSION = const(6)  # the saved form's (board/boot.py's settings() reads it)
_COLOURS = const(11)  # "colours": files of version 1 to 5 have none (nor its default's file)


class Settings:
    def __init__(self, values=None):
        v = [0] * len(NAMES)  # ints (no comprehension: each is a function object in RAM)
        if values:
            v[:] = values
        else:
            for i in range(len(v)):
                v[i] = _RANGE[8 * i] | _RANGE[8 * i + 1] << 8
        self.values = v

    def get(self, name):
        return self.values[NAMES.index(name)]

    def set(self, name, value):
        """Set a setting; ValueError (and no change) when out of range."""
        j = 8 * NAMES.index(name)
        low = _RANGE[j + 2] | _RANGE[j + 3] << 8
        high = _RANGE[j + 4] | _RANGE[j + 5] << 8
        if not (isinstance(value, int) and low <= value <= high):
            raise ValueError("%s is %d to %d, not %r" % (name, low, high, value))
        if name == "game" and value not in (61, 121):
            raise ValueError("the game is 61 or 121")
        self.values[NAMES.index(name)] = value

    def step(self, name, up=True):
        """The next value (wrapping round), as a menu's + key does."""
        i = NAMES.index(name)
        j = 8 * i
        low = _RANGE[j + 2] | _RANGE[j + 3] << 8
        high = _RANGE[j + 4] | _RANGE[j + 5] << 8
        step = _RANGE[j + 6] | _RANGE[j + 7] << 8
        v = self.values[i] + (step if up else -step)
        if v > high:
            v = low
        if v < low:
            v = high
        self.values[i] = v
        return v

    def dumps(self):
        n = len(NAMES) if self.values[_COLOURS] else _COLOURS  # (the usual palette: version 5)
        out = bytearray([VERSION - len(NAMES) + n, n])
        for i in range(n):
            v = self.values[i]
            out.append(v & 255)
            out.append(v >> 8)
        out.append(sum(out) & 255)
        return bytes(out)

