"""An update fetched over HTTP (issue 31): firmware/ota/fetch.py in the real micropython
binary against a server on 127.0.0.1 (host_tests/mp_ota_fetch.py does the board's side):
a good bundle goes in on trial; a missing one, a truncated download, a server that answers
with a head too long or never answers, a bundle not signed for the board: each refused, with
nothing pointed at and the saved game intact."""

import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import otakit
from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")
GOOD = otakit.bundle("0.7.0")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *a):
        pass

    def send(self, body, status=200, extra=()):
        self.send_response(status)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        name = self.path.lstrip("/")
        if name == "good.bundle":
            self.send(GOOD)
        elif name == "cut.bundle":  # the connection lost half way
            self.send_response(200)
            self.end_headers()
            self.wfile.write(GOOD[:len(GOOD) // 2])
        elif name == "other.bundle":
            self.send(otakit.bundle("0.7.0", key=otakit.OTHER))
        elif name == "long.bundle":
            self.send(GOOD, extra=[("X-Long", "x" * 2000)])
        elif name == "silent.bundle":  # headers, then nothing for longer than the timeout
            self.send_response(200)
            self.end_headers()
            self.wfile.flush()
            time.sleep(3)
        else:
            self.send(b"no such bundle\n", 404)


@pytest.fixture(scope="module")
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def run(base, *names):
    env = dict(os.environ, MICROPYPATH="firmware:tools/host:host_tests/both")
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=256k", "host_tests/mp_ota_fetch.py", base,
                        *names], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    return {line.split()[0]: line for line in p.stdout.splitlines()}


def test_a_bundle_fetched_over_http_goes_in_on_trial(server):
    got = run(server, "good.bundle")
    assert got["good.bundle"] == "good.bundle ok 0.7.0 | arT | game True", got


def test_bad_downloads_are_refused_and_nothing_is_pointed_at(server):
    cases = {"missing.bundle": "404", "cut.bundle": "ends too soon",
             "other.bundle": "bad signature", "long.bundle": "line too long",
             "silent.bundle": "failed"}
    got = run(server, *cases)
    for name, why in cases.items():
        line = got[name]
        assert line.startswith(name + " refused ") and why in line, line
        assert line.endswith("| rrC | game True"), line


def test_an_address_that_is_not_one_is_refused(server):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got = run("http://127.0.0.1:%d" % port, "good.bundle")
    assert "refused the update from" in got["good.bundle"], got
    from ota.fetch import split
    from ota.install import UpdateError
    assert split("http://h:8080/u/t1.bundle") == ("h", 8080, "/u/t1.bundle")
    assert split("http://h") == ("h", 80, "/")
    for bad in ("https://h/x", "ftp://h/x", "http://:80/x", "http://h:99999/x",
                "http://h/a b", "http://h/x\r\nHost: evil"):
        with pytest.raises(UpdateError):
            split(bad)


def test_make_update_serves_the_boards_bundle_for_it_to_fetch(tmp_path):
    """tools/maker/update.py (make update, one board at home): the bundle signed for board t1 served
    at /t1.bundle, which the board fetches and installs; nothing else is served; the server
    knows once it was fetched whole."""
    import update

    p = tmp_path / "x.t1.bundle"
    p.write_bytes(GOOD)
    srv = update.serve(str(p), "t1", host="127.0.0.1", port=0)
    try:
        assert not srv.fetched.is_set()
        got = run("http://127.0.0.1:%d" % srv.server_address[1], "t2.bundle", "t1.bundle")
        assert got["t2.bundle"].startswith("t2.bundle refused") and "404" in got["t2.bundle"]
        assert got["t1.bundle"] == "t1.bundle ok 0.7.0 | arT | game True", got
        assert srv.fetched.is_set()
    finally:
        srv.shutdown()
        srv.server_close()
