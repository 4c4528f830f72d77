"""The page's answer to a body too large (413) must reach the client whole, however the
client's bytes and the board's answer cross (issue 35: test_web.py's 5,000-byte POST got a
connection reset on a busy machine). For the lead to hand on: firmware/board/web.py is being
split by another engineer; this file says what must change there and proves it.

Why the reset: microdot reads the request line and headers (board/web.py's _Conn reads the
socket 128 bytes at a time), sees Content-Length 5004 over max_content_length (_BODY, 64),
and answers 413 without reading the body. Web.serve's finally then closes the socket with the
body's bytes still unread in the kernel's receive buffer, and a TCP stack that closes a socket
with unread data sends RST, not FIN (Linux: tcp_close's "data_was_unread"; lwIP the same), and
throws away what it had not yet sent. So the client gets its 413 only if it has read it before
the RST arrives: on a busy machine (the client not yet scheduled, part of the answer still
held back by Nagle) it reads ECONNRESET, or its own send of the body fails. A body that
arrives after the close gets an RST too.

What must change (web.py, Web.answer, after `await res.write(writer)`; or Web.serve's finally
before `sock.close()`): when the request's declared body was not read (req.content_length >
_BODY: microdot left it in the stream; also a 400 whose head was read but whose declared body
was not), drain it before closing: read and throw away the rest of the declared length,
through the same _Conn (c.read(n): its deadline _READ_MS from the connection bounds the time),
at most _DRAIN bytes (say 8 KB: a phone's form is never near it; a client declaring more is
hostile and may get its RST), stopping at EOF, the deadline or _DRAIN; then close. The body's
length must be kept from req before `req = None` (e.g. `rest = req.content_length -
len(req.body or b"")` when content_length > Request.max_body_length). MicroPython's sockets
have no shutdown() (unix port and lwIP), so a half-close (SHUT_WR then read to EOF) is not
available: draining is. The drain must stay inside the connection's place (_CLIENTS) and its
deadline, so a flood of large POSTs still cannot hold the page longer than _READ_MS each.

Tried on a copy of firmware/ (11:06 UTC, 28 Nov; Board(..., firmware=copy)): in Web.answer,
`rest = req.content_length if req.content_length > Request.max_body_length else 0` before
dispatch_request, and after the write `rest = min(rest, _DRAIN)`, then `while rest > 0: got =
await c.read(min(rest, 512)); rest -= len(got)` inside try/except Exception (the deadline,
the client gone). The test below then passes (5 of 5 runs, and the body all at once, or after
the head, ends in a clean EOF; today each of those ends ECONNRESET, the answer sometimes cut
to its status line); a body that never comes is closed at the 4 s deadline, as any slow
request is; test_web.py's POST still gets its 413.
"""

import socket
import time

import pytest
from webkit import Board


@pytest.fixture
def board(tmp_path):
    b = Board(str(tmp_path / "board"))
    yield b
    b.close()


HEAD = (b"POST /new-game HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        b"application/x-www-form-urlencoded\r\nContent-Length: 5004\r\n\r\n")
BODY = b"pin=" + b"1" * 5000


def exchange(port, first, rest):
    """Send first, wait until the board's answer has begun to arrive, send rest; then read to
    the end: (the answer, how it ended: "eof", or the error's name)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    got, how = b"", "eof"
    try:
        s.sendall(first)
        s.settimeout(8)
        try:
            got = s.recv(4096)  # the 413, answered without the body
            time.sleep(0.2)  # (the board has closed by now, or is draining)
            if rest:
                s.sendall(rest)
            while True:
                b = s.recv(4096)
                if not b:
                    break
                got += b
        except OSError as e:  # ConnectionResetError, BrokenPipeError
            how = type(e).__name__
    finally:
        s.close()
    return got, how


@pytest.mark.xfail(strict=True, reason="issue 35: board/web.py closes a 413's connection with "
                   "the body unread, so the kernel resets it (RST): the answer must drain the "
                   "declared body (bounded) before it closes; web.py is being split by another "
                   "engineer (see this module's docstring)")
def test_a_413_is_answered_and_closed_cleanly_however_the_body_comes(board):
    """The body half with the head, half after the 413 has begun to arrive: the 413 whole and
    a clean end (FIN), never a reset. Today the board closes with 2,000 bytes unread: RST."""
    got, how = exchange(board.port, HEAD + BODY[:2000], BODY[2000:])
    assert got.startswith(b"HTTP/1.0 413"), got
    assert how == "eof", how


def test_the_board_plays_on_after_a_reset_413(board):
    """Whatever the end of such a connection, the page still answers and the game goes on."""
    exchange(board.port, HEAD + BODY[:2000], BODY[2000:])
    assert board.get("/state")[0] == 200
    board.keys("3#")
    assert board.state()["score"] == [3, 0]
