"""The match engine: one game of cribbage as an append-only journal of small events.

Every entry a player confirms is one event (a deal, the starter, a card played, a go, a hand
shown, a plain peg, ...). Each event is validated and applied to the derived state, which the
renderer reads as plain attributes (no calls, no allocation). undo() removes the newest event,
redo() puts it back, without limit and also after a game is won. dumps() gives compact bytes
(version byte, settings, journal, CRC-32) that a board saves after every event; loads() checks
and replays them. A refused event raises ValueError saying why and changes nothing (the
message is also kept in `error` for the display).

Cards or points: the board sees no cards unless players type them, so every step takes either.
The play is entered card by card (play(card) / go()), then the engine keeps the count, whose
turn it is and scores each card, the go and the last card itself; or its points are pegged by
hand with peg(side, points). A hand is shown as its four cards (scored by score.score_hand, with
the starter) or as its points (validated: never 19, 25, 26, 27 or over 29). The host simulator
deals real cards (deal.py) and feeds them through the same calls.

Seats are 0..players-1 going left (clockwise); the seat left of the dealer is the pone. A side
pegs one lane: side = seat % sides (2 players: 2 sides; 3: 3; 4: two partnerships, seats 0+2
and 1+3; 5: 5 sides; 6: three partnerships, seats 0+3, 1+4, 2+5).

Usage on a board:
    m = Match(players=2)            # or loads(saved_bytes)
    m.deal(dealer=0)                # or m.cut([c0, c1]) then m.deal()
    m.starter(card)                 # or m.starter() / m.starter(jack=True) when not entered
    m.play(card); m.go(); ...       # or m.peg(side, points) for each score in the play
    m.show(hand=[...]) / m.show(points=n)   # pone ... dealer, then the crib
    save(m.dumps())
No asyncio, no machine, no clock, no random in here: deal.shuffle() takes the random source.
"""

import binascii

from .cards import PIP, JACK, DECK, fmt
from .score import score_hand, score_play

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

VERSION = const(1)  # first byte of dumps(); loads() refuses any other

# Phases (Match.phase).
DEAL = const(0)     # waiting for the deal (game start, or the crib was shown)
STARTER = const(1)  # dealt (discards happen here): waiting for the starter
PLAY = const(2)     # the play: play(card) / go(), or pegs
SHOW = const(3)     # the show: show() for pone ... dealer, then the crib (crib_next)
OVER = const(4)     # a side pegged out: only undo(), redo(), next_game()

# Game results (Match.result), worth settings' game values in Match.games.
WIN = const(1)
SKUNK = const(2)         # 121 game: loser under skunk_line
DOUBLE_SKUNK = const(3)  # 121 game: loser under double_line
LURCH = const(4)         # 61 game: loser under skunk_line

# Why the newest points were pegged (Match.last_why).
WHY_PLAY = const(1)     # a card in the play: 15, 31, pairs, runs (+1 when also the last card)
WHY_GO = const(2)       # one for the go (or the last card)
WHY_HEELS = const(3)    # two for his heels
WHY_HAND = const(4)     # a hand in the show
WHY_CRIB = const(5)     # the crib
WHY_PEG = const(6)      # a plain peg entered by hand
WHY_PENALTY = const(7)  # misdeal / failure to play: two to the other side
WHY_MUGGINS = const(8)  # points the shower overlooked, taken by another side

# Penalty kinds.
MISDEAL = const(0)
FAIL_TO_PLAY = const(1)

MAX_PLAY_PEG = const(15)  # the most one card can make in the play: 12 + fifteen 2 + go 1
HAND_MAX = const(29)
NO_CARD = const(255)  # starter not entered


# Journal event codes. A played card is its own byte (0..51): the commonest event is 1 byte.
_GO = const(0x40)        # 1 byte
_DEAL = const(0x50)      # | dealer seat; 1 byte
_STARTER = const(0x60)   # + card (0..51, _JACK_UNSEEN, NO_CARD); 2 bytes
_SHOW = const(0x70)      # | 1: four cards follow, | 2: points follow; 1..6 bytes
_PEG = const(0x80)       # | side, + points; 2 bytes
_PENALTY = const(0x90)   # | kind << 3 | side; 1 byte
_MUGGINS = const(0xA0)   # | side; 1 byte
_CUT = const(0xB0)       # + one card per seat; 1 + players bytes
_NEW_GAME = const(0xC0)  # 1 byte
_JACK_UNSEEN = const(254)

# Where a card is known to be this deal (Match._where[card]): 0 unknown, 1..6 played by seat
# s - 1, _AT_STARTER, _AT_HAND + seat (shown in a hand), _AT_CRIB.
_AT_STARTER = const(7)
_AT_HAND = const(8)
_AT_CRIB = const(14)

_HEADER = const(12)  # version, 7 settings bytes, committed length, total length (2 each)


def show_points_ok(points):
    """True if a hand or crib can count this many points (0..29 but never 19, 25, 26, 27)."""
    return 0 <= points <= HAND_MAX and points != 19 and not 25 <= points <= 27


def _crc32(data):
    try:
        return binascii.crc32(data) & 0xFFFFFFFF
    except AttributeError:  # a port built without binascii.crc32: the same CRC, slowly
        crc = 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF


def _seat_name(seat):
    return "seat %d" % seat


class Match:
    """One game (then the next) between `players` seats; the derived state is public:

    players, sides, target, muggins_on     settings (read-only; also skunk_line, skunk_games,
                                           double_line, double_games)
    score[side], back[side]                front peg (the score) and back peg (previous score)
    games[side]                            games won, skunks counting their game values
    phase                                  DEAL, STARTER, PLAY, SHOW or OVER
    dealer                                 seat dealing this deal (-1 before the first deal)
    next_dealer                            seat deal() deals for by default (-1: unknown)
    turn                                   PLAY: seat to play; SHOW: seat to show; else -1
    crib_next                              SHOW: True when the crib is the next to show
    count, pile                            running count and the cards of this series (bytearray)
    played[seat]                           cards each seat has played this deal (0..4)
    gone                                   bit per seat that said go in this series
    starter_card                           the starter, or -1 (not turned / not entered)
    winner, result                         winning side and WIN/SKUNK/DOUBLE_SKUNK/LURCH (-1/0)
    last_side, last_points, last_why       the newest points pegged (-1, 0, 0 for none)
    error                                  message of the last refused entry, or None
    deals                                  deals in this game so far
    events                                 events in the journal (undo depth)
    """

    def __init__(self, players=2, target=121, muggins=False, skunk_line=-1, skunk_games=2,
                 double_line=-1, double_games=3):
        """A new game. players 2..6; target 121 or 61; muggins on/off. skunk_line: a loser
        under it makes the win count skunk_games (default 91 in the 121 game; in the 61 game
        it is the lurch, default 31); double_line: under it, double_games (default 61 in the
        121 game, none in the 61 game). 0 turns a line off. ValueError for bad settings."""
        if players not in (2, 3, 4, 5, 6):
            raise ValueError("players must be 2 to 6, not %r" % (players,))
        if target not in (61, 121):
            raise ValueError("the game is 121 or 61 points, not %r" % (target,))
        if skunk_line == -1 or skunk_line is None:
            skunk_line = 91 if target == 121 else 31
        if double_line == -1 or double_line is None:
            double_line = 61 if target == 121 else 0
        if not (0 <= skunk_line < target and 0 <= double_line < target):
            raise ValueError("skunk lines must be 0 (off) to %d" % (target - 1))
        if double_line and double_line > skunk_line:
            raise ValueError("the double skunk line %d is above the skunk line %d"
                             % (double_line, skunk_line))
        if not (1 <= skunk_games <= 9 and 1 <= double_games <= 9):
            raise ValueError("a game counts 1 to 9 games")
        self.players = players
        self.sides = 2 if players == 4 else 3 if players == 6 else players
        self.target = target
        self.muggins_on = bool(muggins)
        self.skunk_line = skunk_line
        self.skunk_games = skunk_games
        self.double_line = double_line
        self.double_games = double_games
        self._j = bytearray(256)  # the journal: _j[:_n] committed, _j[_n:_top] redo events
        self._n = 0
        self._top = 0
        self._ev = bytearray(8)   # scratch for the event being entered
        self._where = bytearray(DECK)
        self.error = None
        self._replay(0)

    def settings(self):
        """The settings as the 7 bytes dumps() stores."""
        return bytes((self.players, self.target, 1 if self.muggins_on else 0, self.skunk_line,
                      self.skunk_games, self.double_line, self.double_games))

    # --- seats and sides ---------------------------------------------------------------

    def side_of(self, seat):
        """The side (lane) a seat pegs for."""
        return seat % self.sides

    def pone(self):
        """The seat left of the dealer (leads the play, shows first), or -1 before a deal."""
        return -1 if self.dealer < 0 else (self.dealer + 1) % self.players

    # --- events: each validates, applies, journals; returns the points it pegged -------

    def cut(self, cards):
        """Cut for first deal: one card per seat in seat order; the lowest rank deals (ace
        low). A tie for lowest raises ValueError (those seats cut again). Only before the
        first deal of a game. Returns the dealing seat."""
        n = self.players
        if len(cards) != n:
            raise self._refuse("cut one card per seat: %d cards for %d seats" % (len(cards), n))
        ev = self._ev
        ev[0] = _CUT
        for i in range(n):
            ev[1 + i] = self._card_arg(cards[i])
        self._do(1 + n)
        return self.next_dealer

    def deal(self, dealer=-1):
        """The cards are dealt. dealer -1: the next in turn (the cut's winner, then left of
        the last dealer); a seat number names him (first deal, or a redeal by the same
        dealer). Allowed in any phase but OVER: an unfinished deal is abandoned. -> 0."""
        if dealer is None or dealer == -1:
            dealer = self.next_dealer
            if dealer < 0:
                raise self._refuse("who deals first? cut for deal or name the dealer")
        if not (isinstance(dealer, int) and 0 <= dealer < self.players):
            raise self._refuse("no seat %r: seats are 0 to %d" % (dealer, self.players - 1))
        self._ev[0] = _DEAL | dealer
        return self._do(1)

    def starter(self, card=-1, jack=False):
        """The starter is turned: card 0..51, or -1 when it is not entered (jack=True: it is a
        jack). A jack pegs two for his heels to the dealer at once (it may win the game).
        Phase STARTER -> PLAY. Returns the points pegged (0 or 2)."""
        ev = self._ev
        ev[0] = _STARTER
        if card is None or card == -1:
            ev[1] = _JACK_UNSEEN if jack else NO_CARD
        else:
            ev[1] = self._card_arg(card)
            if jack and card >> 2 != JACK:
                raise self._refuse("%s is not a jack" % fmt(card))
        return self._do(2)

    def play(self, card):
        """The seat whose turn it is plays card. Refused if the count would pass 31, the card
        is the starter or already played this deal. Pegs score_play() for it, plus one for
        the last card of the play unless it made 31. Resets the count at 31; the play ends
        after every seat's fourth card (phase -> SHOW). Returns the points pegged."""
        self._ev[0] = self._card_arg(card)
        return self._do(1)

    def go(self):
        """The seat whose turn it is cannot play. When no seat can play any more (all said go
        or have no cards), the player of the last card pegs one for the go, the count resets
        and the seat left of him leads. Refused on a count of 0. Returns the points pegged."""
        self._ev[0] = _GO
        return self._do(1)

    def show(self, hand=None, points=-1):
        """The next hand of the show (pone first, left round to the dealer), then the crib.
        hand: its four cards, scored with the starter by score_hand (the starter must be
        known; cards this seat played must be in it). points: the count entered by hand
        (validated by show_points_ok). Both: a claim; over the true count is refused, under
        it pegs the claim and, with muggins on, lets another side call muggins(). From PLAY
        or STARTER it ends the play first, when no card or every card of it was entered.
        Returns the points pegged."""
        ev = self._ev
        flags = 0
        k = 1
        if hand is not None:
            if len(hand) != 4:
                raise self._refuse("a hand is 4 cards, not %d" % len(hand))
            for i in range(4):
                ev[k] = self._card_arg(hand[i])
                k += 1
            flags |= 1
        if points is not None and points != -1:
            if not (isinstance(points, int) and 0 <= points <= 255):
                raise self._refuse("%r is not a count" % (points,))
            ev[k] = points
            k += 1
            flags |= 2
        if not flags:
            raise self._refuse("show the hand as its cards or its points")
        ev[0] = _SHOW | flags
        return self._do(k)

    def muggins(self, side=-1):
        """Take the points the last show under-claimed (muggins on; right after that show).
        side: the side calling it, default the other side in a two-sided game. -> points."""
        if side is None or side == -1:
            if self.sides != 2:
                raise self._refuse("say which side calls muggins")
            side = 1 - self._mug_side if self._mug_side >= 0 else 0
        self._ev[0] = _MUGGINS | self._side_arg(side)
        return self._do(1)

    def peg(self, side, points):
        """A plain peg of 1..MAX_PLAY_PEG points for side, in any phase but OVER (the play's
        points when cards are not entered, or a correction). Returns points."""
        ev = self._ev
        ev[0] = _PEG | self._side_arg(side)
        if not (isinstance(points, int) and 1 <= points <= MAX_PLAY_PEG):
            raise self._refuse("peg 1 to %d points, not %r (one card never makes more)"
                               % (MAX_PLAY_PEG, points))
        ev[1] = points
        return self._do(2)

    def penalty(self, side, kind=MISDEAL):
        """Two points to side for the other side's misdeal (MISDEAL) or failure to play after
        a go (FAIL_TO_PLAY). Any phase but OVER. Returns 2."""
        if kind not in (MISDEAL, FAIL_TO_PLAY):
            raise self._refuse("no penalty kind %r" % (kind,))
        self._ev[0] = _PENALTY | kind << 3 | self._side_arg(side)
        return self._do(1)

    def next_game(self):
        """After a win: a new game with the same settings; scores to 0, games won kept. The
        first deal follows the cut (cut()) or deal(dealer); deal() alone continues the turn."""
        self._ev[0] = _NEW_GAME
        return self._do(1)

    # --- undo / redo / save -------------------------------------------------------------

    def can_undo(self):
        return self._n > 0

    def can_redo(self):
        return self._top > self._n

    def undo(self):
        """Remove the newest event (kept for redo); the state is as before it. False if the
        journal is empty."""
        n = self._n
        if n == 0:
            return False
        j = self._j
        p = self._ck_at if self._ck_at < n else 0
        while True:  # find where the newest event starts
            q = p + _size(j, p, self.players)
            if q >= n:
                break
            p = q
        if p >= self._ck_at:  # within the current deal: back to its start, then forward
            self._restore(self._ck)
            i = self._ck_at
            while i < p:
                i += self._apply(j, i)
        else:
            self._replay(p)
        self._n = p
        self.error = None
        return True

    def redo(self):
        """Put back the event undo() removed most recently. Any new event drops the redo
        events. False if there is none."""
        n = self._n
        if n >= self._top:
            return False
        self._n = n + self._apply(self._j, n)
        self.error = None
        return True

    def dumps(self):
        """The saved game as bytes: version, settings, journal (with its redo tail), CRC-32.
        About a byte per card played and 2..6 per other event: a 121 game is ~300 bytes."""
        top = self._top
        out = bytearray(_HEADER + top + 4)
        out[0] = VERSION
        out[1:8] = self.settings()
        out[8] = self._n & 255
        out[9] = self._n >> 8
        out[10] = top & 255
        out[11] = top >> 8
        out[_HEADER:_HEADER + top] = memoryview(self._j)[:top]
        crc = _crc32(memoryview(out)[:_HEADER + top])
        k = _HEADER + top
        for i in range(4):
            out[k + i] = crc >> (8 * i) & 255
        return bytes(out)

    def state(self):
        """The derived state as one tuple (tests compare it; allocates)."""
        return (tuple(self.score), tuple(self.back), tuple(self.games), self.phase,
                self.dealer, self.next_dealer, self.turn, self.crib_next, self.count,
                bytes(self.pile), bytes(self.played), self.gone, self.starter_card, self.winner,
                self.result, self.last_side, self.last_points, self.last_why, self.deals,
                self.events, bytes(self._where), self._plays, self._last_player, self._mug,
                self._mug_side, self._mug_ev)

    def journal(self):
        """The committed events as a list of bytes objects, oldest first (for tools)."""
        out = []
        i = 0
        while i < self._n:
            k = _size(self._j, i, self.players)
            out.append(bytes(self._j[i:i + k]))
            i += k
        return out

    # --- internals ----------------------------------------------------------------------

    def _refuse(self, msg):
        self.error = msg
        return ValueError(msg)

    def _card_arg(self, c):
        if not (isinstance(c, int) and 0 <= c < DECK):
            raise self._refuse("not a card: %r" % (c,))
        return c

    def _side_arg(self, side):
        if not (isinstance(side, int) and 0 <= side < self.sides):
            raise self._refuse("no side %r: sides are 0 to %d" % (side, self.sides - 1))
        return side

    def _do(self, size):
        """Apply the event in _ev and journal it (dropping any redo events)."""
        try:
            self._apply(self._ev, 0)
        except ValueError as e:
            self.error = str(e)
            raise
        n = self._n
        if n + size > 0xFFFF:
            self._replay(n)
            raise self._refuse("the journal is full: start a new match")
        j = self._j
        if n + size > len(j):
            j.extend(bytes(len(j)))
        j[n:n + size] = memoryview(self._ev)[:size]
        self._n = self._top = n + size
        self.error = None
        return self._got

    def _reset(self):
        """The state of a fresh game before any event."""
        s = self.sides
        self.score = [0] * s
        self.back = [0] * s
        self.games = [0] * s
        self.phase = DEAL
        self.dealer = -1
        self.next_dealer = -1
        self.winner = -1
        self.result = 0
        self.last_side = -1
        self.last_points = 0
        self.last_why = 0
        self.deals = 0
        self.events = 0
        self._mug = 0
        self._mug_side = -1
        self._mug_ev = -1
        self._got = 0
        self._new_deal()

    def _new_deal(self):
        self.turn = -1
        self.crib_next = False
        self.count = 0
        self.pile = bytearray()
        self.played = bytearray(self.players)
        self.gone = 0
        self.starter_card = -1
        w = self._where
        for i in range(DECK):
            w[i] = 0
        self._plays = 0
        self._last_player = -1

    def _restore(self, t):
        (score, back, games, self.phase, self.dealer, self.next_dealer, self.turn,
         self.crib_next, self.count, pile, played, self.gone, self.starter_card, self.winner,
         self.result, self.last_side, self.last_points, self.last_why, self.deals,
         self.events, where, self._plays, self._last_player, self._mug, self._mug_side,
         self._mug_ev) = t
        self.score = list(score)
        self.back = list(back)
        self.games = list(games)
        self.pile = bytearray(pile)
        self.played = bytearray(played)
        self._where[:] = where

    def _replay(self, upto):
        """Rebuild the state from the journal's first `upto` bytes."""
        self._reset()
        self._checkpoint(0)
        j = self._j
        i = 0
        while i < upto:
            i += self._apply(j, i)

    def _checkpoint(self, at):
        self._ck_at = at
        self._ck = self.state()

    def _peg(self, side, pts, why):
        if pts <= 0:
            return
        self._got = pts
        self.back[side] = self.score[side]
        self.score[side] += pts
        self.last_side = side
        self.last_points = pts
        self.last_why = why
        if self.score[side] >= self.target:
            self._win(side)

    def _win(self, side):
        self.phase = OVER
        self.winner = side
        self.turn = -1
        self.crib_next = False
        best = 0
        for s in range(self.sides):
            if s != side and self.score[s] > best:
                best = self.score[s]
        if self.double_line and best < self.double_line:
            self.result = DOUBLE_SKUNK
            self.games[side] += self.double_games
        elif self.skunk_line and best < self.skunk_line:
            self.result = SKUNK if self.target == 121 else LURCH
            self.games[side] += self.skunk_games
        else:
            self.result = WIN
            self.games[side] += 1

    def _next_active(self, seat):
        """The next seat left of seat (seat itself last) that has cards and has not said go
        in this series, or -1."""
        n = self.players
        for k in range(1, n + 1):
            t = (seat + k) % n
            if self.played[t] < 4 and not self.gone >> t & 1:
                return t
        return -1

    def _end_series(self):
        """Count back to 0; the seat left of the last card's player leads (one with cards)."""
        self.count = 0
        self.pile = bytearray()
        self.gone = 0
        self.turn = self._next_active(self._last_player)

    def _end_play(self):
        self.phase = SHOW
        self.count = 0
        self.pile = bytearray()
        self.gone = 0
        self.turn = self.pone()
        self.crib_next = False

    def _apply(self, b, i):
        """Validate and apply the event at b[i]; return its size. ValueError changes nothing."""
        k = b[i]
        self._got = 0
        phase = self.phase
        if phase == OVER and k != _NEW_GAME:
            raise ValueError("the game is over: undo, or start the next game")
        size = 1
        if k < DECK:
            self._play(k)
        elif k == _GO:
            self._go()
        elif k & 0xF0 == _DEAL:
            d = k & 15
            if d >= self.players:
                raise ValueError("no seat %d" % d)
            self._checkpoint(i if b is self._j else self._n)
            self._new_deal()
            self.dealer = d
            self.next_dealer = (d + 1) % self.players
            self.deals += 1
            self.phase = STARTER
        elif k == _STARTER:
            size = 2
            self._starter(b[i + 1])
        elif k & 0xF0 == _SHOW:
            size = 1 + (4 if k & 1 else 0) + (1 if k & 2 else 0)
            self._show(b, i + 1, k & 1, b[i + size - 1] if k & 2 else -1)
        elif k & 0xF0 == _PEG:
            size = 2
            side = k & 15
            pts = b[i + 1]
            if side >= self.sides or not 1 <= pts <= MAX_PLAY_PEG:
                raise ValueError("bad peg %d for side %d" % (pts, side))
            self._peg(side, pts, WHY_PEG)
        elif k & 0xF0 == _PENALTY:
            side = k & 7
            if side >= self.sides:
                raise ValueError("no side %d" % side)
            self._peg(side, 2, WHY_PENALTY)
        elif k & 0xF0 == _MUGGINS:
            self._muggins(k & 15)
        elif k == _CUT:
            size = 1 + self.players
            self._cut(b, i + 1)
        elif k == _NEW_GAME:
            if phase != OVER:
                raise ValueError("the game is not over yet")
            self._checkpoint(i if b is self._j else self._n)
            games = self.games
            nd = self.next_dealer
            events = self.events
            self._reset()
            self.games = games
            self.next_dealer = nd
            self.events = events
        else:
            raise ValueError("unknown event %d" % k)
        self.events += 1
        return size

    def _cut(self, b, i):
        if self.phase != DEAL or self.deals:
            raise ValueError("cut for deal only before the first deal")
        n = self.players
        low = 13
        for s in range(n):
            c = b[i + s]
            if c >= DECK:
                raise ValueError("not a card: %d" % c)
            for t in range(s):
                if b[i + t] == c:
                    raise ValueError("%s is cut twice" % fmt(c))
            if c >> 2 < low:
                low = c >> 2
        dealer = -1
        for s in range(n):
            if b[i + s] >> 2 == low:
                if dealer >= 0:
                    raise ValueError("seats %d and %d tie for low: cut again" % (dealer, s))
                dealer = s
        self.next_dealer = dealer

    def _starter(self, c):
        if self.phase != STARTER:
            raise ValueError("the starter is turned after the deal, before the play")
        if c != NO_CARD and c != _JACK_UNSEEN:
            if c >= DECK:
                raise ValueError("not a card: %d" % c)
            if self._where[c]:
                raise ValueError("%s is already in play" % fmt(c))
            self.starter_card = c
            self._where[c] = _AT_STARTER
        self.phase = PLAY
        self.turn = self.pone()
        if c == _JACK_UNSEEN or (c < DECK and c >> 2 == JACK):
            self._peg(self.dealer % self.sides, 2, WHY_HEELS)

    def _play(self, c):
        if self.phase != PLAY:
            raise ValueError("no play now: " + ("turn the starter first" if self.phase ==
                             STARTER else "the play is over"))
        w = self._where[c]
        if w:
            if w == _AT_STARTER:
                raise ValueError("%s is the starter" % fmt(c))
            raise ValueError("%s was already played" % fmt(c))
        if self.count + PIP[c] > 31:
            raise ValueError("%s would make the count %d, over 31: say go"
                             % (fmt(c), self.count + PIP[c]))
        seat = self.turn
        self.pile.append(c)
        self.count += PIP[c]
        self._where[c] = seat + 1
        self.played[seat] += 1
        self._plays += 1
        self._last_player = seat
        pts = score_play(self.pile)
        last = self._plays == 4 * self.players
        if self.count == 31:
            self._end_series()
        elif last:
            pts += 1  # one for the last card
        else:
            nxt = self._next_active(seat)
            if nxt < 0:  # he has no cards left and nobody else can go on: one for the go
                pts += 1
                self._end_series()
            else:
                self.turn = nxt
        if last:
            self._end_play()
        self._peg(seat % self.sides, pts, WHY_PLAY)

    def _go(self):
        if self.phase != PLAY:
            raise ValueError("no go now: not in the play")
        if self.count == 0:
            raise ValueError("nobody says go on a count of 0: lead a card")
        self.gone |= 1 << self.turn
        nxt = self._next_active(self.turn)
        if nxt < 0:  # nobody can play: one for the go to the last card's player
            last = self._last_player
            self._end_series()
            self._peg(last % self.sides, 1, WHY_GO)
        else:
            self.turn = nxt

    def _show(self, b, i, has_cards, claim):
        phase = self.phase
        if phase == PLAY and self._plays:
            raise ValueError("the play is not over: %d cards to play"
                             % (4 * self.players - self._plays))
        if phase not in (SHOW, PLAY, STARTER):
            raise ValueError("no hand to show now: deal first")
        if phase == SHOW:
            seat = self.turn
            crib = self.crib_next
        else:
            seat = self.pone()
            crib = False
        w = self._where
        mug = 0
        if has_cards:
            if self.starter_card < 0:
                raise ValueError("enter the starter to score the cards (or enter the points)")
            mine = 0
            for a in range(4):
                c = b[i + a]
                if c >= DECK:
                    raise ValueError("not a card: %d" % c)
                for t in range(a):
                    if b[i + t] == c:
                        raise ValueError("%s is in the hand twice" % fmt(c))
                at = w[c]
                if at == seat + 1 and not crib:
                    mine += 1
                elif at == _AT_STARTER:
                    raise ValueError("%s is the starter" % fmt(c))
                elif 1 <= at <= 6:
                    raise ValueError("%s was played by seat %d" % (fmt(c), at - 1))
                elif at:
                    raise ValueError("%s was shown already" % fmt(c))
            if not crib and mine != self.played[seat]:
                raise ValueError("seat %d played %d cards: the hand must hold them"
                                 % (seat, self.played[seat]))
            hand = bytes(b[i:i + 4])
            pts = score_hand(hand, self.starter_card, crib)
            if claim >= 0:
                if claim > pts:
                    raise ValueError("%d claimed, but the %s counts %d"
                                     % (claim, "crib" if crib else "hand", pts))
                mug = pts - claim
                pts = claim
        else:
            if not show_points_ok(claim):
                raise ValueError("no hand or crib counts %d" % claim if claim <= HAND_MAX else
                                 "a hand or crib counts 0 to 29, not %d" % claim)
            pts = claim
        # valid: apply
        if phase != SHOW:
            self._end_play()
        if has_cards:
            for a in range(4):
                w[b[i + a]] = _AT_CRIB if crib else _AT_HAND + seat
        if crib:
            self.phase = DEAL
            self.turn = -1
            self.crib_next = False
        elif seat == self.dealer:
            self.crib_next = True
        else:
            self.turn = (seat + 1) % self.players
        if self.muggins_on and mug:
            self._mug = mug
            self._mug_side = seat % self.sides
            self._mug_ev = self.events
        self._peg(seat % self.sides, pts, WHY_CRIB if crib else WHY_HAND)

    def _muggins(self, side):
        if not self.muggins_on:
            raise ValueError("muggins is off in this game")
        if self._mug <= 0 or self._mug_ev != self.events - 1:
            raise ValueError("no overlooked points to take: muggins right after a short count")
        if side >= self.sides or side == self._mug_side:
            raise ValueError("side %d cannot take its own overlooked points" % side)
        pts = self._mug
        self._mug = 0
        self._peg(side, pts, WHY_MUGGINS)


def _size(b, i, players):
    """Bytes in the journal event at b[i]."""
    k = b[i]
    if k < DECK or k == _GO or k == _NEW_GAME:
        return 1
    h = k & 0xF0
    if h == _DEAL or h == _PENALTY or h == _MUGGINS:
        return 1
    if k == _STARTER or h == _PEG:
        return 2
    if h == _SHOW:
        return 1 + (4 if k & 1 else 0) + (1 if k & 2 else 0)
    if k == _CUT:
        return 1 + players
    raise ValueError("unknown event %d" % k)


def loads(data):
    """A Match from dumps() bytes. ValueError when the data is truncated, corrupt (CRC), of
    another version, or its journal does not replay."""
    n = len(data)
    if n < _HEADER + 4:
        raise ValueError("saved game truncated: %d bytes" % n)
    if data[0] != VERSION:
        raise ValueError("saved game version %d, this board reads %d" % (data[0], VERSION))
    top = data[10] | data[11] << 8
    committed = data[8] | data[9] << 8
    if n != _HEADER + top + 4 or committed > top:
        raise ValueError("saved game truncated or padded: %d bytes" % n)
    crc = data[n - 4] | data[n - 3] << 8 | data[n - 2] << 16 | data[n - 1] << 24
    if _crc32(memoryview(data)[:n - 4]) != crc:
        raise ValueError("saved game corrupt: checksum mismatch")
    s = data[1:8]
    m = Match(players=s[0], target=s[1], muggins=bool(s[2] & 1), skunk_line=s[3],
              skunk_games=s[4], double_line=s[5], double_games=s[6])
    j = bytearray(max(256, top + 64))
    j[:top] = memoryview(data)[_HEADER:_HEADER + top]
    m._j = j
    m._top = top
    try:
        i = 0
        whole = committed == 0
        while i < top:  # every event, redo ones too, must be whole
            i += _size(j, i, m.players)
            if i == committed:
                whole = True
        if i != top or not whole:
            raise ValueError("an event is cut short")
        m._replay(committed)
    except (ValueError, IndexError) as e:
        raise ValueError("saved game does not replay: %s" % e)
    m._n = committed
    return m
