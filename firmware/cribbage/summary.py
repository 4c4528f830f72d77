"""A game deal by deal: its journal replayed, each side's points by why, as the bytes a
finished game's record keeps (board/history.py), and read back."""

#     parts = dumps(m, limit) # m's game so far: a list of bytes parts (b"".join(parts): the
#                             # bytes below), its first `limit` deals (<= 255) detailed
#                             # (ValueError when there is no journal: an undo shows a finished
#                             # game's end only). m is left as it was.
#     totals(b, i, sides, k)  # side k's totals, of the bytes at b[i:]: a tuple in the order
#                             # of TOTALS, their names (hands shown, hand points, cribs
#                             # shown, crib points, play, heels, pegged by hand, penalties,
#                             # muggins taken, best show, 28s, 29s): read them by name,
#                             # dict(zip(TOTALS, totals(...))), or board/record.py's Record
#     rows(b, i, sides)       # its deals, each (dealer's seat, heels, crib, hands, plays,
#                             # pegged, penalties, muggins taken): the last five a value per
#                             # side; crib and a side's hand None when not shown
#
# dumps() replays m's committed journal on m itself, from the game's start, event by event
# (Match.replay: each decoded and checked in place as when it was entered, as the engine
# replays it after an undo), and after each one reads who pegged what and why
# (last_side, got, last_why; any other points the event pegged, from the scores: the go a
# failure to play ends the play with, counts as play; points taken back, as a false go's
# penalty takes back the card that proved it, come off that side's play), and, for a show,
# whose hand or crib it was (phase, turn, crib_next and pone() before it). At the end m is
# in the state it was in (the same events; last_play, the last card played, which a replay
# from a deal's record
# leaves unset, put back as it was); if anything fails half way (MemoryError), m.restore()
# puts it back, as the engine does after a failed entry, and the failure is raised. The play
# is its cards and go; pegged: points pegged by hand (the play when its cards are not
# entered). A side's hand in a deal is the sum of its seats' hands (four players: partners).
# best, 28s and 29s count every hand and crib the side showed, as claimed (pegged). A game
# with no deal (points pegged by hand only) has no deals here, and no totals.
#
# Run once at a game's end (board/history.py), imported only then and forgotten after
# (board/fault.py's forget). No second Match, no copy of the journal, and every block it
# makes is small (five sides at most: the totals 56 bytes, a part per deal 27, the deal's
# points 35; the list of parts): at a game's end a board's heap is in pieces (at 80 KB on a 64-bit
# port, with 5 players, the largest free block is 512 bytes), and the record is written part
# by part. Its names are
# few: every public name of a module is interned for good when it loads, and at a game's end
# a board has a handful to spare before the next pool of names (7 KB at once on this port);
# the layout's numbers are private constants, and readers use totals() and rows() (a record's
# by name: board/record.py, for board/stats.py, the page and tools; the live deals:
# board/web.py).
#
# The bytes: the number of deals that follow (the first `limit`); per side _TOTALS bytes (the
# order of totals(): 28s | 29s << 4 in one byte); then the deals, each: the dealer's seat |
# _F_HEELS | _F_PEGS | _F_EXTRA, the crib's points (_NONE: not shown), the hands' points of each
# side (_NONE: none shown), the play points of each side; with _F_PEGS the points pegged by
# hand of each side; with _F_EXTRA the penalties of each side, then the muggins taken by each
# side.

import gc

from . import events as ev  # (as ev.X: a name each here would cost the heap at a game's
# end, when there is least; ev: the name other modules give it too)

from micropython import const

# the names of a side's totals, in the order totals() gives them: their one list (a record's
# reader, board/record.py, and the tests read the totals by these names; a constant tuple: its
# strings are objects, not names interned for good)
TOTALS = ("hands", "hand", "cribs", "crib", "play", "heels", "pegged", "penalties",
          "muggins_taken", "best", "n28", "n29")

# a deal's points of a side, by why
_HAND = const(0)
_CRIB = const(1)
_PLAY = const(2)     # WHY_PLAY and WHY_GO
_HEELS = const(3)
_PEG = const(4)      # WHY_PEG: points pegged by hand
_PENALTY = const(5)
_MUGGINS = const(6)  # points this side took from another's short count
_FIELDS = const(7)
_NONE = const(255)   # _HAND, _CRIB: nothing shown
# the bytes: a side's totals (the order of totals()), a deal's flags
_T_SHOWN = const(9)  # best show, then 28s | 29s << 4
_TOTALS = const(11)
_F_HEELS = const(16)
_F_PEGS = const(32)  # (a deal's size: 2 + (2 + flags // _F_PEGS) * sides)
_F_EXTRA = const(64)


def _add(b, i, n):
    """n points more in the points table b's byte i (nothing shown yet: none before). (Its
    arguments' names are ones the firmware has anyway: a new one is interned for good.)"""
    v = b[i]
    b[i] = min((0 if v == _NONE else v) + n, 254)


def dumps(m, limit):
    """m's game so far as a list of bytes parts (the layout above: the totals, then a part per
    deal), its first `limit` deals detailed. m replays its own journal in place, event by
    event, and is left as it was. ValueError when there is no journal to replay (m not
    touched); after a failure half way (MemoryError) m.restore() puts the game back, as the
    engine does after a failed entry, and the failure is raised (if the restore fails too,
    that is raised: the caller must restore the game before it goes on)."""
    for parts in replay(m, limit, False):
        return parts


def replay(m, limit, rest):
    """dumps() as a generator: it yields the parts at the end; with rest true, also None
    after each deal, m in the middle of its replay: next() goes on; send(1) first puts m
    back as it was (m.restore(), its last_play too) and yields None again, for whatever runs
    before the next deal (a key, a frame, the page), so that nothing waits for the whole replay
    (board/history.py's rest(): a won game's record between keys). The next() after that
    takes m back to where it was (m.undone(at): the state before the event at journal
    offset at, from that deal's record: one event of replay); a game changed in between
    (another event, an undo, the next game) raises ValueError, as a game with no journal
    does."""
    j = m.committed()  # the game's events, in place
    e = m.events
    sides = m.sides
    score = list(m.score)
    deals = m.deals
    played = m.last_play  # (a replay from a deal's record, as undo makes, has none yet)
    head = bytearray(1 + _TOTALS * sides)  # the deals that follow, then each side's totals
    parts = [head]
    cur = bytearray(_FIELDS * sides)  # the deal's points, [side][field]
    was = bytearray(sides)  # each side's score before the event (< 256 until it is won)
    c = d = dealer = 0  # (d: the deal; a peg before the first deal is deal 0's)
    crib = show = False
    side = 0
    at = m.replay(-1)  # m at its game's start (ValueError, m not touched: an undo shows a
    try:  # finished game's end only, no journal)
        for f in range(0, len(cur), _FIELDS):
            cur[f + _HAND] = cur[f + _CRIB] = _NONE
        while True:
            last = at < 0  # (at: where the next event starts, -1 after the last)
            if not last:
                show = j[at] & 0xF0 == ev.E_SHOW  # (events.py: a code's high nibble)
                if show:  # whose hand, or the crib: as the engine will see it
                    crib = m.phase == ev.SHOW and m.crib_next
                    side = (m.turn if m.phase == ev.SHOW else m.pone()) % sides
                for k in range(sides):
                    was[k] = m.score[k]
                c = m.deals  # (the deals before it: after a deal's event, the next slice)
                at = m.replay(at)  # checked and applied as when it was entered
            if (last or m.deals > d + 1) and d < m.deals:  # deal d is over: its totals, its
                fl = 0  # part (none when no deal was dealt: points pegged by hand only)
                for k in range(sides):
                    f = k * _FIELDS
                    t = 1 + _TOTALS * k
                    for n, o in ((_HAND, 1), (_CRIB, 3), (_PLAY, 4), (_HEELS, 5), (_PEG, 6),
                                 (_PENALTY, 7), (_MUGGINS, 8)):
                        if cur[f + n] != _NONE:
                            head[t + o] = min(head[t + o] + cur[f + n], 255)
                    if cur[f + _HEELS]:
                        fl |= _F_HEELS
                    if cur[f + _PEG]:
                        fl |= _F_PEGS
                    if cur[f + _PENALTY] or cur[f + _MUGGINS]:
                        fl |= _F_EXTRA
                if d < limit:
                    b = bytearray(2 + (2 + fl // _F_PEGS) * sides)
                    b[0] = dealer | fl
                    b[1] = cur[dealer % sides * _FIELDS + _CRIB]
                    o = 2
                    for n in (_HAND, _PLAY, _PEG, _PENALTY, _MUGGINS):
                        if (n == _PEG and not fl & _F_PEGS) or (n > _PEG and not fl & _F_EXTRA):
                            continue
                        for k in range(sides):
                            b[o] = cur[k * _FIELDS + n]
                            o += 1
                    parts.append(b)
                    head[0] += 1
            if last:
                break
            if m.deals > d + 1:  # the next deal
                d += 1
                for f in range(len(cur)):
                    cur[f] = _NONE if f % _FIELDS < 2 else 0
            dealer = max(m.dealer, 0)
            got = m.got
            if show:
                _add(cur, side * _FIELDS + (_CRIB if crib else _HAND), got)  # (0: shown)
                t = 1 + _TOTALS * side
                head[t + (2 if crib else 0)] += 1  # hands shown, cribs shown
                head[t + _T_SHOWN] = max(head[t + _T_SHOWN], got)
                if got == 28 and head[t + _T_SHOWN + 1] & 15 < 15:
                    head[t + _T_SHOWN + 1] += 1
                elif got == 29 and head[t + _T_SHOWN + 1] < 0xF0:
                    head[t + _T_SHOWN + 1] += 16
            elif got:
                w = m.last_why  # its field (no table: nothing to allocate)
                _add(cur, m.last_side * _FIELDS + (
                    _PLAY if w == ev.WHY_PLAY or w == ev.WHY_GO else _HEELS if w == ev.WHY_HEELS
                    else _PEG if w == ev.WHY_PEG or w == ev.WHY_LAST
                    else _PENALTY if w == ev.WHY_PENALTY
                    else _MUGGINS if w == ev.WHY_MUGGINS else _CRIB if w == ev.WHY_CRIB
                    else _HAND), got)
            for k in range(sides):  # what else the event pegged (the go a dead hand ends the
                n = m.score[k] - was[k] - (got if k == m.last_side else 0)  # play with), or
                if n > 0:  # took back (a false go: the card that proved it, and its points)
                    _add(cur, k * _FIELDS + _PLAY, n)
                elif n < 0:  # (its points were this deal's play: the card was the last event)
                    cur[k * _FIELDS + _PLAY] = max(cur[k * _FIELDS + _PLAY] + n, 0)
            if rest and at >= 0 and c != m.deals and (yield None):  # a deal dealt; sent
                m.deals = deals  # a true value: the game as it was until the next deal,
                m.restore()  # for whatever runs before it (from its last deal's record: its
                m.last_play = played  # deals now say which; one deal of replay)
                yield None
                if m.events != e or m.deals != deals or m.score != score:
                    raise ValueError("journal")  # (changed: no summary of it here)
                m.undone(at)  # (the state before the event at at: after the deal's)
    except BaseException:  # (MemoryError half way: the journal's state again, as the engine
        parts = head = cur = None  # does after a failed entry, once this call's blocks are
        gc.collect()  # free; if that fails too, the caller must see the game restored)
        m.restore()
        raise
    if m.score != score or m.deals != deals:  # (the journal is the game: never)
        m.restore()
        raise ValueError("journal")
    m.last_play = played
    yield parts


def totals(b, i, sides, k):
    """Side k's totals in dumps() bytes at b[i:] (of `sides` sides), as a tuple in the order
    of TOTALS (their names): hands shown, hand points, cribs shown, crib points, play, heels,
    pegged by hand, penalties, muggins taken, best show, 28s, 29s."""
    t = i + 1 + _TOTALS * k
    return tuple(b[t:t + _T_SHOWN + 1]) + (b[t + _T_SHOWN + 1] & 15, b[t + _T_SHOWN + 1] >> 4)


def rows(b, i, sides):
    """The deals of dumps() bytes at b[i:] (of `sides` sides), as a list of (dealer's seat,
    heels, crib, hands, plays, pegged, penalties, muggins taken), the last five a tuple with
    a value per side; crib and a side's hand None when not shown."""
    nd = b[i]
    i += 1 + _TOTALS * sides
    out = []
    z = (0,) * sides
    for _ in range(nd):
        fl = b[i]
        crib = b[i + 1]
        i += 2
        f = [tuple(None if v == _NONE else v for v in b[i:i + sides]),
             tuple(b[i + sides:i + 2 * sides]), z, z, z]
        i += 2 * sides
        if fl & _F_PEGS:
            f[2] = tuple(b[i:i + sides])
            i += sides
        if fl & _F_EXTRA:
            f[3] = tuple(b[i:i + sides])
            f[4] = tuple(b[i + sides:i + 2 * sides])
            i += 2 * sides
        out.append((fl & 15, 2 if fl & _F_HEELS else 0, None if crib == _NONE else crib)
                   + tuple(f))
    return out
