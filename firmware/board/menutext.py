"""The display's lines on the menu's pages: the menu's item and its setting, the penalty
entry, a side's statistics, the advisor's throws (board/text.py's lines() asks for them; what
their keys do is board/menu.py's). The rest of the display's text is board/text.py's.

Its own module, loaded the first time a page shows, and kept (as the menu is): a board that
is only pegged never holds these words.
"""

from cribbage.cards import fmt

from board import screen
from board.screen import seat_name
from board.modes import MENU, ADVISE, PENALTY, STATS
from board.settings import NAMES, MATCHES
from board.fault import load


def page(v, out):
    """The display's lines on the page the View v shows (v.mode: MENU, PENALTY, STATS or
    ADVISE):
    the menu's item, the penalty entry, the advisor, after the scores' lines in out; a side's
    statistics on a page of their own. (Some lines are joined by newlines and wrapped, as
    text.prompt()'s: a string of 10 characters or fewer on its own is a name, interned for
    good once loaded.)"""
    mode = v.mode
    e = v.e
    if mode == MENU:
        MENU_ITEMS = load("board.menu").MENU_ITEMS  # (loaded already: its keys brought it)
        from version import VERSION

        item = MENU_ITEMS[v.item]
        out.append("MENU %d/%d %s" % (v.item + 1, len(MENU_ITEMS), VERSION))  # 16 wide
        out.append(item)
        if item in NAMES:  # a setting: its value (the match's and the deal's in words too)
            value = v.cfg.get(item)
            said = "= %d" % value
            if item == "match":
                said += " " + MATCHES[value]
            elif item == "deal":  # who deals the next game
                said += " " + ("rotate", "cut for deal", "loser deals")[value]
            out.append(said)
            out.append(("players 2-6", "game 61 or 121", "muggins 0/1", "skunks 0/1",
                        "match mode 0-3", "next game 0-2", "LED brightness", "supply mA",
                        "watchdog 0/1", "cards 6 or 5", "room light 0/1",
                        "1 = colour-blind")[NAMES.index(item)])  # its help
        if e.num >= 0:
            out.append("> " + str(e.num))
        out.append("A/B move # ok")
    elif mode == PENALTY:  # the kind, whose two, who failed (named), the keys
        off = e.off
        if len(out) < 2 or off < 0:  # (two lines of scores and an offender: no room for it)
            out.append("PENALTY")
        kind = ("misdeal", "failed to play", "false go")[v.pen]
        if off >= 0:  # whose cards left are dead
            said = "%s\n+2 to %s\nby %s\nA who B misdeal\nC failed D by" % (
                kind, seat_name(v.m, e.seat), seat_name(v.m, off))
        else:
            said = "%s\n+2 to %s\nA who B misdeal\nC failed to play" % (
                kind, seat_name(v.m, e.seat))
        out.extend(screen.wrap(said + "\n# peg * leave"))
    elif mode == STATS:  # its own page: the side's lines (board/stats.py: 6 at most) fill it
        pages = e.stats
        if not pages:
            return screen.wrap("STATS\nno history yet:\na game counts\nwhen it is over\n* back")
        out = ["STATS %d/%d" % (e.page + 1, len(pages))]
        out.extend(pages[e.page])
        out.append("A/B side * back")
    elif mode == ADVISE:  # the cards typed, the number typed, the best throws
        said = "ADVISE 5-6 cards\n> " + " ".join(fmt(c) for c in e.cards) + (
            " " + str(e.num) if e.num >= 0 else "")
        if e.advice:
            for pts, throw in e.advice:
                said += "\n%s %d.%02d" % (" ".join(fmt(e.cards[i]) for i in throw),
                                           int(pts), int(pts * 100 + 0.5) % 100)
        else:
            said += "\nA my crib, B not"
        out.extend(screen.wrap(said))
    return out
