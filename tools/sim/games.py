"""What a player types on the keypad: the menu's settings, a whole game (a card: keys.card_keys).

The simulator's tests and `tools/sim --autoplay` feed these key scripts (tools/sim/keys.py)
to the simulated board; game_keys() also returns the engine's own game to compare with.
"""

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.menu import MENU_ITEMS
from dealer import autoplay
from cribbage import match as M

from sim.keys import card_keys  # a card as key presses (kept in keys.py, with the cards of --keys)


def settings_keys(**values):
    """Keys that set the board's settings in its menu (D, A/B move, digits, OK), then start
    a new game with them: settings_keys(players=3, game=61). The menu's order is read from
    the app's own tables (firmware/board/menu.py), not copied."""
    keys = "D"
    at = 0
    for name in sorted(values, key=MENU_ITEMS.index):
        i = MENU_ITEMS.index(name)
        keys += "A" * (i - at) + "%d#" % values[name]
        at = i
    return keys + "B" * at + "#"  # back to "new game", OK


def game_keys(seed, players=2, target=121, strategies=None, cards=6):
    """A complete game as keypad presses: the core's computer players (dealer.autoplay)
    play it on CPython with a seeded deck, and every call they make on their Match becomes
    the keys a player would type for it (after the menu keys for players and game, if they
    are not the defaults, or for cards 5: five-card cribbage, two players to 61, whatever
    players and target say), as few as the board takes: no OK after a card or a go (they go
    in as typed), no OK for a deal after the first (typing the starter deals), a hand's cards
    the play did not enter then OK (the board fills in those it did; with two players, both
    hands played in full, one OK counts both), the crib typed without an OK (its fourth card
    puts it in: muggins is off). Returns (key script, that Match) so a caller can compare the
    simulated board with the engine's own result."""
    keys = []
    if cards == 5:  # (the board's cards setting: its players and game do not apply)
        players, target = 2, 61
        keys.append(settings_keys(cards=5))
    elif players != 2 or target != 121:
        keys.append(settings_keys(players=players, game=target))
    m = M.Match(players=players, target=target, cards=cards)
    full = 3 if cards == 5 else 4  # a hand's cards
    rec = keys.append
    orig = {name: getattr(m, name) for name in ("deal", "starter", "play", "go", "show")}

    def deal(dealer=-1):
        if m.deals == 0:  # the first deal: choose the dealer with A (from seat 0), then OK
            rec("A" * m.next_dealer + "#")
        return orig["deal"](dealer)

    def starter(card=-1, jack=False):
        rec(card_keys(card))
        return orig["starter"](card, jack)

    def play(card):
        rec(card_keys(card))
        return orig["play"](card)

    def go():
        rec("B")
        return orig["go"]()

    both = []  # the pone's OK counted the dealer's hand too

    def show(hand=None, points=-1):
        if m.crib_next:
            rec("".join(card_keys(c) for c in hand))  # its fourth card puts it in
        elif m.played[m.turn] < full:  # the cards played are filled in: the rest, OK
            played = []
            m.played_cards(m.turn, played)
            rec("".join(card_keys(c) for c in hand if c not in played) + "#")
        elif both:
            both.pop()  # (the pone's OK counted it)
        else:
            rec("#")  # a hand played in full is filled in: OK counts it
            if players == 2 and m.played[m.dealer] == full and m.turn == m.pone():
                both.append(True)  # and the dealer's, played in full too
        return orig["show"](hand, points)

    m.deal, m.starter, m.play, m.go, m.show = deal, starter, play, go, show
    strategies = strategies or [autoplay.GREEDY] * players
    autoplay.play_game(m, autoplay.seeded(seed), strategies)
    return " ".join(k for k in keys if k), m
