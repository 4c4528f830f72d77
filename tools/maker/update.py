"""Update one board from a laptop, at home (no club): build the release, sign it for the board
whose Wi-Fi file you hold (its secret: tools/maker/release.py sign), and serve it over HTTP on the
laptop's network for the board to fetch (firmware/ota/fetch.py), between games.

    python tools/maker/update.py --wifi wifi.json [--board pico_w] [--bundle FILE] [--port 8266]
                           [--usb]
    make update WIFI=wifi.json BOARD=pico_w

It prints the address the board fetches (http://<this laptop>:<port>/<board id>.bundle) and
serves it until the board has fetched it whole once (or Ctrl-C). The board is told with
--usb (mpremote, the board on this laptop's USB: at its REPL, `ota.fetch.fetch(address)`
then a reset, the new version on trial), or from its own page with its PIN where its page
offers it. The bundle is signed for that board alone: another board refuses it, and anyone on
the network who reads it learns nothing the sources do not say.
"""

import argparse
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import release
from hostenv import ROOT, venv_program


def serve(path, name, host="0.0.0.0", port=8266):
    """An HTTP server (started, in a thread) that serves the file path at /name.bundle and
    404 for anything else; .fetched (a threading.Event) is set once it was sent whole."""
    with open(path, "rb") as f:
        body = f.read()
    fetched = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, fmt, *args):
            sys.stderr.write("update: %s %s\n" % (self.address_string(), fmt % args))

        def do_GET(self):
            if self.path != "/%s.bundle" % name:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            fetched.set()

    srv = ThreadingHTTPServer((host, port), Handler)
    srv.daemon_threads = True
    srv.fetched = fetched  # type: ignore[attr-defined]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def laptop_address():
    """This laptop's address on its network (the one a route out would use)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # (TEST-NET: no packet is sent by a UDP connect)
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def tell_over_usb(url):
    """The board on USB fetches url at its REPL (mpremote, without a soft reset: its Wi-Fi
    stays up), then resets into the new version on trial."""
    code = ("from ota.fetch import fetch\nprint('update:', fetch(%r)['version'])\n"
            "import machine\nmachine.reset()\n" % url)
    return subprocess.run([venv_program("mpremote") or "mpremote", "resume", "exec", code])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wifi", required=True, help="the board's Wi-Fi file, with its secret")
    ap.add_argument("--board", choices=sorted(release.KINDS), default="pico_w")
    ap.add_argument("--bundle", help="a bundle built already (default: build one now)")
    ap.add_argument("--port", type=int, default=8266)
    ap.add_argument("--usb", action="store_true", help="tell the board on USB to fetch it")
    a = ap.parse_args(argv)
    path = a.bundle or release.make(a.board, os.path.join(ROOT, "build", "release"))
    signed = release.sign(path, a.wifi)
    name, _key = release.secret(a.wifi)
    srv = serve(signed, name, port=a.port)
    url = "http://%s:%d/%s.bundle" % (laptop_address(), srv.server_address[1], name)
    print("update: %s serves %s for board %s" % (url, os.path.basename(signed), name))
    try:
        if a.usb:
            tell_over_usb(url)
        else:
            print("update: on the board, between games: from ota.fetch import fetch; "
                  "fetch(%r); then reset it" % url)
        srv.fetched.wait()  # type: ignore[attr-defined]
        print("update: fetched")
    except KeyboardInterrupt:
        pass
    finally:
        srv.shutdown()
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
