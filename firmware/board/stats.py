"""Statistics per side (seat colour) from the history of finished games (board/history.py):
games, wins, skunks, average hand, crib and play points, best hand; and the display's lines
for one side (at most 16 characters each, board/screen.py).

    t = tally(app.store)      # one list of counters per side seen (T_* below): the six-card
                              # games' at 0.._N-1, the five-card games' at _N + the same
    lines(t, side)            # 5 lines (6 with 28s or 29s): "Red won 7/12", "skunk 1 best 24",
                              # "hand avg 8.1", "crib avg 4.6", "play avg 3.2", "28s 1 29s 0",
                              # "pegged avg 1.0" (a side that pegged points by hand; with a 28s
                              # line, "play+peg 4.2" in place of "play avg": 6 lines a page);
                              # then, if the side played five-card cribbage, its 6 lines
    lines(t, side, 6)         # the six-card games' lines only ([] if none), a display page;
    lines(t, side, 5)         # the five-card games': "Red 5-card", "won 2/3", "lurch 0 best
                              # 20", "hand avg 4.2", "crib avg 3.9", "play avg 2.0"
Six-card and five-card games are counted apart, each kind as if the other were not there: a
five-card hand is three cards and its game goes to 61, so an average (or a win rate) over
both kinds would describe neither. Averages: a hand's points per hand shown, the crib's per
crib, the play's (its cards and go: "play" means the same on the board, the page's CSV, the
club and tools/player/history.py) per deal, and the points pegged by hand (a number typed, a +1
button: the play when its cards are not entered, or anything else) per deal, on their own
line, "pegged", only for a side that pegged any (a record's summary always kept them apart:
records of every firmware are read right; on a crowded page, "play+peg" says both, named);
from the games whose record has the summary (records of earlier
firmware and games recorded when memory was short count for games, wins and skunks only;
records of earlier firmware are six-card games). Loaded for the menu: reads the file a record
at a time, by name (board/record.py, and the summary's module under it: both dropped after).
"""

from cribbage.events import WIN
from board.fault import modules, release
from board import history as H
from board.screen import SIDE_NAMES

from micropython import const

GAMES = const(0)
WINS = const(1)
SKUNKS = const(2)   # games won by a skunk, a double skunk or a lurch
HANDS = const(3)    # hands shown (with the summary), and their points
HAND = const(4)
CRIBS = const(5)
CRIB = const(6)
DEALS = const(7)    # deals (with the summary), and the play's points in them
PLAY = const(8)     # the play's points (its cards and go)
BEST = const(9)
N28 = const(10)
N29 = const(11)
PEGGED = const(12)  # points pegged by hand (per deal, as the play's)
_N = const(13)     # counters of one kind of game: the five-card games' follow at _N


class _Tally:
    """Adds up each record history.walk() hands it (write), read by name (board/record.py:
    loaded for the tally and dropped after, with the summary's module)."""

    def __init__(self):
        from board.record import Record  # (no room asked: the page's flood, test_web.py)

        self.g = Record()
        self.t = []

    def write(self, r):
        if H.undone(r):  # (a game undone past its end: not counted)
            return
        g = self.g.read(r)
        sides = g.sides
        t = self.t
        while len(t) < sides:
            t.append([0] * (2 * _N))
        i = _N if g.cards == 5 else 0  # the kind of game: its own counters
        for k in range(sides):
            c = t[k]
            c[i + GAMES] += 1
            if g.winner == k:
                c[i + WINS] += 1
                if g.result > WIN:  # SKUNK, DOUBLE_SKUNK, LURCH
                    c[i + SKUNKS] += 1
            if g.side(k):  # the summary's totals
                c[i + HANDS] += g.hands
                c[i + HAND] += g.hand
                c[i + CRIBS] += g.cribs
                c[i + CRIB] += g.crib
                c[i + DEALS] += g.deals
                c[i + PLAY] += g.play
                c[i + PEGGED] += g.pegged
                c[i + BEST] = max(c[i + BEST], g.best)
                c[i + N28] += g.n28
                c[i + N29] += g.n29


def tally(store):
    """The counters (T_* above) of each side seen in store's "history" file: a list, one
    list per side (empty: no games), the six-card games' counters, then (from _N on) the
    five-card games'."""
    had = modules()  # (the live page keeps board.record and cribbage.summary)
    acc = _Tally()
    f = store.open("history")
    try:
        H.walk(acc, f)
    finally:
        if f:
            f.close()
        release(had)  # their code leaves the heap (board/fault.py's table)
    return acc.t


def _avg(pts, n):
    """pts / n to one decimal, as text ("-" for none): integers only."""
    if not n:
        return "-"
    x = (pts * 10 + n // 2) // n
    return "%d.%d" % (x // 10, x % 10)


def lines(t, side, cards=0):
    """The display's lines for side (16 characters at most) from tally()'s counters t: of
    its six-card games (cards 6) or its five-card games (cards 5), [] when it played none of
    them; cards 0: both, six-card first (the page, tools/player/history.py)."""
    name = SIDE_NAMES[side]
    if side >= len(t) or not (t[side][GAMES] or t[side][_N + GAMES]):
        return [name + ": no games"]
    c = t[side]
    out = []
    if c[GAMES] and cards != 5:
        out = ["%s won %d/%d" % (name, c[WINS], c[GAMES]),
               "skunk %d best %d" % (c[SKUNKS], c[BEST]),
               "hand avg " + _avg(c[HAND], c[HANDS]),
               "crib avg " + _avg(c[CRIB], c[CRIBS]),
               "play avg " + _avg(c[PLAY], c[DEALS])]
        if c[PEGGED]:  # (a page holds 6 lines: with the 28s' line, one line says both, named)
            if c[N28] or c[N29]:
                out[4] = "play+peg " + _avg(c[PLAY] + c[PEGGED], c[DEALS])
            else:
                out.append("pegged avg " + _avg(c[PEGGED], c[DEALS]))
        if c[N28] or c[N29]:
            out.append("28s %d 29s %d" % (c[N28], c[N29]))
    if c[_N + GAMES] and cards != 6:  # (a 28 or a 29, in a five-card crib: its best)
        c = c[_N:]
        out += [name + " 5-card",
                "won %d/%d" % (c[WINS], c[GAMES]),
                "lurch %d best %d" % (c[SKUNKS], c[BEST]),
                "hand avg " + _avg(c[HAND], c[HANDS]),
                "crib avg " + _avg(c[CRIB], c[CRIBS]),
                "play avg " + _avg(c[PLAY], c[DEALS]) if not c[PEGGED] else  # (6 lines: the
                "play+peg " + _avg(c[PLAY] + c[PEGGED], c[DEALS])]  # page has no 7th)
    return out
