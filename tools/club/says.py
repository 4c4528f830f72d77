"""What the club says to each board (firmware/publish/says.py is the board's side, firmware/
publish/contract.py's SAYS the contract): one message a board, retained at the broker on
<prefix>/<board>/says, which the service alone may write and that board alone (and the
service) read (registry.py's ACL), signed with the board's key (sign.py's frame() with
SAYS_DOMAIN: a phone on the Wi-Fi cannot forge one, nor a game's signature pass for one).

    <mac> SP <n> LF <json>     json: {"night": "YYYY-MM-DD", ...} (FIELDS)

n grows by one each time a board's message changes, kept in the club's SQLite file (table
says) so that it only grows across restarts: a board refuses an n below the highest it has
taken (so an old message sent again cannot move its games to another night).

FIELDS: field -> function(club, board) giving its value now (None: not said). "night" is
the club's night (night.py's tonight(), on the service's clock). Another module adds its
field with one line (e.g. an update order), and the board's dispatch table its handler.

The service (service.py) publishes every board's message at each connection to the broker
and, every EVERY seconds, those that changed: the night turning, a board added, a field's
value changed.
"""

import json
import logging
import time

import hostenv  # noqa: F401  (firmware/ on sys.path)
from publish.contract import NIGHT, SAYS, SAYS_MAX, topic

from . import sqlfile
from .sign import SAYS_DOMAIN, frame

log = logging.getLogger("club")
EVERY = 1.0  # seconds between looks for a message changed

SCHEMA = """
CREATE TABLE IF NOT EXISTS says (
    board TEXT PRIMARY KEY,
    n INTEGER NOT NULL,         -- the counter of its last message (only grows)
    body TEXT NOT NULL,         -- that message's JSON
    at REAL NOT NULL
);
"""

FIELDS = {NIGHT: lambda club, board: club.night(),
          "update": lambda club, board: club.order(board)}  # (issue 31: releases.py; the
# board's publish/says.py hands it to ota/order.py)


class Says(sqlfile.Part):
    """Each board's message: its n and JSON, in the club's SQLite file (its own
    connection)."""

    SCHEMA = SCHEMA

    def said(self, board):
        """(n, json text) of board's last message, or None."""
        with self.lock:
            return self.db.execute("SELECT n, body FROM says WHERE board = ?",
                                   (board,)).fetchone()

    def due(self, club, every=False):
        """[(topic, payload)] to publish (retained, QoS 1): each registered board's message
        that changed since it was last made (a new n), or with every, each board's (its n
        the same when nothing changed: the same bytes)."""
        out = []
        for b in club.registry.boards():
            name = b["name"]
            fields = {}
            for k, f in FIELDS.items():
                v = f(club, name)
                if v is not None:
                    fields[k] = v
            body = json.dumps(fields, sort_keys=True, separators=(",", ":"))
            with self.lock:
                row = self.db.execute("SELECT n, body FROM says WHERE board = ?",
                                      (name,)).fetchone()
                if row is not None and row[1] == body:
                    if not every:
                        continue
                    n = row[0]
                else:
                    n = row[0] + 1 if row else 1
                    self.db.execute("INSERT OR REPLACE INTO says (board, n, body, at) VALUES "
                                    "(?,?,?,?)", (name, n, body, time.time()))
            secret = club.registry.secret(name)
            if secret is None:  # (removed meanwhile)
                continue
            payload = frame(secret, n, body.encode(), SAYS_DOMAIN)
            if len(payload) > SAYS_MAX:  # (a board would refuse it: the others still go)
                log.error("the message to board %s is %d bytes (at most %d): not sent",
                          name, len(payload), SAYS_MAX)
                continue
            out.append((topic(club.prefix, name, SAYS), payload))
        return out
