"""The board's games to the club: its live state and each finished game, to an MQTT broker.

Started by board/tasks.py as its own asyncio task on a board with a network and a broker named
in its configuration (hw["broker"]: boards/wifi.py reads the "broker" of wifi.json, written by
`make flash WIFI=...`). The packets are made by micropython-lib's MQTT client (umqtt.simple),
which is never let near the network: its calls block on their socket, so it writes into
memory (_Pipe) and this task moves the bytes over a non-blocking socket, every wait awaited
and bounded (_IO_MS). The game never waits for the network: a broker that is down, slow or
silent costs the board a status mark (shown on the page) and a try again later (_RETRY_MS,
doubling to 32x).

Topics, under PREFIX/BOARD/ (cribbage/t1/ by default):
  status  "online", retained; "offline" (retained) is the connection's last will
  state   retained, QoS 0: what the page's GET /state answers (board/web.py's snapshot) with
          "board" and "names" (a short name per seat, or null), on change, at most every
          _STATE_MS
  game    QoS 1: {"id": "BOARD-N", "board": BOARD, "seats": [{"name", "side"}, ...] (seat i
          plays for side k), "game": board/export.py's decode(record, N)}

The outbox: a finished game is in the history (board/history.py) once the next begins. The
file "outbox" (saved as the game is: board/storage.py, atomic) holds the next game's number N
and the mark of the last record the broker took (its head and checksum). The first record
after the mark is sent as BOARD-N until the broker acknowledges it (PUBACK); then the mark
moves past it and N grows, in one save. A power cut, a broker restart or a Wi-Fi drop before
that: it is sent again, with the same id (the club keeps one game per id).
"""

import gc
import json
import sys

from micropython import const

from board.fault import forget, room
from board.keypad import sleep_ms, ticks_diff

_IO_MS = const(5000)  # connecting, a packet sent, an answer awaited: longer, and the
# connection is dropped (a broker that is a black hole, a Wi-Fi gone)
_RETRY_MS = const(2000)  # after a failure, doubling to 32x (a minute)
_STATE_MS = const(3000)  # the live state at most this often
_POLL_MS = const(250)  # the task looks for work this often
_PING_MS = const(30000)  # a ping after this long without a packet sent (keepalive 60 s)
_KEEPALIVE = const(60)
_PACKET = const(512)  # the longest packet taken from the broker (it sends acknowledgements)
_OUTBOX = const(128)  # the outbox file's bound
_NAMES = const(128)  # the names file's bound
NAME_MAX = const(7)  # a player's short name (six and the PIN fit the page's form: 64 bytes)
SEATS = const(6)

CURRENT = None  # the running Publisher (the page shows its status)


class _Wait(OSError):
    """umqtt.simple asked for an answer: this task awaits it instead."""


class _Pipe:
    """umqtt.simple's socket: what it writes is kept for the task to send; a read means it
    wants the broker's answer, which the task awaits itself (_Wait)."""

    def __init__(self):
        self.out = bytearray()

    def write(self, b, n=-1):
        self.out += b if n < 0 else memoryview(b)[:n]
        return len(b) if n < 0 else n

    def read(self, n):
        raise _Wait()

    def take(self):
        b = self.out
        self.out = bytearray()
        return b

    def settimeout(self, t):
        pass

    def setblocking(self, f):
        pass

    def connect(self, addr):
        pass

    def close(self):
        pass


class _Sockets:
    """umqtt.simple's socket module while it connects: the pipe is its socket."""

    def __init__(self, pipe):
        self.pipe = pipe

    def socket(self):
        return self.pipe

    def getaddrinfo(self, host, port):
        return ((0, 0, 0, "", None),)


class _Ready:
    """Awaited: until socket s can be read (write False) or written."""

    def __init__(self, s, write):
        self.s = s
        self.w = write

    def __await__(self):
        import asyncio

        q = getattr(asyncio, "core")._io_queue  # noqa: B009 (pyright)
        yield q.queue_write(self.s) if self.w else q.queue_read(self.s)

    __iter__ = __await__  # (MicroPython awaits through it)


async def _ready(s, write):
    await _Ready(s, write)


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


def mark(r):
    """A history record's mark: its head and checksum, as hex."""
    from binascii import hexlify

    return hexlify(bytes(r[:12]) + bytes(r[-2:])).decode()


def after(store, last):
    """(the first record of the history after the last one marked `last`, how many follow
    it): (None, 0) when there is none. A mark found nowhere (the history set aside, the
    games beyond its 64): every record follows it."""
    room("board.export")
    from board.export import records

    first = None
    k = 0
    f = store.open("history")
    try:
        for r in records(f):
            if last and mark(r) == last:
                first = None
                k = 0
            else:
                if first is None:
                    first = r
                k += 1
    finally:
        if f:
            f.close()
    return first, k


def load_outbox(store):
    """[N, mark] of the outbox file, or None when there is none (or it is unreadable)."""
    def parse(b):
        v = json.loads(b)
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] > 0
                and isinstance(v[1], str)):
            raise ValueError("not an outbox")
        return v
    return store.load("outbox", parse, _OUTBOX)


def save_outbox(store, box):
    store.save("outbox", json.dumps(box))


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
        return parse_names(",".join(x or "" for x in json.loads(b)))
    try:
        got = store.load("names", parse, _NAMES)
    except Exception:  # noqa: BLE001  (a file of another shape: no names)
        got = None
    return got or [None] * SEATS


def save_names(store, names):
    store.save("names", json.dumps(names))
    if CURRENT is not None:
        CURRENT.names = names
        CURRENT.seen = -1  # (the state goes out again with them)


def info(app):
    """What the page shows of the club: the broker, the connection's status, the names."""
    p = CURRENT
    out = p.info() if p is not None else {"broker": None, "status": "off"}
    out["names"] = p.names if p is not None else load_names(app.store)
    return out


class Publisher:
    """The board's connection to the club's broker (cfg: boards/wifi.py's broker())."""

    def __init__(self, app, cfg):
        self.app = app
        self.cfg = cfg
        self.board = cfg["board"]
        top = "%s/%s/" % (cfg["prefix"], self.board)
        self.topic = ((top + "status").encode(), (top + "state").encode(),
                      (top + "game").encode())
        self.status = "connecting"
        self.names = load_names(app.store)
        self.box = load_outbox(app.store)
        if self.box is None:  # publishing starts now: the games before it are not the club's
            last = _last(app.store)
            self.box = [1, mark(last[0]) if last else ""]
            save_outbox(app.store, self.box)
        self.waiting = 0  # games after the mark, when last looked
        self.sent = 0  # games the broker took since the board started
        self.seen = -1  # app.changes when the state was last published
        self.state_at = 0
        self.phase = -1
        self.sock = None
        self.inp = bytearray()
        self.pipe = _Pipe()
        self.client = None

    def say(self, text):
        if text != self.status:
            print("club:", text)
            self.status = text

    def info(self):
        """What the page shows of the club's connection."""
        c = self.cfg
        return {"broker": "%s:%d" % (c["host"], c["port"]), "prefix": c["prefix"],
                "board": self.board, "status": self.status, "waiting": self.waiting,
                "sent": self.sent}

    async def run(self):
        """Connect, publish, and on any failure close, wait and connect again; forever."""
        wait = _RETRY_MS
        while True:
            try:
                await self.session()
            except Exception as e:  # noqa: BLE001  (the network's: the game never sees it)
                if self.status == "online":
                    wait = _RETRY_MS  # (it was up: try again soon)
                try:
                    self.say("down: %s" % (e.args[0] if e.args else type(e).__name__))
                except Exception:  # noqa: BLE001
                    self.status = "down"
            self.close()
            gc.collect()
            t0 = self.app.clock()
            while ticks_diff(self.app.clock(), t0) < wait:
                await sleep_ms(_POLL_MS << 2)
                self.count()  # (the page says how many games wait)
            wait = min(wait * 2, _RETRY_MS << 5)

    def count(self):
        """When the game's phase has changed: how many games wait (the history after the
        mark), and the first of them (or None)."""
        m = self.app.m
        if m.phase == self.phase:
            return None
        self.phase = m.phase
        r, self.waiting = after(self.app.store, self.box[1])
        return r

    def close(self):
        s = self.sock
        self.sock = None
        self.inp = bytearray()
        self.pipe.take()
        if s is not None:
            try:
                s.close()
            except Exception:  # noqa: BLE001
                pass

    async def connect(self):
        """The TCP connection, made without blocking, within _IO_MS."""
        import asyncio
        import socket

        c = self.cfg
        ai = socket.getaddrinfo(c["host"], c["port"], 0, socket.SOCK_STREAM)[0]
        s = socket.socket(ai[0], ai[1], ai[2])
        self.sock = s
        s.setblocking(False)
        try:
            s.connect(ai[-1])
        except OSError as e:
            if e.args[0] not in (115, 119):  # EINPROGRESS (unix, lwIP)
                raise
        try:
            await asyncio.wait_for(_ready(s, True), _IO_MS / 1000)
        except asyncio.TimeoutError:
            raise OSError("no answer") from None

    async def send(self, data):
        """data to the broker, all of it within _IO_MS."""
        import asyncio

        s = self.sock
        t0 = self.app.clock()
        mv = memoryview(data)
        at = 0
        while at < len(mv):
            n = s.write(mv[at:])
            if n:
                at += n
                continue
            left = _IO_MS - ticks_diff(self.app.clock(), t0)
            if left <= 0:
                raise OSError("send timed out")
            try:
                await asyncio.wait_for(_ready(s, True), left / 1000)
            except asyncio.TimeoutError:
                raise OSError("send timed out") from None

    async def packet(self, ms):
        """The broker's next packet (bytes), waiting at most ms; None when none came."""
        import asyncio

        s = self.sock
        t0 = self.app.clock()
        while True:
            n = _whole(self.inp)
            if n:
                p = bytes(self.inp[:n])
                self.inp = self.inp[n:]
                return p
            left = ms - ticks_diff(self.app.clock(), t0)
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(_ready(s, False), left / 1000)
            except asyncio.TimeoutError:
                return None
            got = s.read(_PACKET)
            if got is None:
                continue
            if not got:
                raise OSError("closed by the broker")
            self.inp += got
            if len(self.inp) > 2 * _PACKET:
                raise ValueError("flooded")

    async def answer(self, kind, pid=-1):
        """The broker's packet of kind (2 CONNACK, 4 PUBACK with packet id pid, 13
        PINGRESP) within _IO_MS; others are let go by."""
        t0 = self.app.clock()
        while True:
            left = _IO_MS - ticks_diff(self.app.clock(), t0)
            p = await self.packet(left) if left > 0 else None
            if p is None:
                raise OSError("no answer")
            if p[0] >> 4 == kind and (pid < 0 or (len(p) >= 4 and (p[2] << 8 | p[3]) == pid)):
                return p

    def client_of(self):
        """umqtt.simple's client, writing into the pipe."""
        from umqtt import simple

        simple.socket = _Sockets(self.pipe)  # (it is this module's alone)
        cfg = self.cfg
        c = simple.MQTTClient(("crib-" + self.board).encode(), cfg["host"], cfg["port"],
                              keepalive=_KEEPALIVE)
        c.set_last_will(self.topic[0], b"offline", True, 1)
        return c

    async def session(self):
        """One connection, from connecting to its failure (raised)."""
        self.say("connecting")
        await self.connect()
        if self.client is None:
            self.client = self.client_of()
        c = self.client
        try:
            c.connect()
        except _Wait:
            pass
        await self.send(self.pipe.take())
        p = await self.answer(2)
        if len(p) < 4 or p[3]:
            raise OSError("refused (%d)" % (p[3] if len(p) > 3 else -1))
        c.publish(self.topic[0], b"online", True, 0)
        await self.send(self.pipe.take())
        self.say("online")
        self.phase = -1  # (the history is looked at once connected)
        self.seen = -1
        sent_at = self.app.clock()
        ping = -1  # when a ping went unanswered
        while True:
            app = self.app
            now = app.clock()
            r = self.count()  # a game ended, or began: is one waiting?
            if r is not None:
                await self.send_game(r)
                self.phase = -1  # (the next, if any)
                sent_at = app.clock()
                continue
            if app.changes != self.seen and ticks_diff(now, self.state_at) >= _STATE_MS:
                self.seen = app.changes
                self.state_at = now
                c.publish(self.topic[1], self.state(), True, 0)
                await self.send(self.pipe.take())
                sent_at = app.clock()
            elif ticks_diff(now, sent_at) >= _PING_MS:
                c.ping()
                await self.send(self.pipe.take())
                sent_at = ping = app.clock()
            p = await self.packet(_POLL_MS)
            if p is not None and p[0] >> 4 == 13:
                ping = -1
            elif ping >= 0 and ticks_diff(app.clock(), ping) > _IO_MS:
                raise OSError("no answer to a ping")

    def state(self):
        """The live state's JSON: the page's, with the board's id and the seats' names."""
        from board.web import snapshot

        st = snapshot(self.app)
        st["board"] = self.board
        st["names"] = self.names[:self.app.m.players]
        return json.dumps(st).encode()

    async def send_game(self, r):
        """Record r as game N until the broker has it; then the outbox moves past it."""
        app = self.app
        n = self.box[0]
        m = app.m
        seats = []
        for i in range(m.players):
            seats.append({"name": self.names[i] if i < len(self.names) else None,
                          "side": m.side_of(i)})
        had = "cribbage.summary" in sys.modules
        room("board.export")
        from board.export import decode
        try:
            body = json.dumps({"id": "%s-%d" % (self.board, n), "board": self.board,
                               "seats": seats, "game": decode(r, n)}).encode()
        finally:
            if not had:
                forget("cribbage.summary")
        c = self.client
        try:
            c.publish(self.topic[2], body, False, 1)
        except _Wait:
            pass
        body = None
        await self.send(self.pipe.take())
        await self.answer(4, c.pid)
        self.box = [n + 1, mark(r)]
        save_outbox(app.store, self.box)
        self.sent += 1
        self.waiting = max(self.waiting - 1, 0)


def _last(store):
    """The history's last record (as a one-item list), or none."""
    room("board.export")
    from board.export import records

    last = []
    f = store.open("history")
    try:
        for r in records(f):
            last = [r]
    finally:
        if f:
            f.close()
    return last


async def task(app):
    """board/tasks.py's club task: publish while the board runs, if a broker is named."""
    global CURRENT
    try:
        cfg = app.hw["broker"]()
    except Exception as e:  # noqa: BLE001
        print("club: no broker:", repr(e))
        return
    if not cfg:
        return
    CURRENT = Publisher(app, cfg)
    await CURRENT.run()
