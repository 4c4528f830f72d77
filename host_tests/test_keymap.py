"""The key map is data (firmware/board/modes.py's THE KEY MAP) that the firmware's key handling
reads, with its words (tools/sim/keymap.py) that the simulator and the key card show: every key
of the keypad has a meaning there, each key's few words on the card agree with its row, and the
firmware follows the table (a key given another meaning there means that on the board)."""

from boardkit import board
from board import app as board_app, entry
from board.modes import KEYS
from sim import keymap as keyhelp  # (the words)
from sim import keymap  # (THE KEY MAP's places, named)
from board.keypad import KEYS_4X4
from cribbage.cards import SUIT_CHARS


def test_every_key_of_the_keypad_has_a_meaning_in_the_table():
    meant = keymap.DIGITS + keymap.SUITS + keymap.OK + keymap.BACK
    assert sorted(meant) == sorted(KEYS_4X4)  # each once
    assert set(keymap.HELD) <= {keymap.OK, keymap.BACK}
    hw, _app, _f = board()
    names = hw["fake_matrix"].names
    assert "".join(names[16:]) == keymap.BUTTONS[:len(names) - 16]  # the +1 buttons' names


def test_the_words_name_the_keys_the_table_has():
    rows = dict(keyhelp.ROWS)
    text = " ".join(rows.values())
    for key, suit in zip(keymap.SUITS, keyhelp.SUIT_NAMES):
        assert "%s=%s" % (key, suit) in text
    assert [s[0].upper() for s in keyhelp.SUIT_NAMES] == list(SUIT_CHARS)
    assert "hold %s  /  hold %s" % tuple(keymap.HELD) in rows
    assert "buttons %s, %s, ..." % tuple(keymap.BUTTONS[:2]) in rows
    for key, words in keyhelp.CELLS:  # each key's words on the card: the start of its row's
        if words.startswith("hold: "):
            i = keymap.HELD.index(key)
            assert rows["hold *  /  hold #"].split("/")[i].strip().startswith(words[6:])
        elif key in keymap.DIGITS:
            assert "%s=%s" % (key, words) in text
        else:
            what = [w for k, w in keyhelp.ROWS if k.split()[0] == key]
            assert len(what) == 1 and what[0].startswith(words), (key, words)
    assert {k for k, _w in keyhelp.CELLS} >= set(keymap.SUITS + keymap.OK + keymap.BACK)


def test_the_places_the_key_handling_reads_are_the_table_s():
    """board/entry.py and board/app.py keep KEYS' places as their own consts (a name each in
    board/modes.py would be one more interned name for good on the board): the copies agree
    with the table and with each other."""
    assert KEYS[entry._SUIT_KEY:entry._BACK_KEY] == keymap.SUITS == "ABCD"
    assert KEYS[entry._BACK_KEY] == KEYS[board_app._BACK_KEY] == keymap.BACK == "*"
    assert KEYS[entry._OK_KEY] == KEYS[board_app._BACK_KEY + 1] == keymap.OK == "#"
    assert KEYS[board_app._BACK_KEY + 2:] == keymap.BUTTONS == "abcdef"
    assert KEYS[:entry._SUIT_KEY] == keymap.DIGITS == "0123456789"
    assert keymap.HELD == "*#"  # held: undo (UNDO, 0), redo (UNDO, 1): their places - back's


def test_the_firmware_follows_the_table(monkeypatch):
    """OK and back swapped in the table the key handling reads: "*" confirms, "#" deletes."""
    _hw, app, f = board()
    f.press("12#")  # the table as it is: 12 pegged for the first player, by OK
    assert app.err is None and list(app.m.score[:2]) == [12, 0]
    swapped = KEYS.replace("*#", "#*")
    monkeypatch.setattr(board_app.modes, "KEYS", swapped)  # (the app and board/entry.py read
    # modes.KEYS)
    f.press("5#")  # "#" is back now: the 5 goes, nothing pegged
    assert app.e.num == -1 and app.err is None and list(app.m.score[:2]) == [12, 0]
    f.press("3*")  # "*" is OK now: 3 pegged
    assert app.err is None and list(app.m.score[:2]) == [15, 0]
