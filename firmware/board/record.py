"""A finished game's record (board/history.py) read by name: the one reader of its fields, for
board/stats.py, the page's export (board/export.py), tools/player/history.py and the tests.

    g = Record(r)   # r: a good record (history.walk() hands them out); g.version, g.players,
                    # g.sides, g.target, g.result (cribbage.events WIN..LURCH), g.winner,
                    # g.deals, g.serial, g.muggins (None: a version 1 record does not say),
                    # g.summary (it holds the game's summary: cribbage/summary.py),
                    # g.cards (dealt each player: 5, five-card cribbage, or 6)
    g.score(k)      # side k's final score
    g.side(k)       # side k's summary totals to g.hands, g.hand, ... (TOTALS; None each
                    # without the summary): True if it has them
    g.rows()        # the summary's deals (cribbage/summary.py's rows())
    g.read(r)       # the next record, in the same Record (no block a record)

Not in board/history.py: that module loads at a game's end, when a board has few names to
spare (each name a module defines is interned for good); this one loads only with the
statistics and the page's export, and leaves with them.
"""

from cribbage import summary as S
from board import history as H

# a side's totals in a record's summary, by name: cribbage/summary.py's TOTALS (its one list)
TOTALS = S.TOTALS


class Record:
    """A good history record read by name: export.GAME_COLUMNS from "version" on, and after
    side(k), side k's TOTALS, as attributes. One Record reads record after record (read):
    a reader of 64 games makes no block per game."""

    def __init__(self, r=None):
        if r is not None:
            self.read(r)

    def read(self, r):
        """Reads record r (its totals are read by side()); returns self."""
        (self.version, self.players, self.sides, self.target, self.result, self.winner,
         self.deals, self.serial, self.muggins, self._at, self._body) = H.head(r)
        self.r = r
        self.summary = self._body > 0
        self.cards = H.cards(r)
        return self

    def score(self, k):
        """Side k's final score."""
        return self.r[self._at + k]

    def side(self, k):
        """Side k's totals in the game's summary to the attributes of TOTALS (None each
        without the summary); True if the record has them."""
        if self._body:
            (self.hands, self.hand, self.cribs, self.crib, self.play, self.heels, self.pegged,
             self.penalties, self.muggins_taken, self.best, self.n28,
             self.n29) = S.totals(self.r, self._body, self.sides, k)
            return True
        for c in TOTALS:
            setattr(self, c, None)
        return False

    def rows(self):
        """The summary's deals (cribbage/summary.py's rows(): the first 40), [] without it."""
        return S.rows(self.r, self._body, self.sides) if self._body else []
