"""The menu (new game, settings, discard advisor, LED test, penalty), the advisor's answer
and the penalty entry.

Loaded the first time D is pressed: a board that is only pegged never spends RAM on it.
"""

from cribbage.events import MISDEAL, FAIL_TO_PLAY

from board import render
from board.settings import NAMES
from board.modes import NORMAL, ADVISE, PENALTY
from board.fault import room

MENU_ITEMS = ("new game",) + NAMES + ("advisor", "LED test", "penalty")  # D B: penalty
# a setting's help line on the display, by board.settings.NAMES
HELP = ("players 2-6", "game 61 or 121", "muggins 0/1", "skunks 0/1", "LED brightness",
        "supply mA", "watchdog 0/1")


def menu_key(app, name):
    """A key in the menu: A/D next item, B back, digits type a value, # do it, * leave."""
    if app.mode == PENALTY:
        return penalty_key(app, name)
    item = MENU_ITEMS[app.item]
    if name in "AD":
        app.item = (app.item + 1) % len(MENU_ITEMS)
        app.num = -1
    elif name == "B":
        app.item = (app.item - 1) % len(MENU_ITEMS)
        app.num = -1
    elif name == "*":
        app.mode = NORMAL
        app._clear_entry()
    elif "0" <= name <= "9":
        d = ord(name) - 48
        app.num = d if app.num < 0 or app.num > 999 else app.num * 10 + d
    elif name == "#":
        if item == "new game":
            if app.m.events and app.num != -2:  # a game is on: one stray OK must not end it
                app._error("OK again ends this game")
                app.num = -2  # asked (A/B, digits or * forget it)
                return
            room("board.history")
            from board.history import record_game
            record_game(app)  # a finished game left through the menu is kept too
            app.m = app._new_match()
            app.view = render.View(app.m.sides, app.m.target)
            app._save()
            app.mode = NORMAL
            app.seat = 0
            app.msg = "new game: A picks the dealer, OK deals"
        elif item == "advisor":
            app.mode = ADVISE
            app._clear_entry()
        elif item == "LED test":
            app.mode = NORMAL
            app.selftest_step = 0
        elif item == "penalty":
            app.mode = PENALTY
            app.num = -1
            penalty_key(app, "B")  # a misdeal, to the non-dealer, until A / C say otherwise
        else:
            try:
                if app.num >= 0:
                    app.cfg.set(item, app.num)
                else:
                    app.cfg.step(item)
            except ValueError as e:
                app._error(str(e))
            app.num = -1
            app.store.save("settings", app.cfg.dumps())
            app.renderer.brightness = app.cfg.get("bright")
            app.renderer.limit_ma = app.cfg.get("limit")
            app.watchdog(app.cfg.get("watchdog"))
            app.msg = "new game to apply" if item in NAMES[:4] else ""
    else:
        app._error("in the menu: A/B move, digits set, OK, * leave")

def advise(app, name):
    """A or B after 5 or 6 cards in the advisor: rank the throws (your crib, or not)."""
    if name not in "AB":
        return app._error("A: your crib, B: theirs")
    n = len(app.cards)
    if n not in (5, 6):
        return app._error("type 5 or 6 cards, then A or B")
    try:
        room("cribbage.advise")
        from cribbage.advise import best_discards  # lazily: only this mode needs it
    except ImportError:
        return app._error("no advisor on this board")
    try:
        app.advice = best_discards(app.cards, name == "A", 3)
    except ValueError as e:
        return app._error(str(e))


def penalty_key(app, name):
    """A key in the penalty entry (two points, cribbage.match.penalty): A whose they are, B a
    misdeal (proposes the non-dealer), C a failure to play after a go, # pegs, * leaves."""
    m = app.m
    if name == "A":
        app.seat = (app.seat + 1) % m.players
    elif name == "B":
        app.pen = MISDEAL
        if m.dealer >= 0:
            app.seat = m.pone()  # the non-dealer (with more players: A picks another)
    elif name == "C":
        app.pen = FAIL_TO_PLAY
    elif name == "#":
        if app._do(m.penalty, m.side_of(app.seat), app.pen):
            app.mode = NORMAL
    elif name == "*":
        app.mode = NORMAL
        app._clear_entry()
    else:
        app._error("A B C, OK or *")  # the display lists them
