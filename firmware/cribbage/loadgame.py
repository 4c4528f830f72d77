"""Making a Match: its settings checked and set (match(), Match()'s), and loading a saved one
(game.py's saved form): loads() builds a Match from dumps() bytes.

Refuses anything truncated, padded, corrupt or of an unknown version, and reads the version 1
saves of earlier firmware (saved1.py). Reads and builds a Match through its public calls:
loads() makes a Match of the settings, puts the saved events in its journal (j, top, end and
showing set here: journal.py), and restore()s it. A board runs it at power-up, at a new game
and after a fault only (cribbage.match's Match() and loads() import it for the call;
board/fault.py's table lets it go after: issue 34, off the game's heap; where memory may be
short, the board loads it first with fault.load()). A five-card Match's making loads its
hands' count too (score5.py, kept).
"""

from .events import VERSION, say, size, SINGLE, BEST_OF_3, BEST_OF_5, ACC
from .journal import CAP
from .rules import prev_size
from .game import crc32

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

# Why Match() refuses its settings, one a line (see events.say).
_NEW = """players must be 2 to 6, not %r
the game is 121 or 61 points, not %r
skunk lines must be 0 (off) to %d
the double skunk line %d is above the skunk line %d
a game counts 1 to 9 games
the match mode is 0 to 3, not %r
who deals the next game is 0 to 2, not %r
the cards are 6, or 5: five-card cribbage, a game of 2 players to 61"""
_PLAYERS = const(0)
_TARGET = const(1)
_LINES = const(2)
_DOUBLE = const(3)
_GAMES = const(4)
_MODE = const(5)
_DEAL_RULE = const(6)
_FIVE_GAME = const(7)

_HEADER = const(14)  # version, 7 settings bytes, committed, total (2 each), flags, next dealer
_KEPT = const(1)     # flags: the finished game's record follows the base
_SHOWING = const(2)  # flags: undo went back to it (the new game is all redo)
_OLD = const(1)      # the version of saves that kept every game in one journal



def get16(b, i):
    """The 2-byte little-endian number at b[i] (a save's: loaded here only, and let go)."""
    return b[i] | b[i + 1] << 8

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
        return old(m, data, committed, top, events_whole)
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
    j = log.j  # the save's events, all redo events until its end is set: in the new Match's
    if top + 64 > len(j):  # journal, unless the save holds more (here, not a Journal call:
        j = log.j = bytearray(top + 64)  # loading's code leaves the heap after, issue 34)
    j[:top] = memoryview(data)[h:h + top]
    log.top = top
    try:
        if not events_whole(log.j, 0, top, committed, m.players):
            raise ValueError(say(_NO, _CUT_SHORT))
        log.end = committed
        log.showing = bool(flags & _SHOWING)
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


def match(m, players, target, muggins, skunk_line, skunk_games, double_line, double_games,
          pairs, mode, deal, cards):
    """Match m's settings checked (ValueError, m unchanged) and set."""
    if mode not in (SINGLE, BEST_OF_3, BEST_OF_5, ACC):
        raise ValueError(say(_NEW, _MODE, (mode,)))
    if deal not in (0, 1, 2):
        raise ValueError(say(_NEW, _DEAL_RULE, (deal,)))
    if players not in (2, 3, 4, 5, 6):
        raise ValueError(say(_NEW, _PLAYERS, (players,)))
    if target not in (61, 121):
        raise ValueError(say(_NEW, _TARGET, (target,)))
    if cards != 6 and (cards != 5 or players != 2 or target != 61):
        raise ValueError(say(_NEW, _FIVE_GAME))
    if skunk_line == -1 or skunk_line is None:
        skunk_line = 91 if target == 121 else 31
    if double_line == -1 or double_line is None:
        double_line = 61 if target == 121 else 0
    if mode == ACC:  # the American Cribbage Congress's game points
        skunk_games = 3
        double_line = 0
    if not (0 <= skunk_line < target and 0 <= double_line < target):
        raise ValueError(say(_NEW, _LINES, (target - 1,)))
    if double_line and double_line > skunk_line:
        raise ValueError(say(_NEW, _DOUBLE, (double_line, skunk_line)))
    if not (1 <= skunk_games <= 9 and 1 <= double_games <= 9):
        raise ValueError(say(_NEW, _GAMES))
    if cards == 5:  # its hands' count (score5.py, kept) loaded with the Match: none at a
        __import__("cribbage.score5")  # count, where a fault would show (a string: no name)
    m.players = players
    m.sides = 3 if pairs and players == 6 else 2 if players in (4, 6) else players
    m.target = target
    m.muggins_on = bool(muggins)
    m.skunk_line = skunk_line
    m.skunk_games = skunk_games
    m.double_line = double_line
    m.double_games = double_games
    m.mode = mode
