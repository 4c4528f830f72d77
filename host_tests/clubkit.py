"""The club tests' real parts: a Mosquitto broker on 127.0.0.1 at a free port (its own config
and persistence folder), the club service as its own process (python -m club), and boards
that publish as a board does (simulated: real games of the core, tools/club/simboard.py) with
an outbox: a game stays in it until the broker acknowledges it, and goes again (same id)
after a reconnect.

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
from club.simboard import SimBoard, payload

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


class Broker:
    """Mosquitto with persistence (the club's session and queued games survive a restart)."""

    def __init__(self, folder, port=None):
        self.folder = str(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.port = port or free_port()
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n"
                    "persistence_location %s/\nautosave_interval 1\nmax_queued_messages 0\n"
                    "user %s\n" % (self.port, self.folder, pwd.getpwuid(os.getuid()).pw_name))
        self.db = os.path.join(self.folder, "mosquitto.db")
        self.proc = None
        self.start()

    def start(self):
        with open(os.path.join(self.folder, "mosquitto.log"), "a") as log:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdout=log, stderr=log)
        until("the broker to listen on %d" % self.port,
              lambda: self.proc.poll() is None and _accepts(self.port))

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def restart(self, sig=signal.SIGKILL):
        self.kill(sig)
        self.start()

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.kill(signal.SIGTERM)


class Service:
    """The club service (tools/club) as a process: its page's port, its JSON, kill, restart."""

    def __init__(self, folder, broker, client_id="club"):
        self.folder = str(folder)
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
                 "--client-id", self.client_id], stdout=log, stderr=log, env=env)
        until("the club page on %d" % self.port,
              lambda: self.alive() and _accepts(self.port))
        until("the club service to subscribe", lambda: self.get("/health.json")["connected"])

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

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.kill(signal.SIGTERM)


class Board:
    """A simulated board on the broker: its games (real, the core's), its live state, its
    status with the last will, and an outbox of games the broker has not acknowledged."""

    def __init__(self, broker, name, names, seed=1, players=2):
        self.sim = SimBoard(name, seed=seed, players=players)
        self.sim.seat(names)
        self.name = name
        self.outbox = []  # (message, paho's MQTTMessageInfo or None)
        self.sent = []  # the game messages the broker acknowledged
        p = contract.PREFIX + "/" + name
        self.topic = p + "/game"
        c = self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-" + name,
                                      protocol=mqtt.MQTTv311)
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
        self.outbox.append([msg, None, 0])
        self.publish_state()
        self.flush(wait=False)
        return msg

    def publish_state(self):
        self.client.publish(contract.PREFIX + "/" + self.name + "/state",
                            payload(self.sim.state()), qos=0, retain=True)

    def flush(self, wait=True):
        """Publish what the outbox holds (again, same id, when a connection was lost) and,
        with wait, until the broker has acknowledged every game."""
        def step():
            for item in list(self.outbox):
                msg, info, epoch = item
                if info is not None and info.is_published():
                    self.outbox.remove(item)
                    self.sent.append(msg)
                elif self.client.is_connected() and (info is None or epoch < self.epoch):
                    item[1] = self.client.publish(self.topic, payload(msg), qos=1)
                    item[2] = self.epoch
            return not self.outbox

        if not wait:
            step()
            return
        until("board %s's outbox to empty" % self.name, step)

    def resend_all(self):
        """Send every game already acknowledged once more (a board that lost its outbox's
        marks: the club must count each once)."""
        for msg in self.sent:
            self.client.publish(self.topic, payload(msg), qos=1).wait_for_publish(10)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
