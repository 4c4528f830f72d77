"""The club publisher's tests' parts: a real Mosquitto on the loopback address, a club that
subscribes as the club's service does (Eclipse Paho), a TCP proxy between a board and the
broker that cuts the connection where a test asks, and finished games to put on a board."""

import hashlib
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time

from webkit import free_port, game_tokens, prepare

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
HAVE_MOSQUITTO = os.access(MOSQUITTO, os.X_OK)
WHY_SKIPPED = ("no Mosquitto (/usr/sbin/mosquitto): `apt-get install mosquitto` (.ci/run does "
               "as root) for the club publisher's tests with a real broker")
WAIT_S = 60  # the longest any event is waited for (it comes within seconds)


def until(what, check, wait=WAIT_S):
    """check()'s first true answer, asked every 0.1 s; AssertionError naming what after wait
    seconds without one (a bound on waiting, not a timing to meet)."""
    end = time.monotonic() + wait
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError("never happened: " + what)
        time.sleep(0.1)


CLUB = ("club", "club-password")  # the club's account (reads and, for the tests, writes all)


def secret(board="t1"):
    """The test's key for board (as `make club-board` issues one: 32 bytes)."""
    return hashlib.sha256(b"test key " + board.encode()).digest()


class Broker:
    """mosquitto on 127.0.0.1:port (a free one), started and stopped by the test. As a club
    runs it (issue 30): anonymous clients refused; each of boards logs in with its name and
    the password its key gives (the club's registry.py: password file and ACL, each board
    writes its own topics alone) and the club (CLUB) reads, and here writes, them all."""

    def __init__(self, port=0, folder=None, boards=("t1",)):
        from club.registry import acl_text, mosquitto_hash
        from club.sign import mqtt_password

        self.port = port or free_port()
        self.folder = folder or tempfile.mkdtemp(prefix="mosquitto-")
        os.makedirs(self.folder, exist_ok=True)
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        passwd = os.path.join(self.folder, "passwd")
        acl = os.path.join(self.folder, "acl")
        with open(passwd, "w") as f:
            f.write("%s:%s\n" % (CLUB[0], mosquitto_hash(CLUB[1])))
            for b in boards:
                f.write("%s:%s\n" % (b, mosquitto_hash(mqtt_password(secret(b)))))
        with open(acl, "w") as f:
            f.write(acl_text([{"name": b, "unsigned": False} for b in boards], [CLUB[0]])
                    + "\nuser %s\ntopic readwrite cribbage/#\n" % CLUB[0])  # (tests write)
        os.chmod(passwd, 0o600)
        os.chmod(acl, 0o600)
        with open(self.conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous false\npersistence false\n"
                    "password_file %s\nacl_file %s\nuser %s\n" % (
                        self.port, passwd, acl, pwd.getpwuid(os.getuid()).pw_name))
            # (run as root, Mosquitto would become the mosquitto user, which cannot read
            # the files kept private)
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.folder, "mosquitto.log"), "ab")  # noqa: SIM115
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdout=self.log,
                                     stderr=subprocess.STDOUT)

        def up():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                assert self.proc.poll() is None, "mosquitto stopped: see " + self.folder
                return False
        until("mosquitto listening on %d" % self.port, up)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


class Club:
    """A subscriber to PREFIX/# (QoS 1), as the club's service: every message kept, in order:
    (topic, payload bytes, retained)."""

    def __init__(self, port, prefix="cribbage", user=CLUB[0], password=CLUB[1], keys=None):
        import paho.mqtt.client as mqtt

        self.keys = keys or {}  # board -> its key (else secret(board))
        self.got = []
        self.counters = {}  # (board, counter) -> the JSON it signed (issue 30)
        self.lock = threading.Lock()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="club-%d" % id(self))
        if user is not None:  # (a broker with accounts: the club's, issue 30)
            self.c.username_pw_set(user, password)
        self.c.on_message = self._message
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe(prefix + "/#", qos=1)
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()

    def _message(self, c, u, m):
        with self.lock:
            self.got.append((m.topic, bytes(m.payload), bool(m.retain)))

    def messages(self, topic, raw=False):
        """(payload, retained) of each message on topic; a game's as the club takes it: its
        signature checked with its board's key (tools/club/sign.py) and, unless raw, taken
        off, its counter never seen with other JSON (AssertionError: what the club would
        refuse)."""
        from club.sign import is_signed, verify

        with self.lock:
            got = [(t, p, r) for t, p, r in self.got if t == topic]
        out = []
        for t, p, r in got:
            if t.endswith("/game") and is_signed(p):
                board = t.split("/")[1]
                signed = p
                counter, _mac, p = verify(self.keys.get(board) or secret(board), p)
                seen = self.counters.setdefault((board, counter), p)  # (the JSON it signed)
                assert seen == p, "counter %d of %s signed two messages" % (counter, board)
                if raw:
                    p = signed
            out.append((p, r))
        return out

    def signed(self, board="t1"):
        """How many of board's game messages came signed (each copy counted)."""
        from club.sign import is_signed

        with self.lock:
            return sum(1 for t, p, _ in self.got
                       if t == "cribbage/%s/game" % board and is_signed(p))

    def _games(self, board):
        out = []
        for p, _ in self.messages("cribbage/%s/game" % board):
            try:
                g = json.loads(p)
            except ValueError:
                continue  # (not a board's: a test's bad message)
            if isinstance(g, dict) and "seats" in g:
                out.append(g)
        return out

    def games(self, board="t1"):
        """The boards' game messages' ids, in order of arrival (a resend shows twice)."""
        return [g["id"] for g in self._games(board)]

    def game(self, gid, board="t1"):
        for g in self._games(board):
            if g["id"] == gid:
                return g
        return None

    def publish(self, topic, payload, retain=False):
        self.c.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def _whole_packet(b):
    """The length of the first whole MQTT packet in bytes b, 0 while it is not all there."""
    n = sh = 0
    i = 1
    while True:
        if i >= len(b):
            return 0
        n |= (b[i] & 0x7F) << sh
        i += 1
        if not b[i - 1] & 0x80:
            break
        sh += 7
    return n + i if len(b) >= n + i else 0


class Proxy:
    """A TCP proxy from 127.0.0.1:port to the broker: a board connects through it. cut() asks
    it to drop the connection as the next game is published: before the broker has all of it
    ("before": half the packet goes), or after the broker has it and before its acknowledgement
    reaches the board ("after"). inject(data) sends the board bytes as if from the broker.
    port: listen there (a proxy closed and opened again where its board looks), else a free one."""

    def __init__(self, broker_port, port=0):
        self.to = broker_port
        self.port = port or free_port()
        self.ls = socket.create_server(("127.0.0.1", self.port))
        self.mode = None
        self.cuts = 0
        self.conns = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, mode):
        self.mode = mode

    def inject(self, data):
        with self.lock:
            for board, _ in self.conns:
                try:
                    board.sendall(data)
                except OSError:
                    pass

    def _accept(self):
        while True:
            try:
                a, _ = self.ls.accept()
            except OSError:
                return
            try:
                b = socket.create_connection(("127.0.0.1", self.to))
            except OSError:
                a.close()
                continue
            pair = (a, b)
            with self.lock:
                self.conns.append(pair)
            state = {"acked": False}
            threading.Thread(target=self._up, args=(pair, state), daemon=True).start()
            threading.Thread(target=self._down, args=(pair, state), daemon=True).start()

    def _drop(self, pair):
        with self.lock:
            if pair in self.conns:
                self.conns.remove(pair)
        for s in pair:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def _up(self, pair, state):  # board -> broker
        a, b = pair
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                if self.mode and b"/game" in data:
                    mode, self.mode = self.mode, None
                    self.cuts += 1
                    if mode == "before":
                        b.sendall(data[:len(data) // 2])
                        break
                    state["acked"] = True  # the next bytes down (its PUBACK) are dropped
                b.sendall(data)
        except OSError:
            pass
        self._drop(pair)

    def _down(self, pair, state):  # broker -> board
        """Forwarded packet by packet: once the game has gone up ("after"), the first PUBACK
        coming down (its acknowledgement) is dropped with the connection; what comes before
        it (a SUBACK, the club's retained message) still reaches the board, and the game's
        later parts still reach the broker (a cut at any packet would leave the broker with
        half a game: "before", by chance)."""
        a, b = pair
        buf = b""
        try:
            while True:
                data = b.recv(65536)
                if not data:
                    break
                buf += data
                n = _whole_packet(buf)
                while n:
                    if state["acked"] and buf[0] >> 4 == 4:  # (PUBACK)
                        raise OSError("cut")
                    a.sendall(buf[:n])
                    buf = buf[n:]
                    n = _whole_packet(buf)
        except OSError:
            pass
        self._drop(pair)

    def close(self):
        try:
            self.ls.shutdown(socket.SHUT_RDWR)  # wakes the accept: the port is let go at once
        except OSError:
            pass
        self.ls.close()
        with self.lock:
            pairs = list(self.conns)
        for p in pairs:
            self._drop(p)


def wifi(storage, port, **more):
    """The board's wifi.json with the broker at 127.0.0.1:port, board id "t1", and its
    identity as `make club-board` writes it (its key: secret(board); secret=None: none)."""
    os.makedirs(storage, exist_ok=True)
    b = {"host": "127.0.0.1", "port": port, "board": "t1"}
    b.update(more)
    if "secret" not in b:
        b["secret"] = secret(b["board"]).hex()
    elif b["secret"] is None:
        del b["secret"]
    with open(os.path.join(storage, "wifi.json"), "w") as f:
        json.dump({"ssid": "club", "password": "", "broker": b}, f)


def over(storage, seed):
    """Game seed played to its end (its last points pegged, not yet OK'd) put on the board in
    storage as its saved game: the board's next OK records it in the history. The board must
    be stopped (its other files are kept)."""
    tmp = tempfile.mkdtemp(prefix="game-")
    prepare(tmp, game_tokens(seed))
    os.makedirs(storage, exist_ok=True)
    shutil.copyfile(os.path.join(tmp, "game"), os.path.join(storage, "game"))
    shutil.rmtree(tmp, ignore_errors=True)


def record(serial, a, b):
    """A history record (board/history.py, version 2) of a 2-player game to 121, no summary:
    serial its game's number, a and b the sides' scores (the outbox's and the end's tests)."""
    r = bytearray((2, 16, 0, 2, 2, 121, 1, 0 if a > b else 1, 9, serial, 0, 0, a, b, 0, 0))
    c = sum(r[:14])
    r[14] = c & 255
    r[15] = c >> 8
    return bytes(r)


def history_records(storage):
    """How many records the board's history file holds (tools/player/history.py reads it)."""
    import history as tool  # tools/player/history.py

    try:
        with open(os.path.join(storage, "history"), "rb") as f:
            return len(tool.games(f.read()))
    except OSError:
        return 0
