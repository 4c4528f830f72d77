"""A finished game's message to the club (publish/contract.py's game topic), made in a call
of its own: publish/task.py calls make() when publish/link.py's tick() wants it (pub.want),
with none of the connection's modules on the heap (publish.link, publish.packets), and
the next tick sends it (publish/packets.py's game()).

Issue 34, the publisher's peak: made inside the tick, the record's modules and the decoded
game came on top of the connection's modules (~17 KB of the 64-bit heap); made here, the
message (its JSON in parts of at most _PART bytes, signed) is all that stays for the tick
that sends it.
"""

import json

from micropython import const

_PART = const(256)  # a message's parts (_Body): bytes each, at most (one longer item: its own)


class _Body:
    """A message as JSON in parts (a game's is a few KB: as one block, with json.dumps'
    growing buffer and the copy .encode() makes, it is what a heap in pieces lacks). Each
    part a bytearray of at most about _PART bytes (issue 34: a part per key or item, 150 and
    more for a game, took ~60 bytes of the 64-bit heap each and a list of their pointers
    that grew to KBs in one block, which a heap in pieces could not give)."""

    def __init__(self):
        self.parts = []

    def add(self, s):
        b = s.encode()
        p = self.parts
        if not p or len(p[-1]) + len(b) > _PART:
            p.append(bytearray())
        p[-1] += b

    def value(self, v):
        """v as JSON: a dict key by key, a list item by item (each item one part)."""
        if isinstance(v, dict):
            sep = "{"
            for k in v:
                x = v[k]
                if isinstance(x, (dict, list)):
                    self.add(sep + json.dumps(k) + ": ")
                    self.value(x)
                else:
                    self.add(sep + json.dumps(k) + ": " + json.dumps(x))
                sep = ", "
            self.add("}" if sep == ", " else "{}")
        elif isinstance(v, list):
            sep = "["
            for x in v:
                self.add(sep + json.dumps(x))
                sep = ", "
            self.add("]" if sep == ", " else "[]")
        else:
            self.add(json.dumps(v))


def make(pub):
    """publish/task.py's call when publish/link.py's tick() wants the game's message
    (pub.want): pub.body, the message of pub.r (parts()), or the exception that stopped it
    (the next tick raises it: the connection's failure, said, and a try again later)."""
    pub.want = 0
    try:
        pub.body = parts(pub, pub.r)
    except Exception as e:  # noqa: BLE001  (MemoryError, the flash's: the link says it)
        pub.body = e


def parts(pub, r):
    """The message of record r as game N (the outbox's), as the list of its parts (bytes,
    in order): its id BOARD-N, the board, the seats (seat i's name, the side it plays for:
    the record's, not the match's now) and board/export.py's decode(r, N), and the night it
    ended in when the club had said it (publish/nights.py); r a str: the withdrawal of game
    N-1 (publish/outbox.py's after()). The names: those the seats had when it was played.
    Signed with the board's key when it has one (publish/outbox.py's sign(): its counter on
    flash): the head b"<mac> <counter>\\n" its first part."""
    if isinstance(r, str):  # the withdrawal of the game sent last (undone past its end)
        board = pub.cfg["board"]
        body = _Body()
        body.value({"id": "%s-%d" % (board, pub.box[0] - 1), "board": board,
                    "withdraw": True})
        return _signed(pub, body.parts)
    return _signed(pub, _json(pub, r))


def _signed(pub, p):
    """Parts p of a message, signed when the board has its key (docs/club-board.md): "<mac>
    <counter>\\n" before the JSON."""
    key = pub.cfg.get("key")
    if key:
        from publish.outbox import sign

        p.insert(0, sign(pub.app.store, key, p))
    return p


def _json(pub, r):
    """Record r's message as JSON parts: the seats, the night and the decoded game, each
    step's modules let go before the next (those the board had before this call, the app's
    or the page's, are kept: board/fault.py): the names' and nights' files (publish/names.py,
    nights.py, outbox.py) before the game is decoded, the record's (board.export and what it
    loads: ~10 KB on the 64-bit port) before its JSON is made."""
    from board.fault import modules, release

    had = modules()
    msg = _head(pub, r)
    release(had)
    g = _decoded(r, pub.box[0])  # (in a call of its own: nothing here holds the modules
    release(had)  # after it) board.history, board.export and what it loaded (board.record,
    had = None  # cribbage.summary): the app and the page load them again
    msg["game"] = g
    g = None
    body = _Body()
    body.value(msg)
    return body.parts


def _head(pub, r):
    """Record r's message but its game: its id, the board, the seats and the night."""
    from board.fault import load
    from publish.outbox import mark

    board = pub.cfg["board"]
    msg = {"id": "%s-%d" % (board, pub.box[0]), "board": board, "seats": _seats(pub, r)}
    night = load("publish.nights").night_of(pub.app.store, mark(r))  # (the club's night
    if night:  # when it ended, if said)
        msg[load("publish.contract").NIGHT] = night
    return msg


def _seats(pub, r):
    """Seat i's name (as played) and the side it plays for, of record r."""
    from board.fault import load  # (loaded on a board: here, only when used)

    h = load("board.history").head(r)  # its players h[1] and sides h[2]: seat i plays for
    # side i % sides; the names (pub.box[1]: the first after the mark)
    names = load("publish.names").played_with(pub.app.store, pub.box[1], pub.names)
    seats = []
    for i in range(h[1]):
        seats.append({"name": names[i] if i < len(names) else None, "side": i % h[2]})
    return seats


def _decoded(r, n):
    """board/export.py's decode(r, n)."""
    from board.fault import load

    return load("board.export").decode(r, n)
