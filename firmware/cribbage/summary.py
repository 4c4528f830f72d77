"""A game deal by deal: its journal replayed on a fresh Match, each side's points by why."""

# summarise(m) enters m's committed events (its journal, as m.dumps() saves it) again, one by one,
# decoded and checked by the engine as it journalled them (journal.enter), on a new Match
# with m's settings, and after each one reads who pegged what and why
# (last_side, got, last_why; any other points the event pegged, from the scores: the go a
# failure to play ends the play with, counts as play), and, for a show, whose hand or crib it
# was (phase, turn, crib_next and pone() before it). Nothing of m changes.
#
#     s = summarise(m)        # ValueError if the journal does not give m's scores back
#     s.get(deal, side, HAND) # points: HAND CRIB PLAY (the play and its go) HEELS PEG (pegged
#                             # by hand) PENALTY MUGGINS (taken); HAND/CRIB NONE: none shown
#     s.dealer[deal]          # the seat that dealt it
#     s.total(side, PLAY)     # the game's
#     s.hands[side], s.cribs[side], s.best[side], s.n28[side], s.n29[side]
#     s.dumps(limit)          # as bytes (board/history.py keeps them); rows() reads them back
#     dumps(m, limit)         # summarise(m).dumps(limit) (board/history.py then forgets
#                             # this module: board/fault.py's forget, off the heap)
#
# A side's HAND in a deal is the sum of its seats' hands (four players: partners). best, n28
# and n29 count every hand and crib the side showed, as claimed (pegged). Run once at a game's
# end (board/history.py): it allocates (m.dumps(), a second Match: about 10 KB with this
# module's code on a 64-bit port), and is imported only then. (Read from dumps(), not in place
# with journal.committed: the 300-game soak's heap fragments differently that way and fails.)
#
# dumps(limit): the number of deals that follow (the first `limit`); per side TOTALS bytes
# (T_*: hands shown, hand points, cribs shown, crib points, play points, heels, points pegged
# by hand, penalties, muggins taken, best show, 28s | 29s << 4); then the deals, each: the
# dealer's seat | F_HEELS | F_PEGS | F_EXTRA, the crib's points (NONE: not shown), the hands'
# points of each side (NONE: none shown), the play points of each side; with F_PEGS the points
# pegged by hand of each side; with F_EXTRA the penalties of each side, then the muggins taken
# by each side.

from .events import VERSION, SHOW, E_SHOW, size
from .journal import enter

from micropython import const

HAND = const(0)
CRIB = const(1)
PLAY = const(2)     # WHY_PLAY and WHY_GO
HEELS = const(3)
PEG = const(4)      # WHY_PEG: points pegged by hand (the play when its cards are not entered)
PENALTY = const(5)
MUGGINS = const(6)  # points this side took from another's short count
FIELDS = const(7)
NONE = const(255)   # HAND, CRIB: nothing shown
# the field of each WHY_* (1..8): play, go, heels, hand, crib, peg, penalty, muggins
_FIELD = b"\0\2\2\3\0\1\4\5\6"
# dumps(): the totals of a side, and a deal's flags
T_HANDS = const(0)
T_HAND = const(1)
T_CRIBS = const(2)
T_CRIB = const(3)
T_PLAY = const(4)
T_HEELS = const(5)
T_PEG = const(6)
T_PENALTY = const(7)
T_MUGGINS = const(8)
T_BEST = const(9)
T_2829 = const(10)
TOTALS = const(11)
F_HEELS = const(16)
F_PEGS = const(32)   # (a deal's size: 2 + (2 + flags // F_PEGS) * sides)
F_EXTRA = const(64)


class Summary:
    def __init__(self, m):
        s = self.sides = m.sides
        n = max(m.deals, 1)
        self.deals = 0  # as replayed
        self.dealer = bytearray(n)
        p = self.pts = bytearray(n * s * FIELDS)
        for i in range(0, len(p), FIELDS):
            p[i + HAND] = p[i + CRIB] = NONE
        self.hands = bytearray(s)
        self.cribs = bytearray(s)
        self.best = bytearray(s)
        self.n28 = bytearray(s)
        self.n29 = bytearray(s)

    def get(self, d, side, f):
        return self.pts[(d * self.sides + side) * FIELDS + f]

    def total(self, side, f):
        t = 0
        for d in range(self.deals):
            v = self.get(d, side, f)
            if v != NONE:
                t += v
        return t

    def _add(self, d, side, f, pts):
        i = (d * self.sides + side) * FIELDS + f
        v = self.pts[i]
        self.pts[i] = min((0 if v == NONE else v) + pts, 254)

    def dumps(self, limit):
        """The summary as bytes (the layout above), its first `limit` deals."""
        sides = self.sides
        nd = min(self.deals, limit)
        fls = bytearray(nd)
        n = 1 + TOTALS * sides
        for d in range(nd):
            fl = 0
            for k in range(sides):
                if self.get(d, k, HEELS):
                    fl |= F_HEELS
                if self.get(d, k, PEG):
                    fl |= F_PEGS
                if self.get(d, k, PENALTY) or self.get(d, k, MUGGINS):
                    fl |= F_EXTRA
            fls[d] = fl
            n += 2 + (2 + fl // F_PEGS) * sides
        b = bytearray(n)
        b[0] = nd
        for k in range(sides):
            i = 1 + TOTALS * k
            b[i + T_HANDS] = self.hands[k]
            b[i + T_CRIBS] = self.cribs[k]
            b[i + T_BEST] = self.best[k]
            b[i + T_2829] = min(self.n28[k], 15) | min(self.n29[k], 15) << 4
            for f, t in ((HAND, T_HAND), (CRIB, T_CRIB), (PLAY, T_PLAY), (HEELS, T_HEELS),
                         (PEG, T_PEG), (PENALTY, T_PENALTY), (MUGGINS, T_MUGGINS)):
                b[i + t] = min(self.total(k, f), 255)
        i = 1 + TOTALS * sides
        for d in range(nd):
            fl = fls[d]
            b[i] = self.dealer[d] | fl
            b[i + 1] = self.get(d, self.dealer[d] % sides, CRIB)
            i += 2
            for f in (HAND, PLAY, PEG, PENALTY, MUGGINS):
                if (f == PEG and not fl & F_PEGS) or (f > PEG and not fl & F_EXTRA):
                    continue
                for k in range(sides):
                    b[i] = self.get(d, k, f)
                    i += 1
        return b  # (no copy: board/history.py copies it into its record)


def rows(b, i, sides):
    """The deals of dumps() bytes at b[i:], as a list of (dealer, heels, crib, hands, plays,
    pegs, penalties, muggins), the last five bytes with a value per side."""
    nd = b[i]
    i += 1 + TOTALS * sides
    out = []
    z = bytes(sides)
    for _ in range(nd):
        fl = b[i]
        crib = b[i + 1]
        i += 2
        f = [bytes(b[i:i + sides]), bytes(b[i + sides:i + 2 * sides]), z, z, z]
        i += 2 * sides
        if fl & F_PEGS:
            f[2] = bytes(b[i:i + sides])
            i += sides
        if fl & F_EXTRA:
            f[3] = bytes(b[i:i + sides])
            f[4] = bytes(b[i + sides:i + 2 * sides])
            i += 2 * sides
        out.append((fl & 15, 2 if fl & F_HEELS else 0, crib) + tuple(f))
    return out


def summarise(m):
    """The Summary of m's game so far (at its end: the whole game)."""
    s = Summary(m)
    sides = s.sides
    kw = {"pairs": True} if m.players == 6 and sides == 3 else {}  # (six: three pairs)
    r = type(m)(m.players, m.target, m.muggins_on, m.skunk_line, m.skunk_games,
                m.double_line, m.double_games, mode=m.mode, **kw)
    was = bytearray(sides)  # each side's score before the event (< 256 until it is won)
    crib = False
    side = 0
    # The committed journal, from m.dumps() (saved.py: bytes 8-9 its length, 10-11 with the
    # redo events, which end 4 bytes (the CRC) before the end): one bytes object, where
    # m.journal() makes one per event (12 KB for a game on a 64-bit port).
    e = m.dumps()
    if e[0] != VERSION:
        raise ValueError("save version")
    i = len(e) - 4 - (e[10] | e[11] << 8)
    end = i + (e[8] | e[9] << 8)
    while i < end:
        show = e[i] & 0xF0 == E_SHOW
        if show:  # whose hand, or the crib: as the engine will see it
            crib = r.phase == SHOW and r.crib_next
            side = (r.turn if r.phase == SHOW else r.pone()) % sides
        for k in range(sides):
            was[k] = r.score[k]
        n = size(e, i, r.players)
        enter(r, e, i, n)  # decoded and checked by the engine itself, as journalled
        i += n
        d = r.deals - 1 if r.deals else 0  # (a peg before the first deal: deal 0's)
        s.dealer[d] = max(r.dealer, 0)
        pts = r.got
        if show:
            s._add(d, side, CRIB if crib else HAND, pts)
            (s.cribs if crib else s.hands)[side] += 1
            if pts > s.best[side]:
                s.best[side] = pts
            if pts == 28:
                s.n28[side] += 1
            elif pts == 29:
                s.n29[side] += 1
        elif pts:
            s._add(d, r.last_side, _FIELD[r.last_why], pts)
        for k in range(sides):  # what else the event pegged (the go a dead hand ends the
            more = r.score[k] - was[k] - (pts if k == r.last_side else 0)  # play with)
            if more > 0:
                s._add(d, k, PLAY, more)
    s.deals = r.deals
    if r.score != m.score or r.deals != m.deals:  # (an undo shows a finished game's end only)
        raise ValueError("journal")
    return s


def dumps(m, limit):
    """summarise(m).dumps(limit). (board/history.py imports this module for one game's end
    and forgets it after: board/fault.py's forget.)"""
    return summarise(m).dumps(limit)
