"""The match setting on the fake board, through its keys: best of 3 (the match's end on the
display and a new match on OK, undo across it), ACC game points (the totals on the display and
the games-won LEDs, kept over a power cut), the settings file of earlier firmware, and the
ACC muggins rule on the keys (no muggins on his heels or a penalty)."""

from binascii import unhexlify

from boardkit import board, new_game, peg_out, shown
from board.app import App
from board.modes import message
from board.settings import Settings
from board.boot import settings as settings_loads  # (power-up's: board/boot.py)
from cribbage import match as M
from matchkit import DEAL_CUT, DEAL_LOSER, DEAL_ROTATE

# Settings saved by the firmware before the match setting (version 1: players 3, bright 100).
OLD_SETTINGS = unhexlify("010703007900000001006400d0070000c0")


def win(f, app, side):
    """side pegs out (boardkit.peg_out): a double skunk."""
    peg_out(f, app, side)
    assert app.m.phase == M.OVER and app.m.winner == side, app.err


def games_leds(hw, app, side):
    """The brightest each games-won LED of side's lane gets over a second (blinks seen)."""
    L = hw["layout"]
    clock = hw["clock"]
    most = [0] * L.games
    for _ in range(20):
        clock.advance(50)
        app.step(clock())
        for k in range(L.games):
            most[k] = max(most[k], max(hw["strip"].rgb(L.games_led(side, k))))
    return most


def test_best_of_3_on_the_keys():
    hw, app, f = board(display=True)
    new_game(f, app, {"skunk": 0, "match": 1})
    assert app.m.mode == M.BEST_OF_3 and "games 0 0" in shown(hw)
    win(f, app, 0)
    assert app.m.games == [1, 0] and "games 1 0" in shown(hw) and "match" not in shown(hw)
    f.press("#")  # the next game
    assert app.m.games == [1, 0] and app.m.phase == M.DEAL
    win(f, app, 0)
    assert app.m.games == [2, 0] and app.m.match_won() == 0
    text = shown(hw)
    assert "match to Red\nOK: new match" in text, text
    again = App(hw)  # a power cut: the match's end comes back
    assert again.m.match_won() == 0 and again.m.games == [2, 0]
    f.press("#")  # a new match
    assert app.m.games == [0, 0] and app.m.phase == M.DEAL and app.m.mode == M.BEST_OF_3
    f.hold("*")  # undo: the match's end again
    assert app.m.phase == M.OVER and app.m.games == [2, 0] and "match to Red" in shown(hw)
    f.hold("#")  # redo: the new match
    assert app.m.games == [0, 0] and app.m.phase == M.DEAL
    saved = M.loads(hw["fs"].files["/data/game"])
    assert saved.games == [0, 0] and saved.mode == M.BEST_OF_3


def test_acc_points_on_the_keys_the_display_and_the_leds():
    hw, app, f = board(display=True)
    new_game(f, app, {"match": 3})
    assert app.m.mode == M.ACC and "points 0 0" in shown(hw)
    win(f, app, 0)  # a double skunk is a skunk in ACC: 3 points
    m = app.m
    assert m.result == M.SKUNK and m.games == [3, 0]
    text = shown(hw)
    assert "skunk" in text and "double" not in text and "points 3 0" in text, text
    assert "match" not in text  # a session has no end
    dim = games_leds(hw, app, 0)
    assert min(dim) > 0  # three points: the three LEDs lit
    f.press("#")
    assert app.m.next_dealer == 1  # ACC rule 1.5: the loser, Blue, deals the next game
    win(f, app, 1)  # Blue skunks back: 3 0 -> 3 3
    assert app.m.games == [3, 3] and "points 3 3" in shown(hw)
    f.press("#")
    assert app.m.next_dealer == 0
    win(f, app, 0)
    assert app.m.games == [6, 3]
    bright = games_leds(hw, app, 0)
    assert min(bright) > max(dim)  # 6 points: all three bright (past their number)
    assert games_leds(hw, app, 1) == dim  # Blue's 3: dim
    # a power cut keeps the totals and the mode; the next game's OK carries them on
    again = App(hw)
    assert again.m.games == [6, 3] and again.m.mode == M.ACC
    f.press("#")
    assert app.m.games == [6, 3] and "points 6 3" in shown(hw) and app.err is None
    assert len(hw["fs"].files["/data/history"]) > 40  # the finished games are recorded
    # 4 points: one bright, two dim
    hw, app, f = board(display=True)
    new_game(f, app, {"match": 3, "skunk": 0})
    win(f, app, 0)
    f.press("#")
    win(f, app, 0)
    assert app.m.result == M.WIN and app.m.games == [4, 0]
    leds = games_leds(hw, app, 0)
    assert leds[0] > leds[1] == leds[2] > 0, leds


def test_the_menu_shows_the_match_mode_by_name():
    hw, app, f = board(display=True)
    new_game(f, app, {"match": 2})
    f.press("D")
    from board.menu import MENU_ITEMS
    for _ in range(MENU_ITEMS.index("match")):
        f.press("A")
    assert "= 2 best of 5" in shown(hw)
    f.press("#")  # OK steps it: ACC
    assert app.cfg.get("match") == 3 and "= 3 ACC points" in shown(hw)
    assert app.m.mode == M.BEST_OF_5  # the game keeps its rules until a new game
    assert settings_loads(hw["fs"].files["/data/settings"]).get("match") == 3


def test_settings_of_earlier_firmware_load_with_single_games():
    s = settings_loads(OLD_SETTINGS)
    assert s.get("players") == 3 and s.get("bright") == 100 and s.get("match") == 0
    assert s.get("watchdog") == 0 and s.get("limit") == 2000
    cfg = Settings()
    cfg.set("match", 3)
    assert settings_loads(cfg.dumps()).values == cfg.values
    hw, app, f = board(display=True)
    hw["fs"].files["/data/settings"] = OLD_SETTINGS
    hw["fs"].files.pop("/data/game", None)
    app = App(hw)
    assert app.note is None and app.cfg.get("players") == 3 and app.m.mode == M.SINGLE


def test_acc_muggins_not_on_heels_nor_penalties_on_the_keys():
    hw, app, f = board(display=True)
    new_game(f, app, {"muggins": 1, "match": 3})
    f.press("#")  # deal
    f.press("11C")  # the starter: jack of hearts, two for his heels
    m = app.m
    assert m.score[0] == 2 and m.last_why == M.WHY_HEELS and m.overlooked() == 0
    events = m.events
    f.press("C")  # nothing to mug
    assert m.events == events and m.score == [2, 0]
    f.press("DB##")  # the penalty (the menu's last item): a misdeal, two to the non-dealer
    assert m.last_why == M.WHY_PENALTY and m.score == [2, 2] and m.overlooked() == 0
    f.press("C")
    assert m.events == events + 1 and m.score == [2, 2]


# --- who deals the next game (issue 22): the "deal" setting ---

def test_by_default_the_players_cut_for_the_next_game_and_the_board_asks_who_deals():
    """The sheets: "Players cut for deal", each game. After a game, OK starts the next and the
    board asks who deals, as for the first game: A picks the player, OK deals."""
    from boardkit import next_game

    hw, app, f = board(display=True)
    assert app.cfg.get("deal") == DEAL_CUT
    win(f, app, 0)  # Red dealt and won
    next_game(f, app)
    assert app.m.next_dealer == -1 and "cut for deal" in shown(hw)
    assert "deal: Red" in shown(hw)
    f.press("A")  # Blue cut low
    assert "deal: Blue" in shown(hw)
    f.press("#")
    assert app.m.dealer == 1 and app.m.phase == M.STARTER


def test_the_loser_deals_or_the_deal_goes_on_as_set_in_the_menu():
    from boardkit import next_game

    for rule, dealer in ((DEAL_LOSER, 1), (DEAL_ROTATE, 1), (DEAL_LOSER, 0),
                         (DEAL_ROTATE, 1)):
        hw, app, f = board(display=True)
        new_game(f, app, {"deal": rule})
        assert app.m.settings()[2] >> 4 & 3 == rule
        winner = 1 if dealer == 0 and rule == DEAL_LOSER else 0
        win(f, app, winner)  # Red deals the first game
        next_game(f, app)
        assert app.m.next_dealer == dealer and "cut for deal" not in shown(hw)
        f.press("#")  # OK deals: nobody is asked
        assert app.m.dealer == dealer and app.m.phase == M.STARTER


def test_the_menu_names_who_deals_the_next_game():
    from board.menu import MENU_ITEMS

    hw, app, f = board(display=True)
    f.press("D" + "A" * MENU_ITEMS.index("deal"))
    assert "deal\n= 1 cut for deal\nnext game 0-2" in shown(hw)
    f.press("#")
    assert app.cfg.get("deal") == 2 and "= 2 loser deals" in shown(hw)
    assert app.msg == message("new game to apply") and app.m.settings()[2] >> 4 & 3 == DEAL_CUT
    f.press("#")
    assert "= 0 rotate" in shown(hw)
    assert settings_loads(hw["fs"].files["/data/settings"]).get("deal") == 0


def test_settings_of_earlier_firmware_load_with_the_cut_for_deal():
    """Settings files from before the deal setting (version 2, and version 1 before the match
    setting) load with it at its default: the players cut, as the sheets say."""
    v2 = bytearray((2, 8))
    for v in (4, 61, 1, 0, 3, 100, 2000, 0):  # players game muggins skunk match bright limit wd
        v2 += bytes((v & 255, v >> 8))
    v2.append(sum(v2) & 255)
    s = settings_loads(bytes(v2))
    assert (s.get("players"), s.get("game"), s.get("match"), s.get("bright")) == (4, 61, 3, 100)
    assert s.get("deal") == DEAL_CUT and s.get("limit") == 2000
    assert settings_loads(OLD_SETTINGS).get("deal") == DEAL_CUT
    assert settings_loads(s.dumps()).values == s.values and s.dumps()[0] == 5  # (v5: auto-dimming)


def test_each_deal_setting_from_the_menu_keys_decides_who_deals_after_a_game():
    """The menu's deal item stepped with OK to each value by its name on the display, a new
    game, Blue pegs out over Red's deal (so the loser, Red, and the next round the table,
    Blue, differ), OK: the next game's dealer is as set, and OK deals for him."""
    from board.menu import MENU_ITEMS
    from boardkit import next_game

    for name, dealer in (("loser deals", 0), ("rotate", 1), ("cut for deal", -1)):
        hw, app, f = board(display=True)
        f.press("D" + "A" * MENU_ITEMS.index("deal"))
        for _ in range(3):
            if "= %d %s" % (app.cfg.get("deal"), name) in shown(hw):
                break
            f.press("#")  # OK steps the setting (and saves it)
        assert "deal\n= %d %s\nnext game 0-2" % (app.cfg.get("deal"), name) in shown(hw)
        f.press("*D#")  # leave the menu; the menu's new game applies the rules
        f.press("#")  # Red deals the first game
        f.press("A" if app.e.seat % app.m.sides != 1 else "")
        for _ in range(8):
            f.press("15#")
        f.press("1#")
        assert app.m.phase == M.OVER and app.m.winner == 1 and app.m.dealer == 0, app.err
        next_game(f, app)
        assert app.m.next_dealer == dealer and app.m.phase == M.DEAL, app.err
        assert ("cut for deal" in shown(hw)) == (dealer < 0), shown(hw)
        if dealer < 0:  # the players cut: A picks who cut low (the board offers one)
            offered = 0 if "deal: Red" in shown(hw) else 1
            assert "deal: %s" % ("Red", "Blue")[offered] in shown(hw)
            f.press("A")
            dealer = 1 - offered
        f.press("#")  # OK deals
        assert app.m.dealer == dealer and app.m.phase == M.STARTER, app.err
