"""The club service: subscribes to the boards' messages through the MQTT broker, keeps every
game in SQLite, and serves the club page.

    python -m club [--broker HOST[:PORT]] [--prefix cribbage] [--db club.sqlite]
                   [--http 8124] [--bind 0.0.0.0] [--client-id club] [--set-password]
    (make club BROKER=... ; tools/ on the path)

The MQTT session is persistent (clean session off, a fixed client id, QoS 1): games the boards
send while the service is down wait at the broker and arrive when it is back. A game message
is acknowledged only once it is committed to SQLite (manual acknowledgement), so a service
killed half way gets it again; its record id keys it, so a resend counts once. A message that
breaks the contract (contract.py) is logged and dropped (and acknowledged: sending it again
would not mend it). The pages and the director's login: web.py (Flask on waitress).
"""

import argparse
import errno
import logging
import signal
import socket
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from . import contract
from .contract import BadMessage
from .director import Director
from .store import Store
from .web import games_csv, serve, today  # noqa: F401  (the club's web side: web.py)

log = logging.getLogger("club")


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


def main(argv=None):
    ap = argparse.ArgumentParser(prog="club", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--broker", default="127.0.0.1:1883", help="HOST[:PORT] of the broker")
    ap.add_argument("--prefix", default=contract.PREFIX, help="the boards' topic prefix")
    ap.add_argument("--db", default="club.sqlite", help="the SQLite file (created)")
    ap.add_argument("--http", type=int, default=8124, help="the club page's port")
    ap.add_argument("--bind", default="0.0.0.0", help="the club page's address")
    ap.add_argument("--client-id", default="club", help="the MQTT client id (keep it: the "
                    "broker keeps the session, and the games sent meanwhile, by it)")
    ap.add_argument("--set-password", action="store_true", help="set (or change) the "
                    "director's password here, at the console, before serving (else the "
                    "first visit to /director sets it, with the setup code printed here)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    host, _, port = a.broker.partition(":")
    club = Club(a.db, a.prefix)
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
        return 1
    client = connect(club, host, int(port or 1883), a.client_id)
    got = httpd.server_address[1]
    urls = ["http://%s:%d/" % ("[%s]" % h if ":" in h else h, got) for h in addresses(a.bind)]
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
    return 0
