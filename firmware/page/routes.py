"""The live page: the game on every phone at the table, served by the board.

Started by board/tasks.py as its own asyncio task when the board has a network (hw["net"]:
an async function giving the address to serve on, or None): serve(). The page (www/index.html,
sent from flash) draws the track from the layout's own data (/layout: every LED's place and
what it is) and follows the game over server-sent events (/events: the state as JSON, pushed
within _PUSH_MS of a change). The rest is read-only too: /state, /deals (this game deal by
deal), /stats, /history.csv, /history.json, /club. Only a new game, the seats' names and an
update change the board, and they ask for the PIN the board shows on its display (the writes,
page/writes.py, and the PIN, page/pin.py: each loaded when a phone writes, let go after).

The connections and their bounds are page/server.py's, the requests' parsing, the route table
and the answers page/http.py's; here, the routes: a MemoryError while answering is a 503;
what a request loaded (the statistics, the deals' replay, the layout's rows, the history's
export, the writes) is dropped after it (page/lazy.py); writes (POST) must come from the
board's own page: an Origin (or, without one, a Referer) naming another site is refused.
The club's publisher (publish/task.py), when the board has one, is handed in.
"""

import json

from board.snapshot import snapshot  # (the game as the page shows it)
from board.keypad import sleep_ms
from board.modes import SAY, MSG_TEXT, message
from page.http import Routes
from page.server import Server
from page.lazy import Lazy

from micropython import const

_PUSH_MS = const(150)   # the live stream looks for a change this often
_PING_MS = const(2000)  # and says something at least this often: a page that is gone fails
# the write and frees its place (and proxies and phones keep the stream open)
_PING = b": ping\n\n"  # the live stream's comment (server-sent events)


PAGE_MSG = "page "  # the display's line about the page: "page 192.168.1.42" while it is served


def _root():
    """The folder the firmware runs from ("" on a board: its files are at /)."""
    p = __file__
    p = p[:p.rfind("/") + 1][:-1]  # the package's folder
    return p[:p.rfind("/") + 1] if "/" in p else ""


PAGE = _root() + "www/index.html"


class Web(Routes):
    """The board's page: its routes (routes()) and what they keep. club: the publisher
    (publish/task.py's Publisher) or None."""

    def __init__(self, app, club=None):
        super().__init__()
        self.app = app
        self.club = club
        self.pin = None  # page/pin.py's Pin while a PIN is wanted (page/writes.py)
        self.phones = {}  # the phones' waits for a PIN (page/pin.py), kept without a Pin
        self.lazy = Lazy()  # what a request loads, dropped after it (page/lazy.py)
        self.seen = -1  # app.changes when the state below was made
        self.deals_at = -1  # the journal (events, phase) the deals below were made for
        self.deals = b"[]"
        self.state = b""  # the state as the live stream sends it (b"data: " JSON b"\n\n")
        self.own = []  # the board's own origins (serve sets them): writes come from them
        self.port = ""  # ":port" when not 80
        self.server = Server(self.answer, app.clock, self.ended)  # the connections
        # (page/server.py: serve() has it listen)

    def idle(self):
        """page/pin.py: no PIN of the Pin's is on the board: it goes (its code with it, once
        the request that loaded it has closed: page/lazy.py)."""
        self.pin = None

    def ended(self, c):
        """Connection c closed (page/server.py): a Pin that shows no PIN goes (one loaded to
        be refused, or asked while its phone waits), and what c's request loaded."""
        p = self.pin
        if p is not None and p.pin_at < 0:
            self.pin = None
        self.lazy.ended(c)

    def load(self, req, name):
        """Module name for this request (page/lazy.py): dropped after it when served."""
        return self.lazy.load(_conn(req), name)

    def now_state(self):
        """The state as the live stream sends it (b"data: " JSON b"\n\n": one object every
        page's stream writes, /state its JSON), made again only when the app has changed
        since."""
        app = self.app
        if app.changes != self.seen:
            self.state = b""
            import gc

            gc.collect()
            st = snapshot(app)
            if "lines" in st and self.pin is not None:  # the display may be showing the
                self.pin.mask(st["lines"])  # PIN: never on the network
            self.state = ("data: %s\n\n" % json.dumps(st)).encode()
            self.seen = app.changes
        return self.state

    def now_deals(self, req=None):
        """page/rows.py's deal_rows() as JSON bytes (self.deals), made again only when the
        journal has changed since (page/rows.py's deals())."""
        return self.load(req, "page.rows").deals(self, req)


def _conn(req):
    """The request's connection (page/server.py's Conn), None in-process (a test's)."""
    return None if req is None else req.conn


def routes(web):
    """The page's paths."""
    @web.get("/")
    async def page(req):
        return open(PAGE, "rb"), 200, {"Content-Type": "text/html; charset=utf-8",
                                       "Cache-Control": "max-age=60"}

    @web.get("/state")
    async def state(req):
        return web.now_state()[6:-2], 200, {"Content-Type": "application/json"}

    @web.get("/events")
    async def events(req):
        if req.method != "GET":  # (HEAD: no stream to start)
            return "", 200, {"Content-Type": "text/event-stream"}
        c = _conn(req)  # (a stream is a connection's, to the end: the server counts it off)
        if c is None or not web.server.stream(c):
            return "busy", 503, {"Retry-After": "3"}
        return _Stream(web), 200, {"Content-Type": "text/event-stream"}

    @web.get("/layout")
    @web.get("/deals")
    @web.get("/stats")
    @web.get("/history.csv")
    @web.get("/history.json")
    @web.get("/club")
    async def made(req):  # (made for the request: page/rows.py, loaded for it, let go after)
        return web.load(req, "page.rows").answer(web, req)

    @web.post("/pin")
    @web.post("/new-game")
    @web.post("/names")
    @web.post("/update")
    async def write(req):  # (the writes: page/writes.py, loaded for each, let go after)
        return web.load(req, "page.writes").write(web, req)

    @web.errorhandler(404)
    async def not_found(req):
        return "no such page", 404

    @web.errorhandler(MemoryError)
    async def short_of_memory(req, e):
        return "short of memory: try again", 503, {"Retry-After": "3"}


class _Stream:
    """One page's live stream (GET /events), the body page/http.py writes: the state whenever it
    changes (web.state: the same bytes for every page), a comment now and then (a page that
    is gone fails the write). Nothing waits in between: a page that stops reading holds up
    its own write, which ends the stream (page/server.py's Conn.awrite)."""

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


async def serve(app, addr, club=None):
    """Serve the page at addr (the network is joined: board/tasks.py's web task; club: the
    club's publisher or None) until the server cannot go on (its socket failed): then it
    raises, its connections closed, and the display no longer gives its address."""
    import gc

    from page.server import listen

    hw = app.hw
    port = hw.get("web_port", 80)
    web = Web(app, club)
    web.port = "" if port == 80 else ":%d" % port
    web.own.append("http://" + addr + web.port)
    server = web.server
    routes(web)
    gc.collect()
    where = addr + web.port

    def ready():
        print("web: the page is at http://%s/" % where)
        say(app, PAGE_MSG + where, True)

    try:
        await listen(server, hw.get("web_host", "0.0.0.0"), port, ready)
    finally:
        server.close()
        if web.pin is not None:  # (no Pin: no PIN on the board)
            web.pin.new_pin()
            web.pin.show_pin(False)


def say(app, text, always=False):
    """The display's line about the page (app.msg) says text; unless always, only if that
    line is still the page's (another message may have taken its place meanwhile)."""
    msg = app.msg
    if always or (msg[0] == MSG_TEXT and msg[1].startswith(PAGE_MSG)):
        app.apply((SAY, message(text)))
