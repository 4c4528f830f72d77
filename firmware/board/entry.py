"""Typing and confirming: the entry line (a number, cards, go) and what OK does with it.

Functions of the App (board/app.py, whose docstring has the key map), split out so each
module compiles within a small heap.
"""

from cribbage import match as M
from cribbage.cards import fmt

NORMAL = 0  # the app's modes
MENU = 1
ADVISE = 2
SUITS = "ABCD"


def digit(app, d):
    if app.go_pending:
        return app._error("go is waiting: OK or back")
    if app.num < 0:
        app.num = d
        app.ndig = 1
    elif app.ndig == 1 and app.num > 0:
        app.num = app.num * 10 + d
        app.ndig = 2
    else:
        app._error("%d%d: too many digits" % (app.num, d))


def max_cards(app):
    if app.mode == ADVISE:
        return 6
    if app._showing():
        return 4
    return 1


def suit(app, s):
    r = app.num
    if not 1 <= r <= 13:
        return app._error("no card %d: 1=A 11=J 12=Q 13=K" % r)
    c = (r - 1) * 4 + s
    if c in app.cards:
        return app._error("%s is typed already" % fmt(c))
    if len(app.cards) >= max_cards(app):
        return app._error("that is all the cards: OK or back")
    if app._showing() and c == app.m.starter_card:
        return app._error("%s is the starter" % fmt(c))
    app.cards.append(c)
    app.num = -1
    app.ndig = 0


def letter(app, name):
    m = app.m
    if name == "A":
        if app.cards:
            return app._error("A: finish or clear the cards first")
        app.seat = (app.seat + 1) % m.players
        app.msg = ("player", app.seat)  # board/text.py words it
    elif name == "B":
        if m.phase != M.PLAY or app.cards:
            return app._error("go is only said in the play")
        app.go_pending = True
    elif name == "C":
        if m.overlooked() and not app.cards and not app.show_next:
            return app._do(m.muggins)
        if m.phase == M.OVER:
            return app._error("the game is over: OK for the next")
        app.show_next = not app.show_next
    elif name == "D":
        if app.cards:
            return app._error("D: finish or clear the cards first")
        app.mode = MENU
        app.item = 0


def back(app):
    if app.go_pending:
        app.go_pending = False
    elif app.num >= 0:
        if app.ndig == 2:
            app.num //= 10
            app.ndig = 1
        else:
            app.num = -1
            app.ndig = 0
    elif app.cards:
        app.cards.pop()
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
        return app._error("who deals? A to choose, then OK")
    before = m.dumps()
    m.deal()
    if app._do(fn, *args):
        return True
    app.m = M.loads(before)  # exactly as before, redo events included
    app._save()
    return False


def ok(app):
    m = app.m
    if app.mode == ADVISE:
        return app._error("A: your crib, B: theirs")
    if app.go_pending:
        return app._do(m.go)
    if app.cards:
        if app._showing():
            if len(app.cards) != 4:
                return app._error("a hand is 4 cards: %d typed" % len(app.cards))
            if m.muggins_on and app.num < 0:
                return app._error("muggins is on: type your count, then OK")
            return dealt_do(app, m.show, list(app.cards), app.num)
        if app.num >= 0:
            return app._error("finish the card: a suit A B C D")
        c = app.cards[0]
        if m.phase == M.DEAL or m.phase == M.STARTER:
            return dealt_do(app, m.starter, c)
        if m.phase == M.PLAY:
            return app._do(m.play, c)
        return app._error("no card is wanted now")
    if app.num >= 0:
        if app._showing():
            return dealt_do(app, m.show, None, app.num)
        return app._do(m.peg, m.side_of(app.seat), app.num)
    if m.phase == M.DEAL:
        if m.next_dealer < 0:
            return app._do(m.deal, app.seat)
        return app._do(m.deal)
    if m.phase == M.OVER:
        return app._do(m.next_game)
    if m.phase == M.STARTER:
        return app._do(m.starter)
    app._error("nothing to confirm: type first")


def menu_key(app, name):
    from board.menu import menu_key
    menu_key(app, name)


def advise(app, name):
    from board.menu import advise
    advise(app, name)
