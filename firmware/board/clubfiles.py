"""The club's files on flash (board/publish.py): the outbox of finished games and the seats'
names; and the publisher's packets, made with micropython-lib's umqtt.simple. Loaded for a
moment and let go (the publisher, the page's /club and /names): nothing here, nor the MQTT
client, stays on the heap between packets.

outbox: [N, mark] as JSON, saved atomically (board/storage.py): the number of the next game
to send (its id is BOARD-N), and the mark (head and checksum, hex) of the last history record
the broker took; "" when none was (every record of the history is still to go).
names: a short name per seat (SEATS, None for none) as JSON.
"""

import json

from micropython import const


_OUTBOX = const(128)  # the outbox file's bound
_NAMES = const(128)  # the names file's bound
NAME_MAX = const(7)  # a player's short name: six and the PIN fit the page's form (64 bytes)
SEATS = const(6)


class _Wait(OSError):
    """umqtt.simple asked for an answer: the publisher awaits it itself."""


class _Pipe:
    """umqtt.simple's socket: what it writes is kept for the task to send; a read means it
    wants the broker's answer, which the task awaits itself (_Wait). Also its socket module
    (socket(), getaddrinfo()) while it connects."""

    def __init__(self):
        self.out = []  # the packet's parts: a message (bytes) is kept as it is, not copied
        self.out.append(bytearray())  # (a game's is a few KB); the small writes are copied
        # (umqtt.simple reuses their buffers)

    def write(self, b, n=-1):
        if n < 0 and isinstance(b, bytes) and len(b) > 64:
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


def packet(pub, what, args):
    """umqtt.simple's packet for Publisher pub (board/publish.py): what 0 CONNECT (with the
    last will "offline"), 1 PUBLISH (args: topic, message, retain, qos), 2 PINGREQ; as the
    list of its parts to send (the message itself one of them). Its client is made for the
    packet, writing into a _Pipe (its reads: _Wait), with pub's packet id; the module is let
    go after, unless it was loaded."""
    from board.fault import forget, room  # (loaded on a board: here, only when used)

    import sys

    had = "umqtt.simple" in sys.modules
    room("umqtt.simple")
    from umqtt import simple

    pipe = _Pipe()
    setattr(simple, "socket", pipe)  # noqa: B010 (it connects to the pipe)
    cfg = pub.cfg
    c = simple.MQTTClient(("crib-" + pub.board).encode(), cfg["host"], cfg["port"],
                          keepalive=60)
    c.pid = pub.pid
    c.sock = pipe  # pyright: ignore[reportAttributeAccessIssue]  (its socket: the pipe)
    try:
        if what == 0:
            c.set_last_will(pub.topic[0], b"offline", True, 1)
            c.connect()
        elif what == 1:
            c.publish(*args)
        else:
            c.ping()
    except _Wait:
        pass
    finally:
        pub.pid = c.pid
        c = simple = None
        if not had:
            forget("umqtt.simple")
    return pipe.out


def records(store):
    """Each good record of the history, oldest first, read one at a time as board/history.py
    reads them (its module is let go after, unless the board had it)."""
    from board.fault import forget, room  # (loaded on a board: here, only when used)

    import sys

    had = "board.history" in sys.modules
    room("board.history")
    from board.history import _next

    at = [0]
    r = None
    f = store.open("history")
    try:
        while f:
            r = _next(f, at, r)
            if r is None:
                return
            yield r
    finally:
        if f:
            f.close()
        if not had:
            forget("board.history")


def mark(r):
    """A history record's mark: its head and checksum, as hex."""
    from binascii import hexlify

    return hexlify(bytes(r[:12]) + bytes(r[-2:])).decode()


def after(store, last):
    """(the first record of the history after the last one marked `last`, how many follow
    it): (None, 0) when there is none. A mark found nowhere (the history set aside, the
    games beyond its 64): every record follows it."""
    first = None
    k = 0
    for r in records(store):
        if last and mark(r) == last:
            first = None
            k = 0
        else:
            if first is None:
                first = r
            k += 1
    return first, k


def outbox(store):
    """[N, mark] of the outbox; a new one when there is none (publishing starts now: the games
    of the history before it are not the club's), saved at once."""
    def parse(b):
        v = json.loads(b)
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] > 0
                and isinstance(v[1], str)):
            raise ValueError("not an outbox")
        return v
    box = store.load("outbox", parse, _OUTBOX)
    if box is None:
        last = ""
        for r in records(store):
            last = mark(r)
        box = [1, last]
        save_outbox(store, box)
    return box


def save_outbox(store, box):
    store.save("outbox", json.dumps(box).encode())


def start(pub):
    """Publisher pub's names and outbox, from flash."""
    pub.names = load_names(pub.app.store)
    pub.box = outbox(pub.app.store)


def waiting(pub):
    """The first record of the history pub has still to send (or None); pub.waiting: how
    many."""
    r, pub.waiting = after(pub.app.store, pub.box[1])
    return r


def sent(pub, r):
    """The broker has record r: pub's outbox moves past it (one atomic save)."""
    pub.box = [pub.box[0] + 1, mark(r)]
    save_outbox(pub.app.store, pub.box)
    pub.sent += 1
    pub.waiting = max(pub.waiting - 1, 0)


def state(pub):
    """The state's PUBLISH (retained, QoS 0): what the page's GET /state answers (board/
    web.py's snapshot) with the board's id and the seats' names."""
    from board.snapshot import snapshot

    app = pub.app
    st = snapshot(app)
    st["board"] = pub.board
    st["names"] = pub.names[:app.m.players]
    return packet(pub, 1, (pub.topic[1], json.dumps(st).encode(), True, 0))


def game(pub, r):
    """The PUBLISH (QoS 1) of record r as game N (the outbox's): its id BOARD-N, the board,
    the seats (seat i's name, the side it plays for) and board/export.py's decode(r, N)."""
    from board.fault import forget, room  # (loaded on a board: here, only when used)

    import sys

    app = pub.app
    m = app.m
    n = pub.box[0]
    names = pub.names
    seats = []
    for i in range(m.players):
        seats.append({"name": names[i] if i < len(names) else None, "side": m.side_of(i)})
    had = [k for k in ("board.export", "cribbage.summary", "board.history") if k in sys.modules]
    try:
        room("board.export")
        from board.export import decode

        body = json.dumps({"id": "%s-%d" % (pub.board, n), "board": pub.board,
                           "seats": seats, "game": decode(r, n)}).encode()
    finally:
        decode = None
        for k in ("board.export", "cribbage.summary", "board.history"):
            if k not in had:
                forget(k)
    return packet(pub, 1, (pub.topic[2], body, False, 1))


def info(pub, app):
    """What the page shows of the club (pub: the Publisher, or None): the broker, the
    connection's status, the games waiting and sent, the names; and the club page's address
    when the Wi-Fi file names it (else null: the page asks the broker's host, port 8124)."""
    if pub is None:
        return {"broker": None, "status": "off", "names": load_names(app.store)}
    c = pub.cfg
    return {"broker": "%s:%d" % (c["host"], c["port"]), "prefix": c["prefix"],
            "board": pub.board, "status": pub.status, "waiting": pub.waiting,
            "sent": pub.sent, "names": pub.names, "club": c.get("club")}


def check_name(s):
    """A seat's name as typed: None for none, else the name (ValueError says why not)."""
    s = s.strip()
    if not s:
        return None
    if len(s) > NAME_MAX:
        raise ValueError("a name is at most %d letters" % NAME_MAX)
    for c in s:
        if not (c.isalpha() or c.isdigit() or c in " .-"):
            raise ValueError("a name has letters, digits, space . - only")
    return s


def parse_names(text):
    """The names form's field ("Ann,Bob,,Dee": seat by seat) as a list of SEATS names or
    None; ValueError says what is wrong."""
    parts = text.split(",")
    if len(parts) > SEATS:
        raise ValueError("at most %d names" % SEATS)
    out = []
    for i in range(SEATS):
        out.append(check_name(parts[i]) if i < len(parts) else None)
    return out


def load_names(store):
    """The seats' names kept on flash: SEATS names or None (all None when none are)."""
    def parse(b):
        v = json.loads(b)
        if not isinstance(v, list):
            raise ValueError("not names")
        return parse_names(",".join(x if isinstance(x, str) else "" for x in v))
    try:
        got = store.load("names", parse, _NAMES)
    except Exception:  # noqa: BLE001  (a file of another shape: no names)
        got = None
    return got or [None] * SEATS


def save_names(store, names):
    store.save("names", json.dumps(names).encode())
