"""Saving a Match (Match.dump; Match.dumps: the same bytes as one bytes object); loading it
again is loadgame.py's (a board loads a game at power-up and after a fault only: its code is
let go after, board/fault.py's table).

Saved form (dumps, version 2): version byte, the 7 settings bytes (Match.settings: players,
target, flags (1 muggins, 2 six players in two teams, the match mode << 2, who deals the next
game << 4, 64 dead cards as sheet 000 (only those that fitted), 128 five-card cribbage: saves
of earlier firmware have 0 there, single games, the deal on round the table, every card dead,
six cards, and load as they were played), skunk line and games, double line and games),
committed and total journal lengths (2 bytes each), flags (1: the finished game is kept,
2: it is showing), the base (next dealer, games won per side, 2 bytes each: in ACC mode game
points), the finished game's record if kept (journal.py), the journal with its redo events,
CRC-32 of all that (4 bytes; numbers little-endian). loadgame.py's loads() refuses anything
truncated, padded, corrupt or of an unknown version, and reads the version 1 saves of earlier
firmware (saved1.py).
"""

import binascii

from .events import VERSION
from .rules import put16

from micropython import const

_HEADER = const(14)  # version, 7 settings bytes, committed, total (2 each), flags, next dealer
_KEPT = const(1)     # flags: the finished game's record follows the base
_SHOWING = const(2)  # flags: undo went back to it (the new game is all redo)


def crc32(data, crc=0):
    """binascii.crc32(data, crc): crc the CRC so far (0 to start), as zlib's."""
    try:
        return binascii.crc32(data, crc) & 0xFFFFFFFF
    except AttributeError:  # a port built without binascii.crc32: the same CRC, slowly
        crc ^= 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF


def _head(m):
    # The saved form up to the journal: version, settings, lengths, flags, base, the finished
    # game's record. A few dozen bytes.
    s = m.sides
    log = m.log
    prev = log.won
    np = len(prev)
    h = _HEADER + 2 * s + np
    out = bytearray(h)
    out[0] = VERSION
    out[1:8] = m.settings()
    put16(out, 8, log.end)
    put16(out, 10, log.top)
    out[12] = (_KEPT if np else 0) | (_SHOWING if log.showing else 0)
    out[13] = log.dealer & 255
    for k in range(s):
        put16(out, _HEADER + 2 * k, min(log.games[k], 0xFFFE))
    if np:
        out[_HEADER + 2 * s:h] = prev
    return out


def dump(m, f):
    # The saved form written to the open file f in three pieces: the head, the journal where
    # it lies (no copy), the CRC. The save then needs no block the size of the game, which a
    # heap fragmented by a long game (five players: ~500 events) may not have.
    head = _head(m)
    j = memoryview(m.log.j)[:m.log.top]
    crc = crc32(j, crc32(head))
    f.write(head)
    f.write(j)
    for i in range(4):
        head[i] = crc >> (8 * i) & 255
    f.write(memoryview(head)[:4])
