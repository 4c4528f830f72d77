"""What the club says to a board, with every part real: Mosquitto on 127.0.0.1 with the club's
config, password file and ACL (clubkit.Broker), the club service as its own process
(clubkit.Service) on a virtual clock (its --clock-file: the night turns when the test writes
the next morning's time there, never by waiting on the wall clock), and the real firmware in
the MicroPython unix port (webkit.Board) as board t1 with its key.

The board learns the club's night; a game finished on a night and sent after midnight counts
on the night it was played; a forged, unsigned, replayed or oversized club message is refused,
counted and said on the board's page, and stalls nothing; a phone without credentials (or
another board) can neither read nor write a board's topic. Mosquitto missing: skipped, saying
why. Waits poll with a deadline; nothing is timed."""

import json
import time

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Broker, Service, logs_in, until
from club.sign import SAYS_DOMAIN, frame, mqtt_password, verify
from mqttkit import Club as Listener, Proxy, history_records, over, wifi
from test_club_attacks import Client
from webkit import Board, game_tokens, prepare

pytestmark = [pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED), pytest.mark.slow]

EVENING = 1795899600  # 2026-11-28 21:00 UTC (the service's clock: TZ=UTC)
SMALL_HOURS = EVENING + 4 * 3600  # 01:00 on the 29th: still the 28th's night
MORNING = EVENING + 12 * 3600  # 09:00 on the 29th: the 29th's night
SAYS = "cribbage/t1/says"
LONG = 120  # a board's reconnect backs off to a minute


def club(b):
    status, body = b.get("/club")
    assert status == 200
    return json.loads(body)


def night(b):
    return club(b)["night"]


class Rig:
    """The broker with boards t1 (and others named), the service on a clock file, a looker-on
    with the broker's keys (Broker.ADMIN: the raw messages), t1's key."""

    def __init__(self, tmp_path, parts, monkeypatch, boards=("t1",), unsigned=()):
        monkeypatch.setenv("TZ", "UTC")  # (the service's local night)
        self.clock = tmp_path / "clock"
        self.set(EVENING)
        self.broker = parts(Broker, tmp_path / "broker")
        self.keys = {b: self.broker.add_board(b) for b in boards}
        for b in unsigned:
            self.broker.add_board(b, unsigned=True)
        self.svc = parts(Service, tmp_path, self.broker, args=["--clock-file", str(self.clock)])
        user, pw = Broker.ADMIN
        self.look = parts(Listener, self.broker.port, user=user, password=pw, keys=self.keys)
        self.storage = str(tmp_path / "t1")
        self.parts = parts

    def set(self, t):
        self.clock.write_text(str(t))

    def said(self, board="t1"):
        """(n, fields) of each message the looker-on saw on board's topic, checked with its
        key."""
        out = []
        for p, _ in self.look.messages("cribbage/%s/says" % board):
            n, _mac, data = verify(self.keys[board], p, SAYS_DOMAIN)
            out.append((n, json.loads(data)))
        return out

    def board(self, port=None, tokens=None):
        """Board t1 running the firmware, its broker at port (default the broker's)."""
        wifi(self.storage, port or self.broker.port, board="t1",
             secret=self.keys["t1"].hex())
        if tokens:
            prepare(self.storage, tokens)
        return self.parts(Board, self.storage)


def finish(b, storage, tokens, n):
    """The rest of a game typed on board b (tokens), then OK until its record is the nth in
    the history (a game won on a typed card may take an OK more: test_club_night's Table)."""
    b.keys(" ".join(tokens), taps=True)
    until("the game over", lambda: b.state()["phase"] == "over")
    for _ in range(3):
        b.keys("#", taps=True)
        try:
            until("the game in the history", lambda: history_records(storage) >= n, 10)
            break
        except AssertionError:
            continue
    assert history_records(storage) == n


def test_a_game_finished_on_a_night_and_sent_after_midnight_counts_on_that_night(
        tmp_path, parts, monkeypatch):
    rig = Rig(tmp_path, parts, monkeypatch)
    way = parts(Proxy, rig.broker.port)  # t1's way to the broker
    tokens = game_tokens(3)
    b = rig.board(way.port, tokens[:-4])  # a game four keys from its end
    until("t1 online", lambda: club(b)["status"] == "online")
    until("t1 told the club's night", lambda: night(b) == "2026-11-28")  # the board learns
    assert club(b)["said"] == 1 and club(b)["refused"] == 0
    rig.set(SMALL_HOURS)  # past midnight: the club's night is still the 28th's
    time.sleep(2 * 1.0)  # (the service looks every second: nothing to say)
    assert rig.said() == [(1, {"night": "2026-11-28"})]
    way.close()  # the club out of reach (its Wi-Fi, its broker's machine)
    until("t1 down", lambda: club(b)["status"].startswith("down"))
    finish(b, rig.storage, tokens[-4:], 1)  # the game ends at 01:00, the club away
    until("the game waits", lambda: club(b)["waiting"] == 1)
    rig.set(MORNING)  # the next morning: the club says the 29th
    until("the club to say the 29th", lambda: rig.said()[-1] == (2, {"night": "2026-11-29"}))
    parts(Proxy, rig.broker.port, way.port)  # the club back
    until("t1 told the new night", lambda: night(b) == "2026-11-29", LONG)
    rig.svc.wait_games(1)
    assert [g["id"] for g in rig.svc.get("/games.json?night=2026-11-28")] == ["t1-1"]
    assert rig.svc.get("/games.json?night=2026-11-29") == []
    assert rig.look.game("t1-1")["night"] == "2026-11-28"  # signed with it
    # a game that ends now counts tonight, the 29th
    b.close()
    over(rig.storage, 4)
    b = rig.board()
    until("t1 told the night again (its RAM's, lost at the reset)",
          lambda: night(b) == "2026-11-29")
    assert club(b)["said"] == 2
    until("the game over", lambda: b.state()["phase"] == "over")
    b.keys("#", taps=True)
    rig.svc.wait_games(2)
    assert [g["id"] for g in rig.svc.get("/games.json?night=2026-11-29")] == ["t1-2"]
    assert rig.svc.health()["dropped"] == 0


def test_a_forged_unsigned_or_replayed_club_message_is_refused_even_after_a_reset(
        tmp_path, parts, monkeypatch):
    rig = Rig(tmp_path, parts, monkeypatch, boards=("t1", "t2"))
    over(rig.storage, 3)
    b = rig.board()
    until("t1 told the club's night", lambda: night(b) == "2026-11-28")
    old = next(p for p, _ in rig.look.messages(SAYS, raw=True))  # n 1: the 28th
    rig.set(MORNING)
    until("t1 told the 29th", lambda: night(b) == "2026-11-29")
    evil = parts(Client, rig.broker, *Broker.ADMIN)  # (the broker's keys: past its ACL)
    until("the attacker connected", lambda: evil.connects)
    forged = [json.dumps({"night": "2026-11-20"}).encode(),  # unsigned
              frame(rig.keys["t2"], 9, b'{"night":"2026-11-20"}', SAYS_DOMAIN),  # t2's key
              frame(rig.keys["t1"], 9, b'{"night":"2026-11-20"}'),  # a game's signature
              old]  # the club's own message of last night, again
    for p in forged:
        evil.publish(SAYS, p)
    until("four refused", lambda: club(b)["refused"] == 4)
    info = club(b)
    assert info["why"] == "an old message again (n 1, 2 taken)"
    assert info["night"] == "2026-11-29" and info["status"] == "online"
    # the old message retained in the club's place, the board reset: still refused (the
    # highest n taken is on its flash), the night unknown until the club says it again
    evil.publish(SAYS, old, retain=True)
    b.close()
    b = rig.board()
    until("the old message refused after the reset", lambda: club(b)["refused"] == 1)
    assert club(b)["night"] is None
    assert club(b)["why"] == "an old message again (n 1, 2 taken)"
    rig.set(MORNING + 24 * 3600)
    until("t1 told the 30th", lambda: night(b) == "2026-11-30")
    _ok_counts_on(rig, b, "2026-11-30")


def _ok_counts_on(rig, b, name):
    """The board's finished game OK'd reaches the club, filed on night name."""
    until("the game over", lambda: b.state()["phase"] == "over")
    b.keys("#", taps=True)
    rig.svc.wait_games(1)
    assert [g["id"] for g in rig.svc.get("/games.json?night=" + name)] == ["t1-1"]


def test_an_oversized_club_message_neither_stalls_nor_crashes_the_board(
        tmp_path, parts, monkeypatch):
    """A message far over the board's bound, retained (it comes again at every connection):
    let go as it arrives, counted, said; the board stays online, answers its keys, sends its
    game; a message just over the packet's bound, one over the message's: the same."""
    rig = Rig(tmp_path, parts, monkeypatch)
    way = parts(Proxy, rig.broker.port)
    over(rig.storage, 3)
    b = rig.board(way.port)
    until("t1 told the club's night", lambda: night(b) == "2026-11-28")
    evil = parts(Client, rig.broker, *Broker.ADMIN)
    until("the attacker connected", lambda: evil.connects)
    evil.publish(SAYS, b"x" * 600)
    evil.publish(SAYS, frame(rig.keys["t1"], 5, json.dumps({"night": "2026-11-28", "pad": (
        "x" * 360)}).encode(), SAYS_DOMAIN))  # (signed, and under the packet's bound)
    evil.publish(SAYS, b"{" * 200000, retain=True)
    until("three refused", lambda: club(b)["refused"] == 3)
    assert club(b)["why"] == "too long (200022 bytes)"
    assert club(b)["status"] == "online" and club(b)["night"] == "2026-11-28"
    assert b.state()["phase"] == "over"  # (answers)
    way.cut("after")  # the connection lost: at the next, the big one again
    b.keys("#", taps=True)  # (its game; its acknowledgement lost with the connection)
    until("the big one again, at the next connection", lambda: club(b)["refused"] == 4, LONG)
    until("t1 online", lambda: club(b)["status"] == "online")
    rig.svc.wait_games(1)
    until("t1's outbox empty", lambda: club(b)["waiting"] == 0)
    time.sleep(2)  # (a second look: no connection lost to the message)
    assert club(b)["refused"] == 4 and club(b)["status"] == "online"
    rig.set(MORNING)  # the club's next message takes the big one's place
    until("t1 told the 29th", lambda: night(b) == "2026-11-29")
    assert [g["night"] for g in rig.svc.get("/games.json?night=all")] == ["2026-11-28"]


def test_a_phone_without_credentials_or_another_board_can_neither_read_nor_write_it(
        tmp_path, parts, monkeypatch):
    """The worst case: an unsigned board registered lets anonymous clients in (to its own
    topics alone). Neither they nor board t2 read t1's message or write it; nor may t1 write
    its own (a board moving its games to another night)."""
    rig = Rig(tmp_path, parts, monkeypatch, boards=("t1", "t2"), unsigned=("t3",))
    until("the club's message to t1", lambda: rig.said() == [(1, {"night": "2026-11-28"})])
    assert logs_in(rig.broker.port)  # (anonymous: let in, for t3)
    keys = rig.keys
    lookers = [parts(Client, rig.broker, subscribe="cribbage/#"),
               parts(Client, rig.broker, "t2", mqtt_password(keys["t2"]), subscribe="cribbage/#")]
    for c in lookers:
        until("a looker connected", lambda c=c: c.connects)
    for user, pw in ((None, None), ("t2", mqtt_password(keys["t2"])),
                     ("t1", mqtt_password(keys["t1"]))):
        w = parts(Client, rig.broker, user, pw)
        until("a writer connected", lambda w=w: w.connects)
        info = w.c.publish(SAYS, b'{"night": "2026-11-20"}', qos=1, retain=True)
        until("the broker's answer", lambda info=info, w=w: w.disconnects or info.is_published())
    reader = parts(Client, rig.broker, "t1", mqtt_password(keys["t1"]), subscribe=SAYS)
    until("t1 reads the club's message", lambda: reader.on(SAYS))
    time.sleep(1)  # (a second look: nothing else came)
    assert len(reader.on(SAYS)) == 1
    assert verify(keys["t1"], reader.on(SAYS)[0], SAYS_DOMAIN)[0] == 1  # the club's, still
    assert rig.said() == [(1, {"night": "2026-11-28"})]
    for c in lookers:
        assert c.on(SAYS) == []
