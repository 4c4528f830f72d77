"""The journal of one game: its events as bytes, with undo's and redo's bookkeeping.

A Journal owns a bytearray of events (events.py): j[:end] committed, j[end:top] the events
undo() removed, for redo(). The game's state is never stored: the Match replays it from the
game's start (games, the games won so far per side, and dealer, who deals first: -1 cut or
choose). Each deal leaves a small fixed-size record in marks (its journal offset, then the
state before it: rules.py's record()), so an undo or a refused entry replays one deal at
most. save() ends the game: the finished game is kept only as its end's record (won; one undo
shows it again: showing), so the save, the load, undo and the heap stay the same size
whatever the number of games. The Match is the one writer, through these calls but for end
(where an undo or a redo stops the committed events) and showing (whether undo shows the
finished game's end, the new game all redo events), which game.py sets itself and
loadgame.py sets for a loaded game, and a save's events, which loadgame.py puts in j and top
(a method each is ~0.15 KB of the heap for good, issue 34; host_tests/test_core_privates.py
holds that no other module writes a journal); readers (the summary, the live page) read the
Match's committed(), j[:end] in place. Saving: game.py.
"""

from .events import size, say

from micropython import const

# Why a new event is refused, one a line (see events.say).
_NO = "this game's journal is full (%d bytes): finish it or start a new game"
_FULL = const(0)

CAP = const(4096)  # bytes of journal one game may hold: a real game needs 300-1,500
# (under 8,192: an event index << 3 | a seat, as the Match's false go and muggins pack them,
# must fit a deal record's 2 bytes below 0xFFFF)


class Journal:
    # j, end, top       the events: j[:end] committed, j[end:top] redo events
    # marks             a record per deal: its journal offset (2 bytes), the state before it
    # games, dealer     the game's start: games won so far per side, who deals first
    # won, showing      the finished game's end record (b"": none), and whether undo shows it

    def __init__(self, players, sides, record):
        # record: bytes of the Match's state in a deal's record (rules.size)
        self.end = 0
        self.top = 0
        self.players = players
        self.width = 2 + record
        self.games = [0] * sides
        self.dealer = -1
        self.won = b""
        self.showing = False
        # Made big enough for most games now, while the heap is whole (a game of two takes
        # ~300 bytes, of five ~1,000): growing later needs a bigger block beside it, which a
        # long game's heap may lack
        self.j = bytearray(192 * players + 128)
        self.marks = bytearray()

    def room(self, size):
        """Make room for an event of `size` bytes (before it is applied: a MemoryError here
        changes nothing); ValueError when the game's journal is full."""
        n = self.end + size
        if n > CAP:
            raise ValueError(say(_NO, _FULL, (CAP,)))
        if n > len(self.j):  # a 121 game is ~300 bytes: grow in small steps, not doubling
            self.j.extend(bytes(128))

    def add(self, b, i, size):
        """Commit the event b[i:i + size] (applied), dropping any redo events."""
        n = self.end
        self.j[n:n + size] = memoryview(b)[i:i + size]
        self.end = self.top = n + size

    def walk(self, deals):
        """Where the newest committed event starts (deals: the deals it is among)."""
        j = self.j
        p = self.deal(deals - 1) if deals else 0  # the newest event is in the newest deal
        while True:
            q = p + size(j, p, self.players)
            if q >= self.end:
                return p
            p = q

    def checkpoint(self, k, at):
        """Where in marks deal k's state goes (after its journal offset): with at >= 0, deal
        k's event is at journal offset at (written, with room made for the record)."""
        w = self.width
        i = k * w
        if at >= 0:
            c = self.marks
            if i + w > len(c):  # four deals' room at a time
                c.extend(bytes(4 * w))
            c[i] = at & 255
            c[i + 1] = at >> 8
        return i + 2

    def deal(self, k):
        """The journal offset of deal k's event (its record's first 2 bytes)."""
        i = k * self.width
        return self.marks[i] | self.marks[i + 1] << 8

    def save(self, won, games, dealer):
        """The game ended as won (its end's record): the next starts from games won, with
        dealer dealing first (-1: cut or choose)."""
        self.won = won
        for k in range(len(games)):
            self.games[k] = games[k]
        self.dealer = dealer

    def clear(self, new_match):
        """A new game, from what save() kept (new_match: games won back to 0)."""
        if new_match:
            for k in range(len(self.games)):
                self.games[k] = 0
        self.showing = False
        self.end = self.top = 0

    def mark(self):
        """Where the journal is now, redo events included: rollback(mark) returns to it."""
        return self.end, bytes(memoryview(self.j)[self.end:self.top])

    def rollback(self, mark):
        """mark()'s redo events back (once the Match has undone back to it)."""
        n, tail = mark
        self.j[n:n + len(tail)] = tail
        self.top = n + len(tail)
