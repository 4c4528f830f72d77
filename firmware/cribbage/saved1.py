"""Version 1 saves (firmware before the journal held one game): every game in one journal.

Loaded only when such a save is found (loadgame.loads), once: the board saves version 2 after
it. (Its loads() has the name of loadgame.loads, one the board interns anyway.)
"""

from .events import E_NEW_GAME, size as _size, say

from micropython import const

_NO = """saved game (version 1) truncated or padded: %d bytes
saved game (version 1): an event is cut short
saved game (version 1) does not replay: %s"""
_LENGTH = const(0)
_CUT_SHORT = const(1)
_REPLAY = const(2)


def loads(m, data, committed, top, events_whole):
    """A version 1 save (every game in one journal): enter its events again, game by game,
    so only the current game stays; its redo events come along up to a new game.
    (events_whole: loadgame.py's check of a journal, handed over: no import circle.)"""
    if len(data) != 12 + top + 4 or committed > top:
        raise ValueError(say(_NO, _LENGTH, (len(data),)))
    j = memoryview(data)[12:12 + top]
    try:
        if not events_whole(j, 0, top, committed, m.players):
            raise ValueError(say(_NO, _CUT_SHORT))
        i = 0
        at = 0  # where the committed events end in the new journal
        while i < top:
            k = _size(j, i, m.players)
            if j[i] == E_NEW_GAME:
                if i >= committed:
                    break  # a redo of the next game: dropped
                m.next_game()
            else:
                m.enter(j, i, k)
            i += k
            if i == committed:
                at = m.log.end
        while m.log.end > at and m.undo():  # the redo events stay as redo events
            pass
    except (ValueError, IndexError) as e:
        raise ValueError(say(_NO, _REPLAY, (e,))) from None
    return m
