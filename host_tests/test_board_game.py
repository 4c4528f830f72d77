"""A whole game played on the keypad of the fake board: real key presses through the matrix
scanner, the app, the engine, the renderer and storage. The journal the keys produce must be
the one the same calls made directly produce; the LEDs and the saved game must follow.
"""

from boardkit import (Fingers, board, marked, new_game, play_game, replay, selftest_at_power_up,
                      shown)
from check import raises
from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from board.app import App
from board.menu import MENU_ITEMS
from cribbage import match as M
from cribbage.advise import best_discards
from dealer.cardtext import parse_many


def test_a_whole_game_on_the_keys():
    hw, app, f = board()
    calls = play_game(hw, app, f, 7)
    m = app.m
    assert m.phase == M.OVER and max(m.score) >= 121
    assert replay(calls).dumps() == m.dumps()  # the keys made exactly these events
    # the LEDs: the winner's lane lit end to end, the loser's front peg in its hole
    L = hw["layout"]
    lit = hw["strip"].lit()
    w = m.winner
    for s in range(1, 121, 7):
        assert L.hole(w, s) in lit
    assert L.hole(1 - w, m.score[1 - w]) in lit
    # the game was saved after the last event, and a board restarted on it restores it
    saved = hw["fs"].files["/data/game"]
    assert M.loads(saved).dumps() == m.dumps()
    again = App(hw)
    assert again.m.dumps() == m.dumps() and again.m.winner == w
    # OK starts the next game; the games won are kept
    f.press("#")
    assert app.m.phase == M.DEAL and app.m.score == [0, 0] and sum(app.m.games) >= 1


def test_undo_and_redo_are_long_presses():
    hw, app, f = board()
    f.press("#")  # deal
    f.press("1")
    f.press("1D")  # starter: jack of spades, two for his heels
    f.press("#")
    m = app.m
    assert m.score[0] == 2 and m.phase == M.PLAY
    saved = hw["fs"].files["/data/game"]
    f.hold("*")
    assert app.m.score[0] == 0 and app.m.phase == M.STARTER
    assert hw["fs"].files["/data/game"] != saved  # the undo is saved too
    f.hold("#")
    assert app.m.score[0] == 2 and hw["fs"].files["/data/game"] == saved


def test_peg_points_preview_blinks_then_ok_pegs():
    hw, app, f = board()
    L = hw["layout"]
    f.press("A")  # Blue
    f.press("1")
    f.press("2")
    v = app.view
    assert v.preview_side == 1 and v.preview_score == 12 and app.m.score == [0, 0]
    seen = set()
    for _ in range(10):
        f.run(100)
        seen.add(L.hole(1, 12) in hw["strip"].lit())
    assert seen == {True, False}  # blinking
    f.press("#")
    assert app.m.score == [0, 12] and app.view.preview_side == -1
    assert L.hole(1, 12) in hw["strip"].lit()
    f.press("*")  # back with nothing typed changes nothing
    assert app.m.score == [0, 12]


def test_wrong_entries_flash_and_change_nothing():
    hw, app, f = board(display=True)
    d = hw["display"]
    f.press("#")  # deal
    before = app.m.dumps()
    f.press("1")
    f.press("4A")  # no card 14
    assert app.err == "no card 14: 1=A 0=10 11=J 12=Q 13=K" and app.view.error_at >= 0
    assert "no card 14" in " ".join(d.shown)
    f.press("*")
    f.press("*")
    f.press("B")  # go before the play
    assert app.err == "go is only said in the play"
    assert app.m.dumps() == before
    f.press("5C#")  # starter 5H
    f.press("5C")  # the starter again, in the play
    f.press("#")
    assert "starter" in app.err
    assert app.m.phase == M.PLAY and app.m.count == 0
    f.press("*")
    f.press("1")
    f.press("6")
    f.press("#")  # a plain peg of 16: no card makes that
    assert "peg 1 to 15" in app.err
    f.press("**")
    f.press("C")  # count now: the hands
    f.press("1")
    f.press("9")
    f.press("#")
    assert "19" in app.err  # no hand counts 19
    assert app.m.score == [0, 0]
    f.press("**")
    f.press("2")
    f.press("8")
    f.press("#")  # pone's hand is 28 (by points)
    assert app.err is None and app.m.score[1] == 28


def test_entry_refusals_read_as_written():
    # board/entry.py keeps its messages one a line in one string: its first line and another
    hw, app, f = board(display=False)
    f.press("#")  # deal
    f.press("5C#")  # the starter (it goes in with its suit: the OK after it is a habit)
    assert app.err is None and app.m.phase == M.PLAY
    f.press("#")  # OK with nothing typed, in the play
    assert app.err == "nothing to confirm: type first"
    f.press("123")
    assert app.err == "123: too many digits"
    assert app.m.count == 0 and app.m.phase == M.PLAY


def test_hand_count_is_spoken_and_previewed():
    hw, app, f = board(display=True)
    f.press("#")
    f.press("5C#")  # starter 5H (Red deals, Blue is pone)
    f.press("C")  # no play entered: count the hands
    for c in ("5A", "5B", "5D", "1", "1C"):  # 5C 5D 5S JH
        f.press(c)
    text = " ".join(hw["display"].shown)
    assert "fifteen two" in text and "= 29" in hw["display"].shown
    for _ in range(40):  # the long count scrolls through to its end
        f.run(500)
        text += " ".join(hw["display"].shown)
    assert "his nobs is twenty-nine" in text and "pair royal" in text
    assert app.view.preview_side == 1 and app.view.preview_score == 29
    f.press("#")
    assert app.m.score == [0, 29]
    assert raises(ValueError, app.m.show, None, 19)  # the engine still guards it


def test_the_display_is_drawn_again_only_when_its_text_changes():
    """A count that fits the screen is drawn once and left alone while the players look at it;
    a long one is drawn again once a scroll step (text.py's _SCROLL_MS), not on every tick."""
    hw, app, f = board(display=True)
    f.press("#")
    f.press("5C#")  # starter 5H
    f.press("C")
    for c in ("2A", "3B", "9D", "1", "2C"):  # 2C 3D 9S QH: a short count (fifteen two, ...)
        f.press(c)
    d = hw["display"]
    before = d.shows
    f.run(4000)
    assert d.shows == before and "= " in " ".join(d.shown)  # nothing changed: not redrawn
    hw, app, f = board(display=True)  # the 29 hand, whose spoken count scrolls
    f.press("#")
    f.press("5C#")
    f.press("C")
    for c in ("5A", "5B", "5D", "1", "1C"):
        f.press(c)
    d = hw["display"]
    assert any(line.startswith("= 29") for line in d.shown)
    before = d.shows
    f.run(6000)
    assert 3 <= d.shows - before <= 7, d.shows - before  # a step about every 1.2 s


def test_buttons_peg_one_and_repeat():
    hw = build("/data", display=False, fs=RamFs(), buttons=2)
    app = App(hw)
    f = Fingers(hw, app)
    b = hw["fake_buttons"][1]
    b.pressed = True
    f.run(100)
    assert app.m.score == [0, 1]
    f.run(app.keys.long_ms + 2 * app.keys.repeat_ms)
    b.pressed = False
    f.run(100)
    assert app.m.score[1] >= 3


def test_menu_settings_and_new_game():
    hw, app, f = board(display=True)
    f.press("7#")
    assert app.m.score == [7, 0]
    f.press("D")  # menu: new game
    assert "new game" in hw["display"].shown
    f.press("#")  # a game is on: the board asks for a second OK
    assert app.m.score == [7, 0] and app.err
    f.press("#")
    assert app.m.score == [0, 0] and "deal: Red" in hw["display"].shown  # the menu is closed
    f.press("D")
    for _ in range(MENU_ITEMS.index("bright")):  # players game muggins skunk match bright
        f.press("A")
    f.press("1")
    f.press("6")
    f.press("0#")
    assert app.cfg.get("bright") == 160 and app.renderer.brightness == 160
    assert "bright" in hw["display"].shown
    f.press("*")
    again = App(hw)  # the setting was saved
    assert again.cfg.get("bright") == 160


def test_discard_advisor_lights_the_throw():
    hw, app, f = board(display=False)
    f.press("D" + "A" * MENU_ITEMS.index("advisor"))
    f.press("#")
    for c in ("5A", "5B", "1", "1C", "6D", "1", "3A", "2B"):  # 5C 5D JH 6S KC 2D
        f.press(c)
    f.press("B")  # not my crib
    assert app.err is None, app.err
    i, j = best_discards(parse_many("5C 5D JH 6S KC 2D"), False, 1)[0][1]  # the core's best
    L = hw["layout"]
    assert sorted(marked(app)) == sorted([L.hole(0, i + 1), L.hole(0, j + 1)])  # lit
    # keep the fives out of the opponent's crib
    assert 0 not in (i, j) and 1 not in (i, j)


def test_selftest_on_a_long_press_at_boot():
    hw, app, f = selftest_at_power_up()
    seen = set()
    n = hw["layout"].count
    for _ in range(3 * n + 4):
        f.run(10)
        seen.update(hw["strip"].lit())
    assert len(seen) == n
    assert len(hw["strip"].lit()) == n  # the white frame holds (time to read a meter)...
    f.run(500)
    assert len(hw["strip"].lit()) == n
    f.press("5")  # ...until a key is pressed; then the version (board/selftest.py) holds
    f.press("5")  # until another
    f.run(10)  # the test is over: the LEDs show the game, as on a board that skipped it
    fresh, _app, f2 = board()
    f2.run(10)
    assert hw["strip"].lit() == fresh["strip"].lit()
    hw2 = build("/data", display=False, fs=RamFs())
    assert not App(hw2).boot()


def test_muggins_takes_the_overlooked_points():
    hw, app, f = board(display=True)
    new_game(f, app, {"muggins": 1})
    assert app.m.muggins_on
    f.press("#")  # Red deals
    f.press("5C#")  # starter 5H
    f.press("C")  # count the hands (play not entered)
    for c in ("5A", "5B", "5D", "1", "1C"):  # Blue's 29 hand
        f.press(c)
    assert "= 29" not in hw["display"].shown  # muggins: the board does not count for you
    f.press("#")
    assert "type your count" in app.err and app.m.score == [0, 0]
    f.press("2")
    f.press("4#")  # Blue claims 24
    assert app.m.score == [0, 24], app.err
    f.press("C")  # Red calls muggins: the 5 overlooked
    assert app.m.score == [5, 24], app.err


def test_three_players_on_two_lanes():
    hw, app, f = board()
    new_game(f, app, {"players": 3})
    assert app.m.sides == 3 and app.view.sides == 3
    f.press("A")
    f.press("A")  # the third player
    f.press("9#")
    assert app.m.score == [0, 0, 9]
    L = hw["layout"]
    seen = set()
    for _ in range(30):  # the third side shares lane 1 with the first, and blinks
        f.run(100)
        seen.add(L.hole(0, 9) in hw["strip"].lit())
    assert seen == {True, False}


def test_watchdog_is_opt_in_and_fed():
    fed = []

    class Wdt:
        def __init__(self, ms):
            fed.append(ms)

        def feed(self):
            fed.append(0)

    hw = build("/data", display=False, fs=RamFs())
    hw["watchdog"] = Wdt
    app = App(hw)
    f = Fingers(hw, app)
    f.run(100)
    assert fed == []  # off by default
    new_game(f, app, {"watchdog": 1})
    assert fed[0] == 8000 and fed.count(0) > 5
    n = fed.count(0)
    for _ in range(400):  # the keypad task has died: the loop stops feeding the watchdog
        hw["clock"].advance(10)
        app.step(hw["clock"]())
    assert 5 < fed.count(0) - n < 250


def test_corrupt_saved_game_starts_a_new_one():
    hw, app, f = board()
    f.press("5#")
    fs = hw["fs"]
    data = bytearray(fs.files["/data/game"])
    data[-1] ^= 0xFF
    fs.files["/data/game"] = bytes(data)
    assert App(hw).m.score == [0, 0]
    data[-1] ^= 0xFF
    fs.files["/data/game"] = bytes(data)
    assert App(hw).m.score == [5, 0]


def test_entries_between_deals_deal_first_or_change_nothing():
    hw, app, f = board()
    f.press("#")
    f.press("#")  # Red deals, starter not entered
    f.press("C")
    f.press("1")
    f.press("2#")  # Blue's hand: 12 by points; the play was not entered
    f.press("8#")  # Red's hand
    f.press("4#")  # Red's crib: the deal is over
    m = app.m
    assert m.score == [12, 12] and m.phase == M.DEAL and m.next_dealer == 1
    before = m.dumps()
    f.press("C")
    f.press("1")
    f.press("9#")  # no hand counts 19: refused, and the automatic deal is taken back
    assert "19" in app.err and app.m.dumps() == before
    f.press("***")  # back: 9, 1, then "count now"
    assert not app.e.show_next
    f.press("1")
    f.press("1D#")  # the next deal's starter, typed between deals: Blue deals, his heels
    assert app.m.dealer == 1 and app.m.score == [12, 14] and app.m.phase == M.PLAY


def test_power_up_says_which_firmware_runs():
    import build  # tools/maker/build.py: the version, from firmware/version.py

    hw, app, f = board(display=True)
    f.run(20)
    assert shown(hw).startswith("firmware " + build.read_version() + "\n")  # the first line
    f.press("#")  # the first entry replaces it
    assert "firmware" not in shown(hw)


def test_the_menu_names_the_firmware_too():
    import build

    hw, app, f = board(display=True)
    f.press("D")
    for _ in range(12):  # every item's header fits the display (16 wide)
        line = next(x for x in hw["display"].shown if x.startswith("MENU "))
        assert line.endswith(" " + build.read_version()) and len(line) <= 16
        f.press("A")
