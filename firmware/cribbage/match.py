"""The match engine: a game of cribbage as a journal of small events, with undo and saves."""

# The match engine: one game of cribbage as an append-only journal of small events.
#
# Every entry a player confirms is one event (a deal, the starter, a card played, a go, a hand
# shown, a plain peg, ...). Each event is validated and applied to the derived state, which the
# renderer reads as plain attributes (no calls, no allocation). undo() removes the newest event,
# redo() puts it back, without limit within the game and also after it is won (journal.py:
# one deal of replay at most). next_game() ends the journal: it holds one game, whatever the
# number played. dumps() gives compact bytes (version byte, settings, the game's start,
# journal, CRC-32: saved.py) that a board saves after every event; loads() checks and replays
# them. A refused event raises ValueError saying why and changes nothing (the message is also
# kept in `error` for the display); any other exception mid-way (a MemoryError) leaves the
# event out of both the state and the journal.
#
# Cards or points: the board sees no cards unless players type them, so every step takes either.
# The play is entered card by card (play(card) / go()), then the engine keeps the count, whose
# turn it is and scores each card, the go and the last card itself; or its points are pegged by
# hand with peg(side, points). A hand is shown as its four cards (scored by score.score_hand, with
# the starter) or as its points (validated: never 19, 25, 26, 27 or over 29). The host simulator
# deals real cards (deal.py) and feeds them through the same calls.
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

from . import score  # noqa: F401  (first: its 6 KB table wants an unfragmented heap)
from .cards import DECK, JACK, fmt
from . import journal as jl  # (not `journal`: the class has a method of that name; before
from . import pegging, saved  # these: the biggest to compile, on the emptier heap)
# The constants a board needs, re-exported: match.PLAY, match.WHY_HEELS, match.MISDEAL, ...
from .events import (  # noqa: F401
    VERSION, DEAL, STARTER, PLAY, SHOW, OVER, WIN, SKUNK, DOUBLE_SKUNK, LURCH,
    SINGLE, BEST_OF_3, BEST_OF_5, ACC,
    WHY_PLAY, WHY_GO, WHY_HEELS, WHY_HAND, WHY_CRIB, WHY_PEG, WHY_PENALTY, WHY_MUGGINS,
    MISDEAL, FAIL_TO_PLAY, FALSE_GO, MAX_PLAY_PEG, MAX_DEALS, HAND_MAX, NO_CARD, show_points_ok)
from .events import (E_GO, E_DEAL, E_STARTER, E_SHOW, E_PEG, E_PENALTY, E_MUGGINS, E_CUT,
                     E_NEW_GAME, E_DEAD, JACK_UNSEEN, say)  # noqa: F401  (E_NEW_GAME: v1 saves)

from micropython import const

# The refusals, one a line (see events.say: one string, not an object per message).
_NO = """players must be 2 to 6, not %r
the game is 121 or 61 points, not %r
skunk lines must be 0 (off) to %d
the double skunk line %d is above the skunk line %d
a game counts 1 to 9 games
cut one card per seat: %d cards for %d seats
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
the match mode is 0 to 3, not %r
who deals the next game is 0 to 2, not %r
the cards are 6, or 5: five-card cribbage, a game of 2 players to 61
in five-card cribbage a hand is 3 cards"""
_PLAYERS = const(0)
_TARGET = const(1)
_LINES = const(2)
_DOUBLE = const(3)
_GAMES = const(4)
_CUT = const(5)
_WHO_DEALS = const(6)
_SEAT = const(7)
_JACK = const(8)
_HAND = const(9)
_COUNT = const(10)
_SHOW = const(11)
_WHICH = const(12)
_PEG = const(13)
_PENALTY = const(14)
_CARD = const(15)
_SIDE = const(16)
_DEAL_ON = const(17)
_NO_DEAL_YET = const(18)
_MODE = const(19)
_DEAL_RULE = const(20)
_FIVE_GAME = const(21)
_HAND3 = const(22)
_RULES = const(59)  # _where's byte of rules a new deal keeps, and its bit (events.py)
_ALL_DEAD = const(4)
_FIVE = const(8)  # five-card cribbage (pegging.py)
_DEAL_CUT = const(1)  # who deals the next game: the players cut (events.py)


class Match:
    # One game (then the next) between `players` seats; the derived state is public:
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
    # gone                                   bit per seat that said go in this series
    # starter_card                           the starter, or -1 (not turned / not entered)
    # winner, result                         winning side and WIN/SKUNK/DOUBLE_SKUNK/LURCH (-1/0)
    # last_side, last_points, last_why       the newest points pegged (-1, 0, 0 for none)
    # got                                    points the newest event pegged (0: none)
    # last_play                              what the newest card played made (score.PLAY_*)
    # error                                  message of the last refused entry, or None
    # deals                                  deals in this game so far
    # events                                 events in the journal (undo depth)

    def __init__(self, players=2, target=121, muggins=False, skunk_line=-1, skunk_games=2,
                 double_line=-1, double_games=3, pairs=False, mode=SINGLE, deal=_DEAL_CUT,
                 cards=6):
        # A new game. players 2..6; target 121 or 61; muggins on/off. skunk_line: a loser
        # under it makes the win count skunk_games (default 91 in the 121 game; in the 61 game
        # it is the lurch, default 31); double_line: under it, double_games (default 61 in the
        # 121 game, none in the 61 game). 0 turns a line off. pairs: six players as three
        # partnerships (a game saved before sheet 002's two teams). mode: SINGLE (games won
        # add up for ever), BEST_OF_3, BEST_OF_5 (the first side to 2 or 3 games wins the match:
        # next_game() then starts a new one), ACC (tournament game points: 2 for a win, 3 for a
        # skunk or lurch; no double skunk: it is a skunk). deal: who deals the games after
        # the first (1: the players cut for deal, as the sheets; 2: the loser; 0: on round
        # the table, as earlier firmware did; ACC: the loser, whatever it says). ValueError
        # for bad settings. (A game saved by earlier firmware: saved.loads sets _ALL_DEAD.)
        # cards: 6, or 5 for five-card cribbage (Hoyle): two players, 61 holes, three cards
        # each in the play and the show, one series of play, three for last to the first
        # pone. ("cards", not "five": a name every board has already, see score.hand.)
        if mode not in (SINGLE, BEST_OF_3, BEST_OF_5, ACC):
            raise ValueError(say(_NO, _MODE, (mode,)))
        if deal not in (0, 1, 2):
            raise ValueError(say(_NO, _DEAL_RULE, (deal,)))
        if players not in (2, 3, 4, 5, 6):
            raise ValueError(say(_NO, _PLAYERS, (players,)))
        if target not in (61, 121):
            raise ValueError(say(_NO, _TARGET, (target,)))
        if cards != 6 and (cards != 5 or players != 2 or target != 61):
            raise ValueError(say(_NO, _FIVE_GAME))
        if skunk_line == -1 or skunk_line is None:
            skunk_line = 91 if target == 121 else 31
        if double_line == -1 or double_line is None:
            double_line = 61 if target == 121 else 0
        if mode == ACC:  # the American Cribbage Congress's game points
            skunk_games = 3
            double_line = 0
        if not (0 <= skunk_line < target and 0 <= double_line < target):
            raise ValueError(say(_NO, _LINES, (target - 1,)))
        if double_line and double_line > skunk_line:
            raise ValueError(say(_NO, _DOUBLE, (double_line, skunk_line)))
        if not (1 <= skunk_games <= 9 and 1 <= double_games <= 9):
            raise ValueError(say(_NO, _GAMES))
        self.players = players
        self.sides = 3 if pairs and players == 6 else 2 if players in (4, 6) else players
        self.target = target
        self.muggins_on = bool(muggins)
        self.skunk_line = skunk_line
        self.skunk_games = skunk_games
        self.double_line = double_line
        self.double_games = double_games
        self.mode = mode
        self._n = 0
        self._top = 0
        self._base_games = [0] * self.sides  # the game's start: games won so far
        self._base_dealer = -1   # and who deals first (-1: cut or choose)
        self._prev = b""         # the finished game's end, for one undo (journal.py)
        self._showing = False    # True while undo shows it
        self._where = bytearray(DECK + 8)  # (and each seat's go, the dead, RULES: events.py)
        self._where[_RULES] = deal | (_FIVE if cards == 5 else 0)  # (a new deal keeps it)
        self.error = None
        self.deals = 0
        s = self.sides
        self.score = [0] * s  # these keep their objects for the game's life (_reset)
        self.back = [0] * s
        self.games = [0] * s
        self.pile = bytearray(8)
        self.played = bytearray(players)
        # The state of an empty journal (as _replay(0)), then the buffers: the instance dict
        # grows to its full size (a 752-byte block on a 64-bit port) before they split the heap
        self._reset()
        # the journal: _j[:_n] committed, _j[_n:_top] redo events. Made big enough for most
        # games now, while the heap is whole (a game of two takes ~300 bytes, of five ~1,000):
        # growing later needs a bigger block beside it, which a long game's heap may lack
        self._j = bytearray(192 * players + 128)
        self._cks = bytearray()  # a record of the state before each deal (journal.py)
        self._ev = bytearray(8)  # scratch for the event being entered

    def settings(self):
        """The settings as the 7 bytes dumps() stores."""
        # (byte 2: muggins, | 2 for six players in two teams: saves before them lack it,
        # | the match mode << 2: saves before it have 0, SINGLE; | who deals the next game
        # << 4, | 64 when a failure to play kills only the cards that fitted: saves before
        # them have 0: the deal round the table, every card dead, as they were played;
        # | 128 five-card cribbage: saves before it have 0, six cards)
        r = self._where[_RULES]
        return bytes((self.players, self.target, (1 if self.muggins_on else 0)
                      | (2 if self.players == 6 and self.sides == 2 else 0) | self.mode << 2
                      | (r & 3) << 4 | (0 if r & _ALL_DEAD else 64) | (128 if r & _FIVE else 0),
                      self.skunk_line,
                      self.skunk_games, self.double_line, self.double_games))

    def cards(self):
        """5 in five-card cribbage (hands of three, one series of play: pegging.py), else 6."""
        return 5 if self._where[_RULES] & _FIVE else 6

    def match_won(self):
        # The side whose game just won the match (best of 3 or 5: it has the games the match
        # needs), else -1 (SINGLE and ACC have no match end). OK then starts a new match.
        need = (0, 2, 3, 0)[self.mode]
        w = self.winner
        return w if need and self.phase == OVER and self.games[w] >= need else -1

    def next_game(self):
        # After a win: a new game with the same settings, scores to 0, games won kept
        # (journal.py); after the game that won a match, a new match: games won back to 0.
        # One undo still shows the finished game's end, with the games it left. -> 0.
        new_match = self.match_won() >= 0
        jl.next_game(self)
        if new_match:
            for k in range(self.sides):
                self._base_games[k] = 0
                self.games[k] = 0
        return 0

    def overlooked(self):
        # The points muggins() can take right now (muggins on, right after a show that
        # claimed less than its cards count), else 0.
        m = self._mug_ev  # (the show's event index << 3 | its side, or -1)
        if self.muggins_on and self._mug > 0 and m >= 0 and m >> 3 == self.events - 1:
            return self._mug
        return 0

    def false_go(self):
        # The seat whose card just played proves a false go (he said go at a count it fitted
        # under, sheet 000's failure to play): penalty(side, FALSE_GO) takes it; else -1.
        # Also when the card's points won the game: a dead card wins nothing, so that win
        # stands only once the players let the false go pass (any other event: next_game()).
        f = self._fg  # (the card's event index << 3 | the seat)
        return f & 7 if f >= 0 and f >> 3 == self.events - 1 else -1

    def overlooked_side(self):
        # The side whose short count muggins() can take right now, else -1.
        return self._mug_ev & 7 if self.overlooked() else -1

    # --- seats and sides ---------------------------------------------------------------

    def side_of(self, seat):
        """The side (lane) a seat pegs for."""
        return seat % self.sides

    def played_cards(self, seat, out):
        """Append the cards seat played this deal (as entered) to the list out."""
        w = self._where
        for c in range(DECK):
            if w[c] == seat + 1:
                out.append(c)

    def pone(self):
        """The seat left of the dealer (leads the play, shows first), or -1 before a deal."""
        return -1 if self.dealer < 0 else (self.dealer + 1) % self.players

    # --- events: each validates, applies, journals; returns the points it pegged -------

    def cut(self, cards):
        # Cut for first deal: one card per seat in seat order; the lowest rank deals (ace
        # low). A tie for lowest raises ValueError (those seats cut again). Only before the
        # first deal of a game. Returns the dealing seat.
        n = self.players
        if len(cards) != n:
            raise self._refuse(_CUT, (len(cards), n))
        ev = self._ev
        ev[0] = E_CUT
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
        self._ev[0] = E_DEAL | dealer
        return self._do(1)

    def starter(self, card=-1, jack=False):
        # The starter is turned: card 0..51, or -1 when it is not entered (jack=True: it is a
        # jack). A jack pegs two for his heels to the dealer at once (it may win the game).
        # Phase STARTER -> PLAY. Returns the points pegged (0 or 2).
        ev = self._ev
        ev[0] = E_STARTER
        if card is None or card == -1:
            ev[1] = JACK_UNSEEN if jack else NO_CARD
        else:
            ev[1] = self._card_arg(card)
            if jack and card >> 2 != JACK:
                raise self._refuse(_JACK, (fmt(card),))
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
        self._ev[0] = E_GO
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
            n = 3 if self._where[_RULES] & _FIVE and not self.crib_next else 4
            if len(hand) != n:
                raise self._refuse(_HAND, (len(hand),)) if n == 4 else self._refuse(_HAND3)
            for i in range(n):
                ev[k] = self._card_arg(hand[i])
                k += 1
            if n == 3:  # (journalled as four bytes, the last NO_CARD: events.size is unchanged)
                ev[k] = NO_CARD
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
        ev[0] = E_SHOW | flags
        return self._do(k)

    def muggins(self, side=-1):
        # Take the points the last show under-claimed (muggins on; right after that show).
        # side: the side calling it, default the other side in a two-sided game. -> points.
        if side is None or side == -1:
            if self.sides != 2:
                raise self._refuse(_WHICH)
            side = 1 - (self._mug_ev & 7) if self._mug_ev >= 0 else 0
        self._ev[0] = E_MUGGINS | self._side_arg(side)
        return self._do(1)

    def peg(self, side, points):
        # A plain peg of 1..MAX_PLAY_PEG points for side, in any phase but OVER (the play's
        # points when cards are not entered, or a correction). Returns points.
        ev = self._ev
        ev[0] = E_PEG | self._side_arg(side)
        if not (isinstance(points, int) and 1 <= points <= MAX_PLAY_PEG):
            raise self._refuse(_PEG, (MAX_PLAY_PEG, points))
        ev[1] = points
        return self._do(2)

    def penalty(self, side, kind=MISDEAL, seat=-1):
        # Two points to side (sheet 000), after the first deal, never in OVER. MISDEAL: the
        # other side misdealt. FAIL_TO_PLAY: seat (-1: the other player of a two-player game)
        # failed to play his cards after a go: in the play, once a card is in, those that
        # fitted at his go are dead (pegging.dead). FALSE_GO: right after false_go() named a
        # seat: his card is taken back and dead with them, as FAIL_TO_PLAY. Returns 2.
        if kind not in (MISDEAL, FAIL_TO_PLAY, FALSE_GO):
            raise self._refuse(_PENALTY, (kind,))
        side = self._side_arg(side)
        if self.dealer < 0:
            raise self._refuse(_NO_DEAL_YET)
        ev = self._ev
        if kind == FALSE_GO:  # 8: the card just played is taken back (pegging.dead checks it)
            ev[0] = E_DEAD | 8 | side
            seat = self._fg
        else:
            if seat == -1 and self.players == 2:
                seat = 1 - side
            if kind == MISDEAL or seat == -1 or not (self._plays and self.phase == PLAY):
                ev[0] = E_PENALTY | kind << 3 | side
                return self._do(1)  # two points, no cards to make dead
            ev[0] = E_DEAD | side
        ev[1] = seat & 7  # (pegging.dead refuses a seat that does not play)
        return self._do(2)

    # --- internals ----------------------------------------------------------------------

    def _refuse(self, k, args=(), table=_NO):
        # The ValueError for refusal k of table (kept in error for the display).
        msg = say(table, k, args)
        self.error = msg
        return ValueError(msg)

    def _card_arg(self, c):
        if not (isinstance(c, int) and 0 <= c < DECK):
            raise self._refuse(_CARD, (c,))
        return c

    def _side_arg(self, side):
        if not (isinstance(side, int) and 0 <= side < self.sides):
            raise self._refuse(_SIDE, (side, self.sides - 1))
        return side

    def _do(self, size):
        """Apply the event in _ev and journal it (dropping any redo events): atomic, the event
        is in the state and the journal or in neither, whatever is raised."""
        self._room(size)  # first: a full journal or a MemoryError here changes nothing
        try:
            self._apply(self._ev, 0)
        except ValueError as e:  # the handlers validate before they change anything
            self.error = str(e)
            raise
        except BaseException:  # e.g. MemoryError half way: the journal says what holds
            self._replay(self._n)
            raise
        n = self._n
        self._j[n:n + size] = memoryview(self._ev)[:size]
        self._n = self._top = n + size
        self.error = None
        return self.got

    def _reset(self):
        """The state of a fresh game before any event."""
        # (in place: a replay, an undo or a deal makes no garbage to fragment the heap)
        for k in range(self.sides):
            self.score[k] = 0
            self.back[k] = 0
            self.games[k] = self._base_games[k]
        self.phase = DEAL
        self.dealer = -1
        self.next_dealer = self._base_dealer
        self.winner = -1
        self.result = 0
        self.last_side = -1
        self.last_points = 0
        self.last_why = 0
        self.deals = 0
        self.events = 0
        self._mug = 0
        self._mug_ev = -1
        self.got = 0
        self.last_play = 0
        self._new_deal()

    def _new_deal(self):
        self.turn = -1
        self.crib_next = False
        self.count = 0
        self.pile[:] = b""  # emptied in place: MicroPython keeps its room (no del on bytearray)
        p = self.played
        for k in range(self.players):
            p[k] = 0
        self.gone = 0
        self._fg = -1  # a card proving a false go: its event's index << 3 | the seat
        self.starter_card = -1
        w = self._where
        for i in range(_RULES):
            w[i] = 0
        self._plays = 0  # cards out of the hands in this play: played, or dead
        self._last_player = -1

    # --- the events (journal.apply: it calls the handlers, there and in pegging.py, as functions)
    # and the journal (journal.py)
    _apply = jl.apply
    dead = pegging.dead_seats
    check_card = pegging.check_card
    _room = jl.room
    restore = jl.restore
    mark = saved.mark
    rollback = saved.rollback
    can_undo = jl.can_undo
    can_redo = jl.can_redo
    undo = jl.undo
    redo = jl.redo
    dumps = saved.dumps
    dump = saved.dump
    state = saved.state
    _replay = jl._replay
    journal = saved.journal


def loads(data):
    # A Match from dumps() bytes, or ValueError (saved.py). The class is handed over rather
    # than imported there when called: an import when memory is short can crash this
    # MicroPython, and loads() is how a board recovers from running short.
    return saved.loads(data, Match)
