"""The board's games to the club: its live state and each finished game, to an MQTT broker.

Started by board/tasks.py as its own asyncio task on a board with a network and a broker named
in its configuration (hw["broker"]: boards/wifi.py reads the "broker" of wifi.json, written by
`make flash WIFI=...`). The packets are made by micropython-lib's MQTT client (umqtt.simple),
which is never let near the network: its calls block on their socket, so it writes into
memory (board/clubfiles.py's _Pipe) and this task moves the bytes over a non-blocking
socket, every wait awaited and bounded (_IO_MS). The game never waits for the network: a
broker that is down, slow or
silent costs the board a status mark (shown on the page) and a try again later (_RETRY_MS,
doubling to 32x).

Topics, under PREFIX/BOARD/ (cribbage/t1/ by default):
  status  "online", retained; "offline" (retained) is the connection's last will
  state   retained, QoS 0: what the page's GET /state answers (board/web.py's snapshot) with
          "board" and "names" (a short name per seat, or null), on change, at most every
          _STATE_MS
  game    QoS 1: {"id": "BOARD-N", "board": BOARD, "seats": [{"name", "side"}, ...] (seat i
          plays for side k), "game": board/export.py's decode(record, N)}

The outbox (board/clubfiles.py): a finished game is in the history (board/history.py) once
the next begins. The file "outbox" (saved as the game is: board/storage.py, atomic) holds the
next game's number N and the mark of the last record the broker took (its head and checksum).
The first record after the mark is sent as BOARD-N until the broker acknowledges it (PUBACK);
then the mark moves past it and N grows, in one save. A power cut, a broker restart or a
Wi-Fi drop before that: it is sent again, with the same id (the club keeps one game per id).
The history is looked at when a game is over and the next begun, not at every phase.

Memory: what the publisher loads for a moment (umqtt.simple for each packet, the outbox's and
the game's modules for each game) it lets go after; only this module and its state stay.
"""

import sys

from micropython import const

from board.fault import forget, room
from board.keypad import sleep_ms, ticks_diff

_IO_MS = const(5000)  # connecting, a packet sent, an answer awaited: longer, and the
# connection is dropped (a broker that is a black hole, a Wi-Fi gone)
_RETRY_MS = const(2000)  # after a failure, doubling to 32x (a minute)
_STATE_MS = const(3000)  # the live state at most this often
_POLL_MS = const(250)  # the task looks for work this often
_PING_MS = const(30000)  # a ping after this long without a packet sent (the keepalive: 60 s,
# board/clubfiles.py's CONNECT)
_PACKET = const(512)  # the longest packet taken from the broker (it sends acknowledgements)
_OVER = const(4)  # cribbage.match.OVER
_CONNECT = const(0)  # the packets made with umqtt.simple (board/clubfiles.py's packet)
_PUBLISH = const(1)
_PING = const(2)

CURRENT = None  # the running Publisher (the page shows its status)


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


def _call(what, *args):
    """board/clubfiles.py's function what(*args): the module loaded for it and let go."""
    had = "board.clubfiles" in sys.modules
    room("board.clubfiles")
    from board import clubfiles

    try:
        return getattr(clubfiles, what)(*args)
    finally:
        clubfiles = None
        if not had:
            forget("board.clubfiles")


def info(app):
    """What the page shows of the club: the broker, the connection's status, the names."""
    return _call("info", CURRENT, app)


def _say(pub, text):
    if text != pub.status:
        print("club:", text)
        pub.status = text


def names_kept(names):
    """The page has kept new names: the state goes out again with them."""
    if CURRENT is not None:
        CURRENT.names = names
        CURRENT.seen = -1


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
        self.names = self.box = None
        _call("start", self)  # (the names and the outbox, from flash)
        self.waiting = 0  # games after the mark, when last looked
        self.sent = 0  # games the broker took since the board started
        self.seen = -1  # app.changes when the state was last published
        self.state_at = 0
        self.phase = -1  # the game's phase when the history was last looked at
        self.pid = 0  # the last packet id
        self.sock = None
        self.io = None  # asyncio's stream of the socket
        self.up = False  # connected (the broker has answered)
        self.hello = None  # the CONNECT packet
        self.inp = bytearray()

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
                    _say(self, "down: %s" % (e.args[0] if e.args else type(e).__name__))
                except Exception:  # noqa: BLE001
                    self.status = "down"
            s = self.sock  # (closed: a new one next time)
            self.sock = self.io = None
            self.up = False
            self.inp = bytearray()
            if s is not None:
                try:
                    s.close()
                except Exception:  # noqa: BLE001
                    pass
            t0 = self.app.clock()
            while ticks_diff(self.app.clock(), t0) < wait:
                await sleep_ms(_POLL_MS << 2)
                self.count()  # (the page says how many games wait)
            wait = min(wait * 2, _RETRY_MS << 5)

    def count(self):
        """After a game is over (or at the start): how many games wait (the history after
        the mark), and the first of them (or None)."""
        ph = self.app.m.phase
        if ph == self.phase or (self.phase >= 0 and self.phase != _OVER):
            self.phase = ph
            return None
        self.phase = ph
        return _call("waiting", self)

    async def send(self, parts):
        """A packet's parts (a list of bytes) to the broker, each within _IO_MS."""
        import asyncio

        io = self.io
        if io is None:
            raise OSError("closed")
        for i in range(len(parts)):
            data = parts[i]
            parts[i] = None  # (nothing is held once it is sent)
            n = io.s.write(data) if self.up else 0  # what the socket takes now (connected)
            if n is not None and n >= len(data):
                continue
            io.write(memoryview(data)[n or 0:])  # the rest, when it can be written
            data = None
            try:
                await asyncio.wait_for(io.drain(), _IO_MS / 1000)
            except asyncio.TimeoutError:
                raise OSError("no answer") from None

    async def packet(self, ms):
        """The broker's next packet (bytes), waiting at most ms; None when none came."""
        import asyncio

        io = self.io
        if io is None:
            raise OSError("closed")
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
                got = await asyncio.wait_for(io.read(_PACKET), left / 1000)
            except asyncio.TimeoutError:
                return None
            if not got:
                raise OSError("closed by the broker")
            self.inp += got
            if len(self.inp) > 2 * _PACKET:
                raise ValueError("flooded")

    async def answer(self, kind, pid=-1):
        """The broker's packet of kind (2 CONNACK, 4 PUBACK with packet id pid) within
        _IO_MS; others are let go by."""
        t0 = self.app.clock()
        while True:
            left = _IO_MS - ticks_diff(self.app.clock(), t0)
            p = await self.packet(left) if left > 0 else None
            if p is None:
                raise OSError("no answer")
            if p[0] >> 4 == kind and (pid < 0 or (len(p) >= 4 and (p[2] << 8 | p[3]) == pid)):
                return p

    async def session(self):
        """One connection, from connecting to its failure (raised)."""
        import asyncio
        import socket

        _say(self, "connecting")
        c = self.cfg  # the TCP connection, begun without blocking (the CONNECT is sent once
        ai = socket.getaddrinfo(c["host"], c["port"], 0, socket.SOCK_STREAM)[0]  # it is made)
        s = socket.socket(ai[0], ai[1], ai[2])
        self.sock = s
        s.setblocking(False)
        try:
            s.connect(ai[-1])
        except OSError as e:
            if e.args[0] not in (115, 119):  # EINPROGRESS (unix, lwIP)
                raise
        self.io = getattr(asyncio, "StreamReader")(s)  # noqa: B009 (asyncio's Stream: it
        # reads and writes, awaiting the socket; pyright's stubs split it in two)
        if self.hello is None:  # (the same each time: made once, no module loaded again)
            self.hello = b"".join(_call("packet", self, _CONNECT, ()))
        await self.send([self.hello])
        p = await self.answer(2)
        if len(p) < 4 or p[3]:
            raise OSError("refused (%d)" % (p[3] if len(p) > 3 else -1))
        self.up = True
        await self.send(_call("packet", self, _PUBLISH, (self.topic[0], b"online", True, 0)))
        _say(self, "online")
        self.phase = -1  # (the history is looked at once connected)
        self.seen = -1
        app = self.app
        sent_at = app.clock()
        ping = -1  # when a ping went unanswered
        while True:
            now = app.clock()
            r = self.count()  # a game over and the next begun: one to send?
            if r is not None:
                await self.send_game(r)
                self.phase = -1  # (the next, if any)
                sent_at = app.clock()
                continue
            if app.changes != self.seen and ticks_diff(now, self.state_at) >= _STATE_MS:
                self.seen = app.changes
                self.state_at = now
                await self.send(_call("state", self))
                sent_at = app.clock()
            elif ticks_diff(now, sent_at) >= _PING_MS:
                await self.send(_call("packet", self, _PING, ()))
                sent_at = ping = app.clock()
            p = await self.packet(_POLL_MS)
            if p is not None and p[0] >> 4 == 13:  # PINGRESP
                ping = -1
            elif ping >= 0 and ticks_diff(app.clock(), ping) > _IO_MS:
                raise OSError("no answer to a ping")

    async def send_game(self, r):
        """Record r as game N until the broker has it; then the outbox moves past it."""
        await self.send(_call("game", self, r))
        await self.answer(4, self.pid)
        _call("sent", self, r)


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
