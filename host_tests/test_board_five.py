"""Five-card cribbage on the board (issue 22.18), through its keys: the "cards" setting, the
pone's three for last, the one series of play, three-card hands filled in from the play and
typed, the four-card crib, the save (CPython; the engine's rules: both/test_five.py)."""

from boardkit import board, new_game, shown
from board.settings import Settings
from board.boot import settings as settings_loads  # (power-up's: board/boot.py)
from board.app import App
from board.modes import message
from cribbage import match as M
from dealer.cardtext import parse
from matchkit import C, card_keys


def keys(text):
    """'10H KD' -> the keys that type those cards."""
    return "".join(card_keys(parse(t)) for t in text.split())


def five_board():
    hw, app, f = board(display=True)
    new_game(f, app, {"cards": 5})
    return hw, app, f


def test_the_cards_setting_starts_a_five_card_game_of_two_to_61():
    hw, app, f = board(display=True)
    f.press("D")
    while app.item != 10:  # the menu's "cards", after the board's own settings
        f.press("A")
    assert "cards 6 or 5" in shown(hw)
    f.press("5#")
    assert app.cfg.get("cards") == 5 and app.msg == message("new game to apply")
    f.press("*")
    assert app.m.cards() == 6  # the game on keeps its rules
    new_game(f, app, {"players": 3})  # five-card is a two-player game whatever players says
    assert app.m.cards() == 5 and app.m.players == 2 and app.m.target == 61
    assert settings_loads(app.cfg.dumps()).get("cards") == 5


def test_a_settings_file_of_earlier_firmware_loads_as_six_card():
    old = Settings().dumps()
    v3 = bytearray([3, 9]) + old[2:2 + 18]  # version 3: nine values, no "cards"
    v3.append(sum(v3) & 255)
    s = settings_loads(bytes(v3))
    assert s.get("cards") == 6 and s.values[:9] == Settings().values[:9]
    assert Settings().dumps()[:2] == b"\x05\x0b"  # version 5: eleven values


def test_a_five_card_deal_typed_on_the_keys():
    hw, app, f = five_board()
    f.press("#")  # Red deals (the first deal: A would choose another)
    m = app.m
    assert m.dealer == 0 and m.score == [0, 3]  # Blue, the pone: three for last, no key
    f.press(keys("2S"))  # the starter
    f.press(keys("10H KD 9H"))  # Blue 10, Red 20, Blue 29
    f.press("B")  # Red: go
    f.press("B")  # Blue cannot either: one for the go, and the play is over
    assert m.phase == M.SHOW and m.score == [0, 4] and m.played[1] == 2
    # Blue's hand: the two cards he played are filled in; his third is typed
    assert sorted(app.e.cards) == sorted([parse("10H"), parse("9H")])
    f.press("#")
    assert "3 cards in five-card cribbage: 2 typed" in app.err and m.turn == 1
    f.press(keys("3C"))
    text = shown(hw)  # the count before OK, said item by item, as for four cards
    assert "= 2" in text and "fifteen two" in text, text
    assert app.view.preview_side == 1 and app.view.preview_score == 6  # and on the LEDs
    f.press(keys("AC"))  # a fourth card: refused
    assert "all the cards" in app.err and len(app.e.cards) == 3
    f.press("#")  # 10+3+2: fifteen two
    assert m.score == [0, 6] and m.turn == 0
    f.press(keys("QD 5S") + "#")  # Red: KD (filled in) QD 5S: KD 5S, QD 5S: four
    assert m.score == [4, 6] and m.crib_next
    f.press(keys("AH 4D 6C JS"))  # the crib's fourth card puts it in: J+4+A, his nobs: 3
    assert m.phase == M.DEAL and m.score[1] == 6
    crib = m.score[0] - 4
    assert crib == 3 == M.score.score_hand(C("AH 4D 6C JS"), parse("2S"), True)
    # the next deal (typing its starter deals it): Blue deals, no three for last again
    f.press(keys("7C"))
    assert m.dealer == 1 and m.deals == 2 and m.score == [4 + crib, 6]


def test_the_five_card_count_is_loaded_with_a_five_card_match_and_only_then(monkeypatch):
    """cribbage/score5.py (a three-card hand's count) is on the heap only with a five-card
    game (issue 34): a whole six-card game never loads it; a five-card Match's making, a new
    game's or a saved game's at power-up, does, so that no count in the display's preview
    after a key is an import (one short of memory would show a fault there)."""
    import sys

    import cribbage
    from boardkit import play_game

    def unloaded():
        monkeypatch.delitem(sys.modules, "cribbage.score5", raising=False)
        monkeypatch.delattr(cribbage, "score5", raising=False)

    unloaded()
    hw, app, f = board(display=True)
    play_game(hw, app, f, 3)  # a six-card game, to its end and its record
    assert app.m.phase == M.OVER and "cribbage.score5" not in sys.modules
    hw, app, f = five_board()
    assert app.m.cards() == 5 and "cribbage.score5" in sys.modules
    unloaded()
    again = App(hw)  # power-up: the saved five-card game loaded
    assert again.m.cards() == 5 and "cribbage.score5" in sys.modules


def test_a_five_card_game_survives_a_reset():
    hw, app, f = five_board()
    f.press("#" + keys("2S") + keys("10H KD 9H") + "BB")
    again = App(hw)  # a power cut: the board boots from its flash
    assert again.m.cards() == 5 and again.m.state() == app.m.state()
    assert again.cfg.get("cards") == 5


def test_the_advisor_in_a_five_card_game_throws_two_of_five():
    from board.menu import MENU_ITEMS

    hw, app, f = five_board()
    f.press("D" + "A" * MENU_ITEMS.index("advisor") + "#")
    f.press(keys("5H KD 5C QS 5S"))
    f.press(keys("AC"))  # a sixth: five-card deals five
    assert "all the cards" in app.err and len(app.e.cards) == 5
    f.press("B")  # their crib
    assert app.e.advice[0][1] == (1, 3)
    assert "KD QS" in shown(hw)  # the throw, best first


def test_the_history_says_a_game_was_five_card():
    from board import history
    from board.export import decode
    from board.storage import Storage
    from fakeboard.ramfs import RamFs
    from cribbage import summary as S
    import history as tool  # tools/player/history.py

    m = M.Match(players=2, target=61, cards=5)
    m.deal(1)  # Red, the pone: three for last
    m.starter(parse("2S"))
    for c in C("10H KD 9H"):
        m.play(c)
    m.go()
    m.go()  # one for the go to Red
    m.show(C("10H 9H 3C"))  # Red: 2
    m.show(C("KD QD 5S"))  # Blue: 4
    m.show(C("AH 4D 6C JS"))  # Blue's crib: 3
    m.deal()
    m.peg(0, 15)
    m.peg(0, 15)
    m.peg(0, 15)
    m.peg(0, 10)
    assert m.phase == M.OVER and m.score == [61, 7] and m.result == M.LURCH
    st = Storage("/data", RamFs())
    assert history.add(st, m, S.dumps(m, 40))
    (r,) = tool.records(st.read("history"))
    assert history.cards(r) == 5
    g = decode(r, 1)
    assert g["cards"] == 5 and g["target"] == 61 and g["result"] == "lurch"
    red, blue = g["by_side"]
    assert red["pegged"] == 3 + 55 and red["play"] == 1 and red["hand"] == 2
    assert (blue["hand"], blue["crib"]) == (4, 3)
    for s, score in zip(g["by_side"], m.score):  # the summary adds up to the scores
        assert s["hand"] + s["crib"] + s["play"] + s["heels"] + s["pegged"] == score
    # a six-card game's record says nothing new
    six = M.Match(players=2, target=61)
    six.deal(1)
    for _ in range(5):
        six.peg(0, 13)
    st = Storage("/data", RamFs())
    assert history.add(st, six, S.dumps(six, 40))
    (r,) = tool.records(st.read("history"))
    assert history.cards(r) == 6 and "cards" not in decode(r, 1)


def test_the_page_names_the_game_and_shows_a_three_card_hand():
    from board.snapshot import snapshot

    hw, app, f = five_board()
    f.press("#" + keys("2S") + keys("10H KD 9H") + "BB")
    st = snapshot(app)
    assert st["cards"] == 5 and st["target"] == 61 and st["players"] == 2
    f.press(keys("3C") + "#")  # Blue's hand: 10H 9H (filled in) and 3C
    st = snapshot(app)
    show = st["show"]
    assert sorted(show["cards"]) == ["10H", "3C", "9H"] and show["points"] == 2
    assert not show["crib"]
    assert show["said"] == "fifteen two"
    assert st["last"]["why"] == "hand"
    hw, app, f = board(display=True)
    assert "cards" not in snapshot(app)  # a six-card game's state: as before


def test_the_page_says_three_for_last():
    from board.snapshot import snapshot

    hw, app, f = five_board()
    f.press("#")
    st = snapshot(app)
    assert st["last"] == {"side": 1, "points": 3, "why": "last"}


def test_all_six_cards_played_one_ok_counts_both_hands():
    hw, app, f = five_board()
    m = app.m
    f.press("#" + keys("KC"))
    f.press(keys("AC AD 2C 3C 2D QS"))  # Blue, Red, ...: Red's QS (19) the last card, 1
    assert m.phase == M.SHOW and m.score == [2 + 3 + 1, 3]
    assert "then Red = " in shown(hw)  # one OK counts Red's hand too: said before it
    f.press("#")
    # Blue AC 2C 2D + KC: a pair 2, A+2+2+K fifteen 2: 4; Red AD 3C QS + KC: A+3+... no 15s
    assert m.score == [6, 3 + 4] and m.crib_next
