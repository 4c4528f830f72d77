"""The live page: the game on every phone at the table, served by the board (microdot).

Started by board/tasks.py as its own asyncio task when the board has a network (hw["net"]:
an async function giving the address to serve on, or None). The page (www/index.html, sent
from flash) draws the track from the layout's own data (/layout: every LED's place and what it
is) and follows the game over server-sent events (/events: the state as JSON, pushed within
_PUSH_MS of a change). The rest is read-only too: /state, /deals (this game deal by deal),
/stats, /history.csv, /history.json. Only a new game changes the board, and it asks for the
PIN the board shows on its display (POST /pin shows it; wrong PINs lock the form out, longer
each time).

Guarded against the network: at most _CLIENTS connections at once (others get 503), a request
must arrive whole within _READ_MS, in lines of at most _LINE bytes and _HEADERS headers, with
a body of at most _BODY bytes; anything else gets an error and the connection is closed. The
game never waits for a client: every handler is short, the live stream yields between pushes.
"""

import asyncio
import gc
import json
import os

from microdot import Microdot, Request, Response
from microdot.sse import sse_response

from cribbage import match as M
from cribbage.cards import fmt
from board import screen
from board.fault import room
from board.keypad import ticks_diff, sleep_ms
from board.modes import NEW_GAME
from version import VERSION

from micropython import const

_CLIENTS = const(6)     # connections served at once
_STREAMS = const(4)     # of them live streams (a page holds one): 2 stay for its fetches
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
_LOCK_MS = const(2000)  # a wrong PIN locks the form for this, doubled each time (to 256x)
_LOCK_MAX_MS = const(512000)
_NEW_PIN_AFTER = const(5)  # wrong PINs before the board picks a new PIN
_PIN_SHOWN_MS = const(60000)
_PIN_EVERY_MS = const(2000)  # the board shows a PIN at most this often
_QUEUE = const(3)  # states a live stream may have waiting: more, and its page is gone

Request.max_readline = _LINE
Request.max_content_length = _BODY
Request.max_body_length = _BODY

PHASES = ("deal", "starter", "play", "show", "over")  # by cribbage.match DEAL..OVER
MATCHES = ("games", "best of 3", "best of 5", "ACC points")  # by cribbage.events SINGLE..ACC
WHY = ("", "play", "go", "heels", "hand", "crib", "peg", "penalty", "muggins")


def _root():
    """The folder the firmware runs from ("" on a board: its files are at /)."""
    p = __file__
    p = p[:p.rfind("/") + 1][:-1]  # the package's folder
    return p[:p.rfind("/") + 1] if "/" in p else ""


PAGE = _root() + "www/index.html"


class _Reader:
    """The client's stream while its request is read: whole lines of at most _LINE bytes, the
    request line and at most _HEADERS headers, _HEAD_BYTES in all, everything within _READ_MS
    of the connection; ValueError otherwise (microdot answers 400)."""

    def __init__(self, stream, clock):
        self.s = stream
        self.clock = clock  # the board's (hw["clock"]: ms, wrapping at 2**30)
        self.t0 = clock()
        self.buf = b""
        self.lines = 0
        self.bytes = 0

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


class Web(Microdot):
    """The board's server: microdot with the limits above, and the page's state."""

    def __init__(self, app):
        super().__init__()
        self.app = app
        self.busy = 0
        self.streams = 0  # live streams open
        self.seen = -1  # app.changes when the state below was made
        self.deals_at = -1  # the journal (events, phase) the deals below were made for
        self.deals = b"[]"
        self.pin_shown = -1  # when a PIN was last shown (for _PIN_EVERY_MS)
        self.state = b""
        self.pin = 0
        self.pin_at = -1  # when the PIN was shown on the display (-1: not since it was made)
        self.fails = 0
        self.locked_until = -1  # the PIN form is locked until then (-1: not locked)
        self.hiding = None  # the task that takes the PIN off the LEDs
        self.new_pin()

    def new_pin(self):
        b = os.urandom(2)
        self.pin = (b[0] << 8 | b[1]) % 9000 + 1000
        self.pin_at = -1

    async def handle_request(self, reader, writer):
        if self.busy >= _CLIENTS:
            try:
                await writer.awrite(b"HTTP/1.0 503 Busy\r\nContent-Length: 0\r\n\r\n")
                await writer.aclose()
            except Exception:  # noqa: BLE001  (the client went: nothing to tell)
                pass
            return
        self.busy += 1
        try:
            await super().handle_request(_Reader(reader, self.app.clock), _Writer(writer))
        except Exception as e:  # noqa: BLE001  (a client that vanished mid-answer)
            print("web:", repr(e))
        finally:
            self.busy -= 1
            try:
                await writer.aclose()
            except Exception:  # noqa: BLE001
                pass
            gc.collect()

    def now_state(self):
        """The state as JSON bytes, made again only when the app has changed since."""
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
            self.state = json.dumps(st).encode()
            self.seen = app.changes
        return self.state

    def now_deals(self):
        """deal_rows() as JSON bytes, made again only when the journal has changed since (the
        page asks at each phase and show, not at every card: the replay is the game's)."""
        m = self.app.m
        at = m.events << 3 | m.phase  # (undo at a game's start shows the last one's end: OVER)
        if at != self.deals_at:
            try:
                rows = deal_rows(m)
            except Exception:  # noqa: BLE001  (MemoryError: the replay is the game's own, in
                self.app.broken = True  # place; the app restores it before the next entry)
                raise
            self.deals = json.dumps(rows).encode()
            self.deals_at = at
        return self.deals

    def locked(self, now):
        """ms the PIN form stays locked, or 0 (a lock past its time, or from more than
        _LOCK_MAX_MS ago on the wrapping clock, is gone)."""
        if self.locked_until >= 0:
            left = ticks_diff(self.locked_until, now)
            if 0 < left <= _LOCK_MAX_MS:
                return left
            self.locked_until = -1
        return 0


def snapshot(app):
    """What the page shows, as a dict (JSON): the scores, pegs (as LED numbers on the layout),
    games won, whose deal/turn/crib, the count and the series, the last points and why, the
    display's lines, the last show's cards and count."""
    m = app.m
    L = app.layout
    sides = m.sides
    lanes = L.lanes
    pegs = []
    for s in range(sides):
        lane = s % lanes
        pegs.append([L.peg(lane, min(m.score[s], m.target), m.target),
                     L.peg(lane, min(m.back[s], m.target), m.target) if m.back[s] else -1,
                     s // lanes])
    skunk = []
    for lane in range(min(lanes, sides)):
        skunk.append([L.peg(lane, m.skunk_line, m.target) if m.skunk_line else -1,
                      L.peg(lane, m.double_line, m.target) if m.double_line else -1])
    games = []
    for lane in range(lanes):
        k = []
        for i in range(L.games):
            k.append(L.games_led(lane, i))
        games.append(k)
    pile = []
    for c in m.pile:
        pile.append(fmt(c))
    phase = m.phase
    turn = m.turn
    st = {
        "version": VERSION, "changes": app.changes,
        "players": m.players, "sides": sides, "target": m.target,
        "names": screen.SIDE_NAMES[:sides],
        "phase": PHASES[phase] if 0 <= phase < len(PHASES) else str(phase),
        "deal": m.deals, "score": list(m.score), "back": list(m.back),
        "games": list(m.games[:sides]),
        "match": MATCHES[m.mode] if 0 <= m.mode < len(MATCHES) else "",
        "match_won": m.match_won(), "pegs": pegs, "skunk": skunk, "games_leds": games,
        "dealer": m.dealer, "dealer_side": m.side_of(m.dealer) if m.dealer >= 0 else -1,
        "turn": turn, "turn_side": m.side_of(turn) if turn >= 0 else -1,
        "crib_next": bool(m.crib_next), "count": m.count, "pile": pile,
        "starter": fmt(m.starter_card) if m.starter_card >= 0 else "",
        "last": {"side": m.last_side, "points": m.last_points,
                 "why": WHY[m.last_why] if 0 <= m.last_why < len(WHY) else ""},
        "winner": m.winner,
        "result": screen.RESULTS[m.result] if 0 <= m.result < len(screen.RESULTS) else "",
        "error": app.err or "",
        "show": last_show(m),
    }
    if app.display is not None:
        st["lines"] = app.lines()
    return st


def last_show(m):
    """The newest hand or crib shown with its cards in this deal: {"cards", "starter",
    "crib", "points", "said"} (the spoken count), or None."""
    from cribbage.events import E_SHOW, E_DEAL, size
    from cribbage.journal import committed

    room("cribbage.spoken")  # (a board without a display has not loaded it)
    from cribbage.spoken import breakdown, spoken

    if m.phase != M.SHOW and m.phase != M.DEAL and m.phase != M.OVER:
        return None
    e = committed(m)  # the journal's events, in place
    i = 0
    end = len(e)
    last = -1  # where the newest show with cards is, and which show of its deal it was
    at = shows = 0
    while i < end:
        k = e[i]
        if k & 0xF0 == E_SHOW:
            if k & 1:
                last = i
                at = shows
            shows += 1
        elif k & 0xF0 == E_DEAL:
            last = -1
            shows = 0
        i += size(e, i, m.players)
    if last < 0 or m.starter_card < 0:
        return None
    cards = bytes(e[last + 1:last + 5])
    crib = at == m.players  # a deal shows each seat's hand, then the crib
    items = breakdown(cards, m.starter_card, crib)
    pts = 0
    for it in items:
        pts += it[2]
    out = []
    for c in cards:
        out.append(fmt(c))
    return {"cards": out, "starter": fmt(m.starter_card), "crib": crib, "points": pts,
            "said": spoken(items)}


def routes(web):
    """The server's paths."""
    app = web.app

    @web.get("/")
    async def page(req):
        return Response.send_file(PAGE, content_type="text/html; charset=utf-8", max_age=60)

    @web.get("/state")
    async def state(req):
        return web.now_state(), 200, {"Content-Type": "application/json"}

    @web.get("/events")
    async def events(req):
        if req.method != "GET":  # (HEAD: no stream to start)
            return "", 200, {"Content-Type": "text/event-stream"}
        if web.streams >= _STREAMS:
            return "busy", 503
        return sse_response(req, _live, web)

    @web.get("/layout")
    async def layout(req):
        return _layout(app.layout), 200, {"Content-Type": "application/json"}

    @web.get("/deals")
    async def deals(req):
        return web.now_deals(), 200, {"Content-Type": "application/json"}

    @web.get("/stats")
    async def stats(req):
        room("board.stats")
        from board import stats as S
        t = S.tally(app.store)
        out = []
        for side in range(len(t)):
            out.append({"name": screen.SIDE_NAMES[side], "counts": list(t[side]),
                        "lines": S.lines(t, side)})
        return json.dumps(out), 200, {"Content-Type": "application/json"}

    @web.get("/history.csv")
    async def history_csv(req):
        room("board.export")
        from board import export
        return export.csv_lines(app.store), 200, {
            "Content-Type": "text/csv", "Content-Disposition": "attachment; filename=games.csv"}

    @web.get("/history.json")
    async def history_json(req):
        room("board.export")
        from board import export
        return export.json_chunks(app.store), 200, {"Content-Type": "application/json"}

    @web.post("/pin")
    async def ask_pin(req):
        """The board shows a new PIN on its display (the page asks before a change)."""
        now = app.clock()
        if web.pin_shown >= 0 and 0 <= ticks_diff(now, web.pin_shown) < _PIN_EVERY_MS:
            return "a PIN was shown just now", 429
        web.new_pin()
        app.msg = _PIN_MSG + str(web.pin)  # (the page's copy of the display hides it)
        web.pin_at = web.pin_shown = now
        show_pin(web, True)
        return 204

    @web.post("/new-game")
    async def new_game(req):
        now = app.clock()
        left = web.locked(now)
        if left:
            return "locked: wait %d s" % (left // 1000 + 1), 429
        pin = (req.form or {}).get("pin", "")
        shown = web.pin_at >= 0 and 0 <= ticks_diff(now, web.pin_at) < _PIN_SHOWN_MS
        if not shown or pin != str(web.pin):
            web.fails += 1  # (only a PIN that works starts the count again)
            web.locked_until = (now + (_LOCK_MS << min(web.fails - 1, 8))) & 0x3FFFFFFF
            if web.fails % _NEW_PIN_AFTER == 0:
                web.new_pin()
                show_pin(web, False)
            return "wrong PIN" if shown else "ask for the PIN first", 403
        web.fails = 0
        web.new_pin()  # a PIN serves once
        show_pin(web, False)
        room("board.menu")
        app.err = None  # as the menu's new game after a key (app.key), a fault handled as one
        try:
            app.apply((NEW_GAME,))
            app._done()
        except Exception as e:  # noqa: BLE001
            app.recover(e)
        return ("new game", 200) if app.err is None else (app.err, 500)

    @web.errorhandler(404)
    async def not_found(req):
        return "no such page", 404


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
        app.pin = web.pin if on else -1
        from board import state
        state.update(app)
    elif not on and isinstance(app.msg, str) and app.msg.startswith(_PIN_MSG):
        app.msg = None  # a PIN that no longer works leaves the display
    app.changes += 1
    app.view.dirty = True


async def _hide_pin(web):
    """The PIN shown expires (its time is up, on any board)."""
    await sleep_ms(_PIN_SHOWN_MS)
    web.hiding = None
    web.pin_at = -1
    show_pin(web, False)


def deal_rows(m):
    """This game deal by deal: [dealer side, [hand, crib, play] per side] (None: not shown).
    The game replays itself (cribbage/summary.py): a failure half way is raised, the game
    restored or to be restored (app.broken: see now_deals)."""
    room("cribbage.summary")
    from cribbage import summary as S
    try:
        b = b"".join(S.dumps(m, 255))
    except ValueError:
        return []
    out = []
    for dealer, _, crib, hands, plays, pegs, _, _ in S.rows(b, 0, m.sides):
        row = []
        at = m.side_of(dealer)
        for side in range(m.sides):
            row.append([hands[side], crib if side == at else None, plays[side] + pegs[side]])
        out.append([at, row])
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


async def _live(req, sse, web):
    """One page's live stream: the state whenever it changes, a comment now and then. It ends
    when its page stops taking them (the states wait in sse.queue: a client gone without a
    word, or one that answers HEAD, never drains it)."""
    web.streams += 1
    try:
        await _push(sse, web)
    finally:
        web.streams -= 1


async def _push(sse, web):
    sent = -1
    quiet = 0
    while len(sse.queue) < _QUEUE:
        if web.app.changes != sent:
            data = web.now_state()
            sent = web.seen
            await sse.send(data)
            quiet = 0
        else:
            quiet += _PUSH_MS
            if quiet >= _PING_MS:
                await sse.send("ping", comment=True)
                quiet = 0
        await sleep_ms(_PUSH_MS)


async def serve(app, addr):
    """Serve the page at addr (the network is joined: board/tasks.py's web task) forever."""
    hw = app.hw
    port = hw.get("web_port", 80)
    where = addr if port == 80 else "%s:%d" % (addr, port)
    print("web: the page is at http://%s/" % where)
    app.msg = "page %s" % where
    app.changes += 1
    app.view.dirty = True
    import microdot.microdot as md
    md.print_exception = _quiet
    web = Web(app)
    routes(web)
    gc.collect()
    await web.start_server(host=hw.get("web_host", "0.0.0.0"), port=port)
