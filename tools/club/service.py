"""The club service: subscribes to the boards' messages through the MQTT broker, keeps every
game in SQLite, and serves the club page.

    python -m club [--broker HOST[:PORT]] [--prefix cribbage] [--db club.sqlite]
                   [--http 8124] [--bind 0.0.0.0] [--client-id club] [--pin PIN]
                   [--mqtt-user club] [--mqtt-password PW | --mqtt-password-file F]
    (make club BROKER=... ; tools/ on the path; python -m club boards ...: cli.py)

Issue 30: the service logs in with its own account (its password from the club's database,
made with the broker's files by `python -m club broker-files`, unless given), and takes only
what passes the door (intake.py: the board known, its game signed, its JSON in shape); every
refused message is acknowledged, counted and kept (store.rejects()).

The MQTT session is persistent (clean session off, a fixed client id, QoS 1): games the boards
send while the service is down wait at the broker and arrive when it is back. A game message
is acknowledged only once it is committed to SQLite (manual acknowledgement), so a service
killed half way gets it again; its record id and its board's counter key it, so a resend counts
once. A message refused at the door is logged, kept and acknowledged (sending it again would
not mend it): only a failing database write withholds the acknowledgement.
Pages: / (the night: ?night=YYYY-MM-DD or all), /projector, /player?name=,
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
import os
import re
import secrets
import socket
import sqlite3
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.clubfiles import NAME_MAX, check_name
from board.export import GAME_COLUMNS, SIDE_COLUMNS, csv_rows

from . import contract, intake, night, page
from .contract import BadMessage
from .registry import SERVICE_USER, Registry
from .store import Store

log = logging.getLogger("club")


def today():
    """The club night's name: the local date."""
    return time.strftime("%Y-%m-%d")


class Club:
    """The service's state: the store, the registry of boards, the boards' live states and
    status, what was refused at the door (intake.py)."""

    def __init__(self, db, prefix=contract.PREFIX, pin=None):
        self.store = Store(db)
        self.registry = Registry(db)
        self.prefix = prefix
        self.pin = pin
        self.states = {}
        self.status = {}
        self.dropped = 0  # refused at the door since the start (store.rejects() says why)
        self.duplicates = 0  # a game counted already, sent again (a resend, a redelivery)
        self.stale = 0  # an earlier revision of a game than the one kept
        self.connected = False
        self.taken_over = None  # why the MQTT connection was given up (another service)
        self.lock = threading.Lock()

    def night(self):
        return today()

    def handle(self, topic, payload):
        """One message: "new", "revised", "withdrawn", "duplicate", "stale", "state",
        "status" or "dropped" (refused: counted, logged and kept with its reason). Raises
        only when the store fails (sqlite3.Error: the message is not acknowledged)."""
        try:
            got = intake.take(self, topic, payload)
        except sqlite3.Error:
            raise
        except Exception as e:  # noqa: BLE001  (BadMessage, or a fault no message may cause)
            why = str(e) if isinstance(e, BadMessage) else "%s: %s" % (type(e).__name__, e)
            with self.lock:
                self.dropped += 1
            board = topic.split("/")[-2] if topic.count("/") >= 2 else ""
            log.warning("dropped a message on %s: %s", topic[:200], why)
            self.store.reject(board, topic, why)
            return "dropped"
        if got in ("duplicate", "stale"):
            with self.lock:
                if got == "duplicate":
                    self.duplicates += 1
                else:
                    self.stale += 1
            log.info("a game on %s again (%s): nothing changed", topic, got)
        elif got in ("new", "revised", "withdrawn"):
            log.info("game on %s: %s", topic, got)
        return got

    def games(self, night_name):
        if night_name == "all":
            return self.store.games()
        return self.store.games(night=night_name)

    def live(self):
        with self.lock:
            return dict(self.states), dict(self.status)

    def unsigned_boards(self):
        """The boards whose plain (unsigned) games the club takes: a warning on the page."""
        return [b["name"] for b in self.registry.boards() if b["unsigned"]]

    def warnings(self):
        """What the director should know of the club's trust (a line each), for the page."""
        out = []
        u = self.unsigned_boards()
        if u:
            out.append("unsigned boards (their games are not authenticated): " + ", ".join(u))
        if self.taken_over:
            out.append(self.taken_over)
        if self.dropped:
            out.append("%d messages refused since the start (see the rejects)" % self.dropped)
        return out

    def health(self):
        """/health.json: games kept, refused, duplicates, connected, and the warnings."""
        with self.lock:
            live = len(self.states)
        return {"games": self.store.count(), "dropped": self.dropped,
                "duplicates": self.duplicates, "stale": self.stale,
                "connected": self.connected, "taken_over": self.taken_over,
                "live_boards": live, "max_live_boards": intake.MAX_LIVE,
                "unsigned_boards": self.unsigned_boards(), "warnings": self.warnings()}


# --- MQTT ----------------------------------------------------------------------------------

TAKEN_OVER = 142  # MQTT 5's "session taken over" (Mosquitto 2.0 just closes the connection)


def lock_topic(prefix, client_id):
    """The retained topic where the service that last started with client_id leaves its
    mark: <prefix>/_service/<client id>/lock (never a board's: four levels)."""
    return "%s/_service/%s/lock" % (prefix, re.sub(r"[^A-Za-z0-9_-]", "_", client_id))


def connect(club, host, port, client_id, user=None, password=None):
    """A paho client for club, connecting in the background (it reconnects by itself), as
    user with password (the service's own account). MQTT 5 with a session that never
    expires and no clean start: games sent while the service is down wait at the broker.

    Two services with one client id would take the session from each other at every
    reconnect. So each start of the service leaves a random mark, retained, at its lock
    topic (before it subscribes); at a reconnect it reads the mark again, and if another
    service has left its own meanwhile, this one stops its MQTT connection and says why (on
    the page and in /health.json) rather than take the session back: the newer one keeps
    it, and the two never fight. (An MQTT 5 broker that says "session taken over" is taken
    at its word.)"""
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                    protocol=mqtt.MQTTv5, manual_ack=True)
    if user:
        c.username_pw_set(user, password)
    c.reconnect_delay_set(min_delay=1, max_delay=5)
    c.max_inflight_messages_set(100)
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = 0xFFFFFFFF  # never: the club's session is kept
    lock = lock_topic(club.prefix, client_id)
    mark = secrets.token_hex(8).encode()
    connects = [0]

    def give_up(client):
        club.taken_over = ("another club service connected to the broker as client id %r "
                           "and took this one's session: this service stopped its MQTT "
                           "connection (give each club service its own --client-id)"
                           % client_id)
        club.connected = False
        log.error(club.taken_over)
        client.disconnect()  # (no reconnect: the other keeps the session)

    def on_connect(client, userdata, flags, reason, props):
        if reason.is_failure:
            log.warning("broker refused: %s%s", reason, " (the service's account: python -m "
                        "club broker-files, then restart or HUP the broker)"
                        if reason.value in (134, 135) else "")
            return
        if club.taken_over:
            client.disconnect()
            return
        connects[0] += 1
        club.connected = True
        log.info("connected to %s:%d as %s (session present: %s)", host, port, client_id,
                 flags.session_present)
        if connects[0] == 1:  # this start's mark, before the subscription reads it back
            client.publish(lock, mark, qos=1, retain=True)
        client.subscribe(contract.topics(club.prefix) + [(lock, 1)])

    def on_disconnect(client, userdata, flags, reason, props):
        club.connected = False
        if getattr(reason, "value", None) == TAKEN_OVER:
            give_up(client)
            return
        if not club.taken_over:
            log.warning("disconnected from the broker (%s): reconnecting", reason)

    def on_message(client, userdata, m):
        if m.topic == lock:
            if m.payload and m.payload != mark:
                give_up(client)
                return
        else:
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
    c.connect_async(host, port, keepalive=30, clean_start=False, properties=props)
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
            self._json(club.health())
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
        bad = []  # names no board can keep (board/clubfiles.py): its players could not be named
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
    ap.add_argument("--client-id", default=os.environ.get("CLUB_CLIENT_ID") or "club",
                    help="the MQTT client id (env CLUB_CLIENT_ID; keep it: the broker keeps "
                    "the session, and the games sent meanwhile, by it; a second service on "
                    "the same broker needs its own)")
    ap.add_argument("--mqtt-user", default=os.environ.get("CLUB_MQTT_USER") or SERVICE_USER,
                    help="the service's MQTT account (env CLUB_MQTT_USER)")
    ap.add_argument("--mqtt-password", default=os.environ.get("CLUB_MQTT_PASSWORD"),
                    help="its password (env CLUB_MQTT_PASSWORD; default: the account's in the "
                    "club's database, made by `python -m club broker-files` or here)")
    ap.add_argument("--mqtt-password-file", default=None,
                    help="a file whose first line is the password")
    ap.add_argument("--pin", default=None, help="a PIN the director's form asks for")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    host, _, port = a.broker.partition(":")
    club = Club(a.db, a.prefix, a.pin)
    password = a.mqtt_password
    if password is None and a.mqtt_password_file:
        with open(a.mqtt_password_file) as f:
            password = f.readline().strip()
    if password is None:
        password = club.registry.account(a.mqtt_user)
    for name in club.unsigned_boards():
        log.warning("board %s is unsigned: its games are taken without a signature", name)
    client = connect(club, host, int(port or 1883), a.client_id, a.mqtt_user, password)
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
        club.registry.close()
    return 0
