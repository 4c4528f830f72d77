"""The board's identity and signature (issue 30; docs/club-board.md): the board's game messages
signed as the club verifies them (tools/club/sign.py), its counter on flash never used for two
different messages through any power cut, its MQTT password as the club derives it, the
identity read from the Wi-Fi file `make club-board` writes, and a connection that fails said
in words (issue 35, item 3)."""

import json

import pytest

from board.storage import Storage
from fakeboard.ramfs import RamFs
from club import sign as club_sign
from publish import link as L, outbox as O

KEY = bytes(range(32))


def _store(fs=None):
    return Storage("/d", fs or RamFs())


def test_a_message_is_signed_as_the_club_verifies_it_and_a_resend_is_the_same_bytes():
    st = _store()
    a = [b'{"id": "t1-1", ', b'"board": "t1"}']
    head = O.sign(st, KEY, a)
    payload = head + b"".join(a)
    assert club_sign.verify(KEY, payload) == (1, head[:64].decode(), b"".join(a))
    assert payload == club_sign.frame(KEY, 1, b"".join(a))  # the club's own framing
    assert O.sign(st, KEY, a) == head  # the same message again: the same counter and bytes
    assert O.sign(_store(st.fs), KEY, a) == head  # after a reset too (from flash)
    b = [b'{"id": "t1-2", "board": "t1"}']
    assert club_sign.verify(KEY, O.sign(st, KEY, b) + b[0])[0] == 2  # another: the next
    assert club_sign.verify(KEY, O.sign(st, KEY, a) + b"".join(a))[0] == 3  # (not 1 again)
    assert json.loads(st.read("counter"))[0] == 3
    with pytest.raises(club_sign.BadMessage):  # another key's signature does not verify
        club_sign.verify(bytes(32), O.sign(st, KEY, b) + b[0])


def test_an_unreadable_counter_file_signs_nothing():
    """A counter from 1 again would sign new games with counters the club has seen (it
    refuses them): a counter file that is there but cannot be read stops signing, said."""
    for bad in (b"not json", b'["1", ""]', b"[-1, \"\"]", b"[1]", b" " * 200):
        st = _store()
        st.fs.files["/d/counter"] = bad
        with pytest.raises(ValueError, match="counter"):
            O.sign(st, KEY, [b"{}"])


class Cut(BaseException):
    """The power goes (nothing of the board's code catches it)."""


class CutFs(RamFs):
    """RAM as flash: the files survive the cut. The power goes at the n-th write-side call
    (an open for writing, a write (half of its bytes land), a rename)."""

    def __init__(self, files, n):
        super().__init__()
        self.files = files
        self.n = n

    def tick(self):
        self.n -= 1
        if self.n == 0:
            raise Cut()

    def open(self, path, mode):
        if "w" in mode:
            self.tick()
        f = super().open(path, mode)
        if "w" in mode:
            w = f.write

            def write(b):
                if self.n == 1:
                    w(bytes(b)[:len(b) // 2])
                self.tick()
                return w(b)
            f.write = write
        return f

    def rename(self, a, b):
        self.tick()
        super().rename(a, b)


def test_a_power_cut_anywhere_never_sends_one_counter_with_two_messages():
    """Messages signed one after the other, some again (a resend), with a power cut at every
    write-side step of the counter's save in turn; after the cut the board starts again and
    signs the message again, or another one in its place (its content changed across the
    reset: names, a revision, another firmware). Every counter that left sign() (and so may
    be on the network) stands for one message only; counters only grow; every message that
    is signed again unchanged goes out as the same bytes."""
    plan = [b"A", b"A", b"B", b"C", b"C", b"B", b"D"]
    for at in range(1, 40):
        files = {}
        out = {}  # counter -> the message signed with it
        last = 0
        prev = None
        cut = False
        i = 0
        fs = CutFs(files, at)
        while i < len(plan):
            msg = plan[i]
            try:
                head = O.sign(_store(fs), KEY, [msg])
            except Cut:
                cut = True
                fs = CutFs(files, 0)  # the board starts again from its flash
                plan[i:i + 1] = [msg, msg + b"'"]  # it signs it again, then a changed one
                i += 1  # (the changed one first: the worst case)
                continue
            counter, _mac, data = club_sign.verify(KEY, head + msg)
            assert out.setdefault(counter, data) == data, (at, counter, out[counter], data)
            assert counter >= last
            if counter == last:  # the same counter again: the very same message
                assert data == prev
            last, prev = counter, data
            i += 1
        plan = [b"A", b"A", b"B", b"C", b"C", b"B", b"D"]
        if not cut:
            assert at > 5  # (every cut point before the end was tried)
            break


def test_the_mqtt_password_is_the_clubs(monkeypatch):
    """The board logs in with its name and hex(HMAC-SHA256(secret, b"mqtt"))[:32]
    (tools/club/sign.py's mqtt_password, which the broker's password file holds)."""
    secret = bytes(range(100, 132))

    class Pub:
        phase = 0  # (the game, self.m: not at its end)

        def __init__(self):
            self.app = self.m = self
            self.store = _store()
            self.hw = {"broker": lambda: {"host": "h", "port": 1883, "board": "t1",
                                          "prefix": "cribbage", "secret": secret.hex()}}

        def clock(self):
            return 0

    p = Pub()
    assert L.start(p)
    assert p.cfg["pw"] == club_sign.mqtt_password(secret).encode()
    assert p.cfg["key"] == secret and "secret" not in p.cfg
    from publish import packets as P
    import hostenv

    import binascii
    import socket
    import struct
    import sys

    monkeypatch.syspath_prepend(hostenv.mp_lib())  # (umqtt.simple, as make venv has it)
    monkeypatch.setitem(sys.modules, "usocket", socket)  # (its MicroPython names)
    monkeypatch.setitem(sys.modules, "ustruct", struct)
    monkeypatch.setitem(sys.modules, "ubinascii", binascii)
    monkeypatch.delitem(sys.modules, "umqtt.simple", raising=False)
    connect = b"".join(bytes(x) for x in P.packet(p, 0, ()))
    assert connect[9] & 0xC0 == 0xC0  # (CONNECT's flags: a user name and a password)
    assert connect.endswith(b"\x00\x02t1\x00\x20" + club_sign.mqtt_password(secret).encode())


def test_the_identity_is_read_from_the_wifi_file_make_club_board_writes(tmp_path):
    from hw.wifi import broker
    from hw import wifiwhy
    from club.registry import wifi_entry

    secret = bytes(range(32))
    f = tmp_path / "wifi-t1.json"
    f.write_text(json.dumps({"ssid": "club", "broker": wifi_entry("t1", secret, "10.0.0.2")}))
    assert broker(str(f), b"") == {"host": "10.0.0.2", "port": 1883, "prefix": "cribbage",
                                   "board": "t1", "secret": secret.hex()}
    for bad in ("abc", "g" * 64, 5, secret.hex() + "0"):
        f.write_text(json.dumps({"ssid": "club", "broker": {"host": "h", "secret": bad}}))
        assert broker(str(f), b"") is None, bad
        why = wifiwhy.fault(str(f), "broker")
        assert '"secret"' in why and "make club-board" in why, why
        if isinstance(bad, str):
            assert bad not in why  # (a key, even a wrong one, is never shown)


@pytest.mark.parametrize("e, words", [
    (OSError(111), "connection refused by 192.168.1.5:1883"),
    (OSError(104), "connection reset by 192.168.1.5:1883"),
    (OSError(113), "no way to 192.168.1.5:1883"),
    (OSError("no answer"), "no answer from 192.168.1.5:1883"),
    (OSError(-4), "the broker refused this board's name or key"),
    (OSError(-5), "the broker refused this board: not the club's, or not with this key"),
    (OSError("broker name club.lan not found"), "broker name club.lan not found"),
    (MemoryError(), "out of memory"),
    (OSError(99), "error 99 (OSError)"),
])
def test_a_failed_connection_is_said_in_words(e, words):
    assert L._words({"host": "192.168.1.5", "port": 1883}, e).startswith(words)


def test_a_broker_name_not_found_is_said_so(monkeypatch):
    """The ports say a failed lookup each their own way ("[addrinfo error -2]", -202):
    the board says the name was not found."""
    import socket

    def lookup(*a):
        raise OSError("[addrinfo error -2]")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)

    class Pub:
        cfg = {"host": "club.lan", "port": 1883}
        status = ""

    with pytest.raises(OSError) as e:
        L._connect(Pub(), 0)
    assert L._words(Pub.cfg, e.value) == "broker name club.lan not found"
