"""SQLite: every game once, by its record id, and the tournament the director entered.

A game is written and committed before the MQTT client acknowledges its message (service.py
stores it from the message callback, and the client sends PUBACK after the callback): a game
the broker hands over is on disk before the broker forgets it. A second message with an id
already stored (a board's resend, a broker's redelivery) changes nothing.

    st = Store("club.sqlite")
    st.add_game(msg, night)   # True: new; False: that id is stored already
    st.games(night=None)      # the stored messages (dicts), in the order they came
    st.set_tournament(players, games, tables, night) / st.tournament()
"""

import json
import sqlite3
import threading
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,        -- the board's record id: <board>-<n>
    board TEXT NOT NULL,
    night TEXT NOT NULL,        -- the club night it came in on (YYYY-MM-DD, local time)
    received REAL NOT NULL,     -- when it was stored (seconds since the epoch)
    body TEXT NOT NULL          -- the game message, as checked (JSON)
);
CREATE INDEX IF NOT EXISTS games_night ON games (night, received);
CREATE TABLE IF NOT EXISTS tournament (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    started REAL NOT NULL,
    night TEXT NOT NULL,
    games INTEGER NOT NULL,
    tables INTEGER NOT NULL,
    players TEXT NOT NULL       -- JSON list of names, in the order entered
);
"""


class Store:
    """One SQLite file, shared by the MQTT thread and the page's threads (one lock)."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # committed is on disk: then the PUBACK
        self.db.executescript(SCHEMA)
        self.parsed = {}  # id -> the message, read once (a stored game never changes)

    def close(self):
        with self.lock:
            self.db.close()

    def add_game(self, msg, night, now=None):
        """Store a checked game message; False if its id is stored already."""
        with self.lock:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games (id, board, night, received, body) VALUES (?,?,?,?,?)",
                (msg["id"], msg["board"], night, time.time() if now is None else now,
                 json.dumps(msg, separators=(",", ":"))))
            return cur.rowcount == 1

    def games(self, night=None, since=None):
        """The stored game messages (each with "received" and "night" added), oldest first:
        all, or one night's, or those received at or after since. Each is parsed once and
        kept: the caller reads them, never changes them."""
        q = "SELECT id, received, night FROM games"
        args = []
        where = []
        if night:
            where.append("night = ?")
            args.append(night)
        if since is not None:
            where.append("received >= ?")
            args.append(since)
        if where:
            q += " WHERE " + " AND ".join(where)
        q += " ORDER BY received, rowid"
        with self.lock:
            rows = self.db.execute(q, args).fetchall()
            out = []
            for gid, received, n in rows:
                g = self.parsed.get(gid)
                if g is None:
                    body = self.db.execute("SELECT body FROM games WHERE id = ?",
                                           (gid,)).fetchone()[0]
                    g = self.parsed[gid] = json.loads(body)
                    g["received"] = received
                    g["night"] = n
                out.append(g)
        return out

    def game(self, gid):
        with self.lock:
            row = self.db.execute("SELECT body, received, night FROM games WHERE id = ?",
                                  (gid,)).fetchone()
        if row is None:
            return None
        g = json.loads(row[0])
        g["received"], g["night"] = row[1], row[2]
        return g

    def count(self):
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def nights(self):
        with self.lock:
            return [r[0] for r in self.db.execute(
                "SELECT DISTINCT night FROM games ORDER BY night DESC")]

    def set_tournament(self, players, games, tables, night, now=None):
        with self.lock:
            self.db.execute(
                "INSERT OR REPLACE INTO tournament (one, started, night, games, tables, players)"
                " VALUES (1, ?, ?, ?, ?, ?)",
                (time.time() if now is None else now, night, games, tables, json.dumps(players)))

    def tournament(self):
        """The tournament entered ({"started", "night", "games", "tables", "players"}) or None."""
        with self.lock:
            row = self.db.execute(
                "SELECT started, night, games, tables, players FROM tournament").fetchone()
        if row is None:
            return None
        return {"started": row[0], "night": row[1], "games": row[2], "tables": row[3],
                "players": json.loads(row[4])}

    def end_tournament(self):
        with self.lock:
            self.db.execute("DELETE FROM tournament")
