"""Fetch an update over HTTP and install it as it arrives: the club's service, or a laptop
serving a bundle signed for this board (tools/maker/update.py). The response's body goes straight
into ota/install.py's install() (each file checked as it lands, one 512-byte buffer): the
bundle is never whole in RAM, and nothing is pointed at unless all of it checked.

    from ota.fetch import fetch
    man = fetch("http://192.168.1.10:8080/update/t1.bundle")   # between games only
    machine.reset()                                           # the new version on trial

HTTP/1.0 GET, plain http (the bundle carries its own signature: the link need not be
trusted), the status line and the headers read within bounds (_LINE bytes a line, _HEADERS
lines), a 200 wanted; every read waits at most `timeout` seconds (a server gone silent ends
the fetch, it never stalls the board for good). Errors are UpdateError, saying what and where.
"""

import socket

from micropython import const
from ota.install import UpdateError, install

_LINE = const(256)  # a status or header line's bound
_HEADERS = const(32)  # header lines at most
_PATH_OK = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/?=&%"


def split(url):
    """(host, port, path) of "http://host[:port]/path"; UpdateError when it is not one."""
    if not isinstance(url, str) or not url.startswith("http://") or len(url) > 200:
        raise UpdateError("not an http:// address: %r" % (url,))
    rest = url[7:]
    i = rest.find("/")
    hostport, path = (rest, "/") if i < 0 else (rest[:i], rest[i:])
    host, _, port = hostport.partition(":")
    try:
        port = int(port) if port else 80
    except ValueError:
        port = 0
    if not host or not 0 < port < 65536 or not all(c in _PATH_OK for c in path):
        raise UpdateError("bad address: %r" % (url,))
    return host, port, path


def _line(s):
    """One line of the response's head (CRLF or LF taken off), at most _LINE bytes."""
    out = bytearray()
    while True:
        c = s.read(1)
        if not c:
            raise UpdateError("the server closed the connection in the response's head")
        if c == b"\n":
            return bytes(out).rstrip(b"\r")
        out.extend(c)
        if len(out) > _LINE:
            raise UpdateError("the response's head has a line too long")


def fetch(url, timeout=10, **kw):
    """GET url and install the bundle its body is (install()'s keywords pass through: files,
    key, board, running, force, progress, keep). Returns the manifest."""
    host, port, path = split(url)
    s = None
    try:
        ai = socket.getaddrinfo(host, port)[0]
        s = socket.socket(ai[0], socket.SOCK_STREAM)
        s.settimeout(timeout)
        s.connect(ai[-1])
        s.write(("GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" % (path, host)).encode())
        status = _line(s).split(None, 2)
        if len(status) < 2 or not status[0].startswith(b"HTTP/") or status[1] != b"200":
            raise UpdateError("%s: %s" % (url, b" ".join(status[1:]).decode() or "no status"))
        for _ in range(_HEADERS):
            if not _line(s):
                break
        else:
            raise UpdateError("the response's head has too many lines")
        return install(s, **kw)
    except OSError as e:  # (a name that will not resolve, a refused or silent connection)
        raise UpdateError("the update from %s failed: %s" % (url, e)) from None
    finally:
        if s is not None:
            s.close()
