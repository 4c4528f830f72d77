"""The board kit: the fake board (fakeboard/fake.py) with the app on it, and fingers that press
its keys through the matrix scanner, for the board app's tests (CPython; the engine's own
shorthands are host_tests/both/matchkit.py).

    hw, app, f = board(display=True)
    f.press("#5C#")            # keys, each pressed 60 ms and released, the loop running
    f.hold("*")                # a long press: undo
    new_game(f, app, {"players": 3})
    shown(hw)                  # the display's text
"""

from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from board.app import App
from board.menu import MENU_ITEMS
from cribbage import match as M
from cribbage.cards import PIP
from dealer.autoplay import seeded
from matchkit import card_keys, deal_two


class Fingers:
    """Presses keys on the fake keypad and lets the board's loop run (10 ms scans)."""

    def __init__(self, hw, app):
        self.hw = hw
        self.app = app
        self.clock = hw["clock"]
        self.matrix = hw["fake_matrix"]

    def run(self, ms):
        for _ in range(ms // 10):
            self.clock.advance(10)
            t = self.clock()
            self.app.keys.update(t)
            self.app.step(t)

    def press(self, keys, hold=60):
        for k in keys:
            self.matrix.press(k)
            self.run(hold)
            self.matrix.release(k)
            self.run(50)

    def hold(self, key):
        self.press(key, hold=1000)

    def card(self, c):
        self.press(card_keys(c))


def board(display=False):
    hw = build("/data", display=display, fs=RamFs())
    app = App(hw)
    return hw, app, Fingers(hw, app)


def selftest_at_power_up():
    """A board (no display) powered up with * held: the LED self-test runs (app.boot())."""
    hw = build("/data", display=False, fs=RamFs())
    hw["fake_matrix"].press("*")
    app = App(hw)
    assert app.boot()
    hw["fake_matrix"].release("*")
    return hw, app, Fingers(hw, app)


def play_game(hw, app, f, seed):
    """Deal real cards and enter everything on the keys, as few as the board takes (a card
    goes in with its suit, B is go, a hand played in full is filled in: OK, which counts the
    dealer's too; the crib goes in with its fourth card); returns the engine calls made."""
    rand = seeded(seed)
    calls = [("deal", 0)]
    f.press("#")  # the first deal: the chosen player (seat 0) deals
    while True:
        m = app.m
        if m.phase == M.OVER:  # (won by a card, a go or the crib as typed: the next OK
            return calls  # is no habit, it starts the next game: issue 35 item 16)
        if m.phase == M.DEAL:
            f.press("#")  # (right after the crib went in as typed, a habit: ignored)
            if m.phase != M.DEAL:
                calls.append(("deal", -1))
            continue
        hands, crib, starter = deal_two(m.dealer, rand)
        left = [list(h) for h in hands]
        before = m.events
        f.card(starter)
        calls.append(("starter", starter))
        assert m.events == before + 1 and app.err is None, app.err
        while m.phase == M.PLAY:
            s = m.turn
            ok = [c for c in left[s] if m.count + PIP[c] <= 31]
            before = m.events
            if ok:
                left[s].remove(ok[0])
                f.card(ok[0])
                calls.append(("play", ok[0]))
            else:
                f.press("B")
                calls.append(("go",))
            assert m.events == before + 1 and app.err is None, app.err
        while m.phase == M.SHOW:
            cards = crib if m.crib_next else sorted(hands[m.turn])  # (filled in card by card)
            before = m.events
            if m.crib_next:
                for c in cards:
                    f.card(c)  # its fourth card puts it in (muggins off)
            else:
                f.press("#")  # the pone's hand as filled in: OK counts the dealer's too
            calls.append(("show", cards))
            if m.events == before + 2:
                calls.append(("show", sorted(hands[m.dealer])))
            assert m.events - before in (1, 2) and app.err is None, app.err


def replay(calls):
    """The engine calls play_game() returns, made directly on a new Match."""
    ref = M.Match()
    for call in calls:
        if call[0] == "deal":
            ref.deal(call[1])
        elif call[0] == "starter":
            ref.starter(call[1])
        elif call[0] == "play":
            ref.play(call[1])
        elif call[0] == "go":
            ref.go()
        else:
            ref.show(call[1])
    return ref


def new_game(f, app, settings):
    """Set settings (name -> value) in the menu, then start a new game with them."""
    for name, value in settings.items():
        f.press("D")
        for _ in range(MENU_ITEMS.index(name)):  # the menu's own order (board/menu.py)
            f.press("A")
        for ch in str(value):
            f.press(ch)
        f.press("#")
        f.press("*")
        assert app.cfg.get(name) == value, app.err
    f.press("D#")  # menu item 1: new game


def peg_out(f, app=None, side=0):
    """Deal, then Red (or side, A picking it: app tells whose turn the peg is) pegs out by hand
    (8 x 15, then 1: 121; the other side has 0: a double skunk): game over."""
    f.press("#")
    if app is not None and side != app.e.seat % app.m.sides:
        f.press("A")
    for _ in range(8):
        f.press("15#")
    f.press("1#")


def next_game(f, app):
    """OK: the finished game goes to the history and the next one starts (an OK right after
    the winning card is taken as one pressed out of habit: then a second)."""
    for _ in range(2):
        f.press("#")
        if app.m.phase != M.OVER:
            return
    raise AssertionError("OK did not start the next game: %s" % app.err)


def shown(hw):
    """The display's text, its lines joined by newlines."""
    return "\n".join(hw["display"].shown)


def marked(app):
    """The holes the LEDs mark in white, in order (the View's marks): the menu's item, the
    penalty's kind, the advised throw, or, without a display, one per typed card (and one for
    a typed number or go). [] when none is: no menu or entry open, nothing typed unseen."""
    return [p for p in app.view.marks if p >= 0]
