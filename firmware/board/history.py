"""Finished games, kept for history and statistics: a small bounded file beside the game.

One 16-byte record a game, at most KEEP records (the oldest go first), the whole file written
with the game's own atomic save (a power cut leaves the old file or the new one). Written
when OK starts the next game, before the game itself is saved: if the power goes between the
two, the same game is offered again and its record (same serial) is not added twice.

Record: 0 version, 1 players, 2 target, 3 result (cribbage.events WIN..LURCH), 4 winning
side, 5 deals, 6-11 final score per side (0 past the last side), 12-13 serial (the games won
by all sides after this game, low 16 bits), 14 spare, 15 checksum (sum of 0-14, low 8 bits).
"""

import gc

from cribbage.events import OVER

SIZE = 16
KEEP = 64  # 1 KB on flash at most
_VERSION = 1


def record(m):
    """The record of m's finished game (phase OVER)."""
    r = bytearray(SIZE)
    r[0] = _VERSION
    r[1] = m.players
    r[2] = m.target
    r[3] = m.result
    r[4] = m.winner & 255
    r[5] = min(m.deals, 255)
    for s in range(m.sides):
        r[6 + s] = min(m.score[s], 255)
    serial = sum(m.games) & 0xFFFF
    r[12] = serial & 255
    r[13] = serial >> 8
    r[15] = sum(r) & 255
    return bytes(r)


def records(data):
    """The good records of a history file's bytes, oldest first (bad ones are skipped)."""
    out = []
    for i in range(0, len(data) - SIZE + 1, SIZE):
        r = data[i:i + SIZE]
        if r[0] == _VERSION and sum(r[:15]) & 255 == r[15]:
            out.append(bytes(r))
    return out


def add(store, m):
    """Append m's finished game to the "history" file of store (board.storage.Storage):
    the kept records are written from the file's own bytes (no copy, no list of them)."""
    rec = record(m)
    data = store.read("history") or b""
    n = len(data) - len(data) % SIZE  # whole records only
    if n and data[n - SIZE:n] == rec:
        return False  # recorded already (the power went before the game was saved)
    start = max(0, n - (KEEP - 1) * SIZE)
    store.save("history", (memoryview(data)[start:n], rec))
    return True


def record_game(app):
    """The app's finished game (if it is over) to the history, before the next game; a
    failure is said on the display and never blocks the game."""
    if app.m.phase != OVER:
        return
    for again in (0, 1):
        try:
            add(app.store, app.m)
            return
        except Exception as e:  # noqa: BLE001
            gc.collect()
            if again:
                app.refuse("history not saved (%s)" % type(e).__name__)
