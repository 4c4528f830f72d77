"""The club service: subscribes to the boards' messages through the MQTT broker, keeps every
game in SQLite, and serves the club page.

    python -m club [--broker HOST[:PORT]] [--prefix cribbage] [--db club.sqlite]
                   [--http 8124] [--bind 0.0.0.0] [--client-id club] [--set-password]
                   [--mqtt-user club] [--mqtt-password PW | --mqtt-password-file F]
    (make club BROKER=... ; tools/ on the path; python -m club boards ...: cli.py)

The MQTT session is persistent (MQTT 5, no clean start, a session that never expires, a fixed
client id, QoS 1): games the boards send while the service is down wait at the broker and
arrive when it is back. A game message is acknowledged only once it is committed to SQLite
(manual acknowledgement), so a service killed half way gets it again; its record id and its
board's counter key it, so a resend counts once. Issue 30: the service logs in with its own
account (its password from the club's database, made with the broker's files by `python -m
club broker-files`, unless given), and takes only what passes the door (intake.py: the board
known, its game signed, its JSON in shape); a message refused there is logged, kept
(store.rejects()) and acknowledged (sending it again would not mend it): only a failing
database write withholds the acknowledgement. The pages and the director's login: web.py
(Flask on waitress).
"""

import argparse
import errno
import logging
import os
import re
import secrets
import signal
import socket
import sqlite3
import sys
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from . import contract, intake, night, page, ratings
from .contract import BadMessage
from .director import Director
from .registry import SERVICE_USER, Registry
from .releases import Releases
from .says import EVERY as SAYS_EVERY, Says
from .store import Store
from .web import games_csv, serve, today  # noqa: F401  (the club's web side: web.py)

log = logging.getLogger("club")


class Club:
    """The service's state: the store, the registry of boards, the boards' live states and
    status, what was refused at the door (intake.py)."""

    def __init__(self, db, prefix=contract.PREFIX, pin=None, clock=None):
        self.store = Store(db)
        self.registry = Registry(db)
        self.releases = Releases(db)  # issue 31: the bundles, the rollout (releases.py)
        self.update_url: str | None = None  # the page's address as the boards reach it (main())
        self.says = Says(db)  # what the club says to each board (says.py)
        self.clock = clock or time.time  # the night's clock (tests: a virtual one)
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
        self._ratings = None  # (store.changes(), ratings, history): ratings()

    def night(self):
        """The club's night now (night.py's tonight(), on the club's clock)."""
        return night.tonight(self.clock())

    def subscriptions(self):
        """What the service subscribes to: (topic filter, QoS) pairs."""
        return contract.topics(self.prefix)

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

    def ratings(self):
        """(ratings, history) after every sound stored game in the order stored (ratings.py),
        computed again whenever the store has changed since the last time."""
        key = self.store.changes()
        cached = self._ratings
        if cached is None or cached[0] != key:
            good, _ = page.sift(self.store.games())
            cached = self._ratings = (key,) + ratings.rate(good)
        return cached[1], cached[2]

    def rating_of(self, name):
        """A player's rating, games rated and history [(game id, rating)], or None."""
        r, hist = self.ratings()
        if name not in r:
            return None
        return {"rating": r[name], "games": len(hist[name]), "history": hist[name]}

    def order(self, board):
        """The update order for board (issue 31; the club's message to it carries it):
        {"version", "url"} of the release offered to it, the url the folder its bundle is
        fetched from (the board adds "<kind>.bundle": web.py's /update/<board>/<kind>.bundle),
        or None: nothing offered to it, or the club's address unknown; False once the director
        has stopped the rollout (the board drops an order still waiting)."""
        v = self.releases.offer(board)
        if v is None or not self.update_url:  # (stopped: False, said, so that a board
            return False if self.releases.stopped() else None  # drops an order waiting)
        return {"version": v, "url": "%s/update/%s/" % (self.update_url.rstrip("/"), board)}

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
        client.subscribe(club.subscriptions() + [(lock, 1)])
        say(client, every=True)  # every board's message again (says.py)

    def say(client, every=False):
        """What the club says to each board (says.py): every board's, or those changed (a
        club's service: the league's says nothing)."""
        if getattr(club, "says", None) is None:
            return
        try:
            for t, p in club.says.due(club, every):
                client.publish(t, p, qos=1, retain=True)
        except Exception:  # noqa: BLE001  (the next look tries again)
            log.exception("could not say the club's message to the boards")

    def sayer():
        while True:
            time.sleep(SAYS_EVERY)
            if club.connected and not club.taken_over:
                say(c)

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
    if getattr(club, "says", None) is not None:
        threading.Thread(target=sayer, daemon=True, name="says").start()
    return c


def addresses(bind):
    """The addresses others reach the page at: bind itself, or for 0.0.0.0 (every interface)
    this machine's: the one its default route leaves from (a UDP socket "connected" to a
    documentation address: no packet is sent), its host name's, then 127.0.0.1."""
    if bind not in ("0.0.0.0", "", "::"):
        return [bind]
    out = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            out.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            out.append(info[4][0])
    except OSError:
        pass
    out = [a for a in dict.fromkeys(out) if not a.startswith("127.")]
    return [*out, "127.0.0.1"]


def _clock_file(path):
    """A clock reading the time from a file (tests: a night turned without waiting)."""
    def clock():
        with open(path) as f:
            return float(f.read())
    return clock


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
    ap.add_argument("--set-password", action="store_true", help="set (or change) the "
                    "director's password here, at the console, before serving (else the "
                    "first visit to /director sets it, with the setup code printed here)")
    ap.add_argument("--url", default=os.environ.get("CLUB_URL"), help="the page's address as "
                    "the boards reach it, for their updates (env CLUB_URL; default: this "
                    "machine's first address, as printed at the start)")
    ap.add_argument("--clock-file", default=None, help=argparse.SUPPRESS)  # (tests: the
    # night's time, seconds since the epoch, read from this file: midnight without waiting)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    host, _, port = a.broker.partition(":")
    club = Club(a.db, a.prefix, clock=_clock_file(a.clock_file) if a.clock_file else None)
    director = Director(a.db)
    if a.set_password:
        import getpass
        while True:
            pw = getpass.getpass("the director's password: ")
            if pw != getpass.getpass("again: "):
                print("they differ: again")
                continue
            try:
                director.set_password(pw)
                break
            except ValueError as e:
                print(e)
    try:
        httpd = serve(club, a.bind, a.http, director)
    except OSError as e:
        taken = e.errno == errno.EADDRINUSE
        print("club: %s %s:%d (%s): choose another with --http PORT (make club "
              "CLUB_ARGS=\"--http %d\")" % (
                  "the page's port is taken:" if taken else "cannot serve the page at",
                  a.bind, a.http, "another club service, or another program, listens there"
                  if taken else e.strerror or e, a.http + 1), file=sys.stderr)
        club.store.close()
        club.registry.close()
        return 1
    password = a.mqtt_password
    if password is None and a.mqtt_password_file:
        with open(a.mqtt_password_file) as f:
            password = f.readline().strip()
    if password is None:
        password = club.registry.account(a.mqtt_user)
    for name in club.unsigned_boards():
        log.warning("board %s is unsigned: its games are taken without a signature", name)
    client = connect(club, host, int(port or 1883), a.client_id, a.mqtt_user, password)
    got = httpd.server_address[1]
    urls = ["http://%s:%d/" % ("[%s]" % h if ":" in h else h, got) for h in addresses(a.bind)]
    club.update_url = a.url or urls[0].rstrip("/")
    print("club page: %s  (database %s)" % ("  ".join(urls), a.db), flush=True)
    if director.setup_code:
        print("the director's password is not set: open %sdirector and give the setup code "
              "%s (or start with --set-password)" % (urls[0], director.setup_code), flush=True)
    print("ready http %d" % got, flush=True)

    def stop(*_):
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        httpd.serve_forever(poll_interval=0.2)
    finally:
        httpd.server_close()
        client.loop_stop()
        director.close()
        club.store.close()
        club.registry.close()
        club.releases.close()
        club.says.close()
    return 0
