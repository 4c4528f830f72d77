"""The director's login and what the director did: a password set at the first start and kept
hashed (scrypt, a salt of its own), sessions (a random token in an HttpOnly, SameSite=Strict
cookie, a CSRF token of its own), tries limited per client, the tournaments put aside (a new
draw or an end keeps the one before, restorable) and a log of the director's actions.

Kept in the club's SQLite file beside the store's tables (its own connection and tables:
director, director_log, tournaments_kept); sessions and tries live in memory (a restart asks
the director to log in again).

    d = Director("club.sqlite")
    d.setup_code                      # while no password: the code the console shows
    d.set_password(pw, code)          # the first start (code: the console's)
    token = d.login(client, pw)       # None: wrong; raises Wait(seconds) while a client waits
    d.session(token) -> {"csrf", ...} or None; d.logout(token)
    d.note(client, what); d.log(50)   # the director's log
    d.keep(t, why) -> id; d.kept(20); d.take(id)   # tournaments put aside, one taken back
"""

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS director (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,         -- scrypt(password, salt, n=2**14, r=8, p=1), 32 bytes
    set_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS director_log (
    at REAL NOT NULL,
    client TEXT NOT NULL,       -- the address the request came from
    what TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournaments_kept (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kept_at REAL NOT NULL,
    why TEXT NOT NULL,          -- "a new draw", "ended", "restored another"
    tournament TEXT NOT NULL    -- JSON: the store's tournament() as it was
);
"""

PASSWORD_MIN = 8
FREE_TRIES = 5          # a client's wrong passwords before it waits
WAIT_MAX = 15 * 60      # the longest wait (seconds): doubling from 1 s after the free tries
CLIENTS_MAX = 10000     # clients whose tries are remembered (the oldest forgotten first)
SESSION_S = 12 * 3600   # a login lasts a club night
SESSIONS_MAX = 20
LOG_MAX = 2000          # rows of the director's log kept
KEPT_MAX = 50           # tournaments kept


def _hash(password, salt):
    return hashlib.scrypt(password.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=32)


class Wait(Exception):  # noqa: N818  (a state, not a failure)
    """This client must wait: .seconds."""

    def __init__(self, seconds):
        super().__init__("wait %d s" % seconds)
        self.seconds = seconds


class Director:
    def __init__(self, path, clock=time.monotonic, wall=time.time):
        self.clock = clock  # tries and sessions (monotonic; a test's own clock)
        self.wall = wall    # the log's and kept tournaments' times
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)
        self.tries = {}     # client -> [wrong tries, may try again at]
        self.sessions = {}  # token -> {"csrf", "until", "client"}
        self.setup_code = None if self.has_password() else "%04d-%04d" % (
            secrets.randbelow(10000), secrets.randbelow(10000))

    def close(self):
        with self.lock:
            self.db.close()

    # --- the password ------------------------------------------------------------------

    def has_password(self):
        with self.lock:
            return self.db.execute("SELECT 1 FROM director").fetchone() is not None

    def set_password(self, password, code=None, client="console"):
        """Set the password: the first time with the setup code (None: from the console, or a
        test), later only by a logged-in director (the caller checks). ValueError: why not."""
        if len(password) < PASSWORD_MIN:
            raise ValueError("a password of at least %d characters" % PASSWORD_MIN)
        if self.setup_code is not None and code is not None and not hmac.compare_digest(
                code.strip().encode(), self.setup_code.encode()):
            raise ValueError("not the setup code the club service's console shows")
        salt = secrets.token_bytes(16)
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO director (one, salt, hash, set_at) "
                            "VALUES (1, ?, ?, ?)", (salt, _hash(password, salt), self.wall()))
        self.setup_code = None
        self.note(client, "set the director's password")

    def _check(self, password):
        with self.lock:
            row = self.db.execute("SELECT salt, hash FROM director").fetchone()
        return row is not None and hmac.compare_digest(_hash(password, row[0]), row[1])

    # --- tries, per client ---------------------------------------------------------------

    def waiting(self, client):
        """Seconds this client must still wait before another try (0: it may try)."""
        t = self.tries.get(client)
        return max(0.0, t[1] - self.clock()) if t else 0.0

    def tried(self, client, ok):
        """Count a try: a right one forgets the client's wrong ones; after FREE_TRIES wrong
        ones each next waits twice as long (1 s, 2 s, ... WAIT_MAX)."""
        with self.lock:
            if ok:
                self.tries.pop(client, None)
                return
            t = self.tries.pop(client, [0, 0.0])  # (re-inserted: the newest last)
            t[0] += 1
            if t[0] >= FREE_TRIES:
                t[1] = self.clock() + min(WAIT_MAX, 2 ** (t[0] - FREE_TRIES))
            self.tries[client] = t
            while len(self.tries) > CLIENTS_MAX:
                del self.tries[next(iter(self.tries))]

    def login(self, client, password):
        """A new session's token, or None for a wrong password; Wait while the client waits."""
        w = self.waiting(client)
        if w > 0:
            raise Wait(int(w) + 1)
        ok = self._check(password)
        self.tried(client, ok)
        if not ok:
            self.note(client, "a wrong password")
            return None
        token = secrets.token_urlsafe(32)
        with self.lock:
            now = self.clock()
            for k in [k for k, s in self.sessions.items() if s["until"] < now]:
                del self.sessions[k]
            while len(self.sessions) >= SESSIONS_MAX:
                del self.sessions[next(iter(self.sessions))]
            self.sessions[token] = {"csrf": secrets.token_urlsafe(24),
                                    "until": now + SESSION_S, "client": client}
        self.note(client, "logged in")
        return token

    def session(self, token):
        if not token:
            return None
        with self.lock:
            s = self.sessions.get(token)
            if s is not None and s["until"] < self.clock():
                del self.sessions[token]
                s = None
        return s

    def logout(self, token):
        with self.lock:
            self.sessions.pop(token, None)

    # --- the log -------------------------------------------------------------------------

    def note(self, client, what):
        with self.lock:
            self.db.execute("INSERT INTO director_log (at, client, what) VALUES (?, ?, ?)",
                            (self.wall(), str(client)[:64], what[:300]))
            self.db.execute("DELETE FROM director_log WHERE rowid <= "
                            "(SELECT MAX(rowid) FROM director_log) - ?", (LOG_MAX,))

    def log(self, limit=50):
        """The newest actions first: dicts at, client, what."""
        with self.lock:
            rows = self.db.execute("SELECT at, client, what FROM director_log "
                                   "ORDER BY rowid DESC LIMIT ?", (limit,)).fetchall()
        return [{"at": a, "client": c, "what": w} for a, c, w in rows]

    # --- tournaments put aside -----------------------------------------------------------

    def keep(self, t, why):
        with self.lock:
            cur = self.db.execute("INSERT INTO tournaments_kept (kept_at, why, tournament) "
                                  "VALUES (?, ?, ?)", (self.wall(), why, json.dumps(t)))
            self.db.execute("DELETE FROM tournaments_kept WHERE id <= "
                            "(SELECT MAX(id) FROM tournaments_kept) - ?", (KEPT_MAX,))
            return cur.lastrowid

    def kept(self, limit=20):
        """The tournaments put aside, newest first: dicts id, kept_at, why, tournament."""
        with self.lock:
            rows = self.db.execute("SELECT id, kept_at, why, tournament FROM tournaments_kept "
                                   "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": i, "kept_at": a, "why": w, "tournament": json.loads(t)}
                for i, a, w, t in rows]

    def take(self, kid):
        """A kept tournament, taken out of the kept list (None: no such)."""
        with self.lock:
            row = self.db.execute("SELECT tournament FROM tournaments_kept WHERE id = ?",
                                  (kid,)).fetchone()
            if row is None:
                return None
            self.db.execute("DELETE FROM tournaments_kept WHERE id = ?", (kid,))
        return json.loads(row[0])
