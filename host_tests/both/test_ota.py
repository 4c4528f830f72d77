"""Updates over the air (issue 31): the verified install of a bundle into the slot not
running, and every bad bundle refused with nothing pointed at. Runs under CPython (a folder)
and MicroPython (real littlefs on a RAM flash): host_tests/both/otakit.py."""

from otakit import GAME, OTHER, app_files, board, boot, bundle, get, update

import slots
from check import ON_MICROPYTHON, raises
from ota.install import UpdateError, can_install


def test_install_then_trial_then_confirmed_and_the_game_kept():
    files = board()
    man = update(files, bundle("0.7.0"))
    assert man["version"] == "0.7.0"
    assert slots.read(files) == ("a", "r", "T", 0)
    for p, d in app_files("0.7.0"):
        assert get(files, "slot_a/" + p) == d
    assert get(files, "slot_a/bundle.json")
    assert boot(files) == ("slot_a", "ran")
    assert slots.read(files) == ("a", "r", "C", 0)
    assert get(files, "data/game") == GAME
    # a second update goes to the other slot, and the first is what it goes back to
    update(files, bundle("0.8.0"), running="0.7.0")
    assert slots.read(files) == ("b", "a", "T", 0)
    assert boot(files) == ("slot_b", "ran") and slots.read(files)[:3] == ("b", "a", "C")
    assert get(files, "data/game") == GAME and slots.note(files) is None


def _flipped():
    b = bytearray(bundle("0.7.0"))
    b[-5] ^= 1  # the last file's bytes
    return bytes(b)


def _length(n):
    parts = bundle("0.7.0").split(b"\n", 3)
    return b"\n".join(parts[:2] + [n] + parts[3:])


BAD = (  # (what the refusal says, the bundle, the board on trial)
    ("SHA-256", _flipped, 0),
    ("bad signature", lambda: bundle("0.7.0", key=OTHER), 0),
    ("not signed", lambda: bundle("0.7.0", sig=b"-"), 0),
    ("not signed", lambda: bundle("0.7.0", sig=b""), 0),
    ("ends too soon", lambda: bundle("0.7.0")[:-10], 0),
    ("ends too soon", lambda: bundle("0.7.0")[:400], 0),
    ("a bundle for esp32", lambda: bundle("0.7.0", board="esp32"), 0),
    ("older than", lambda: bundle("0.5.9"), 0),
    ("bad path", lambda: bundle("0.7.0", files=[("../main.py", b"x")]), 0),
    ("bad path", lambda: bundle("0.7.0", files=[("/main.py", b"x")]), 0),
    ("bad path", lambda: bundle("0.7.0", files=[("bundle.json", b"x")]), 0),
    ("not a bundle", lambda: b"GET / HTTP/1.0\r\n\r\n" + bundle("0.7.0"), 0),
    ("bad manifest length", lambda: _length(b"99999999"), 0),
    ("bad manifest length", lambda: _length(b"x"), 0),
    ("bad version", lambda: bundle("seven"), 0),
    ("on trial", lambda: bundle("0.7.0"), 1),
)


def test_bad_bundles_are_refused_and_nothing_is_pointed_at():
    for why, data, trial in BAD:
        files = board()
        if trial:
            files.write(slots.REC, slots.pack("r", "r", "T", 1))
        before = files.read(slots.REC, 8)
        e = raises(UpdateError, update, files, data())
        assert why in str(e), (why, str(e))
        assert files.read(slots.REC, 8) == before, why  # nothing pointed at
        assert boot(files)[0] == "", why
        assert get(files, "data/game") == GAME


def test_no_room_is_refused():
    files = board()
    e = raises(UpdateError, update, files, bundle("0.7.0"), keep=1 << 50)
    assert "no room" in str(e) and slots.read(files)[0] == "r"


def test_an_older_version_goes_in_when_asked():
    files = board()
    update(files, bundle("0.5.9"), force=True)
    assert slots.read(files) == ("a", "r", "T", 0)


def test_a_version_that_cannot_read_the_saves_is_refused():
    files = board()
    update(files, bundle("0.7.0"))
    boot(files)
    newer = dict(game=[3, 3], settings=[1, 4], history=[1, 2], outbox=[1, 1])
    e = raises(UpdateError, update, files, bundle("0.8.0", saves=newer), running="0.7.0")
    assert "cannot read this board's game (format 2)" in str(e)
    update(files, bundle("0.8.0", saves=newer), running="0.7.0", force=True)  # when asked
    boot(files)
    # going back: an older version that writes an older format than the board's saves
    e = raises(UpdateError, update, files, bundle("0.7.5"), running="0.8.0", force=False)
    assert "older than" in str(e)
    older = dict(game=[1, 2], settings=[1, 4], history=[1, 2], outbox=[1, 1])
    e = raises(UpdateError, update, files, bundle("0.9.0", saves=older), running="0.8.0")
    assert "cannot read this board's game (format 3)" in str(e)


def test_the_secret_comes_from_the_boards_wifi_file():
    files = board()
    update(files, bundle("0.7.0"), key=None)
    assert slots.read(files)[0] == "a"


class _M:
    def __init__(self, phase, deals):
        self.phase, self.deals = phase, deals


class _App:
    def __init__(self, phase, deals):
        self.m = _M(phase, deals)


def test_updates_only_between_games():
    from cribbage import events as M
    assert can_install(_App(M.OVER, 9)) and can_install(_App(M.DEAL, 0))
    assert not can_install(_App(M.DEAL, 1)) and not can_install(_App(M.PLAY, 3))
    assert not can_install(_App(M.SHOW, 3)) and not can_install(_App(M.STARTER, 2))


class _Big:
    """A bundle of one 12000-byte file, its bytes made as they are read (the test's heap
    could not hold them whole either)."""

    def __init__(self):
        import hashlib
        import json

        from ota.hmac import hmac
        from otakit import KEY, SAVES, hexs
        h = hashlib.sha256()
        for _ in range(12):
            h.update(b"\x5a" * 1000)
        raw = json.dumps({"bundle": 1, "version": "0.7.0", "board": "rp2040", "saves": SAVES,
                          "files": [["board/big.mpy", 12000, hexs(h.digest())]]}).encode()
        self.head = b"cribbage-bundle 1\n%s\n%d\n" % (
            hexs(hmac(KEY, b"update\n" + raw)).encode(), len(raw)) + raw
        self.left = 12000

    def read(self, n):
        if self.head:
            d, self.head = self.head[:n], self.head[n:]
            return d
        n = min(n, self.left)
        self.left -= n
        return b"\x5a" * n


def test_install_streams_in_small_pieces():
    """A file is written as it arrives: the heap in use while the files stream in stays what
    it was when they began (a 12000-byte file never whole in RAM)."""
    if not ON_MICROPYTHON:
        return
    import gc

    from ota.install import install
    files = board()
    seen = []

    def progress(done, total):
        gc.collect()
        seen.append(gc.mem_alloc())

    install(_Big(), files, board="rp2040", running="0.6.0", keep=0, progress=progress)
    assert len(seen) == 2 and seen[1] - seen[0] < 4000, seen  # (littlefs's own buffers)

