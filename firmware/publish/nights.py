"""The night each game waiting for the club ended in, on flash: its game message carries it
(publish/packets.py's game(), contract.NIGHT), so a game finished before midnight and sent
after it (the club's broker out of reach meanwhile, the board reset or not) counts on the
night it was played (tools/club/night.py's carried()).

nights: a JSON list of "MARK YYYY-MM-DD" (the mark of a game of the history, publish/
outbox.py's mark(), and the night the club had said when it ended), oldest first: only games
still after the outbox's mark, at most _KEPT (the oldest let go: its game goes without a
night and counts on the night it reaches the club). Saved (atomic: board/storage.py) at a
look that finds a game ended while the club's night was known; a game sent is let go at the
next such save. A game that ended with no night known (the board not yet told since it
started) carries none.
"""

import json

from publish.outbox import MARK, mark, records

from micropython import const

_NIGHTS = const(1024)  # the file's bound (_KEPT of 41 bytes: 660)
_KEPT = const(16)  # nights kept for waiting games, at most (a club night is 9 games a board)


def _kept(store):
    def parse(b):
        v = json.loads(b)
        if not isinstance(v, list) or len(v) > _KEPT:
            raise ValueError("not nights")
        for k in v:
            if not isinstance(k, str) or len(k) != MARK + 11 or k[MARK] != " ":
                raise ValueError("not nights")
        return v
    try:
        return store.load("nights", parse, _NIGHTS) or []
    except Exception:  # noqa: BLE001  (a file of another shape: no nights)
        return []


def stamp(pub):
    """At a look (publish/link.py's tick(): a game over, or connected): the games the history
    has gained since the last look take pub.night (when the club has said one since the board
    started). pub.top: the newest game's mark at the last look ("" none; None: not looked at
    since the board started, when the history's games are of no night known)."""
    st = pub.app.store
    last = pub.box[1]
    top = pub.top
    waiting = []  # the games after the outbox's mark
    new = []  # the games after top
    found = top == ""  # (the history was empty: every game in it now is new)
    m = ""
    for r in records(st):
        m = mark(r)
        if last and m == last:
            waiting = []
        else:
            waiting.append(m)
        if found:
            new.append(m)
        elif m == top:
            found = True
    pub.top = m
    if not (new and pub.night):
        return 0
    kept = [k for k in _kept(st) if k[:MARK] in waiting]
    for m in new:
        if m in waiting:
            kept.append(m + " " + pub.night)
    kept = kept[-_KEPT:]
    st.save("nights", json.dumps(kept).encode())
    return len(new)


def keep(pub):
    """stamp(pub), whose failure (the flash full) costs the games their night, never the
    connection: said on the console."""
    try:
        return stamp(pub)
    except Exception as e:  # noqa: BLE001
        print("club: no night kept for the game:", repr(e))
        return 0


def night_of(store, m):
    """The night the game with mark m ended in, or None."""
    for k in _kept(store):
        if k.startswith(m):
            return k[MARK + 1:]
    return None
