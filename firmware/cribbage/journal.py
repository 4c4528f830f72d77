"""Undo, redo and the game's start: the Match's journal (bound as Match.undo, Match.redo, ...),
and apply() (bound as Match._apply): how each event changes the Match.

The journal holds the current game only: a bytearray of events (events.py), _j[:_n]
committed, _j[_n:_top] the events undo() removed, for redo(). The state is never stored: it
is replayed from the game's start (the games won so far and who deals next: the "base").
Each deal leaves a small fixed-size record of the game's state before it (_cks), so undo()
and a refused entry replay one deal at most, wherever they land. next_game() ends the
journal: the finished game is kept only as its final scores (one undo shows them again), so
the save, the load, undo and the heap stay the same size whatever the number of games.
Saving and loading are in saved.py, with mark(), rollback(), state() and journal().
"""

from .events import ACC, OVER, size as _size
from . import cards, events as ev, pegging  # (as ev.X: a name each here costs the heap)

from micropython import const

# Why next_game() and a new event are refused, one a line (see events.say).
_NO = """the game is not over yet
this game's journal is full (%d bytes): finish it or start a new game
the game is over: undo, or start the next game
no seat %d
bad peg %d for side %d
no side %d
unknown event %d
%d deals in one game: start a new game
cut for deal only before the first deal
not a card: %d
%s is cut twice
seats %d and %d tie for low: cut again
the starter is turned after the deal, before the play
%s is already in play
muggins is off in this game
no overlooked points to take: muggins right after a short count
side %d cannot take its own overlooked points"""
_NOT_OVER = const(0)
_FULL = const(1)
_OVER = const(2)
_SEAT = const(3)
_BAD_PEG = const(4)
_SIDE = const(5)
_UNKNOWN = const(6)
_DEALS = const(7)
_CUT_LATE = const(8)
_NOT_CARD = const(9)
_CUT_TWICE = const(10)
_TIE = const(11)
_STARTER_WHEN = const(12)
_IN_PLAY = const(13)
_MUGGINS_OFF = const(14)
_NO_MUGGINS = const(15)
_OWN_MUGGINS = const(16)
_RULES = const(59)  # Match._where's byte of the game's rules (events.py): who deals the
_DEAL_CUT = const(1)  # next game (0 round the table, 1 the players cut, 2 the loser)
_DEAL_LOSER = const(2)

CAP = const(4096)  # bytes of journal one game may hold: a real game needs 300-1,500
# (under 8,192: an event index << 3 | a seat, as _mug_ev and _fg pack them, must fit the deal
# record's 2 bytes below 0xFFFF)

# The two records, field by field, in the order they are stored: the first `narrow` names
# take a byte, the rest two (little-endian); -1 is stored as all ones (255, 0xFFFF), which no
# field holds otherwise. The per-side bytes follow: score, back for a deal's record; score,
# back, games (2 bytes) for the finished game. (A flat tuple of names: no object per field.)
# A deal's record (_cks): the state before its deal event, after its 2-byte journal offset.
_DEAL = ("dealer", "next_dealer", "last_side", "last_points", "last_why", "_mug",
         "deals", "events", "_mug_ev")
_DEAL_NARROW = const(6)
_DEAL_HEAD = const(14)  # 2 + 12 bytes of _DEAL
# The finished game's record (_prev, in the saved game), shown by one undo at the next game.
_PREV = ("winner", "result", "last_side", "last_points", "last_why", "dealer", "next_dealer",
         "deals", "events")
_PREV_NARROW = const(7)
_PREV_HEAD = const(13)  # 11 bytes of _PREV, 2 spare
_WHY_LAST = const(9)  # five-card cribbage's three for last (events.py: private, a name less)


def put16(b, i, v):
    """b[i:i + 2] = v, little-endian (-1 as 0xFFFF)."""
    v &= 0xFFFF
    b[i] = v & 255
    b[i + 1] = v >> 8


def get16(b, i):
    """The 2-byte little-endian number at b[i]."""
    return b[i] | b[i + 1] << 8


def _pack(self, names, narrow, b, i):
    """Write self's fields into b from i (one record's head)."""
    for k in range(len(names)):
        v = getattr(self, names[k])
        if k < narrow:
            b[i] = v & 255
            i += 1
        else:
            put16(b, i, v)
            i += 2


def _unpack(self, names, narrow, b, i):
    """Set self's fields from b at i: what _pack wrote."""
    for k in range(len(names)):
        if k < narrow:
            v = b[i]
            setattr(self, names[k], -1 if v == 255 else v)
            i += 1
        else:
            v = get16(b, i)
            setattr(self, names[k], -1 if v == 0xFFFF else v)
            i += 2


def prev_size(sides):
    """Bytes in the finished game's record."""
    return _PREV_HEAD + 4 * sides


def can_undo(self):
    return self._n > 0 or (len(self._prev) > 0 and not self._showing)


def can_redo(self):
    return self._top > self._n or self._showing


def undo(self):
    # Remove the newest event (kept for redo); the state is as before it. At the start of a
    # game after next_game(): back to the finished game's end (its scores and winner). False
    # if there is nothing to undo.
    self.error = None
    n = self._n
    if n == 0:
        if not self._prev or self._showing:
            return False
        show_prev(self)
        return True
    j = self._j
    d = self.deals
    w = _DEAL_HEAD + 2 * self.sides  # (a deal record's size: its journal offset first)
    p = get16(self._cks, (d - 1) * w) if d else 0  # the newest event is in the newest deal
    while True:  # find where the newest event starts
        q = p + _size(j, p, self.players)
        if q >= n:
            break
        p = q
    self._replay(p)
    self._n = p
    return True


def redo(self):
    # Put back the event undo() removed most recently. Any new event drops the redo
    # events. False if there is none.
    self.error = None
    if self._showing:
        self._showing = False
        self._replay(0)
        return True
    n = self._n
    if n >= self._top:
        return False
    self._n = n + self._apply(self._j, n)
    return True


def next_game(self):
    # After a win: a new game with the same settings; scores to 0, games won kept. The
    # finished game leaves the journal (undo once shows its end again). The first deal
    # follows the cut (cut()) or deal(dealer); deal() alone continues the turn. -> 0.
    if self.phase != OVER:
        raise self._refuse(_NOT_OVER, (), _NO)
    if not self._showing:
        s = self.sides
        prev = bytearray(prev_size(s))
        _pack(self, _PREV, _PREV_NARROW, prev, 0)
        for k in range(s):
            prev[_PREV_HEAD + k] = self.score[k]
            prev[_PREV_HEAD + s + k] = self.back[k]
            put16(prev, _PREV_HEAD + 2 * s + 2 * k, min(self.games[k], 0xFFFE))
        self._prev = prev
        for k in range(s):
            self._base_games[k] = self.games[k]
        d = self.next_dealer  # the deal goes on round the table (0)
        rule = self._where[_RULES] & 3
        if self.mode == ACC or rule == _DEAL_LOSER:  # ACC rule 1.5: the loser deals the next
            while d >= 0 and d % self.sides == self.winner:  # game (the first losing seat
                d = (d + 1) % self.players  # from there)
        elif rule == _DEAL_CUT:
            d = -1  # the players cut for deal (the sheets): deal(dealer) or cut() names him
        self._base_dealer = d
    self._showing = False
    self._n = self._top = 0
    self._replay(0)
    return 0


def show_prev(self):
    """The finished game's end, from its record (undo at a new game's start)."""
    p = self._prev
    s = self.sides
    self._reset()
    self.phase = OVER
    _unpack(self, _PREV, _PREV_NARROW, p, 0)
    for k in range(s):
        self.score[k] = p[_PREV_HEAD + k]
        self.back[k] = p[_PREV_HEAD + s + k]
        self.games[k] = get16(p, _PREV_HEAD + 2 * s + 2 * k)
    self._showing = True


def checkpoint(self, k, at):
    """Record deal k's starting state (before its deal event at journal offset `at`)."""
    s = self.sides
    w = _DEAL_HEAD + 2 * s
    c = self._cks
    i = k * w
    if i + w > len(c):  # four deals' room at a time
        c.extend(bytes(4 * w))
    put16(c, i, at)
    _pack(self, _DEAL, _DEAL_NARROW, c, i + 2)
    for q in range(s):
        c[i + _DEAL_HEAD + q] = self.score[q]
        c[i + _DEAL_HEAD + s + q] = self.back[q]


def _replay(self, upto):
    """Rebuild the state from the journal's first `upto` bytes: from the newest deal record
    before that point (one deal of events at most), or from the game's start."""
    # the records of deals 0..deals-1 hold for the committed journal (none from its start:
    # deals may be a finished game's, shown by undo and loaded from a save without records)
    k = self.deals - 1 if upto else -1
    w = _DEAL_HEAD + 2 * self.sides  # (a deal record's size: its journal offset first)
    while k >= 0 and get16(self._cks, k * w) >= upto:
        k -= 1
    self._reset()
    i = 0
    if k >= 0:
        c = self._cks
        s = self.sides
        b = k * w
        i = get16(c, b)
        _unpack(self, _DEAL, _DEAL_NARROW, c, b + 2)
        for q in range(s):
            self.score[q] = c[b + _DEAL_HEAD + q]
            self.back[q] = c[b + _DEAL_HEAD + s + q]
    j = self._j
    while i < upto:
        i += self._apply(j, i)


def restore(self):
    """The state again from the journal (after a fault outside the engine's control)."""
    self._replay(self._n)
    if self._showing:
        show_prev(self)


def room(self, size):
    """Make room for an event of `size` bytes (before it is applied: a MemoryError here
    changes nothing); ValueError when the game's journal is full."""
    n = self._n + size
    if n > CAP:
        raise self._refuse(_FULL, (CAP,), _NO)
    j = self._j
    if n > len(j):  # a 121 game is ~300 bytes: grow in small steps, not doubling
        j.extend(bytes(128))


def replay(self, at):
    """The committed game again on this Match, in place, an event at a time: a public walk
    through a game, deal by deal (self.deals counts them), as the engine replays it after an
    undo. replay(-1) puts the game at its start, before any event; replay(at) applies the
    event at committed()[at] (checked as when it was entered). Each returns where the next
    event starts, or -1 after the last: the state is then the game's again (last_play aside:
    a replay sets it, an undo's leaves it unset). ValueError, nothing changed, when there is
    no journal (an undo shows a finished game's end only); whoever stops early, or sees an
    exception, calls restore(). Allocates nothing: a board's heap at a game's end is in
    pieces."""
    if at < 0:
        if self._showing:
            raise ValueError("journal")
        self._reset()
        at = 0
    else:
        at += self._apply(self._j, at)
    return at if at < self._n else -1


def committed(self):
    """The committed events (_j[:_n]) in place, for reading (the live page's last show): no
    copy, no CRC; valid until the next event."""
    return memoryview(self._j)[:self._n]


# --- how each event changes the Match: apply() decodes one and calls its handler, here or in
# pegging.py (as functions, not bound: a name in the class is one more interned for good).
# Here, not in events.py, so that nothing below imports back up (no import circle: events.py
# is the bottom). Each handler validates everything first and only then changes the state, so
# a refused event (ValueError) leaves the game exactly as it was.

def apply(self, b, i):
    """Validate and apply the event at b[i]; return its size. ValueError changes nothing."""
    k = b[i]
    self.got = 0
    phase = self.phase
    if phase == ev.OVER and not (k & 0xF8 == ev.E_DEAD | 8 and self._fg >= 0
                              and self._fg >> 3 == self.events - 1):
        raise ValueError(ev.say(_NO, _OVER))  # (but a false go its card's win proved: pegging.dead)
    n = _size(b, i, self.players)  # an unknown code is refused here
    if k < cards.DECK:
        pegging.play(self, k)
    elif k == ev.E_GO:
        pegging.go(self)
    elif k & 0xF0 == ev.E_DEAL:
        d = k & 15
        if d >= self.players:
            raise ValueError(ev.say(_NO, _SEAT, (d,)))
        if self.deals >= ev.MAX_DEALS:
            raise ValueError(ev.say(_NO, _DEALS, (ev.MAX_DEALS,)))
        checkpoint(self, self.deals, i if b is self._j else self._n)
        self._new_deal()
        self.dealer = d
        self.next_dealer = (d + 1) % self.players
        self.deals += 1
        self.phase = ev.STARTER
        if self.deals == 1 and self.cards() == 5:  # (the rules bit: pegging.py _FIVE)
            # five-card cribbage: the pone takes three for last at the start of the game
            ev.peg(self, (d + 1) % self.players % self.sides, 3, _WHY_LAST)
    elif k == ev.E_STARTER:
        starter(self, b[i + 1])
    elif k & 0xF0 == ev.E_SHOW:
        pegging.show(self, b, i + 1, k & 1, b[i + n - 1] if k & 2 else -1)
    elif k & 0xF0 == ev.E_PEG:
        side = k & 15
        pts = b[i + 1]
        if side >= self.sides or not 1 <= pts <= ev.MAX_PLAY_PEG:
            raise ValueError(ev.say(_NO, _BAD_PEG, (pts, side)))
        ev.peg(self, side, pts, ev.WHY_PEG)
    elif k & 0xF0 == ev.E_PENALTY:
        side = k & 7
        if side >= self.sides:
            raise ValueError(ev.say(_NO, _SIDE, (side,)))
        ev.peg(self, side, 2, ev.WHY_PENALTY)
    elif k & 0xF0 == ev.E_DEAD:
        # (8: a false go, the card before it is taken back: where it is in the journal)
        pegging.dead(self, k & 7, b[i + 1], (i if b is self._j else self._n) - 1 if k & 8 else -1)
        if self.phase != ev.OVER:  # (a go point the dead cards brought may have won)
            ev.peg(self, k & 7, 2, ev.WHY_PENALTY)
    elif k & 0xF0 == ev.E_MUGGINS:
        muggins(self, k & 15)
    elif k == ev.E_CUT:
        cut(self, b, i + 1)
    else:
        raise ValueError(ev.say(_NO, _UNKNOWN, (k,)))
    self.events += 1
    return n


def cut(self, b, i):
    if self.phase != ev.DEAL or self.deals:
        raise ValueError(ev.say(_NO, _CUT_LATE))
    n = self.players
    low = 13
    for s in range(n):
        c = b[i + s]
        if c >= cards.DECK:
            raise ValueError(ev.say(_NO, _NOT_CARD, (c,)))
        for t in range(s):
            if b[i + t] == c:
                raise ValueError(ev.say(_NO, _CUT_TWICE, (cards.fmt(c),)))
        if c >> 2 < low:
            low = c >> 2
    dealer = -1
    for s in range(n):
        if b[i + s] >> 2 == low:
            if dealer >= 0:
                raise ValueError(ev.say(_NO, _TIE, (dealer, s)))
            dealer = s
    self.next_dealer = dealer


def starter(self, c):
    if self.phase != ev.STARTER:
        raise ValueError(ev.say(_NO, _STARTER_WHEN))
    if c != ev.NO_CARD and c != ev.JACK_UNSEEN:
        if c >= cards.DECK:
            raise ValueError(ev.say(_NO, _NOT_CARD, (c,)))
        if self._where[c]:
            raise ValueError(ev.say(_NO, _IN_PLAY, (cards.fmt(c),)))
        self.starter_card = c
        self._where[c] = ev.AT_STARTER
    self.phase = ev.PLAY
    self.turn = self.pone()
    if c == ev.JACK_UNSEEN or (c < cards.DECK and c >> 2 == cards.JACK):
        ev.peg(self, self.dealer % self.sides, 2, ev.WHY_HEELS)


def muggins(self, side):
    if not self.muggins_on:
        raise ValueError(ev.say(_NO, _MUGGINS_OFF))
    if not self.overlooked():  # (right after a show that claimed short)
        raise ValueError(ev.say(_NO, _NO_MUGGINS))
    if side >= self.sides or side == self._mug_ev & 7:  # (its low bits: the show's side)
        raise ValueError(ev.say(_NO, _OWN_MUGGINS, (side,)))
    pts = self._mug
    self._mug = 0
    ev.peg(self, side, pts, ev.WHY_MUGGINS)
