"""The club's packets: MQTT packets made by micropython-lib's umqtt.simple, which is never let
near the network (its calls block on their socket): it writes into memory (_Pipe) and
publish/link.py sends the bytes over a non-blocking socket. The messages are the contract's
(publish/contract.py): the state, a game, the status.
"""

import json

from publish.contract import NIGHT, STATE, GAME, STATUS, OFFLINE, topic as _path

from micropython import const

_PART = const(256)  # a message's parts (_Body): bytes each, at most (one longer item: its own)


class _Wait(OSError):
    """umqtt.simple asked for an answer: the publisher awaits it itself."""


class _Body:
    """A message as JSON in parts (a game's is a few KB: as one block, with json.dumps'
    growing buffer and the copy .encode() makes, it is what a heap in pieces lacks):
    umqtt.simple asks its length and writes it to the _Pipe, which keeps the parts. Each
    part a bytearray of at most about _PART bytes (issue 34: a part per key or item, 150 and
    more for a game, took ~60 bytes of the 64-bit heap each and a list of their pointers
    that grew to KBs in one block, which a heap in pieces could not give)."""

    def __init__(self):
        self.parts = []
        self.n = 0

    def add(self, s):
        b = s.encode()
        p = self.parts
        if not p or len(p[-1]) + len(b) > _PART:
            p.append(bytearray())
        p[-1] += b
        self.n += len(b)

    def __len__(self):
        return self.n

    def value(self, v):
        """v as JSON: a dict key by key, a list item by item (each item one part)."""
        if isinstance(v, dict):
            sep = "{"
            for k in v:
                x = v[k]
                if isinstance(x, (dict, list)):
                    self.add(sep + json.dumps(k) + ": ")
                    self.value(x)
                else:
                    self.add(sep + json.dumps(k) + ": " + json.dumps(x))
                sep = ", "
            self.add("}" if sep == ", " else "{}")
        elif isinstance(v, list):
            sep = "["
            for x in v:
                self.add(sep + json.dumps(x))
                sep = ", "
            self.add("]" if sep == ", " else "[]")
        else:
            self.add(json.dumps(v))


class _Pipe:
    """umqtt.simple's socket: what it writes is kept for the task to send; a read means it
    wants the broker's answer, which the task awaits itself (_Wait). Also its socket module
    (socket(), getaddrinfo()) while it connects."""

    def __init__(self):
        self.out = []  # the packet's parts: a message (bytes) is kept as it is, not copied
        self.out.append(bytearray())  # (a game's is a few KB); the small writes are copied
        # (umqtt.simple reuses their buffers)

    def write(self, b, n=-1):
        if isinstance(b, _Body):
            self.out.extend(b.parts)  # (taken as they are: the message is never one block)
            self.out.append(bytearray())
        elif n < 0 and isinstance(b, bytes) and len(b) > 64:
            self.out.append(b)
            self.out.append(bytearray())
        else:
            self.out[-1] += b if n < 0 else memoryview(b)[:n]
        return len(b) if n < 0 else n

    def read(self, n):
        raise _Wait()

    def socket(self):
        return self

    def getaddrinfo(self, host, port):
        return ((0, 0, 0, "", None),)

    def close(self, *a):
        pass

    settimeout = setblocking = connect = close


def topic(pub, what):
    """Publisher pub's topic PREFIX/BOARD/what, as bytes."""
    c = pub.cfg
    return _path(c["prefix"], c["board"], what).encode()


def packet(pub, what, args):
    """umqtt.simple's packet for Publisher pub (publish/task.py): what 0 CONNECT (with the
    last will "offline"; the board's name and password when it has its identity), 1 PUBLISH
    (args: topic, message, retain, qos), 2 PINGREQ, 3 SUBSCRIBE (args: topic; QoS 0); as the
    list of its parts to send (the message itself one of them). Its client is made for the
    packet, writing into a _Pipe (its reads: _Wait), with pub's packet id (the module is let
    go after: publish/task.py's _call)."""
    from board.fault import load  # (loaded on a board: here, only when used)

    simple = load("umqtt.simple")

    pipe = _Pipe()
    setattr(simple, "socket", pipe)  # noqa: B010 (it connects to the pipe)
    cfg = pub.cfg
    pw = cfg.get("pw")  # (a board with its identity logs in as itself: publish/link.py)
    c = simple.MQTTClient(("crib-" + cfg["board"]).encode(), cfg["host"], cfg["port"],
                          cfg["board"].encode() if pw else None, pw, keepalive=60)
    c.pid = pub.pid if pub.pid < 65535 else 0  # (a packet id is 1..65535: it wraps)
    c.sock = pipe  # pyright: ignore[reportAttributeAccessIssue]  (its socket: the pipe)
    try:
        if what == 0:
            c.set_last_will(topic(pub, STATUS), OFFLINE.encode(), True, 1)
            c.connect()
        elif what == 1:
            c.publish(*args)
        elif what == 3:
            c.set_callback(print)  # (it asks for one: the messages are publish/link.py's)
            c.subscribe(args[0], 0)
        else:
            c.ping()
    except _Wait:
        pass
    finally:
        pub.pid = c.pid
    return pipe.out


def state(pub):
    """The state's PUBLISH (retained, QoS 0): what the page's GET /state answers (board/
    snapshot.py) with the board's id and the seats' names."""
    from board.snapshot import snapshot

    app = pub.app
    st = snapshot(app)
    st["board"] = pub.cfg["board"]
    st["names"] = pub.names[:app.m.players]
    return packet(pub, 1, (topic(pub, STATE), json.dumps(st).encode(), True, 0))


def game(pub, r):
    """The PUBLISH (QoS 1) of record r as game N (the outbox's): its id BOARD-N, the board,
    the seats (seat i's name, the side it plays for: the record's, not the match's now) and
    board/export.py's decode(r, N), and the night it ended in when the club had said it
    (publish/nights.py); r a str: the withdrawal of game N-1 (publish/outbox.py's after()).
    The names: those the seats had when it was played. Signed with the board's key when it
    has one (publish/outbox.py's sign(): its counter on flash).
    Made in two steps, so that the heap never holds the two at once (issue 34: the publisher's
    peak): the game decoded and its JSON (_body(): the record's modules let go after it),
    then the signature and the packet (umqtt.simple)."""
    if isinstance(r, str):  # the withdrawal of the game sent last (undone past its end)
        board = pub.cfg["board"]
        body = _Body()
        body.value({"id": "%s-%d" % (board, pub.box[0] - 1), "board": board,
                    "withdraw": True})
        return _signed(pub, body)
    return _signed(pub, _body(pub, r))


def _signed(pub, body):
    """The game's PUBLISH (QoS 1) of message body, signed when the board has its key."""
    key = pub.cfg.get("key")
    if key:  # signed (docs/club-board.md): "<mac> <counter>\n" before the JSON
        from publish.outbox import sign

        h = sign(pub.app.store, key, body.parts)
        body.parts.insert(0, h)
        body.n += len(h)
    return packet(pub, 1, (topic(pub, GAME), body, False, 1))


def _body(pub, r):
    """Record r's message as JSON parts (a _Body): the seats, the night and the decoded
    game. The record's modules (board.history, board.export and what it loads: ~10 KB on
    the 64-bit port) are let go once the game is decoded, before its JSON is made (those
    the board had before this call, the app's or the page's, are kept: board/fault.py)."""
    from board.fault import load, modules, release

    had = modules()
    n = pub.box[0]
    board = pub.cfg["board"]
    msg = {"id": "%s-%d" % (board, n), "board": board, "seats": _seats(pub, r)}
    from publish.outbox import mark

    night = load("publish.nights").night_of(pub.app.store, mark(r))  # (the club's night
    if night:  # when it ended, if said)
        msg[NIGHT] = night
    g = _decoded(r, n)  # (in a call of its own: nothing here holds the modules after it)
    release(had)  # board.history (_seats'), board.export and what it loaded (board.record,
    had = None  # cribbage.summary): the app and the page load them again
    msg["game"] = g
    g = None
    body = _Body()
    body.value(msg)
    return body


def _seats(pub, r):
    """Seat i's name (as played) and the side it plays for, of record r."""
    from board.fault import load  # (loaded on a board: here, only when used)

    h = load("board.history").head(r)  # its players h[1] and sides h[2]: seat i plays for
    # side i % sides; the names (pub.box[1]: the first after the mark)
    names = load("publish.names").played_with(pub.app.store, pub.box[1], pub.names)
    seats = []
    for i in range(h[1]):
        seats.append({"name": names[i] if i < len(names) else None, "side": i % h[2]})
    return seats


def _decoded(r, n):
    """board/export.py's decode(r, n)."""
    from board.fault import load

    return load("board.export").decode(r, n)
