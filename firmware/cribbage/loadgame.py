"""Loading a saved Match (saved.py's format): loads() builds a Match from dumps() bytes.

Refuses anything truncated, padded, corrupt or of an unknown version, and reads the version 1
saves of earlier firmware (saved1.py). Reads and builds a Match through its public calls and
its Journal's: loads() makes a Match of the settings, gives its journal the saved events, and
restore()s it. A board runs it at power-up and after a fault only (cribbage.match.loads
imports it for the call; board/fault.py's table lets it go after: issue 34, off the game's
heap).
"""

from .events import VERSION, say, size
from .journal import CAP
from .rules import prev_size, get16
from .saved import crc32

from micropython import const

# Why loads() refuses, one a line (see events.say).
_NO = """saved game truncated: %d bytes
saved game version %d, this board reads %d
saved game truncated or padded: %d bytes
saved game corrupt: checksum mismatch
an event is cut short
saved game does not replay: %s"""
_SHORT = const(0)
_VERSION = const(1)
_LENGTH = const(2)
_CRC = const(3)
_CUT_SHORT = const(4)
_REPLAY = const(5)

_HEADER = const(14)  # version, 7 settings bytes, committed, total (2 each), flags, next dealer
_KEPT = const(1)     # flags: the finished game's record follows the base
_SHOWING = const(2)  # flags: undo went back to it (the new game is all redo)
_OLD = const(1)      # the version of saves that kept every game in one journal


def loads(data, match_class):
    # A match_class (Match) from dumps() bytes. ValueError when the data is truncated,
    # corrupt (CRC), of another version, or its journal does not replay.
    n = len(data)
    if n < 16:
        raise ValueError(say(_NO, _SHORT, (n,)))
    v = data[0]
    if v != VERSION and v != _OLD:
        raise ValueError(say(_NO, _VERSION, (v, VERSION)))
    crc = data[n - 4] | data[n - 3] << 8 | data[n - 2] << 16 | data[n - 1] << 24
    if crc32(memoryview(data)[:n - 4]) != crc:
        raise ValueError(say(_NO, _CRC))
    s = data[1:8]

    m = match_class(players=s[0], target=s[1], muggins=bool(s[2] & 1), skunk_line=s[3],
                    skunk_games=s[4], double_line=s[5], double_games=s[6],
                    pairs=not s[2] & 2,  # (six players saved before the two teams: pairs)
                    mode=s[2] >> 2 & 3, deal=s[2] >> 4 & 3, cards=5 if s[2] & 128 else 6,
                    fitted=bool(s[2] & 64))  # (earlier firmware: every card left dead)
    committed = get16(data, 8)
    top = get16(data, 10)
    if v == _OLD:  # loaded only for such a save: its code stays off the heap otherwise
        from .saved1 import loads as old
        return old(m, data, committed, top)
    sides = m.sides
    flags = data[12]
    np = prev_size(sides) if flags & _KEPT else 0
    h = _HEADER + 2 * sides + np
    if n != h + top + 4 or committed > top or top > CAP or flags > 3 \
            or (flags == _SHOWING) or (flags & _SHOWING and committed):
        raise ValueError(say(_NO, _LENGTH, (n,)))
    log = m.log
    log.save(bytes(data[h - np:h]) if np else b"",
               [get16(data, _HEADER + 2 * k) for k in range(sides)],
               -1 if data[13] == 255 else data[13])
    log.load(data, h, top)
    try:
        if not events_whole(log.j, 0, top, committed, m.players):
            raise ValueError(say(_NO, _CUT_SHORT))
        log.stop(committed)
        log.show(bool(flags & _SHOWING))
        m.restore()
    except (ValueError, IndexError) as e:
        raise ValueError(say(_NO, _REPLAY, (e,))) from None
    return m


def events_whole(j, start, end, top, players):
    """True if events from start run exactly to end, passing `committed`-like mark top (the
    save formats' check of a journal: here and saved1.py)."""
    i = start
    seen = top == start
    while i < end:
        i += size(j, i, players)
        if i == top:
            seen = True
    return i == end and seen
