"""The club's outbox on flash: which games of the history (board/history.py) the broker has.

outbox: [N, mark] as JSON, saved atomically (board/storage.py): the number of the next game
to send (its id is BOARD-N), and the mark (head and checksum, hex) of the last history record
the broker took; "" when none was (every record of the history is still to go).

counter: [C, mac] as JSON, saved atomically beside it (its own file: an outbox of earlier
firmware reads as before): the counter the board last signed a message with (docs/club-
board.md) and that message's mac (hex). sign() saves it before the message can leave the board.
"""

import json

from micropython import const

_OUTBOX = const(128)  # the outbox file's bound
_COUNTER = const(128)  # the counter file's bound ([999999999999, "<64 hex>"]: 84 bytes)


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


def _counter(b):
    v = json.loads(b)
    if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] >= 0
            and isinstance(v[1], str)):
        raise ValueError("not a counter")
    return v


def sign(store, key, parts):
    """The head b"<mac> <counter>\n" that signs the message whose JSON is parts (bytes, in
    order) with key (the board's secret; docs/club-board.md: mac = HMAC-SHA256(key,
    b"game\n" + counter + b"\n" + json)). The counter the last message was signed with when
    this is that very message again (the same mac: a resend after a reconnect or a reset goes
    out as the same bytes); else the next one, saved on flash with the mac before the message
    can leave the board. So a counter never goes out with two different messages, whatever
    the resets and power cuts: a cut before the save leaves a counter that never went out,
    one after it a counter kept. ValueError when the counter file is there but unreadable (a
    counter from 1 again would sign new games with used counters: the club refuses them)."""
    from board.fault import room  # (loaded on a board: here, only when used)
    from binascii import hexlify

    room("ota.hmac")
    from ota.hmac import hmac

    got = [0, ""]  # (no file: the board has signed nothing yet)
    store.bad = None
    for p in ("counter", "counter.tmp"):
        b = store.read(p, _COUNTER)  # (too big: set aside, store.bad says so)
        try:
            if store.bad or b == b"":
                raise ValueError(store.bad or "empty")
            if b is not None:
                got = _counter(b)
                break
        except ValueError as e:  # (the temporary file cut short: its save never ended,
            if p == "counter":  # and its counter never went out)
                raise ValueError("counter file unreadable (%s): the club must give this "
                                 "board a new key" % e) from None
    c = got[0]
    parts = tuple(parts)
    while True:
        h = hexlify(hmac(key, (b"game\n%d\n" % c,) + parts))
        m = h.decode()
        if m == got[1]:
            break
        if c > got[0]:
            store.save("counter", json.dumps([c, m]).encode())
            break
        c += 1
    return h + b" %d\n" % c
