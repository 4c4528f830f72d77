"""The live page (firmware/page/): what it shows follows the keys; a new game needs the
PIN the board shows, from the phone that asked, on the board's own page; the history downloads
are the same as tools/player/history.py's (in-process: webkit.Page, the routes over the app on the
fake board, read and answered by page/http.py, on the board's virtual clock). Served by the
real firmware in the real MicroPython binary (webkit.Board: the simulator, tools/sim --web)
where the server itself is the point: the live stream pushes each change; bad requests, slow,
idle and too many clients get an error or wait and never disturb the game; and, at the page's
heap from .mpy, a flood."""

import csv
import io
import json
import os
import re
import socket
import struct
import time

import pytest

import history as tool  # tools/player/history.py
from webkit import Board, Events, Page, first_show
from board.modes import SAY, message


@pytest.fixture
def board(tmp_path):
    b = Board(str(tmp_path / "board"))
    yield b
    b.close()


@pytest.fixture
def page():
    p = Page()
    yield p
    p.close()


def test_the_page_and_its_state_follow_the_keys(page):
    status, html = page.get("/")
    assert status == 200 and b"EventSource" in html and b"<svg" in html
    assert b"http://" not in html.replace(b"http://www.w3.org/2000/svg", b"")  # no CDN
    st = page.state()
    assert st["phase"] == "deal" and st["score"] == [0, 0] and st["names"] == ["Red", "Blue"]
    assert st["match"] == "single games" and st["match_won"] == -1  # single games (the setting)
    page.f.press("5#")  # 5 points pegged by hand, to Red
    st = page.state()
    assert st["score"] == [5, 0]
    assert st["pegs"][0][0] == _hole(page, 0, 5)  # Red's front peg: the LED of hole 5
    assert "R5" in " ".join(st["lines"])  # the display's own text


def _hole(page, lane, n):
    leds = json.loads(page.get("/layout")[1])["leds"]
    return next(i for i, led in enumerate(leds) if led[2:] == ["hole", lane, n])


def test_the_layout_is_every_led_of_the_board(page):
    lay = json.loads(page.get("/layout")[1])
    assert lay["count"] == len(lay["leds"]) == 253 and lay["holes"] == 120
    kinds = [led[2] for led in lay["leds"]]
    assert kinds.count("hole") == 240 and kinds.count("start") == 2
    assert {(led[3], led[4]) for led in lay["leds"] if led[2] == "hole"} == {
        (lane, n) for lane in (0, 1) for n in range(1, 121)}


def test_the_live_stream_pushes_each_change(board):
    """The real server (MicroPython): the page, then its stream, which pushes the keys'
    change unasked (the client never asks /state), and the page's own new game (the PIN the
    board shows, the form read by the board's page/http.py)."""
    status, html = board.get("/")
    assert status == 200 and b"EventSource" in html
    ev = Events(board.port)
    try:
        assert ev.next()["score"] == [0, 0]
        board.keys("A7#")  # A: Blue; 7 for Blue
        st = ev.next()
        while st["score"] != [0, 7]:  # (each state pushed on the way: the stream's timeout
            st = ev.next()  # fails the test if the change never comes)
        assert "B7" in " ".join(st["lines"])
        assert board.get("/pin", "POST")[0] == 204
        text = " ".join(board.sim.state()["lines"])
        pin = re.search(r"web PIN (\d{4})", text)
        assert pin, text
        status, body = board.get("/new-game", "POST", b"pin=" + pin.group(1).encode(), FORM)
        assert status == 200, body
        while st["score"] != [0, 0]:
            st = ev.next()
    finally:
        ev.close()


def test_the_last_show_is_spoken_and_the_deals_listed(page):
    tokens, k = first_show()
    page.f.press("".join(tokens[:k]))  # up to the first show: the hand filled in from the play
    assert page.state()["phase"] == "show" and page.state()["show"] is None
    page.f.press("#")  # the hand is counted
    st = page.state()
    show = st["show"]
    assert show and len(show["cards"]) == 4 and not show["crib"]
    assert show["points"] == st["last"]["points"] and st["last"]["why"] == "hand"
    assert show["said"]  # the spoken breakdown ("fifteen two, ...")
    deals = json.loads(page.get("/deals")[1])
    assert len(deals) == 1 and deals[0][1][st["last"]["side"]][0] == show["points"]


def test_bad_requests_get_an_error_and_the_game_goes_on(board):
    board.keys("3#")
    assert board.raw(b"hello\r\n\r\n").startswith(b"HTTP/1.0 400")
    assert board.raw(b"GET /" + b"x" * 5000 + b" HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 400")
    many = b"GET /state HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(60)) + b"\r\n"
    assert board.raw(many).startswith(b"HTTP/1.0 400")
    huge = b"GET /state HTTP/1.1\r\nX: " + b"y" * 100000 + b"\r\n\r\n"
    assert board.raw(huge).startswith(b"HTTP/1.0 400")
    assert board.raw(b"\x00\xff\x10garbage\n" * 50).startswith(b"HTTP/1.0 400")
    assert board.get("/nothing/here")[0] == 404
    assert board.get("/state", method="DELETE")[0] == 405
    assert board.get("/new-game", method="POST", body=b"pin=" + b"1" * 5000)[0] == 413
    slow = board.raw(b"GET /state HTTP/1.1\r\nHost: x\r\n\r\n", pause=6)  # a slow client:
    assert not slow.startswith(b"HTTP/1.0 200")  # dropped (the request's 4 s are up)
    socket.create_connection(("127.0.0.1", board.port)).close()  # connect and hang up at once
    assert board.get("/state")[0] == 200
    board.keys("4#")  # the game went on, and the page still answers
    assert board.state()["score"] == [7, 0]


BAD_FORMS = (b"pin=%z", b"pin=%ff%f", b"pin=1234&names=%e9t%C3")  # a bad escape, not UTF-8


def test_a_form_that_cannot_be_read_is_a_bad_request(page):
    """Issue 35.6: a body with a bad %-escape or bytes that are no UTF-8 is a 400 that says
    so (microdot's form parsing, before page/http.py, raised ValueError in the route: a
    500), and nothing changes."""
    page.f.press("5#")
    for path in ("/new-game", "/names"):
        for body in BAD_FORMS:
            status, said = page.get(path, "POST", body, FORM)
            assert status == 400 and b"form cannot be read" in said, (path, body, status, said)
    assert page.state()["score"] == [5, 0]
    assert page.get("/new-game", "POST", b"pin=1234", FORM)[0] == 403  # a form read: the PIN's


def test_a_form_that_cannot_be_read_is_a_bad_request_on_the_board(board):
    """The same on the board's MicroPython, through its server."""
    board.keys("5#")
    for body in BAD_FORMS:
        raw = (b"POST /new-game HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/"
               b"x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
        got = board.raw(raw)
        assert got.startswith(b"HTTP/1.0 400") and b"form cannot be read" in got, (body, got)
    assert board.state()["score"] == [5, 0]


def test_the_club_status_says_what_is_wrong_with_the_wifi_files_broker(page, tmp_path,
                                                                      monkeypatch):
    """Issue 35.2 on the page: a broker entry the board refused is named in /club's "fault"
    (hw/wifi.py's words: the file and the field), not only "no broker"; a good file, or
    one without a broker, says nothing."""
    from hw import wifi

    path = tmp_path / "wifi.json"
    monkeypatch.setattr(wifi, "PATH", str(path))
    path.write_text('{"ssid": "home", "broker": {"host": "192.168.1.10", "port": "1883"}}')
    c = json.loads(page.get("/club")[1])
    assert c["broker"] is None and '"port"' in c["fault"] and str(path) in c["fault"], c
    path.write_text('{"ssid": "home", "broker": {"host": "192.168.1.10", "board": "table/1"}}')
    assert '"board"' in json.loads(page.get("/club")[1])["fault"]
    path.write_text('{"ssid": "home"}')
    assert "fault" not in json.loads(page.get("/club")[1])
    path.write_text('{"ssid": "home", "broker": "192.168.1.10"}')
    assert "fault" not in json.loads(page.get("/club")[1])


def test_a_bounded_number_of_clients(board):
    for _ in range(8):  # HEAD on the live stream answers and starts no stream
        assert board.raw(b"HEAD /events HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 200")
    live = [Events(board.port) for _ in range(3)]
    try:
        assert board.get("/events")[0] == 503  # a fourth stream: busy
        assert board.get("/state")[0] == 200  # the pages' own fetches still get through
        slow = [_idle(board) for _ in range(3)]  # never a whole request: the last place
        assert board.get("/state")[0] == 200  # taken from the oldest of them for a newcomer
        for c in slow:
            c.close()
    finally:
        for ev in live:
            ev.s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            ev.close()  # gone without a word (a reset), as a phone leaving the network
    board.keys("1#")  # states to push: the streams find their pages gone
    deadline = time.monotonic() + 10
    while True:  # all three places free again: three new pages get their streams
        try:
            again = [Events(board.port, timeout=3) for _ in range(3)]
            break
        except AssertionError:
            assert time.monotonic() < deadline
            time.sleep(0.5)
    for ev in again:
        ev.close()
    assert board.get("/state")[0] == 200


def _idle(board):
    """A connection that starts a request and never ends it (it holds a place until the
    server drops it)."""
    c = socket.create_connection(("127.0.0.1", board.port), timeout=10)
    c.sendall(b"GET /state HTTP/1.1\r\n")
    return c


def _dropped(c):
    """Whether the server has closed connection c (without waiting for it to)."""
    c.setblocking(False)
    try:
        return c.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True  # (a reset)
    finally:
        c.setblocking(True)


def test_idle_connections_never_keep_the_page_away(board):
    """Eight connections that never send a whole request, each opened again as soon as the
    server drops it (issue 23.4): a page's request is still answered, every time, and the
    connections dropped for it are the idle ones, the oldest first, without an answer."""
    idle = [_idle(board) for _ in range(8)]
    dropped = 0
    for _ in range(10):
        assert board.get("/state")[0] == 200
        for i, c in enumerate(idle):
            if _dropped(c):
                c.close()
                dropped += 1
                idle[i] = _idle(board)
    try:
        assert dropped >= 4  # (the server holds at most 4: the rest made way for newcomers)
        board.keys("2#")
        assert board.state()["score"] == [2, 0]  # and the game went on
    finally:
        for c in idle:
            c.close()


def _pin_shown(page):
    text = " ".join(page.hw["display"].shown)
    m = re.search(r"web PIN (\d{4})", text)
    assert m, text
    return m.group(1)


FORM = {"Content-Type": "application/x-www-form-urlencoded"}
STRANGER = "192.168.4.66"  # another phone on the network, without the board's display


def test_a_new_game_needs_the_pin_the_board_shows(page):
    page.f.press("9#")
    clock = page.hw["clock"]
    status, body = page.get("/new-game", "POST", b"pin=1234", FORM)
    assert status == 403 and b"PIN first" in body  # no PIN shown yet: no guessing
    assert page.get("/pin", "POST")[0] == 204
    page.f.run(20)
    pin = _pin_shown(page)
    assert pin.encode() not in page.get("/state")[1]  # the page's copy of the display hides it
    assert b"****" in page.get("/state")[1]
    status, body = page.get("/pin", "POST")
    assert status == 429 and b"wait" in body  # one PIN at a time: that phone waits (2 s)
    wrong = "%04d" % ((int(pin) - 1000 + 1) % 9000 + 1000)
    assert page.get("/new-game", "POST", ("pin=" + wrong).encode(), FORM)[0] == 403
    assert page.state()["score"] == [9, 0]
    for _ in range(2):  # after a wrong PIN the phone waits, twice as long (4 s)
        status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM)
        assert status == 429 and b"wait" in body
        clock.advance(1999)
    clock.advance(2)
    status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM)
    assert status == 200, body
    assert page.state()["score"] == [0, 0]
    # the PIN served once: the same again is refused
    assert page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM)[0] == 403


def test_a_stranger_can_neither_start_a_game_nor_lock_the_owner_out(page):
    """Issue 23.2: wrong and PIN-less tries from another phone, and PINs it asks for, lock
    only that phone; the PIN the owner asks for works for the owner, at once, and for
    nobody else (the stranger cannot use it even if it guessed it)."""
    page.f.press("9#")
    for _ in range(6):  # no PIN asked: nothing to guess, nobody locked
        assert page.get("/new-game", "POST", b"pin=1234", FORM, src=STRANGER)[0] == 403
    assert page.get("/pin", "POST", src=STRANGER)[0] == 204  # one it cannot read
    for k in range(6):
        status, _ = page.get("/new-game", "POST", b"pin=%d" % (1000 + k), FORM, src=STRANGER)
        assert status == (403 if k == 0 else 429)  # wrong, then its own wait
    assert page.get("/pin", "POST", src=STRANGER)[0] == 429
    assert page.state()["score"] == [9, 0]
    assert page.get("/pin", "POST")[0] == 204  # the owner, at once
    page.f.run(20)
    pin = _pin_shown(page)
    status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM, src=STRANGER)
    assert status in (403, 429) and page.state()["score"] == [9, 0]  # not the stranger's
    status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM)
    assert status == 200, body
    assert page.state()["score"] == [0, 0]


def test_writes_from_other_sites_are_refused(page):
    """Issue 23.3: a page of another site (its Origin, or its Referer without one) cannot
    have the board show a PIN nor start a game; the board's own page can, and so can a
    client that names no page at all (no browser: nothing of a visitor's to abuse)."""
    page.f.press("9#")
    own = page.OWN
    for h in ({"Origin": "http://evil.example"}, {"Origin": "null"},
              {"Origin": own + "0"}, {"Referer": "http://evil.example/page?x=1"},
              {"Origin": "http://evil.example", "Referer": own + "/"}):
        status, body = page.get("/pin", "POST", headers=h)
        assert status == 403 and b"board's page" in body, (h, status)
        page.f.run(20)
        assert "PIN" not in " ".join(page.hw["display"].shown)
    assert page.get("/pin", "POST", headers={"Origin": own})[0] == 204
    page.f.run(20)
    pin = _pin_shown(page)
    status, _ = page.get("/new-game", "POST", ("pin=" + pin).encode(),
                         dict(FORM, Origin="http://evil.example"))
    assert status == 403 and page.state()["score"] == [9, 0]  # the right PIN, elsewhere
    status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(),
                            dict(FORM, Referer=own + "/"))
    assert status == 200, body
    assert page.state()["score"] == [0, 0]
    page.get("/pin", "POST")  # and a client naming no page (curl), once its wait is over
    page.hw["clock"].advance(2000)
    assert page.get("/pin", "POST")[0] == 204


def test_the_history_downloads_are_the_tools(page):
    """/history.csv, /history.json and /stats say what tools/player/history.py says of the same
    history file (a whole game, then OK: it goes to the history)."""
    from boardkit import next_game, play_game

    play_game(page.hw, page.app, page.f, seed=3)
    next_game(page.f, page.app)
    data = page.app.store.read("history")
    assert data
    status, body = page.get("/history.csv")
    assert status == 200
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert rows == [[str(c) for c in r] for r in tool.csv_rows(tool.games(data))]
    assert len(rows) == 3  # a header, a row per side
    assert json.loads(page.get("/history.json")[1]) == tool.games(data)
    st = json.loads(page.get("/stats")[1])
    assert [line for s in st for line in s["lines"]] == tool.stats_lines(data)


def test_without_a_display_the_leds_show_the_pin(monkeypatch):
    """A board with no display shows the page's PIN on the LEDs (board/commands.py's fill): digit k
    blinks in lane 1's holes 10k+1 .. 10k+10, for a minute, then the marks are gone; a new
    game with it takes it off at once. (CPython: the app on the fake board, page/pin.py's
    own.)"""
    import asyncio

    from boardkit import board as fake_board, marked
    from page import pin

    hw, app, f = fake_board(display=False)
    monkeypatch.setattr(pin, "_PIN_SHOWN_MS", 50)

    async def run():
        w = pin.Pin(app)
        w.pin = 4071
        w.pin_at = app.clock()
        w.show_pin(True)
        L = app.layout
        assert marked(app) == [L.hole(0, 5), L.hole(0, 11), L.hole(0, 28), L.hole(0, 32)]
        f.press("5")  # a key typed meanwhile: the PIN still shows (its marks come first)
        assert marked(app)[:4] == [L.hole(0, 5), L.hole(0, 11), L.hole(0, 28), L.hole(0, 32)]
        await asyncio.sleep(0.2)
        assert app.pin == -1 and len(marked(app)) <= 1  # gone (but the typed 5's mark)
        w.show_pin(True)
        w.new_pin()
        w.show_pin(False)  # used: off at once
        assert app.pin == -1

    asyncio.run(run())


def test_a_pin_that_expires_leaves_the_display(monkeypatch):
    """The display's "web PIN nnnn" line goes when the PIN's minute is up or a new game used
    it (a stale PIN on the screen would only earn a lockout); another message stays."""
    import asyncio

    from boardkit import board as fake_board
    from page import pin

    hw, app, f = fake_board(display=True)
    monkeypatch.setattr(pin, "_PIN_SHOWN_MS", 50)

    async def run():
        w = pin.Pin(app)
        w.pin = 4071
        app.apply((SAY, message(pin._PIN_MSG + "4071")))  # (as POST /pin says it)
        w.pin_at = app.clock()
        w.show_pin(True)
        f.run(20)
        assert "web PIN 4071" in " ".join(hw["display"].shown)
        await asyncio.sleep(0.2)
        f.run(20)
        assert app.msg == message("") and "PIN" not in " ".join(hw["display"].shown)
        app.apply((SAY, message("redone")))  # not the PIN's: left alone
        w.show_pin(False)
        assert app.msg == message("redone")

    asyncio.run(run())


def test_deals_are_made_again_only_when_the_journal_changes(monkeypatch):
    """/deals replays the game (cribbage/summary.py): once per event entered, not per key
    (a digit typed changes the app, not the journal)."""
    from boardkit import board as fake_board
    from page import routes, rows

    hw, app, f = fake_board(display=True)
    w = routes.Web(app)
    made = []
    real = rows.deal_rows

    def counted(m):
        made.append(m.events)
        return real(m)

    monkeypatch.setattr(rows, "deal_rows", counted)
    f.press("#")  # deal
    first = w.now_deals()
    f.press("5")  # typed, not entered
    assert w.now_deals() is first and len(made) == 1
    f.press("C")  # the starter: an event
    w.now_deals()
    assert len(made) == 2


def test_a_deals_replay_that_cannot_put_the_game_back_has_the_app_restore_it(monkeypatch):
    """/deals replays the board's own game in place: out of memory half way, and again in
    its restore, the request fails and the app restores the game before the next key."""
    from boardkit import board as fake_board, play_game
    from page import routes, rows
    from cribbage.match import Match, loads

    hw, app, f = fake_board(display=True)
    play_game(hw, app, f, seed=2)
    m = app.m
    for _ in range(9):
        m.undo()  # (back in the game: its redo events wait)
    before = (m.state(), m.dumps())
    w = routes.Web(app)
    apply, restore, calls = m.apply, Match.restore, [0]

    def failing(j, i, at):
        calls[0] += 1
        if calls[0] == 40:
            raise MemoryError
        return apply(j, i, at)

    def restore_fails(self):
        monkeypatch.setattr(Match, "restore", restore)  # (once)
        raise MemoryError

    m.apply = failing
    monkeypatch.setattr(Match, "restore", restore_fails)
    try:
        w.now_deals()
        raise AssertionError("the replay did not fail")
    except MemoryError:
        pass
    del m.apply
    assert app.broken and m.state() != before[0]  # half replayed
    f.press("5")  # the next key: the app restores the game first
    assert not app.broken and (m.state(), m.dumps()) == before
    # the page's rows: the restored game's, as a copy of it (never replayed in place) gives them
    assert json.loads(w.now_deals()) == json.loads(json.dumps(rows.deal_rows(loads(before[1]))))
    assert m.state() == before[0]


def test_a_fault_in_the_pages_new_game_is_handled_as_a_keys(page, monkeypatch):
    """The page's new game (POST /new-game with the PIN): a MemoryError in it is said on the
    board and the game stays as it was, as for a key; the page is told, nothing escapes to
    the server."""
    page.f.press("#")
    page.f.press("7#")
    before = page.app.m.dumps()
    assert page.get("/pin", "POST")[0] == 204
    page.f.run(10)
    pin = _pin_shown(page)

    def short(cfg):
        raise MemoryError("memory allocation failed")

    # (the new game's first allocation: board/commands.py's new_match(), the App's before
    # issue 33's split)
    monkeypatch.setattr("board.commands.new_match", short)
    try:
        status, body = page.get("/new-game", "POST", ("pin=" + pin).encode(), FORM)
    finally:
        monkeypatch.undo()
    assert status == 500 and b"MemoryError" in body and page.app.err == body.decode()
    assert page.app.m.dumps() == before
    page.f.press("2#")
    assert page.app.err is None and page.app.m.score[0] + page.app.m.score[1] == 9


def test_a_pin_serves_the_phone_that_asked_and_waits_are_each_phones_own(page):
    """Issue 23.2, on the board's clock: a PIN works only from the phone that asked for it;
    a phone's waits (after asking, after a wrong PIN) double and are its own; three wrong
    tries take the PIN off the display; the owner, asking after a stranger, gets a PIN that
    works at once."""
    page.f.press("#")
    page.f.press("7#")
    clock = page.hw["clock"]
    owner, stranger = "192.168.4.20", "192.168.4.66"

    def call(path, ip, pin=None):
        body = ("pin=" + pin).encode() if pin else b""
        return page.get(path, "POST", body, FORM if pin else None, src=ip)[0]

    def shown():
        """The PIN the display shows (a turn of the board's loop: 10 ms), or None."""
        page.f.run(10)
        m = re.search(r"web PIN (\d{4})", " ".join(page.hw["display"].shown))
        return m.group(1) if m else None

    assert call("/pin", owner) == 204 and shown()
    assert call("/pin", owner) == 429  # its own wait (2 s)
    assert call("/pin", stranger) == 204  # not the owner's wait: a PIN of its own
    pin = shown()
    assert call("/new-game", owner, pin) == 403  # not the owner's PIN
    for wait in (4000, 8000, 0):  # the stranger guesses: 3 wrong tries, waits doubling
        assert call("/new-game", stranger, "0000" if pin != "0000" else "1111") == 403
        if wait:
            assert call("/new-game", stranger, pin) == 429
            clock.advance(wait - 1)
            assert call("/new-game", stranger, pin) == 429
            clock.advance(1)
    assert shown() is None  # taken off the board
    clock.advance(16000)  # (the stranger's wait after its third wrong try)
    assert call("/new-game", stranger, pin) == 403  # it no longer works
    assert call("/pin", owner) == 204  # the owner, at once
    assert call("/new-game", owner, shown()) == 200 and page.state()["score"] == [0, 0]
    assert call("/pin", owner) == 204  # a new game started its waits again


def test_a_page_that_stops_comes_back_and_the_display_says_so(monkeypatch):
    """Issue 23.1: the web task (board/tasks.py) starts the server again when it stops (a
    MemoryError, a socket error), after a wait that doubles; meanwhile the display no longer
    gives the page's address but says it is off, and nothing reaches the game's fault path.
    (CPython: the app on the fake board, page/routes.py's serve replaced.)"""
    import asyncio

    from boardkit import board as fake_board
    from board import tasks
    from page import routes as web

    hw, app, f = fake_board(display=True)
    calls = []

    async def net():
        return "10.0.0.9"

    async def serve(app, addr, club=None):
        calls.append(app.msg[1])
        app.apply((SAY, message("page " + addr)))  # (listening: the address on the display)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed")
        if len(calls) == 2:
            raise OSError(98)
        await asyncio.sleep(30)  # serving

    def recover(e):
        raise AssertionError("the game's fault path: %r" % e)

    hw["net"] = net
    monkeypatch.setattr(web, "serve", serve)
    monkeypatch.setattr(tasks, "_WEB_RETRY_MS", 5)
    monkeypatch.setattr(app, "recover", recover)

    async def run():
        task = asyncio.create_task(tasks.web(app))
        for _ in range(500):
            if len(calls) == 3:
                break
            await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(run())
    assert calls[1:] == ["page off: no memory", "page off: OSError"]
    assert app.msg == message("page 10.0.0.9") and app.err is None
    f.run(20)
    assert "page" in " ".join(hw["display"].shown)


# --- the page under a flood, at its heap (issue 23.1) --------------------------------------

# A squeeze, not a budget: a heap a little over what the game and the page need once every page
# has been visited, so that a flood takes the board below the page's shed line (page/server.py's
# _SHED) and back. (192k until 0.4.0: the keypad's timer, the one door and five-card cribbage
# took 6.6 KB of it; 200k until the page's parts; 204k until the Match in its parts and the
# power states, +9 KB, issue 33 and 32; the Pico W's own heap, budgets' pico_w_page, is far
# above.)
FLOOD_HEAP = os.environ.get("HEAP_FLOOD") or "192k"  # (232k until the page's parts loaded
# per request and let go, 2026-11-29's second session. Measured again on 2026-11-29, third
# session, this test alone, HEAP_FLOOD=<heap> in the environment, as budgets.heap's
# HEAP_<NAME>: 168k and below (160k, 152k) fail 2 of 2 at the first visits (/ unanswered);
# 176k, 184k and 192k pass 5 of 5 each, 200k-232k 2 of 2: 192k is 16k (9 %) over the least
# heap that passed every run. Earlier: 232k was the need with no margin, 0.7.0 after the
# palette, the saved frame and the signing; docs/memory.md)
PATHS = ("/", "/state", "/layout", "/deals", "/stats", "/history.csv", "/history.json")


@pytest.fixture(scope="module")
def flood_tree(tmp_path_factory):
    """The esp32 tree as `make build` makes it (and the fake board: host=True), with
    host_tests/mp_webflood.py compiled."""
    import subprocess

    import build  # tools/maker/build.py
    from hostenv import ROOT

    out = tmp_path_factory.mktemp("flood")
    build.build("esp32", os.path.join(ROOT, "firmware"), str(out), host=True)
    tree = str(out / "esp32")
    r = subprocess.run([build.mpy_cross(), "-O3", "-o", os.path.join(tree, "mp_webflood.mpy"),
                        os.path.join(ROOT, "host_tests", "mp_webflood.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return tree


class Flooded:
    """host_tests/mp_webflood.py running in tree, at heap: ask(cmd) is its answer line."""

    def __init__(self, tree, heap):
        import subprocess

        from hostenv import venv_program
        from webkit import free_port

        self.port = free_port()
        self.out = []
        self.proc = subprocess.Popen(
            [venv_program("micropython"), "-X", "heapsize=" + heap, "-m", "mp_webflood",
             str(self.port)], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1,
            env=dict(os.environ, MICROPYPATH=".:lib:.frozen"))
        self.line("READY")
        for _ in range(200):  # until the server listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=2).close()
                break
            except OSError:
                time.sleep(0.05)

    def line(self, kind):
        while True:
            got = self.proc.stdout.readline()
            assert got, "the board stopped:\n" + "".join(self.out[-30:])
            self.out.append(got)
            if got.startswith(kind):
                return got.split()

    def ask(self, cmd, kind):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return self.line(kind)

    def get(self, path, timeout=10):
        """(status, body); status 0: no answer (refused, reset, closed)."""
        import http.client

        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read()
        except (OSError, http.client.HTTPException):
            return 0, b""
        finally:
            c.close()

    def close(self):
        try:
            self.proc.stdin.write("end\n")
            self.proc.stdin.flush()
            self.line("GAME")
        finally:
            self.proc.stdin.close()
            rest = self.proc.stdout.read()
            self.out.append(rest)
            self.proc.wait(timeout=30)


def _burst(port, n, k):
    """n clients at once, each a request of PATHS (every fourth one idle: it never ends its
    request); their statuses (0: no answer)."""
    import threading

    got = []

    def one(i):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=8)
        except OSError:
            got.append(0)
            return
        try:
            if i % 4 == 3:
                s.sendall(b"GET /state HTTP/1.1\r\n")  # and nothing more
            else:
                s.sendall(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % PATHS[(i + k) % 7].encode())
            head = s.recv(16)
            got.append(int(head[9:12]) if head.startswith(b"HTTP/1.0 ") else 0)
            while s.recv(4096):
                pass
        except (OSError, ValueError):
            got.append(0)
        finally:
            s.close()

    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    return ts, got


def test_the_page_sheds_a_flood_and_comes_back(flood_tree):
    """Issue 23.1, at the page's heap from .mpy (FLOOD_HEAP): what a request loads (the
    statistics, the deals' replay, the history's export) is dropped after it; bursts of 20
    and 40 connections (every page, some idle) while keys are pressed get answers or a 503,
    never take the server down nor reach the game's fault path; afterwards every page
    answers again, the heap is back where it was, and every key press was applied."""
    b = Flooded(flood_tree, FLOOD_HEAP)
    try:
        for path in PATHS:  # one visit to each page (names interned, code loaded once)
            assert b.get(path)[0] == 200, (path, "".join(b.out[-10:]))
        assert b.ask("mods", "MODS") == ["MODS"]  # and what they loaded dropped
        heaps = [int(b.ask("heap", "HEAP")[1])]
        pressed = 0
        for flood in ((20, 40, 20, 40), (40, 20)):
            answered = []
            for k, n in enumerate(flood):
                ts, got = _burst(b.port, n, k)
                for _ in range(5):  # keys while the flood is on: 3 points to Red each
                    pressed += 1
                    b.ask("key 3#", "KEYS")
                for t in ts:
                    t.join(30)
                answered += got
            assert answered.count(200) > 0 and set(answered) <= {0, 200, 400, 503}, answered
            for _ in range(100):  # the page answers again (at once, or once it has restarted)
                if b.get("/state")[0] == 200:
                    break
                time.sleep(0.2)
            for path in PATHS:  # (a 503 may come while the flood's last connections end:
                got = []  # each within the server's read and write timeouts, 9 s at most)
                while 200 not in got and len(got) < 60:
                    got.append(b.get(path)[0])
                    time.sleep(0.25 if got[-1] != 200 else 0)
                assert got[-1] == 200 and set(got) <= {200, 503}, (
                    path, got, " ".join(b.ask("conns", "CONNS")), b.out[-10:])
            assert b.ask("mods", "MODS") == ["MODS"]
            heaps.append(int(b.ask("heap", "HEAP")[1]))
        # the heap back where it was, flood after flood (within what asyncio's tables of the
        # sockets it waits on keep of the most open at once: they never shrink)
        assert max(heaps) - heaps[0] < 4096, heaps
    finally:
        b.close()
    game = next(x for x in b.out if x.startswith("GAME"))
    g = game.split()
    assert (int(g[2]), int(g[3]), int(g[5])) == (3 * pressed, 0, pressed), game
    assert g[-1] == "0", game  # no key refused, no fault
    log = "".join(b.out)
    # (the app's fault says "fault (...)"; a request's traceback may pass board/fault.py's
    # loader: "board.fault", line ...)
    assert "task failed" not in log and "fault (" not in log, log[-3000:]
