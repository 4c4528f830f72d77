"""Going back to an older version keeps the saves aside (issue 31): after a trial goes back
(slots.py), the older app may find a game or settings file in a format newer than it reads.
Its own boot (board/boot.py) moves such a file aside as NAME.bad, whole, says so on the
display, and starts afresh: nothing is read wrong, nothing is deleted, the board plays. (An
install of an older version than the saves is refused unless forced: ota/install.py,
host_tests/both/test_ota.py.)"""

from board.app import App
from board.settings import Settings
from fakeboard.fake import build
from cribbage import match as M
from cribbage.game import crc32
from test_board_faults import GAME, SETTINGS, a_save_after_a_few_deals, fs_with


def newer(data):
    """A game file as a later version would write it: format VERSION + 1, its CRC right."""
    b = bytearray(data)
    b[0] = M.VERSION + 1
    crc = crc32(memoryview(b)[:-4])
    b[-4:] = bytes(crc >> (8 * i) & 255 for i in range(4))
    return bytes(b)


def test_a_game_saved_by_a_newer_version_is_kept_aside_by_the_older():
    game, cfg, _m = a_save_after_a_few_deals()
    later = newer(game)
    fs = fs_with(later, cfg)
    app = App(build("/data", display=True, fs=fs))
    assert app.m.events == 0 and app.m.phase == M.DEAL  # afresh
    assert "version" in app.note and app.note.endswith("kept as game.bad, starting afresh")
    assert fs.files[GAME + ".bad"] == later and app.cfg.dumps() == cfg


def test_settings_saved_by_a_newer_version_are_kept_aside_by_the_older():
    game, cfg, m = a_save_after_a_few_deals()
    later = bytearray(cfg)  # (version 5's form: the default palette's, version 6's other)
    later[0] += 2  # two values more, as each version has added one
    later[1] += 2
    later[-1:] = b"\x00\x00\x00\x00"
    later.append(sum(later) & 255)
    fs = fs_with(game, bytes(later))
    app = App(build("/data", display=True, fs=fs))
    assert app.note.startswith("settings unreadable (") and "kept as settings.bad" in app.note
    assert fs.files[SETTINGS + ".bad"] == bytes(later)
    assert app.cfg.dumps() == Settings().dumps() and app.m.dumps() == m.dumps()


def later_record(n=40, fill=0x33):
    """A history record of a later format (version 3), as a later firmware might write it: its
    first byte above this firmware's 2, then whatever it holds."""
    return bytes([3, n, 0]) + bytes([fill]) * (n - 3)


def test_history_records_of_a_newer_version_are_kept_aside_by_the_older():
    """After an update went back, the older app's history (board/history.py) finds records of
    a later format it cannot read: before its rewrite drops them, the file goes whole to
    history.new (appended; bounded), the display is told, and its own records stay."""
    from board import history
    from board.storage import Storage
    from fakeboard.ramfs import RamFs
    from test_history import kept
    from test_summary import known_game

    st = Storage("/data", RamFs())
    fs = st.fs
    m = known_game()
    assert history.add(st, m) is True
    (mine,) = kept(st)
    first = mine + later_record() + later_record(60, 0x44)  # (the later version's, after it)
    fs.files["/data/history"] = first
    m.games[0] += 1
    said = history.add(st, m)
    assert said == "history of a newer version kept as history.new"
    assert fs.files["/data/history.new"] == first  # whole, unread
    recs = kept(st)
    assert recs[0] == mine and len(recs) == 2  # this firmware's own, and the new game's
    m.games[0] += 1
    assert history.add(st, m) is True  # nothing of a later format left: nothing more aside
    assert fs.files["/data/history.new"] == first
    # a second time (the later version back, then gone back again): appended, not replaced
    again = later_record(30, 0x55) + fs.files["/data/history"]  # (a later one first this time)
    fs.files["/data/history"] = again
    m.games[0] += 1
    assert history.add(st, m) == "history of a newer version kept as history.new"
    assert fs.files["/data/history.new"] == first + again
    # bounded: past 16 KB the older ones go aside unread as history.new.bad, replaced
    big = bytes(16384 - 10)
    fs.files["/data/history.new"] = big
    fs.files["/data/history"] = again
    m.games[0] += 1
    history.add(st, m)
    assert fs.files["/data/history.new.bad"] == big and fs.files["/data/history.new"] == again


def test_history_without_newer_records_is_not_set_aside():
    from board import history
    from board.storage import Storage
    from fakeboard.ramfs import RamFs
    from test_summary import known_game

    st = Storage("/data", RamFs())
    m = known_game()
    for _ in range(3):
        m.games[0] += 1
        assert history.add(st, m) is True
    assert "/data/history.new" not in st.fs.files
