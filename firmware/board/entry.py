"""The typed entry and what each key does with it.

An Entry (app.e) holds what is typed and not yet confirmed: a number, cards, the hand filled in
from the play, the side proposed to call muggins, the advice. The functions below take a key and
change the entry, and return what the app (board/app.py) is to do: always a command
(board/modes.py: NOTHING, (REFUSE, text), (CALL, fn, arg, ...), (DEAL_FIRST, fn, arg, ...),
(NEXT_GAME,), (MODE, mode, k), (SAY, msg)). They never touch the engine, the flash, the
display or the app's own state themselves: the app applies what they return.

Fewer keys (muggins off): the crib's fourth card typed puts it in, as a card played does (an
OK right after is a habit); with two players, one OK on the pone's hand filled in from the
play also counts the dealer's when it is filled in too (show_two: both, or neither).

Muggins with more than two sides: C after an under-claimed count proposes the side after the
shower's (e.mug; -1: not calling; follow() drops it when the chance is gone), A steps to the
next side (never the shower's), OK takes it, * cancels.
"""

from cribbage import match as M
from cribbage.cards import fmt
from cribbage.events import say
from board.modes import (NORMAL, MENU, ADVISE, PENALTY, NOTHING, CALL, DEAL_FIRST, NEXT_GAME,
                         MODE, SAY, MSG_PLAYER, REFUSE, message)

from micropython import const


class Entry:
    """What is typed and not yet confirmed (the app holds one: app.e)."""

    def __init__(self):
        self.cards = []  # the typed cards (cleared in place)
        self.seat = 0  # the seat chosen with A: whose plain peg, who deals first (kept)
        self.fg_at = -1  # the event after which a proved false go was put to the players
        self.clear()

    def clear(self):
        self.quick = False  # the last key put a card or a go in: an OK now is a habit
        self.num = -1  # the typed number (-1: none) and its digits
        self.ndig = 0
        while self.cards:  # emptied in place: no slice object (a fault may be short of memory)
            self.cards.pop()
        self.show_next = False  # C: the typed cards or points are a hand of the show
        self.filled = 0  # cards of the entry filled in from the play, untouched
        self.fill_at = -1  # the engine's event count when they were (-1: fill again)
        self.advice = None  # the advisor's answer
        self.mug = -1  # the side proposed to call muggins (3+ sides), or -1
        self.asked = False  # the menu asked "OK again ends this game"
        self.off = -1  # the penalty entry: the seat that failed to play, or -1 (menu.py)
        self.stats = None  # the statistics on the display: a list of lines per side (menu.py)
        self.page = 0  # the side whose statistics show

    def fault(self, err):
        """After a fault (App.recover): what was typed stays as it was (the hand filled in
        from the play filled in again by follow()), unless the last thing said (err) was a
        fault too: then the entry may be what fails, and it goes."""
        f = self.filled
        if (err is not None and err[:7] == "fault (out of memory)"[:7]) or f < 0 or (
                f and f == len(self.cards)):
            self.clear()  # a fault again: what is typed may be what fails; or the hand as
        else:  # played (untouched, or cut short by the fault): follow() fills it in again
            self.quick = False  # what was typed stays, as it was; the rest goes
            self.advice = None
            self.mug = -1
            self.asked = False
            self.off = -1
            self.stats = None


def showing(app):
    """True when typed cards or points are a hand (or the crib) of the show."""
    return app.mode == NORMAL and (app.m.phase == M.SHOW or app.e.show_next)


def shower(m):
    """The seat whose hand (or crib: the dealer's) the show takes next."""
    return m.turn if m.phase == M.SHOW else m.pone()


def follow(app):
    """After a key or an engine call: the entry follows the game. A hand whose cards were
    entered in the play starts filled in with them, once per hand (OK counts it, * clears it,
    a card typed starts it afresh); a muggins call whose chance has gone is dropped; a false
    go the card just played proves (sheet 000) is put to the players once, as the penalty
    entry with "false go" and the next seat (another side) chosen: OK takes it, * declines.
    Returns the command for the app: NOTHING, or (MODE, PENALTY, FALSE_GO) for a false go."""
    m = app.m
    e = app.e
    mode = app.mode
    said = NOTHING
    fg = m.false_go()
    if fg >= 0 and mode == NORMAL and e.fg_at != m.events:
        e.fg_at = m.events
        e.quick = False  # the OK after the card is the answer, not a habit
        mode = PENALTY
        said = (MODE, PENALTY, M.FALSE_GO)
        e.seat = (fg + 1) % m.players
        e.off = fg
    if e.mug >= 0 and (not m.overlooked() or mode != NORMAL or m.phase == M.OVER
                       or e.mug == m.overlooked_side()):
        e.mug = -1  # the muggins being called is gone (pegged, undone, another event)
    if m.phase != M.SHOW or m.crib_next or mode != NORMAL or m.turn < 0:
        e.fill_at = -1
        return said
    if e.fill_at == m.events or e.cards or e.num >= 0:
        return said
    e.filled = -1  # (a fault part way leaves this: board/fault.py fills it again)
    m.played_cards(m.turn, e.cards)
    e.filled = len(e.cards)
    e.fill_at = m.events
    return said


def dealer_next(app):
    """The dealer's hand as played, when one OK on the pone's counts it too (two players,
    muggins off, both hands filled in from the play, the pone's untouched); else None."""
    m = app.m
    e = app.e
    n = 3 if m.cards() == 5 else 4  # (five-card cribbage: a hand of three)
    if (m.players == 2 and e.filled == n and e.num < 0 and not m.muggins_on
            and m.phase == M.SHOW and m.turn == m.pone() and m.played[m.dealer] == n):
        cards = []
        m.played_cards(m.dealer, cards)
        return cards


def show_two(m, first, second):
    """The pone's hand, then the dealer's unless the pone's won: both go in, or neither (a
    fault in the second takes the first back). Returns the points both pegged."""
    before = m.mark()
    pts = m.show(first)
    if m.phase == M.SHOW:
        try:
            pts += m.show(second)
        except Exception:  # noqa: BLE001  (the app says it: nothing changed)
            m.rollback(before)
            raise
    return pts


# What a wrong entry says, one a line (cribbage.events.say: one string, not an object each).
_NO = """%d%d: too many digits
no card %d: 1=A 0=10 11=J 12=Q 13=K
%s is typed already
that is all the cards: OK or back
%s is the starter
A: finish or clear the cards first
go is only said in the play
the game is over: OK for the next
D: finish or clear the cards first
who deals? A to choose, then OK
A: your crib, B: theirs
a hand is 4 cards: %d typed
muggins is on: type your count, then OK
finish the card: a suit A B C D
no card is wanted now
nothing to confirm: type first
%d cards still to play: type them
muggins: A next, OK takes, * cancels
no cards played to bring back: type the hand
a hand is 3 cards in five-card cribbage: %d typed"""
_DIGITS = const(0)
_RANK = const(1)
_TYPED = const(2)
_ALL_CARDS = const(3)
_STARTER = const(4)
_A_CARDS = const(5)
_GO_WHEN = const(6)
_OVER = const(7)
_D_CARDS = const(8)
_WHO_DEALS = const(9)
_CRIB = const(10)
_HAND = const(11)
_MUGGINS = const(12)
_SUIT = const(13)
_NO_CARD = const(14)
_NOTHING = const(15)
_PLAY_ON = const(16)
_CALLING = const(17)
_NONE_PLAYED = const(18)
_HAND3 = const(19)


def no(k, args=()):
    """Refusal k of _NO % args: the command that says it."""
    return (REFUSE, say(_NO, k, args))


def digit(app, d):
    e = app.e
    if e.mug >= 0:
        return no(_CALLING)
    if app.m.phase == M.OVER and app.mode == NORMAL:
        return no(_OVER)  # nothing to type: say what OK does now
    if e.num < 0:
        e.num = d
        e.ndig = 1
    elif e.ndig == 1 and e.num > 0:
        e.num = e.num * 10 + d
        e.ndig = 2
    else:
        return no(_DIGITS, (e.num, d))
    return NOTHING


def suit(app, s):
    """A suit key after a rank: the card. A card to play or the starter goes in at once (an
    OK after it is a habit); a card of a hand or the crib is checked against the deal first.
    A refused card leaves the entry as it was before its rank was typed."""
    e = app.e
    r = e.num or 10  # 0 is the ten: one key, as for every rank below it
    e.num = -1  # the rank goes with its suit: into the card, or refused with it
    e.ndig = 0
    if not 1 <= r <= 13:
        return no(_RANK, (r,))
    c = (r - 1) * 4 + s
    m = app.m
    cards = e.cards
    hand = showing(app)
    if not hand and app.mode == NORMAL:  # a card to play, or the starter: no OK to wait for
        cards.clear()  # (a card left from a hand typed then not counted gives way)
        cards.append(c)
        call = ok(app)
        cards.clear()  # in the engine call, or refused: either way not left typed
        e.quick = True  # an OK now is the habit (board/app.py), even after a refusal
        return call
    if hand:
        if c == m.starter_card:
            return no(_STARTER, (fmt(c),))
        if m.phase != M.DEAL:  # (between deals the hand is of the deal to come)
            try:
                m.check_card(c)  # played by another seat, or shown: refused at once
            except ValueError as x:
                return (REFUSE, str(x))
    n = 3 if m.cards() == 5 and not (m.phase == M.SHOW and m.crib_next) else 4  # (five-card: 3)
    if e.filled == n:  # the hand as played, untouched: a card typed starts it afresh
        cards.clear()
    e.filled = 0
    if c in cards:
        return no(_TYPED, (fmt(c),))
    if len(cards) >= (m.cards() if app.mode == ADVISE else n):
        return no(_ALL_CARDS)
    cards.append(c)
    # the crib's 4th card (muggins on: the count comes next, then OK): no OK to wait for
    if hand and len(cards) == 4 and m.crib_next and m.phase == M.SHOW and not m.muggins_on:
        e.quick = True
        return ok(app)
    return NOTHING


def letter(app, name):
    m = app.m
    e = app.e
    side = -1  # calling muggins: the side before the one proposed (below)
    if e.mug >= 0:  # calling muggins: A steps, other letters mean nothing
        if name != "A":
            return no(_CALLING)
        side = e.mug
    elif name == "A":
        if e.cards:
            return no(_A_CARDS)
        e.seat = (e.seat + 1) % m.players
        return (SAY, (MSG_PLAYER, e.seat, 0))  # board/text.py words it
    elif name == "B":
        if m.phase != M.PLAY or e.show_next:
            return no(_GO_WHEN)
        e.cards.clear()  # the card typed (refused: over 31?) gives way to the go
        e.quick = True
        return (CALL, m.go)  # said at once: no OK to wait for
    elif name == "C":
        if m.overlooked() and not e.show_next and m.phase != M.OVER:  # as the display offers,
            # whatever the next hand holds (filled in from the play, or typed)
            if m.sides == 2:
                return (CALL, m.muggins)  # the other side calls it: no choice to make
            side = m.overlooked_side()  # who calls? the next side (OK takes it)
        elif m.phase == M.OVER:
            return no(_OVER)
        elif m.phase == M.SHOW:  # the hand as played, again (after * cleared it, or a card)
            if m.crib_next or m.turn < 0 or not m.played[m.turn]:
                return no(_NONE_PLAYED)
            e.cards.clear()
            e.filled = 0
            e.fill_at = -1  # follow() fills it in
        else:
            if m.phase == M.PLAY and not e.show_next:
                n = 3 if m.cards() == 5 else 4  # (five-card cribbage: three each)
                left = n * m.players - sum(m.played)
                for s in range(m.players):  # a seat whose cards are dead plays no more
                    if m.dead() >> s & 1:
                        left -= n - m.played[s]
                if left < n * m.players:  # cards were entered: the play ends with its last
                    return no(_PLAY_ON, (left,))  # card
            e.show_next = not e.show_next
    elif name == "D":
        if e.cards:
            return no(_D_CARDS)
        return (MODE, MENU, 0)
    if side >= 0:  # the side after it that may call muggins (any but the shower's)
        side = (side + 1) % m.sides
        if side == m.overlooked_side():
            side = (side + 1) % m.sides
        e.mug = side
    return NOTHING


def back(app):
    e = app.e
    if e.mug >= 0:
        e.mug = -1  # not calling muggins after all
    elif e.num >= 0:
        if e.ndig == 2:
            e.num //= 10
            e.ndig = 1
        else:
            e.num = -1
            e.ndig = 0
    elif e.cards:
        if e.filled == len(e.cards):  # the cards filled in from the play: all go
            e.cards.clear()
        else:
            e.cards.pop()
        e.filled = 0
        e.advice = None
    elif e.show_next:
        e.show_next = False
    elif app.mode == ADVISE:
        e.clear()
        return (MODE, NORMAL, 0)
    else:
        return (SAY, message(""))
    return NOTHING


def ok(app):
    m = app.m
    e = app.e
    if app.mode == ADVISE:
        return no(_CRIB)
    side = e.mug
    if side >= 0:
        e.mug = -1  # taken (or refused: the error says why)
        return (CALL, m.muggins, side)
    cards = e.cards
    deal = m.phase == M.DEAL
    if deal and m.next_dealer < 0 and (cards or (e.num >= 0 and showing(app))):
        return no(_WHO_DEALS)
    if cards:
        if showing(app):
            n = 3 if m.cards() == 5 and not (m.phase == M.SHOW and m.crib_next) else 4
            if len(cards) != n:
                return no(_HAND if n == 4 else _HAND3, (len(cards),))
            if m.muggins_on and e.num < 0:
                return no(_MUGGINS)
            more = dealer_next(app)
            if more:  # two players: the dealer's hand, filled in too, with the same OK
                return (CALL, show_two, m, list(cards), more)
            return (DEAL_FIRST, m.show, list(cards), e.num)
        if e.num >= 0:
            return no(_SUIT)
        if deal or m.phase == M.STARTER:
            return (DEAL_FIRST, m.starter, cards[0])
        if m.phase == M.PLAY:
            return (CALL, m.play, cards[0])
        return no(_NO_CARD)
    if e.num >= 0:
        if showing(app):
            return (DEAL_FIRST, m.show, None, e.num)
        return (CALL, m.peg, m.side_of(e.seat), e.num)
    if deal:
        if m.next_dealer < 0:
            return (CALL, m.deal, e.seat)
        return (CALL, m.deal)
    if m.phase == M.OVER:
        return (NEXT_GAME,)
    if m.phase == M.STARTER:
        return (CALL, m.starter)
    return no(_NOTHING)
