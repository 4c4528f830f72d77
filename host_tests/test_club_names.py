"""Players named at the board from the club's list (issue 24): the board's page, on the
phone, asks the club service for its names (/players.json) and its tournament's next tables
(/tournament.json) itself, at the Wi-Fi file's "club" address or else at the broker's host on
the club service's port; a tap puts a name in a seat, a table's pair fills both seats, and
the names are kept on the board with the PIN as before. The club's JSON answers any page
(CORS); a club out of reach leaves the names to be typed. The browser test runs the real
firmware (MicroPython, its page and publisher), a real Mosquitto, the club service and
Chromium; it is skipped, saying why, without Chromium or Mosquitto."""

import json
import os
import re
import urllib.parse
import urllib.request

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Broker, Service, until
from clubweb import DirectorBrowser, set_password
from club import tournament
from club.service import Club, today
from club.web import serving
from hostenv import ROOT
from test_flash import FLASH, cli, fake_build
from test_web_browser import ARGS, CHROMIUM
from webkit import Board

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Margaretha"]  # the last too long for a board (7)


def _get(url, origin=None):
    """(headers, body) of a GET, as a page from origin would ask it."""
    req = urllib.request.Request(url, headers={"Origin": origin} if origin else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.headers, r.read()


def test_the_clubs_json_answers_any_page_and_its_pages_do_not(tmp_path):
    """A board's page is another origin (the board's address): a simple GET (no credentials,
    no headers of its own) needs only Access-Control-Allow-Origin on the answer."""
    club = Club(str(tmp_path / "c.sqlite"))
    club.store.set_tournament(PLAYERS[:4], 3, 2, today())
    try:
        with serving(club) as httpd:
            url = httpd.url
            head, body = _get(url + "/players.json", "http://192.168.1.23")
            assert head["Access-Control-Allow-Origin"] == "*"
            assert json.loads(body) == PLAYERS[:4]  # the tournament's players, in its order
            head, body = _get(url + "/tournament.json", "http://192.168.1.23")
            assert head["Access-Control-Allow-Origin"] == "*"
            tables = json.loads(body)["tables"]
            assert tables == [list(x) for x in tournament.tables(
                tournament.rotation(PLAYERS[:4], 3)[0], 2)]
            head, _ = _get(url + "/director", "http://192.168.1.23")  # a page: not another's
            assert head["Access-Control-Allow-Origin"] is None
    finally:
        club.store.close()


def test_the_wifi_file_names_the_club_page(tmp_path):
    from hw.wifi import broker

    f = tmp_path / "wifi.json"
    f.write_text(json.dumps({"ssid": "club", "broker": "10.0.0.2",
                             "club": "http://10.0.0.3:8080"}))
    assert broker(str(f), b"\x01")["club"] == "http://10.0.0.3:8080"
    for other in ({}, {"club": 5}, {"club": ""}):  # none: the broker's host, port 8124
        f.write_text(json.dumps(dict({"ssid": "club", "broker": "10.0.0.2"}, **other)))
        assert "club" not in broker(str(f), b"\x01"), other
    f.write_text(json.dumps({"ssid": "club", "club": "http://10.0.0.3:8080"}))
    assert broker(str(f), b"\x01") is None  # no broker: nothing published, no club


def test_make_flash_says_where_the_page_finds_the_clubs_names(tmp_path):
    b = fake_build(tmp_path)
    creds = tmp_path / "wifi.json"

    def flash(**cfg):
        creds.write_text(json.dumps(dict({"ssid": "home", "password": "pw"}, **cfg)))
        return cli(FLASH, "flash", "--board", "pico_w", "--port", "/dev/ttyFAKE0",
                   "--dry-run", "--build", str(b), "--wifi", str(creds))

    r = flash(broker={"host": "192.168.1.10"})
    assert r.returncode == 0, r.stderr
    assert "offers the club's names from http://192.168.1.10:8124 (" in r.stdout
    r = flash(broker={"host": "192.168.1.10"}, club="http://192.168.1.11:8080/")
    assert r.returncode == 0, r.stderr
    assert "offers the club's names from http://192.168.1.11:8080/" in r.stdout
    for club, says in (("192.168.1.11:8080", "does not begin http://HOST"),
                       ("http://h:port", "'http://h:port': Port"),
                       ("http://h/a b", "no spaces"), (8124, "8124 is not text")):
        r = flash(broker={"host": "192.168.1.10"}, club=club)
        assert r.returncode == 2 and '"club" is the club page\'s address' in r.stderr, club
        assert says in r.stderr, (club, r.stderr)
    r = flash(club="http://192.168.1.11:8124")
    assert r.returncode == 2 and 'no "broker" is named' in r.stderr


def _wifi(storage, broker_port, secret, **more):
    os.makedirs(storage, exist_ok=True)
    with open(os.path.join(storage, "wifi.json"), "w") as f:
        json.dump(dict({"ssid": "club", "password": "", "broker": {
            "host": "127.0.0.1", "port": broker_port, "board": "t3",
            "secret": secret.hex()}}, **more), f)  # (make club-board's identity)


def _club(board):
    status, body = board.get("/club")
    assert status == 200
    return json.loads(body)


def _pin(page, board):
    """The PIN as a player gets it: the page's button, the board's display."""
    page.click("#askpin")
    text = until("the PIN on the display", lambda: re.search(
        r"web PIN (\d{4})", " ".join(board.sim.state()["lines"])))
    page.fill("#pin", text.group(1))


def _seats(page):
    return page.evaluate("seatVals()")


@pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED)
@pytest.mark.skipif(not CHROMIUM, reason="no Chromium (apt-get install chromium; `.ci/run` "
                    "installs it as root): the club names' browser test is skipped")
def test_the_page_offers_the_clubs_names_and_keeps_them(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    # the tournament in the club's file before it starts (the director's form refuses a name
    # no board can keep: a club's file from elsewhere, or tonight's games, may still hold one)
    seed = Club(str(tmp_path / "club.sqlite"))
    seed.store.set_tournament(PLAYERS, 3, 3, today())
    seed.store.close()
    broker = Broker(tmp_path / "broker")
    key = broker.add_board("t3")  # (the board logs in as itself and signs)
    svc = Service(tmp_path, broker)
    board = None
    try:
        draw = tournament.tables(tournament.rotation(PLAYERS, 3)[0], 3)
        # (the draw: table 1 has Margaretha, whom no board can name; table 2; table 3)
        assert [t for t, a, b in draw if "Margaretha" in (a, b)] == [1]
        mine = next((a, b) for t, a, b in draw if t == 3)  # board "t3" is table 3's
        other = next((a, b) for t, a, b in draw if t == 2)
        storage = str(tmp_path / "board")
        _wifi(storage, broker.port, key, club="http://127.0.0.1:%d/" % svc.port)
        board = Board(storage)
        until("the board online", lambda: _club(board)["status"] == "online")
        assert _club(board)["club"] == "http://127.0.0.1:%d/" % svc.port
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 390, "height": 900})  # a phone
            page.goto(board.url + "/")
            expect(page.locator("#conn")).to_have_text("live", timeout=10000)
            # the club's names a tap each (the one too long for a board left out, and said)
            chips = page.locator("#chips button")
            expect(chips).to_have_count(5, timeout=10000)
            assert chips.all_text_contents() == PLAYERS[:5]
            expect(page.locator("#clubsays")).to_contain_text("1 of the club's names do not "
                                                              "fit a board")
            expect(page.locator("#seats input")).to_have_count(2)  # a seat per player
            assert page.locator("#clubnames option").count() == 5  # typing offers them too
            # a name goes into the first empty seat, and out again at a second tap
            page.click("#chips button:text-is('Cy')")
            page.click("#chips button:text-is('Ann')")
            assert _seats(page) == ["Cy", "Ann"]
            expect(page.locator("#chips button.on")).to_have_count(2)
            page.click("#chips button:text-is('Cy')")
            assert _seats(page) == ["", "Ann"]
            page.click("#chips button:text-is('Di')")
            assert _seats(page) == ["Di", "Ann"]
            page.click("#chips button:text-is('Bob')")  # seats full: they start again
            assert _seats(page) == ["Bob", ""]
            # the next game's tables, this board's first: its pair in one tap, swapped at two
            pairs = page.locator("#pairs button")
            expect(pairs).to_have_count(2)
            expect(pairs.first).to_have_text("table 3 (this board): %s v %s" % mine)
            expect(pairs.nth(1)).to_have_text("table 2: %s v %s" % other)
            expect(page.locator("#pairs")).to_contain_text("tournament, game 1 of 3: ")
            pairs.first.click()
            assert _seats(page) == list(mine)
            expect(page.locator("#pairs button.on")).to_have_count(1)  # the pair seated
            expect(pairs.first).to_have_class("chip on")
            pairs.first.click()
            assert _seats(page) == [mine[1], mine[0]]
            os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
            page.locator("section:has(#seats)").screenshot(
                path=os.path.join(ROOT, "build", "club-names.png"))
            # kept with the PIN: on the board, and on to the club with the board's state
            _pin(page, board)
            page.click("#setnames")
            expect(page.locator("#nameres")).to_have_text("names kept")
            assert _club(board)["names"][:3] == [mine[1], mine[0], None]
            until("the club to see the names", lambda: svc.get("/state.json")["states"]
                  .get("t3", {}).get("names") == [mine[1], mine[0]])
            expect(page.locator("#club")).to_contain_text("names: %s, %s" % (mine[1], mine[0]))
            # where the page looks for the club: the Wi-Fi file's entry, else the broker's host
            assert page.evaluate("clubURL({club:'http://c:1/',broker:'b:1883'})") == "http://c:1"
            assert page.evaluate("clubURL({club:null,broker:'10.0.0.2:1883'})") == \
                "http://10.0.0.2:8124"
            assert page.evaluate("clubURL({club:null,broker:'fe80::1:1883'})") == \
                "http://[fe80::1]:8124"
            assert page.evaluate("clubURL({club:null,broker:null})") == ""
            # the club out of reach: the page says so and the names are typed
            svc.close()
            page.reload()
            expect(page.locator("#clubsays")).to_contain_text("are not at http://127.0.0.1:%d:"
                                                              " type them" % svc.port,
                                                              timeout=30000)  # (a loaded CI)
            expect(page.locator("#chips button")).to_have_count(0)
            assert _seats(page) == [mine[1], mine[0]]  # the board's names, as kept
            page.fill("#seat-0", "Eve")
            page.fill("#seat-1", "Fay X")
            _pin(page, board)
            page.click("#setnames")
            expect(page.locator("#nameres")).to_have_text("names kept")
            assert _club(board)["names"][:3] == ["Eve", "Fay X", None]
            page.fill("#seat-1", "")  # an empty seat: no name
            _pin(page, board)
            page.click("#setnames")
            expect(page.locator("#nameres")).to_have_text("names kept")
            assert _club(board)["names"][:2] == ["Eve", None]
            browser.close()
    finally:
        if board is not None:
            board.close()
        svc.close()
        broker.close()


def test_the_directors_form_refuses_names_no_board_can_keep_and_keeps_what_was_typed(tmp_path):
    """A tournament's players are named at the boards (at most 7 letters, digits, space . -):
    a name no board can keep is refused with the reason, the form comes back as typed and no
    tournament starts; the names put right, it starts. (The director logged in: clubweb.)"""
    club = Club(str(tmp_path / "c.sqlite"))
    set_password(tmp_path / "c.sqlite")

    def post(players):
        return director.post(players=players, games="3", tables="2", do="start")

    try:
        with serving(club) as httpd:
            director = DirectorBrowser(httpd.url).login()
            status, body = post("Ann\nMargaretha\nCy\nD&D\n")
            assert status == 400
            assert "at most 7" in body and "not Margaretha, D&amp;D" in body
            assert "Ann\nMargaretha\nCy\nD&amp;D</textarea>" in body  # as typed, to put right
            assert 'name="games" type="number" min="1" max="30" value="3"' in body
            assert club.store.tournament() is None
            status, body = post("Ann\nMargret\nCy\nD and D\n")
            assert status == 200 and "tournament started: 4 players" in body
            assert club.store.tournament()["players"] == ["Ann", "Margret", "Cy", "D and D"]
    finally:
        club.store.close()
