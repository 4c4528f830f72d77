"""The menu (new game, settings, discard advisor, statistics, LED test, penalty), the
advisor's answer, the statistics' pages and the penalty entry: what their keys mean, as
commands (board/modes.py) the app applies: they read the View (the app's snapshot) and write
nothing. What the display shows of them is the display's
text (board/text.py, board/menutext.py): nothing here builds a line of the display.

Loaded the first time D is pressed: a board that is only pegged never spends RAM on it.
"""

import gc

from cribbage.events import MISDEAL, FAIL_TO_PLAY, PLAY

from board.settings import NAMES
from board.modes import (NORMAL, MENU, ADVISE, PENALTY, STATS, NEW_GAME, SETTINGS, SELFTEST,
                         NOTHING, REFUSE, CALL, MODE, EDIT)
from board.fault import load, modules, release

MENU_ITEMS = ("new game",) + NAMES + ("advisor", "stats", "LED test", "penalty")  # D B: penalty


def menu_key(v, name):
    """A key in the menu: A/D next item, B back, digits type a value, # do it, * leave.
    Returns what the app is to do, a command (board/modes.py) as board/entry.py's functions
    do, reading the View (v): the menu's item and mode are the app's, changed by the command
    (MODE, ...); what is typed, the entry's, by an EDIT."""
    if v.mode == PENALTY:
        return penalty_key(v, name)
    if v.mode == STATS:
        return stats_key(v, name)
    e = v.e
    item = MENU_ITEMS[v.item]
    # (anything but OK forgets "OK again ends this game": e.asked)
    if name in "AD":
        return (EDIT, (MODE, MENU, (v.item + 1) % len(MENU_ITEMS)), "asked", False, "num", -1)
    elif name == "B":
        return (EDIT, (MODE, MENU, (v.item - 1) % len(MENU_ITEMS)), "asked", False, "num", -1)
    elif name == "*":
        return (EDIT, (MODE, NORMAL, 0), "clear", 0)
    elif "0" <= name <= "9":
        d = ord(name) - 48
        return (EDIT, NOTHING, "asked", False,
                "num", d if e.num < 0 or e.num > 999 else e.num * 10 + d)
    elif name == "#":
        if item == "new game":
            if v.m.events and not e.asked:  # a game is on: one stray OK must not end it
                return (EDIT, (REFUSE, "OK again ends this game"), "asked", True)
            return (NEW_GAME,)
        if item == "advisor":
            return (EDIT, (MODE, ADVISE, 0), "clear", 0)
        elif item == "LED test":
            return (SELFTEST,)
        elif item == "stats":
            return open_stats(v)
        elif item == "penalty":  # a misdeal, to the non-dealer, until A / C say otherwise
            return (EDIT, penalty_key(v, "B"), "num", -1)  # (the penalty entry opens with it)
        # a setting: the digits typed (-1: none, OK steps it), set by the app
        return (EDIT, (SETTINGS, item, e.num), "num", -1)
    return (EDIT, (REFUSE, "in the menu: A/B move, digits set, OK, * leave"), "asked", False)


def advise(v, name):
    """A or B after 5 or 6 cards in the advisor: rank the throws (your crib, or not)."""
    if name not in "AB":
        return (REFUSE, "A: your crib, B: theirs")
    cards = v.e.cards
    if len(cards) not in (5, 6):
        return (REFUSE, "type 5 or 6 cards, then A or B")
    try:
        best_discards = load("cribbage.advise5" if v.m.cards() == 5 else  # five-card: two
                             "cribbage.advise").best_discards  # of the five (lazily: only
        # this mode needs it)
    except ImportError:
        return (REFUSE, "no advisor on this board")
    try:
        return (EDIT, NOTHING, "advice", best_discards(cards, name == "A", 3))
    except ValueError as err:
        return (REFUSE, str(err))


def penalty_key(v, name):
    """A key in the penalty entry (two points, cribbage.match.penalty): A whose they are, B a
    misdeal (proposes the non-dealer), C a failure to play after a go, D who failed (a seat
    of another side; in the play his cards left are dead), # pegs, * leaves. The kind is
    the app's (v.pen): B and C return the command that sets it (MODE, PENALTY, kind)."""
    m = v.m
    e = v.e
    if name == "A":
        seat = (e.seat + 1) % m.players
        if v.pen == FAIL_TO_PLAY:  # (one of another side)
            return (EDIT, NOTHING, "seat", seat, "off", offender(m, seat, e.off, False))
        return (EDIT, NOTHING, "seat", seat)
    elif name == "B":
        if m.dealer >= 0:  # the non-dealer (with more players: A picks another)
            return (EDIT, (MODE, PENALTY, MISDEAL), "off", -1, "seat", m.pone())
        return (EDIT, (MODE, PENALTY, MISDEAL), "off", -1)
    elif name == "C":
        return (EDIT, (MODE, PENALTY, FAIL_TO_PLAY), "off", offender(m, e.seat, -1, False))
    elif name == "D":
        if v.pen != FAIL_TO_PLAY:
            return (REFUSE, "D: who failed, after C")
        if e.off < 0:
            return (REFUSE, "no cards to make dead now")
        return (EDIT, NOTHING, "off", offender(m, e.seat, e.off, True))
    elif name == "#":
        if v.pen == FAIL_TO_PLAY:
            return (CALL, m.penalty, m.side_of(e.seat), FAIL_TO_PLAY, e.off)
        return (CALL, m.penalty, m.side_of(e.seat), v.pen)  # (pegged: the app leaves the
        # entry)
    elif name == "*":
        return (EDIT, (MODE, NORMAL, 0), "clear", 0)
    return (REFUSE, "A-D, OK or *")  # the display lists them


def offender(m, seat, now, step):
    """The seat a failure to play names (his cards left are dead), two points going to seat:
    in the play, once a card is in, a seat of another side with cards left, not dead already
    (else -1). step (D): the next such seat after now. Else now if it still can be, or the
    first from seat's left that said go in this series (m.gone), or the first from seat's left."""
    if m.phase != PLAY or not sum(m.played):
        return -1
    n = m.players
    if step:
        for k in range(1, n + 1):
            if _can_fail(m, seat, (now + k) % n):
                return (now + k) % n
        return -1
    if now >= 0 and _can_fail(m, seat, now):
        return now
    first = -1
    for k in range(1, n + 1):
        s = (seat + k) % n
        if _can_fail(m, seat, s):
            if m.gone >> s & 1:
                return s
            if first < 0:
                first = s
    return first


def _can_fail(m, seat, s):
    """True if seat s can be named for a failure to play whose two go to seat."""
    return (m.side_of(s) != m.side_of(seat) and m.played[s] < 4
            and not m.dead() >> s & 1)


def open_stats(v):
    """OK on "stats": each side's statistics (board/stats.py) from the history of finished
    games (read from v.store, the files), as the display's lines, one page per side (two
    for a side that played both six- and five-card cribbage: each kind apart). board.stats
    is loaded for this and dropped at once (board.history and what the tally loads too,
    unless the board had them loaded: board/fault.py's table): only the lines stay, in the
    entry (the EDIT returned), until the pages are left (Entry.clear drops them)."""
    if v.display is None:
        return (REFUSE, "stats need the display")
    had = None
    try:
        had = modules()
        stats = load("board.stats")
        t = stats.tally(v.store)
        pages = []
        for side in range(len(t)):
            for n in (6, 5):  # a page per side and kind of game it played
                p = stats.lines(t, side, n)
                if p:
                    pages.append(p)
    except OSError as err:
        return (REFUSE, "history unreadable (%s)" % err)
    finally:
        stats = None
        release(had)
        gc.collect()
    return (EDIT, (MODE, STATS, 0), "clear", 0, "stats", pages)


def stats_key(v, name):
    """A key on the statistics' pages: A/D (or OK) the next side, B the one before, * back
    to the menu (the pages are dropped)."""
    e = v.e
    n = len(e.stats) if e.stats else 0
    if name in "AD#":
        if n:
            return (EDIT, NOTHING, "page", (e.page + 1) % n)
    elif name == "B":
        if n:
            return (EDIT, NOTHING, "page", (e.page - 1) % n)
    elif name == "*":
        return (EDIT, (MODE, MENU, v.item), "clear", 0)
    else:
        return (REFUSE, "A/B side, * back")
    return NOTHING
