"""A club night with every part real (issue 24): Mosquitto on 127.0.0.1 (clubkit.Broker, with
persistence as tools/club/mosquitto.conf has it), the club service as its own process as
`make club` starts it (clubkit.Service: python -m club; its own process so that its MQTT
session, SQLite file and page are the ones a director runs, not objects shared with the
test), and four boards each running the real firmware in the MicroPython unix port with its
real sockets (webkit.Board: tools/sim's driver, realtime, its page served; its keys queued
whole as taps, so a machine too loaded to scan a real-time press cannot change the game), each
with its own flash folder, board id (wifi.json's broker) and seats named on its page with the
PIN.

The night, three games a board, players moving tables between rounds:
  1. each board plays a whole game key by key; mid-game the broker is killed (SIGKILL) and,
     once every board shows it down, started again; the boards play on and OK their games;
  2. a game a board (put on its flash finished, as test_publish does, the board off, its
     seats named before; it goes out at its end, as the board comes up), OK'd:
     t2's connection cut by a proxy after the broker has the game and before its
     acknowledgement reaches t2 (t2 sends it again, same id); t3's power cut (its process
     killed) after the game is in its history and before it was published (its broker's
     proxy shut), then t3 started again from its flash;
  3. a duplicate of a board's game (its very bytes) and malformed game messages published at
     the broker; then another game a board, t2's connection cut again, before the broker has
     all of the game.
After every round: the club holds every game each board recorded (its history file) exactly
once, with the board's record and the names seated, and its standings equal the ones this
test computes from the boards' own records (ACC game points: 2 a win, 3 a skunk, the loser
under 91; games won; the spread), not with the club's night.py. Mosquitto missing: skipped,
saying why. Waits poll with a deadline; nothing is timed."""

import json
import os
import re
import signal
import threading
import time

import pytest

import history as tool  # tools/player/history.py: a board's history file read on the host
from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Broker, Service, until
from mqttkit import Club as Listener, Proxy, history_records, over, wifi
from webkit import Board, game_tokens

pytestmark = [pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED),
              pytest.mark.slow]  # (over a minute: a game typed key by key in real time)

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
LONG = 180  # a board's reconnect backs off to a minute: generous bounds on waiting for it
# who sits where, round by round (board t1..t4, seat 0 and 1)
SEATS = [[["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]],
         [["Ann", "Cy"], ["Bob", "Ed"], ["Di", "Gus"], ["Flo", "Hal"]],
         [["Hal", "Ann"], ["Gus", "Bob"], ["Cy", "Flo"], ["Di", "Ed"]]]
TARGET = 121
SKUNK = 91  # a loser under this is skunked (the rule sheets' default at 121)


class Table:
    """One board at the club: the real firmware serving its page, its flash folder kept
    across restarts and power cuts, and the names seated at each game it recorded."""

    def __init__(self, root, name, port, secret):
        self.name = name
        self.storage = os.path.join(str(root), name)
        wifi(self.storage, port, board=name, secret=secret.hex())  # (make club-board's)
        self.played = []  # the seats' names of each game OK'd, in order
        self.names = None
        self.b = None

    def close(self):  # (the test's end: conftest's parts)
        if self.b is not None:
            self.stop()

    def start(self):
        self.b = Board(self.storage)

    def stop(self):
        self.b.close()
        self.b = None

    def power_cut(self):
        self.b.sim.proc.kill()  # no goodbye, no save
        self.b.sim.proc.wait()
        self.b.close()
        self.b = None

    def club(self):
        status, body = self.b.get("/club")
        assert status == 200, body
        return json.loads(body)

    def online(self):
        return self.club()["status"] == "online"

    def down(self):
        return self.club()["status"].startswith("down")

    def seat(self, names):
        """Names the seats on the board's page, with the PIN the board shows."""
        assert self.b.get("/pin", "POST")[0] == 204
        m = re.search(r"web PIN (\d{4})", " ".join(self.b.sim.state()["lines"]))
        assert m, self.b.sim.state()["lines"]
        status, body = self.b.get("/names", "POST",
                                  ("pin=%s&names=%s" % (m.group(1), ",".join(names))).encode(),
                                  FORM)
        assert status == 200, body
        assert self.club()["names"][:2] == names
        self.names = list(names)

    def page_state(self):
        status, body = self.b.get("/state")
        assert status == 200
        return json.loads(body)

    def ok(self):
        """The finished game in the history (recorded at its end: the outbox sends it), and
        OK: the next begins. A game won on a crib typed (its fourth card put it in, no OK)
        takes a second OK: the board lets the OK right after a card typed go as a habit
        (board/app.py, e.quick). So OK again while the game stays over (a press more, past
        it, would deal the next game: nothing the night counts)."""
        assert self.page_state()["phase"] == "over"
        self.played.append(list(self.names))
        n = len(self.played)
        until("%s's game in its history" % self.name,
              lambda: history_records(self.storage) >= n)
        for _ in range(3):
            self.b.keys("#", taps=True)  # (acted on at its release: the page may answer before)
            try:
                until("%s's next game" % self.name,
                      lambda: self.page_state()["phase"] != "over", 10)
                break
            except AssertionError:
                continue
        assert history_records(self.storage) == n, self.name
        until("%s's next game" % self.name, lambda: self.page_state()["phase"] != "over")

    def finished(self, seed, names, then=None):
        """The seats named (names) on the board's page, the board off, game seed put on its
        flash played to its end; then() (the test's: its way to the broker cut or shut); the
        board on: its game goes to the club at its end (named before it: its names)."""
        if self.b is None:
            self.start()
        self.seat(names)
        self.stop()
        over(self.storage, seed)
        if then is not None:
            then()
        self.start()

    def records(self):
        """The games the board recorded, read from its history file on the host."""
        with open(os.path.join(self.storage, "history"), "rb") as f:
            return tool.games(f.read())


def expected_standings(tables):
    """The night's standings from the boards' own records and the names seated, computed here:
    {name: (games, won, game points, spread)}."""
    rows = {}
    for t in tables:
        for rec, names in zip(t.records(), t.played):
            scores = [min(s["score"], rec["target"]) for s in rec["by_side"]]
            assert rec["target"] == TARGET and len(scores) == 2
            win = scores.index(TARGET)
            lose = 1 - win
            for seat, name in enumerate(names):  # two players: seat k plays side k
                g, w, p, s = rows.get(name, (0, 0, 0, 0))
                if seat == win:
                    rows[name] = (g + 1, w + 1, p + (3 if scores[lose] < SKUNK else 2),
                                  s + scores[win] - scores[lose])
                else:
                    rows[name] = (g + 1, w, p, s + scores[lose] - scores[win])
    return rows


def assert_the_club_has_every_game_once(svc, tables):
    """The club's games are the boards' recorded games, each once, with their records and
    names; its standings are the ones computed here. The club's health."""
    want = {}
    for t in tables:
        recs = t.records()
        assert len(recs) == len(t.played), t.name
        for k, rec in enumerate(recs):
            want["%s-%d" % (t.name, k + 1)] = (t.name, rec, t.played[k])
    until("the club to hold %d games" % len(want),
          lambda: svc.health()["games"] >= len(want), LONG)
    games = svc.get("/games.json?night=all")
    ids = [g["id"] for g in games]
    assert len(ids) == len(set(ids)), ids
    assert sorted(ids) == sorted(want)
    for g in games:
        board, rec, names = want[g["id"]]
        assert g["board"] == board
        assert g["game"] == json.loads(json.dumps(rec))  # the board's own record, as is
        assert [s["name"] for s in g["seats"]] == names
        assert [s["side"] for s in g["seats"]] == [0, 1]
    got = svc.get("/standings.json?night=all")
    assert got["games"] == len(want)
    rows = {r["name"]: (r["games"], r["won"], r["points"], r["spread"])
            for r in got["standings"]}
    assert rows == expected_standings(tables)
    order = [r["name"] for r in got["standings"]]
    assert order == sorted(rows, key=lambda n: (-rows[n][2], -rows[n][1], -rows[n][3],
                                                n.lower()))
    return svc.health()


def play_by_keys(table, seed, errors):
    try:
        table.b.keys(" ".join(game_tokens(seed)), taps=True)
    except Exception as e:  # noqa: BLE001  (reported by the test's thread)
        errors.append("%s: %r" % (table.name, e))


def test_a_club_night_with_real_boards_loses_nothing_and_counts_nothing_twice(tmp_path,
                                                                             parts):
    # each board with its identity, as make club-board issues it: the broker knows it by its
    # name and password (anonymous clients refused), and it signs its games (issue 30)
    broker = parts(Broker, tmp_path / "broker")
    keys = {"t%d" % (i + 1): broker.add_board("t%d" % (i + 1)) for i in range(4)}
    svc = parts(Service, tmp_path, broker)
    since = time.time()  # (a save before the club connected would not hold its session)
    listener = parts(Listener, broker.port, user=broker.ADMIN[0], password=broker.ADMIN[1],
                     keys=keys)  # a director's laptop looking on: raw messages, checked
    # (its subscription is a change the broker saves, with the club's session made before
    # it: a save of the club's alone may have come before `since`, and then none would)
    until("the broker to save the club's session", lambda: os.path.exists(broker.db)
          and os.stat(broker.db).st_mtime > since)
    cut = parts(Proxy, broker.port)  # t2's way to the broker
    shut = parts(Proxy, broker.port)  # t3's
    ports = [broker.port, cut.port, shut.port, broker.port]
    tables = [parts(Table, tmp_path, "t%d" % (i + 1), ports[i], keys["t%d" % (i + 1)])
              for i in range(4)]
    t1, t2, t3, t4 = tables
    for t, names in zip(tables, SEATS[0]):
        t.start()
        until("%s online" % t.name, t.online)
        t.seat(names)

    # 1. a game typed key by key on every board; the broker killed and restarted mid-game
    errors = []
    threads = [threading.Thread(target=play_by_keys, args=(t, 11 + i, errors), daemon=True)
               for i, t in enumerate(tables)]
    for th in threads:
        th.start()
    until("every board mid-game", lambda: all(
        sum(s["score"]) > 0 and s["phase"] != "over" for s in (t.page_state() for t in tables)))
    broker.kill(signal.SIGKILL)
    until("every board to show the broker down", lambda: all(t.down() for t in tables), LONG)
    broker.start()
    for th in threads:
        th.join(600)
        assert not th.is_alive(), "a board's keys never ended"
    assert errors == []
    for t in tables:
        until("%s's game over" % t.name, lambda t=t: t.page_state()["phase"] == "over")
        t.ok()
    h = assert_the_club_has_every_game_once(svc, tables)
    assert h["dropped"] == 0
    until("every board's outbox empty", lambda: all(t.club()["waiting"] == 0 for t in tables),
          LONG)

    # 2. players move; a game a board: t2 cut mid-publish, t3 power-cut before it publishes
    until("the listener back on the broker", listener.c.is_connected)
    shut.close()  # t3's way to the broker gone: its game waits in the outbox ...
    for i, t in enumerate(tables):  # (the game goes out at its end: the board started at it)
        t.finished(21 + i, SEATS[1][i], (lambda: cut.cut("after")) if t is t2 else None)
        if t is not t3:  # (t2: the broker has its game; its acknowledgement never reaches it)
            until("%s online" % t.name, t.online, LONG)
    t2.ok()
    until("t3 to show the broker down", t3.down)
    t3.ok()
    until("t3's game waiting in its outbox", lambda: t3.club()["waiting"] == 1)
    t3.power_cut()  # ... and the power goes
    shut = parts(Proxy, broker.port, shut.port)
    t3.start()  # from its flash: the game still waits, and goes
    t1.ok()
    t4.ok()
    assert_the_club_has_every_game_once(svc, tables)
    assert cut.cuts == 1
    until("t2 to send its game again (same id)",
          lambda: listener.games("t2").count("t2-2") == 2, LONG)
    until("every board's outbox empty", lambda: all(t.club()["waiting"] == 0 for t in tables),
          LONG)

    until("the club to see t2's game again", lambda: svc.health()["duplicates"] >= 1)

    # 3. a duplicate and malformed messages at the broker; then a game a board
    before = svc.health()
    until("t1-2 seen by the listener", lambda: "t1-2" in listener.games("t1"))
    raw = next(p for p, _ in listener.messages("cribbage/t1/game", raw=True)
               if b'"id": "t1-2"' in p)
    listener.publish("cribbage/t1/game", raw)  # the very bytes t1 sent, again
    listener.publish("cribbage/t4/game", b"{not json")
    listener.publish("cribbage/t4/game", json.dumps({"id": "t4-9", "board": "t4"}).encode())
    until("the duplicate and the malformed seen", lambda: (lambda h: (
        h["duplicates"], h["dropped"]) == (before["duplicates"] + 1, before["dropped"] + 2))(
        svc.health()))
    for i, t in enumerate(tables):  # (t2 cut again, before the broker has all of the game
        t.finished(31 + i, SEATS[2][i],  # this time)
                   (lambda: cut.cut("before")) if t is t2 else None)
        t.ok()
    h = assert_the_club_has_every_game_once(svc, tables)
    assert h["games"] == 12 and h["dropped"] == 2
    assert h["unsigned_boards"] == []  # (every board signs: the page warns of none)
    for t in tables:  # every game message signed (the listener checks each), t2's cut
        assert listener.signed(t.name) >= 3, t.name  # ones sent again as the same bytes
    assert cut.cuts == 2
    # the live tables: every board online, its state with the names seated now
    until("the club's live tables", lambda: (lambda live: live["status"] == dict.fromkeys(
        ("t1", "t2", "t3", "t4"), "online") and all(
        live["states"][t.name]["names"] == t.names for t in tables))(svc.get("/state.json")),
        LONG)
    for t in tables:
        assert len(t.records()) == 3
