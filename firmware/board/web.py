"""The live page: the game on every phone at the table, served by the board (microdot).

Started by board/tasks.py as its own asyncio task when the board has a network (hw["net"]:
an async function giving the address to serve on, or None). The page (www/index.html, sent
from flash) draws the track from the layout's own data (/layout: every LED's place and what it
is) and follows the game over server-sent events (/events: the state as JSON, pushed within
_PUSH_MS of a change). The rest is read-only too: /state, /deals (this game deal by deal),
/stats, /history.csv, /history.json. Only a new game changes the board, and it asks for the
PIN the board shows on its display (POST /pin shows one; it serves the phone that asked, once).

Guarded against the network (nothing here can stop the game, nor reach its fault path):
- at most _CLIENTS connections at once, fewer than the Pico W's network stack has (lwIP: 5
  TCP connections), so a newcomer always gets in: when all are taken, the oldest connection
  still waiting for its request is dropped for it; if all are being answered, it gets 503;
- a request must arrive whole within _READ_MS, in lines of at most _LINE bytes and _HEADERS
  headers, with a body of at most _BODY bytes; anything else gets an error and is closed;
- short of memory (less than _SHED bytes free after a collection) a connection gets 503 at
  once, before anything is read; a MemoryError while answering is a 503 too; what a request
  loaded (the statistics, the deals' replay, the history's export) is dropped after it;
- writes (POST) must come from the board's own page: an Origin (or, without one, a Referer)
  naming another site is refused; a wrong PIN locks out only the phone that typed it.
The accept loop is the page's own (asyncio's ends on a MemoryError, its socket left open): a
connection it cannot take is closed and the loop goes on.
"""

import asyncio
import gc
import json
import os
import sys

from microdot import Microdot, Request, Response

from board import screen
from board.fault import room, forget
from board.snapshot import snapshot  # (the game as the page shows it)
from board.keypad import ticks_diff, ticks_add, sleep_ms
from board.modes import NEW_GAME, SAY, PIN, SUSPECT, MSG_TEXT, message

from micropython import const

_CLIENTS = const(4)     # connections served at once (lwIP on a Pico W has 5: one for a newcomer)
_STREAMS = const(3)     # of them live streams (a page holds one): one stays for the fetches
_BACKLOG = const(2)     # connections the network stack holds until they are taken
_SETTLE = const(4)      # turns of the loop a newcomer waits for a place, all being taken
_SHED = const(12288)    # bytes free below which a connection gets 503 at once
_READ_MS = const(4000)  # the whole request, from the connection
_WRITE_MS = const(5000)  # each write to a client (one that stops reading is dropped)
_LINE = const(512)      # the longest request line or header line
_HEADERS = const(24)    # header lines
_HEAD_BYTES = const(2048)  # the request line and its headers, in all
_BODY = const(64)       # a request's body (the PIN form)
_PIN_MSG = "web PIN "  # the display's PIN line (the page's copy masks the number)
_PUSH_MS = const(150)   # the live stream looks for a change this often
_PING_MS = const(2000)  # and says something at least this often: a page that is gone fails
# the write and frees its place (and proxies and phones keep the stream open)
_LOCK_MS = const(2000)  # a phone that asks a PIN or types a wrong one waits this long before
_LOCK_MAX = const(8)    # its next try, doubled each time (to 256x) until a new game is started
_PHONES = const(8)      # phones whose waits are remembered (the oldest wait is forgotten)
_TRIES = const(3)       # wrong tries before a PIN is taken off the board
_PIN_SHOWN_MS = const(60000)
_PING = b": ping\n\n"  # the live stream's comment (server-sent events)
_BUSY = b"HTTP/1.0 503 Busy\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n"
# the modules a request may load (the statistics, the deals' replay, the export): dropped
# after it unless the board had them loaded
_LAZY = ("board.stats", "board.export", "board.record", "board.history", "cribbage.summary")

# the commands the page gives the app (App.apply: the door every input goes through)
_NEW_GAME = (NEW_GAME,)
_SUSPECT = (SUSPECT,)
_QUIET = (SAY, message(""))

Request.max_readline = _LINE
Request.max_content_length = _BODY
Request.max_body_length = _BODY



def _root():
    """The folder the firmware runs from ("" on a board: its files are at /)."""
    p = __file__
    p = p[:p.rfind("/") + 1][:-1]  # the package's folder
    return p[:p.rfind("/") + 1] if "/" in p else ""


PAGE = _root() + "www/index.html"


class _Conn:
    """One client's connection: its stream while the request is read (whole lines of at most
    _LINE bytes, the request line and at most _HEADERS headers, _HEAD_BYTES in all, everything
    within _READ_MS of the connection; ValueError otherwise: microdot answers 400), and what
    the server keeps of it (its task; waiting: no request yet, the first to go for a
    newcomer; heavy: it loaded modules of _LAZY; live: a live stream)."""

    def __init__(self, stream, clock):
        self.s = stream
        self.clock = clock  # the board's (hw["clock"]: ms, wrapping at 2**30)
        self.t0 = clock()
        self.buf = b""
        self.lines = 0
        self.bytes = 0
        self.task = None
        self.waiting = True
        self.heavy = False
        self.live = False

    def start(self, coro):
        """Serve the connection: coro as its own task."""
        self.task = asyncio.create_task(coro)

    async def _more(self, n):
        left = _READ_MS - ticks_diff(self.clock(), self.t0)
        if left <= 0:
            raise ValueError("request too slow")
        got = await asyncio.wait_for(self.s.read(n), left / 1000)
        if not got:
            raise ValueError("request cut short")
        self.buf += got

    async def readline(self):
        self.lines += 1
        if self.lines > _HEADERS + 2:  # (the request line, the headers, the blank line)
            raise ValueError("too many headers")
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = self.buf[:i + 1]
                self.buf = self.buf[i + 1:]
                self.bytes += len(line)
                if self.bytes > _HEAD_BYTES:
                    raise ValueError("headers too long")
                return line
            if len(self.buf) > _LINE:
                raise ValueError("line too long")
            await self._more(128)

    async def readexactly(self, n):
        while len(self.buf) < n:
            await self._more(n - len(self.buf))
        got = self.buf[:n]
        self.buf = self.buf[n:]
        return got

    async def read(self, n=-1):
        if not self.buf:
            await self._more(n if n > 0 else 128)
        got = self.buf if n < 0 else self.buf[:n]
        self.buf = self.buf[len(got):]
        return got


class _Writer:
    """The client's stream for the answer: each write within _WRITE_MS, else the client is
    taken as gone (EPIPE: microdot then ends a live stream and its task)."""

    def __init__(self, stream):
        self.s = stream

    async def awrite(self, data):
        try:
            await asyncio.wait_for(self.s.awrite(data), _WRITE_MS / 1000)
        except asyncio.TimeoutError:
            raise OSError(32) from None  # (EPIPE)

    async def aclose(self):
        await self.s.aclose()

    def get_extra_info(self, what):
        return self.s.get_extra_info(what)


def _quiet(exc):
    """microdot's report of a bad request: a line, not a traceback (a flood of them would
    hold up the board's loop on its serial port)."""
    print("web: bad request:", repr(exc))


def _short():
    """True when the heap has less than _SHED bytes free, even after a collection."""
    if not hasattr(gc, "mem_free") or gc.mem_free() >= _SHED:
        return False
    gc.collect()
    return gc.mem_free() < _SHED


def _refuse(sock):
    """Tell a connection the board is busy and close it (no task, nearly no memory)."""
    try:
        sock.write(_BUSY)  # (a fresh connection's send buffer takes it at once)
    except Exception:  # noqa: BLE001  (gone already)
        pass
    try:
        sock.close()
    except Exception:  # noqa: BLE001
        pass


_ASK = const(0)  # a phone's record: when it may ask for a PIN again,
_TRY = const(1)  # when it may type one again (after a wrong one),
_DOUBLED = const(2)  # and how many times its waits have doubled


def _waits(web, now, ip, what):
    """ms the phone at ip waits before it may ask for a PIN (what _ASK) or type one (_TRY)
    again (0: none)."""
    w = web.phones.get(ip)
    if w is not None:
        left = ticks_diff(w[what], now)
        if 0 < left <= _LOCK_MS << _LOCK_MAX:
            return left
    return 0


def _strike(web, now, ip, what):
    """The phone at ip asked for a PIN (what _ASK) or typed a wrong one (_TRY): it waits
    before it does so again, twice as long as its last wait (until a new game is started
    from it). Only that phone waits: others, the owner's, never do for it."""
    phones = web.phones
    w = phones.get(ip)
    if w is None:
        if len(phones) >= _PHONES:  # the one whose waits end first is forgotten
            old = None
            for k in phones:
                if old is None or ticks_diff(max(phones[k][0], phones[k][1]),
                                             max(phones[old][0], phones[old][1])) < 0:
                    old = k
            del phones[old]
        w = phones[ip] = [now, now, 0]
    w[what] = ticks_add(now, _LOCK_MS << w[_DOUBLED])
    if w[_DOUBLED] < _LOCK_MAX:
        w[_DOUBLED] += 1


class Web(Microdot):
    """The board's server: microdot with the limits above, and the page's state."""

    def __init__(self, app):
        super().__init__()
        self.app = app
        self.conns = []  # the connections open (_Conn), oldest first
        self.streams = 0  # live streams open
        self.heavy = 0  # requests holding modules of _LAZY
        self.had = 0  # which of _LAZY the board had loaded when the first of them began
        self.seen = -1  # app.changes when the state below was made
        self.deals_at = -1  # the journal (events, phase) the deals below were made for
        self.deals = b"[]"
        self.state = b""  # the state as the live stream sends it (b"data: " JSON b"\n\n")
        self.own = []  # the board's own origins (serve sets them): writes come from them
        self.port = ""  # ":port" when not 80
        self.phones = {}  # ip -> its waits (_ASK, _TRY, _DOUBLED)
        self.pin = 0
        self.pin_for = ""  # the phone (ip) that asked for the PIN
        self.pin_at = -1  # when the PIN was shown on the display (-1: not since it was made)
        self.tries = 0  # wrong tries of this PIN
        self.hiding = None  # the task that takes the PIN off the LEDs
        self.new_pin()

    def new_pin(self):
        b = os.urandom(2)
        self.pin = (b[0] << 8 | b[1]) % 9000 + 1000
        self.pin_at = -1
        self.pin_for = ""
        self.tries = 0

    def take(self, sock, addr):
        """A connection accepted: served by a task of its own, or refused (503) when memory
        is short or every place is answering; the oldest one still waiting for its request
        makes room for it. Never raises."""
        try:
            sock.setblocking(False)
            if _short():
                _refuse(sock)
                return
            if len(self.conns) >= _CLIENTS:
                old = None
                for c in self.conns:
                    if c.waiting and c.task is not None:
                        old = c
                        break
                if old is None:
                    _refuse(sock)
                    return
                old.waiting = False  # (dropped once)
                self.conns.remove(old)
                old.task.cancel()
            c = _Conn(asyncio.StreamReader(sock, {"peername": addr}), self.app.clock)
            self.conns.append(c)
            try:
                c.start(self.serve(c, sock))
            except BaseException:
                self.conns.remove(c)
                raise
        except Exception:  # noqa: BLE001  (MemoryError: this one is not served)
            _refuse(sock)
            gc.collect()

    async def serve(self, c, sock):
        """One connection, start to end; whatever happens stays here."""
        try:
            await self.answer(c)
        except asyncio.CancelledError:
            pass  # dropped for a newcomer
        except Exception as e:  # noqa: BLE001  (a client that vanished mid-answer)
            print("web:", repr(e))
        finally:
            if c in self.conns:
                self.conns.remove(c)
            try:
                sock.close()
            except Exception:  # noqa: BLE001
                pass
            if c.heavy:
                self.unload()
            if c.live:
                self.streams -= 1
            c.s = c.buf = None

    async def answer(self, c):
        """microdot's handle_request, with a MemoryError answered 503 (not 400)."""
        writer = _Writer(c.s)
        req = res = None
        try:
            req = await Request.create(self, c, writer, writer.get_extra_info("peername"))
        except MemoryError:
            res = Response(b"short of memory: try again", 503, {"Retry-After": "3"})
        except Exception as e:  # noqa: BLE001
            _quiet(e)
        c.waiting = False
        if res is None:
            res = await self.dispatch_request(req)
            req = None  # (not kept while the answer goes: a live stream's lasts)
        if res != Response.already_handled:
            await res.write(writer)

    def load(self, req, name):
        """Module name for this request (req): loaded if there is room; dropped after the last
        request that loaded it, unless the board had it already."""
        c = req.sock[0] if req is not None and isinstance(req.sock, tuple) else None
        if c is not None and not c.heavy:
            if not self.heavy:
                had = 0
                for i in range(len(_LAZY)):
                    if _LAZY[i] in sys.modules:
                        had |= 1 << i
                self.had = had
            self.heavy += 1
            c.heavy = True
        room(name)
        __import__(name)
        return sys.modules[name]

    def unload(self):
        """A request that loaded modules ended: the last one drops them (gc frees them)."""
        self.heavy -= 1
        if self.heavy <= 0:
            self.heavy = 0
            for i in range(len(_LAZY)):
                if not self.had & 1 << i:
                    forget(_LAZY[i])  # (the deals made stay: bytes, a few hundred)
            gc.collect()

    def now_state(self):
        """The state as the live stream sends it (b"data: " JSON b"\n\n": one object every
        page's stream writes, /state its JSON), made again only when the app has changed
        since."""
        app = self.app
        if app.changes != self.seen:
            self.state = b""
            gc.collect()
            st = snapshot(app)
            if "lines" in st:  # the display may be showing the PIN: never on the network
                pin = str(self.pin)
                lines = st["lines"]
                for i in range(len(lines)):
                    lines[i] = lines[i].replace(pin, "****")
            self.state = ("data: %s\n\n" % json.dumps(st)).encode()
            self.seen = app.changes
        return self.state

    def now_deals(self, req=None):
        """deal_rows() as JSON bytes, made again only when the journal has changed since (the
        page asks at each phase and show, not at every card: the replay is the game's)."""
        m = self.app.m
        at = m.events << 3 | m.phase  # (undo at a game's start shows the last one's end: OVER)
        if at != self.deals_at:
            if _short():  # (the replay is the game's own: never begun without room)
                raise MemoryError
            self.load(req, "cribbage.summary")
            try:
                rows = deal_rows(m)
            except Exception:  # noqa: BLE001  (MemoryError: the replay is the game's own, in
                self.app.apply(_SUSPECT)  # place; the app restores it before the next entry)
                raise
            self.deals = json.dumps(rows).encode()
            self.deals_at = at
        return self.deals

    def origin_ok(self, req):
        """A write comes from the board's own page: its Origin (or, without one, its
        Referer's) is the board's address (or a .local name it is asked by); a client that
        sends neither is no browser on another site's page, and may."""
        h = req.headers
        o = h.get("Origin")
        if o is None:
            o = h.get("Referer")
            if o is None:
                return True
            i = o.find("/", o.find("//") + 2) if "//" in o else -1
            o = o[:i] if i > 0 else o
        if o in self.own:
            return True
        host = h.get("Host", "")
        return host.endswith(".local" + self.port) and o == "http://" + host


def _ip(addr):
    """The client's address as a key: (ip, port) on a board, a sockaddr's bytes on unix."""
    if isinstance(addr, tuple):
        return addr[0]
    if isinstance(addr, (bytes, bytearray)) and len(addr) >= 8:
        return bytes(addr[4:8])
    return addr


def routes(web):
    """The server's paths."""
    app = web.app

    @web.get("/")
    async def page(req):
        return Response.send_file(PAGE, content_type="text/html; charset=utf-8", max_age=60)

    @web.get("/state")
    async def state(req):
        return web.now_state()[6:-2], 200, {"Content-Type": "application/json"}

    @web.get("/events")
    async def events(req):
        if req.method != "GET":  # (HEAD: no stream to start)
            return "", 200, {"Content-Type": "text/event-stream"}
        c = req.sock[0] if isinstance(req.sock, tuple) else None
        if web.streams >= _STREAMS or c is None:  # (a stream is a connection's, to the end)
            return "busy", 503, {"Retry-After": "3"}
        web.streams += 1
        c.live = True  # (serve counts it off when the connection ends, however it ends)
        return _Stream(web), 200, {"Content-Type": "text/event-stream"}

    @web.get("/layout")
    async def layout(req):
        return _layout(app.layout), 200, {"Content-Type": "application/json"}

    @web.get("/deals")
    async def deals(req):
        return web.now_deals(req), 200, {"Content-Type": "application/json"}

    @web.get("/stats")
    async def stats(req):
        S = web.load(req, "board.stats")
        t = S.tally(app.store)
        out = []
        for side in range(len(t)):
            out.append({"name": screen.SIDE_NAMES[side], "counts": list(t[side]),
                        "lines": S.lines(t, side)})
        return json.dumps(out), 200, {"Content-Type": "application/json"}

    @web.get("/history.csv")
    async def history_csv(req):
        export = web.load(req, "board.export")
        return export.csv_lines(app.store), 200, {
            "Content-Type": "text/csv", "Content-Disposition": "attachment; filename=games.csv"}

    @web.get("/history.json")
    async def history_json(req):
        export = web.load(req, "board.export")
        return export.json_chunks(app.store), 200, {"Content-Type": "application/json"}

    @web.post("/pin")
    async def ask_pin(req):
        """The board shows a new PIN on its display, for the phone that asked (the page asks
        before a change); that phone waits before it may ask again (longer each time)."""
        if not web.origin_ok(req):
            return "not from the board's page", 403
        now = app.clock()
        ip = _ip(req.client_addr)
        left = _waits(web, now, ip, _ASK)
        if left:
            return "wait %d s" % (left // 1000 + 1), 429
        _strike(web, now, ip, _ASK)
        web.new_pin()
        web.pin_for = ip
        app.apply((SAY, message(_PIN_MSG + str(web.pin))))  # (the page's copy of the display
        # hides it)
        web.pin_at = now
        show_pin(web, True)
        return 204

    @web.post("/new-game")
    async def new_game(req):
        no = _pin_refused(web, req, req.form or {})
        if no:
            return no
        _pin_used(web, req)
        app.apply(_NEW_GAME)  # as the menu's (a fault in it is the game's: the app's own)
        return ("new game", 200) if app.err is None else (app.err, 500)

    # The club (board/publish.py): the broker's address and the connection's status, and
    # the seats' names, set with the PIN the board shows (as a new game is; a PIN serves once).
    def clubfiles():  # board/clubfiles.py, for the request (let go after: forget)
        room("board.clubfiles")
        from board import clubfiles as F
        return F

    @web.get("/club")
    async def club(req):
        P = sys.modules.get("board.publish")  # (loaded by its task: a broker is named)
        if P is not None:
            return json.dumps(P.info(app)), 200, {"Content-Type": "application/json"}
        had = "board.clubfiles" in sys.modules
        try:
            out = {"broker": None, "status": "off", "names": clubfiles().load_names(app.store)}
        finally:
            if not had:
                forget("board.clubfiles")
        return json.dumps(out), 200, {"Content-Type": "application/json"}

    @web.post("/names")
    async def names(req):
        form = req.form or {}
        no = _pin_refused(web, req, form)
        if no:
            return no
        had = "board.clubfiles" in sys.modules
        try:
            F = clubfiles()
            try:
                got = F.parse_names(form.get("names", ""))
            except ValueError as e:
                return str(e), 400  # (the PIN still works: the names can be put right)
            _pin_used(web, req)
            F.save_names(app.store, got)
        finally:
            F = None
            if not had:
                forget("board.clubfiles")
        P = sys.modules.get("board.publish")
        if P is not None:
            P.names_kept(got)  # (the state goes out again with them)
        return "names kept", 200

    @web.errorhandler(404)
    async def not_found(req):
        return "no such page", 404

    @web.errorhandler(MemoryError)
    async def short(req, e):
        return "short of memory: try again", 503, {"Retry-After": "3"}


def _pin_refused(web, req, form):
    """Why a write with the PIN in form is refused, as (text, status), or None: it must come
    from the board's own page, from the phone the PIN was shown for, within _PIN_SHOWN_MS, and
    that phone not waiting; a wrong PIN makes only that phone wait (doubling), and the third
    takes the PIN off the board. (The page's new game and the seats' names: one check.)"""
    if not web.origin_ok(req):
        return "not from the board's page", 403
    now = web.app.clock()
    ip = _ip(req.client_addr)
    left = _waits(web, now, ip, _TRY)
    if left:
        return "locked: wait %d s" % (left // 1000 + 1), 429
    shown = web.pin_at >= 0 and 0 <= ticks_diff(now, web.pin_at) < _PIN_SHOWN_MS
    if not shown or web.pin_for != ip:
        return "ask for the PIN first", 403  # (no PIN of this phone's to guess)
    if form.get("pin", "") != str(web.pin):
        _strike(web, now, ip, _TRY)  # (its own wait: nobody else's)
        web.tries += 1
        if web.tries >= _TRIES:  # enough guesses at this one
            web.new_pin()
            show_pin(web, False)
        return "wrong PIN", 403
    return None


def _pin_used(web, req):
    """The PIN served: it is taken off the board (a PIN serves once), the phone's waits start
    again."""
    web.phones.pop(_ip(req.client_addr), None)
    web.new_pin()
    show_pin(web, False)


def show_pin(web, on):
    """The PIN on the LEDs of a board without a display (board/state.py marks it), for
    _PIN_SHOWN_MS; the display says it in its message line."""
    app = web.app
    if web.hiding is not None:  # one PIN at a time: the last one's timer goes
        web.hiding.cancel()
        web.hiding = None
    if on:
        web.hiding = asyncio.create_task(_hide_pin(web))
    if app.display is None:
        app.apply((PIN, web.pin if on else -1))
    elif not on and _says(app, _PIN_MSG):
        app.apply(_QUIET)  # a PIN that no longer works leaves the display


async def _hide_pin(web):
    """The PIN shown expires (its time is up, on any board). Its own task: nothing escapes."""
    try:
        await sleep_ms(_PIN_SHOWN_MS)
        web.hiding = None
        web.pin_at = -1
        show_pin(web, False)
    except Exception as e:  # noqa: BLE001  (MemoryError: the PIN is refused anyway, pin_at)
        print("web:", repr(e))


def deal_rows(m):
    """This game deal by deal: [dealer side, [hand, crib, play] per side (None: not shown),
    all each side pegged in the deal (his heels, penalties and muggins too: the race's
    steps, which add up to the score)]. The game replays itself (cribbage/summary.py): a
    failure half way is raised, the game restored or to be restored (app.broken: see
    now_deals)."""
    room("cribbage.summary")
    from cribbage import summary as S
    try:
        b = b"".join(S.dumps(m, 255))
    except ValueError:
        return []
    out = []
    for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(b, 0, m.sides):
        row = []
        got = []
        at = m.side_of(dealer)
        for side in range(m.sides):
            c = crib if side == at else None
            row.append([hands[side], c, plays[side] + pegs[side]])
            got.append((hands[side] or 0) + (c or 0) + plays[side] + pegs[side] + pens[side]
                       + mugs[side] + (heels if side == at else 0))
        out.append([at, row, got])
    return out


def _layout(L):
    """Every LED's place (mm) and what it is, a band of the board at a time (streamed)."""
    from board.geometry import KIND_NAMES
    yield '{"count":%d,"lanes":%d,"holes":%d,"leds":[' % (L.count, L.lanes, L.holes)
    n = L.count
    for i in range(0, n, 30):
        part = []
        for p in range(i, min(i + 30, n)):
            x, y = L.xy(p)
            kind, lane, k = L.what(p)
            part.append('[%.1f,%.1f,"%s",%d,%d]' % (x, y, KIND_NAMES[kind], lane, k))
        yield ("," if i else "") + ",".join(part)
    yield "]}"


class _Stream:
    """One page's live stream (GET /events), the body microdot writes: the state whenever it
    changes (web.state: the same bytes for every page), a comment now and then (a page that
    is gone fails the write). Nothing waits in between: a page that stops reading holds up
    its own write, which ends the stream (_Writer, _WRITE_MS)."""

    def __init__(self, web):
        self.web = web
        self.seen = -1  # app.changes when the state last went
        self.quiet = -1  # ms since something went (-1: nothing has yet)

    def __aiter__(self):
        return self

    async def __anext__(self):
        web = self.web
        if self.quiet >= 0:
            await sleep_ms(_PUSH_MS)
        while True:
            if web.app.changes != self.seen:
                data = web.now_state()
                self.seen = web.seen
                self.quiet = 0
                return data
            self.quiet += _PUSH_MS
            if self.quiet >= _PING_MS:
                self.quiet = 0
                return _PING
            await sleep_ms(_PUSH_MS)


PAGE_MSG = "page "  # the display's line about the page: "page 192.168.1.42" while it is served


async def serve(app, addr):
    """Serve the page at addr (the network is joined: board/tasks.py's web task) until the
    server cannot go on (its socket failed): then it raises, its connections closed, and the
    display no longer gives its address."""
    hw = app.hw
    port = hw.get("web_port", 80)
    import microdot.microdot as md
    md.print_exception = _quiet
    web = Web(app)
    web.port = "" if port == 80 else ":%d" % port
    web.own.append("http://" + addr + web.port)
    routes(web)
    gc.collect()
    try:
        await _listen(web, hw.get("web_host", "0.0.0.0"), port, addr)
    finally:
        for c in web.conns:
            if c.task is not None:
                c.task.cancel()
        web.new_pin()
        show_pin(web, False)


async def _listen(web, host, port, addr):
    """The accept loop: each connection to web.take (which never raises)."""
    import socket

    ai = socket.getaddrinfo(host, port)[0]
    s = socket.socket(ai[0])
    try:
        s.setblocking(False)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(ai[-1])
        s.listen(_BACKLOG)
        where = addr + web.port
        print("web: the page is at http://%s/" % where)
        say(web.app, PAGE_MSG + where, True)
        while True:
            await _Incoming(s)
            try:
                sock, who = s.accept()
            except OSError:
                continue  # (gone before it was taken)
            for _ in range(_SETTLE):  # all places taken: a connection that has just sent
                if len(web.conns) < _CLIENTS:  # its answer ends first (its client may have
                    break  # come back before its task closed it)
                await sleep_ms(0)
            web.take(sock, who)
    finally:
        s.close()


class _Incoming:
    """Awaited: until listening socket s has a connection (as asyncio's own server waits)."""

    def __init__(self, s):
        self.s = s

    def __await__(self):
        yield getattr(asyncio, "core")._io_queue.queue_read(self.s)  # noqa: B009 (pyright)

    __iter__ = __await__  # (MicroPython awaits through it)


def say(app, text, always=False):
    """The display's line about the page (app.msg) says text; unless always, only if that
    line is still the page's (another message may have taken its place meanwhile)."""
    if always or _says(app, PAGE_MSG):
        app.apply((SAY, message(text)))


def _says(app, start):
    """True if the display's message line is text starting with start."""
    msg = app.msg
    return msg[0] == MSG_TEXT and msg[1].startswith(start)
