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


def show_points_ok(points):
    """True if a hand or crib can count this many points (0..29 but never 19, 25, 26, 27)."""
    raise NotImplementedError


class Match:
    """One game (then the next) between `players` seats; the derived state is public:

    players, sides, target, muggins        settings (read-only)
    score[side], back[side]                front peg (the score) and back peg (previous score)
    games[side]                            games won, skunks counting their game values
    phase                                  DEAL, STARTER, PLAY, SHOW or OVER
    dealer                                 seat dealing this deal (-1 before the first deal)
    turn                                   PLAY: seat to play; SHOW: seat to show; else -1
    crib_next                              SHOW: True when the crib is the next to show
    count, pile                            running count and the cards of this series (bytearray)
    played[seat]                           cards each seat has played this deal (0..4)
    gone                                   bit per seat that said go in this series
    starter                                the starter card, or -1 (not turned / not entered)
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
        raise NotImplementedError

    # --- seats and sides ---------------------------------------------------------------

    def side_of(self, seat):
        """The side (lane) a seat pegs for."""
        return seat % self.sides

    def pone(self):
        """The seat left of the dealer (leads the play, shows first), or -1 before a deal."""
        raise NotImplementedError

    # --- events: each validates, applies, journals; returns the points it pegged -------

    def cut(self, cards):
        """Cut for first deal: one card per seat in seat order; the lowest rank deals (ace
        low). A tie for lowest raises ValueError (those seats cut again). Only before the
        first deal of a game. Returns the dealing seat."""
        raise NotImplementedError

    def deal(self, dealer=-1):
        """The cards are dealt. dealer -1: the next in turn (the cut's winner, then left of
        the last dealer); a seat number names him (first deal, or a redeal by the same
        dealer). Allowed in any phase but OVER: an unfinished deal is abandoned. -> 0."""
        raise NotImplementedError

    def starter(self, card=-1, jack=False):
        """The starter is turned: card 0..51, or -1 when it is not entered (jack=True: it is a
        jack). A jack pegs two for his heels to the dealer at once (it may win the game).
        Phase STARTER -> PLAY. Returns the points pegged (0 or 2)."""
        raise NotImplementedError

    def play(self, card):
        """The seat whose turn it is plays card. Refused if the count would pass 31, the card
        is the starter or already played this deal. Pegs score_play() for it, plus one for
        the last card of the play unless it made 31. Resets the count at 31; the play ends
        after every seat's fourth card (phase -> SHOW). Returns the points pegged."""
        raise NotImplementedError

    def go(self):
        """The seat whose turn it is cannot play. When no seat can play any more (all said go
        or have no cards), the player of the last card pegs one for the go, the count resets
        and the seat left of him leads. Refused on a count of 0. Returns the points pegged."""
        raise NotImplementedError

    def show(self, hand=None, points=-1):
        """The next hand of the show (pone first, left round to the dealer), then the crib.
        hand: its four cards, scored with the starter by score_hand (the starter must be
        known; cards this seat played must be in it). points: the count entered by hand
        (validated by show_points_ok). Both: a claim; over the true count is refused, under
        it pegs the claim and, with muggins on, lets another side call muggins(). From PLAY
        or STARTER it ends the play first, when no card or every card of it was entered.
        Returns the points pegged."""
        raise NotImplementedError

    def muggins(self, side=-1):
        """Take the points the last show under-claimed (muggins on; right after that show).
        side: the side calling it, default the other side in a two-sided game. -> points."""
        raise NotImplementedError

    def peg(self, side, points):
        """A plain peg of 1..MAX_PLAY_PEG points for side, in any phase but OVER (the play's
        points when cards are not entered, or a correction). Returns points."""
        raise NotImplementedError

    def penalty(self, side, kind=MISDEAL):
        """Two points to side for the other side's misdeal (MISDEAL) or failure to play after
        a go (FAIL_TO_PLAY). Any phase but OVER. Returns 2."""
        raise NotImplementedError

    def next_game(self):
        """After a win: a new game with the same settings; scores to 0, games won kept. The
        first deal follows the cut (cut()) or deal(dealer); deal() alone continues the turn."""
        raise NotImplementedError

    # --- undo / redo / save -------------------------------------------------------------

    def can_undo(self):
        raise NotImplementedError

    def can_redo(self):
        raise NotImplementedError

    def undo(self):
        """Remove the newest event (kept for redo); the state is as before it. False if the
        journal is empty."""
        raise NotImplementedError

    def redo(self):
        """Put back the event undo() removed most recently. Any new event drops the redo
        events. False if there is none."""
        raise NotImplementedError

    def dumps(self):
        """The saved game as bytes: version, settings, journal (with its redo tail), CRC-32.
        About a byte per card played and 2..6 per other event: a 121 game is ~300 bytes."""
        raise NotImplementedError

    def state(self):
        """The derived state as one tuple (tests compare it; allocates)."""
        raise NotImplementedError


def loads(data):
    """A Match from dumps() bytes. ValueError when the data is truncated, corrupt (CRC), of
    another version, or its journal does not replay."""
    raise NotImplementedError
