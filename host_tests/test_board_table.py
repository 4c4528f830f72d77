"""Issue 35's board items (the second table's findings): a rule changed at a game's end
applies to the game OK starts (12), one OK starts the next game after a game won on a card,
a go or the crib's last card (16), and the updater's one-time note (issue 31)."""

from boardkit import Fingers, board, peg_out, play_game
from board.app import App
from board.menu import MENU_ITEMS
from board.modes import CALL
from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from cribbage import match as M
from test_board_life import kept


# --- 16. one OK starts the next game, however the game was won ----------------------------


def test_one_ok_starts_the_next_game_after_a_win_on_a_card_or_the_crib():
    won_on = set()
    for seed in (3, 4):  # seed 3: won on the crib's fourth card, 4: on a card in the play
        hw, app, f = board()
        calls = play_game(hw, app, f, seed)  # (no OK pressed after the winning entry)
        assert app.m.phase == M.OVER
        won_on.add(calls[-1][0])
        f.press("#")
        assert app.m.phase == M.DEAL and app.m.score == [0, 0], (seed, app.err)
    assert won_on == {"show", "play"}


def test_the_habit_ok_after_a_card_that_did_not_win_is_still_ignored():
    hw, app, f = board()
    f.press("#5C#")  # the starter goes in with its suit; the OK after it does nothing
    assert app.m.phase == M.PLAY and app.m.events == 2 and app.err is None


# --- 12. a rule changed at a game's end applies to the game OK starts ----------------------


def set_in_menu(f, app, name, value):
    """A setting set in the menu (then the menu left), as a player does."""
    f.press("D" + "A" * MENU_ITEMS.index(name))
    f.press(str(value) + "#")
    f.press("*")
    assert app.cfg.get(name) == value, app.err


def test_a_rule_changed_at_the_games_end_applies_to_the_game_ok_starts():
    hw, app, f = board(display=True)
    peg_out(f, app)
    assert app.m.phase == M.OVER and not app.m.muggins_on
    set_in_menu(f, app, "muggins", 1)
    set_in_menu(f, app, "players", 3)
    f.press("#")  # OK: the next game, with the rules as they are now
    m = app.m
    assert m.phase != M.OVER and m.muggins_on and m.players == 3 and m.score == [0, 0, 0]
    assert len(kept(app.store)) == 1  # the finished game went to the history first


def test_a_setting_that_is_no_rule_leaves_the_next_game_as_it_was():
    hw, app, f = board(display=True)
    peg_out(f, app)
    set_in_menu(f, app, "bright", 160)
    f.press("#")
    m = app.m
    # the games won kept (a double skunk: 3), the finished game in the history
    assert m.phase == M.DEAL and sum(m.games) == 3 and len(kept(app.store)) == 1


# --- issue 31's leftovers: the loader's note said once at boot, every fault counted --------


NOTE = "update to 0.7.0 failed (it hung: watchdog): back to 0.6.0"


def test_the_loaders_note_is_said_on_the_display_at_boot():
    hw = build("/data", display=True, fs=RamFs())
    hw["note"] = NOTE  # what firmware/main.py puts there: slots.note() (test_ota_boot.py)
    app = App(hw)
    app.boot()
    assert app.err == NOTE and app.view.error_at >= 0  # the LEDs flash red too
    assert "back to 0.6.0" in hw["display"].shown  # (the message wrapped on its lines)
    Fingers(hw, app).press("7#")  # the next entry: the note has been said
    assert app.err is None and app.m.score == [7, 0]


def test_the_trial_sees_every_fault_the_app_recovers_from():
    from ota import trial

    hw, app, f = board(display=True)
    n0 = app.fault
    app.apply((CALL, boom))  # a fault in an entry: App.recover restores the game, says so
    assert app.err.startswith("fault")
    f.press("7#")  # the next entry: the fault's message is gone from the line
    assert app.err is None and app.m.score == [7, 0]
    assert trial.fault(app, n0) == "1 faults"  # the trial (looking every 250 ms) still sees it


def boom():
    raise RuntimeError("a fault")


# --- 14. "play" is the play's points everywhere; points pegged by hand their own total -----


def test_tools_history_says_the_plays_points_and_those_pegged_by_hand_apart():
    import history as tool  # tools/player/history.py

    side = {"name": "Red", "score": 121, "won": True, "hand": 10, "crib": 3, "play": 4,
            "pegged": 100}
    other = dict(side, name="Blue", score=40, won=False, pegged=0)
    g = {"game": 1, "players": 2, "target": 121, "result": "win", "deals": 2, "summary": True,
         "by_side": [side, other]}
    line = tool.table([g])[0]
    assert "Red 121* (10/3/4 +100 pegged)" in line and "Blue 40 (10/3/4)" in line, line


# --- 15. one OK pegs both hands, or neither --------------------------------------------------


def test_a_fault_between_the_two_hands_one_ok_pegs_takes_both_back(monkeypatch):
    from test_board_entry import played_show

    hw, app, f = played_show()  # Blue's hand (the pone's) and Red's, filled in from the play
    events = app.m.events
    real = M.Match.show
    calls = []

    def show(m, cards):  # the first hand goes in, then a fault before the second
        got = real(m, cards)
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError()
        return got

    monkeypatch.setattr(M.Match, "show", show)
    f.press("#")
    assert app.err.startswith("fault") and app.m.events == events  # neither hand pegged
    monkeypatch.setattr(M.Match, "show", real)
    f.press("#")  # one OK again: both hands
    assert app.err is None and app.m.events == events + 2 and app.m.crib_next


# --- 15. a fault at the very end of the play keeps the hand filled in -----------------------


def test_a_failed_save_after_the_plays_last_card_keeps_the_hand_filled_in(monkeypatch):
    """The fault sweep's case (test_board_faults, fs-nospace-burst): the last card of the play
    goes in, the save after its frame fails twice ("not saved"); on a board without a
    display the refusal clears what was typed, and the pone's hand, filled in from the play,
    went with it until the next key. It stays: it was not typed, it is the game's."""
    from boardkit import marked
    from test_board_entry import PLAYED

    hw, app, f = board(display=False)
    f.press(PLAYED[:-1])  # all but the last card's suit key
    assert app.m.phase == M.PLAY and app.err is None

    def full(*args):
        raise OSError(28)

    with monkeypatch.context() as mp:  # the flash full: no save renames into place
        mp.setattr(hw["fs"], "rename", full)
        mp.setattr(hw["fs"], "remove", full)
        f.press(PLAYED[-1])  # the last card goes in; its save fails
    m = app.m
    assert m.phase == M.SHOW and app.err.startswith("not saved")
    hand = []
    m.played_cards(m.turn, hand)
    assert app.e.cards == hand and app.e.filled == 4  # the pone's hand, as played
    assert len(marked(app)) == 4  # shown: a mark per card
    score = list(m.score)
    f.press("#")  # OK pegs it (and, both filled in, the dealer's: one OK, issue 35 item 15)
    assert app.err is None and app.m.crib_next and app.m.score != score
