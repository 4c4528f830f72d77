"""Finished games, kept for history and statistics: a bounded file beside the game.

One record a game: the newest KEEP (64) games, and never more than MAX_BYTES (8 KB) in all
(the oldest go first; 64 two-player games to 121 take about 7 KB). Written when OK starts the
next game, before the game itself is saved, with the game's own atomic save (a temporary file
renamed over the old one: a power cut leaves the old file or the new one); if the power goes
between the two saves, the same game is offered again and its record (same serial, scores,
result) is not added twice. The file is read a record at a time (seek, read), never whole,
and the summary's module leaves the heap once the game is recorded: the heap the history
takes is the same at 64 games as at one.

A record (version 2; numbers little-endian) carries its length and a checksum:
  0 version 2, 1-2 length n of the whole record, 3 players, 4 sides, 5 target, 6 result
  (cribbage.events WIN..LURCH), 7 winning side, 8 deals, 9-10 serial (games won by all sides
  after this game, low 16 bits), 11 flags (MUGGINS_ON; SUMMARY: the summary follows the
  scores), 12.. the final score of each side (a byte each), then the game's summary
  (cribbage/summary.py, dumps: each side's hand, crib and play points, heels, pegs,
  penalties, muggins taken, best show, 28s and 29s; then deal by deal, the first DETAIL),
  n-2..n-1 the sum of bytes 0..n-3 (low 16 bits). When memory is too short for the summary
  (or an undo shows the finished game's end only: no journal), the record keeps the result
  and the scores.
Records of earlier firmware (version 1: 16 bytes, the result and the scores) are read and kept
until they are the oldest. A record that does not check is skipped (the next good one is
found) and left out the next time the file is written. board/stats.py reads the records.
"""

import gc

from cribbage.events import OVER

from micropython import const

SIZE = 16  # a version 1 record
KEEP = 64
MAX_BYTES = const(8192)  # the file's bound: two 4 KB flash blocks
DETAIL = const(40)  # deals in a record's summary (a real game takes 5-30)
HEAD = const(12)
MUGGINS_ON = const(1)
SUMMARY = const(2)
_LONGEST = const(1400)  # no record is longer (6 sides, DETAIL deals with every field)
_SUMMARY_ROOM = const(10240)  # bytes free the summary wants: ~10 KB on a 64-bit port


def _next(f, at, rec):
    """The next good record of the open file f from offset at[0] on (rec: the good record
    before it, or None), at[0] moved past it; None at the end. A record that does not check
    is skipped (version 1 records come first, on 16-byte boundaries)."""
    i = at[0]
    while True:
        f.seek(i)
        r = f.read(3)
        if len(r) < 3:
            at[0] = i
            return None
        n = r[1] | r[2] << 8 if r[0] == 2 else SIZE
        if (r[0] == 2 and HEAD + 4 <= n <= _LONGEST) or (
                r[0] == 1 and not i % SIZE and not (rec and rec[0] == 2)):
            f.seek(i)
            r = f.read(n)
            if len(r) == n and (sum(r) - r[15] & 255 == r[15] if r[0] == 1 else
                                2 <= r[4] <= r[3] <= 6 and
                                sum(r) - r[n - 2] - r[n - 1] & 0xFFFF == r[n - 2] | r[n - 1] << 8):
                at[0] = i + n
                return r
        i += 1


def walk(out, f, drop=0, room=0, last=None):
    """out.write(record) for each good record of the open history file f (seek, read; None:
    no file), oldest first, the oldest left out until `drop` records and `room` bytes are
    (out None: no writes); then, if last is given, f is closed and last written. Returns (the
    last good record or None, how many, their bytes)."""
    rec = None
    k = t = 0
    at = [0]
    while f:
        r = _next(f, at, rec)
        if r is None:
            break
        rec = r
        k += 1
        t += len(r)
        if drop > 0 or room > 0:
            drop -= 1
            room -= len(r)
        elif out:
            out.write(r)
    if last:
        if f:
            f.close()  # (before the new file is renamed over it)
        out.write(last)
    return rec, k, t


def add(store, m, summary=None):
    """Append the record of m's finished game (phase OVER), with its summary (cribbage.
    summary's dumps() bytes) or none, to the "history" file of store (board.storage.Storage),
    the oldest records dropped to stay within KEEP and MAX_BYTES: the file is rewritten from
    its own records, read one at a time. False if it is there already (the same players,
    sides, target, result, winner, deals, serial and scores: the power went before the
    game's save, and it was offered again)."""
    if summary is None:  # (None, not b"": the summary is a bytearray, pyright reads the default)
        summary = b""
    sides = m.sides
    n = HEAD + sides + len(summary) + 2
    rec = bytearray(n)
    c = sum(m.games) & 0xFFFF  # the serial
    rec[0:HEAD] = bytes((2, n & 255, n >> 8, m.players, sides, m.target, m.result,
                         m.winner & 255, min(m.deals, 255), c & 255, c >> 8,
                         (MUGGINS_ON if m.muggins_on else 0) | (SUMMARY if summary else 0)))
    for c in range(sides):
        rec[HEAD + c] = min(m.score[c], 255)
    rec[HEAD + sides:n - 2] = summary
    c = sum(rec)
    rec[n - 2] = c & 255
    rec[n - 1] = c >> 8 & 255
    f = store.open("history")
    try:
        r, k, t = walk(None, f)
        c = HEAD + sides
        if r and r[0] == 2 and r[3:11] == rec[3:11] and r[HEAD:c] == rec[HEAD:c]:
            return False
        store.save("history", walk, f, k - KEEP + 1, t + n - MAX_BYTES, rec)
    finally:
        if f:
            f.close()
    return True


def record_game(app):
    """The app's finished game (if it is over) to the history, before the next game; a
    failure is said on the display and never blocks the game. The summary (the game's
    journal replayed) is made when memory allows (its module leaves the heap after), else the
    record keeps the result and the scores."""
    m = app.m
    if m.phase != OVER:
        return
    body = _summary(m)
    for again in (0, 1):
        try:
            add(app.store, m, body)
            return
        except Exception as e:  # noqa: BLE001
            body = b""
            gc.collect()
            if again:
                app.refuse("history not saved (%s)" % type(e).__name__)


def _summary(m):
    """cribbage.summary's dumps() of m's game, or b"" when memory is short (or the journal
    is not the game's: an undo shows a finished game's end only)."""
    gc.collect()
    if hasattr(gc, "mem_free") and gc.mem_free() < _SUMMARY_ROOM:  # (CPython: no heap)
        return b""
    import sys

    from board.fault import forget

    had = "cribbage.summary" in sys.modules  # (the live page keeps it)
    try:
        from cribbage.summary import dumps

        return dumps(m, DETAIL)
    except Exception:  # noqa: BLE001  (MemoryError; a journal not the game's)
        gc.collect()
        return b""
    finally:
        if not had:
            forget("cribbage.summary")  # its code leaves the heap
