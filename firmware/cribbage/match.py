"""The match engine: a game of cribbage as a journal of small events, with undo and saves."""

# The match engine: one game of cribbage as an append-only journal of small events.
# Its parts, each one job: the Match (here: settings, the entries players make, undo and
# redo, saves) is a Rules (rules.py: the state and how each event changes it, the play's and
# the show's counts by pegging.py's pure functions) that keeps a Journal (journal.py: the
# events as bytes); game.py turns it into bytes (dump), loadgame.py back (loads() then restore()).
#
# Every entry a player confirms is one event (a deal, the starter, a card played, a go, a hand
# shown, a plain peg, ...). Each event is validated and applied to the derived state, which the
# renderer reads as plain attributes (no calls, no allocation). undo() removes the newest event,
# redo() puts it back, without limit within the game and also after it is won (one deal of
# replay at most). next_game() ends the journal: it holds one game, whatever the
# number played. dumps() gives compact bytes (version byte, settings, the game's start,
# journal, CRC-32: game.py) that a board saves after every event; loads() checks and replays
# them. A refused event raises ValueError saying why and changes nothing (the message is also
# kept in `error` for the display); any other exception mid-way (a MemoryError) leaves the
# event out of both the state and the journal.
#
# Cards or points: the board sees no cards unless players type them, so every step takes either.
# The play is entered card by card (play(card) / go()), then the engine keeps the count, whose
# turn it is and scores each card, the go and the last card itself; or its points are pegged by
# hand with peg(side, points). A hand is shown as its four cards (scored by score.score_hand, with
# the starter) or as its points (validated: never 19, 25, 26, 27 or over 29). The host simulator
# deals real cards (tools/host/dealer/deal.py) and feeds them through the same calls.
#
# Seats are 0..players-1 going left (clockwise); the seat left of the dealer is the pone. A side
# pegs one lane: side = seat % sides (2 players: 2 sides; 3: 3; 4: two partnerships, seats 0+2
# and 1+3; 5: 5 sides; 6: two teams of three, alternate seats 0+2+4 and 1+3+5, as sheet 002:
# "played with three partners. Each alternate player is a partner. Just two people can peg".
# A game saved before that rule, three partnerships 0+3, 1+4, 2+5, loads as it was played:
# its settings byte 2 lacks the teams bit, 2).
#
# Penalties (sheet 000) and what the engine proves itself: a go said while holding a card
# that fitted is a false go as soon as that card is played (false_go() names the seat, until
# the next event, even when the card's points won the game: the win waits for the players);
# penalty(side, FALSE_GO) then takes the card back (and its win) and makes it dead with every
# card of his that fitted at his go ("those cards": the rest he plays as they fit), two to
# side; penalty(side, FAIL_TO_PLAY, seat) does the same for a failure the players saw. Dead
# cards are out of the play (play(dead card) is refused; with only dead cards left he says go,
# at any count) and are shown with the hand (dead() says whose they are). A game saved by
# earlier firmware kills every card he has left, as it was played (its settings lack the bit).
# Each false go or failure to play is its own penalty (sheet 000 sets no limit): a seat whose
# cards are dead pays again for a go since where a live card fitted. When the card taken back
# was his last, the play goes on at once: its go or last card's point before the two (rules.md).
# Calls the board never makes out of phase are refused, nothing changed: deal() before the
# crib is shown, a penalty before any deal.
#
# Usage on a board:
#     m = Match(players=2)            # or loads(saved_bytes)
#     m.deal(dealer=0)                # or m.cut([c0, c1]) then m.deal()
#     m.starter(card)                 # or m.starter() / m.starter(jack=True) when not entered
#     m.play(card); m.go(); ...       # or m.peg(side, points) for each score in the play
#     m.show(hand=[...]) / m.show(points=n)   # pone ... dealer, then the crib
#     save(m.dumps())
# No asyncio, no machine, no clock, no random in here: deal.shuffle() takes the random source.
#
# (This long text is a comment, not the module's docstring: MicroPython compiles comments for
# free, and a long docstring is a string object during compilation, which a 96 KB heap notices.
# The calls below keep short docstrings.)

from . import play  # noqa: F401  (first: the biggest to compile, on the emptiest heap)
from .game import Game
from . import cards
from . import score  # noqa: F401  (match.score: the board's way to score.hand)
from . import events
# The play's phases as the match's own (the key's path reads them: match.PLAY, match.OVER);
# every other constant of events.py, the Match's code reads as events.X, and a board or a
# tool as the match's (match.WHY_HEELS, match.E_NEW_GAME...), found there by __getattr__
# (below): one table, not a copy in the match's globals (~22 bytes each on a 64-bit port)
from .events import DEAL, STARTER, PLAY, SHOW, OVER  # noqa: F401  (the phases: match.PLAY)

from micropython import const

# The refusals, one a line (see events.say: one string, not an object per message).
_NO = """cut one card per seat: %d cards for %d seats
who deals first? cut for deal or name the dealer
no seat %r: seats are 0 to %d
%s is not a jack
a hand is 4 cards, not %d
%r is not a count
show the hand as its cards or its points
say which side calls muggins
peg 1 to %d points, not %r (one card never makes more)
no penalty kind %r
not a card: %r
no side %r: sides are 0 to %d
no deal now: show the hands and the crib first
no penalty before the first deal
in five-card cribbage a hand is 3 cards"""
_CUT = const(0)
_WHO_DEALS = const(1)
_SEAT = const(2)
_JACK = const(3)
_HAND = const(4)
_COUNT = const(5)
_SHOW = const(6)
_WHICH = const(7)
_PEG = const(8)
_PENALTY = const(9)
_CARD = const(10)
_SIDE = const(11)
_DEAL_ON = const(12)
_NO_DEAL_YET = const(13)
_HAND3 = const(14)


class Match(Game):
    _ev: bytearray
    # One game (then the next) between `players` seats: its settings, and the entries
    # players make; the derived state is public (rules.py says each field).

    def __init__(self, players=2, target=121, muggins=False, skunk_line=-1, skunk_games=2,
                 double_line=-1, double_games=3, pairs=False, mode=events.SINGLE, deal=1,
                 cards=6, fitted=True):
        # A new game. players 2..6; target 121 or 61; muggins on/off. skunk_line: a loser
        # under it makes the win count skunk_games (default 91 in the 121 game; in the 61 game
        # it is the lurch, default 31); double_line: under it, double_games (default 61 in the
        # 121 game, none in the 61 game). 0 turns a line off. pairs: six players as three
        # partnerships (a game saved before sheet 002's two teams). mode: SINGLE (games won
        # add up for ever), BEST_OF_3, BEST_OF_5 (the first side to 2 or 3 games wins the match:
        # next_game() then starts a new one), ACC (tournament game points: 2 for a win, 3 for a
        # skunk or lurch; no double skunk: it is a skunk). deal: who deals the games after
        # the first (1, the default: the players cut for deal, as the sheets; 2: the loser; 0:
        # on round the table, as earlier firmware did; ACC: the loser, whatever it says).
        # ValueError for bad settings. cards: 6, or 5 for five-card cribbage (Hoyle): two
        # players, 61 holes, three cards each in the play and the show, one series of play,
        # three for last to the first pone. fitted: a failure to play kills only the cards
        # that fitted at his go (sheet 000); False as a game saved by earlier firmware was
        # played (every card).
        # (checked and set by cribbage/loadgame.py's match(), loaded for it and let go after
        # it: board/fault.py's table; by a string, no name more interned)
        import sys

        name = "cribbage.loadgame"
        __import__(name)
        sys.modules[name].match(self, players, target, muggins, skunk_line, skunk_games,
                                double_line, double_games, pairs, mode, deal, cards)
        self._ev = None  # type: ignore[assignment]  # (first: the instance dict grows to its
        # full size before the buffers split the heap)
        Game.__init__(self, deal, cards, fitted)
        self._ev = bytearray(8)  # scratch for the event being entered

    # --- events: each validates, applies, journals; returns the points it pegged -------

    def cut(self, cards):
        # Cut for first deal: one card per seat in seat order; the lowest rank deals (ace
        # low). A tie for lowest raises ValueError (those seats cut again). Only before the
        # first deal of a game. Returns the dealing seat.
        n = self.players
        if len(cards) != n:
            raise self._refuse(_CUT, (len(cards), n))
        ev = self._ev
        ev[0] = events.E_CUT
        for i in range(n):
            ev[1 + i] = self._card_arg(cards[i])
        self._do(1 + n)
        return self.next_dealer

    def deal(self, dealer=-1):
        # The cards are dealt, at the game's start or once the crib is shown (a redeal: undo
        # the deal). dealer -1: the next in turn (the cut's winner, then left of the last
        # dealer); a seat number names him (the first deal). -> 0.
        if self.phase == STARTER or self.phase == PLAY or self.phase == SHOW:
            raise self._refuse(_DEAL_ON)
        if dealer is None or dealer == -1:
            dealer = self.next_dealer
            if dealer < 0:
                raise self._refuse(_WHO_DEALS)
        if not (isinstance(dealer, int) and 0 <= dealer < self.players):
            raise self._refuse(_SEAT, (dealer, self.players - 1))
        self._ev[0] = events.E_DEAL | dealer
        return self._do(1)

    def starter(self, card=-1, jack=False):
        # The starter is turned: card 0..51, or -1 when it is not entered (jack=True: it is a
        # jack). A jack pegs two for his heels to the dealer at once (it may win the game).
        # Phase STARTER -> PLAY. Returns the points pegged (0 or 2).
        ev = self._ev
        ev[0] = events.E_STARTER
        if card is None or card == -1:
            ev[1] = events.JACK_UNSEEN if jack else events.NO_CARD
        else:
            ev[1] = self._card_arg(card)
            if jack and card >> 2 != cards.JACK:
                raise self._refuse(_JACK, (cards.fmt(card),))
        return self._do(2)

    def play(self, card):
        # The seat whose turn it is plays card. Refused if the count would pass 31, the card
        # is the starter or already played this deal. Pegs score_play() for it, plus one for
        # the last card of the play unless it made 31. Resets the count at 31; the play ends
        # after every seat's fourth card (phase -> SHOW). Returns the points pegged.
        self._ev[0] = self._card_arg(card)
        return self._do(1)

    def go(self):
        # The seat whose turn it is cannot play. When no seat can play any more (all said go
        # or have no cards), the player of the last card pegs one for the go, the count resets
        # and the seat left of him leads. Refused on a count of 0. Returns the points pegged.
        self._ev[0] = events.E_GO
        return self._do(1)

    def show(self, hand=None, points=-1):
        # The next hand of the show (pone first, left round to the dealer), then the crib.
        # hand: its four cards, scored with the starter by score_hand (the starter must be
        # known; cards this seat played must be in it). points: the count entered by hand
        # (validated by show_points_ok). Both: a claim; over the true count is refused, under
        # it pegs the claim and, with muggins on, lets another side call muggins(). From PLAY
        # or STARTER it ends the play first, when no card or every card of it was entered.
        # Returns the points pegged.
        ev = self._ev
        flags = 0
        k = 1
        if hand is not None:
            n = 3 if self.cards() == 5 and not self.crib_next else 4
            if len(hand) != n:
                raise self._refuse(_HAND, (len(hand),)) if n == 4 else self._refuse(_HAND3)
            for i in range(n):
                ev[k] = self._card_arg(hand[i])
                k += 1
            if n == 3:  # (journalled as four bytes, the last NO_CARD: events.size is unchanged)
                ev[k] = events.NO_CARD
                k += 1
            flags |= 1
        if points is not None and points != -1:
            if not (isinstance(points, int) and 0 <= points <= 255):
                raise self._refuse(_COUNT, (points,))
            ev[k] = points
            k += 1
            flags |= 2
        if not flags:
            raise self._refuse(_SHOW)
        ev[0] = events.E_SHOW | flags
        return self._do(k)

    def muggins(self, side=-1):
        # Take the points the last show under-claimed (muggins on; right after that show).
        # side: the side calling it, default the other side in a two-sided game. -> points.
        if side is None or side == -1:
            if self.sides != 2:
                raise self._refuse(_WHICH)
            o = self.overlooked_side()
            side = 1 - o if o >= 0 else 0
        self._ev[0] = events.E_MUGGINS | self._side_arg(side)
        return self._do(1)

    def peg(self, side, points):
        # A plain peg of 1..MAX_PLAY_PEG points for side, in any phase but OVER (the play's
        # points when cards are not entered, or a correction). Returns points.
        ev = self._ev
        ev[0] = events.E_PEG | self._side_arg(side)
        if not (isinstance(points, int) and 1 <= points <= events.MAX_PLAY_PEG):
            raise self._refuse(_PEG, (events.MAX_PLAY_PEG, points))
        ev[1] = points
        return self._do(2)

    def penalty(self, side, kind=events.MISDEAL, seat=-1):
        # Two points to side (sheet 000), after the first deal, never in OVER. MISDEAL: the
        # other side misdealt. FAIL_TO_PLAY: seat (-1: the other player of a two-player game)
        # failed to play his cards after a go: in the play, once a card is in, those that
        # fitted at his go are dead (pegging.dead_count). FALSE_GO: right after false_go()
        # named a seat: his card is taken back and dead with them, as FAIL_TO_PLAY. Returns 2.
        if kind not in (events.MISDEAL, events.FAIL_TO_PLAY, events.FALSE_GO):
            raise self._refuse(_PENALTY, (kind,))
        side = self._side_arg(side)
        if self.dealer < 0:
            raise self._refuse(_NO_DEAL_YET)
        ev = self._ev
        if kind == events.FALSE_GO:  # 8: the card just played is taken back (rules.py checks it)
            ev[0] = events.E_DEAD | 8 | side
            seat = self.false_go()
            if seat >= 0 and self.played[seat] == (3 if self.cards() == 5 else 4):
                ev[1] = seat | 16  # his last card: all his cards are dead (events.py: E_DEAD)
                return self._do(2)
        else:
            if seat == -1 and self.players == 2:
                seat = 1 - side
            if kind == events.MISDEAL or seat == -1 or not (any(self.played)
                                                            and self.phase == PLAY):
                ev[0] = events.E_PENALTY | kind << 3 | side
                return self._do(1)  # two points, no cards to make dead
            ev[0] = events.E_DEAD | side
        ev[1] = seat & 7  # (rules.py refuses a seat that does not play)
        return self._do(2)

    # --- internals ----------------------------------------------------------------------

    def _refuse(self, k, args=()):
        # The ValueError for refusal k (kept in error for the display).
        msg = events.say(_NO, k, args)
        self.error = msg
        return ValueError(msg)

    def _card_arg(self, c):
        if not (isinstance(c, int) and 0 <= c < cards.DECK):
            raise self._refuse(_CARD, (c,))
        return c

    def _side_arg(self, side):
        if not (isinstance(side, int) and 0 <= side < self.sides):
            raise self._refuse(_SIDE, (side, self.sides - 1))
        return side

    def _do(self, size):
        # Enter the event in _ev (Game.enter: atomic, journalled) -> the points it pegged.
        return self.enter(self._ev, 0, size)


def loads(data):
    # A Match from dumps() bytes, or ValueError (loadgame.py, imported for the call: a board
    # loads a game at power-up and after a fault only, and board/fault.py's table lets its
    # code go after; on a fault, fault.restore() loads it first, where the room for it is
    # checked: an import when memory is short can crash this MicroPython). The class is
    # handed over rather than imported there.
    import sys

    name = "cribbage.loadgame"  # (a string, not a name: nothing more interned)
    __import__(name)
    return sys.modules[name].loads(data, Match)


def __getattr__(name):
    """events.py's constants as the match's own (match.WIN, match.WHY_HEELS...): those the
    Match does not use itself are read there, not copied here."""
    return getattr(events, name)
