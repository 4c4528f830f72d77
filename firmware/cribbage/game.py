"""A game kept in its journal: undo, redo, the next game, a replay, the saves (the Match's base).

A Game is the Play (play.py, rules.py: the state and how each event changes it) of a game
whose events a Journal (journal.py) keeps: enter() applies an event and journals it,
atomically; undo() and redo() move through the journal (one deal of replay at most, from the
deal records the Journal keeps and Rules.record() fills); next_game() ends the game;
restore() rebuilds the state from the journal (after a fault, and when a save is loaded:
loadgame.py). The Match (match.py) adds the settings and the entries players make. Saving it
(dump(), dumps()): below.
"""

from .play import Play  # (first: the biggest to compile, on the emptier heap)
from .events import OVER, say, VERSION
from .rules import size, put16
from .journal import Journal

import binascii

from micropython import const

# Saving a Match (dump(); dumps(): the same bytes as one bytes object; crc32()): here, not a
# module of their own (issue 34: a module less on every board's heap and filesystem); loading it
# again is loadgame.py's (a board loads a game at power-up and after a fault only: its code is
# let go after, board/fault.py's table).
#
# Saved form (dumps, version 2): version byte, the 7 settings bytes (Match.settings: players,
# target, flags (1 muggins, 2 six players in two teams, the match mode << 2, who deals the next
# game << 4, 64 dead cards as sheet 000 (only those that fitted), 128 five-card cribbage: saves
# of earlier firmware have 0 there, single games, the deal on round the table, every card dead,
# six cards, and load as they were played), skunk line and games, double line and games),
# committed and total journal lengths (2 bytes each), flags (1: the finished game is kept,
# 2: it is showing), the base (next dealer, games won per side, 2 bytes each: in ACC mode game
# points), the finished game's record if kept (journal.py), the journal with its redo events,
# CRC-32 of all that (4 bytes; numbers little-endian). loadgame.py's loads() refuses anything
# truncated, padded, corrupt or of an unknown version, and reads the version 1 saves of earlier
# firmware (saved1.py).

_HEADER = const(14)  # version, 7 settings bytes, committed, total (2 each), flags, next dealer
_KEPT = const(1)     # flags: the finished game's record follows the base
_SHOWING = const(2)  # flags: undo went back to it (the new game is all redo)

_NO = "the game is not over yet"
_NOT_OVER = const(0)


def crc32(data, crc=0):
    """binascii.crc32(data, crc): crc the CRC so far (0 to start), as zlib's."""
    try:
        return binascii.crc32(data, crc) & 0xFFFFFFFF
    except AttributeError:  # a port built without binascii.crc32: the same CRC, slowly
        crc ^= 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF


class Game(Play):
    log: Journal
    # log: the game's Journal (journal.py), read by the summary and the live page, written
    # here (its calls, and its end and showing set directly) and by loadgame.py (a save's
    # events): host_tests/test_core_privates.py holds that no other module writes it

    def __init__(self, deal, cards, fitted):
        Play.__init__(self, deal, cards, fitted)
        self.log = None  # type: ignore[assignment]  # (the instance dict at its full size
        # before the buffers split the heap)
        self.start((0, 0, 0, 0, 0, 0), -1)  # the state of an empty journal, as _replay(0)
        self.log = Journal(self.players, self.sides, size(self.sides))

    def enter(self, b, i, n):
        """Apply the n-byte event at b[i] and journal it (dropping any redo events) -> the
        points it pegged: atomic, the event is in the state and the journal or in neither,
        whatever is raised (a ValueError says why, also in error)."""
        log = self.log
        try:  # first: a full journal or a MemoryError here changes nothing
            log.room(n)
        except ValueError as x:
            self.error = str(x)
            raise
        try:
            self.apply(b, i, log.end)
        except ValueError as x:  # the handlers validate before they change anything
            self.error = str(x)
            raise
        except BaseException:  # e.g. MemoryError half way: the journal says what holds
            self._replay(log.end)
            raise
        log.add(b, i, n)
        self.error = None
        return self.got

    def undo(self):
        # Remove the newest event (kept for redo); the state is as before it. At the start of a
        # game after next_game(): back to the finished game's end (its scores and winner). False
        # if there is nothing to undo.
        self.error = None
        log = self.log
        if log.end == 0:
            if not log.won or log.showing:
                return False
            self.show_prev(log.won, log.games, log.dealer)
            log.showing = True
            return True
        p = log.walk(self.deals)
        self._replay(p)
        log.end = p  # (the committed events stop before the newest)
        return True

    def redo(self):
        # Put back the event undo() removed most recently. Any new event drops the redo
        # events. False if there is none.
        self.error = None
        log = self.log
        if log.showing:
            log.showing = False
            self._replay(0)
            return True
        n = log.end
        if n >= log.top:
            return False
        log.end = n + self.apply(log.j, n, n)  # (and after the next)
        return True

    def next_game(self):
        # After a win: a new game with the same settings, scores to 0, games won kept; after
        # the game that won a match, a new match: games won back to 0. The finished game
        # leaves the journal (undo once shows its end again, with the games it left). The
        # first deal follows the cut (cut()) or deal(dealer); deal() alone continues the
        # turn. -> 0.
        if self.phase != OVER:
            self.error = say(_NO, _NOT_OVER)
            raise ValueError(self.error)
        new_match = self.match_won() >= 0
        log = self.log
        if not log.showing:
            log.save(self.won(), self.games, self.dealer_next())
        log.clear(new_match)
        self._replay(0)
        return 0

    def restore(self):
        """The state again from the journal (after a fault outside the engine's control, and
        when a save is loaded: loadgame.py)."""
        log = self.log
        self._replay(log.end)
        if log.showing:
            self.show_prev(log.won, log.games, log.dealer)

    def replay(self, at):
        """The committed game again on this Match, in place, an event at a time: a public walk
        through a game, deal by deal (deals counts them), as the engine replays it after an
        undo. replay(-1) puts the game at its start, before any event; replay(at) applies the
        event at committed()[at] (checked as when it was entered). Each returns where the next
        event starts, or -1 after the last: the state is then the game's again (last_play
        aside: a replay sets it, an undo's leaves it unset). ValueError, nothing changed, when
        there is no journal (an undo shows a finished game's end only); whoever stops early,
        or sees an exception, calls restore(). Allocates nothing."""
        log = self.log
        if at < 0:
            if log.showing:
                raise ValueError("journal")
            self.start(log.games, log.dealer)
            at = 0
        else:
            at += self.apply(log.j, at, at)
        return at if at < log.end else -1

    def committed(self):
        """The committed events (the journal's j[:end]) in place, for reading (the summary, the
        live page's last show): no copy, no CRC; valid until the next event."""
        log = self.log
        return memoryview(log.j)[:log.end]

    def mark(self):
        """Where the journal is now, redo events included: rollback(mark) returns to it."""
        return self.log.mark()

    def rollback(self, mark):
        """Undo back to mark() (one deal of replay at most) and put its redo events back."""
        while self.log.end > mark[0] and self.undo():
            pass
        self.log.rollback(mark)

    def dumps(self):
        """The saved game as bytes (above): dump()'s, written to memory (the tools' and the
        tests'; a board saves with dump(), in pieces: no second copy of the code on its heap)."""
        import io

        f = io.BytesIO()
        self.dump(f)
        return f.getvalue()  # pyright: ignore[reportAttributeAccessIssue] (MicroPython has it)

    def dump(self, f):
        """dumps()'s bytes written to the open file f, in pieces (the saved form: above)."""
        # The saved form written to the open file f in three pieces: the head, the journal where
        # it lies (no copy), the CRC. The save then needs no block the size of the game, which a
        # heap fragmented by a long game (five players: ~500 events) may not have.
        # The head: the saved form up to the journal (version, settings, lengths, flags, base,
        # the finished game's record), a few dozen bytes (here, not a function of its own: one
        # function object fewer on every board's heap, issue 34).
        s = self.sides
        log = self.log
        prev = log.won
        np = len(prev)
        h = _HEADER + 2 * s + np
        head = bytearray(h)
        head[0] = VERSION
        head[1:8] = self.settings()
        put16(head, 8, log.end)
        put16(head, 10, log.top)
        head[12] = (_KEPT if np else 0) | (_SHOWING if log.showing else 0)
        head[13] = log.dealer & 255
        for k in range(s):
            put16(head, _HEADER + 2 * k, min(log.games[k], 0xFFFE))
        if np:
            head[_HEADER + 2 * s:h] = prev
        j = memoryview(log.j)[:log.top]
        crc = crc32(j, crc32(head))
        f.write(head)
        f.write(j)
        for i in range(4):
            head[i] = crc >> (8 * i) & 255
        f.write(memoryview(head)[:4])

    # --- what Play.apply() asks of the journal's keeper -----------------------------------

    def checkpoint(self, k, at):
        # (at deal k's event, journal offset at) the state before it, recorded
        self.record(self.log.marks, self.log.checkpoint(k, at))

    def undone(self, at):
        # (a false go's card taken back) the state before the event at journal offset at
        self._replay(at)

    def _replay(self, at):
        """Rebuild the state from the journal's first `at` bytes: from the newest deal record
        before that point (one deal of events at most), or from the game's start."""
        # the records of deals 0..deals-1 hold for the committed journal (none from its start:
        # deals may be a finished game's, shown by undo and loaded from a save without records)
        log = self.log
        k = self.deals - 1 if at else -1
        while k >= 0 and log.deal(k) >= at:
            k -= 1
        self.start(log.games, log.dealer)
        i = 0
        if k >= 0:
            i = log.deal(k)
            self.recover(log.marks, log.checkpoint(k, -1))
        j = log.j
        while i < at:
            i += self.apply(j, i, i)
