"""Club night through a real broker (issue 24): Mosquitto started here on 127.0.0.1 at a free
port, the club service as its own process, simulated boards publishing real games of the core
(clubkit.py). Faults: a duplicated and a malformed message, the broker killed and restarted
mid-stream, the service killed while games go on (its persistent session at the broker keeps
them) and restarted (SQLite keeps what it had). Each ends the same way: the club holds every
game once, and its standings equal those of the games the boards played.

Mosquitto: `apt-get install mosquitto` (.ci/run does it as root); where /usr/sbin/mosquitto is
missing these tests are skipped and say why."""

import signal

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Board, Broker, Service, until
from club import night
from club.simboard import payload

pytestmark = pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED)

NAMES = [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]


def assert_club_has(svc, games):
    """The club holds exactly these games, once each, and its standings are theirs."""
    h = svc.wait_games(len(games))
    stored = svc.get("/games.json?night=all")
    assert sorted(g["id"] for g in stored) == sorted(g["id"] for g in games)
    assert h["games"] == len(games)
    got = svc.get("/standings.json?night=all")
    assert got["games"] == len(games)
    assert got["standings"] == night.standings(games)
    return h


def test_games_from_four_boards_make_the_standings(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    boards = [parts(Board, broker, "t%d" % (i + 1), NAMES[i], seed=i + 1) for i in range(4)]
    games = []
    for rnd in range(3):
        for b in boards:
            b.sim.seat(NAMES[(boards.index(b) + rnd) % 4])  # players move tables
            games.append(b.play())
    for b in boards:
        b.flush()
    h = assert_club_has(svc, games)
    assert h["dropped"] == 0
    # the live tables: every board's retained state and status
    live = until("four boards' live states",
                 lambda: (lambda s: len(s["states"]) == 4 and s)(svc.get("/state.json")))
    assert sorted(live["states"]) == ["t1", "t2", "t3", "t4"]
    assert live["states"]["t1"]["score"] == boards[0].sim.state()["score"]
    online = dict.fromkeys(live["states"], "online")
    assert until("four boards online", lambda: svc.get("/state.json")["status"] == online)
    assert sorted(svc.get("/players.json")) == sorted(n for ns in NAMES for n in ns)
    page = svc.get("/", raw=True).decode()
    for g in games:
        assert g["id"] in page
    # a board that goes away: its will says offline
    boards[3].client.loop_stop()
    boards[3].client.socket().close()
    until("t4's last will", lambda: svc.get("/state.json")["status"]["t4"] == "offline")


def test_a_duplicate_and_a_malformed_message_change_nothing(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    board = parts(Board, broker, "t1", NAMES[0], seed=5)
    games = [board.play() for _ in range(3)]
    board.flush()
    assert_club_has(svc, games)
    board.resend_all()  # every game again, same ids
    c = board.client
    for bad in (b"{not json", b"[]", payload({"id": "t1-99", "board": "t1"}),
                payload(dict(games[0], board="t2"))):
        c.publish("cribbage/t1/game", bad, qos=1).wait_for_publish(10)
    c.publish("cribbage/t1/state", b"\x00\xff", qos=1).wait_for_publish(10)
    h = until("the club to drop five messages", lambda: (lambda h: h["dropped"] == 5 and h)(
        svc.health()))
    until("three duplicates seen", lambda: svc.health()["duplicates"] == 3)
    games.append(board.play())  # and the service goes on
    board.flush()
    h = assert_club_has(svc, games)
    assert (h["dropped"], h["duplicates"]) == (5, 3)


def test_the_broker_killed_and_restarted_mid_stream(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    until("the broker to save the club's session", broker.saved_session)
    boards = [parts(Board, broker, "t%d" % (i + 1), NAMES[i], seed=10 + i) for i in range(3)]
    games = []
    for b in boards:
        games.append(b.play())
        b.flush()
    assert_club_has(svc, games)
    # t1's game reaches the club, but t1 never reads the broker's acknowledgement (its network
    # loop stopped: publish() writes it itself): it stays in t1's outbox
    t1 = boards[0]
    t1.client.loop_stop()
    games.append(t1.play())
    svc.wait_games(len(games))
    assert t1.outbox
    # and a game is on its way from each of the others when the broker dies
    for b in boards[1:]:
        games.append(b.play())
    broker.restart(signal.SIGKILL)
    t1.client.reconnect()  # (the acknowledgement left unread with the old connection)
    t1.client.loop_start()
    for _ in range(2):  # the boards play on while they reconnect
        for b in boards:
            games.append(b.play())
    for b in boards:
        until("board %s to reconnect" % b.name, b.client.is_connected)
        b.flush()
    h = assert_club_has(svc, games)
    assert h["dropped"] == 0
    assert h["duplicates"] >= 1  # t1 sent its game again: stored once


def test_games_sent_while_the_service_is_down_arrive_and_sqlite_keeps_all(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    boards = [parts(Board, broker, "t%d" % (i + 1), NAMES[i], seed=20 + i) for i in range(2)]
    games = []
    for b in boards:
        games += [b.play(), b.play()]
        b.flush()
    assert_club_has(svc, games)
    svc.kill(signal.SIGKILL)  # the director's laptop crashes
    for b in boards:  # the night goes on: the broker keeps the games for the club's session
        games += [b.play(), b.play()]
        b.flush()
    broker.restart(signal.SIGTERM)  # and the broker is restarted meanwhile (it saves them)
    for b in boards:
        until("board %s to reconnect" % b.name, b.client.is_connected)
        games.append(b.play())
        b.flush()
    svc.start()  # back: the four games it had, from SQLite; the rest from the broker
    assert_club_has(svc, games)
