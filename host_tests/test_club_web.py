"""The club's web side (issue 30, issue 35's club items; tools/club/web.py): tried as a phone on
the club's Wi-Fi would. Idle connections hold no threads and stop no page; a bad stored row is
a "bad record", never a 500; a CSV cell never runs as a formula; the director logs in (a
password kept hashed, a session cookie, CSRF tokens, Origin checks, tries limited per client,
a new draw or an end confirmed and undoable, a log); names as every board keeps them; the
knock-out's warnings and tables; `make club` on a taken port.

Most go through Flask's test client (each request's client address its own; the director's
clock a test's); the connections' test and the director's CSRF test through the real server
on 127.0.0.1."""

import csv
import io
import json
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time

import pytest

from club import night, page, screenshots, tournament, web
from club.director import FREE_TRIES, Director
from club.service import Club, addresses, today
from club.simboard import SimBoard
from clubweb import PASSWORD, DirectorBrowser, set_password
from hostenv import ROOT
from webkit import free_port

HERE = "http://localhost"  # the test client's own origin


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.fixture
def club(tmp_path):
    c = Club(str(tmp_path / "club.sqlite"))
    yield c
    c.store.close()


def _app(club, password=PASSWORD, clock=None):
    d = Director(club.store.path, clock=clock or Clock())
    if password:
        d.set_password(password)
    return web.make_app(club, d), d


def _client(app, ip="10.0.0.5"):
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = ip
    return c


def _csrf(body):
    m = re.search(r'name="csrf" value="([^"]+)"', body)
    return m.group(1) if m else ""


def _login(c, password=PASSWORD):
    r = c.post("/director", data={"do": "login", "password": password},
               headers={"Origin": HERE})
    assert r.status_code == 200, r.get_data(as_text=True)[-400:]
    return _csrf(r.get_data(as_text=True))


def _post(c, csrf, **form):
    r = c.post("/director", data=dict({"csrf": csrf}, **form), headers={"Origin": HERE})
    return r.status_code, r.get_data(as_text=True)


def _games(n, players=("Ann", "Bob"), seed=1, board="t1"):
    b = SimBoard(board, seed=seed)
    b.seat(list(players))
    return [b.play() for _ in range(n)]


# --- the server: idle connections --------------------------------------------------------------

def test_a_thousand_idle_connections_hold_no_threads_and_stop_no_page(club):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * 1000 + 200  # both ends of each connection live in this process
    if soft != resource.RLIM_INFINITY and soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip("this process may open %d files, the test needs %d" % (hard, want))
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    before = threading.active_count()
    httpd = web.serve(club, "127.0.0.1", 0, Director(club.store.path))
    t = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    t.start()
    port = httpd.server_address[1]
    idle = []
    try:
        for _ in range(1000):  # connected, and never a byte sent
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        deadline = time.monotonic() + 60
        while len(httpd.map) < 1000 + 3:  # the listener, two triggers, the 1,000
            assert time.monotonic() < deadline, "the server took %d of 1,000 connections" % (
                len(httpd.map) - 3)
            time.sleep(0.02)
        threads = threading.active_count() - before
        assert threads <= web.THREADS + 1, threads  # its pool and its loop: not 1,000
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /health.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            got = b""
            while True:
                b = s.recv(65536)
                if not b:
                    break
                got += b
        assert got.startswith(b"HTTP/1.1 200") and b'"games": 0' in got
    finally:
        for s in idle:
            s.close()
        httpd.shutdown()
        t.join(30)
        httpd.server_close()
    assert not t.is_alive()


# --- pages safe from what got in ----------------------------------------------------------------

def _bad_games():
    g = _games(5, seed=4)
    g[0]["game"]["by_side"][0].pop("won")                    # a stored game missing `won`
    g[1]["game"]["by_side"][1].pop("name")                   # a side without a name
    g[2]["game"]["by_side"][0]["n29"] = 2000000              # 29s by the million
    g[3]["game"]["deals"] = "many"
    return g


def test_a_bad_record_renders_as_such_never_a_500_and_the_page_stays_small(club):
    games = _bad_games()
    for m in games:
        assert club.store.add_game(m, today())
    st = SimBoard("t7", seed=2)
    st.seat(["Cy", "Di"])
    st.deal()
    bad_state = st.state()
    bad_state["deal"] = "three"  # a retained state whose deal is a string
    club.states["t7"] = bad_state
    club.states["t8"] = st.state()
    club.store.set_tournament(["Ann", "Bob", "Cy", "Di"], 3, 2, today())
    app, _ = _app(club)
    c = _client(app)
    r = c.get("/")
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    assert body.count("bad record") >= 5  # four games and t7's live state
    assert len(body) < 100_000
    good = games[4]
    assert good["id"] in body and 'class="pegs"' in body  # the sound ones still drawn
    for path in ("/projector", "/player?name=Ann", "/standings.json", "/tournament.json",
                 "/players.json", "/games.json", "/state.json", "/health.json",
                 "/game?id=" + good["id"]):
        r = c.get(path)
        assert r.status_code == 200, path
        assert len(r.get_data()) < 400_000, path
    for m in games[:4]:
        r = c.get("/game?id=" + m["id"])
        assert r.status_code == 200 and "bad record" in r.get_data(as_text=True)
        assert c.get("/race.svg?id=" + m["id"]).status_code == 404
    r = c.get("/games.csv")
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert r.status_code == 200 and sum("bad record" in row for row in rows) == 4
    assert len(rows) == 1 + 4 + 2  # the header, a line a bad record, the good game's seats
    st = json.loads(c.get("/standings.json").get_data())
    assert st["games"] == 1 and st["bad_records"] == 4  # bad records count for nobody
    # 400 live states under invented board names: the page draws the first 100
    for i in range(400):
        club.states["x%03d" % i] = dict(bad_state, deal=1, board="x%03d" % i)
    body = c.get("/").get_data(as_text=True)
    assert body.count('class="pegs"') == page.TABLES_SHOWN - 1  # (t7's: a bad record)
    assert "302 more boards not shown" in body and len(body) < 400_000


def test_csv_cells_never_run_as_formulas(club):
    names = ["=1+1", "+A1", "-2+3", "@SUM", "\tx", "\rx", "Ann", "-"]
    for i in range(0, len(names), 2):
        for m in _games(1, players=names[i:i + 2], seed=i, board="f%d" % i):
            assert club.store.add_game(m, today())
    rows = list(csv.reader(io.StringIO(web.games_csv(club.games("all")))))
    cells = [c for row in rows[1:] for c in row]
    for n in names:
        if n == "Ann":
            assert "Ann" in cells
            continue
        assert "'" + n in cells and n not in cells, n
    for c in cells:
        assert not c.startswith(("=", "+", "@", "\t", "\r")), c
        if c.startswith("-"):
            int(c)  # a number (a spread): a spreadsheet reads it as a number, not a formula


def test_a_malformed_request_is_a_4xx_not_a_500(club):
    app, _ = _app(club)
    c = _client(app)
    r = c.post("/director", data=b"x" * 70000, headers={"Origin": HERE,
               "Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    r = c.post("/director", data=b"--x\r\nbroken", headers={
        "Origin": HERE, "Content-Type": "multipart/form-data; boundary=x"})
    assert 400 <= r.status_code < 500
    assert c.put("/director").status_code == 405 and c.get("/nothing").status_code == 404


def test_messages_refused_at_the_door_show_where_the_store_keeps_them(club):
    """h-trust's Store.rejects(limit) (a list of dicts at, board, topic, reason), where the
    store has it: on the club page and the director's, as text, a bad row as a bad record."""
    app, _ = _app(club)
    c = _client(app)
    assert "Messages refused" not in c.get("/").get_data(as_text=True)
    club.store.rejects = lambda limit=50: [
        {"at": 1764300000.0, "board": "evil", "topic": "cribbage/evil/game",
         "reason": "<b>unsigned</b>"}, None][:limit]
    body = c.get("/").get_data(as_text=True)
    assert "Messages refused" in body and "&lt;b&gt;unsigned&lt;/b&gt;" in body
    assert "cribbage/evil/game" in body and "bad record" in body
    csrf = _login(c)
    assert csrf and "&lt;b&gt;unsigned" in c.get("/director").get_data(as_text=True)


def test_the_favicon(club):
    from PIL import Image

    app, _ = _app(club)
    r = _client(app).get("/favicon.ico")
    assert r.status_code == 200 and r.content_type == "image/x-icon"
    im = Image.open(io.BytesIO(r.get_data()))
    assert im.size == (32, 32)
    assert '<link rel="icon" href="/favicon.ico">' in _client(app).get("/").get_data(True)


# --- the director logs in -------------------------------------------------------------------------

def test_the_first_visit_sets_the_password_with_the_consoles_setup_code(club):
    app, d = _app(club, password=None)
    assert d.setup_code and not d.has_password()
    c = _client(app)
    body = c.get("/director").get_data(as_text=True)
    assert "setup code" in body and 'name="again"' in body
    # nothing else first: not a tournament, not a login
    r = c.post("/director", data={"do": "start", "players": "A\nB"}, headers={"Origin": HERE})
    assert r.status_code == 403 and club.store.tournament() is None
    form = {"do": "setup", "code": "0000-0000", "password": "long enough", "again": "long enough"}
    if d.setup_code == form["code"]:
        form["code"] = "1111-1111"
    r = c.post("/director", data=form, headers={"Origin": HERE})
    assert r.status_code == 400 and "setup code" in r.get_data(as_text=True)
    assert not d.has_password()
    form["code"] = d.setup_code
    form["again"] = "other"
    assert c.post("/director", data=form, headers={"Origin": HERE}).status_code == 400
    form["again"] = form["password"] = "short"
    assert c.post("/director", data=form, headers={"Origin": HERE}).status_code == 400
    form["again"] = form["password"] = "a long password"
    r = c.post("/director", data=form, headers={"Origin": HERE})
    assert r.status_code == 200 and "password set" in r.get_data(as_text=True)
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert d.setup_code is None
    # kept hashed, salted: scrypt's 32 bytes, never the password
    salt, digest = d.db.execute("SELECT salt, hash FROM director").fetchone()
    assert len(salt) == 16 and len(digest) == 32 and b"a long password" not in digest
    import hashlib
    assert hashlib.scrypt(b"a long password", salt=salt, n=2 ** 14, r=8, p=1,
                          dklen=32) == digest
    # a new client: the password, not the setup code
    c2 = _client(app, "10.0.0.9")
    assert 'name="password"' in c2.get("/director").get_data(as_text=True)
    _login(c2, "a long password")


def test_a_write_without_logging_in_is_refused(club):
    club.store.set_tournament(["Ann", "Bob", "Cy"], 3, 1, today())
    t = club.store.tournament()
    app, _ = _app(club)
    c = _client(app)
    for form in ({"do": "end"}, {"do": "end", "confirm": "yes"},
                 {"do": "start", "players": "X\nY", "games": "3", "tables": "1",
                  "confirm": "yes"}, {"do": "restore", "id": "1"}):
        r = c.post("/director", data=form, headers={"Origin": HERE})
        assert r.status_code == 403 and "log in first" in r.get_data(as_text=True), form
    r = c.post("/director", data={"do": "end", "confirm": "yes", "csrf": "x"})  # no Origin
    assert r.status_code == 403
    assert club.store.tournament() == t


def test_a_write_from_another_origin_or_without_the_csrf_token_is_refused(tmp_path, club):
    """Through the real server: a page elsewhere (Origin another host) posting with the
    director's cookie (as a browser would send it), or a form without the session's token."""
    club.store.set_tournament(["Ann", "Bob", "Cy"], 3, 1, today())
    t = club.store.tournament()
    set_password(club.store.path)
    with web.serving(club) as httpd:
        b = DirectorBrowser(httpd.url).login()
        b.request("/director")
        for origin in ("http://evil.example", "http://127.0.0.1:1", "null"):
            status, body = b.request("/director", {"do": "end", "confirm": "yes",
                                                   "csrf": b.csrf}, origin=origin)
            assert status == 403 and "the club's own pages" in body, origin
        status, _ = b.request("/director", {"do": "end", "confirm": "yes", "csrf": b.csrf},
                              origin="", headers={"Referer": "http://evil.example/x"})
        assert status == 403
        for token in ("", "forged", "é"):
            status, body = b.request("/director", {"do": "end", "confirm": "yes",
                                                   "csrf": token})
            assert status == 403 and "not from this session" in body
        assert club.store.tournament() == t
        status, body = b.post(do="end", confirm="yes")  # the page's own form: it ends
        assert status == 200 and "tournament ended" in body
        assert club.store.tournament() is None


def test_password_guessing_is_limited_per_client_and_locks_only_the_guesser(club):
    clock = Clock()
    app, d = _app(club, clock=clock)
    thief = _client(app, "10.0.0.66")
    answers = []
    for i in range(40):
        r = thief.post("/director", data={"do": "login", "password": "%04d" % i},
                       headers={"Origin": HERE})
        answers.append(r.status_code)
    assert answers[:FREE_TRIES] == [403] * FREE_TRIES
    assert set(answers[FREE_TRIES:]) == {429}  # the clock stood still: each next one waits
    assert "wait" in r.get_data(as_text=True)
    # the right password from the guesser, while he waits: still no
    r = thief.post("/director", data={"do": "login", "password": PASSWORD},
                   headers={"Origin": HERE})
    assert r.status_code == 429
    # the director, from his own address, at once
    _login(_client(app, "10.0.0.2"))
    # the waits double: 1 s after the free tries, then 2, 4 ...
    clock.t += 1.5
    r = thief.post("/director", data={"do": "login", "password": "x"}, headers={"Origin": HERE})
    assert r.status_code == 403
    r = thief.post("/director", data={"do": "login", "password": "y"}, headers={"Origin": HERE})
    assert r.status_code == 429
    clock.t += 1.5
    assert thief.post("/director", data={"do": "login", "password": "y"},
                      headers={"Origin": HERE}).status_code == 429
    clock.t += 1
    assert d.waiting("10.0.0.66") == 0
    # 10,000 four-digit guesses would take the guesser days, not 11 s
    waits = sum(min(900, 2 ** k) for k in range(10000 - FREE_TRIES))
    assert waits > 30 * 24 * 3600


def test_a_new_draw_by_mistake_asks_to_confirm_and_is_undone(club):
    app, d = _app(club)
    c = _client(app)
    csrf = _login(c)
    status, body = _post(c, csrf, do="start", players="Ann\nBob\nCy\nDi", games="3",
                         tables="2")
    assert status == 200 and "tournament started: 4 players" in body
    first = club.store.tournament()
    # ten games of it played
    for m in _games(5, ("Ann", "Bob")) + _games(5, ("Cy", "Di"), board="t2"):
        club.store.add_game(m, today())
    # "Start (a new draw)" pressed by mistake: it asks, and nothing changes yet
    status, body = _post(c, csrf, do="start", players="Eve\nFay", games="3", tables="1")
    assert status == 200 and "is running" in body and "Yes, start a new draw" in body
    assert club.store.tournament() == first
    assert 'name="confirm" value="yes"' in body
    # confirmed: the new draw runs, the first is kept
    status, body = _post(c, csrf, do="start", players="Eve\nFay", games="3", tables="1",
                         confirm="yes")
    assert status == 200 and "kept as #" in body
    assert club.store.tournament()["players"] == ["Eve", "Fay"]
    kept = d.kept()
    assert len(kept) == 1 and kept[0]["tournament"] == first
    body = c.get("/director").get_data(as_text=True)
    assert "Earlier tournaments" in body and 'value="restore"' in body
    # undone: the first back as it was (its start, so its ten games count again)
    status, body = _post(c, csrf, do="restore", id=str(kept[0]["id"]))
    assert status == 200 and "tournament restored: 4 players" in body
    assert club.store.tournament() == first
    assert [k["tournament"]["players"] for k in d.kept()] == [["Eve", "Fay"]]
    info = page.tournament_info(first, club.games("all"))
    assert sum(1 for got in info["done"] for g in got if g) == 2  # round 1's pairs played
    # the end asks too, and is undone the same way
    status, body = _post(c, csrf, do="end")
    assert "Yes, end it" in body and club.store.tournament() == first
    status, body = _post(c, csrf, do="end", confirm="yes")
    assert "tournament ended" in body and club.store.tournament() is None
    status, body = _post(c, csrf, do="restore", id=str(d.kept()[0]["id"]))
    assert club.store.tournament() == first
    # the log says what the director did, newest first, on the page
    what = [e["what"] for e in d.log()]
    assert what[0].startswith("restored the tournament kept as #")
    assert any(w.startswith("started a tournament: 2 players") for w in what)
    assert "ended the tournament" in " ".join(what) and "logged in" in what
    body = c.get("/director").get_data(as_text=True)
    assert "What the director did" in body and "ended the tournament (4 players" in body


def test_logging_out_ends_the_session(club):
    app, _ = _app(club)
    c = _client(app)
    csrf = _login(c)
    status, body = _post(c, csrf, do="logout")
    assert status == 200 and "logged out" in body
    status, body = _post(c, csrf, do="start", players="A\nB", games="1", tables="1")
    assert status == 403 and club.store.tournament() is None


# --- names: one rule with the boards ------------------------------------------------------------

def test_names_every_board_keeps_duplicates_refused_and_the_form_kept_as_typed(club):
    app, _ = _app(club)
    c = _client(app)
    csrf = _login(c)
    status, body = _post(c, csrf, do="start", players="Ann\nZoë\nCy", games="4", tables="2")
    assert status == 400 and "not Zoë" in body and "A-Z" in body
    assert "Ann\nZoë\nCy</textarea>" in body and 'value="4"' in body
    status, body = _post(c, csrf, do="start", players="Ann\nBob\nann\nCy\nBob", games="4",
                         tables="2")
    assert status == 400 and "each player once: ann, Bob are more than once" in body
    assert "Ann\nBob\nann\nCy\nBob</textarea>" in body
    # a refused count keeps what was typed
    status, body = _post(c, csrf, do="start", players="Ann\nBob\nCy", games="99", tables="2")
    assert status == 400 and "1-30 games" in body
    assert "Ann\nBob\nCy</textarea>" in body and 'value="99"' in body
    assert club.store.tournament() is None
    assert web.club_name("Zoe") == "Zoe"
    for bad in ("Zoë", "José", "Ægir", "Bo\u200b"):
        with pytest.raises(ValueError):
            web.club_name(bad)


# --- the tournament's edges (issue 35: 7, 9, 11) --------------------------------------------------

def test_six_players_and_no_game_yet_is_a_knock_out_to_come_not_too_few(club):
    six = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    club.store.set_tournament(six, 5, 3, today())
    app, _ = _app(club)
    body = _client(app).get("/").get_data(as_text=True)
    assert "Too few players" not in body
    assert "drawn from the tournament's standings once its first games are in: the top 2 of " \
           "6 players" in body
    club.store.set_tournament(["Ann"], 5, 3, today())
    assert "Too few players" in _client(app).get("/").get_data(as_text=True)


def test_seats_carried_over_warn_and_the_knock_out_final_gets_a_table(club):
    four = ["Ann", "Bob", "Cy", "Di"]
    club.store.set_tournament(four, 3, 2, today(), now=0.0)
    rounds = tournament.rotation(four, 3)
    app, _ = _app(club)
    c = _client(app)
    n = 0
    for r, pairs in enumerate(rounds):
        for a, b in pairs:
            n += 1
            board = SimBoard("t%d" % n, seed=n)
            board.seat([a, b])
            m = board.play()
            club.store.add_game(m, today())
            if r == 0:  # the first round's boards keep their seats for the second
                club.states[board.name] = dict(board.state(), board=board.name)
        if r == 0:
            body = c.get("/").get_data(as_text=True)
            for a, b in pairs:
                assert "still seats %s v %s, who have played their game: seat game 2's pair" \
                    % (a, b) in body.replace("&#39;", "'")
            t = json.loads(c.get("/tournament.json").get_data())
            assert t["stage"] == "draw" and t["next_game"] == 2
    # the draw played: the final (the top two: 4 // 4 = 1, at least 2) gets a table
    t = json.loads(c.get("/tournament.json").get_data())
    final = t["bracket"][-1][0]
    assert t["stage"] == "knock-out" and t["next_game"] is None
    assert t["tables"] == [[1, final["a"], final["b"]]]
    board = SimBoard("t9", seed=99)
    board.seat([final["a"], final["b"]])
    club.store.add_game(board.play(), today())
    t = json.loads(c.get("/tournament.json").get_data())
    assert t["stage"] == "done" and t["tables"] == [] and t["bracket"][-1][0]["winner"]


def test_a_three_side_spread_is_each_sides_margin_to_the_best_other():
    """docs/club.md: the winner's spread is its lead over the runner-up; a loser's is its
    deficit to the winner (scores capped at the target). Two sides: they sum to 0; three: the
    winner's + the two losers' = minus the third side's deficit to the runner-up."""
    b = SimBoard("t3", seed=5, players=3)
    b.seat(["Ann", "Bob", "Cy"])
    for _ in range(6):
        g = b.play()
        target = g["game"]["target"]
        capped = [min(s["score"], target) for s in g["game"]["by_side"]]
        res = {r["side"]: r["spread"] for r in night.results(g)}
        w = g["game"]["winner"]
        second = max(c for k, c in enumerate(capped) if k != w)
        third = min(c for k, c in enumerate(capped) if k != w)
        assert capped[w] == target and res[w] == target - second > 0
        for k in range(3):
            if k != w:
                assert res[k] == capped[k] - target < 0
        assert sum(res.values()) == third - target  # not 0: the last side's deficit


# --- `make club` ----------------------------------------------------------------------------------

def test_a_taken_port_says_which_and_exits_1(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))
        r = subprocess.run([sys.executable, "-m", "club", "--broker", "127.0.0.1:%d" % free_port(),
                            "--db", str(tmp_path / "c.sqlite"), "--http", str(port),
                            "--bind", "127.0.0.1"], capture_output=True, text=True, env=env,
                           timeout=60)
    assert r.returncode == 1
    assert "the page's port is taken: 127.0.0.1:%d" % port in r.stderr
    assert "--http %d" % (port + 1) in r.stderr and "Traceback" not in r.stderr


def test_the_service_names_the_addresses_players_reach():
    got = addresses("0.0.0.0")
    assert "0.0.0.0" not in got and got[-1] == "127.0.0.1"
    assert all(not a.startswith("127.") for a in got[:-1])
    assert addresses("192.168.1.20") == ["192.168.1.20"]


# --- a phone's width ------------------------------------------------------------------------------

@pytest.mark.skipif(not screenshots.chromium(), reason="no Chromium (apt-get install chromium; "
                    "`.ci/run` installs it as root): the club's phone-width test is skipped")
def test_every_page_fits_a_390_px_phone_and_nothing_is_missing(tmp_path):
    """The club's pages in Chromium at a phone's width (the night tools/club/screenshots.py
    pictures): no page scrolls sideways (a wide table scrolls in its own box), and no request
    a page makes answers 4xx (the favicon)."""
    from playwright.sync_api import sync_playwright

    club, d = screenshots.demo(str(tmp_path / "club.sqlite"))
    bad = page.sift(club.games("all"))[0][0]
    failed = []
    try:
        with web.serving(club, d) as httpd, sync_playwright() as p:
            url = httpd.url
            browser = p.chromium.launch(executable_path=screenshots.chromium(),
                                        args=screenshots.ARGS, headless=True)
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.on("response", lambda r: r.status >= 400 and failed.append((r.status, r.url)))

            def fits(what):
                w = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
                assert w[0] <= w[1] == 390, (what, w)

            for path in ("/", "/?night=all", "/projector", "/player?name=Ann",
                         "/game?id=" + bad["id"], "/director"):
                phone.goto(url + path)
                phone.wait_for_load_state("networkidle")
                fits(path)
            screenshots.login(phone, url)
            fits("/director, logged in")
            phone.fill("textarea[name=players]", "Ann\nBob")
            phone.click("button[value=start]")
            phone.wait_for_selector("text=Start a new draw?")
            fits("/director, a new draw to confirm")
            phone.click("button:has-text('Yes, start a new draw')")
            phone.wait_for_selector("text=tournament started: 2 players")
            fits("/director, two tournaments kept")
            fresh = Club(str(tmp_path / "fresh.sqlite"))  # a first start: the setup form
            try:
                with web.serving(fresh) as other:
                    phone.goto(other.url + "/director")
                    phone.wait_for_selector("text=Set the password")
                    fits("/director, the first start")
            finally:
                fresh.store.close()
            browser.close()
    finally:
        d.close()
        club.store.close()
    assert failed == []
