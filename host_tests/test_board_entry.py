"""Entry on the board as met in real play (issue 22 items 5-10, issue 23 item 9): C takes the
muggins the display offers, the first OK after an undo or a new game counts, a card that
cannot be in a hand is refused at its suit key and leaves the entry as it was, C brings back
the hand as played, the play shows the starter and who said go, and a fault in the show keeps
the hand filled in. Through the keys of the fake board (CPython), and the same key scripts on
the real MicroPython binary (host_tests/mp_entry.py)."""

import os
import subprocess

import pytest

from boardkit import board, shown
from board import entry as board_state  # (the preview: board/state.py before issue 33)
from board.render import Renderer
from board.modes import NEW_GAME
from cribbage import match as M
from hostenv import HOST, ROOT, venv_program

# Two players, Red deals, starter 5H; Blue plays KS AC 2C 4C, Red 10S 10H 3C 6H. The show:
# Blue's hand is filled in as played (AC 2C 4C KS: 4), then Red's (3C 6H 10S 10H: 6).
PLAYED = "#5C#13D0D1A0C2A3A4A6C"
# Muggins on (the menu's third setting), two players: Blue claims 8 for a hand of 10 (the issue's
# script): the display offers "C muggins" while Red's hand is filled in.
UNDER_CLAIMED = "DAAA#BBB##6C7A5C8B6A2DBB4B9C5D8#"


def keys(f, script):
    """Press the key script: "~*" holds * (undo), "~#" holds # (redo)."""
    i = 0
    while i < len(script):
        if script[i] == "~":
            i += 1
            f.hold(script[i])
        else:
            f.press(script[i])
        i += 1


def entry_line(hw):
    for line in hw["display"].shown:
        if line.startswith(">"):
            return line
    return None


def played_show():
    hw, app, f = board(display=True)
    keys(f, PLAYED)
    assert app.m.phase == M.SHOW and app.m.turn == 1 and app.err is None, app.err
    return hw, app, f


# --- 5. C takes the muggins the display offers ------------------------------------------------


def test_c_takes_the_muggins_the_display_offers_while_the_next_hand_is_filled_in():
    hw, app, f = board(display=True)
    keys(f, UNDER_CLAIMED)
    assert app.m.score == [5, 9]
    assert "counts 10: 2" in shown(hw) and "C" in shown(hw)  # "counts 10: 2 missed, C muggins"
    assert entry_line(hw) == "> 4D 5H 5S 6C"  # Red's hand, filled in from the play
    f.press("C")
    assert app.err is None and app.m.score == [7, 9]
    assert "Red +2 muggins" in hw["display"].shown
    assert entry_line(hw) == "> 4D 5H 5S 6C"  # Red's hand is still there to count


def test_c_takes_the_muggins_offered_while_a_card_is_typed_for_the_next_hand():
    hw, app, f = board(display=True)
    keys(f, UNDER_CLAIMED + "9B")  # 9D typed: Red's hand starts afresh
    assert entry_line(hw) == "> 9D" and "C muggins" in shown(hw).replace("\n", " ")
    f.press("C")
    assert app.err is None and app.m.score == [7, 9] and "Red +2 muggins" in shown(hw)
    assert entry_line(hw) == "> 4D 5H 5S 6C"  # the hand as played, back for Red


# --- 6. the first OK after an undo or a new game ----------------------------------------------


def test_the_first_ok_after_an_undo_is_not_taken_for_a_habit():
    hw, app, f = board(display=True)
    keys(f, "#5C~*#")  # starter 5H, undone; OK: no starter entered, the play
    assert app.m.phase == M.PLAY and "play Blue 0" in hw["display"].shown


def test_the_first_ok_after_a_new_game_from_the_page_deals():
    hw, app, f = board(display=True)
    keys(f, "#5C")  # a card went in as typed: an OK now would be a habit
    app.apply((NEW_GAME,))  # what the live page's new game does (board/web.py)
    f.press("#")
    assert app.m.phase == M.STARTER and "starter card?" in hw["display"].shown


def test_the_habit_ok_after_a_card_is_still_ignored():
    hw, app, f = board(display=True)
    keys(f, "#5C#")  # the starter goes in with its suit; the OK after it does nothing
    assert app.m.phase == M.PLAY and app.err is None
    keys(f, "5A#")  # Blue leads 5C; the OK after it does nothing either
    assert app.m.count == 5 and app.err is None


# --- 7, 8. a card that cannot be in the hand: refused at its suit key, nothing else changes ----


def test_a_card_another_player_played_is_refused_at_its_suit_key_and_the_hand_stays():
    hw, app, f = played_show()
    before = app.m.dumps()
    keys(f, "6C")  # 6H, played by Red, typed into Blue's hand
    assert app.err == "6H was played by seat 0" and "by Red" in hw["display"].shown
    assert entry_line(hw) == "> AC 2C 4C KS" and "= 4" in hw["display"].shown  # as before
    assert app.m.dumps() == before
    f.press("#")  # the hand as played, both hands with one OK
    assert app.m.score == [5 + 6, 3 + 4] and app.m.crib_next


def test_a_card_played_by_anyone_is_refused_as_the_crib_s_first_card():
    hw, app, f = played_show()
    f.press("#")
    assert app.m.crib_next
    keys(f, "3A")  # 3C, played by Red, shown in his hand
    assert app.err == "3C is in seat 0's hand" and entry_line(hw) == "> "
    assert "in Red's hand" in shown(hw).replace("\n", " ")
    keys(f, "1B")  # AD: a card of the crib
    assert app.err is None and entry_line(hw) == "> AD"


def test_a_wrong_card_typed_into_a_hand_from_scratch_costs_one_key_to_fix():
    hw, app, f = board(display=True)
    keys(f, "#5C##")  # starter 5H, then no cards entered: C counts the hands now
    f.press("C")
    keys(f, "1A2A")
    keys(f, "5C")  # the starter: refused at once
    assert "5H is the starter" in app.err and entry_line(hw) == "> AC 2C"
    keys(f, "3A4A")
    assert entry_line(hw) == "> AC 2C 3C 4C"


def test_a_refused_card_in_the_play_leaves_the_prompt_as_it_was():
    hw, app, f = board(display=True)
    keys(f, "##5A")  # no starter entered; Blue leads 5C
    keys(f, "5A")  # 5C again, by Red
    assert app.err == "5C was already played" and entry_line(hw) == "> "
    f.press("5")
    assert entry_line(hw) == "> 5 to Red"  # not "> 5C 5"
    f.press("B")  # 5D: a pair
    assert app.m.score == [2, 0] and app.m.count == 10


# --- 9. C brings back the hand as played ------------------------------------------------------


def test_c_brings_back_the_hand_as_played_and_one_ok_counts_both_again():
    hw, app, f = played_show()
    f.press("*")
    assert entry_line(hw) == "> " and "then Red = 6" not in hw["display"].shown
    f.press("C")
    assert app.err is None and entry_line(hw) == "> AC 2C 4C KS"
    assert "then Red = 6" in hw["display"].shown
    f.press("#")
    assert app.m.score == [11, 7] and app.m.crib_next


def test_c_brings_back_the_hand_as_played_over_a_card_typed_afresh():
    hw, app, f = played_show()
    keys(f, "9B")  # 9D: the hand starts afresh
    assert entry_line(hw) == "> 9D"
    f.press("C")
    assert entry_line(hw) == "> AC 2C 4C KS"


def test_c_at_the_crib_says_nobody_played_it():
    hw, app, f = played_show()
    f.press("#")
    before = app.m.dumps()
    f.press("C")
    assert app.err == "no cards played to bring back: type the hand"
    assert app.m.dumps() == before


# --- 10. the play shows the starter and who said go -------------------------------------------


def test_the_play_shows_the_starter_and_who_has_said_go():
    hw, app, f = board(display=True)
    keys(f, "#5C#13D0D9D")  # starter 5H; Blue KS, Red 10S, Blue 9S: 29
    d = hw["display"].shown
    assert "starter 5H" in d and "KS 10S 9S" in d and not any(x.startswith("go") for x in d)
    f.press("B")  # Red: go
    d = hw["display"].shown
    assert "starter 5H" in d and "go Red" in d and "play Blue 29" in d
    keys(f, "1A1B")  # Blue AC (30), ... Blue AD (31): the series ends, nobody has said go
    d = hw["display"].shown
    assert "starter 5H" in d and not any(x.startswith("go") for x in d)


def test_the_entry_and_a_refusal_keep_their_rows_on_the_small_screen():
    hw, app, f = board(display=True)
    keys(f, "#5C#13D0D9DB1A")  # Blue: KS, 10S, 9S, go Red, AC: 30
    d = hw["display"].shown
    assert d[:6] == ["R0 B0", "play Blue 30", "starter 5H", "go Red", "KS 10S 9S AC", "> "]
    keys(f, "5A")  # 5C: over 31, refused (three rows of error): the starter's row gives way
    d = hw["display"].shown
    assert len(d) == 8 and d[5:] == ["! 5C would make", "the count 35,", "over 31: say go"]
    assert d[:5] == ["R0 B0", "play Blue 30", "go Red", "KS 10S 9S AC", "> "]


def test_the_play_without_the_starter_entered_shows_no_blank_line():
    hw, app, f = board(display=True)
    keys(f, "##")
    assert hw["display"].shown[:3] == ["R0 B0", "play Blue 0", "> "]


# --- issue 23.9: a fault in the show keeps the entry ------------------------------------------


def show_failing_once(fired):
    """Match.show raising MemoryError at its first call (fired gets 1), then the real one."""
    real = M.Match.show

    def show(self, *a):
        if not fired:
            fired.append(1)
            raise MemoryError
        return real(self, *a)
    return show


def test_a_fault_at_ok_in_the_show_keeps_the_hand_filled_in_and_the_next_ok_counts_it(
        monkeypatch):
    hw, app, f = played_show()
    fired = []
    monkeypatch.setattr(M.Match, "show", show_failing_once(fired))
    f.press("#")
    assert fired and app.err.startswith("fault (MemoryError")
    assert app.m.score == [5, 3] and entry_line(hw) == "> AC 2C 4C KS"
    f.press("#")
    assert app.err is None and app.m.score == [11, 7]


def test_a_fault_whose_frame_fails_too_comes_up_as_itself_not_as_a_refusal(monkeypatch):
    hw, app, f = played_show()
    real_update = board_state.preview  # (asked by the view's update: App.follow)
    fired = []

    def update(v):
        if len(fired) == 1:  # the fault's own view update fails too
            fired.append(2)
            raise MemoryError
        return real_update(v)

    monkeypatch.setattr(M.Match, "show", show_failing_once(fired))
    monkeypatch.setattr(board_state, "preview", update)
    f.press("#")
    assert fired == [1, 2]
    assert app.err.startswith("fault (MemoryError"), app.err  # not "a hand is 4 cards, not 0"
    assert entry_line(hw) == "> AC 2C 4C KS"
    f.press("#")
    assert app.err is None and app.m.score == [11, 7]


def test_after_a_fault_the_typed_cards_stay_unless_a_fault_comes_again(monkeypatch):
    hw, app, f = board(display=True)
    keys(f, "#5C##C1A2A3")  # the show by cards, typed: AC 2C, and a 3
    real = board_state.preview  # (asked by the view's update: App.follow)
    fired = []

    def update(v):
        if not fired:
            fired.append(1)
            raise MemoryError
        return real(v)

    monkeypatch.setattr(board_state, "preview", update)
    f.press("A")  # 3C: the view's update after it faults; what was typed stays
    assert fired and app.err.startswith("fault (MemoryError")
    assert entry_line(hw) == "> AC 2C 3C"
    f.press("4A")
    assert entry_line(hw) == "> AC 2C 3C 4C"
    real_maybe = Renderer.maybe
    frames = []

    def maybe(self, view, now):
        if len(frames) < 2:  # two frames in a row fail: what is typed may be the cause
            frames.append(1)
            raise MemoryError
        return real_maybe(self, view, now)

    monkeypatch.setattr(Renderer, "maybe", maybe)
    f.run(10)
    assert len(frames) == 1 and entry_line(hw) == "> AC 2C 3C 4C"  # the first: kept
    f.run(20)
    assert len(frames) == 2 and app.err.startswith("fault (MemoryError")
    assert entry_line(hw) == "> "  # the second fault in a row took the entry with it


def test_a_fault_after_the_crib_went_in_takes_its_typed_cards_with_it(monkeypatch):
    hw, app, f = played_show()
    f.press("#")  # both hands
    keys(f, "7B8B9B")
    real = M.Match.show

    def show(self, *a):
        real(self, *a)
        raise MemoryError  # a fault once the crib is in

    monkeypatch.setattr(M.Match, "show", show)
    keys(f, "12B")  # QD: the crib's fourth card puts it in
    monkeypatch.setattr(M.Match, "show", real)
    assert app.err.startswith("fault (MemoryError") and app.m.phase == M.DEAL
    assert entry_line(hw) == "> "  # not the crib's cards, as if still to be entered
    f.press("#")  # the next deal, and nothing else (no starter taken from a stale card)
    assert app.m.phase == M.STARTER and app.m.starter_card < 0


# --- the same keys on the real MicroPython binary ---------------------------------------------

MICROPYTHON = venv_program("micropython")

MP_CASES = [  # (key script, lines the display must show after it, scores)
    (UNDER_CLAIMED + "C", ["Red +2 muggins", "> 4D 5H 5S 6C"], "7 9"),
    ("#5C~*#", ["play Blue 0"], "0 0"),
    (PLAYED + "6C", ["> AC 2C 4C KS", "by Red"], "5 3"),
    (PLAYED + "*C#", ["crib Red"], "11 7"),
    ("##5A5A5", ["> 5 to Red"], "0 0"),
    ("#5C#13D0D9DB", ["starter 5H", "go Red", "KS 10S 9S"], "0 0"),
]


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="no micropython: make venv")
@pytest.mark.parametrize("script,lines,scores", MP_CASES)
def test_the_same_keys_under_micropython(script, lines, scores):
    env = dict(os.environ, MICROPYPATH=".:" + HOST)  # (the firmware, then the fake board)
    p = subprocess.run([MICROPYTHON, os.path.join(ROOT, "host_tests", "mp_entry.py"), script],
                       cwd=os.path.join(ROOT, "firmware"), env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout.splitlines()
    shown_lines = [x[5:] for x in out if x.startswith("LINE ")]
    assert "SCORES " + scores in out, p.stdout
    for line in lines:
        assert line in shown_lines, p.stdout
