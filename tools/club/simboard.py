"""Simulated boards: real games of the core (dealer.autoplay through a Match, the record
board/history.py writes, read back by board/export.py's decode) as the messages a board
publishes (contract.py). The tests and tools/clubnet/club_scale.py use them; nothing here scores.

    b = SimBoard("t1", seed=5)
    b.seat(["Ann", "Bob"])            # the names at the board (None: not named)
    msg = b.play()                    # a whole game: the game message (a dict)
    st = b.state()                    # the live state message (a dict) as it is now
    b.deal()                          # one deal of a game in progress (for live states)
    b.signed(msg)                     # its payload signed as a board signs (sign.py): the
                                      # board's next counter, its secret (b.secret)
    b.withdrawal(gid)                 # a game withdrawn (an undo past its end), signed
"""

import json
import secrets

import hostenv  # noqa: F401  (firmware/ on sys.path)
from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from board.app import App
from board import export, history
from board.snapshot import snapshot
from board.storage import Storage
from cribbage import summary
from dealer.autoplay import RANDOM, cut_for_deal, play_deal, seeded
from cribbage.match import Match, OVER

from .sign import frame

DETAIL = 40  # board/history.py's deals detailed in a record (a board's own choice)


class SimBoard:
    """One board: its name, the names at its seats, its games so far (numbered for the id)."""

    def __init__(self, name, seed=1, players=2, target=121, secret=None):
        self.name = name
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        self.counter = 0  # the last counter signed (a board keeps it on its flash)
        self.rand = seeded(seed)
        self.players = players
        self.target = target
        self.names = [None] * players
        self.n = 0  # games finished: the next id is name-(n+1)
        self.hw = build("/data", display=False, fs=RamFs())
        self.app = App(self.hw)  # the page's snapshot reads the board app
        self.store = Storage("/data", RamFs())
        self.m = None

    def seat(self, names):
        self.names = list(names)

    def _match(self):
        m = self.m
        if m is None:
            m = self.m = Match(players=self.players, target=self.target)
            self.app.m = m  # what the live page shows
            cut_for_deal(m, self.rand)
        elif m.phase == OVER:
            m.next_game()  # as OK does on the board: games won kept (the record's serial)
            if m.next_dealer < 0:
                cut_for_deal(m, self.rand)
        return m

    def deal(self):
        """One deal of the game in progress (a new game if none); True when it ended it."""
        m = self._match()
        play_deal(m, self.rand, [RANDOM] * self.players)
        return m.phase == OVER

    def play(self):
        """Play on to the end of a game (a new one if none) and return its game message."""
        while not self.deal():
            pass
        return self.finish()

    def finish(self):
        """The game message of the game just finished: its record, as the board keeps it."""
        m = self.m
        assert m is not None, "no game played"
        history.add(self.store, m, summary.dumps(m, DETAIL))
        recs = list(export.records(self.store.open("history")))
        self.n += 1
        seats = [{"name": self.names[i], "side": m.side_of(i)} for i in range(m.players)]
        return {"id": "%s-%d" % (self.name, self.n), "board": self.name, "seats": seats,
                "game": export.decode(recs[-1], self.n)}

    def signed(self, msg):
        """msg's payload signed with the board's secret and its next counter."""
        self.counter += 1
        return frame(self.secret, self.counter, payload(msg))

    def withdrawal(self, gid):
        """The signed withdrawal of game gid (the club takes it out of the standings)."""
        return self.signed({"id": gid, "board": self.name, "withdraw": True})

    def state(self):
        """The live state message: the page's snapshot, the board's name and the seats' names
        (a game just won shows its end, as the board does until OK)."""
        if self.m is None:
            self._match()
        st = snapshot(self.app)
        st["board"] = self.name
        st["names"] = list(self.names)
        return st


def payload(msg):
    """A message as the JSON bytes a board sends (SimBoard.signed: framed and signed)."""
    return json.dumps(msg, separators=(",", ":")).encode()
