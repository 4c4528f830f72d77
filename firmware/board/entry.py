"""Typing and confirming: the entry line (a number, cards, go) and what OK does with it.

Functions of the App (board/app.py, whose docstring has the key map), split out so each
module compiles within a small heap.

Muggins with more than two sides: C after an under-claimed count proposes the side after the
shower's; app.mug holds the proposed side (-1: not calling; board/state.py drops it when the
chance is gone), A steps to the next side (never the shower's), OK takes it, * cancels.
"""

from cribbage import match as M
from cribbage.cards import fmt
from cribbage.events import say
from board.modes import NORMAL, MENU, ADVISE
from board.fault import room

from micropython import const

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
muggins: A next, OK takes, * cancels"""
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


def no(app, k, args=()):
    """Refuse the entry: refusal k of _NO % args on the display, the LEDs flash."""
    app._error(say(_NO, k, args))


def mug_next(m, side):
    """The side after side that may call muggins (any but the shower's)."""
    side = (side + 1) % m.sides
    if side == m.overlooked_side():
        side = (side + 1) % m.sides
    return side


def digit(app, d):
    if app.mug >= 0:
        return no(app, _CALLING)
    if app.m.phase == M.OVER and app.mode == NORMAL:
        return no(app, _OVER)  # nothing to type: say what OK does now
    if app.num < 0:
        app.num = d
        app.ndig = 1
    elif app.ndig == 1 and app.num > 0:
        app.num = app.num * 10 + d
        app.ndig = 2
    else:
        no(app, _DIGITS, (app.num, d))


def suit(app, s):
    r = app.num or 10  # 0 is the ten: one key, as for every rank below it
    if not 1 <= r <= 13:
        return no(app, _RANK, (r,))
    c = (r - 1) * 4 + s
    if app.filled == 4:  # the hand as played, untouched: a card typed starts it afresh
        app.cards.clear()
    app.filled = 0
    if c in app.cards:
        return no(app, _TYPED, (fmt(c),))
    most = 6 if app.mode == ADVISE else 4 if app._showing() else 1
    if most == 1 and app.cards:
        app.cards.pop()  # a card to play (or the starter): the newest one typed counts
    if len(app.cards) >= most:
        return no(app, _ALL_CARDS)
    if app._showing() and c == app.m.starter_card:
        return no(app, _STARTER, (fmt(c),))
    app.cards.append(c)
    app.num = -1
    app.ndig = 0
    if most == 1 and app.mode == NORMAL:  # a card to play, or the starter: no OK to wait for
        ok(app)
        app.quick = True  # (an OK now is the habit: board/app.py, whether it went in or not)


def letter(app, name):
    m = app.m
    if app.mug >= 0:  # calling muggins: A steps, other letters mean nothing
        if name != "A":
            return no(app, _CALLING)
        app.mug = mug_next(m, app.mug)
    elif name == "A":
        if app.cards:
            return no(app, _A_CARDS)
        app.seat = (app.seat + 1) % m.players
        app.msg = ("player", app.seat)  # board/text.py words it
    elif name == "B":
        if m.phase != M.PLAY or app.show_next:
            return no(app, _GO_WHEN)
        app.cards.clear()  # the card typed (refused: over 31?) gives way to the go
        app._do(m.go)  # said at once: no OK to wait for
        app.quick = True
    elif name == "C":
        if m.overlooked() and not app.cards and not app.show_next and m.phase != M.OVER:
            if m.sides == 2:
                return app._do(m.muggins)  # the other side calls it: no choice to make
            app.mug = mug_next(m, m.overlooked_side())  # who calls? OK takes it (state.py previews)
            return
        if m.phase == M.OVER:
            return no(app, _OVER)
        if m.phase == M.PLAY and not app.show_next:
            left = 4 * m.players - sum(m.played)
            if left < 4 * m.players:  # cards were entered: the play ends with its last card
                return no(app, _PLAY_ON, (left,))
        app.show_next = not app.show_next
    elif name == "D":
        if app.cards:
            return no(app, _D_CARDS)
        app.mode = MENU
        app.item = 0


def back(app):
    if app.mug >= 0:
        app.mug = -1  # not calling muggins after all
    elif app.num >= 0:
        if app.ndig == 2:
            app.num //= 10
            app.ndig = 1
        else:
            app.num = -1
            app.ndig = 0
    elif app.cards:
        if app.filled == len(app.cards):  # the cards filled in from the play: all go
            app.cards.clear()
        else:
            app.cards.pop()
        app.filled = 0
        app.advice = None
    elif app.show_next:
        app.show_next = False
    elif app.mode == ADVISE:
        app.mode = NORMAL
        app._clear_entry()
    else:
        app.msg = ""


def dealt_do(app, fn, *args):
    """fn(*args) as an engine event, dealing first when the game waits for a deal. If the
    event is refused, the deal is taken back too: a wrong entry changes nothing."""
    m = app.m
    if m.phase != M.DEAL:
        return app._do(fn, *args)
    if m.next_dealer < 0:
        return no(app, _WHO_DEALS)
    before = m.mark()
    m.deal()
    if app._do(fn, *args):
        return True
    m.rollback(before)  # exactly as before, redo events included (one deal of replay)
    return False


def ok(app):
    m = app.m
    if app.mode == ADVISE:
        return no(app, _CRIB)
    side = app.mug
    if side >= 0:
        app.mug = -1  # taken (or refused: the error says why)
        return app._do(m.muggins, side)
    if app.cards:
        if app._showing():
            if len(app.cards) != 4:
                return no(app, _HAND, (len(app.cards),))
            if m.muggins_on and app.num < 0:
                return no(app, _MUGGINS)
            return dealt_do(app, m.show, list(app.cards), app.num)
        if app.num >= 0:
            return no(app, _SUIT)
        c = app.cards[0]
        if m.phase == M.DEAL or m.phase == M.STARTER:
            return dealt_do(app, m.starter, c)
        if m.phase == M.PLAY:
            return app._do(m.play, c)
        return no(app, _NO_CARD)
    if app.num >= 0:
        if app._showing():
            return dealt_do(app, m.show, None, app.num)
        return app._do(m.peg, m.side_of(app.seat), app.num)
    if m.phase == M.DEAL:
        if m.next_dealer < 0:
            return app._do(m.deal, app.seat)
        return app._do(m.deal)
    if m.phase == M.OVER:
        room("board.history")
        from board.history import record_game
        record_game(app)  # first: a power cut before the game's save records it once
        return app._do(m.next_game)
    if m.phase == M.STARTER:
        return app._do(m.starter)
    no(app, _NOTHING)

