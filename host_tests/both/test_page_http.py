"""page/http.py, the page's own HTTP (no web framework: issue 34, microdot cost the page ~30 KB
of heap): a request read within page/server.py's bounds, routes by method and exact path,
the error answers, the answer written. On CPython and on MicroPython (make test-mp), over a
stand-in for page/server.py's Conn; the real server is host_tests/test_web.py's."""

import asyncio

from check import raises
from page import http
from page.server import BODY


class Conn:
    """A connection's stream as page/server.py's Conn gives it (readline, readexactly: its
    bounds are its own), what is written to it (out) and what is drained after (drained)."""

    def __init__(self, raw, gone=False):
        self.buf = raw
        self.out = []
        self.waiting = True
        self.drained = 0
        self.gone = gone  # a client gone: every write fails

    async def readline(self):
        i = self.buf.find(b"\n") + 1
        if i == 0:
            raise ValueError("request cut short")
        got = self.buf[:i]
        self.buf = self.buf[i:]
        return got

    async def readexactly(self, n):
        got = self.buf[:n]
        self.buf = self.buf[n:]
        return got

    async def awrite(self, data):
        if self.gone:
            raise OSError(32)
        self.out.append(bytes(data))

    async def drain(self, n):
        self.drained += n

    def get_extra_info(self, what):
        return ("10.0.0.2", 5000) if what == "peername" else None

    def answer(self):
        """(status line, headers {lower name: value}, body) of what was written."""
        head, _, body = b"".join(self.out).partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        hs = {}
        for h in lines[1:]:
            k, _, v = h.partition(": ")
            hs[k.lower()] = v
        return lines[0], hs, body


def run(coro):
    return asyncio.run(coro)


def read(raw):
    c = Conn(raw)
    return run(http.read(c, ("10.0.0.2", 5000))), c


def test_a_request_is_read_whole():
    req, c = read(b"POST /new-game?x=1&y HTTP/1.1\r\nHost: board.local\r\nContent-Type: "
                  b"application/x-www-form-urlencoded\r\nX-Odd:  a: b \r\nContent-Length: 8"
                  b"\r\n\r\npin=1234rest")
    assert req.method == "POST" and req.path == "/new-game" and req.query == "x=1&y"
    assert req.headers == {"host": "board.local", "x-odd": "a: b", "content-length": "8",
                           "content-type": "application/x-www-form-urlencoded"}
    assert req.length == 8 and req.body == b"pin=1234" and c.buf == b"rest"
    assert req.client == ("10.0.0.2", 5000) and req.conn is c
    req, _ = read(b"GET /state HTTP/1.0\r\n\r\n")
    assert req.path == "/state" and req.query == "" and req.length == 0 and req.body == b""


def test_a_body_over_BODY_is_not_read():
    n = BODY + 1
    req, c = read(b"POST /pin HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % n + b"x" * n)
    assert req.length == n and req.body == b"" and len(c.buf) == n


def test_what_cannot_be_read_is_a_ValueError():
    for raw in (b"hello\r\n\r\n", b"\r\n\r\n", b"GET /\r\n\r\n", b"GET / x HTTP/1.1\r\n\r\n",
                b"GET / FTP/1\r\n\r\n", b"\x00\xff\x10garbage\r\n\r\n",
                b"GET /state HTTP/1.1\r\nno colon\r\n\r\n",
                b"GET /state HTTP/1.1\r\n: no name\r\n\r\n",
                b"GET /st\xe9te HTTP/1.1\r\n\r\n",
                b"GET /state HTTP/1.1\r\nX: \xff\xfe\r\n\r\n",
                b"POST /pin HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
                b"POST /pin HTTP/1.1\r\nContent-Length: -4\r\n\r\n"):
        raises(ValueError, read, raw)  # (UnicodeError is one)


def _req(body, kind="application/x-www-form-urlencoded"):
    return http.Request("POST", "/names", {"content-type": kind} if kind else {}, len(body),
                        body, None, None)


def test_a_form_is_read_and_a_bad_one_is_a_ValueError():
    from page.writes import form  # (a write's: loaded with it, not with the page)

    f = form(_req(b"pin=12+34&names=Ann%2C%C3%A9%2b&names=twice&flag&&=x"))
    assert f == {"pin": "12 34", "names": "Ann,\u00e9+", "flag": "", "": "x"}, f
    assert form(_req(b"pin=1", "application/x-www-form-urlencoded; charset=UTF-8")) == {
        "pin": "1"}
    assert form(_req(b"pin=1", "text/plain")) is None and form(_req(b"pin=1", None)) is None
    assert form(_req(b"")) == {}
    for bad in (b"pin=%z", b"pin=%zz", b"pin=%f", b"pin=%ff%f", b"pin=% f", b"pin=%+1",
                b"pin=1234&names=%e9t%C3", b"pin=\xff", b"%=1"):
        raises(ValueError, form, _req(bad))


def _web():
    web = http.Routes()

    @web.get("/state")
    async def state(req):
        return b"{}", 200, {"Content-Type": "application/json"}

    @web.post("/state")
    async def post_state(req):
        return 204

    @web.get("/short")
    async def short(req):
        raise MemoryError

    @web.get("/broken")
    async def broken(req):
        raise KeyError("x")

    @web.post("/pin")
    async def pin(req):
        return "wrong PIN", 403

    return web


def _ask(web, method, path, length=0):
    return run(web.dispatch(http.Request(method, path, {}, length, b"", None, None)))


def test_the_routes_by_method_and_exact_path():
    web = _web()
    assert _ask(web, "GET", "/state")[1] == 200 and _ask(web, "POST", "/state") == 204
    assert _ask(web, "HEAD", "/state")[1] == 200  # (HEAD: GET's route)
    assert _ask(web, "GET", "/state?t=1")[1] == 200  # (the query is no part of the path)
    assert _ask(web, "GET", "/pin")[1] == 405 and _ask(web, "GET", "/pin")[2] == {"Allow": "POST"}
    assert _ask(web, "DELETE", "/state")[1] == 405
    assert _ask(web, "GET", "/state/")[1] == 404 and _ask(web, "GET", "/State")[1] == 404
    assert _ask(web, "GET", "/nothing") == ("no such page", 404)
    assert run(web.dispatch(None)) == ("bad request", 400)
    assert _ask(web, "POST", "/pin", BODY + 1)[1] == 413 and _ask(web, "POST", "/pin", BODY) == (
        "wrong PIN", 403)
    assert _ask(web, "GET", "/broken")[1] == 500  # (no handler for its exception)
    assert _ask(web, "GET", "/short")[1] == 500

    @web.errorhandler(404)
    async def not_found(req):
        return "not here", 404

    @web.errorhandler(MemoryError)
    async def memory(req, e):
        return "short", 503, {"Retry-After": "3"}

    assert _ask(web, "GET", "/nothing") == ("not here", 404)
    assert _ask(web, "GET", "/short") == ("short", 503, {"Retry-After": "3"})
    assert _ask(web, "GET", "/broken")[1] == 500


def _sent(res, head=False, gone=False):
    c = Conn(b"", gone)
    run(http.send(c, res, head))
    return c


def test_the_answer_is_written():
    line, hs, body = _sent((b"{}", 200, {"Content-Type": "application/json"})).answer()
    assert line == "HTTP/1.0 200 OK" and body == b"{}"
    assert hs == {"content-length": "2", "content-type": "application/json"}
    line, hs, body = _sent(("wrong PIN", 403)).answer()
    assert line == "HTTP/1.0 403 Forbidden" and body == b"wrong PIN"
    assert hs == {"content-length": "9", "content-type": "text/plain; charset=UTF-8"}
    line, hs, body = _sent(204).answer()
    assert line == "HTTP/1.0 204 No Content" and hs["content-length"] == "0" and body == b""
    assert _sent("x").answer()[0] == "HTTP/1.0 200 OK"
    assert _sent(("x", 299)).answer()[0] == "HTTP/1.0 299 N/A"
    line, hs, body = _sent(("busy", 503, {"Retry-After": "3"}), head=True).answer()
    assert line.startswith("HTTP/1.0 503 ") and hs["retry-after"] == "3" and body == b""
    assert hs["content-length"] == "4"


class _File:
    """A file as open() gives it: read(n), close()."""

    def __init__(self, data):
        self.data = data
        self.closed = False

    def read(self, n):
        got = self.data[:n]
        self.data = self.data[n:]
        return got

    def close(self):
        self.closed = True


class _Parts:
    """An async iterator of parts (the live stream's kind)."""

    def __init__(self, parts):
        self.parts = list(parts)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.parts:
            raise StopAsyncIteration
        return self.parts.pop(0)


def _gen(parts):
    yield from parts


def test_a_body_in_parts_ends_with_the_connection():
    page = b"<html>" + b"x" * 2000 + b"</html>"
    f = _File(page)
    line, hs, body = _sent((f, 200, {"Content-Type": "text/html"})).answer()
    assert body == page and "content-length" not in hs and f.closed
    f = _File(page)
    assert _sent((f, 200), head=True).answer()[2] == b"" and f.closed  # (HEAD: closed unread)
    assert _sent(_gen(["a,b\r\n", b"1,2\r\n"])).answer()[2] == b"a,b\r\n1,2\r\n"
    line, hs, body = _sent((_Parts([b"data: 1\n\n", ": ping\n\n"]), 200)).answer()
    assert body == b"data: 1\n\n: ping\n\n" and "content-length" not in hs
    f = _File(page)
    c = _sent((f, 200), gone=True)  # the client gone: quietly ended, the file closed
    assert c.out == [] and f.closed


def test_a_connection_is_answered():
    web = _web()
    c = Conn(b"GET /state HTTP/1.1\r\n\r\n")
    run(web.answer(c))
    line, hs, body = c.answer()
    assert line == "HTTP/1.0 200 OK" and body == b"{}" and not c.waiting and c.drained == 0
    c = Conn(b"HEAD /state HTTP/1.1\r\n\r\n")
    run(web.answer(c))
    assert c.answer()[0] == "HTTP/1.0 200 OK" and c.answer()[2] == b""
    c = Conn(b"\xff\xfe\r\n\r\n")
    run(web.answer(c))
    assert c.answer()[0].startswith("HTTP/1.0 400 ") and not c.waiting
    c = Conn(b"POST /pin HTTP/1.1\r\nContent-Length: 5004\r\n\r\n" + b"x" * 100)
    run(web.answer(c))  # refused unread: 413, then the declared body drained
    assert c.answer()[0].startswith("HTTP/1.0 413 ") and c.drained == 5004


def test_short_of_memory_while_a_request_is_read_is_a_503():
    class Short(Conn):
        async def readline(self):
            raise MemoryError

    c = Short(b"")
    run(_web().answer(c))
    line, hs, body = c.answer()
    assert line == "HTTP/1.0 503 Service Unavailable" and hs["retry-after"] == "3", (line, hs)
