"""What the club says to a board (issue 36's gap: the board never knew the night): one message
a board, retained on <prefix>/<board>/says, signed with the board's key (tools/club/says.py,
firmware/publish/says.py), the night in it; each game the board signs carries the night it
ended in (firmware/publish/nights.py), so a game finished before midnight and sent after it
counts on the night it was played.

The door's checks here on the firmware's own modules (CPython); with every part real in
test_club_says_broker.py (Mosquitto, the club service, the firmware in the unix port)."""

import json

import pytest

from club import night as N
from club.registry import acl_text
from club.says import Says
from club.sign import SAYS_DOMAIN, frame, verify
from club.contract import BadMessage
from mqttkit import secret
from publish import link as L, nights as G, outbox as O, packets as P, says as S
from test_publish import Pub, looked, seated, store_with


def board(st=None):
    """A Publisher's state as publish/link.py's start() leaves it, for board t1 with its key."""
    p = Pub(st or store_with())
    p.hw["broker"] = lambda: {"board": "t1", "prefix": "cribbage", "host": "h", "port": 1,
                              "secret": secret("t1").hex()}
    L.start(p)
    return p


def sent_as(p, r, monkeypatch):
    """The game message p signs for record r (its JSON, the signature checked), then the
    broker takes it."""
    got = []
    monkeypatch.setattr(P, "packet", lambda pub, what, args: got.append(args))
    P.game(p, r)
    L.sent(p, r)
    return json.loads(verify(secret("t1"), b"".join(got[0][1].parts))[2])


def says(n, fields, key=None):
    return frame(key or secret("t1"), n, json.dumps(fields).encode(), SAYS_DOMAIN)


def test_the_board_takes_the_clubs_night_signed_with_its_key():
    p = board()
    assert p.night is None and p.said == 0
    assert S.take(p, says(1, {"night": "2026-11-28"})) == 1
    assert p.night == "2026-11-28" and p.said == 1
    assert S.take(p, says(1, {"night": "2026-11-28"})) == 1  # (retained: again at a connect)
    assert S.take(p, says(2, {"night": "2026-11-29", "later": {"v": "0.8"}})) == 2
    assert p.night == "2026-11-29"  # (a field it does not know: let go)
    assert json.loads(p.app.store.read("heard"))[0] == 2  # the highest n, on flash


@pytest.mark.parametrize("bad, why", [
    (json.dumps({"night": "2020-01-01"}).encode(), "not signed"),  # a phone's, unsigned
    (says(5, {"night": "2020-01-01"}, key=secret("t2")), "not signed with this board's key"),
    (frame(secret("t1"), 5, b'{"night": "2020-01-01"}'), "not signed with this board's key"),
    # (a game's signature: its domain is not the club's message's)
    (says(5, {"night": "2020-01-01"})[:-3] + b'02"}', "not signed with this board's key"),
    (says(1, {"night": "2020-01-01"}), "an old message again (n 1, 3 taken)"),  # replayed
    (says(4, {"night": "2020-01-01", "pad": "x" * 400}), "too long"),
    (b"0" * 64 + b" 05\n{}", "not signed"), (b"", "not signed"),
    (says(6, ["night", "2020-01-01"]), "not a JSON object"),
    (says(7, {"night": "20-1-1 and more"}), "night: not a date"),
])
def test_a_forged_unsigned_replayed_or_bad_message_is_refused_and_changes_nothing(bad, why):
    p = board()
    S.take(p, says(3, {"night": "2026-11-28"}))
    with pytest.raises(ValueError) as e:
        S.take(p, bad)
    assert str(e.value).startswith(why)
    assert p.night == "2026-11-28" or why.startswith("night")


def test_an_old_message_is_refused_after_a_reset_and_a_new_key_counts_anew():
    """n's floor is on flash (a reset lets no old message back in), with the key's tag (a
    board given a new key takes the club's count from 1)."""
    p = board()
    S.take(p, says(7, {"night": "2026-11-28"}))
    q = board(p.app.store)  # the board reset: the night is RAM's, n's floor flash's
    assert q.night is None
    with pytest.raises(ValueError, match="an old message again"):
        S.take(q, says(6, {"night": "2026-11-21"}))
    assert q.night is None
    S.take(q, says(7, {"night": "2026-11-28"}))  # the retained one, at the connection
    assert q.night == "2026-11-28"
    q.cfg["pw"] = b"0123456789abcdef"  # (another key's password: another tag)
    assert S.heard(q) == 0


def test_the_dispatch_table_hands_each_field_to_its_handler(monkeypatch):
    """A field added to FIELDS (one line: h-rollout's "update") reaches its handler, after
    the message is checked; the connection's code knows no field."""
    import publish.says

    got = []
    publish.says.order = lambda pub, v: got.append(v)
    monkeypatch.setitem(S.FIELDS, "update", ("publish.says", "order"))
    p = board()
    S.take(p, says(1, {"night": "2026-11-28", "update": {"version": "0.8.0"}}))
    assert got == [{"version": "0.8.0"}] and p.night == "2026-11-28"
    with pytest.raises(ValueError):
        S.take(p, says(2, {"update": {"version": "evil"}}, key=secret("t2")))
    assert got == [{"version": "0.8.0"}]
    del publish.says.order


def test_each_game_carries_the_night_it_ended_in(monkeypatch):
    """Games ended while the club's night was 28 go out with it, even once the club says 29;
    a game that ended before the board was told carries none (the club files it on the night
    it arrives)."""
    st = store_with(seated(1, 2, 2))  # (before the board started: its night unknown)
    p = board(st)
    looked(p)  # the first look (publish/task.py's _LOOK)
    L.tick(p, 0)
    a, b, c = seated(2, 2, 2), seated(3, 2, 2), seated(4, 2, 2)
    st.save("history", seated(1, 2, 2) + a)  # a game over, no night said yet
    looked(p)
    L.tick(p, 0)
    S.take(p, says(1, {"night": "2026-11-28"}))
    st.save("history", seated(1, 2, 2) + a + b)  # ended on the 28th
    looked(p)
    L.tick(p, 0)
    b2 = seated(6, 2, 2)
    st.save("history", seated(1, 2, 2) + a + b + b2)  # ended on the 28th, not yet looked at
    S.take(p, says(2, {"night": "2026-11-29"}))  # midnight is past (and the small hours)
    st.save("history", seated(1, 2, 2) + a + b + b2 + c)
    looked(p)
    L.tick(p, 0)
    got = []
    while L.waiting(p) is not None:
        got.append(sent_as(p, L.waiting(p), monkeypatch).get("night"))
    assert got == [None, "2026-11-28", "2026-11-28", "2026-11-29"]  # (game 1: before the
    # outbox began)
    assert json.loads(st.read("nights")) == [O.mark(b) + " 2026-11-28",
                                             O.mark(b2) + " 2026-11-28",
                                             O.mark(c) + " 2026-11-29"]
    st.save("history", seated(1, 2, 2) + a + b + b2 + c + seated(5, 2, 2))
    looked(p)  # the games sent are let go at the next save
    L.tick(p, 0)
    assert json.loads(st.read("nights")) == [O.mark(seated(5, 2, 2)) + " 2026-11-29"]


def test_the_nights_kept_are_bounded_and_a_bad_file_is_none():
    st = store_with()
    p = board(st)
    looked(p)
    L.tick(p, 0)
    S.take(p, says(1, {"night": "2026-11-28"}))
    hist = b""
    for k in range(1, 21):  # twenty games while the club is out of reach
        hist += seated(k, 2, 2)
        st.save("history", hist)
        looked(p)
        L.tick(p, 0)
    kept = json.loads(st.read("nights"))
    assert len(kept) == 16 and kept[-1].startswith(O.mark(seated(20, 2, 2)))
    assert len(st.read("nights")) <= 1024
    assert G.night_of(st, O.mark(seated(4, 2, 2))) is None  # (the oldest let go)
    st.save("nights", b'["nonsense"]')
    assert G.night_of(st, O.mark(seated(20, 2, 2))) is None


def test_the_club_says_each_board_its_night_signed_and_n_only_grows(tmp_path):
    """tools/club/says.py: each registered board's message, signed with its key; a new n
    when it changes (the night turning, a board added), the same bytes otherwise; n kept
    in the club's file across restarts."""
    from club.registry import Registry

    db = str(tmp_path / "club.sqlite")
    reg = Registry(db)
    k1 = reg.add("t1")

    class Club:
        prefix = "cribbage"
        registry = reg
        t = 1795890000.0  # 2026-11-28 17:40 UTC

        def night(self):
            return N.tonight(self.t)

        def order(self, board):  # (no update offered: releases.py)
            return None

    club = Club()
    s = Says(db)
    first = s.due(club)
    assert [t for t, _ in first] == ["cribbage/t1/says"]
    n, _mac, data = verify(k1, first[0][1], SAYS_DOMAIN)
    assert (n, json.loads(data)) == (1, {"night": N.tonight(club.t)})
    with pytest.raises(BadMessage):
        verify(k1, first[0][1])  # (not a game's signature)
    assert s.due(club) == []  # nothing changed
    assert s.due(club, every=True) == first  # the same bytes, at a connection
    reg.add("t2")
    assert [t for t, _ in s.due(club)] == ["cribbage/t2/says"]
    club.t += 24 * 3600  # the next night
    again = s.due(club)
    assert len(again) == 2
    assert verify(k1, again[0][1], SAYS_DOMAIN)[0] == 2
    s.close()
    s = Says(db)  # the service restarted
    club.t += 24 * 3600
    assert verify(k1, s.due(club)[0][1], SAYS_DOMAIN)[0] == 3
    s.close()
    reg.close()


def test_the_night_runs_past_midnight_until_the_small_hours_end(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    import time

    time.tzset()
    try:
        day = 1795824000  # 2026-11-28 00:00 UTC
        assert N.tonight(day + 19 * 3600) == "2026-11-28"
        assert N.tonight(day + 24 * 3600 + 3600) == "2026-11-28"  # 01:00: the same night
        assert N.tonight(day + 24 * 3600 + N.ENDS * 3600) == "2026-11-29"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_acl_lets_the_service_alone_write_and_each_board_alone_read_its_own():
    acl = acl_text([{"name": "t1", "unsigned": False}, {"name": "t2", "unsigned": True}],
                   ["club"])
    blocks = acl.split("\n\n")
    anonymous = blocks[0]
    assert "says" not in anonymous
    assert "topic write cribbage/+/says" in blocks[1] and "user club" in blocks[1]
    t1 = next(b for b in blocks if b.startswith("user t1"))
    assert "topic read cribbage/t1/says" in t1 and "t2/says" not in t1
    assert "write cribbage/t1/says" not in t1


def test_the_subscription_is_to_the_boards_own_topic_and_its_packet_id_wraps(monkeypatch):
    """The SUBSCRIBE packet umqtt.simple makes (the board's own, on CPython: its u-modules
    are CPython's here)."""
    import binascii
    import socket
    import struct
    import sys

    import hostenv

    monkeypatch.syspath_prepend(hostenv.mp_lib())
    for u, m in (("usocket", socket), ("ustruct", struct), ("ubinascii", binascii)):
        monkeypatch.setitem(sys.modules, u, m)
    monkeypatch.delitem(sys.modules, "umqtt.simple", raising=False)
    p = board()
    p.pid = 65534
    pkt = b"".join(bytes(x) for x in P.packet(p, 3, (P.topic(p, "says"),)))
    assert pkt == b"\x82\x15\xff\xff\x00\x10cribbage/t1/says\x00" and p.pid == 65535
    pkt = b"".join(bytes(x) for x in P.packet(p, 3, (P.topic(p, "says"),)))
    assert pkt[2:4] == b"\x00\x01" and p.pid == 1  # (never 0, never past 65535)


def test_a_publish_too_long_is_let_go_as_it_comes_and_the_next_packet_is_taken():
    """publish/link.py's reads: a PUBLISH over the packet's bound is skipped across reads
    (never kept), counted; the SUBACK after it is taken."""
    p = board()
    p.ask = 9  # (a SUBACK awaited)
    p.pid = 7
    rest = b"\x00\x10cribbage/t1/says" + b"x" * 20000
    n = len(rest)
    big = bytes((0x30, n & 127 | 128, n >> 7 & 127 | 128, n >> 14)) + rest
    assert L._whole(bytearray(big[:10])) == -len(big)
    chunks = [big[k:k + 512] for k in range(0, len(big), 512)]
    chunks[-1] += b"\x90\x03\x00\x07\x00"  # the SUBACK, in the same read as the end

    class Sock:
        def read(self, n):
            return chunks.pop(0) if chunks else None

        def write(self, b):
            return len(b)

    class Poll:
        def poll(self, t):
            return True

        def modify(self, s, m):
            pass

    p.sock, p.poll, p.up = Sock(), Poll(), 2
    while chunks:
        L._io(p, 0)
        assert len(p.inp) <= 1024
    assert p.refused == 1 and p.why == "too long (%d bytes)" % len(big)
    assert p.ask == -1 and p.skip == 0 and p.inp == b""


def test_a_message_the_board_has_no_room_for_is_refused_and_the_connection_goes_on(
        monkeypatch):
    """Whatever taking it raises (no room: MemoryError, the flash: OSError), the message is
    refused and said, the connection kept (a retained message that broke the connection would
    break it at every connection); a PUBLISH on another topic: refused too."""
    p = board()
    body = says(1, {"night": "2026-11-28"})
    for topic, want in ((b"cribbage/t1/says", "MemoryError()"),
                        (b"cribbage/t2/says", "not on this board's topic")):
        rest = bytes((0, len(topic))) + topic + body
        pkt = bytes((0x31, len(rest) & 127 | 128, len(rest) >> 7)) + rest
        monkeypatch.setattr(S, "take", lambda pub, b: (_ for _ in ()).throw(MemoryError()))
        p.inp = bytearray(pkt)
        assert L._packets(p, 0) is False
        assert p.why == want and p.inp == b""
    assert p.refused == 2 and p.night is None
