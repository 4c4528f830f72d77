"""The play and the show: the Match handlers that score cards (journal.apply calls them).

Split from journal.py so each module compiles within a small heap; like every handler, each
validates first and changes the state only when the event is good.
"""

from .cards import PIP, DECK, fmt
from .score import score_hand, play_parts, play_points, PLAY_LAST, PLAY_GO
from .events import (PLAY, SHOW, STARTER, DEAL, WHY_PLAY, WHY_GO, WHY_HAND, WHY_CRIB, HAND_MAX,
                     AT_STARTER, AT_HAND, AT_CRIB, NO_CARD, show_points_ok, say, peg)

from micropython import const

# The refusals, one a line (see events.say): the first five by phase.
_NO = """no play now: deal first
no play now: turn the starter first
no play now
no play now: the play is over
no play now
%s is the starter
%s was already played
%s would make the count %d, over 31: say go
no go now: not in the play
nobody says go on a count of 0: lead a card
the play is not over: %d cards to play
no hand to show now: deal first
enter the starter to score the cards (or enter the points)
not a card: %d
%s is in the hand twice
%s was played by seat %d
%s is in seat %d's hand
seat %d played %d cards: the hand must hold them
%d claimed, but the %s counts %d
no hand or crib counts %d
a hand or crib counts 0 to 29, not %d
no go on a count of %d: every card fits (go at 22 or more)
seat %d cannot pay side %d: not in the play, his own side, or his cards are dead
no false go: the card just played did not prove one
%s is dead: it fitted at %d when seat %d said go
in five-card cribbage a hand is 3 cards and the crib 4"""
_STARTER = const(5)
_PLAYED = const(6)
_OVER_31 = const(7)
_NO_GO = const(8)
_GO_AT_0 = const(9)
_PLAY_ON = const(10)
_NO_SHOW = const(11)
_NO_STARTER = const(12)
_NOT_CARD = const(13)
_TWICE = const(14)
_PLAYED_BY = const(15)
_SHOWN = const(16)
_HOLD = const(17)
_OVER_CLAIM = const(18)
_NO_COUNT = const(19)
_COUNT_RANGE = const(20)
_GO_FITS = const(21)
_BAD_DEAD = const(22)
_NOT_FALSE_GO = const(23)
_DEAD_CARD = const(24)
_THREE = const(25)

# Match._where after the DECK cards (events.py): each seat's lowest go count (a dead seat's:
# the count that says which of his cards are dead, 0 all), the dead seats, the game's rules.
_GO_AT = const(52)
_DEAD = const(58)
_RULES = const(59)
_ALL_DEAD = const(4)
_FIVE = const(8)  # five-card cribbage (Match(cards=5)): three cards each in the play and show


def play(self, c):
    # The seat whose turn it is plays card c: score_play() of the series, plus one when it is
    # the last card of the play (or nobody can go on after it) unless it made 31.
    if self.phase != PLAY:
        raise ValueError(say(_NO, self.phase))
    w = self._where[c]
    if w:
        if w == AT_STARTER:
            raise ValueError(say(_NO, _STARTER, (fmt(c),)))
        raise ValueError(say(_NO, _PLAYED, (fmt(c),)))
    if self.count + PIP[c] > 31:
        raise ValueError(say(_NO, _OVER_31, (fmt(c), self.count + PIP[c])))
    seat = self.turn
    g = self._where[_GO_AT + seat]
    if g and g + PIP[c] <= 31:  # he said go at g holding this card, and it fitted:
        if self._where[_DEAD] >> seat & 1:  # dead already (the penalty was taken)
            raise ValueError(say(_NO, _DEAD_CARD, (fmt(c), g, seat)))
        self._fg = self.events << 3 | seat  # a false go (Match.false_go() names him until
        # the next event)
    self.pile.append(c)
    self.count += PIP[c]
    self._where[c] = seat + 1
    self.played[seat] += 1
    self._plays += 1
    self._last_player = seat
    parts = play_parts(self.pile)
    # (five-card cribbage, _FIVE: three cards each, one series; no local more: see show())
    last = self._plays == (3 if self._where[_RULES] & _FIVE else 4) * self.players
    if self.count == 31:
        (end_play if self._where[_RULES] & _FIVE else end_series)(self)
    elif last:
        parts |= PLAY_LAST  # one for the last card
    else:
        nxt = next_active(self, seat)
        if nxt < 0:  # he has no cards left and nobody else can go on: one for the go
            parts |= PLAY_GO
            (end_play if self._where[_RULES] & _FIVE else end_series)(self)
        else:
            self.turn = nxt
    self.last_play = parts
    pts = play_points(parts)
    if last:
        end_play(self)
    peg(self, seat % self.sides, pts, WHY_PLAY)


def go(self):
    # The seat whose turn it is cannot play; when nobody can, one for the go to the last card.
    if self.phase != PLAY:
        raise ValueError(say(_NO, _NO_GO))
    w = self._where
    t = self.turn
    if w[_DEAD] >> t & 1:  # some of his cards are dead (the rest did not fit at his go)
        if self.count <= 21:  # any live card would fit: he has none, his cards left are dead
            w[_GO_AT + t] = 0
            self._plays += (3 if w[_RULES] & _FIVE else 4) - self.played[t]
    elif self.count == 0:
        raise ValueError(say(_NO, _GO_AT_0))
    elif self.count <= 21:  # the seat to play holds a card and any card fits: no go
        raise ValueError(say(_NO, _GO_FITS, (self.count,)))
    elif not w[_GO_AT + t] or self.count < w[_GO_AT + t]:
        w[_GO_AT + t] = self.count  # the lowest of the deal
    self.gone |= 1 << t
    pass_on(self, t)


def pass_on(self, seat):
    # seat cannot play on: the next seat who can plays; when nobody can, one for the go to
    # the last card's player (none after a 31) and the count resets, or the play is over.
    nxt = next_active(self, seat)
    if nxt >= 0:
        self.turn = nxt
        return
    last = self._last_player
    pts = 1 if self.count else 0
    if self._plays == (3 if self._where[_RULES] & _FIVE else 4) * self.players:  # (dead cards
        # took the last ones out)
        end_play(self)
    else:  # (five-card cribbage: one series, no count after a go or a 31: Hoyle)
        (end_play if self._where[_RULES] & _FIVE else end_series)(self)
    peg(self, last % self.sides, pts, WHY_GO)


def next_active(self, seat):
    # The next seat left of seat (seat itself last) that has cards, has not said go in this
    # series and whose cards left are not all dead, or -1.
    n = self.players
    w = self._where
    out = self.gone
    for k in range(1, n + 1):
        t = (seat + k) % n
        if self.played[t] < (3 if w[_RULES] & _FIVE else 4) and not out >> t & 1 \
                and not (w[_DEAD] >> t & 1 and not w[_GO_AT + t]):
            return t
    return -1


def dead(self, side, seat, at):
    # A failure to play after a go (sheet 000: "he may not subsequently play those cards and
    # his opponent scores two points"): "those cards" are the ones that fitted when he said go
    # (at his lowest go count of the deal; no go said: at the count now if he is to play,
    # else all): dead, out of the play (they count in the show); the rest he plays as they fit
    # (and says go at any count once only dead cards are left: they are out). A game saved
    # by earlier firmware (its rules lack the bit) kills all his cards left, as it was played.
    # If he was to play and now cannot, the play passes on (pass_on); then journal.apply pegs
    # two to side. at >= 0: a false go, proved by the card just played (journal offset at):
    # it is taken back first, dead (it fitted; it stays in the journal: undo brings it back).
    if at >= 0 and self._fg != (self.events - 1) << 3 | seat:
        raise ValueError(say(_NO, _NOT_FALSE_GO))
    w = self._where
    if seat >= self.players or side >= self.sides or seat % self.sides == side \
            or w[_DEAD] >> seat & 1:
        raise ValueError(say(_NO, _BAD_DEAD, (seat, side)))
    if at >= 0:
        n = self.events
        self._replay(at)  # the state before the card: it was played in the play, after a go
        self.events = n   # (so nothing below refuses now)
    if self.phase != PLAY or not self._plays:
        raise ValueError(say(_NO, _BAD_DEAD, (seat, side)))
    w[_DEAD] |= 1 << seat
    g = 0 if w[_RULES] & _ALL_DEAD else w[_GO_AT + seat] or \
        (self.count if self.turn == seat else 0)
    if g <= 21:  # (every card fits at 21: all dead)
        g = 0
    w[_GO_AT + seat] = g  # his cards of pips 31 - g or less are dead (g 0: all)
    if not g:
        self._plays += (3 if w[_RULES] & _FIVE else 4) - self.played[seat]  # (out: played,
        # or dead)
    elif self.turn != seat or self.count < g:
        return  # (to play: a live card, over 31 - g, may fit: he plays it or says go)
    else:
        self.gone |= 1 << seat  # no card of his may go on now: as if he said go
    if self.turn == seat:  # (when the last cards out are his, it is his turn)
        pass_on(self, seat)  # (journal.apply pegs the two)


def dead_seats(self):
    """Match.dead(): a bit per seat whose cards are dead this deal (a failure to play: those
    that fitted at his go, out of the play; the seat shows them with its hand)."""
    return self._where[_DEAD]


def check_card(self, c):
    """Match.check_card(c): ValueError when card c (0..51) cannot be in the hand, or the crib,
    the show takes next: the starter, a card another seat played (any, for the crib), a card
    shown in a hand. show() checks each card so; the board asks as each card is typed."""
    crib = self.phase == SHOW and self.crib_next
    seat = self.turn if self.phase == SHOW else self.pone()
    at = self._where[c]
    if at == AT_STARTER:
        raise ValueError(say(_NO, _STARTER, (fmt(c),)))
    if 1 <= at <= 6 and (crib or at != seat + 1):
        raise ValueError(say(_NO, _PLAYED_BY, (fmt(c), at - 1)))
    if at >= AT_HAND:  # (AT_HAND + seat; the crib is shown last)
        raise ValueError(say(_NO, _SHOWN, (fmt(c), at - AT_HAND)))


def end_series(self):
    """Count back to 0; the seat left of the last card's player leads (one with cards)."""
    self.count = 0
    self.pile[:] = b""
    self.gone = 0
    self.turn = next_active(self, self._last_player)


def end_play(self):
    self.phase = SHOW
    self.count = 0
    self.pile[:] = b""
    self.gone = 0
    self.turn = self.pone()
    self.crib_next = False


def show(self, b, i, has_cards, claim):
    # The next hand (or the crib): its four cards at b[i:i+4] when has_cards, the points
    # claimed (or entered) in claim (-1: none). See Match.show.
    phase = self.phase
    if phase == PLAY and self._plays:
        raise ValueError(say(_NO, _PLAY_ON, ((3 if self._where[_RULES] & _FIVE else 4)
                                             * self.players - self._plays,)))
    if phase not in (SHOW, PLAY, STARTER):
        raise ValueError(say(_NO, _NO_SHOW))
    if phase == SHOW:
        seat = self.turn
        crib = self.crib_next
    else:
        seat = self.pone()
        crib = False
    w = self._where
    mug = 0
    # (five-card cribbage: a hand of 3 cards, its 4th byte NO_CARD; as few locals more as can
    # be: a bigger frame in this hot path moved the heap's peak, test_board_mp)
    n = 3 if w[_RULES] & _FIVE and not crib else 4
    if has_cards:
        if self.starter_card < 0:
            raise ValueError(say(_NO, _NO_STARTER))
        if w[_RULES] & _FIVE and (b[i + 3] == NO_CARD) != (n == 3):
            raise ValueError(say(_NO, _THREE))
        mine = 0
        for a in range(n):
            c = b[i + a]
            if c >= DECK:
                raise ValueError(say(_NO, _NOT_CARD, (c,)))
            for t in range(a):
                if b[i + t] == c:
                    raise ValueError(say(_NO, _TWICE, (fmt(c),)))
            check_card(self, c)
            if w[c] == seat + 1 and not crib:
                mine += 1
        if not crib and mine != self.played[seat]:
            raise ValueError(say(_NO, _HOLD, (seat, self.played[seat])))
        hand = bytes(b[i:i + n])
        if n == 4:
            pts = score_hand(hand, self.starter_card, crib)
        else:  # five-card cribbage: three cards (score.hand: a name a board has anyway)
            from .score import hand as count

            pts = count(hand, self.starter_card)
        if claim >= 0:
            if claim > pts:
                raise ValueError(say(_NO, _OVER_CLAIM,
                                     (claim, "crib" if crib else "hand", pts)))
            if not (show_points_ok(claim) if n == 4 else
                    0 <= claim <= 15 or claim == 20):  # under the true count, yet no hand
                # makes it (a three-card hand: 0 to 15, or 20; test_five_exhaustive)
                raise ValueError(say(_NO, _NO_COUNT, (claim,)))
            mug = pts - claim
            pts = claim
    else:
        if not (show_points_ok(claim) if n == 4 else 0 <= claim <= 15 or claim == 20):
            raise ValueError(say(_NO, _NO_COUNT if claim <= HAND_MAX else _COUNT_RANGE,
                             (claim,)))
        pts = claim
    # valid: apply
    if phase != SHOW:
        end_play(self)
    if has_cards:
        for a in range(n):
            w[b[i + a]] = AT_CRIB if crib else AT_HAND + seat
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
        self._mug_ev = self.events << 3 | seat % self.sides
    peg(self, seat % self.sides, pts, WHY_CRIB if crib else WHY_HAND)
