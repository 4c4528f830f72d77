"""Going back to an older version keeps the saves aside (issue 31): after a trial goes back
(slots.py), the older app may find a game or settings file in a format newer than it reads.
Its own boot (board/boot.py) moves such a file aside as NAME.bad, whole, says so on the
display, and starts afresh: nothing is read wrong, nothing is deleted, the board plays. (An
install of an older version than the saves is refused unless forced: ota/install.py,
host_tests/both/test_ota.py.)"""

from board.app import App
from board.settings import Settings
from boards.fake import build
from cribbage import match as M
from cribbage.saved import _crc32
from test_board_faults import GAME, SETTINGS, a_save_after_a_few_deals, fs_with


def newer(data):
    """A game file as a later version would write it: format VERSION + 1, its CRC right."""
    b = bytearray(data)
    b[0] = M.VERSION + 1
    crc = _crc32(memoryview(b)[:-4])
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
