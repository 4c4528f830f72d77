"""The page's HTTP, its own and small: a request read within page/server.py's bounds, routes
by method and exact path, the answer written (HTTP/1.0: the connection ends with it).

    web = Routes()
    @web.get("/state")
    async def state(req):
        return body, 200, {"Content-Type": "application/json"}
    server = Server(web.answer, clock)  # page/server.py: answer(conn), one request each

A route returns its body, or (body, status), or (body, status, headers), or a status alone.
A body is bytes or str (sent with its Content-Length), or a file (read _CHUNK bytes at a
time, then closed), or an iterator or async iterator of parts (bytes or str: a live stream,
an export): these end with the connection, never chunked. Without a Content-Type the body
is plain text. HEAD is answered as GET without the body.

The answers of its own: 400 for a request that cannot be read (page/server.py's bounds, a
bad request line or header, bytes that are no UTF-8, a bad Content-Length), 413 for a body
over page/server.py's BODY (not read: answer() throws it away after the answer, bounded),
404 (or the route table's errorhandler(404)) for a path it does not know, 405 for a method
a known path does not take, 503 with Retry-After when the heap is short while the request
is read, and, for an exception a route raises, the errorhandler of its class (MemoryError:
the page's 503) or 500.
"""

from page.server import BODY

from micropython import const

_CHUNK = const(512)  # a file sent this many bytes at a time
_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden",
            404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
            429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}
_SHORT = ("short of memory: try again", 503, {"Retry-After": "3"})


class Request:
    """One request: method, path (the URL before any "?"), query (after it, "" without),
    headers (a dict, names in lower case), length (its Content-Length), body (bytes: b"" for
    none, or for one over BODY, unread), client (the client's address: page/server.py's
    peername), conn (page/server.py's Conn it came on; None in-process). Its body as a form:
    page/writes.py's form() (a write's: loaded with it)."""

    def __init__(self, method, url, headers, length, body, client, conn):
        self.method = method
        i = url.find("?")
        self.path = url if i < 0 else url[:i]
        self.query = "" if i < 0 else url[i + 1:]
        self.headers = headers
        self.length = length
        self.body = body
        self.client = client
        self.conn = conn

async def _line(c):
    return (await c.readline()).decode().strip()


async def read(c, client):
    """The request on stream c (readline, readexactly: page/server.py's Conn and its bounds)
    from client; ValueError when it cannot be read (a 400)."""
    line = (await _line(c)).split()
    if len(line) != 3 or not line[2].startswith("HTTP/"):
        raise ValueError("bad request line")
    headers = {}
    while True:
        h = await _line(c)
        if not h:
            break
        i = h.find(":")
        if i <= 0:
            raise ValueError("bad header")
        headers[h[:i].strip().lower()] = h[i + 1:].strip()
    n = int(headers.get("content-length", "0"))
    if n < 0:
        raise ValueError("bad Content-Length")
    body = await c.readexactly(n) if 0 < n <= BODY else b""
    return Request(line[0], line[1], headers, n, body, client, c)


class Routes:
    """The route table: handlers by path and method (get(), post(): decorators), and by
    status (404) or exception class (errorhandler()); answer(conn): page/server.py's
    handler."""

    def __init__(self):
        self.paths = {}  # method: {path: handler} (a dict per method, not one per path: each
        # dict is ~0.1 KB of a board's heap)
        self.errors = {}  # status or exception class: handler

    def route(self, method, path):
        def add(f):
            self.paths.setdefault(method, {})[path] = f
            return f
        return add

    def get(self, path):
        return self.route("GET", path)

    def post(self, path):
        return self.route("POST", path)

    def errorhandler(self, what):
        """A handler for status what (handler(req)) or exception class what (handler(req,
        e))."""
        def add(f):
            self.errors[what] = f
            return f
        return add

    async def dispatch(self, req):
        """What answers req (None: a request that could not be read): its route's result."""
        if req is None:
            return "bad request", 400
        if req.length > BODY:
            return "too large", 413
        path = req.path
        by = self.paths.get("GET" if req.method == "HEAD" else req.method)
        f = None if by is None else by.get(path)
        if f is None:
            allow = [k for k in self.paths if path in self.paths[k]]
            if allow:
                return "no such method", 405, {"Allow": ", ".join(allow)}
            f = self.errors.get(404)
            return await f(req) if f else ("no such page", 404)
        try:
            return await f(req)
        except Exception as e:  # noqa: BLE001  (the route's fault: its handler's, or a 500)
            for k in self.errors:
                if not isinstance(k, int) and isinstance(e, k):
                    return await self.errors[k](req, e)
            print("web:", req.path, repr(e))
            return "internal error", 500

    async def answer(self, c):
        """Connection c's request, read, dispatched and answered (page/server.py's handler):
        short of memory while it is read, a 503; a declared body left unread (413) is read
        and thrown away after the answer (page/server.py's Conn.drain: bounded; the client
        then gets a clean end, not a reset)."""
        req = res = None
        try:
            req = await read(c, c.get_extra_info("peername"))
        except MemoryError:
            res = _SHORT
        except Exception as e:  # noqa: BLE001  (said in a line: a flood of them would hold
            print("web: bad request:", repr(e))  # up the board's loop on its serial port)
        c.waiting = False
        rest = 0
        head = False
        if res is None:
            if req is not None:
                head = req.method == "HEAD"
                if req.length > BODY:
                    rest = req.length
            res = await self.dispatch(req)
            req = None  # (not kept while the answer goes: a live stream's lasts)
        await send(c, res, head)
        if rest > 0:
            await c.drain(rest)


async def send(c, res, head=False):
    """Write a route's result res on stream c (awrite), without the body for a HEAD; a
    client gone (OSError) ends it quietly."""
    if isinstance(res, int):
        res = "", res
    elif not isinstance(res, tuple):
        res = (res,)
    body = res[0]
    status = res[1] if len(res) > 1 else 200
    headers = res[2] if len(res) > 2 else {}
    if isinstance(body, str):
        body = body.encode()
    out = "HTTP/1.0 %d %s\r\n" % (status, _REASONS.get(status, "N/A"))
    if isinstance(body, bytes):
        out += "Content-Length: %d\r\n" % len(body)
    if "Content-Type" not in headers:
        out += "Content-Type: text/plain; charset=UTF-8\r\n"
    for k in headers:
        out += "%s: %s\r\n" % (k, headers[k])
    try:
        await c.awrite((out + "\r\n").encode())
        out = None
        if head or isinstance(body, bytes):
            if body and not head:
                await c.awrite(body)
        elif hasattr(body, "read"):
            while True:
                got = body.read(_CHUNK)
                if not got:
                    break
                await c.awrite(got)
        elif hasattr(body, "__anext__"):
            async for got in body:
                await c.awrite(got.encode() if isinstance(got, str) else got)
        else:
            for got in body:
                await c.awrite(got.encode() if isinstance(got, str) else got)
    except OSError:
        pass  # (the client is gone: the connection closes)
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
