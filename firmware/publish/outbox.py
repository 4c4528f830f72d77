"""The club's outbox on flash: which games of the history (board/history.py) the broker has.

outbox: [N, mark] as JSON, saved atomically (board/storage.py): the number of the next game
to send (its id is BOARD-N), and the mark (head and checksum, hex) of the last history record
the broker took; "" when none was (every record of the history is still to go).
"""

import json

from micropython import const

_OUTBOX = const(128)  # the outbox file's bound


def records(store):
    """Each good record of the history, oldest first, read one at a time as board/history.py
    reads them."""
    from board.fault import room  # (loaded on a board: here, only when used)

    room("board.history")
    from board.history import read

    at = [0]
    r = None
    f = store.open("history")
    try:
        while f:
            r = read(f, at, r)
            if r is None:
                return
            yield r
    finally:
        if f:
            f.close()


def mark(r):
    """A history record's mark: its head and checksum, as hex."""
    from binascii import hexlify

    return hexlify(bytes(r[:12]) + bytes(r[-2:])).decode()


def after(store, last):
    """(the first record of the history after the last one marked `last`, how many follow
    it): (None, 0) when there is none. A mark found nowhere (the history set aside, the
    games beyond its 64): every record follows it."""
    first = None
    k = 0
    for r in records(store):
        if last and mark(r) == last:
            first = None
            k = 0
        else:
            if first is None:
                first = r
            k += 1
    return first, k


def _box(b):
    v = json.loads(b)
    if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] > 0
            and isinstance(v[1], str)):
        raise ValueError("not an outbox")
    return v


def saved(store):
    """[N, mark] of the outbox on flash, or None when there is none (nothing is published)."""
    return store.load("outbox", _box, _OUTBOX)


def outbox(store):
    """[N, mark] of the outbox; a new one when there is none (publishing starts now: the games
    of the history before it are not the club's), saved at once."""
    box = saved(store)
    if box is None:
        last = ""
        for r in records(store):
            last = mark(r)
        box = [1, last]
        save_outbox(store, box)
    return box


def save_outbox(store, box):
    store.save("outbox", json.dumps(box).encode())
