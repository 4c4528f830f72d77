"""Muggins on the board with more than two sides (issue 9): after an under-claimed count, C
proposes the side after the shower's, A steps through the sides that may call it (never the
shower's), the display asks and the track previews it, OK pegs it, * cancels. Two sides: C
takes it at once. (The fake board's keypad, app, engine and display; CPython.)"""

from boardkit import Fingers, board, new_game, shown
from fakeboard.fake import build
from board.app import App
from fakeboard.ramfs import RamFs
from cribbage import match as M
from dealer.cardtext import parse_many
from cribbage.score import score_hand
from matchkit import journal

STARTER = "5C#"  # 5H
STARTER_CARD = parse_many("5H")[0]
BLUE_29ISH = "5C 5D 5S JC"  # with the 5H: 28


def mug(app):
    """The side proposed to call muggins, as the track shows it: the side whose lane previews
    the overlooked points (the display says it too); -1 when no call is shown."""
    m, v = app.m, app.view
    s = v.preview_side
    if s >= 0 and m.overlooked() and v.preview_score == min(m.score[s] + m.overlooked(),
                                                             m.target):
        return s
    return -1


def start(players, display=True, hw=None):
    """A new muggins game for players; Red deals, starter 5H, C: the show (play not entered)."""
    if hw is None:
        hw, app, f = board(display=display)
    else:
        app = App(hw)
        f = Fingers(hw, app)
    new_game(f, app, {"players": players, "muggins": 1})
    assert app.m.players == players and app.m.muggins_on
    f.press("#")  # Red (seat 0) deals
    f.press(STARTER)
    f.press("C")  # count the hands now
    if hw["display"] is not None:
        assert "\nhand Blue" in shown(hw)  # the show, the pone's hand first (Blue, Blue1)
    else:
        assert app.e.show_next  # (no display: nothing public says it before the first hand)
    return hw, app, f


def show(f, app, text, short=0):
    """Type a hand's four cards and its count less short, OK."""
    cards = parse_many(text)
    for c in cards:
        f.card(c)
    crib = app.m.phase == M.SHOW and app.m.crib_next
    pts = score_hand(cards, STARTER_CARD, crib) - short
    f.press(str(pts) + "#")
    assert app.err is None, app.err
    return pts


def test_three_players_c_proposes_a_steps_ok_pegs():
    hw, app, f = start(3)
    show(f, app, BLUE_29ISH, short=8)  # Blue (seat 1) claims 20 of 28
    assert app.m.score == [0, 20, 0] and app.m.overlooked() == 8
    f.press("C")
    assert mug(app) == 2 and app.err is None  # the side after Blue's: Green
    assert app.m.score == [0, 20, 0]  # nothing pegged yet
    assert app.view.preview_side == 2 and app.view.preview_score == 8
    text = shown(hw)
    assert "muggins 8 for\nGreen? A next,\nOK" in text
    f.press("A")
    assert mug(app) == 0 and app.view.preview_side == 0  # Red
    assert "Red? A next" in shown(hw)
    f.press("A")
    assert mug(app) == 2  # Blue (the shower) is skipped
    f.press("A")
    assert mug(app) == 0
    f.press("#")
    m = app.m
    assert m.score == [8, 20, 0] and m.last_side == 0 and m.last_why == M.WHY_MUGGINS
    assert mug(app) == -1 and m.overlooked() == 0 and app.err is None
    assert app.view.preview_side == -1
    assert "Red +8 muggins" in shown(hw)
    f.press("C")  # taken: C is the C of the show again, not muggins
    assert mug(app) == -1


def test_star_cancels_and_nothing_changes():
    hw, app, f = start(3)
    show(f, app, BLUE_29ISH, short=8)
    before = journal(app.m)
    f.press("CA")
    assert mug(app) == 0
    f.press("*")
    assert mug(app) == -1 and app.err is None
    assert app.m.score == [0, 20, 0] and journal(app.m) == before
    assert app.view.preview_side == -1
    assert "? A next" not in shown(hw) and "8 missed, C muggins" in shown(hw).replace("\n", " ")
    f.press("C")  # still there to take: proposed afresh
    assert mug(app) == 2
    f.press("#")
    assert app.m.score == [0, 20, 8] and app.m.last_why == M.WHY_MUGGINS


def test_other_keys_are_refused_while_calling():
    hw, app, f = start(3)
    show(f, app, BLUE_29ISH, short=8)
    f.press("C")
    for key in "5BCD":
        f.press(key)
        assert app.err == "muggins: A next, OK takes, * cancels", key
        assert mug(app) == 2 and app.e.num == -1  # (a number typed would not show: the call does)
        # still Green's call, no menu opened, the same prompt
        assert shown(hw).startswith("R0 B20 G0\nhand Green\nmuggins 8 for\nGreen? A next,\nOK\n")
    assert "! muggins: A\nnext, OK takes,\n* cancels" in shown(hw)
    assert app.m.score == [0, 20, 0]
    f.press("#")
    assert app.m.score == [0, 20, 8]


def test_six_players_two_teams_c_takes_it_at_once():
    # rule sheet 002: six players are two teams of three, alternate seats: two sides, so C
    # takes the overlooked points for the other team at once, as with two players
    hw, app, f = start(6)
    assert app.m.sides == 2
    show(f, app, BLUE_29ISH, short=4)  # seat 1: Blue's team (seats 1, 3 and 5)
    f.press("C")
    assert app.m.score == [4, 24] and app.m.last_why == M.WHY_MUGGINS and app.m.last_side == 0


def test_five_players_a_cycles_four_sides():
    hw, app, f = start(5)
    assert app.m.sides == 5
    show(f, app, BLUE_29ISH, short=5)  # 23
    f.press("C")
    seen = [mug(app)]
    for _ in range(4):
        f.press("A")
        seen.append(mug(app))
    assert seen == [2, 3, 4, 0, 2]  # Blue (1) never
    f.press("AA")  # 3, then 4: Pink
    assert "muggins 5 for\nPink?" in shown(hw)
    assert app.view.preview_side == 4 and app.view.preview_score == 5
    f.press("#")
    assert app.m.score == [0, 23, 0, 0, 5] and app.m.last_side == 4
    assert app.m.last_why == M.WHY_MUGGINS


def test_the_dealers_hand_and_the_crib_skip_the_dealers_side():
    hw, app, f = start(3)
    show(f, app, BLUE_29ISH)  # Blue, counted right
    show(f, app, "AC 2C 3C 4C")  # Green, counted right
    assert app.m.overlooked() == 0
    show(f, app, "6C 7C 8C 9D", short=3)  # Red, the dealer: under
    assert app.m.crib_next and app.m.overlooked() == 3
    f.press("C")
    assert mug(app) == 1  # after Red: Blue
    f.press("A")
    assert mug(app) == 2
    f.press("A")
    assert mug(app) == 1
    f.press("#")
    assert app.m.score[1] == 28 + 3 and app.m.last_why == M.WHY_MUGGINS
    show(f, app, "KC KD QC QD", short=2)  # the crib (Red's): under
    assert app.m.phase == M.DEAL and app.m.overlooked() == 2
    f.press("C")
    assert mug(app) == 1
    f.press("A")
    assert mug(app) == 2
    f.press("#")
    assert app.m.score[2] == app.m.last_points + score_hand(parse_many("AC 2C 3C 4C"),
                                                           STARTER_CARD)
    assert app.m.last_points == 2 and app.m.last_why == M.WHY_MUGGINS


def test_no_display_the_preview_is_the_cue():
    hw, app, f = start(3, display=False)
    show(f, app, BLUE_29ISH, short=8)
    f.press("C")
    assert app.view.preview_side == 2 and app.view.preview_score == 8
    L = hw["layout"]
    hole = L.peg(2 % L.lanes, 8, app.m.target)  # Green's 8 on the lane Green pegs
    seen = set()
    for _ in range(20):  # the preview hole blinks
        f.run(100)
        seen.add(hole in hw["strip"].lit())
    assert seen == {True, False}
    f.press("5")  # a red flash; the choice stays
    assert app.err and mug(app) == 2
    f.press("A#")
    assert app.m.score == [8, 20, 0]


def test_undo_or_a_button_peg_ends_the_call():
    hw, app, f = start(3)
    show(f, app, BLUE_29ISH, short=8)
    f.press("C")
    assert mug(app) == 2
    f.hold("*")  # undo the count: nothing to call any more
    assert mug(app) == -1 and app.m.score == [0, 0, 0]
    assert app.view.preview_side == -1
    hw2 = build("/data", display=True, fs=RamFs(), buttons=3)
    hw2, app, f = start(3, hw=hw2)
    show(f, app, BLUE_29ISH, short=8)
    f.press("C")
    assert mug(app) == 2
    b = hw2["fake_buttons"][0]
    b.pressed = True  # +1 for Red: another event, muggins is gone
    f.run(60)
    b.pressed = False
    f.run(60)
    assert app.m.score == [1, 20, 0] and mug(app) == -1 and app.m.overlooked() == 0
    f.press("#")  # OK is OK again (nothing typed in the show: refused as ever)
    assert app.m.score == [1, 20, 0]


def test_two_players_c_is_still_one_press():
    hw, app, f = start(2)
    show(f, app, BLUE_29ISH, short=4)
    assert app.m.score == [0, 24]
    f.press("C")
    assert app.m.score == [4, 24] and app.m.last_why == M.WHY_MUGGINS
    assert mug(app) == -1 and app.err is None


def test_the_count_stays_hidden_until_claimed_then_the_miss_is_shown():
    hw, app, f = start(2)
    for c in parse_many(BLUE_29ISH):
        f.card(c)
    f.press("2")
    f.press("0")  # Blue claims 20 of 28: nothing on the display gives the true count away
    text = shown(hw)
    assert "28" not in text and "= " not in text and "fifteen" not in text
    assert "> 5C 5D 5S JC 20" in text
    f.press("#")
    text = shown(hw).replace("\n", " ")
    assert app.m.score == [0, 20]
    assert "counts 28: 8 missed, C muggins" in text  # now the true count, and the call
    f.press("C")
    assert app.m.score == [8, 20] and "missed" not in shown(hw)
