"""Finished games, kept for history and statistics: a bounded file beside the game.

One record a game: the newest 64 games (_KEEP), and never more than 8 KB (_MAX_BYTES) in all
(the oldest go first; 64 two-player games to 121 take about 7 KB). Written at the game's end,
right after its winning frame and its save, its summary made a deal at a time until a key
waits (rest(): the key is handled and drawn first, then the rest; a key that changes the game
waits for the rest, so that the game is recorded once, as it ended; issue 34) (board/app.py:
the club's outbox sends it then, without another key; at the OK that starts the next game if
it could not be written then),
with the game's own atomic save (a temporary file renamed over the old one: a power cut leaves
the old file or the new one); if the power goes between the two saves, the same game is
offered again and its record (same serial, scores, result) is not added twice. An undo past
the game's end flags its record undone, in place (_UNDONE, board/undo.py), before the game is
saved: kept (the club's outbox, publish/outbox.py, finds it by its mark and withdraws it if it
went out), counted nowhere (undone(): the statistics, the export, the club); the game's end
again (corrected, or redone) is a new record after it (a power cut between the flag and the
game's save: the game's end is offered again, and recorded again after it).
The file is read a record at a time (seek, read), never whole,
and the summary's module leaves the heap once the game is recorded: the heap the history
takes is the same at 64 games as at one.

A record (version 2; numbers little-endian) carries its length and a checksum:
  0 version 2, 1-2 length n of the whole record, 3 players, 4 sides, 5 target, 6 result
  (cribbage.events WIN..LURCH), 7 winning side, 8 deals, 9-10 serial (games won by all sides
  after this game, low 16 bits), 11 flags (_MUGGINS_ON; _SUMMARY: the summary follows the
  scores; _FIVE: five-card cribbage, records of earlier firmware lack it: six-card; _UNDONE:
  undone past its end, earlier firmware counts it), 12..
  the final score of each side (a byte each), then the game's summary (cribbage/summary.py,
  dumps: each side's hand, crib and play points, heels, pegs, penalties, muggins taken,
  best show, 28s and 29s; then deal by deal, the first 40: _DETAIL),
  n-2..n-1 the sum of bytes 0..n-3 (low 16 bits). When memory is too short for the summary
  (or an undo shows the finished game's end only: no journal), the record keeps the result
  and the scores.
Records of earlier firmware (version 1: 16 bytes, the result and the scores) are read and kept
until they are the oldest. A record that does not check is skipped (the next good one is
found) and left out the next time the file is written. Nothing past the 8 KB bound is read (no
record starts there); a bigger file is set aside as history.bad when the next game is
recorded, unread, and the display says so. A record of a later format (its first byte, where
a record starts, above 2: a later version's, found after an update went back) cannot be read
here and would be dropped by the rewrite: before the file is rewritten it is kept aside,
whole, appended to history.new (board/later.py, loaded only when the file holds bytes no good
record does), and the display says so; the rewrite then keeps this firmware's own records as
always (issue 31: host_tests/test_ota_rollback.py). The records are read by name through
board/record.py's Record (over walk() and head()): board/stats.py, the page, tools and tests.
"""

import gc

from cribbage.events import OVER
from board.fault import load, modules, release

from micropython import const

_SIZE = const(16)  # a version 1 record
_KEEP = const(64)
_MAX_BYTES = const(8192)  # the file's bound: two 4 KB flash blocks
_DETAIL = const(40)  # deals in a record's summary (a real game takes 5-30)
_HEAD = const(12)
_MUGGINS_ON = const(1)
_SUMMARY = const(2)
_FIVE = const(4)
_UNDONE = const(8)  # the game was undone past its end: kept (the club's outbox may have sent
# it: publish/outbox.py withdraws it), never counted (undone())
_LONGEST = const(1400)  # no record is longer (6 sides, _DETAIL deals with every field)
_SUMMARY_ROOM = const(10240)  # bytes free before the summary is tried (its code, its parts,
# the replay's passing garbage; below it the record keeps the result and the scores)
# (Private: a public name is interned for good when the module loads, and this one loads at
# a game's end, when a board has a handful of names to spare: cribbage/summary.py. Readers
# use board/record.py.)


def read(f, at, r):
    """The next good record of the open file f from offset at[0] on (r: the good record
    before it, or None), at[0] moved past it; None at the end. A record that does not check
    is skipped (version 1 records come first, on 16-byte boundaries)."""
    v1 = not (r and r[0] == 2)  # (none after a version 2 one)
    i = at[0]
    while True:
        f.seek(i)
        r = f.read(3) if i < _MAX_BYTES else b""  # (no record starts past the bound)
        if len(r) < 3:
            at[0] = i
            return None
        n = r[1] | r[2] << 8 if r[0] == 2 else _SIZE
        if (r[0] == 2 and _HEAD + 4 <= n <= _LONGEST) or (r[0] == 1 and not i % _SIZE and v1):
            f.seek(i)
            r = f.read(n)
            if len(r) == n and (sum(r) - r[15] & 255 == r[15] if r[0] == 1 else
                                2 <= r[4] <= r[3] <= 6 and
                                sum(r) - r[n - 2] - r[n - 1] & 0xFFFF == r[n - 2] | r[n - 1] << 8):
                at[0] = i + n
                return r
        i += 1


def head(r):
    """A good record's fields, as a tuple: version, players, sides, target, result (cribbage.
    events WIN..LURCH), winning side, deals, serial, muggins on (None: a version 1 record does
    not say), where its sides' scores start, where its summary starts (0: none)."""
    if r[0] == 1:  # 0 version, 1 players, 2 target, 3 result, 4 winner, 5 deals, 6-11 scores,
        p = r[1]   # 12-13 serial
        return (1, p, 2 if p == 4 else 3 if p == 6 else p, r[2], r[3], r[4], r[5],
                r[12] | r[13] << 8, None, 6, 0)
    return (2, r[3], r[4], r[5], r[6], r[7], r[8], r[9] | r[10] << 8, bool(r[11] & _MUGGINS_ON),
            _HEAD, _HEAD + r[4] if r[11] & _SUMMARY else 0)


def undone(r):
    """Whether a good record's game was undone past its end (flagged, not counted: the
    statistics, the export and the club leave it out)."""
    return r[0] == 2 and bool(r[11] & _UNDONE)


def cards(r):
    """Cards dealt each player in a good record's game: 5 (five-card cribbage) or 6 (the
    game of its players: records of earlier firmware are of those)."""
    return 5 if r[0] == 2 and r[11] & _FIVE else 6


def walk(p, f, count=0, room=0, data=None):
    """p.write(record) for each good record of the open history file f (seek, read; None:
    no file), oldest first, the oldest left out until `count` records and `room` bytes are
    (p None: no writes); then, if data (a record's parts) is given, f is closed and the
    parts written. Returns (the last good record or None, how many, their bytes). (Its
    arguments' names are ones the firmware has anyway: a new one is interned for good.)"""
    rec = None
    k = t = 0
    at = [0]
    while f:
        r = read(f, at, rec)
        if r is None:
            break
        rec = r
        k += 1
        t += len(r)
        if count > 0 or room > 0:
            count -= 1
            room -= len(r)
        elif p:
            p.write(r)
    if data:
        if f:
            f.close()  # (before the new file is renamed over it)
        for r in data:
            p.write(r)
    return rec, k, t


def record(m, summary=None):
    """The record of m's finished game (phase OVER), with its summary (cribbage.summary's
    dumps() parts) or none, as its parts (a list of bytes: the head and scores, the summary's
    parts, the checksum), for add(): made from the game before the next begins (the game is
    read here, the file written there, after the next game's frame: board/commands.py)."""
    sides = m.sides
    n = _HEAD + sides
    head = bytearray(n)
    data = [head]
    for c in summary or ():
        data.append(c)
        n += len(c)
    n += 2  # the checksum
    c = sum(m.games) & 0xFFFF  # the serial
    head[0:_HEAD] = bytes((2, n & 255, n >> 8, m.players, sides, m.target, m.result,
                           m.winner & 255, min(m.deals, 255), c & 255, c >> 8,
                           (_MUGGINS_ON if m.muggins_on else 0) | (_SUMMARY if summary else 0)
                           | (_FIVE if m.cards() == 5 else 0)))
    for c in range(sides):
        head[_HEAD + c] = min(m.score[c], 255)
    c = 0
    for b in data:
        c += sum(b)
    data.append(bytearray((c & 255, c >> 8 & 255)))
    return data


def add(store, m, summary=None):
    """Append the record of m's finished game (phase OVER), with its summary (cribbage.
    summary's dumps() parts) or none, to the "history" file of store (board.storage.Storage),
    the oldest records dropped to stay within 64 records and 8 KB: the file is rewritten from
    its own records, read one at a time, and the new one written part by part (no block the
    size of the record). m may be the record's parts made before (record()). False if it is
    there already (the same players, sides, target, result, winner, deals, serial and scores:
    the power went before the game's save, and it was offered again), or what to say (a str,
    also true)."""
    # A file bigger than the bound (no board wrote it) is not read: it is set aside as
    # history.bad, the record starts a new file, and add() says so. If it cannot be moved,
    # this raises (the file is kept).
    data = m if isinstance(m, list) else record(m, summary)
    head = data[0]
    n = 0
    for b in data:
        n += len(b)
    store.bad = None
    f = store.open("history", _MAX_BYTES)  # a bigger one (no board wrote it): aside, unread
    try:
        r, k, t = walk(None, f)
        c = len(head)  # (undone: the game's end again, a new record after it: the club's
        if r and r[0] == 2 and r[3:11] == head[3:11] and r[_HEAD:c] == head[_HEAD:c] and \
                not undone(r):  # outbox sends it as a revision)
            return False
        if f and t < f.seek(0, 2):  # bytes no good record holds: a later version's records
            had = modules()  # are kept before the rewrite drops them
            load("board.later").add(store, f, read)
            release(had)  # (board.later, loaded for this call: its code leaves the heap)
        store.save("history", walk, f, k - _KEEP + 1, t + n - _MAX_BYTES, data)
    finally:
        if f:
            f.close()
    return store.bad or True


def dumps(m):
    """The summary of m's finished game (cribbage.summary's dumps() parts: the game's journal
    replayed in place), made when memory allows (its module leaves the heap after, unless the
    live page holds it); else None (so too when there is no journal: an undo shows a finished
    game's end only). A game the summary could not put back (out of memory twice) is
    raised: the app's fault handler restores it."""
    body = None
    gc.collect()
    if not hasattr(gc, "mem_free") or gc.mem_free() >= _SUMMARY_ROOM:  # (CPython: no heap)
        had = None
        try:
            had = modules()  # (the live page keeps cribbage.summary)
            from cribbage import summary  # (the room asked: _SUMMARY_ROOM)

            body = summary.dumps(m, _DETAIL)
        except Exception as e:  # noqa: BLE001  (MemoryError; no journal: an undo shows the end)
            gc.collect()
            if not isinstance(e, ValueError):  # (dumps replays m in place and restores it
                m.restore()  # on a failure: once more here, else the app's fault handler)
        finally:
            release(had)  # its code leaves the heap (board/fault.py's table)
    return body


def rest(m, store, s, keys=None):
    """The record of m's finished game (phase OVER) made without a key waiting for it
    (App.step: issue 34): its summary (cribbage.summary's replay()) a deal at a time until
    it is made, or until keys (the keypad: None, none) has an event waiting (any()), then m
    put back as it was; then the record written (record_game()). s: the app's record (None,
    or another game's: begin; (events, None, the summary so far, m): go on). Returns (the
    app's record now, what the display is to say or None): (events, None, the summary, m)
    while it goes on; once written, (events, the record's head), or (events, None) when it
    could not be (the OK writes it, board/commands.py); with store None, the record's parts
    (record(): written later). The summary is begun when memory
    allows, else (or short of memory half way) the record keeps the result and the scores,
    as dumps() does. (Its names are ones the firmware has already: a new one is interned
    for good.)"""
    e = m.events
    g = s[2] if s and len(s) > 3 and s[0] == e and s[3] is m else None
    body = None
    try:
        if g is None:
            gc.collect()
            if hasattr(gc, "mem_free") and gc.mem_free() < _SUMMARY_ROOM:
                raise ValueError  # (no room: no summary, the game untouched, as dumps())
            had = modules()  # (the live page keeps cribbage.summary)
            try:
                from cribbage import summary  # (the room asked: _SUMMARY_ROOM)

                g = summary.replay(m, _DETAIL, True)
            finally:
                release(had)  # its code leaves sys.modules: the replay holds what it runs
            if keys is not None and keys.any():  # (begun: its first deal after the key)
                return (e, None, g, m), None
        body = next(g)
        while body is None:  # (a deal replayed)
            if keys is not None and keys.any():
                g.send(1)  # (m as it was, for the key)
                return (e, None, g, m), None
            body = next(g)
    except Exception as x:  # noqa: BLE001  (MemoryError; no journal: an undo shows the end)
        g = body = None
        gc.collect()
        if not isinstance(x, ValueError):  # (the replay restores m on a failure: once more
            m.restore()  # here, else the app's fault handler)
    data = record(m, body)
    if store is None:
        return data, None
    said = record_game(m, store, data)
    return (e, None if said and said is not store.bad else bytes(data[0])), said


def record_game(m, store, data=None):
    """Game m, if it is over, to the history in store (board.storage.Storage), before the
    next game; or data, its record's parts made before (record(): then m is the next game
    already). Returns what the display is to say (a str: a failure to write it, or a history
    set aside), or None: it never blocks the game. The summary (dumps()) is made when memory
    allows, else the record keeps the result and the scores."""
    if data is None:
        if m.phase != OVER:
            return None
        data = record(m, dumps(m))
    for again in (0, 1):
        try:
            body = add(store, data)
            # (a str: a history too big to be ours was set aside)
            return body if body and body is not True else None
        except Exception as e:  # noqa: BLE001
            gc.collect()
            if again:
                return "history not saved (%s)" % type(e).__name__
            h = bytearray(data[0])  # once more without the summary: the result and scores
            n = len(h) + 2
            h[1] = n & 255
            h[2] = n >> 8
            h[11] &= ~_SUMMARY
            n = sum(h)
            data = [h, bytearray((n & 255, n >> 8 & 255))]
