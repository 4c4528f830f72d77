"""The club tests' real parts: a Mosquitto broker on 127.0.0.1 at a free port (its own config
and persistence folder), the club service as its own process (python -m club), and boards
that publish as a board does (simulated: real games of the core, tools/club/simboard.py) with
an outbox: a game stays in it until the broker acknowledges it, and goes again (same id,
the same signed bytes) after a reconnect.

Credentials as a club has them (issue 30): the broker refuses anonymous clients and reads the
password file and ACL `python -m club broker-files` writes from the club's registry (the
service's SQLite file, <the broker's folder>/../club.sqlite); each board is added to the
registry (its key), logs in as itself and signs its games; the service logs in with its own
account. Broker.add_board(name, unsigned=True): a board the broker lets in anonymously to its
own topics (the real firmware, which cannot log in or sign yet: test_club_night.py). The
broker runs tools/club/mosquitto.conf as shipped, but for its port, user and paths.
Broker.ADMIN is a test-only
account that may read and write every club topic (an attacker with the broker's keys: what
the club's own door refuses).

Waits poll with a deadline and fail saying what they waited for; nothing is timed."""

import json
import os
import pwd
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hostenv import ROOT
from webkit import free_port
from club import contract
from club.registry import Registry, broker_files, mosquitto_hash
from club.sign import mqtt_password
from club.simboard import SimBoard

MOSQUITTO = os.environ.get("MOSQUITTO") or "/usr/sbin/mosquitto"
HAVE_MOSQUITTO = os.path.exists(MOSQUITTO)
WHY_SKIPPED = ("no Mosquitto at %s (apt-get install mosquitto; `.ci/run` installs it as "
               "root): the club's broker tests are skipped" % MOSQUITTO)
DEADLINE = 60  # seconds any one wait may take before the test fails saying what it awaited


def until(what, check, deadline=DEADLINE):
    """Poll check() until it is true; AssertionError naming what after deadline seconds."""
    end = time.monotonic() + deadline
    while True:
        v = check()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError("waited %d s for %s" % (deadline, what))
        time.sleep(0.05)


def _accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Process:
    """A part run as its own process (self.proc, its start() makes it): killed by a signal and
    waited for, closed by SIGTERM if it still runs."""

    proc = None

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.kill(signal.SIGTERM)


class Mosquitto(Process):
    """A Mosquitto run with the config file self.conf, its log in self.folder, listening on
    127.0.0.1 at self.port (the club's broker; test_club_league.py's league's)."""

    def start(self):
        with open(os.path.join(self.folder, "mosquitto.log"), "a") as log:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdout=log, stderr=log)
        until("the broker in %s to listen on %d" % (self.folder, self.port),
              lambda: self.proc.poll() is None and _accepts(self.port))

    def restart(self, sig=signal.SIGKILL):
        self.kill(sig)
        self.start()


class Broker(Mosquitto):
    """Mosquitto with tools/club/mosquitto.conf (persistence: the club's session and queued
    games survive a restart; anonymous clients refused), on 127.0.0.1 at a free port, its
    password file and ACL from the club's registry, its files in folder."""

    ADMIN = ("admin", "admin-password")  # (test-only: every club topic, read and write)

    def __init__(self, folder, port=None, db=None):
        self.folder = str(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.port = port or free_port()
        self.registry = Registry(db or os.path.join(os.path.dirname(self.folder),
                                                    "club.sqlite"))
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        self.files()
        with open(os.path.join(ROOT, "tools", "club", "mosquitto.conf")) as f:
            shipped = f.read()  # the club's config, but for where it listens and keeps files
        lines = []
        for line in shipped.splitlines():
            key = line.split(" ", 1)[0]
            lines.append({
                "listener": "listener %d 127.0.0.1" % self.port,
                "include_dir": "include_dir %s/conf.d" % self.folder,
                "password_file": "password_file " + self.passwd,
                "acl_file": "acl_file " + self.acl,
                "persistence_location": "persistence_location %s/" % self.folder,
                "user": "user " + pwd.getpwuid(os.getuid()).pw_name}.get(key, line))
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.db = os.path.join(self.folder, "mosquitto.db")
        self.proc = None
        self.start()

    def saved_session(self, client=b"club", topic=b"/+/game"):
        """Whether the broker's persistence file holds the club service's session with its
        subscription to the games (topic: the filter after the prefix; Mosquitto writes
        client ids and filters as they are): what a kill -9 of the broker must not lose.
        (The file's time alone can be older than a test's mark: saved as the service
        connected, before the mark.)"""
        try:
            with open(self.db, "rb") as f:
                d = f.read()
        except OSError:
            return False
        return client in d and contract.PREFIX.encode() + topic in d

    def files(self):
        """The password file and ACL from the registry, and the admin's lines."""
        self.passwd, self.acl = broker_files(self.registry, self.folder,
                                             owner=pwd.getpwuid(os.getuid()).pw_name)
        user, pw = self.ADMIN
        with open(self.passwd, "a") as f:
            f.write("%s:%s\n" % (user, mosquitto_hash(pw)))
        with open(self.acl, "a") as f:
            f.write("\nuser %s\ntopic readwrite %s/#\n" % (user, contract.PREFIX))

    def add_board(self, name, unsigned=False):
        """A board in the club's registry and the broker's files (read again at once):
        its secret."""
        known = self.registry.board(name)
        if known is not None:
            return known[0]
        secret = self.registry.add(name, unsigned)
        self.files()
        self.proc.send_signal(signal.SIGHUP)
        until("the broker to know board %s" % name, lambda: logs_in(
            self.port, *(() if unsigned else (name, mqtt_password(secret)))))
        return secret

    def close(self):
        super().close()
        self.registry.close()


def logs_in(port, user=None, password=None, client_id=None):
    """Whether a client with these credentials is let in (CONNACK 0)."""
    got = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or "",
                    protocol=mqtt.MQTTv311)
    if user is not None:
        c.username_pw_set(user, password)
    c.on_connect = lambda client, u, f, reason, p: got.append(not reason.is_failure)
    try:
        c.connect("127.0.0.1", port, keepalive=10)
        end = time.monotonic() + 10
        while not got and time.monotonic() < end:
            c.loop(0.1)
    finally:
        c.disconnect()
    return bool(got and got[0])


class Service(Process):
    """The club service (tools/club) as a process: its page's port, its JSON, kill, restart."""

    def __init__(self, folder, broker, client_id="club", args=()):
        self.folder = str(folder)
        self.args = list(args)  # more of the service's arguments (its account: --mqtt-...)
        self.db = os.path.join(self.folder, "club.sqlite")
        self.broker = broker
        self.client_id = client_id
        self.proc = None
        self.start()

    def start(self):
        self.port = free_port()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(ROOT, "tools") + os.pathsep + env.get("PYTHONPATH", "")
        self.log = os.path.join(self.folder, "club.log")
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "club", "--broker", "127.0.0.1:%d" % self.broker.port,
                 "--db", self.db, "--http", str(self.port), "--bind", "127.0.0.1",
                 "--client-id", self.client_id] + self.args, stdout=log, stderr=log, env=env)
        until("the club page on %d" % self.port,
              lambda: self.alive() and _accepts(self.port))
        until("the club service to subscribe", lambda: self.get("/health.json")["connected"])

    def taken_over(self):
        """Why the service gave up its MQTT connection (another client took its id)."""
        return self.health()["taken_over"]

    def alive(self):
        if self.proc.poll() is not None:
            with open(self.log) as f:
                raise AssertionError("the club service ended: " + f.read()[-3000:])
        return True

    def get(self, path, raw=False):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path), timeout=10) as r:
            data = r.read()
        return data if raw else json.loads(data)

    def health(self):
        self.alive()
        return self.get("/health.json")

    def wait_games(self, n):
        until("%d games at the club" % n, lambda: self.health()["games"] >= n)
        return self.health()


class Board:
    """A simulated board on the broker: its games (real, the core's), its live state, its
    status with the last will, and an outbox of games the broker has not acknowledged."""

    def __init__(self, broker, name, names, seed=1, players=2):
        secret = broker.add_board(name)
        self.sim = SimBoard(name, seed=seed, players=players, secret=secret)
        self.sim.seat(names)
        self.name = name
        self.outbox = []  # [message, paho's MQTTMessageInfo or None, epoch, signed payload]
        self.sent = []  # the game messages the broker acknowledged
        self.sent_payloads = []  # and their signed payloads
        p = contract.PREFIX + "/" + name
        self.topic = p + "/game"
        c = self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-" + name,
                                      protocol=mqtt.MQTTv311)
        c.username_pw_set(name, mqtt_password(secret))
        c.will_set(p + "/status", b"offline", qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=2)

        self.epoch = 0  # connections so far: a game unacknowledged on an older one goes again

        def on_connect(client, userdata, flags, reason, props):
            self.epoch += 1
            client.publish(p + "/status", b"online", qos=1, retain=True)

        c.on_connect = on_connect
        c.connect_async("127.0.0.1", broker.port, keepalive=10)
        c.loop_start()
        until("board %s to connect" % name, c.is_connected)

    def play(self):
        """A whole game: its message goes into the outbox and is published."""
        msg = self.sim.play()
        self.outbox.append([msg, None, 0, self.sim.signed(msg)])
        self.publish_state()
        self.flush(wait=False)
        return msg

    def publish_state(self):
        self.client.publish(contract.PREFIX + "/" + self.name + "/state",
                            json.dumps(self.sim.state()).encode(), qos=0, retain=True)

    def flush(self, wait=True):
        """Publish what the outbox holds (again, same id, when a connection was lost) and,
        with wait, until the broker has acknowledged every game."""
        def step():
            for item in list(self.outbox):
                msg, info, epoch, signed = item
                if info is not None and info.is_published():
                    self.outbox.remove(item)
                    self.sent.append(msg)
                    self.sent_payloads.append(signed)
                elif self.client.is_connected() and (info is None or epoch < self.epoch):
                    item[1] = self.client.publish(self.topic, signed, qos=1)
                    item[2] = self.epoch
            return not self.outbox

        if not wait:
            step()
            return
        until("board %s's outbox to empty" % self.name, step)

    def resend_all(self):
        """Send every game already acknowledged once more (a board that lost its outbox's
        marks: the club must count each once)."""
        for signed in self.sent_payloads:
            self.client.publish(self.topic, signed, qos=1).wait_for_publish(10)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
