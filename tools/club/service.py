"""The club service: subscribes to the boards' messages through the MQTT broker, keeps every
game in SQLite, and serves the club page.

    python -m club [--broker HOST[:PORT]] [--prefix cribbage] [--db club.sqlite]
                   [--http 8124] [--bind 0.0.0.0] [--client-id club] [--pin PIN]
    (make club BROKER=... ; tools/ on the path)

The MQTT session is persistent (clean session off, a fixed client id, QoS 1): games the boards
send while the service is down wait at the broker and arrive when it is back. A game message
is acknowledged only once it is committed to SQLite (manual acknowledgement), so a service
killed half way gets it again; its record id keys it, so a resend counts once. A message that
breaks the contract (contract.py) is logged and dropped (and acknowledged: sending it again
would not mend it). Pages: / (the night: ?night=YYYY-MM-DD or all), /projector, /player?name=,
/game?id=, /race.svg?id=, /director; data: /games.json, /games.csv, /standings.json,
/state.json, /tournament.json, /players.json (the tournament's players, then tonight's other
names: the list a board's page offers), /health.json. The JSON is any page's to read (CORS:
a board's page, on the phone, asks /players.json and /tournament.json).
"""

import argparse
import csv
import io
import json
import logging
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

import hostenv  # noqa: F401  (firmware/ on sys.path)
from publish.contract import NAME_MAX, check_name
from board.export import GAME_COLUMNS, SIDE_COLUMNS, csv_rows

from . import contract, night, page
from .contract import BadMessage
from .store import Store

log = logging.getLogger("club")


def today():
    """The club night's name: the local date."""
    return time.strftime("%Y-%m-%d")


class Club:
    """The service's state: the store, the boards' live states and status, what was dropped."""

    def __init__(self, db, prefix=contract.PREFIX, pin=None):
        self.store = Store(db)
        self.prefix = prefix
        self.pin = pin
        self.states = {}
        self.status = {}
        self.dropped = 0
        self.duplicates = 0
        self.connected = False
        self.lock = threading.Lock()

    def handle(self, topic, payload):
        """One message: "new", "duplicate", "state", "status" or "dropped" (logged why)."""
        try:
            board, kind = contract.split(topic, self.prefix)
            if kind == "game":
                msg = contract.check_game(board, payload)
                if self.store.add_game(msg, today()):
                    log.info("game %s stored", msg["id"])
                    return "new"
                with self.lock:
                    self.duplicates += 1
                kept = self.store.game(msg["id"]) or {}
                if kept.get("game") != msg["game"] or kept.get("seats") != msg["seats"]:
                    log.warning("game %s again with other contents: the first kept (a board "
                                "that counts its games from 1 again?)", msg["id"])
                else:
                    log.info("game %s again: stored already", msg["id"])
                return "duplicate"
            if kind == "state":
                if not payload:  # a retained state cleared
                    with self.lock:
                        self.states.pop(board, None)
                    return "state"
                st = contract.check_state(board, payload)
                with self.lock:
                    self.states[board] = st
                return "state"
            v = contract.check_status(payload)
            with self.lock:
                self.status[board] = v
            return "status"
        except BadMessage as e:
            with self.lock:
                self.dropped += 1
            log.warning("dropped a message on %s: %s", topic, e)
            return "dropped"

    def games(self, night_name):
        if night_name == "all":
            return self.store.games()
        return self.store.games(night=night_name)

    def live(self):
        with self.lock:
            return dict(self.states), dict(self.status)


# --- MQTT ----------------------------------------------------------------------------------

def connect(club, host, port, client_id):
    """A paho client for club, connecting in the background (it reconnects by itself)."""
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                    clean_session=False, protocol=mqtt.MQTTv311, manual_ack=True)
    c.reconnect_delay_set(min_delay=1, max_delay=5)
    c.max_inflight_messages_set(100)

    def on_connect(client, userdata, flags, reason, props):
        if reason.is_failure:
            log.warning("broker refused: %s", reason)
            return
        club.connected = True
        log.info("connected to %s:%d (session present: %s)", host, port, flags.session_present)
        client.subscribe(contract.topics(club.prefix))

    def on_disconnect(client, userdata, flags, reason, props):
        club.connected = False
        log.warning("disconnected from the broker (%s): reconnecting", reason)

    def on_message(client, userdata, m):
        try:
            club.handle(m.topic, m.payload)
        except Exception:  # (the store failed: not acknowledged, the broker sends it again)
            log.exception("could not keep the message on %s", m.topic)
            return
        if m.qos:
            client.ack(m.mid, m.qos)

    c.on_connect = on_connect
    c.on_disconnect = on_disconnect
    c.on_message = on_message
    c.connect_async(host, port, keepalive=30)
    c.loop_start()
    return c


# --- the page -------------------------------------------------------------------------------

def games_csv(games):
    """A row per game and seat: the club's columns, then the board's (board/export.py)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(("id", "board", "night", "received", "seat", "player", "points", "spread")
               + GAME_COLUMNS + SIDE_COLUMNS)
    for msg in games:
        rows = csv_rows(msg["game"])
        res = {r["name"]: r for r in night.results(msg)}
        for i, seat in enumerate(msg["seats"]):
            r = res.get(seat["name"]) if seat["name"] else None
            w.writerow([msg["id"], msg["board"], msg["night"], "%.3f" % msg["received"], i,
                        seat["name"] or "", r["points"] if r else "", r["spread"] if r else ""]
                       + rows[seat["side"]])
    return out.getvalue()


class Handler(BaseHTTPRequestHandler):
    club: Club  # set by serve()
    server_version = "club/1"

    def setup(self):
        super().setup()
        # a reply's headers and body go out as they are written: no wait on the peer's ACK
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):  # noqa: A002  (the base class's name)
        log.debug("http: " + format, *args)

    def _send(self, body, ctype="text/html; charset=utf-8", code=200, headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _json(self, v):
        # Any page may read the club's data (a board's page asks /players.json and
        # /tournament.json from the phone): a simple GET, so this header is all CORS needs.
        self._send(json.dumps(v), "application/json",
                   headers=[("Access-Control-Allow-Origin", "*")])

    def do_GET(self):
        try:
            self._get()
        except Exception:
            log.exception("page %s", self.path)
            self._send("error (the service's log says what)", "text/plain", 500)

    def _get(self):
        club = self.club
        u = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        name = q.get("night") or today()
        games = club.games(name)
        t = club.store.tournament()
        path = u.path
        if path == "/":
            states, status = club.live()
            self._send(page.club_page(name, club.store.nights(), games, states, status, t,
                                      club.dropped))
        elif path == "/projector":
            self._send(page.projector_page(name, games, t))
        elif path == "/player":
            self._send(page.player_page(q.get("name", ""), games if "night" in q
                                        else club.games("all")))
        elif path in ("/game", "/race.svg"):
            msg = club.store.game(q.get("id", ""))
            if msg is None:
                self._send("no such game", "text/plain", 404)
            elif path == "/game":
                self._send(page.game_page(msg))
            else:
                self._send(page.race_svg(msg), "image/svg+xml")
        elif path == "/director":
            self._send(page.director_page(t))
        elif path == "/games.json":
            self._json(games)
        elif path == "/games.csv":
            self._send(games_csv(games), "text/csv; charset=utf-8",
                       headers=[("Content-Disposition",
                                 'attachment; filename="club-%s.csv"' % name)])
        elif path == "/standings.json":
            self._json({"night": name, "games": len(games), "standings": night.standings(games),
                        "special_hands": night.special_hands(games)})
        elif path == "/state.json":
            states, status = club.live()
            self._json({"states": states, "status": status})
        elif path == "/tournament.json":
            if t is None:
                self._json(None)
            else:
                info = page.tournament_info(t, club.games("all"))
                self._json({"tournament": t, "next_game": None if info["next"] is None
                            else info["next"] + 1,
                            "tables": [] if info["next"] is None else
                            page.tournament.tables(info["rounds"][info["next"]], t["tables"]),
                            "standings": info["standings"], "bracket": info["bracket"]})
        elif path == "/players.json":  # the club's list, for a board's page to choose from
            names = list(t["players"]) if t else []
            for r in night.standings(games):
                if r["name"] not in names:
                    names.append(r["name"])
            self._json(names)
        elif path == "/health.json":
            self._json({"games": club.store.count(), "dropped": club.dropped,
                        "duplicates": club.duplicates, "connected": club.connected})
        else:
            self._send("not found", "text/plain", 404)

    def do_POST(self):
        club = self.club
        if urlsplit(self.path).path != "/director":
            self._send("not found", "text/plain", 404)
            return
        n = int(self.headers.get("Content-Length") or 0)
        if n > 65536:
            self._send("too long", "text/plain", 413)
            return
        form = {k: v[-1] for k, v in parse_qs(self.rfile.read(n).decode("utf-8", "replace"))
                .items()}
        t = club.store.tournament()
        if club.pin and form.get("pin") != club.pin:
            self._send(page.director_page(t, "wrong PIN"), code=403)
            return
        if form.get("do") == "end":
            club.store.end_tournament()
            self._send(page.director_page(None, "tournament ended"))
            return
        players = []
        bad = []  # names no board can keep (publish/contract.py): its players could not be named
        for line in form.get("players", "").splitlines():
            p = line.strip()
            try:
                p = check_name(p)
            except ValueError:
                bad.append(p)
                continue
            if p and p not in players:
                players.append(p)
        try:
            games = int(form.get("games", "9"))
            tables = int(form.get("tables", "1"))
        except ValueError:
            games = tables = 0
        if bad:  # the form again as typed, to put right
            typed = [x.strip() for x in form.get("players", "").splitlines() if x.strip()]
            self._send(page.director_page(
                {"players": typed, "games": games or 9, "tables": tables or 1},
                "a board keeps names of at most %d letters, digits, space . or - : not %s"
                % (NAME_MAX, ", ".join(bad))), code=400)
            return
        if len(players) < 2 or not 1 <= games <= 30 or not 1 <= tables <= 500:
            self._send(page.director_page(t, "need 2 or more players, 1-30 games, 1 or more "
                                             "tables"), code=400)
            return
        club.store.set_tournament(players, games, tables, today())
        self._send(page.director_page(club.store.tournament(), "tournament started: %d players"
                                      % len(players)))


def serve(club, bind, port):
    """The page's HTTP server (threads), not yet serving: call serve_forever()."""
    handler = type("ClubHandler", (Handler,), {"club": club})
    return ThreadingHTTPServer((bind, port), handler)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="club", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--broker", default="127.0.0.1:1883", help="HOST[:PORT] of the broker")
    ap.add_argument("--prefix", default=contract.PREFIX, help="the boards' topic prefix")
    ap.add_argument("--db", default="club.sqlite", help="the SQLite file (created)")
    ap.add_argument("--http", type=int, default=8124, help="the club page's port")
    ap.add_argument("--bind", default="0.0.0.0", help="the club page's address")
    ap.add_argument("--client-id", default="club", help="the MQTT client id (keep it: the "
                    "broker keeps the session, and the games sent meanwhile, by it)")
    ap.add_argument("--pin", default=None, help="a PIN the director's form asks for")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    host, _, port = a.broker.partition(":")
    club = Club(a.db, a.prefix, a.pin)
    client = connect(club, host, int(port or 1883), a.client_id)
    httpd = serve(club, a.bind, a.http)
    log.info("club page on http://%s:%d/  (database %s)", a.bind, httpd.server_address[1], a.db)
    print("ready http %d" % httpd.server_address[1], flush=True)

    def stop(*_):
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        httpd.serve_forever(poll_interval=0.2)
    finally:
        client.loop_stop()
        club.store.close()
    return 0
