"""The score of a game of cribbage: pegs, wins, the show's short counts, and the records the
journal keeps of them (the base of the Match: Rules < Play < Game < Match).

Rules holds the game's state above the deal (score, back, games, phase, dealer, winner, the
newest points pegged, deals, events: public attributes the renderer reads) and the show's
overlooked points; points() moves a side's pegs and ends the game at its target. record()
and recover() write and read this state for a deal's record, won() and show_prev() for the
finished game's (the Journal keeps the bytes: journal.py). play.py adds the deal: the cards,
the play, the show, and apply(), which applies one journal event.
"""

from .cards import DECK, fmt
from . import events as ev  # (as X: a name each here would cost the heap)

from micropython import const

# Why an event is refused, one a line (see events.say).
_NO = """cut for deal only before the first deal
not a card: %d
%s is cut twice
seats %d and %d tie for low: cut again
muggins is off in this game
no overlooked points to take: muggins right after a short count
side %d cannot take its own overlooked points"""
_CUT_LATE = const(0)
_NOT_CARD = const(1)
_CUT_TWICE = const(2)
_TIE = const(3)
_MUGGINS_OFF = const(4)
_NO_MUGGINS = const(5)
_OWN_MUGGINS = const(6)

# The two records the journal keeps of this state (journal.py), field by field, in the order
# they are stored: the first `n` (narrow) names take a byte, the rest two (little-endian); -1 is
# stored as all ones (255, 0xFFFF), which no field holds otherwise. The per-side bytes follow:
# score, back for a deal's record; score, back, games (2 bytes) for the finished game. (A flat
# tuple of names: no object per field.)
# A deal's record: the state before its deal event (after the record's 2-byte journal offset).
_DEAL = ("dealer", "next_dealer", "last_side", "last_points", "last_why", "mug",
         "deals", "events", "shower")
_DEAL_NARROW = const(6)
_DEAL_HEAD = const(12)  # bytes of _DEAL (the per-side bytes follow)
# The finished game's record, shown by one undo at the next game.
_PREV = ("winner", "result", "last_side", "last_points", "last_why", "dealer", "next_dealer",
         "deals", "events")
_PREV_NARROW = const(7)
_PREV_HEAD = const(13)  # 11 bytes of _PREV, 2 spare


def put16(b, i, v):
    """b[i:i + 2] = v, little-endian (-1 as 0xFFFF)."""
    v &= 0xFFFF
    b[i] = v & 255
    b[i + 1] = v >> 8


def size(sides):
    """Bytes of the state in a deal's record (record())."""
    return _DEAL_HEAD + 2 * sides


def prev_size(sides):
    """Bytes in the finished game's record (won())."""
    return _PREV_HEAD + 4 * sides


class Rules:
    # The derived state of one game between `players` seats, public (the settings, set by the
    # Match before Rules.__init__, too); the deal's where-table is _where (events.py: the
    # cards, GO_AT, DEAD, RULES, read by where(i)):
    #
    # players, sides, target, muggins_on     settings (read-only; also skunk_line, skunk_games,
    # double_line, double_games, mode)
    # score[side], back[side]                front peg (the score) and back peg (previous score)
    # games[side]                            games won, skunks counting their game values (mode
    #                                        ACC: game points); match_won() says a match's end
    # phase                                  DEAL, STARTER, PLAY, SHOW or OVER
    # dealer                                 seat dealing this deal (-1 before the first deal)
    # next_dealer                            seat deal() deals for by default (-1: unknown)
    # turn                                   PLAY: seat to play; SHOW: seat to show; else -1
    # crib_next                              SHOW: True when the crib is the next to show
    # count, pile                            running count and the cards of this series (bytearray)
    # played[seat]                           cards each seat has played this deal (0..4)
    # plays                                  cards out of the hands in this play (played, dead)
    # gone                                   bit per seat that said go in this series
    # starter_card                           the starter, or -1 (not turned / not entered)
    # winner, result                         winning side and WIN/SKUNK/DOUBLE_SKUNK/LURCH (-1/0)
    # last_side, last_points, last_why       the newest points pegged (-1, 0, 0 for none)
    # got                                    points the newest event pegged (0: none)
    # last_play                              what the newest card played made (score.PLAY_*)
    # error                                  message of the last refused entry, or None
    # deals                                  deals in this game so far
    # events                                 events in the journal (undo depth)
    # mug, shower                            points the newest show overlooked, and that show
    #                                        (its event index << 3 | its side; -1: none):
    #                                        overlooked() says whether muggins can take them
    # log                                    the game's Journal (journal.py, game.py)

    # the settings, set by the Match before Rules.__init__ (annotations: no cost on a board)
    players: int
    sides: int
    target: int
    muggins_on: bool
    skunk_line: int
    skunk_games: int
    double_line: int
    double_games: int
    mode: int

    def __init__(self):
        self.error = None
        self.deals = 0
        s = self.sides
        self.score = [0] * s  # these keep their objects for the game's life (reset)
        self.back = [0] * s
        self.games = [0] * s

    def side_of(self, seat):
        """The side (lane) a seat pegs for."""
        return seat % self.sides

    def pone(self):
        """The seat left of the dealer (leads the play, shows first), or -1 before a deal."""
        return -1 if self.dealer < 0 else (self.dealer + 1) % self.players

    def overlooked(self):
        # The points muggins() can take right now (muggins on, right after a show that
        # claimed less than its cards count), else 0.
        m = self.shower  # (the show's event index << 3 | its side, or -1)
        if self.muggins_on and self.mug > 0 and m >= 0 and m >> 3 == self.events - 1:
            return self.mug
        return 0

    def overlooked_side(self):
        # The side whose short count muggins() can take right now, else -1.
        return self.shower & 7 if self.overlooked() else -1

    def match_won(self):
        # The side whose game just won the match (best of 3 or 5: it has the games the match
        # needs), else -1 (SINGLE and ACC have no match end). OK then starts a new match.
        need = (0, 2, 3, 0)[self.mode]
        w = self.winner
        return w if need and self.phase == ev.OVER and self.games[w] >= need else -1

    def state(self) -> tuple:
        """The score's state as one tuple (Play.state() adds the deal's; allocates)."""
        return (tuple(self.score), tuple(self.back), tuple(self.games), self.phase,
                self.dealer, self.next_dealer, self.winner, self.result, self.last_side,
                self.last_points, self.last_why, self.deals, self.events, self.mug,
                self.shower)

    # --- the state's records (the journal keeps them: journal.py) ----------------------------

    def record(self, b, i):
        """Write the state a deal starts from into b at i (a deal's record, after its offset)."""
        s = self.sides
        _pack(self, _DEAL, _DEAL_NARROW, b, i)
        for q in range(s):
            b[i + _DEAL_HEAD + q] = self.score[q]
            b[i + _DEAL_HEAD + s + q] = self.back[q]

    def recover(self, b, i):
        """The state record() wrote at b[i] again (the rest as start() left it)."""
        s = self.sides
        _unpack(self, _DEAL, _DEAL_NARROW, b, i)
        for q in range(s):
            self.score[q] = b[i + _DEAL_HEAD + q]
            self.back[q] = b[i + _DEAL_HEAD + s + q]

    def won(self):
        """The finished game's end as its record (bytes end_size(sides))."""
        s = self.sides
        prev = bytearray(prev_size(s))
        _pack(self, _PREV, _PREV_NARROW, prev, 0)
        for k in range(s):
            prev[_PREV_HEAD + k] = self.score[k]
            prev[_PREV_HEAD + s + k] = self.back[k]
            put16(prev, _PREV_HEAD + 2 * s + 2 * k, min(self.games[k], 0xFFFE))
        return prev

    def show_prev(self, p, games, dealer):
        """The finished game's end again, from its record p (games, dealer: reset()'s)."""
        s = self.sides
        self.start(games, dealer)
        self.phase = ev.OVER
        _unpack(self, _PREV, _PREV_NARROW, p, 0)
        for k in range(s):
            self.score[k] = p[_PREV_HEAD + k]
            self.back[k] = p[_PREV_HEAD + s + k]
            i = _PREV_HEAD + 2 * s + 2 * k
            self.games[k] = p[i] | p[i + 1] << 8

    # --- the state before any event, and at a deal -----------------------------------------

    # --- the state before any event; its changes -------------------------------------------

    def start(self, games, dealer):
        """The state of a fresh game before any event: games won so far, who deals first."""
        # (in place: a replay, an undo or a deal makes no garbage to fragment the heap)
        for k in range(self.sides):
            self.score[k] = 0
            self.back[k] = 0
            self.games[k] = games[k]
        self.phase = ev.DEAL
        self.dealer = -1
        self.next_dealer = dealer
        self.winner = -1
        self.result = 0
        self.last_side = -1
        self.last_points = 0
        self.last_why = 0
        self.deals = 0
        self.events = 0
        self.mug = 0
        self.shower = -1
        self.got = 0
        self.last_play = 0

    def points(self, side, points, why):
        # Side pegs points (the back peg to the old score); the first side to reach the target
        # wins at once, whatever the phase.
        if points <= 0:
            return
        self.got = points
        self.back[side] = self.score[side]
        self.score[side] += points
        self.last_side = side
        self.last_points = points
        self.last_why = why
        if self.score[side] < self.target:
            return
        # The game is over: the result counts by the best losing score against the skunk lines.
        self.phase = ev.OVER
        self.winner = side
        self.turn = -1
        self.crib_next = False
        best = 0
        for s in range(self.sides):
            if s != side and self.score[s] > best:
                best = self.score[s]
        if self.double_line and best < self.double_line:
            self.result = ev.DOUBLE_SKUNK
            self.games[side] += self.double_games
        elif self.skunk_line and best < self.skunk_line:
            self.result = ev.SKUNK if self.target == 121 else ev.LURCH
            self.games[side] += self.skunk_games
        else:
            self.result = ev.WIN
            self.games[side] += 2 if self.mode == ev.ACC else 1

    def who(self, b, i):
        # Who deals first: the cut for deal (an E_CUT event: a card per seat at b[i:]), the
        # lowest card deals (ace low); a tie for lowest is refused (those seats cut again).
        if self.phase != ev.DEAL or self.deals:
            raise ValueError(ev.say(_NO, _CUT_LATE))
        low = 13
        for s in range(self.players):
            c = b[i + s]
            if c >= DECK:
                raise ValueError(ev.say(_NO, _NOT_CARD, (c,)))
            for t in range(s):
                if b[i + t] == c:
                    raise ValueError(ev.say(_NO, _CUT_TWICE, (fmt(c),)))
            if c >> 2 < low:
                low = c >> 2
        dealer = -1
        for s in range(self.players):
            if b[i + s] >> 2 == low:
                if dealer >= 0:
                    raise ValueError(ev.say(_NO, _TIE, (dealer, s)))
                dealer = s
        self.next_dealer = dealer

    def call(self, side):
        # side calls muggins (an E_MUGGINS event): it takes the points the show just entered
        # overlooked.
        if not self.muggins_on:
            raise ValueError(ev.say(_NO, _MUGGINS_OFF))
        if not self.overlooked():  # (right after a show that claimed short)
            raise ValueError(ev.say(_NO, _NO_MUGGINS))
        if side >= self.sides or side == self.shower & 7:  # (its low bits: the show's side)
            raise ValueError(ev.say(_NO, _OWN_MUGGINS, (side,)))
        pts = self.mug
        self.mug = 0
        self.points(side, pts, ev.WHY_MUGGINS)

def _pack(m, names, n, b, i):
    """Write the fields of m (a Rules) named into b from i (one record's head)."""
    for k in range(len(names)):
        v = getattr(m, names[k])
        if k < n:  # (n: how many are narrow, a byte each)
            b[i] = v & 255
            i += 1
        else:
            put16(b, i, v)
            i += 2


def _unpack(m, names, n, b, i):
    """Set the fields of m named from b at i: what _pack wrote."""
    for k in range(len(names)):
        if k < n:  # (n: how many are narrow, a byte each)
            v = b[i]
            setattr(m, names[k], -1 if v == 255 else v)
            i += 1
        else:
            v = b[i] | b[i + 1] << 8
            setattr(m, names[k], -1 if v == 0xFFFF else v)
            i += 2
