"""The club's packets: MQTT packets made by micropython-lib's umqtt.simple, which is never let
near the network (its calls block on their socket): it writes into memory (_Pipe) and
publish/link.py sends the bytes over a non-blocking socket. The messages are the contract's
(publish/contract.py): the state, a game, the status.
"""

import json

from publish.contract import STATE, GAME, STATUS, OFFLINE, topic as _path


class _Wait(OSError):
    """umqtt.simple asked for an answer: the publisher awaits it itself."""


class _Msg:
    """A message as the list of its parts (publish/message.py's), as umqtt.simple takes it:
    its length, and the _Pipe keeps the parts as they are (the message is never one block)."""

    def __init__(self, parts):
        self.parts = parts

    def __len__(self):
        n = 0
        for b in self.parts:
            n += len(b)
        return n


class _Pipe:
    """umqtt.simple's socket: what it writes is kept for the task to send; a read means it
    wants the broker's answer, which the task awaits itself (_Wait). Also its socket module
    (socket(), getaddrinfo()) while it connects."""

    def __init__(self):
        self.out = []  # the packet's parts: a message (bytes) is kept as it is, not copied
        self.out.append(bytearray())  # (a game's is a few KB); the small writes are copied
        # (umqtt.simple reuses their buffers)

    def write(self, b, n=-1):
        if isinstance(b, _Msg):
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


def game(pub, r, parts=None):
    """The PUBLISH (QoS 1) of record r's message (publish/message.py's parts(): a finished
    game, or a withdrawal), given as its parts (made in a call of its own: publish/task.py)
    or made now."""
    if parts is None:
        from board.fault import load  # (loaded on a board: here, only when used)

        parts = load("publish.message").parts(pub, r)
    return packet(pub, 1, (topic(pub, GAME), _Msg(parts), False, 1))
