"""The journal's events: their byte codes and sizes, and how each one changes a Match.

match.py holds the Match class and its public calls; the functions here are its private
methods (apply() bound in the class body as _apply; the handlers called as functions, not
bound: a name in the class is one more interned for good). They are split out so that each module
compiles within a small heap. Each handler validates everything first and only then changes
the state, so a refused event (ValueError) leaves the game exactly as it was.

A journal is a bytearray of events; a played card is its own byte (0..51), the other events
start with a code byte >= 0x40 whose low bits carry a seat or side, some with payload bytes.
"""

from .cards import JACK, DECK, fmt

from micropython import const

VERSION = const(2)  # first byte of dumps(); loads() reads this and version 1 (saved.py)

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

# Match modes (Match.mode): what Match.games counts, and when a match ends (match.py).
SINGLE = const(0)     # games won, no match end: a skunk counts skunk_games, ...
BEST_OF_3 = const(1)  # the same, and the first side to 2 games wins the match
BEST_OF_5 = const(2)  # ... to 3 games
ACC = const(3)        # ACC game points: a win 2, a skunk (or lurch) 3, no double skunk

# Who deals a game after the first (Match(deal=...); outside ACC points, whose rule 1.5 has the
# loser deal whatever this says): 0 the deal goes on round the table (the saves of earlier
# firmware), 1 the players cut for deal (sheets 000-004: next_dealer -1, who deals?), 2 the
# loser (with 3+ sides, the first losing seat in turn). (Private consts where used, _DEAL_*:
# a const costs a board no name.)

# Why the newest points were pegged (Match.last_why).
WHY_PLAY = const(1)     # a card in the play: 15, 31, pairs, runs (+1 when also the last card)
WHY_GO = const(2)       # one for the go (or the last card)
WHY_HEELS = const(3)    # two for his heels
WHY_HAND = const(4)     # a hand in the show
WHY_CRIB = const(5)     # the crib
WHY_PEG = const(6)      # a plain peg entered by hand
WHY_PENALTY = const(7)  # misdeal / failure to play: two to the other side
WHY_MUGGINS = const(8)  # points the shower overlooked, taken by another side
# (9: five-card cribbage's three for last, the first pone's at the first deal; private,
# _WHY_LAST where used: a name more in this module is one more in every board's RAM)

# Penalty kinds (Match.penalty).
MISDEAL = const(0)
FAIL_TO_PLAY = const(1)
FALSE_GO = const(2)  # journalled as E_DEAD after the proving card is taken back

MAX_DEALS = const(100)  # in one game (a real one takes 5-30): bounds the deal records
MAX_PLAY_PEG = const(15)  # the most one card can make in the play: 12 + fifteen 2 + go 1
HAND_MAX = const(29)
NO_CARD = const(255)  # starter not entered


# Journal event codes. A played card is its own byte (0..51): the commonest event is 1 byte.
E_GO = const(0x40)        # 1 byte
E_DEAL = const(0x50)      # | dealer seat; 1 byte
E_STARTER = const(0x60)   # + card (0..51, JACK_UNSEEN, NO_CARD); 2 bytes
E_SHOW = const(0x70)      # | 1: four cards follow, | 2: points follow; 1..6 bytes
E_PEG = const(0x80)       # | side, + points; 2 bytes
E_PENALTY = const(0x90)   # | kind << 3 | side; 1 byte
E_MUGGINS = const(0xA0)   # | side; 1 byte
E_CUT = const(0xB0)       # + one card per seat; 1 + players bytes
E_NEW_GAME = const(0xC0)  # 1 byte: version 1 saves only (next_game() now ends the journal)
E_DEAD = const(0xD0)      # | side (| 8: a false go proved by the card just played, which is
#                           taken back), + seat: two to side, seat's unplayed cards dead; 2 bytes
JACK_UNSEEN = const(254)

# Where a card is known to be this deal (Match._where[card]): 0 unknown, 1..6 played by seat
# s - 1, AT_STARTER, AT_HAND + seat (shown in a hand), AT_CRIB.
AT_STARTER = const(7)
AT_HAND = const(8)
AT_CRIB = const(14)
# After its DECK bytes _where holds (pegging.py's _GO_AT, _DEAD) each seat's lowest count it
# said go at this deal (0: none), then a bit per seat whose cards are dead, then (RULES, the
# one byte a new deal keeps) the game's rules the settings byte carries: who deals the next
# game (0-2, above), | ALL_DEAD: 8 bytes more (no more attributes on the Match: its instance dict
# stays the size it was).
# (_RULES = 59 and _ALL_DEAD = 4 where used: a private const costs a board no name. ALL_DEAD:
# a failure to play kills every card the offender has left, as saves of earlier firmware were
# played; else only "those cards" that fitted, sheet 000)


# The refusals of this module, one a line: say(_NO, k, args) is line k % args. One string for
# them all, not a string object each: on a board every str object costs its header and a
# rounded-up block besides its text (~50 bytes more per message on this 64-bit host).
_NO = """the game is over: undo, or start the next game
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
_OVER = const(0)
_SEAT = const(1)
_BAD_PEG = const(2)
_SIDE = const(3)
_UNKNOWN = const(4)
_DEALS = const(5)
_CUT_LATE = const(6)
_NOT_CARD = const(7)
_CUT_TWICE = const(8)
_TIE = const(9)
_STARTER_WHEN = const(10)
_IN_PLAY = const(11)
_MUGGINS_OFF = const(12)
_NO_MUGGINS = const(13)
_OWN_MUGGINS = const(14)
_WHY_LAST = const(9)  # (the page says "last": board/web.py)


def say(table, k, args=()):
    """Line k of table (a module's refusals, one a line), % args: the text of a ValueError."""
    i = 0
    while k:
        i = table.find("\n", i) + 1
        k -= 1
    j = table.find("\n", i)
    return table[i:j if j >= 0 else len(table)] % args


def show_points_ok(points):
    """True if a hand or crib can count this many points (0..29 but never 19, 25, 26, 27)."""
    return 0 <= points <= HAND_MAX and points != 19 and not 25 <= points <= 27


def peg(self, side, pts, why):
    # Move side's pegs pts forward (the back peg to the old score); the first side to reach the
    # target wins at once, whatever the phase.
    if pts <= 0:
        return
    self.got = pts
    self.back[side] = self.score[side]
    self.score[side] += pts
    self.last_side = side
    self.last_points = pts
    self.last_why = why
    if self.score[side] < self.target:
        return
    # The game is over: the result counts by the best losing score against the skunk lines.
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
        self.games[side] += 2 if self.mode == ACC else 1


def apply(self, b, i):
    """Validate and apply the event at b[i]; return its size. ValueError changes nothing."""
    k = b[i]
    self.got = 0
    phase = self.phase
    if phase == OVER and not (k & 0xF8 == E_DEAD | 8 and self._fg >= 0
                              and self._fg >> 3 == self.events - 1):
        raise ValueError(say(_NO, _OVER))  # (but a false go its card's win proved: pegging.dead)
    n = size(b, i, self.players)  # an unknown code is refused here
    if k < DECK:
        pegging.play(self, k)
    elif k == E_GO:
        pegging.go(self)
    elif k & 0xF0 == E_DEAL:
        d = k & 15
        if d >= self.players:
            raise ValueError(say(_NO, _SEAT, (d,)))
        if self.deals >= MAX_DEALS:
            raise ValueError(say(_NO, _DEALS, (MAX_DEALS,)))
        journal.checkpoint(self, self.deals, i if b is self._j else self._n)  # (journal.py)
        self._new_deal()
        self.dealer = d
        self.next_dealer = (d + 1) % self.players
        self.deals += 1
        self.phase = STARTER
        if self.deals == 1 and self._where[59] & 8:  # (_RULES, _FIVE: match.py)
            # five-card cribbage: the pone takes three for last at the start of the game
            peg(self, (d + 1) % self.players % self.sides, 3, _WHY_LAST)
    elif k == E_STARTER:
        starter(self, b[i + 1])
    elif k & 0xF0 == E_SHOW:
        pegging.show(self, b, i + 1, k & 1, b[i + n - 1] if k & 2 else -1)
    elif k & 0xF0 == E_PEG:
        side = k & 15
        pts = b[i + 1]
        if side >= self.sides or not 1 <= pts <= MAX_PLAY_PEG:
            raise ValueError(say(_NO, _BAD_PEG, (pts, side)))
        peg(self, side, pts, WHY_PEG)
    elif k & 0xF0 == E_PENALTY:
        side = k & 7
        if side >= self.sides:
            raise ValueError(say(_NO, _SIDE, (side,)))
        peg(self, side, 2, WHY_PENALTY)
    elif k & 0xF0 == E_DEAD:
        # (8: a false go, the card before it is taken back: where it is in the journal)
        pegging.dead(self, k & 7, b[i + 1], (i if b is self._j else self._n) - 1 if k & 8 else -1)
        if self.phase != OVER:  # (a go point the dead cards brought may have won)
            peg(self, k & 7, 2, WHY_PENALTY)
    elif k & 0xF0 == E_MUGGINS:
        muggins(self, k & 15)
    elif k == E_CUT:
        cut(self, b, i + 1)
    else:
        raise ValueError(say(_NO, _UNKNOWN, (k,)))
    self.events += 1
    return n


def cut(self, b, i):
    if self.phase != DEAL or self.deals:
        raise ValueError(say(_NO, _CUT_LATE))
    n = self.players
    low = 13
    for s in range(n):
        c = b[i + s]
        if c >= DECK:
            raise ValueError(say(_NO, _NOT_CARD, (c,)))
        for t in range(s):
            if b[i + t] == c:
                raise ValueError(say(_NO, _CUT_TWICE, (fmt(c),)))
        if c >> 2 < low:
            low = c >> 2
    dealer = -1
    for s in range(n):
        if b[i + s] >> 2 == low:
            if dealer >= 0:
                raise ValueError(say(_NO, _TIE, (dealer, s)))
            dealer = s
    self.next_dealer = dealer


def starter(self, c):
    if self.phase != STARTER:
        raise ValueError(say(_NO, _STARTER_WHEN))
    if c != NO_CARD and c != JACK_UNSEEN:
        if c >= DECK:
            raise ValueError(say(_NO, _NOT_CARD, (c,)))
        if self._where[c]:
            raise ValueError(say(_NO, _IN_PLAY, (fmt(c),)))
        self.starter_card = c
        self._where[c] = AT_STARTER
    self.phase = PLAY
    self.turn = self.pone()
    if c == JACK_UNSEEN or (c < DECK and c >> 2 == JACK):
        peg(self, self.dealer % self.sides, 2, WHY_HEELS)


def muggins(self, side):
    if not self.muggins_on:
        raise ValueError(say(_NO, _MUGGINS_OFF))
    if not self.overlooked():  # (right after a show that claimed short)
        raise ValueError(say(_NO, _NO_MUGGINS))
    if side >= self.sides or side == self._mug_ev & 7:  # (its low bits: the show's side)
        raise ValueError(say(_NO, _OWN_MUGGINS, (side,)))
    pts = self._mug
    self._mug = 0
    peg(self, side, pts, WHY_MUGGINS)


def size(b, i, players):
    """Bytes in the journal event at b[i] (the one place event sizes are known)."""
    k = b[i]
    if k < DECK or k == E_GO or k == E_NEW_GAME:
        return 1
    h = k & 0xF0
    if h == E_DEAL or h == E_PENALTY or h == E_MUGGINS:
        return 1
    if k == E_STARTER or h == E_PEG or h == E_DEAD:
        return 2
    if h == E_SHOW:
        return 1 + (4 if k & 1 else 0) + (1 if k & 2 else 0)
    if k == E_CUT:
        return 1 + players
    raise ValueError(say(_NO, _UNKNOWN, (k,)))


def events_whole(j, start, end, top, players):
    """True if events from start run exactly to end, passing `committed`-like mark top (the
    save formats' check of a journal: saved.py and saved1.py)."""
    i = start
    seen = top == start
    while i < end:
        i += size(j, i, players)
        if i == top:
            seen = True
    return i == end and seen


# The handlers of the play and the show, and the deal records: they import this module's names
# above, so they come last (a module importing one of them first still gets these names).
from . import journal, pegging  # noqa: E402
