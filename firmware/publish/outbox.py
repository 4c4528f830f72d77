"""The club's outbox on flash: which games of the history (board/history.py) the broker has.

outbox: [N, mark] as JSON, saved atomically (board/storage.py): the number of the next game
to send (its id is BOARD-N), and the mark (head and checksum, hex) of the last history record
the broker took; "" when none was (every record of the history is still to go). A record
flagged undone (an undo past the game's end, board/history.py) is never sent; if it was sent
already (it is the one marked), its withdrawal goes out (the club takes the game out), the
outbox steps back to [N-1, the mark before it], and the game's corrected end, when it comes,
goes out as BOARD-(N-1) again: a revision (after()).

counter: [C, mac] as JSON, saved atomically beside it (its own file: an outbox of earlier
firmware reads as before): the counter the board last signed a message with (docs/club-
board.md) and that message's mac (hex). sign() saves it before the message can leave the board.
"""

import json

from micropython import const

MARK = const(28)  # mark()'s length: a record's head and checksum (14 bytes), as hex
_OUTBOX = const(128)  # the outbox file's bound
_COUNTER = const(128)  # the counter file's bound ([999999999999, "<64 hex>"]: 84 bytes)


def records(store):
    """Each good record of the history, oldest first, read one at a time as board/history.py
    reads them."""
    from board.fault import load  # (loaded on a board: here, only when used)

    read = load("board.history").read

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
    """A history record's mark: its head and checksum, as hex; the same whether the record
    is flagged undone or not (board/history.py's _UNDONE, bit 3 of byte 11: so the outbox
    finds a game it sent once it is undone, and withdraws it)."""
    from binascii import hexlify

    h = bytearray(r[:12])
    c = r[-2] | r[-1] << 8
    if r[0] == 2 and h[11] & 8:
        h[11] &= ~8
        c = c - 8 & 0xFFFF
    return hexlify(bytes(h) + bytes((c & 255, c >> 8))).decode()


def after(store, box):
    """What the outbox box ([N, mark]) has to send: (the first record of the history after
    the record marked box[1] that is not undone, how many such follow it), (None, 0) when
    there is none; or, when the record marked was undone past its end after it went out
    (board/history.py's undone(): its id BOARD-(N-1) is the club's), (the mark of the
    record before it ("" none), 0): its withdrawal is to go, and after it the outbox steps
    back to [N-1, that mark] (moved()). A record not undone after it (the game's corrected
    end, or the same end again) takes its id, a revision: box steps back now, in memory. A
    mark found nowhere (the history set aside, the games beyond its 64): every record
    follows it."""
    from board.history import undone

    last = box[1]
    first = None
    k = 0
    back = ""  # the mark of the record before the one marked
    prev = ""
    out = False  # the record marked is undone
    for r in records(store):
        m = mark(r)
        if last and m == last:
            first = None
            k = 0
            back = prev
            out = undone(r)
        elif not undone(r):  # (undone before it went out: never sent)
            if first is None:
                first = r
            k += 1
        prev = m
    if out:
        if first is None:
            return back, 0
        box[0] -= 1  # (the next is the revision of the game the club has as N-1)
        box[1] = back
    return first, k


def look(pub):
    """A look (publish/task.py's _LOOK: a game over and the next begun, an undo past its end,
    or connected): pub.r, the first record of the history Publisher pub has still to send, or
    a withdrawal's mark (after()), or None, its message to be made anew; pub.waiting, how many
    games; then the night on the games ended since the last look (publish/nights.py's keep()).
    publish/task.py calls it in a call of its own, so none of the connection's modules
    (publish.link, .packets, .contract) is on the heap with the history's (issue 34)."""
    from board.fault import load

    pub.r, pub.waiting = after(pub.app.store, pub.box)
    pub.body = None
    try:
        keep = load("publish.nights").keep
    except MemoryError as e:
        print("club: no night kept for the game:", repr(e))
        return
    keep(pub)


def moved(box, r):
    """The outbox once the broker has r (after()'s: a record, or a withdrawal's mark)."""
    if isinstance(r, str):
        return [box[0] - 1, r]
    return [box[0] + 1, mark(r)]


def _box(b):
    v = json.loads(b)
    if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and v[0] > 0
            and isinstance(v[1], str)):
        raise ValueError("not an outbox")
    return v


def saved(store):
    """[N, mark] of the outbox on flash, or None when there is none (nothing is published)."""
    return store.load("outbox", _box, _OUTBOX)


def outbox(store, over=False):
    """[N, mark] of the outbox; a new one when there is none (publishing starts now: the games
    of the history before it are not the club's, but for the game at its end when over: its
    record, the history's last, made at its end, is), saved at once."""
    box = saved(store)
    if box is None:
        last = before = ""
        for r in records(store):
            before = last
            last = mark(r)
        box = [1, before if over else last]
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
    from board.fault import load  # (loaded on a board: here, only when used)
    from binascii import hexlify

    hmac = load("ota.hmac").hmac

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
