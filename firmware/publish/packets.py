"""The club's packets: the four MQTT 3.1.1 packets the board sends (CONNECT with its last will
and its name and password, PUBLISH, SUBSCRIBE, PINGREQ), written here as the list of their
parts, which publish/link.py sends over a non-blocking socket. The same bytes micropython-lib's
umqtt.simple writes (host_tests/test_publish.py holds them to it), without its client: loaded
for every packet, its 4.3 KB (64-bit) were on the heap at the publisher's peaks, and its ~35
names stayed interned (issue 34). The messages are the contract's (publish/contract.py): the
state, a game, the status.
"""

import json

from publish.contract import STATE, GAME, STATUS, OFFLINE, topic as _path


class _Msg:
    """A message as the list of its parts (publish/message.py's): its length, and the packet
    takes the parts as they are (the message is never one block)."""

    def __init__(self, parts):
        self.parts = parts

    def __len__(self):
        n = 0
        for b in self.parts:
            n += len(b)
        return n


def topic(pub, what):
    """Publisher pub's topic PREFIX/BOARD/what, as bytes."""
    c = pub.cfg
    return _path(c["prefix"], c["board"], what).encode()


def _s(b):
    """b as an MQTT string: its length in two bytes, then b."""
    return bytes((len(b) >> 8, len(b) & 255)) + b


def _head(first, n):
    """A packet's fixed header: its first byte, then its remaining length n (7 bits a byte)."""
    h = bytearray((first,))
    while n > 0x7F:
        h.append(n & 0x7F | 0x80)
        n >>= 7
    h.append(n)
    return h


def _pid(pub):
    """The next packet id (1..65535: it wraps), pub's."""
    pub.pid = (pub.pid if pub.pid < 65535 else 0) + 1
    return bytes((pub.pid >> 8, pub.pid & 255))


def packet(pub, what, args):
    """The packet for Publisher pub (publish/task.py), as the list of its parts to send (a
    message's own parts among them): what 0 CONNECT (a clean session, keepalive 60 s, the last
    will "offline" on the status topic, retained, QoS 1; the board's name and password when it
    has its identity: publish/link.py), 1 PUBLISH (args: topic, message (bytes, or _Msg),
    retain, qos; QoS 1 with pub's next packet id), 2 PINGREQ, 3 SUBSCRIBE (args: topic; QoS 0,
    pub's next packet id)."""
    if what == 1:
        t, m, retain, qos = args
        h = _head(0x30 | qos << 1 | retain, 2 + len(t) + len(m) + (2 if qos else 0))
        h += _s(t)
        if qos:
            h += _pid(pub)
        return [h] + (m.parts if isinstance(m, _Msg) else [m])
    if what == 0:
        cfg = pub.cfg
        pw = cfg.get("pw")  # (a board with its identity logs in as itself: publish/link.py)
        b = _s(("crib-" + cfg["board"]).encode()) + _s(topic(pub, STATUS)) + _s(
            OFFLINE.encode())
        if pw:
            b += _s(cfg["board"].encode()) + _s(pw)
        # flags: a clean session (2), the will (4) at QoS 1 (8) retained (32), a name and a
        # password (0xC0); the keepalive, 60 s
        return [_head(0x10, 10 + len(b)) + b"\x00\x04MQTT\x04" + bytes(
            (0x2E | (0xC0 if pw else 0), 0, 60)) + b]
    if what == 3:
        t = args[0]
        return [_head(0x82, 5 + len(t)) + _pid(pub) + _s(t) + b"\x00"]
    return [b"\xc0\x00"]


def state(pub):
    """The state's PUBLISH (retained, QoS 0): what the page's GET /state answers (board/
    snapshot.py) with the board's id and the seats' names."""
    from board.snapshot import snapshot

    app = pub.app
    st = snapshot(app)
    st["board"] = pub.cfg["board"]
    st["names"] = pub.names[:app.m.players]
    return packet(pub, 1, (topic(pub, STATE), json.dumps(st).encode(), True, 0))


def game(pub, r, parts=None):
    """The PUBLISH (QoS 1) of record r's message (publish/message.py's parts(): a finished
    game, or a withdrawal), given as its parts (made in a call of its own: publish/task.py)
    or made now."""
    if parts is None:
        from board.fault import load  # (loaded on a board: here, only when used)

        parts = load("publish.message").parts(pub, r)
    return packet(pub, 1, (topic(pub, GAME), _Msg(parts), False, 1))
