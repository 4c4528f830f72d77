"""The club's releases (issue 31): the bundles it keeps, the rollout the director publishes (to
one table first, then to all), and each board's own signed copy, served over HTTP.

A release comes in by command, never by the page: `python -m club release BUNDLE` keeps a
bundle `make release` built (tools/maker/release.py), `python -m club release --board pico_w`
builds one from this checkout first. Either is checked whole before it is kept (add()): the
magic, a manifest within the board's own bounds (24 KB, a version of 1-4 numbers, a board
kind the club serves), every file's size and SHA-256. The director, logged in on the club's
page, then publishes one (web.py): to one table, then to all.

    rel = Releases(db)
    rel.add(bundle_bytes)                 -> (version, kind)
    rel.publish("0.7.0", ["t1"])          # one table first (a list of boards)
    rel.publish("0.7.0", None)            # then every board
    rel.offer("t1")                       -> "0.7.0" (or None: nothing for it)
    rel.bundle("t1", "rp2040", secret)    -> the bundle signed for t1 (or None)

A board fetches GET /update/<board>/<kind>.bundle (web.py): its copy of the version offered
to it, signed with its own secret from the registry (HMAC-SHA256(secret, b"update\\n" +
manifest): tools/maker/release.py's signature()). Anyone may fetch it; only that board installs it
(a copy read off the network signs for nothing, and its bytes are the public sources').

In the club's SQLite file, beside the games and the boards:
    releases  version, kind, manifest (the JSON bytes), body (the files' bytes), added
    rollout   one row: version ("": stopped), boards (a JSON list, or "*": all), at
At most KEEP releases are kept (the oldest not published go first).
"""

import hashlib
import json
import re
import time

import release  # tools/maker/release.py: the bundle's format and its signature
from . import schema, sqlfile

BUNDLE_MOST = 1 << 20  # a bundle's bytes (the Pico W's is 176 KB)
MANIFEST_MOST = 24576  # the board's own bound (firmware/ota/install.py's _MANIFEST_MOST)
FILES_MOST = 400
KINDS = ("rp2040", "esp32")  # tools/maker/release.py's KINDS' values
KEEP = 6
VERSION = re.compile(r"[0-9]{1,4}(\.[0-9]{1,4}){0,3}\Z")
ALL = "*"

SCHEMA = """
CREATE TABLE IF NOT EXISTS releases (
    version TEXT NOT NULL,
    kind TEXT NOT NULL,
    manifest BLOB NOT NULL,
    body BLOB NOT NULL,
    added REAL NOT NULL,
    PRIMARY KEY (version, kind)
);
CREATE TABLE IF NOT EXISTS rollout (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version TEXT NOT NULL,
    boards TEXT NOT NULL,       -- a JSON list of board names, or "*": every board
    at REAL NOT NULL
);
"""


def version_key(v):
    return tuple(int(x) for x in v.split("."))


def parse(data):
    """(version, kind, manifest bytes, body bytes) of a bundle (its signature, if any, is
    dropped: the club signs each board's copy itself); ValueError says what is wrong."""
    if not isinstance(data, (bytes, bytearray)) or len(data) > BUNDLE_MOST:
        raise ValueError("a bundle is at most %d bytes" % BUNDLE_MOST)
    data = bytes(data)
    head = data.split(b"\n", 3)
    if len(head) != 4 or head[0] != release.MAGIC:
        raise ValueError("not a bundle (tools/maker/release.py build makes one)")
    try:
        n = int(head[2])
    except ValueError:
        raise ValueError("a bundle's manifest length is not a number") from None
    if not 0 < n <= MANIFEST_MOST:
        raise ValueError("a manifest of %d bytes (at most %d)" % (n, MANIFEST_MOST))
    man, body = head[3][:n], head[3][n:]
    try:
        m = json.loads(man)
        version, kind, files = m["version"], m["board"], m["files"]
    except (ValueError, KeyError, TypeError):
        raise ValueError("the manifest is not a bundle's JSON") from None
    if not (isinstance(version, str) and VERSION.match(version)):
        raise ValueError("version %r is not one (1-4 numbers)" % (str(version)[:20],))
    if kind not in KINDS:
        raise ValueError("board kind %r is none of %s" % (str(kind)[:20], ", ".join(KINDS)))
    if not isinstance(files, list) or not 0 < len(files) <= FILES_MOST:
        raise ValueError("the manifest's files: 1 to %d" % FILES_MOST)
    at = 0
    for f in files:
        if not (isinstance(f, list) and len(f) == 3 and isinstance(f[0], str)
                and type(f[1]) is int and 0 <= f[1] <= BUNDLE_MOST and isinstance(f[2], str)):
            raise ValueError("a file entry is [path, size, sha256]: not %r" % (str(f)[:80],))
        got = body[at:at + f[1]]
        if len(got) != f[1] or hashlib.sha256(got).hexdigest() != f[2]:
            raise ValueError("file %s: not the manifest's size and SHA-256 (a truncated or "
                             "altered bundle)" % f[0][:64])
        at += f[1]
    if at != len(body):
        raise ValueError("%d bytes after the manifest's files" % (len(body) - at))
    return version, kind, man, body


class Releases(sqlfile.Part):
    """The releases and the rollout, in the club's SQLite file (its own connection). The
    bundles served are cached in memory (a few, 176 KB each), not read again per board."""

    SCHEMA = SCHEMA

    def __init__(self, path):
        super().__init__(path)
        self.cache = {}  # (version, kind) -> (manifest, body)

    def add(self, data):
        """Keep a bundle (checked whole: parse()): (version, kind). The same version and kind
        again replaces it. Beyond KEEP releases, the oldest not published go."""
        version, kind, man, body = parse(data)
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO releases (version, kind, manifest, body, "
                            "added) VALUES (?,?,?,?,?)", (version, kind, man, body, time.time()))
            self.cache.pop((version, kind), None)
            row = self.db.execute("SELECT version FROM rollout").fetchone()
            live = row[0] if row else None
            rows = self.db.execute("SELECT version, kind FROM releases ORDER BY added DESC"
                                   ).fetchall()
            for v, k in rows[KEEP:]:
                if v != live:
                    self.db.execute("DELETE FROM releases WHERE version = ? AND kind = ?",
                                    (v, k))
        return version, kind

    def releases(self):
        """Every release kept: dicts version, kind, size, added (newest version first)."""
        with self.lock:
            rows = self.db.execute("SELECT version, kind, length(manifest) + length(body), "
                                   "added FROM releases").fetchall()
        out = [{"version": r[0], "kind": r[1], "size": r[2], "added": r[3]} for r in rows]
        out.sort(key=lambda r: (version_key(r["version"]), r["kind"]), reverse=True)
        return out

    def versions(self):
        return sorted({r["version"] for r in self.releases()}, key=version_key, reverse=True)

    def publish(self, version, boards):
        """Offer version to boards (a list of board names: one table first), or to every
        board (None). ValueError: no such release, or a bad board name."""
        if not isinstance(version, str) or not VERSION.match(version):
            raise ValueError("no release %r" % (str(version)[:20],))
        if boards is not None:
            if not boards or len(boards) > 500 or not all(
                    isinstance(b, str) and schema.board_name(b) for b in boards):
                raise ValueError("a board's name is 1 to 16 letters, digits, - or _")
            boards = sorted(set(boards))
        with self.lock:
            if self.db.execute("SELECT 1 FROM releases WHERE version = ?",
                               (version,)).fetchone() is None:
                raise ValueError("no release %s kept (python -m club release BUNDLE)"
                                 % version)
            self.db.execute("INSERT OR REPLACE INTO rollout (id, version, boards, at) "
                            "VALUES (1,?,?,?)", (version, ALL if boards is None
                                                 else json.dumps(boards), time.time()))

    def stop(self):
        """No rollout: nothing offered to any board, and the boards told so (stopped()): a
        board whose order waits for its game's end drops it (one already installed stays)."""
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO rollout (id, version, boards, at) "
                            "VALUES (1, '', ?, ?)", (ALL, time.time()))

    def stopped(self):
        """Whether the director stopped the last rollout (and published none since)."""
        with self.lock:
            row = self.db.execute("SELECT version FROM rollout").fetchone()
        return row is not None and row[0] == ""

    def rollout(self):
        """{"version", "boards" (a list, or None: all), "at"} of the rollout, or None."""
        with self.lock:
            row = self.db.execute("SELECT version, boards, at FROM rollout").fetchone()
        if row is None or not row[0]:  # (none, or stopped)
            return None
        return {"version": row[0], "boards": None if row[1] == ALL else json.loads(row[1]),
                "at": row[2]}

    def offer(self, board):
        """The version offered to board, or None."""
        r = self.rollout()
        if r is None or (r["boards"] is not None and board not in r["boards"]):
            return None
        return r["version"]

    def _kept(self, version, kind):
        key = (version, kind)
        got = self.cache.get(key)
        if got is None:
            with self.lock:
                row = self.db.execute("SELECT manifest, body FROM releases WHERE version = ? "
                                      "AND kind = ?", key).fetchone()
                if row is None:
                    return None
                got = self.cache[key] = (bytes(row[0]), bytes(row[1]))
                while len(self.cache) > 2 * len(KINDS):
                    self.cache.pop(next(iter(self.cache)))
        return got

    def bundle(self, board, kind, secret):
        """The bundle offered to board for its kind, signed with its secret (bytes), or
        None (nothing offered to it, no release for its kind, or no secret)."""
        version = self.offer(board)
        if version is None or kind not in KINDS or not secret:
            return None
        got = self._kept(version, kind)
        if got is None:
            return None
        man, body = got
        return b"".join((release.MAGIC, b"\n", release.signature(secret, man), b"\n",
                         str(len(man)).encode(), b"\n", man, body))
