"""Club night attacked as a phone on the club's Wi-Fi would (issue 30), through the real
Mosquitto (clubkit.Broker: the password file and ACL `python -m club broker-files` writes,
anonymous clients refused) and the club service as its own process: a phone with no
credentials, a board writing another's topics, nesting bombs, amplification, unsigned, forged,
replayed and squatted games, a client taking the service's id. Each attack was taken by the
club of issue 24; here none changes a result, stalls the counting or breaks a page.

Broker.ADMIN stands for an attacker who holds the broker's keys (or a board's stolen flash):
what it sends shows the club's own door holding, not only the broker's ACL. Mosquitto missing:
skipped, saying why. Waits poll with a deadline; nothing is timed."""

import json
import sqlite3
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Board, Broker, Service, logs_in, until
from club import night, sign
from club.sign import mqtt_password
from club.simboard import SimBoard, payload

pytestmark = pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED)


class Client:
    """A raw MQTT client (paho) with what it receives: the attacker's, or a looker-on's."""

    def __init__(self, broker, user=None, password=None, client_id="", subscribe=None):
        self.got = []
        self.refused = []
        self.lock = threading.Lock()
        self.connects = 0
        self.disconnects = 0
        c = self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                 protocol=mqtt.MQTTv311)
        if user is not None:
            c.username_pw_set(user, password)

        def on_connect(client, u, f, reason, p):
            if reason.is_failure:
                self.refused.append(str(reason))
                return
            self.connects += 1
            if subscribe:
                client.subscribe(subscribe, qos=1)

        def on_disconnect(client, u, f, reason, p):
            self.disconnects += 1

        def on_message(client, u, m):
            with self.lock:
                self.got.append((m.topic, bytes(m.payload)))

        c.on_connect = on_connect
        c.on_disconnect = on_disconnect
        c.on_message = on_message
        c.connect_async("127.0.0.1", broker.port, keepalive=10)
        c.loop_start()

    def publish(self, topic, data, retain=False, qos=1):
        self.c.publish(topic, data, qos=qos, retain=retain).wait_for_publish(10)

    def on(self, topic):
        with self.lock:
            return [p for t, p in self.got if t == topic]

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


def admin(parts, broker, **kw):
    user, pw = broker.ADMIN
    c = parts(Client, broker, user, pw, **kw)
    until("the admin connected", lambda: c.connects)
    return c


def test_a_phone_without_credentials_can_neither_publish_nor_read(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=1)
    assert not logs_in(broker.port)  # anonymous
    assert not logs_in(broker.port, client_id="club")  # ... with the service's id
    assert not logs_in(broker.port, "t1", "guess")
    assert not logs_in(broker.port, "club", "guess")
    assert logs_in(broker.port, "t1", mqtt_password(broker.registry.secret("t1")))
    assert svc.health()["connected"] and svc.taken_over() is None  # it kept its session
    # a board writes only its own topics, reads none
    t2 = parts(Board, broker, "t2", ["Cy", "Di"], seed=2)
    look = admin(parts, broker, subscribe="cribbage/#")
    nosy = parts(Client, broker, "t2", mqtt_password(broker.registry.secret("t2")),
                 subscribe="cribbage/#")
    until("t2's nosy client connected", lambda: nosy.connects)
    g = t1.sim.play()
    for topic, data in (("cribbage/t1/game", t2.sim.signed(dict(g))),
                        ("cribbage/t1/status", b"offline")):
        w = parts(Client, broker, "t2", mqtt_password(broker.registry.secret("t2")))
        until("t2's writer connected", lambda w=w: w.connects)
        info = w.c.publish(topic, data, qos=1, retain=topic.endswith("status"))
        # (Mosquitto 2.0 drops a client that writes where it may not: or it acknowledges
        # and drops the message)
        until("the broker's answer to t2 writing on " + topic,
              lambda info=info, w=w: w.disconnects or info.is_published())
    games = [t2.play()]  # (t2's own game: the marker that the ones before are through)
    t2.flush()
    svc.wait_games(1)
    until("t2's game seen by the looker-on", lambda: look.on("cribbage/t2/game"))
    assert look.on("cribbage/t1/game") == [] and look.on("cribbage/t1/status") == [b"online"]
    assert nosy.got == []  # subscribed to everything, given nothing
    h = svc.health()
    assert (h["games"], h["dropped"]) == (1, 0)  # the broker never passed them on
    assert [x["id"] for x in svc.get("/games.json?night=all")] == [games[0]["id"]]


def test_nesting_bombs_never_stop_the_counting(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=3)
    bad = admin(parts, broker)
    bomb = b'{"id": "t1-1", "board": "t1", "seats": ' + b"[" * 20000 + b"]" * 20000 + b"}"
    for _ in range(25):  # more than the broker's 20 in-flight messages to the service
        bad.publish("cribbage/t1/game", bomb)
        t1.sim.counter += 1  # (signed with t1's own key)
        t1.client.publish("cribbage/t1/game", sign.frame(t1.sim.secret, t1.sim.counter, bomb),
                          qos=1).wait_for_publish(10)
    bad.publish("cribbage/t1/state", b"[" * 4000 + b"]" * 4000, retain=True, qos=0)
    games = [t1.play()]
    t1.flush()
    h = svc.wait_games(1)
    until("the club to count 51 refused", lambda: svc.health()["dropped"] == 51)
    assert svc.health()["connected"]
    assert [x["id"] for x in svc.get("/games.json?night=all")] == [games[0]["id"]]
    assert h["games"] == 1
    svc.kill()  # and again after a restart (the retained bomb replayed): it counts on
    svc.start()
    games.append(t1.play())
    t1.flush()
    svc.wait_games(2)
    assert svc.get("/", raw=True)  # the page draws


def test_small_messages_make_no_huge_pages(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=4)
    g = t1.sim.play()
    big = json.loads(payload(g))
    big["game"]["by_side"][0]["n29"] = 2000000
    t1.client.publish("cribbage/t1/game", t1.sim.signed(big), qos=1).wait_for_publish(10)
    bad = admin(parts, broker)
    st = t1.sim.state()
    for i in range(400):  # invented boards' retained states, the broker replays at each start
        bad.publish("cribbage/x%d/state" % i, payload(dict(st, board="x%d" % i)), retain=True,
                    qos=0)
    bad.publish("cribbage/x399/status", b"online", retain=True)
    t1.publish_state()
    games = [t1.play()]
    t1.flush()
    svc.wait_games(1)
    until("the 402 refused", lambda: svc.health()["dropped"] == 402)
    page = svc.get("/", raw=True)
    assert len(page) < 100000, len(page)
    live = svc.get("/state.json")
    assert sorted(live["states"]) == ["t1"] and sorted(live["status"]) == ["t1"]
    assert [x["id"] for x in svc.get("/games.json?night=all")] == [games[0]["id"]]
    svc.kill()
    svc.start()  # the retained 400 again: refused again, the page as small
    until("the 401 retained refused again", lambda: svc.health()["dropped"] == 401)
    assert len(svc.get("/", raw=True)) < 100000


def test_unsigned_forged_replayed_and_squatted_games_do_not_count(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=5)
    t9 = parts(Board, broker, "t9", ["Cy", "Di"], seed=6)
    evil = parts(Board, broker, "evil", ["Ed", "Flo"], seed=7)
    look = admin(parts, broker, subscribe="cribbage/+/game")
    skunk = t1.sim.play()  # what a phone would post: a skunk win, unsigned
    bad = admin(parts, broker)
    bad.publish("cribbage/t1/game", payload(skunk))
    phone = SimBoard("t1", seed=1, secret=b"\x07" * 32)  # a guess at t1's key
    bad.publish("cribbage/t1/game", phone.signed(skunk))
    # a squat: evil's game as t9's first id, before t9's own (on evil's topic and on t9's)
    squat = dict(evil.sim.play(), id="t9-1")
    evil.client.publish("cribbage/evil/game", evil.sim.signed(squat),
                        qos=1).wait_for_publish(10)
    bad.publish("cribbage/t9/game", evil.sim.signed(dict(squat, board="t9")))
    until("four refused", lambda: svc.health()["dropped"] == 4)
    assert svc.health()["games"] == 0
    games = [t9.play(), t1.play()]  # the real t9-1, and t1's game
    t9.flush()
    t1.flush()
    svc.wait_games(2)
    # the real t9-1 counts for t9 (each board sends at its game's end: either may come first)
    assert sorted((g["id"], g["board"]) for g in svc.get("/games.json?night=all")) == \
        [(games[1]["id"], "t1"), ("t9-1", "t9")]
    # t1 withdraws its game (an undo past the end); a sniffed copy of the game replayed
    t1.client.publish("cribbage/t1/game", t1.sim.withdrawal(games[1]["id"]),
                      qos=1).wait_for_publish(10)
    until("t1's game withdrawn", lambda: svc.health()["games"] == 1)
    sniffed = next(p for p in look.on("cribbage/t1/game")
                   if sign.is_signed(p) and p.endswith(payload(games[1])))
    bad.publish("cribbage/t1/game", sniffed)
    reused = sign.frame(t1.sim.secret, 1, payload(dict(games[1], seats=[
        {"name": "Bob", "side": 0}, {"name": "Ann", "side": 1}])))  # a used counter
    t1.client.publish("cribbage/t1/game", reused, qos=1).wait_for_publish(10)
    until("the replay seen", lambda: svc.health()["duplicates"] >= 1)
    until("the reused counter refused", lambda: svc.health()["dropped"] == 5)
    h = svc.health()
    assert h["games"] == 1
    assert [x["id"] for x in svc.get("/games.json?night=all")] == ["t9-1"]
    got = svc.get("/standings.json?night=all")
    assert got["standings"] == night.standings([games[0]])


def test_a_client_taking_the_services_id_is_seen_and_not_fought(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=8)
    games = [t1.play()]
    t1.flush()
    svc.wait_games(1)
    # a second club service on the same broker with the same client id: the first sees its
    # session taken over, says so, and leaves it (no reconnect: the two never fight)
    pw = broker.registry.account("club")
    (tmp_path / "second").mkdir()
    with sqlite3.connect(str(tmp_path / "club.sqlite")) as a, \
            sqlite3.connect(str(tmp_path / "second" / "club.sqlite")) as b:
        a.backup(b)  # (the same club's boards: a copy of its file)
    other = parts(Service, tmp_path / "second", broker, "club", ["--mqtt-password", pw])
    why = until("the first service to see its session taken",
                lambda: svc.taken_over())
    assert "client id 'club'" in why and "--client-id" in why
    assert not svc.health()["connected"]
    games.append(t1.play())
    t1.flush()
    other.wait_games(2)  # the second has the session: the game goes to it
    assert other.health()["connected"] and other.taken_over() is None
    assert svc.health()["games"] == 1 and not svc.health()["connected"]
    assert any(svc.taken_over() in w for w in svc.health()["warnings"])


def test_a_withdrawn_and_revised_game_counts_once_through_the_broker(tmp_path, parts):
    broker = parts(Broker, tmp_path / "broker")
    svc = parts(Service, tmp_path, broker)
    t1 = parts(Board, broker, "t1", ["Ann", "Bob"], seed=9)
    games = [t1.play(), t1.play()]
    t1.flush()
    svc.wait_games(2)
    # the second game undone past its end: withdrawn; then ended again, names corrected
    t1.client.publish("cribbage/t1/game", t1.sim.withdrawal(games[1]["id"]),
                      qos=1).wait_for_publish(10)
    until("withdrawn", lambda: svc.health()["games"] == 1)
    fixed = dict(games[1], seats=[{"name": "Ann", "side": 0}, {"name": "Cy", "side": 1}])
    t1.client.publish("cribbage/t1/game", t1.sim.signed(fixed), qos=1).wait_for_publish(10)
    until("the revision", lambda: svc.health()["games"] == 2)
    t1.resend_all()  # every earlier message again: nothing doubled, nothing back
    until("the resends seen", lambda: svc.health()["duplicates"] == 2)
    stored = svc.get("/games.json?night=all")
    assert [x["id"] for x in stored] == [games[0]["id"], games[1]["id"]]
    assert [s["name"] for s in stored[1]["seats"]] == ["Ann", "Cy"]
    assert svc.get("/standings.json?night=all")["standings"] == night.standings(
        [games[0], fixed])
