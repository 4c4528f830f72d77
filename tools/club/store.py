"""SQLite: every game once, by its record id, and the tournament the director entered.

A game is written and committed before the MQTT client acknowledges its message (service.py
stores it from the message callback, and the client sends PUBACK after the callback): a game
the broker hands over is on disk before the broker forgets it. A second message with an id
already stored (a board's resend, a broker's redelivery) changes nothing.

    st = Store("club.sqlite")
    st.add_game(msg, night)   # True: new; False: that id is stored already (unsigned boards)
    st.add_signed(board, counter, mac, msg, night)  # a signed game or withdrawal (issue 30):
                              # "new", "revised", "withdrawn", "duplicate", "stale"
    st.reject(board, topic, reason) / st.rejects(limit=50)  # messages refused at the door
    st.games(night=None)      # the stored messages (dicts), in the order they came
    st.set_tournament(players, games, tables, night) / st.tournament()
    st.set_season(name, first, last) / st.set_season(name, nights=[...]) / st.seasons()
                              # the director's seasons (season.py; none: one a year)
    st.set_calendar(first, weeks) / st.set_calendar(None) / st.calendar()
                              # seasons of weeks weeks from first, one a year (season.py)
"""

import json
import logging
import sqlite3
import threading
import time

from .contract import BadMessage
from .night import NIGHT, carried

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,        -- the board's record id: <board>-<n>
    board TEXT NOT NULL,
    night TEXT NOT NULL,        -- the club night: the game's own (night.carried), else the
                                -- one it came in on (YYYY-MM-DD, local time)
    received REAL NOT NULL,     -- when it was stored (seconds since the epoch)
    body TEXT NOT NULL          -- the game message, as checked (JSON)
);
CREATE TABLE IF NOT EXISTS seen (  -- every signed message counted: a counter counts once
    board TEXT NOT NULL,
    counter INTEGER NOT NULL,
    mac TEXT NOT NULL,
    PRIMARY KEY (board, counter)
);
CREATE TABLE IF NOT EXISTS rejects (  -- the newest messages refused at the door
    at REAL NOT NULL,
    board TEXT NOT NULL,
    topic TEXT NOT NULL,
    reason TEXT NOT NULL
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
CREATE TABLE IF NOT EXISTS seasons (  -- the director's seasons (season.py)
    name TEXT PRIMARY KEY,
    first TEXT,                 -- a range of nights, both kept (YYYY-MM-DD) ...
    last TEXT,
    nights TEXT                 -- ... or a JSON list of the nights chosen
);
CREATE TABLE IF NOT EXISTS calendar (  -- the club's season calendar (season.py), if set
    one INTEGER PRIMARY KEY CHECK (one = 1),
    first TEXT NOT NULL,        -- its first season's first night (YYYY-MM-DD)
    weeks INTEGER NOT NULL      -- each season's length
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
        cols = [r[1] for r in self.db.execute("PRAGMA table_info(games)")]
        if "counter" not in cols:  # a file of before issue 30: signed games' columns added
            self.db.execute("ALTER TABLE games ADD COLUMN counter INTEGER")
            self.db.execute("ALTER TABLE games ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0")
        self.parsed = {}  # id -> the message, read once (a stored game never changes)
        self.listeners = []  # called with a game's id once it is counted, revised or
        # withdrawn, after the commit (the league's tally: league.py)

    def close(self):
        with self.lock:
            self.db.close()

    def add_game(self, msg, night, now=None):
        """Store a checked game message; False if its id is stored already."""
        night = carried(msg, night)
        with self.lock:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games (id, board, night, received, body) VALUES (?,?,?,?,?)",
                (msg["id"], msg["board"], night, time.time() if now is None else now,
                 json.dumps(msg, separators=(",", ":"))))
        if cur.rowcount == 1:
            self._changed(msg["id"])
            return True
        return False

    def _changed(self, gid):
        """Tell the listeners (after the commit: the game's fate is settled, whatever they
        do; one that fails is logged, never turned into a refusal of a game kept)."""
        for f in self.listeners:
            try:
                f(gid)
            except Exception:  # noqa: BLE001
                logging.getLogger("club").exception("a listener failed on game %s", gid)

    def add_signed(self, board, counter, mac, msg, night, now=None):
        """A signed message of board's that verified (sign.py), in one transaction with its
        counter: "duplicate" (this very message counted already), "new", "revised" (a later
        counter for a game kept: it replaces it), "withdrawn" (msg has "withdraw": the game
        leaves the standings; a tombstone stays so that no earlier revision brings it back),
        "stale" (an earlier counter than the game's kept: changes nothing). BadMessage (and
        nothing changed): the counter was used for another message, or the id is another
        board's."""
        gid = msg["id"]
        if not msg.get("withdraw"):
            night = carried(msg, night)
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                row = self.db.execute("SELECT mac FROM seen WHERE board = ? AND counter = ?",
                                      (board, counter)).fetchone()
                if row is not None:
                    self.db.execute("ROLLBACK")
                    if row[0] == mac:
                        return "duplicate"
                    raise BadMessage("counter %d used already by another message of %s's "
                                     "(a replay, or a board whose counter started again)"
                                     % (counter, board))
                self.db.execute("INSERT INTO seen (board, counter, mac) VALUES (?,?,?)",
                                (board, counter, mac))
                kept = self.db.execute("SELECT board, counter FROM games WHERE id = ?",
                                       (gid,)).fetchone()
                body = json.dumps(msg, separators=(",", ":"))
                withdraw = 1 if msg.get("withdraw") else 0
                if kept is None:
                    self.db.execute(
                        "INSERT INTO games (id, board, night, received, body, counter, "
                        "withdrawn) VALUES (?,?,?,?,?,?,?)",
                        (gid, board, night, time.time() if now is None else now, body,
                         counter, withdraw))
                    out = "withdrawn" if withdraw else "new"
                elif kept[0] != board:  # (a game id is its board's: schema.check_id)
                    raise BadMessage("game %s is board %s's" % (gid, kept[0]))
                elif kept[1] is not None and kept[1] > counter:
                    out = "stale"
                else:
                    self.db.execute("UPDATE games SET body = ?, counter = ?, withdrawn = ? "
                                    "WHERE id = ?", (body, counter, withdraw, gid))
                    if msg.get(NIGHT):  # (a revision carrying its night: filed there)
                        self.db.execute("UPDATE games SET night = ? WHERE id = ?",
                                        (night, gid))
                    self.parsed.pop(gid, None)
                    out = "withdrawn" if withdraw else "revised"
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        if out != "stale":
            self._changed(gid)
        return out

    def reject(self, board, topic, reason, keep=200, now=None):
        """Keep a refused message's board, topic and reason (the newest keep of them)."""
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO rejects (at, board, topic, reason) VALUES (?,?,?,?)",
                (time.time() if now is None else now, str(board)[:40], str(topic)[:200],
                 str(reason)[:300]))
            last = cur.lastrowid or 0
            self.db.execute("DELETE FROM rejects WHERE rowid <= ?", (last - keep,))

    def rejects(self, limit=50):
        """The newest refused messages, newest first: dicts at, board, topic, reason."""
        with self.lock:
            rows = self.db.execute("SELECT at, board, topic, reason FROM rejects "
                                   "ORDER BY rowid DESC LIMIT ?", (limit,)).fetchall()
        return [{"at": r[0], "board": r[1], "topic": r[2], "reason": r[3]} for r in rows]

    def games(self, night=None, since=None):
        """The stored game messages (each with "received" and "night" added), oldest first:
        all, or one night's, or those received at or after since. Each is parsed once and
        kept: the caller reads them, never changes them."""
        q = "SELECT id, received, night FROM games"
        args = []
        where = ["withdrawn = 0"]
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

    def received(self):
        """Every counted game's (received, id), oldest first: what the league's tally loads
        (game(id) one at a time: games() would keep every message parsed)."""
        with self.lock:
            return self.db.execute("SELECT received, id FROM games WHERE withdrawn = 0 "
                                   "ORDER BY received, rowid").fetchall()

    def versions(self):
        """Every counted game's {id: counter} (None: an unsigned board's, never revised): a
        game whose counter is not the one a league checkpoint saved has changed since."""
        with self.lock:
            return dict(self.db.execute("SELECT id, counter FROM games WHERE withdrawn = 0"))

    def counted(self, gid):
        """(game(gid), its counter), read at one moment; (None, None): not counted."""
        with self.lock:
            row = self.db.execute("SELECT body, received, night, counter FROM games WHERE "
                                  "id = ? AND withdrawn = 0", (gid,)).fetchone()
        if row is None:
            return None, None
        g = json.loads(row[0])
        g["received"], g["night"] = row[1], row[2]
        return g, row[3]

    def game(self, gid):
        with self.lock:
            row = self.db.execute("SELECT body, received, night FROM games WHERE id = ? "
                                  "AND withdrawn = 0", (gid,)).fetchone()
        if row is None:
            return None
        g = json.loads(row[0])
        g["received"], g["night"] = row[1], row[2]
        return g

    def changes(self):
        """A number that grows whenever anything is written (what a cache keys on)."""
        with self.lock:
            return self.db.total_changes

    def count(self):
        with self.lock:
            return self.db.execute(
                "SELECT COUNT(*) FROM games WHERE withdrawn = 0").fetchone()[0]

    def nights(self):
        with self.lock:
            return [r[0] for r in self.db.execute(
                "SELECT DISTINCT night FROM games WHERE withdrawn = 0 ORDER BY night DESC")]

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

    def set_season(self, name, first=None, last=None, nights=None):
        """A season (a new one, or one set again): nights first..last, or a list of nights."""
        if not name or len(name) > 40:
            raise ValueError("a season's name: 1 to 40 characters")
        for n in ([first, last] if nights is None else nights):
            if not (isinstance(n, str) and len(n) == 10 and n[4] == n[7] == "-"
                    and (n[:4] + n[5:7] + n[8:]).isdigit()):
                raise ValueError("a night is YYYY-MM-DD: %r" % (n,))
        if nights is None and str(first) > str(last):
            raise ValueError("the season's first night is after its last")
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO seasons (name, first, last, nights) "
                            "VALUES (?,?,?,?)", (name, first, last, None if nights is None
                                                 else json.dumps(sorted(set(nights)))))

    def remove_season(self, name):
        with self.lock:
            return self.db.execute("DELETE FROM seasons WHERE name = ?", (name,)).rowcount == 1

    def seasons(self):
        """The director's seasons: dicts name, first, last, nights (a list or None), newest
        first (by their first night)."""
        with self.lock:
            rows = self.db.execute("SELECT name, first, last, nights FROM seasons").fetchall()
        out = []
        for name, first, last, nights in rows:
            ns = json.loads(nights) if nights else None
            if ns:
                first, last = ns[0], ns[-1]
            out.append({"name": name, "first": first, "last": last, "nights": ns})
        return sorted(out, key=lambda s: (s["first"] or "", s["name"]), reverse=True)

    def set_calendar(self, first, weeks=None):
        """The club's season calendar (season.calendar_season): seasons of weeks weeks, the
        first from night first; first None: none (the director's seasons, or years)."""
        from .season import last_of
        if first is not None:
            last_of(first, weeks)  # (a ValueError: no such night, or no such length)
        with self.lock:
            self.db.execute("DELETE FROM calendar")
            if first is not None:
                self.db.execute("INSERT INTO calendar (one, first, weeks) VALUES (1, ?, ?)",
                                (first, weeks))

    def calendar(self):
        """{"first", "weeks"} or None."""
        with self.lock:
            row = self.db.execute("SELECT first, weeks FROM calendar").fetchone()
        return {"first": row[0], "weeks": row[1]} if row else None
