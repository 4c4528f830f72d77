"""A small HTTP server for a board: connections, their bounds, the accept loop. It knows no
route and no app: each connection's request is answered by the handler it is given (the page:
page/routes.py on page/http.py: the request read, its route, the answer).

    server = Server(handle, clock, ended)  # handle(conn): async, answers conn's one request
    await listen(server, host, port, ready)  # ready(): called once the socket listens

Guarded against the network (nothing here can stop the board's game, nor reach its fault path):
- at most _CLIENTS connections at once, fewer than the Pico W's network stack has (lwIP: 5
  TCP connections), so a newcomer always gets in: when all are taken, the oldest connection
  still waiting for its request is dropped for it; if all are being answered, it gets 503;
- a request must arrive whole within _READ_MS, in lines of at most _LINE bytes and _HEADERS
  headers (_HEAD_BYTES in all), with a body of at most _BODY bytes; a handler reading more
  gets a ValueError (a bad request);
- short of memory (less than _SHED bytes free after a collection) a connection gets 503 at
  once, before anything is read;
- each write to a client within _WRITE_MS, else the client is taken as gone;
- at most _STREAMS of the connections are live streams (stream()): one stays for fetches;
- a body refused unread (413) is read and thrown away after the answer, at most _DRAIN bytes
  within the same _READ_MS (drain()): a socket closed with bytes unread is reset (RST), and
  the client loses the answer with it; MicroPython's sockets have no shutdown() to half-close.
The accept loop is this module's own (asyncio's ends on a MemoryError, its socket left open):
a connection it cannot take is closed and the loop goes on.
"""

import asyncio
import gc

from board.keypad import ticks_diff, sleep_ms

from micropython import const

_CLIENTS = const(4)     # connections served at once (lwIP on a Pico W has 5: one for a newcomer)
_STREAMS = const(3)     # of them live streams (a page holds one): one stays for the fetches
_BACKLOG = const(2)     # connections the network stack holds until they are taken
_SETTLE = const(4)      # turns of the loop a newcomer waits for a place, all being taken
_SHED = const(12288)    # bytes free below which a connection gets 503 at once
_READ_MS = const(4000)  # the whole request, from the connection
_WRITE_MS = const(5000)  # each write to a client (one that stops reading is dropped)
LINE = const(512)       # the longest request line or header line
_HEADERS = const(24)    # header lines
_HEAD_BYTES = const(2048)  # the request line and its headers, in all
BODY = const(64)        # a request's body (the PIN form)
_DRAIN = const(8192)    # a refused body read and thrown away before the close (a client
# declaring more is hostile, and may get its reset)
_BUSY = b"HTTP/1.0 503 Busy\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n"


class Conn:
    """One client's connection: its stream while the request is read (whole lines of at most
    LINE bytes, the request line and at most _HEADERS headers, _HEAD_BYTES in all, a body of
    at most BODY bytes, everything within _READ_MS of the connection; ValueError otherwise)
    and for the answer (each write within _WRITE_MS), and what the server keeps of it (its task;
    waiting: no request yet, the first to go for a newcomer: the handler clears it once the
    request is read; live: a live stream; heavy: the handler's own mark, for ended(); addr:
    the client's address, get_extra_info("peername"))."""

    def __init__(self, stream, clock, addr=None):
        self.s = stream
        self.addr = addr
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
                if len(line) > LINE:
                    raise ValueError("line too long")
                self.bytes += len(line)
                if self.bytes > _HEAD_BYTES:
                    raise ValueError("headers too long")
                return line
            if len(self.buf) > LINE:
                raise ValueError("line too long")
            await self._more(128)

    async def readexactly(self, n):
        if n > BODY:
            return b""  # (not read: the handler refuses a body over BODY, 413)
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

    async def drain(self, n):
        """Read and throw away the next n bytes (a body refused unread), at most _DRAIN,
        within the request's _READ_MS; stops early, without a word, at the deadline or the
        client's end (the connection closes after it in any case)."""
        n = min(n, _DRAIN)
        try:
            while n > 0:
                n -= len(await self.read(min(n, 512)))
        except Exception:  # noqa: BLE001  (too slow, cut short, gone: closed as it is)
            pass

    async def awrite(self, data):
        """A write of the answer, within _WRITE_MS, else the client is taken as gone (EPIPE:
        a live stream then ends, and its task)."""
        try:
            await asyncio.wait_for(self.s.awrite(data), _WRITE_MS / 1000)
        except asyncio.TimeoutError:
            raise OSError(32) from None  # (EPIPE)

    async def aclose(self):
        await self.s.aclose()

    def get_extra_info(self, what):
        """The client's address ("peername"), as asyncio's streams say it; else None."""
        return self.addr if what == "peername" else None


def short():
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


class Server:
    """The connections open and their bounds. handle(conn): an async function that answers
    conn's request (whatever it raises is said in a line and ends the connection);
    ended(conn), if given: called as each connection closes, however it ends."""

    def __init__(self, handle, clock, ended=None):
        self.handle = handle
        self.clock = clock
        self.ended = ended
        self.conns = []  # the connections open (Conn), oldest first
        self.streams = 0  # live streams open

    def take(self, sock, addr):
        """A connection accepted: served by a task of its own, or refused (503) when memory
        is short or every place is answering; the oldest one still waiting for its request
        makes room for it. Never raises."""
        try:
            sock.setblocking(False)
            if short():
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
            c = Conn(asyncio.StreamReader(sock), self.clock, addr)  # (the address its own:
            # no dict of extras per stream)
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
            await self.handle(c)
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
            if self.ended is not None:
                self.ended(c)
            if c.live:
                self.streams -= 1
            c.s = c.buf = None

    def stream(self, c):
        """A place for a live stream on connection c (counted off when it closes, however
        it ends): False when _STREAMS are open."""
        if self.streams >= _STREAMS:
            return False
        self.streams += 1
        c.live = True
        return True

    def close(self):
        """Every connection's task cancelled (the server stops)."""
        for c in self.conns:
            if c.task is not None:
                c.task.cancel()


async def listen(server, host, port, ready):
    """The accept loop: each connection to server.take (which never raises); ready() once
    the socket listens. Ends only with the socket's failure (raised), the socket closed."""
    import socket

    ai = socket.getaddrinfo(host, port)[0]
    s = socket.socket(ai[0])
    try:
        s.setblocking(False)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(ai[-1])
        s.listen(_BACKLOG)
        ready()
        while True:
            await Readable(s)
            try:
                sock, who = s.accept()
            except OSError:
                continue  # (gone before it was taken)
            for _ in range(_SETTLE):  # all places taken: a connection that has just sent
                if len(server.conns) < _CLIENTS:  # its answer ends first (its client may
                    break  # have come back before its task closed it)
                await sleep_ms(0)
            server.take(sock, who)
    finally:
        s.close()


class Readable:
    """Awaited: until socket s can be read (a listening socket: has a connection).

    The one shim over MicroPython's asyncio internals (its public API has no wait for a
    readable socket but its streams and its server, whose loop ends on a MemoryError): the
    task waits in asyncio's own poll of sockets, as asyncio.start_server's loop does
    (host_tests/test_page_server.py checks it on the MicroPython the board runs)."""

    def __init__(self, s):
        self.s = s

    def __await__(self):
        yield getattr(asyncio, "core")._io_queue.queue_read(self.s)  # noqa: B009 (pyright)

    __iter__ = __await__  # (MicroPython awaits through it)
