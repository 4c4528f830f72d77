"""The club's SQLite file, opened the one way its parts share it: each part (registry.py,
says.py, releases.py) has a connection of its own, and the service, the club command and the
page's threads use the file at once."""

import sqlite3
import threading


def connect(path, schema):
    """A connection to the SQLite file at path, with schema (CREATE ... IF NOT EXISTS) made:
    write-ahead log (readers never wait for a writer), 30 s for another writer's lock, usable
    from any thread (the caller holds its own lock), autocommit."""
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(schema)
    return db


class Part:
    """A part of the club's file (Registry, Says, Releases): its own connection to the file at
    path, with the part's SCHEMA made, and the lock its callers' threads take around it."""

    SCHEMA = ""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.db = connect(path, self.SCHEMA)

    def close(self):
        with self.lock:
            self.db.close()
