"""An update order carried out by the real firmware (issue 31): boards in the MicroPython unix
port (webkit.Board: tools/sim, real time, their pages served), the club's release served by
the club's own web app (tools/club/web.py on waitress, on 127.0.0.1) to each board signed
with its registry secret, and the order given on the board's own page with its PIN (a board
at home; the club's MQTT message hands ota/order.py the same order).

  - a board mid-game waits ("waiting 99.0.0" in its state) and installs nothing until its
    game is over; then, the final frame shown, it fetches its own copy from the club, checks
    it into a slot, and restarts into it on trial (the simulator's machine.reset() ends the
    process: the flash it leaves is the board's);
  - with the real release (this checkout as 99.0.0), the board powered up again boots
    through its loader and runs the new version from its slot, the game kept, on trial, till
    it confirms itself;
  - a board told to fetch a version its trial went back from refuses it;
  - an order with no address, or from another origin, or without the PIN, is refused.
Waits poll with a deadline; nothing is timed."""

import json
import os
import re
import threading

import pytest

import otakit
from clubkit import until
from club import web
from club.service import Club
from webkit import Board, game_tokens, prepare

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
NEW = "99.0.0"


@pytest.fixture
def club(tmp_path):
    c = Club(str(tmp_path / "club.sqlite"))
    srv = web.serve(c, "127.0.0.1", 0, threads=4)
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1},
                     daemon=True).start()
    c.update_url = "http://127.0.0.1:%d" % srv.server_address[1]
    c.releases.add(otakit.bundle(NEW, sig=b"-"))
    yield c
    srv.shutdown()
    srv.server_close()
    c.store.close()
    c.registry.close()
    c.releases.close()


def board_files(root, name, secret):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "wifi.json"), "w") as f:  # (no broker host: no publishing)
        json.dump({"ssid": "club", "password": "", "broker": {
            "host": "127.0.0.1", "port": 1, "board": name, "secret": secret.hex()}}, f)


def pin(b):
    assert b.get("/pin", "POST")[0] == 204
    m = re.search(r"web PIN (\d{4})", " ".join(b.sim.state()["lines"]))
    assert m, " | ".join(b.sim.state()["lines"])
    return m.group(1)


def order(b, url):
    status, body = b.get("/update", "POST", ("pin=%s&url=%s" % (pin(b), url)).encode(), FORM)
    return status, body.decode()


def record(root):
    with open(os.path.join(root, "slots.rec"), "rb") as f:
        return f.read()[:4]


def test_a_board_mid_game_updates_at_the_games_end_from_the_club(tmp_path, club):
    secret = club.registry.add("t1")
    club.releases.publish(NEW, ["t1"])
    root = str(tmp_path / "t1")
    board_files(root, "t1", secret)
    tokens = game_tokens(3)
    k = 5
    prepare(root, tokens[:k])  # mid-game: the first deal's play begun
    b = Board(root)
    try:
        url = club.order("t1")["url"]
        status, body = order(b, url)
        assert (status, body) == (200, "waiting")
        assert b.state()["update"] == "waiting"
        assert b.state()["phase"] != "over"
        b.sim.send("wait 7000")  # (longer than the settling: nothing may happen mid-game)
        assert b.state()["update"] == "waiting"
        assert not os.path.exists(os.path.join(root, "slots.rec"))
        b.keys(" ".join(tokens[k:]), taps=True)  # the game to its end: then it installs
        try:
            until("the board to install and restart", lambda: b.sim.proc.poll() is not None, 60)
        except AssertionError:
            raise AssertionError(str({k: b.state().get(k) for k in ("phase", "update", "lines")})
                                 + "".join(b.sim.log[-10:])) from None
    finally:
        b.close()
    assert record(root) == b"SarT"  # slot a, on trial, the flashed root's app to go back to
    with open(os.path.join(root, "slot_a", "slot.json")) as f:
        assert json.load(f)["version"] == NEW
    with open(os.path.join(root, "game"), "rb") as f:
        assert f.read()  # the finished game kept, for the new version to record


def test_orders_that_are_not_one_are_refused(tmp_path, club):
    secret = club.registry.add("t2")
    root = str(tmp_path / "t2")
    board_files(root, "t2", secret)
    b = Board(root)
    try:
        status, html = b.get("/")
        assert status == 200 and b'id="updurl"' in html and b'fetch("/update"' in html
        p = pin(b)
        for url in ("ftp://x/y", ""):
            status, body = b.get("/update", "POST", ("pin=%s&url=%s" % (p, url)).encode(), FORM)
            assert status == 400 and "http://" in body.decode(), body
        status, body = b.get("/update", "POST", ("pin=%s&url=http://h/%s" % (p, "x" * 60)
                                                 ).encode(), FORM)
        assert status == 413, body  # (the page's form: an address of 50 characters at most)
        status, body = b.get("/update", "POST", ("pin=%s&url=http://h/x" % p).encode(),
                             dict(FORM, Origin="http://evil"))
        assert status == 403, body
        assert "update" not in b.state()
        # nothing offered to t2: the club answers 404, the board says it failed, and keeps
        # its game and its record
        status, body = b.get("/update", "POST", ("pin=%s&url=%s/update/t2/" % (
            p, club.update_url)).encode(), FORM)
        assert status == 200, body
        status, body = b.get("/update", "POST", ("pin=%s&url=http://h/x" % p).encode(), FORM)
        assert status == 403, body  # (a PIN serves once)
        until("the fetch to fail", lambda: b.state().get("update", "").startswith(
            "failed: "), 30)
        assert "404" in b.state()["update"]
        assert not os.path.exists(os.path.join(root, "slots.rec"))
    finally:
        b.close()


class _App:
    """What ota/order.py reads of the app, for its checks (no task is started by them)."""

    def __init__(self):
        self.hw = {}
        self.changes = 0

    def apply(self, call):  # (App.apply: a NOTHING counts as a change)
        self.changes += 1


class _Pub:
    def __init__(self, app):
        self.app = app


def test_the_clubs_order_again_or_a_version_gone_back_from_is_not_taken(tmp_path):
    import slots
    from ota import order
    from version import VERSION

    files = slots.Files(str(tmp_path))
    app = _App()
    url = "http://club:8124/update/t1/"
    # the version running: nothing to do (the club's retained message after the update)
    assert order.take(app, {"version": VERSION, "url": url}, files) == "running %s already" \
        % VERSION
    assert order.say(app) == "" and app.ota[1] is None
    # the trial of NEW went back here: the record names slot a (NEW) as the previous one
    os.makedirs(str(tmp_path / "slot_a"))
    with open(str(tmp_path / "slot_a" / "slot.json"), "w") as f:
        json.dump({"version": NEW}, f)
    files.write("slots.rec", slots.pack("r", "a", "C", 0))
    assert order.take(app, {"version": NEW, "url": url}, files) == "went back from " + NEW
    assert order.say(app) == "went back from " + NEW and app.ota[1] is None and app.changes
    # orders that are not one
    for bad in ({"url": "https://x/"}, {"url": 5}, {"version": "1.0<", "url": url},
                {"version": "1" * 17, "url": url}, "http://x/", {"url": "http://" + "x" * 200}):
        with pytest.raises(ValueError):
            order.take(app, bad, files)
    # none offered any more: what it said of a waiting order goes
    app.ota[1] = ["0.9.0", url, 0]
    app.ota[0] = "waiting 0.9.0"
    assert order.take(app, None, files) == "" and app.ota[1] is None
    app.ota[1] = ["0.9.0", url, 0]
    app.ota[0] = "waiting 0.9.0"
    order.club(_Pub(app), False)  # the club's message: the director stopped the rollout
    assert order.say(app) == "" and app.ota[1] is None


def test_between_games_is_a_game_over_or_none_dealt_with_nothing_typed():
    from types import SimpleNamespace as NS

    from board.modes import NORMAL
    from cribbage.events import DEAL, OVER
    from ota.order import between

    def app(phase, deals=0, cards=(), ndig=0, mode=NORMAL):
        return NS(m=NS(phase=phase, deals=deals), e=NS(cards=list(cards), ndig=ndig),
                  mode=mode)

    assert between(app(OVER, 12)) and between(app(DEAL, 0))
    assert not between(app(DEAL, 1))  # mid-game, between two deals
    for phase in range(DEAL + 1, OVER):  # the starter, the play, the show
        assert not between(app(phase, 0)) and not between(app(phase, 3))
    assert not between(app(DEAL, 0, cards=[5]))  # the first hand being typed
    assert not between(app(DEAL, 0, ndig=1))  # a number being typed
    assert not between(app(OVER, 12, mode=NORMAL + 1))  # the menu open


def test_a_version_on_trial_says_so_until_it_confirms_itself(tmp_path, monkeypatch):
    """The board's state (its page, the club's live tables) says "on trial" while the running
    version is on trial (slots.trial), and goes out without it once ota/trial.py confirms it
    (a change of the App's: the publisher sends a changed state)."""
    import asyncio

    import slots
    from board.snapshot import snapshot
    from boardkit import board
    from ota import trial

    files = slots.Files(str(tmp_path))
    files.write(slots.REC, slots.pack("a", "r", "T", 1))
    _hw, app, _f = board()
    assert "update" not in snapshot(app)  # (confirmed, or never updated: nothing said)
    monkeypatch.setattr(slots, "trial", ("a", "r"))
    monkeypatch.setattr(slots, "wdt", None)
    assert snapshot(app)["update"] == "on trial"
    t = [0]
    monkeypatch.setattr(app, "clock", lambda: t[0])

    async def sleep_ms(ms):  # (virtual: the trial's 30 s at once)
        t[0] += ms

    monkeypatch.setattr(trial, "sleep_ms", sleep_ms)
    before = app.changes
    asyncio.run(trial.watch(app, reset=lambda: pytest.fail("no fault: no reset"), files=files))
    assert slots.read(files)[2] == "C" and slots.trial is None
    assert app.changes > before  # (the state goes out again)
    assert "update" not in snapshot(app)
    # an order's own words come first (a version on trial takes no update: ota/order.py)
    monkeypatch.setattr(slots, "trial", ("a", "r"))
    app.ota = ["waiting 99.0.0", None, None]
    assert snapshot(app)["update"] == "waiting 99.0.0"


@pytest.mark.slow
def test_an_updated_board_runs_the_new_version_from_its_slot_and_keeps_its_game(tmp_path, club):
    """The whole update with the real release: this checkout's firmware as version 99.0.0,
    built and packed by tools/maker/release.py for the Pico W (its tree in one littlefs image), kept
    by the club and fetched by a board whose game is over; then the board powered up again
    boots through its loader (firmware/slots.py, as main.py has it: the simulator does too
    when the flash has slots): the new version runs from its slot's image, on trial, with the
    finished game as it was, says "on trial", and confirms itself after its 30 s."""
    import shutil

    import release  # tools/maker/release.py
    from hostenv import FIRMWARE
    from mqttkit import over

    src = str(tmp_path / "src")
    shutil.copytree(FIRMWARE, src)
    with open(os.path.join(src, "version.py"), "w") as f:
        f.write('VERSION = "%s"\n' % NEW)
    with open(release.make("pico_w", str(tmp_path / "release"), src=src), "rb") as f:
        assert club.releases.add(f.read()) == (NEW, "rp2040")  # (in place of the small one)
    secret = club.registry.add("t1")
    club.releases.publish(NEW, ["t1"])
    root = str(tmp_path / "t1")
    board_files(root, "t1", secret)
    over(root, 3)  # the game won, its final frame shown: between games
    b = Board(root)
    try:
        before = b.state()
        assert before["phase"] == "over" and before["version"] != NEW
        assert order(b, club.order("t1")["url"]) == (200, "waiting")
        until("the board to install and restart", lambda: b.sim.proc.poll() is not None, 120)
    finally:
        b.close()
    assert record(root) == b"SarT"
    assert os.path.exists(os.path.join(root, "slot_a", "app.img"))  # (one file: the image)
    b = Board(root)  # powered up again: through the loader, into slot a
    try:
        st = b.state()
        assert st["version"] == NEW and st["update"] == "on trial"
        assert (st["phase"], st["score"], st["winner"]) == (
            before["phase"], before["score"], before["winner"])  # the game kept
        with open(os.path.join(root, "slots.rec"), "rb") as f:
            assert f.read()[:5] == b"SarT1"  # (one trial boot counted)
        until("the new version to confirm itself (30 s on trial)",
              lambda: record(root) == b"SarC", 90)
        until("the state without 'on trial'", lambda: "update" not in b.state())
        assert b.state()["version"] == NEW
    finally:
        b.close()
