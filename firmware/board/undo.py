"""The finished game's record at the saves after its end (App.save: saved()). Undone past
its end (issue 30): its record in the history (board/history.py) flagged undone, in place, so
that it is no longer counted and the club's outbox (publish/outbox.py) withdraws it if it went
out; or, when it could not be written at its end, written after the next game's frame.
Loaded by the app only then, and let go after: the history's own module stays small for the
game's end, when the summary wants the room."""

import gc

from board.history import read, undone, record_game

from micropython import const

_UNDONE = const(8)  # board/history.py's flag
_MAX_BYTES = const(8192)  # the history file's bound (board/history.py)


def _flag(r):
    """Record r (a version 2 one) as a bytearray flagged _UNDONE, its checksum made again."""
    r = bytearray(r)
    r[11] |= _UNDONE
    n = len(r)
    c = sum(r) - r[n - 2] - r[n - 1]
    r[n - 2] = c & 255
    r[n - 1] = c >> 8 & 255
    return r


def _last(f):
    """(the last good record of the open history file f, where it starts), or (None, 0)."""
    at = [0]
    rec = None
    i = 0
    while f:
        r = read(f, at, rec)
        if r is None:
            break
        rec = r
        i = at[0] - len(r)
    return rec, i


def _copy(p, f, i, r):
    """The open file f's bytes before offset i, then r (the last record, changed): to p (its
    arguments' names are ones the firmware has anyway: a new one is interned for good)."""
    f.seek(0)
    while i > 0:
        b = f.read(min(i, 512))
        if not b:
            break
        p.write(b)
        i -= len(b)
    p.write(r)
    f.close()  # (before the new file is renamed over it)


def undo(store, head, m):
    """0 if game m is still at the end whose record's head is head (record()'s first part:
    its result, winner and scores). Else the game was undone past that end: its
    record, if it is the history's last, is flagged undone, in place (an atomic save; kept:
    the club's outbox withdraws it if it was sent, publish/outbox.py); the game's end when
    it comes again (corrected, or the same: a redo) is a new record after it. Returns what
    the display is to say, or None."""
    k = m.phase == 4 and head[6] == m.result and head[7] == m.winner & 255  # (4: OVER)
    for i in range(m.sides if k else 0):
        k = k and head[12 + i] == min(m.score[i], 255)
    if k:
        return 0
    for again in (0, 1):
        f = None
        try:
            f = store.open("history", _MAX_BYTES)
            r, i = _last(f)
            c = len(head)  # (the same players, sides, target, result, winner, deals,
            if r is not None and r[0] == 2 and r[3:11] == head[3:11] and \
                    r[12:c] == head[12:c] and not undone(r):  # serial, scores: add()'s)
                store.save("history", _copy, f, i, _flag(r))
            return None
        except Exception as e:  # noqa: BLE001
            gc.collect()
            if again:
                return "history not saved (%s)" % type(e).__name__
        finally:
            if f:
                f.close()


def saved(store, d, m):
    """The finished game's record at a save of game m (App.save), d the app's record of it:
    a list, its parts made at the OK that started m (board/commands.py's record()), as it
    could not be written at its end: written to the history now; or (events, head), written
    at its end: flagged undone if m is no longer at that end (undo()). Returns (the app's
    record now, what the display is to say or None)."""
    if isinstance(d, list):
        return None, record_game(m, store, d)
    said = undo(store, d[1], m)
    return d if said == 0 else None, said or None
