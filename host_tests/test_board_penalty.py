"""Penalties entered on the board (rule sheet 000: a misdeal noticed after the play started,
or a failure to play after a go, gives two to the other side): D, B to the menu's last item
"penalty", OK; A whose two, B misdeal, C failed to play; OK pegs, journalled as a penalty
(the fake board's keypad, app, engine, display and storage; CPython)."""

from boardkit import board, marked, peg_out, shown
from boards.fake import build
from board.app import App
from board.menu import MENU_ITEMS
from cribbage import match as M


def open_penalty(f, app):
    L = f.hw["layout"]
    f.press("DB")  # the menu, then back from "new game" to its last item
    assert marked(app) == [L.hole(0, 1 + MENU_ITEMS.index("penalty"))]  # the item's hole
    f.press("#")
    assert marked(app) == [L.hole(0, 1)]  # the penalty entry: hole 1 white, a misdeal


def test_a_misdeal_gives_the_non_dealer_two_journalled_as_a_penalty():
    hw, app, f = board(display=True)
    f.press("#5C#")  # Red deals, starter 5H: the play has started
    before = app.m.journal()
    open_penalty(f, app)
    text = shown(hw)
    assert "PENALTY\nmisdeal\n+2 to Blue" in text  # the non-dealer is proposed
    assert app.view.preview_side == 1 and app.view.preview_score == 2  # the blinking hole
    assert app.m.score == [0, 0]  # nothing pegged before OK
    f.press("#")
    assert app.m.score == [0, 2] and marked(app) == [] and app.err is None  # entry closed
    assert app.m.journal() == before + [bytes((M.E_PENALTY | M.MISDEAL << 3 | 1,))]
    assert app.m.last_why == M.WHY_PENALTY
    assert "Blue +2 penalty" in shown(hw)
    assert app.view.preview_side == -1
    # saved: the board powers up with it
    again = App(build("/data", display=False, fs=hw["fs"]))
    assert again.m.journal() == app.m.journal() and again.m.score == [0, 2]
    f.hold("*")  # undone like any entry, and the undo is saved
    assert app.m.score == [0, 0] and app.m.journal() == before
    assert App(build("/data", display=False, fs=hw["fs"])).m.score == [0, 0]
    f.hold("#")
    assert app.m.score == [0, 2] and app.m.last_why == M.WHY_PENALTY


def test_failed_to_play_to_the_player_chosen_with_a():
    hw, app, f = board(display=True)
    f.press("#5C#")
    open_penalty(f, app)
    f.press("C")
    assert "failed to play\n+2 to Blue" in shown(hw)
    f.press("A")  # Blue failed to play his cards after Red's go: the two are Red's
    assert "+2 to Red" in shown(hw)
    assert app.view.preview_side == 0 and app.view.preview_score == 2
    f.press("#")
    assert app.m.score == [2, 0] and marked(app) == []
    assert app.m.journal()[-1] == bytes((M.E_PENALTY | M.FAIL_TO_PLAY << 3 | 0,))


def test_leaving_or_a_wrong_key_changes_nothing():
    hw, app, f = board(display=True)
    f.press("#5C#")
    before = app.m.dumps()
    open_penalty(f, app)
    f.press("7")  # a number means nothing here: says the keys
    assert app.err == "A B C, OK or *" and "! A B C, OK or *" in shown(hw)
    assert "A who B misdeal" in shown(hw)  # the keys are still listed
    assert "PENALTY" in hw["display"].shown and app.m.dumps() == before  # still open
    f.press("*")
    assert marked(app) == [] and app.m.dumps() == before and app.view.preview_side == -1
    assert "PENALTY" not in hw["display"].shown
    open_penalty(f, app)
    f.hold("*")  # hold * (undo) also just leaves the entry
    assert marked(app) == [] and app.m.dumps() == before


def test_after_the_win_a_penalty_is_refused():
    hw, app, f = board(display=True)
    peg_out(f)
    assert app.m.phase == M.OVER
    before = app.m.dumps()
    open_penalty(f, app)
    assert app.view.preview_side == -1  # nothing to peg: no preview
    f.press("#")
    assert app.err and app.m.dumps() == before


def test_without_a_display_the_leds_show_whose_two_and_which_penalty():
    hw, app, f = board(display=False)
    f.press("#5C#")
    L = hw["layout"]
    open_penalty(f, app)
    assert app.view.marks[0] == L.hole(0, 1)  # hole 1 white: a misdeal
    assert app.view.preview_side == 1 and app.view.preview_score == 2
    f.press("C")
    assert app.view.marks[0] == L.hole(0, 2)  # hole 2: failed to play
    f.press("B")
    assert app.view.marks[0] == L.hole(0, 1)
    f.press("#")
    assert app.m.score == [0, 2] and marked(app) == []
    assert app.m.journal()[-1] == bytes((M.E_PENALTY | M.MISDEAL << 3 | 1,))


def test_partners_the_two_go_to_the_chosen_players_side():
    hw, app, f = board(display=True)
    assert MENU_ITEMS.index("players") == 1
    f.press("DA4#")  # the menu, players: four (two partnerships)
    f.press("B#")  # back to new game, OK
    assert app.m.players == 4
    f.press("#5C#")  # seat 0 deals
    open_penalty(f, app)
    assert "+2 to Blue1" in shown(hw)  # the non-dealer: the pone, seat 1
    f.press("AA")  # seat 3: Blue2, the same side
    assert "+2 to Blue2" in shown(hw)
    f.press("A")  # seat 0: Red1
    f.press("#")
    assert app.m.score == [2, 0]


def test_a_false_go_is_proved_proposed_and_taken_or_declined():
    """Sheet 000: Red says go at 25 while holding the 5S; when Red later plays it (25 + 5
    fits), the board proposes the penalty: two to Blue, Red's card back and the rest of his
    hand dead. OK takes it; * declines it and the play goes on as entered."""
    for take in (True, False):
        hw, app, f = board(display=True)
        f.press("#")  # Red deals, Blue leads
        f.press("13C")  # the starter KH
        for k in ("0A", "0B", "5C"):  # Blue 10C, Red 10D (a pair: Red 2), Blue 5H: 25
            f.press(k)
        f.press("B")  # Red: go at 25, holding the 5S (a false go, not yet known)
        f.press("1A2A")  # Blue AC 26, 2C 28: Blue is out, nobody goes on: one for the go
        before = list(app.m.score)
        f.press("5D")  # Red leads the 5S: it would have fitted at 25: the go was false
        text = shown(hw)
        assert "PENALTY" in text and "false go" in text and "+2 to Blue" in text
        assert app.m.false_go() == 0
        if take:
            f.press("#")
            assert app.err is None, app.err
            assert app.m.score[1] == before[1] + 2  # two to Blue
            assert app.m.dead() & 1  # Red's cards are dead: the play is over
            assert app.m.phase == M.SHOW and "PENALTY" not in shown(hw)
            f.hold("*")  # undo: back to the card played, the false go proved again
            assert app.m.score[1] == before[1] and not app.m.dead() & 1
        else:
            f.press("*")  # declined: the play goes on as entered
            assert "PENALTY" not in shown(hw) and app.m.dead() == 0
            assert app.m.count == 5 and app.m.phase == M.PLAY
