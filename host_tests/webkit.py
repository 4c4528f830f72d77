"""The live page's tests' helpers: the page in-process (Page: board/web.py's routes over the
app on the fake board, asked through page/http.py's reading and writing, on the board's virtual
clock), and
a simulated board (Board: the real firmware in the real MicroPython binary, tools/sim) serving
its page on a free localhost port, with small HTTP clients, for what only a real server
shows: its sockets, limits, streams and slow or idle clients."""

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import time

from hostenv import ROOT
from sim.keys import parse_keys
from sim.games import game_keys
from sim.runner import Sim


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sim(storage, *args):
    """tools/sim on the board in storage with args (a scripted run, virtual time): its
    output; it must end well."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim"), "--storage",
                        storage, *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def prepare(storage, tokens):
    """Play key tokens on the board in storage at once, leaving the game saved there for the
    board that serves the page to resume."""
    sim(storage, "--keys", " ".join(tokens))


def saved_game(storage, players, deals=2, seed=1):
    """A game of players played deal by deal on CPython (dealer.autoplay) and saved in
    storage with its players' setting, as the board saves it: the board resumes it between
    deals, the next dealer known. The Match."""
    from cribbage import match as M
    from dealer import autoplay
    from board.settings import Settings

    m = M.Match(players=players)
    rand = autoplay.seeded(seed)
    autoplay.cut_for_deal(m, rand)
    for _ in range(deals):
        autoplay.play_deal(m, rand, [autoplay.GREEDY] * players)
    os.makedirs(storage, exist_ok=True)
    with open(os.path.join(storage, "game"), "wb") as f:
        m.dump(f)
    s = Settings()
    s.set("players", players)
    with open(os.path.join(storage, "settings"), "wb") as f:
        f.write(s.dumps())
    return m


def game_tokens(seed=3):
    """Game seed's key tokens (sim/games.py), whole."""
    return game_keys(seed)[0].split(" ")


def first_show(seed=3):
    """Game seed's key tokens up to its first show (a hand the play filled in: OK counts
    it), and that OK's index."""
    tokens = game_tokens(seed)
    k = tokens.index("#", 1)
    return tokens, k


class Page:
    """The page of a fake board (host_tests/boardkit.py), in-process: get() asks a route as
    a phone at src would, read and answered by page/http.py as the server's connection is
    (no socket, no server task); f presses the board's keys and hw["clock"] is its time.
    The board's address is OWN, as page/routes.py's serve() records the address it serves on."""

    OWN = "http://192.168.4.1"
    PHONE = "192.168.4.20"  # the phone asking, unless another is named

    def __init__(self, display=True):
        from boardkit import board
        from page import routes

        self.hw, self.app, self.f = board(display=display)
        self.web = routes.Web(self.app)
        self.web.own.append(self.OWN)
        routes.routes(self.web)
        self.loop = asyncio.new_event_loop()  # (one for the page's life: its PIN timers)

    def get(self, path, method="GET", body=b"", headers=None, src=None):
        """(status, body bytes) of one request."""
        return self.loop.run_until_complete(self._ask(path, method, body, headers or {},
                                                      src or self.PHONE))

    async def _ask(self, path, method, body, headers, src):
        from page import http

        head = ["%s %s HTTP/1.1" % (method, path), "Host: " + self.OWN[7:]]
        head += ["%s: %s" % kv for kv in headers.items()]
        if body:
            head.append("Content-Length: %d" % len(body))
        c = _Conn(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        req = await http.read(c, (src, 40000))
        req.conn = None  # (no server connection: what a request loads stays, as on CPython)
        await http.send(c, await self.web.dispatch(req), method == "HEAD")
        out = b"".join(c.out)
        top, _, got = out.partition(b"\r\n\r\n")
        return int(top.split(b" ", 2)[1]), got

    def state(self):
        status, body = self.get("/state")
        assert status == 200
        return json.loads(body)

    def close(self):
        for t in asyncio.all_tasks(self.loop):
            t.cancel()
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()


class _Conn:
    """A request's bytes as page/server.py's Conn gives them (readline, readexactly), and
    what is written back (out)."""

    def __init__(self, raw):
        self.buf = raw
        self.out = []

    async def readline(self):
        i = self.buf.find(b"\n") + 1 or len(self.buf)
        got, self.buf = self.buf[:i], self.buf[i:]
        return got

    async def readexactly(self, n):
        got, self.buf = self.buf[:n], self.buf[n:]
        return got

    async def awrite(self, data):
        self.out.append(bytes(data))


class Board:
    """A simulated board serving its page; keys(script) presses keys in real time."""

    def __init__(self, storage, firmware=None, heap="512k"):
        self.port = free_port()
        self.sim = Sim(storage, firmware, realtime=True, heap=heap, web=self.port)
        deadline = time.monotonic() + 20
        while True:  # the page is served once the board is up
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.sim.proc.poll() is not None:
                    self.sim.close()
                    raise RuntimeError("the board's page never came up:\n"
                                       + "".join(self.sim.log[-20:])) from None
                time.sleep(0.1)
        self.url = "http://127.0.0.1:%d" % self.port

    def keys(self, script, taps=True):
        """Press the keys of script: each key's events queued whole (the driver's tap), so a
        stalled process cannot turn a press into a long one or lose it (a test of its own failed
        so on a loaded machine: a "#" that did not count the hand); taps=False: pressed and
        released in real time, through the scan."""
        for cmd in parse_keys(script):
            self.sim.send("tap" + cmd[3:] if taps and cmd.startswith("key ") else cmd)
        self.sim.state()  # (answered once the keys have been pressed)

    def get(self, path, method="GET", body=None, headers=None, timeout=10, src=None):
        """(status, body) of one request; src: the client's own address (another phone:
        "127.0.0.2", the loopback network answers on all of 127/8)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                       source_address=(src, 0) if src else None)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def state(self):
        status, body = self.get("/state")
        assert status == 200
        return json.loads(body)

    def raw(self, data, timeout=10, pause=0.0):
        """Send bytes as a client would (optionally in two halves with a pause between);
        the whole answer until the server closes the connection."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        try:
            if pause:
                s.sendall(data[:len(data) // 2])
                time.sleep(pause)
                try:
                    s.sendall(data[len(data) // 2:])
                except OSError:
                    pass  # the server gave up on us first
            else:
                s.sendall(data)
            out = b""
            while True:
                try:
                    got = s.recv(4096)
                except ConnectionResetError:
                    break
                if not got:
                    break
                out += got
            return out
        finally:
            s.close()

    def close(self):
        self.sim.close()


class Events:
    """A client of the live stream (/events): next() is the next state pushed."""

    def __init__(self, port, timeout=10):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.s.sendall(b"GET /events HTTP/1.1\r\nHost: board\r\nAccept: text/event-stream\r\n\r\n")
        self.buf = b""
        head = self._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.") and b" 200 " in head.split(b"\r\n")[0], head

    def _until(self, sep):
        while sep not in self.buf:
            got = self.s.recv(4096)
            if not got:
                raise EOFError("the stream ended")
            self.buf += got
        part, self.buf = self.buf.split(sep, 1)
        return part

    def next(self):
        while True:
            ev = self._until(b"\n\n")
            for line in ev.split(b"\n"):
                if line.startswith(b"data: "):
                    return json.loads(line[6:])

    def close(self):
        self.s.close()
