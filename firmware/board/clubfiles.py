"""The club's files on flash (board/publish.py): the outbox of finished games and the seats'
names; and the publisher's work (tick()): its connection, its packets, made with
micropython-lib's umqtt.simple. Loaded for a moment and let go (the publisher, the page's
/club and /names): nothing here, nor the MQTT client, stays on the heap between two looks.

outbox: [N, mark] as JSON, saved atomically (board/storage.py): the number of the next game
to send (its id is BOARD-N), and the mark (head and checksum, hex) of the last history record
the broker took; "" when none was (every record of the history is still to go).
names: a short name per seat (SEATS, None for none) as a JSON list; after them, while games
wait in the outbox and the names have changed, the names each was played with ("MARK
Ann,Bob,,,,": the mark of the newest game they belong to, oldest first; save_names()).
"""

import json
import sys

from micropython import const


_RETRY_MS = const(2000)  # after a failure, doubling to 32x (a minute)
_PACKET = const(512)  # the longest packet taken from the broker (it sends acknowledgements)
_LOOK = const(1)  # board/publish.py's task(): what there is to do
_STATE = const(2)
_PING = const(4)
_IO = const(8)
_LATE = const(16)
_CONNACK = const(2)  # the broker's packets awaited (their kind, the packet's high 4 bits)
_PUBACK = const(4)
_PINGRESP = const(13)
_OUTBOX = const(128)  # the outbox file's bound
_NAMES = const(1024)  # the names file's bound (the seats' and _KEPT kept: 706 bytes)
_KEPT = const(8)  # names kept for the games waiting, at most
_MARK = const(28)  # a mark's length (mark()): a name kept is "MARK Ann,Bob,,,,"
NAME_MAX = const(7)  # a player's short name: six and the PIN fit the page's form (64 bytes)
SEATS = const(6)


class _Wait(OSError):
    """umqtt.simple asked for an answer: the publisher awaits it itself."""


class _Body:
    """A message as JSON in parts (a game's is a few KB: as one block, with json.dumps'
    growing buffer and the copy .encode() makes, it is what a heap in pieces lacks):
    umqtt.simple asks its length and writes it to the _Pipe, which keeps the parts."""

    def __init__(self):
        self.parts = []
        self.n = 0

    def add(self, s):
        b = s.encode()
        self.parts.append(b)
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


def _topic(pub, what):
    """Publisher pub's topic PREFIX/BOARD/what, as bytes."""
    c = pub.cfg
    return ("%s/%s/%s" % (c["prefix"], c["board"], what)).encode()


def packet(pub, what, args):
    """umqtt.simple's packet for Publisher pub (board/publish.py): what 0 CONNECT (with the
    last will "offline"), 1 PUBLISH (args: topic, message, retain, qos), 2 PINGREQ; as the
    list of its parts to send (the message itself one of them). Its client is made for the
    packet, writing into a _Pipe (its reads: _Wait), with pub's packet id (the module is let
    go after: board/publish.py's _call)."""
    from board.fault import room  # (loaded on a board: here, only when used)

    room("umqtt.simple")
    from umqtt import simple

    pipe = _Pipe()
    setattr(simple, "socket", pipe)  # noqa: B010 (it connects to the pipe)
    cfg = pub.cfg
    c = simple.MQTTClient(("crib-" + cfg["board"]).encode(), cfg["host"], cfg["port"],
                          keepalive=60)
    c.pid = pub.pid
    c.sock = pipe  # pyright: ignore[reportAttributeAccessIssue]  (its socket: the pipe)
    try:
        if what == 0:
            c.set_last_will(_topic(pub, "status"), b"offline", True, 1)
            c.connect()
        elif what == 1:
            c.publish(*args)
        else:
            c.ping()
    except _Wait:
        pass
    finally:
        pub.pid = c.pid
    return pipe.out


def records(store):
    """Each good record of the history, oldest first, read one at a time as board/history.py
    reads them."""
    from board.fault import room  # (loaded on a board: here, only when used)

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


def _box(b):
    v = json.loads(b)
    if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] > 0
            and isinstance(v[1], str)):
        raise ValueError("not an outbox")
    return v


def outbox(store):
    """[N, mark] of the outbox; a new one when there is none (publishing starts now: the games
    of the history before it are not the club's), saved at once."""
    box = store.load("outbox", _box, _OUTBOX)
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
    """Publisher pub's state (board/publish.py: pub.app set): the broker named (pub.cfg:
    app.hw["broker"](), boards/wifi.py's broker()), the names and the outbox from flash, not
    connected; False when no broker is named."""
    try:
        pub.cfg = pub.app.hw["broker"]()
    except Exception as e:  # noqa: BLE001
        print("club: no broker:", repr(e))
        return False
    if not pub.cfg:
        return False
    pub.status = "connecting"
    pub.names = load_names(pub.app.store)
    pub.box = outbox(pub.app.store)
    pub.waiting = 0  # games after the mark, when last looked
    pub.sent = 0  # games the broker took since the board started
    pub.seen = -1  # app.changes when the state last went out
    pub.state_at = pub.sent_at = 0  # when the state, and any packet, last went out
    pub.phase = -1  # the game's phase when the history was last looked at (-1: look now)
    pub.pid = 0  # the last packet id
    pub.sock = pub.poll = None  # the socket (None: down), and a poll of it
    pub.wait = 0  # how long after pub.t the next try is, once down (doubling)
    _gone(pub)
    pub.t = pub.app.clock()  # (down since the board started)
    return True


def _gone(pub):
    """No connection, nothing in flight."""
    pub.up = 0  # 0 connecting, 1 the connection made (the CONNECT goes out), 2 connected
    pub.inp = bytearray()  # what has come from the broker, not yet a whole packet
    pub.out = []  # the parts of what goes out, not yet written
    pub.ask = -1  # the kind of packet awaited from the broker (-1 none), since pub.t (when
    # down: since it went down)
    pub.r = None  # the record sent as a game, until the broker has it


def _say(pub, text):
    if text != pub.status:
        print("club:", text)
        pub.status = text


def _whole(b):
    """The length of the first whole MQTT packet in b, 0 if it is not all there yet;
    ValueError for a malformed or too long one."""
    n = sh = 0
    i = 1
    while True:
        if i >= len(b):
            return 0
        c = b[i]
        n |= (c & 0x7F) << sh
        i += 1
        if not c & 0x80:
            break
        sh += 7
        if sh > 21:
            raise ValueError("bad packet length")
    if n + i > _PACKET:
        raise ValueError("packet too long")
    return n + i if len(b) >= n + i else 0


def tick(pub, w):
    """Publisher pub's work now (w: board/publish.py's task() bits), in one call that never
    waits on the network: look at the history, connect, write what the socket takes, read
    what has come, send the game (then await its PUBACK), the state, a ping. Any failure
    (the network's, a bad packet, an answer late: _LATE) closes the connection and the next
    try is after a pause (_RETRY_MS, doubling to 32x; 2 s again if it was up)."""
    now = pub.app.clock()
    try:
        if w & _LOOK:  # a game over and the next begun: one to send? (and how many wait)
            pub.r = waiting(pub)
        if w & _LATE:
            raise OSError("no answer")
        if w & _IO:
            if pub.sock is None:
                _connect(pub, now)
            else:
                _io(pub, now)
        if pub.up == 2 and not pub.out and pub.ask < 0:
            if pub.r is not None:  # the game, until the broker has it
                pub.out = game(pub, pub.r)
                pub.ask = _PUBACK
            elif w & _STATE or pub.seen < 0:  # (connected: at once)
                pub.seen = pub.app.changes
                pub.state_at = now
                pub.out = state(pub)
            elif w & _PING:
                pub.out = packet(pub, 2, ())
                pub.ask = _PINGRESP
            else:
                return
            pub.t = now
            _io(pub, now)
    except Exception as e:  # noqa: BLE001  (the network's: the game never sees it)
        _down(pub, e, now)


def _connect(pub, now):
    """The TCP connection, begun without blocking; its CONNECT goes out once it is made."""
    import select
    import socket

    _say(pub, "connecting")
    c = pub.cfg
    ai = socket.getaddrinfo(c["host"], c["port"], 0, socket.SOCK_STREAM)[0]
    s = socket.socket(ai[0], ai[1], ai[2])
    pub.sock = s
    s.setblocking(False)
    try:
        s.connect(ai[-1])
    except OSError as e:
        if e.args[0] not in (115, 119):  # EINPROGRESS (unix, lwIP)
            raise
    pub.poll = select.poll()
    pub.poll.register(s, select.POLLIN | select.POLLOUT)  # (writable: the connection made)
    pub.out = [b"".join(packet(pub, 0, ()))]
    pub.ask = _CONNACK
    pub.t = now


def _io(pub, now):
    """Write what the socket takes of pub.out, read what has come, and act on each whole
    packet: the answer awaited (CONNACK, the game's PUBACK, PINGRESP); others are let go.
    The socket is polled for writing only while bytes wait (board/publish.py's task())."""
    import select

    s = pub.sock
    if pub.up == 0:
        if not pub.poll.poll(0):
            return  # (not yet made)
        pub.up = 1  # (or failed: the write says so)
    out = pub.out
    while out:
        n = s.write(out[0])
        if n is None:
            break  # (the socket is full: the rest when it can be written)
        if n < len(out[0]):
            out[0] = memoryview(out[0])[n:]
        else:
            out.pop(0)  # (nothing is held once it is written)
            pub.sent_at = now
    pub.poll.modify(s, select.POLLIN | select.POLLOUT if out else select.POLLIN)
    got = s.read(_PACKET)
    if got is None:
        return
    if not got:
        raise OSError("closed by the broker")
    pub.inp += got
    if len(pub.inp) > 2 * _PACKET:
        raise ValueError("flooded")
    while True:
        n = _whole(pub.inp)
        if not n:
            return
        p = pub.inp[:n]
        pub.inp = pub.inp[n:]
        k = p[0] >> 4
        if k != pub.ask or (k == _PUBACK and (len(p) < 4 or (p[2] << 8 | p[3]) != pub.pid)):
            continue
        pub.ask = -1
        if k == _CONNACK:
            if len(p) < 4 or p[3]:
                raise OSError("refused (%d)" % (p[3] if len(p) > 3 else -1))
            pub.up = 2
            pub.out = packet(pub, 1, (_topic(pub, "status"), b"online", True, 0))
            pub.phase = -1  # (the history is looked at once connected)
            pub.seen = -1
            pub.t = now
            _say(pub, "online")
            return _io(pub, now)
        if k == _PUBACK:
            sent(pub, pub.r)
            pub.r = None
            pub.phase = -1  # (the next, if any)


def _down(pub, e, now):
    """The connection failed with e: closed, said, and the next try after a pause."""
    pub.wait = _RETRY_MS if pub.status == "online" else min(max(pub.wait * 2, _RETRY_MS),
                                                             _RETRY_MS << 5)
    try:
        _say(pub, "down: %s" % (e.args[0] if e.args else type(e).__name__))
    except Exception:  # noqa: BLE001
        pub.status = "down"
    s = pub.sock
    pub.sock = pub.poll = None
    _gone(pub)
    pub.t = now
    if s is not None:
        try:
            s.close()
        except Exception:  # noqa: BLE001
            pass


def waiting(pub):
    """The first record of the history pub has still to send (or None); pub.waiting: how
    many."""
    r, pub.waiting = after(pub.app.store, pub.box[1])
    return r


def sent(pub, r):
    """The broker has record r: pub's outbox moves past it (one atomic save); the names kept
    for it are let go (a power cut before: they are, at the next save of the names)."""
    st = pub.app.store
    pub.box = [pub.box[0] + 1, mark(r)]
    save_outbox(st, pub.box)
    pub.sent += 1
    pub.waiting = max(pub.waiting - 1, 0)
    names = _names(st)
    if len(names) > SEATS:
        kept = _live(st, pub.box[1], names[SEATS:])[0]
        if len(kept) < len(names) - SEATS:
            st.save("names", json.dumps(names[:SEATS] + kept).encode())


def state(pub):
    """The state's PUBLISH (retained, QoS 0): what the page's GET /state answers (board/
    web.py's snapshot) with the board's id and the seats' names."""
    from board.snapshot import snapshot

    app = pub.app
    st = snapshot(app)
    st["board"] = pub.cfg["board"]
    st["names"] = pub.names[:app.m.players]
    return packet(pub, 1, (_topic(pub, "state"), json.dumps(st).encode(), True, 0))


def game(pub, r):
    """The PUBLISH (QoS 1) of record r as game N (the outbox's): its id BOARD-N, the board,
    the seats (seat i's name, the side it plays for: the record's, not the match's now) and
    board/export.py's decode(r, N). The names: those the seats had when it was played."""
    from board.fault import room  # (loaded on a board: here, only when used)

    room("board.history")
    from board.history import head

    h = head(r)  # its players h[1] and sides h[2]: seat i plays for side i % sides
    n = pub.box[0]
    names = pub.names  # the seats' now, unless names were kept for it (the first kept
    kept = _names(pub.app.store)[SEATS:]  # after the mark: pub.r is the first after it)
    if kept:
        kept = _live(pub.app.store, pub.box[1], kept)[0]
        if kept:
            names = parse_names(kept[0][_MARK + 1:])
    seats = []
    for i in range(h[1]):
        seats.append({"name": names[i] if i < len(names) else None, "side": i % h[2]})
    room("board.export")
    from board.export import decode

    board = pub.cfg["board"]
    body = _Body()
    body.value({"id": "%s-%d" % (board, n), "board": board, "seats": seats,
                "game": decode(r, n)})
    return packet(pub, 1, (_topic(pub, "game"), body, False, 1))


def info(pub, app):
    """What the page shows of the club (pub: the Publisher, or None): the broker, the
    connection's status, the games waiting and sent, the names; and the club page's address
    when the Wi-Fi file names it (else null: the page asks the broker's host, port 8124)."""
    if pub is None:
        return {"broker": None, "status": "off", "names": load_names(app.store)}
    c = pub.cfg
    return {"broker": "%s:%d" % (c["host"], c["port"]), "prefix": c["prefix"],
            "board": c["board"], "status": pub.status, "waiting": pub.waiting,
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


def _names(store):
    """The names file: the seats' names (SEATS, as load_names()), then the names kept for
    waiting games ("MARK Ann,Bob,,,,", oldest first)."""
    def parse(b):
        v = json.loads(b)
        if not isinstance(v, list) or len(v) > SEATS + _KEPT:
            raise ValueError("not names")
        for k in v[SEATS:]:
            if k[_MARK:_MARK + 1] != " ":
                raise ValueError("not names")
            parse_names(k[_MARK + 1:])
        return parse_names(",".join(x if isinstance(x, str) else "" for x in v[:SEATS])) + \
            v[SEATS:]
    try:
        got = store.load("names", parse, _NAMES)
    except Exception:  # noqa: BLE001  (a file of another shape: no names)
        got = None
    return got or [None] * SEATS


def load_names(store):
    """The seats' names kept on flash: SEATS names or None (all None when none are)."""
    return _names(store)[:SEATS]


def _live(store, last, kept):
    """(the names of kept whose game is still after the outbox's mark `last`, the mark of
    the newest game after it, or None when none is)."""
    on = []
    new = None
    for r in records(store):
        m = mark(r)
        if last and m == last:
            on = []
            new = None
        else:
            new = m
            for k in kept:
                if k.startswith(m):
                    on.append(k)
    return on, new


def save_names(store, names):
    """names (SEATS) as the seats' (the page's POST /names). The games waiting in the outbox
    keep the names they were played with: the seats' before are kept, with the mark of the
    newest game waiting, in the same save (a power cut: the old file or the new). At most
    _KEPT are: one more and the oldest's games take the next names (said on the console)."""
    kept = _names(store)
    old = kept[:SEATS]
    kept = kept[SEATS:]
    box = store.load("outbox", _box, _OUTBOX)  # (none: nothing is published, nothing waits)
    new = None
    if box is None:
        kept = []
    else:
        had = "board.history" in sys.modules
        kept, new = _live(store, box[1], kept)
        if not had:
            from board.fault import forget

            forget("board.history")  # (the page's request let it go)
    old = " " + ",".join(x or "" for x in old)
    if new is not None and old != " " + ",".join(x or "" for x in names) and not (
            kept and kept[-1].startswith(new)):
        if kept and kept[-1][_MARK:] == old:
            kept[-1] = new + old  # (the same names: one entry)
        else:
            kept.append(new + old)
        if len(kept) > _KEPT:
            print("club: %d names kept at most: the oldest's games take the next" % _KEPT)
            kept.pop(0)
    store.save("names", json.dumps(names + kept).encode())
