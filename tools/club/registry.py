"""The club's boards and accounts (issue 30): who may talk to the club, and with what key.

In the club's SQLite file, beside the games (store.py):
    boards    name, secret (32 random bytes, hex), unsigned (1: a board whose firmware cannot
              sign yet: its plain games are taken, and the page warns), added
    accounts  the club services' own MQTT accounts: user, password (random)

From them, broker_files() writes Mosquitto's password file (its PBKDF2-SHA512 "$7$" lines,
made here with hashlib: no mosquitto_passwd needed) and its ACL: a board may write only under
its own topics (<prefix>/<board>/status, state, game), a service account alone reads them all,
and an anonymous client may do nothing; <prefix>/<board>/says (what the club says to a board:
says.py) a service account alone writes and that board alone reads. An unsigned board (its
firmware cannot log in yet) is the exception, said where it is made: conf.d/club-unsigned.conf
lets anonymous clients in while the registry has one, and the ACL lets them write that board's
topics alone.

Key derivations (the board's side relies on them: docs/club-board.md):
    MQTT user of a board     its name
    MQTT password of a board hex(HMAC-SHA256(key=secret, msg=b"mqtt"))[:32]
    signing key              the secret itself (sign.py), which never leaves the club and
                             the board's flash
"""

import base64
import hashlib
import os
import secrets
import sqlite3
import time

from . import contract, schema, sqlfile
from publish.contract import SAYS
from .sign import mqtt_password

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL,       -- 64 hex digits: the board's key (never sent anywhere)
    unsigned INTEGER NOT NULL DEFAULT 0,
    added REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    user TEXT PRIMARY KEY,
    password TEXT NOT NULL
);
"""
MAX_BOARDS = 500  # a registry of more is a mistake (a club night of 500 tables is the most)
PBKDF2_ITERATIONS = 101  # mosquitto_passwd's (2.0)
SERVICE_USER = "club"


class Registry(sqlfile.Part):
    """The boards and accounts in one SQLite file (its own connection: the service and the
    club command may use the file at once)."""

    SCHEMA = SCHEMA

    def add(self, name, unsigned=False):
        """A new board: its secret (bytes). ValueError for a bad or taken name."""
        if not schema.board_name(name):
            raise ValueError("a board's name is 1 to 16 letters, digits, - or _: not %r" % name)
        secret = secrets.token_bytes(32)
        with self.lock:
            n = self.db.execute("SELECT COUNT(*) FROM boards").fetchone()[0]
            if n >= MAX_BOARDS:
                raise ValueError("the club has %d boards already (at most %d)" % (n, MAX_BOARDS))
            try:
                self.db.execute("INSERT INTO boards (name, secret, unsigned, added) "
                                "VALUES (?,?,?,?)", (name, secret.hex(), int(unsigned),
                                                      time.time()))
            except sqlite3.IntegrityError:
                raise ValueError("board %r is known already (remove it first for a new "
                                 "key)" % name) from None
        return secret

    def put(self, name, secret, unsigned=False):
        """A board with the key its club gave it (a league's copy of a club's registry)."""
        if not schema.board_name(name) or len(secret) != 32:
            raise ValueError("a board's name and its 32-byte key: not %r" % (name,))
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO boards (name, secret, unsigned, added) "
                            "VALUES (?,?,?,?)", (name, secret.hex(), int(unsigned),
                                                  time.time()))

    def remove(self, name):
        """Forget a board (its games stay): True if it was known."""
        with self.lock:
            return self.db.execute("DELETE FROM boards WHERE name = ?", (name,)).rowcount == 1

    def boards(self):
        """Every board: a list of dicts name, unsigned, added (no secrets)."""
        with self.lock:
            rows = self.db.execute(
                "SELECT name, unsigned, added FROM boards ORDER BY name").fetchall()
        return [{"name": r[0], "unsigned": bool(r[1]), "added": r[2]} for r in rows]

    def board(self, name):
        """(secret bytes, unsigned) of a known board, else None."""
        with self.lock:
            row = self.db.execute("SELECT secret, unsigned FROM boards WHERE name = ?",
                                  (name,)).fetchone()
        return None if row is None else (bytes.fromhex(row[0]), bool(row[1]))

    def secret(self, name):
        b = self.board(name)
        return None if b is None else b[0]

    def account(self, user=SERVICE_USER, create=True):
        """A service account's password (made, random, the first time when create)."""
        with self.lock:
            row = self.db.execute("SELECT password FROM accounts WHERE user = ?",
                                  (user,)).fetchone()
            if row is not None:
                return row[0]
            if not create:
                return None
            pw = secrets.token_hex(16)
            self.db.execute("INSERT INTO accounts (user, password) VALUES (?,?)", (user, pw))
            return pw

    def accounts(self):
        with self.lock:
            return dict(self.db.execute("SELECT user, password FROM accounts ORDER BY user"))


def mosquitto_hash(password, salt=None, iterations=PBKDF2_ITERATIONS):
    """A password as Mosquitto 2's password file keeps it: $7$<iterations>$<salt>$<hash>
    (PBKDF2-HMAC-SHA512, a 12-byte salt, a 64-byte hash, both base64)."""
    salt = os.urandom(12) if salt is None else salt
    h = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, 64)
    return "$7$%d$%s$%s" % (iterations, base64.b64encode(salt).decode(),
                            base64.b64encode(h).decode())


def acl_text(boards, users, prefix=contract.PREFIX):
    """Mosquitto's ACL: anonymous nothing (an unsigned board's topics excepted), each board
    its own topics to write, each service account every board's topics to read."""
    out = ["# Written by `python -m club broker-files` from the club's boards: do not edit.",
           "# Anonymous clients (the lines before the first `user`): nothing, except that an",
           "# unsigned board (its firmware cannot log in yet) writes its own topics."]
    for b in boards:
        if b["unsigned"]:
            out += ["topic write %s/%s/%s" % (prefix, b["name"], k)
                    for k in ("status", "state", "game")]
    for u in users:
        out += ["", "user %s" % u, "topic read %s/+/status" % prefix,
                "topic read %s/+/state" % prefix, "topic read %s/+/game" % prefix,
                "topic readwrite %s/_service/+/lock" % prefix,  # (service.py's lock)
                "topic write %s/+/%s" % (prefix, SAYS)]  # (what the club says: says.py)
    for b in boards:
        out += ["", "user %s" % b["name"]] + ["topic write %s/%s/%s" % (prefix, b["name"], k)
                                             for k in ("status", "state", "game")] + [
            "topic read %s/%s/%s" % (prefix, b["name"], SAYS)]  # (the club's to it alone)
    return "\n".join(out) + "\n"


def _write(path, text):
    """Write a file whole and private (0600), in place of the old one at once."""
    tmp = path + ".new"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _owner(name):
    """(uid, gid) to give the broker's files to when run as root (Mosquitto started as root
    becomes its `user`, mosquitto, before it reads them), else None."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        p = pwd.getpwnam(name or "mosquitto")
    except KeyError:
        if name:
            raise ValueError("no user %r to give the broker's files to" % name) from None
        return None
    return p.pw_uid, p.pw_gid


def broker_files(reg, folder, prefix=contract.PREFIX, service_user=SERVICE_USER, owner=None):
    """Mosquitto's password file (club.passwd) and ACL (club.acl) in folder, from the
    registry (the service account made if missing). Run as root, the folder and files are
    given to owner (default mosquitto, if it exists: the `user` the shipped config names).
    Returns their paths."""
    os.makedirs(folder, exist_ok=True)
    reg.account(service_user)
    users = reg.accounts()
    boards = reg.boards()
    lines = ["%s:%s" % (u, mosquitto_hash(pw)) for u, pw in sorted(users.items())]
    for b in boards:
        secret = reg.secret(b["name"])
        if secret is not None and b["name"] not in users:
            lines.append("%s:%s" % (b["name"], mosquitto_hash(mqtt_password(secret))))
    passwd = os.path.join(folder, "club.passwd")
    acl = os.path.join(folder, "club.acl")
    _write(passwd, "\n".join(lines) + "\n")
    _write(acl, acl_text(boards, sorted(users), prefix))
    # the config's include_dir: anonymous clients let in (to an unsigned board's topics
    # alone, by the ACL) only while the registry has an unsigned board
    confd = os.path.join(folder, "conf.d")
    os.makedirs(confd, exist_ok=True)
    unsigned = [b["name"] for b in boards if b["unsigned"]]
    extra = os.path.join(confd, "club-unsigned.conf")
    _write(extra, "# Written by python -m club broker-files: do not edit.\n" + (
        "# Unsigned boards (they cannot log in yet): %s\nallow_anonymous true\n"
        % ", ".join(unsigned) if unsigned else "# No unsigned boards: anonymous clients "
        "refused (mosquitto.conf).\n"))
    ids = _owner(owner)
    if ids is not None:
        for p in (folder, passwd, acl, confd, extra):
            os.chown(p, *ids)
    return passwd, acl


def wifi_entry(name, secret, host="BROKER-ADDRESS", port=None):
    """The Wi-Fi file's broker entry for a board (make flash writes it onto the board)."""
    e = {"host": host, "board": name, "secret": secret.hex()}
    if port:
        e["port"] = port
    return e
