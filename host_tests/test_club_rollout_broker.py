"""A release rolled out from the club's page with every part real (issue 31): Mosquitto on
127.0.0.1 with the club's config, password file and ACL (clubkit.Broker), the club service as
its own process (clubkit.Service), the director in his browser (clubweb: logged in, the
page's CSRF token), and boards t1, t2, t3 running the real firmware in the MicroPython unix port
(webkit.Board), each with its key. The order reaches each board in the club's signed message
(tools/club/says.py's "update" field; firmware/publish/says.py hands it to ota/order.py); the
board fetches its own signed copy over HTTP from the club (here through a relay that can hold
a download half way) between games only, and restarts into it on trial (the simulator ends
there: the flash it leaves is the board's).

  1. the release kept by command (python -m club release), published to table t1 alone: t1,
     mid-game, says "waiting 99.0.0" (the club shows it) and installs nothing until its game
     is over, then installs; t2, idle between games, is offered nothing and fetches nothing;
  2. then to every board: t2's download is held half way and its power cut (the process
     killed) mid-download; started again, it fetches again and installs; t3, offline during
     the rollout, is started after it: it has the club's message at once and installs.
Mosquitto missing: skipped, saying why. Waits poll with a deadline; nothing is timed."""

import json
import os
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import otakit
from club.cli import main as cli
from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Broker, Service, until
from clubweb import DirectorBrowser, set_password
from mqttkit import wifi
from webkit import Board, free_port, game_tokens, prepare

pytestmark = [pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED), pytest.mark.slow]

NEW = "99.0.0"
LONG = 120  # a board's reconnect backs off to a minute


class Relay:
    """The club's page relayed (the boards' update address): hold(board) makes that board's
    next download stop half way, the connection kept open, until release()."""

    def __init__(self, to):
        self.to = to
        self.held = None
        self.holding = threading.Event()
        self.go = threading.Event()
        relay = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *a):
                pass

            def do_GET(self):
                try:
                    with urllib.request.urlopen(relay.to + self.path, timeout=30) as r:
                        body, status = r.read(), r.status
                except urllib.error.HTTPError as e:
                    body, status = e.read(), e.code
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if relay.held and "/%s/" % relay.held in self.path:
                    relay.held = None
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    relay.holding.set()
                    relay.go.wait(60)
                    return
                self.wfile.write(body)

        self.port = free_port()
        self.srv = ThreadingHTTPServer(("127.0.0.1", self.port), H)
        self.srv.daemon_threads = True
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def hold(self, board):
        self.held = board

    def close(self):
        self.go.set()
        self.srv.shutdown()
        self.srv.server_close()


def record(root):
    try:
        with open(os.path.join(root, "slots.rec"), "rb") as f:
            return f.read()[:4]
    except OSError:
        return None


def installed(root):
    with open(os.path.join(root, "slot_a", "slot.json")) as f:
        return record(root) == b"SarT" and json.load(f)["version"] == NEW


def test_a_release_to_one_table_then_all_from_the_club_page(tmp_path, parts):
    db = str(tmp_path / "club.sqlite")
    set_password(db)
    broker = parts(Broker, tmp_path / "broker")
    keys = {b: broker.add_board(b) for b in ("t1", "t2", "t3")}
    relay = parts(Relay, "http://127.0.0.1:0")  # (its upstream set once the service is up)
    svc = parts(Service, tmp_path, broker,
                args=["--url", "http://127.0.0.1:%d" % relay.port])
    relay.to = "http://127.0.0.1:%d" % svc.port
    p = tmp_path / ("cribbage-%s-rp2040.bundle" % NEW)
    p.write_bytes(otakit.bundle(NEW, sig=b"-"))
    assert cli(["--db", db, "release", str(p)]) == 0  # (python -m club release)
    roots = {}
    for b in keys:
        roots[b] = str(tmp_path / b)
        wifi(roots[b], broker.port, board=b, secret=keys[b].hex())
    tokens = game_tokens(3)
    prepare(roots["t1"], tokens[:5])  # t1 mid-game
    t1 = parts(Board, roots["t1"])
    t2 = parts(Board, roots["t2"])  # t2 between games (none dealt yet)
    for b in (t1, t2):
        until("the boards to hear the club", lambda b=b: json.loads(b.get("/club")[1])
              .get("night"), LONG)
    director = DirectorBrowser("http://127.0.0.1:%d" % svc.port).login()
    assert director.request("/director")[0] == 200

    # 1. to table t1 alone
    status, body = director.post(do="publish", version=NEW, table="t1")
    assert status == 200 and "offered to table t1" in body, body[-600:]
    until("t1 to have the order", lambda: t1.state().get("update") == "waiting " + NEW, LONG)

    def club_says(board):
        got = {b["board"]: b for b in svc.get("/releases.json")["boards"]}
        return got[board]["update"], got[board]["offered"]

    until("the club to show t1 waiting", lambda: club_says("t1") == ("waiting " + NEW, NEW))
    t1.sim.send("wait 7000")  # (longer than the settling: a game going on is left alone)
    assert t1.state()["update"] == "waiting " + NEW and t1.state()["phase"] != "over"
    assert record(roots["t1"]) is None
    assert "update" not in t2.state() and club_says("t2") == ("", None)
    t1.keys(" ".join(tokens[5:]), taps=True)  # t1's game to its end: then it installs
    until("t1 to install and restart", lambda: t1.sim.proc.poll() is not None, LONG)
    assert installed(roots["t1"])
    assert record(roots["t2"]) is None and "update" not in t2.state()  # (never offered)

    # 2. to every board: t2's download held half way and its power cut; t3 offline
    relay.hold("t2")
    status, body = director.post(do="publish", version=NEW, table="*")
    assert status == 200 and "offered to every board" in body, body[-600:]
    assert relay.holding.wait(LONG), "t2 never began its download"
    t2.sim.proc.kill()  # the power cut, mid-download
    t2.sim.proc.wait()
    t2.close()
    assert record(roots["t2"]) is None  # (nothing pointed at: the old version runs)
    relay.go.set()
    t2 = parts(Board, roots["t2"])  # power back: the club's message again, the fetch again
    until("t2 to install and restart", lambda: t2.sim.proc.poll() is not None, LONG)
    assert installed(roots["t2"])
    t3 = parts(Board, roots["t3"])  # back after the rollout
    until("t3 to install and restart", lambda: t3.sim.proc.poll() is not None, LONG)
    assert installed(roots["t3"])
    with open(os.path.join(roots["t1"], "game"), "rb") as f:
        assert f.read()  # t1's finished game kept, for the new version to record
