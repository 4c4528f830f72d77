"""The seats' names on flash (the page's /club and /names, the club's messages).

names: a short name per seat (SEATS, None for none) as a JSON list; after them, while games
wait in the outbox (publish/outbox.py) and the names have changed, the names each was played
with ("MARK Ann,Bob,,,,": the mark of the newest game they belong to, oldest first;
save_names()).
"""

import json

from publish.contract import SEATS, parse_names
from publish.outbox import MARK, records, mark, saved

from micropython import const

_NAMES = const(1024)  # the names file's bound (the seats' and _KEPT kept: 706 bytes)
_KEPT = const(8)  # names kept for the games waiting, at most


def _names(store):
    """The names file: the seats' names (SEATS, as load_names()), then the names kept for
    waiting games ("MARK Ann,Bob,,,,", oldest first)."""
    def parse(b):
        v = json.loads(b)
        if not isinstance(v, list) or len(v) > SEATS + _KEPT:
            raise ValueError("not names")
        for k in v[SEATS:]:
            if k[MARK:MARK + 1] != " ":
                raise ValueError("not names")
            parse_names(k[MARK + 1:])
        return parse_names(",".join(x if isinstance(x, str) else "" for x in v[:SEATS])) + \
            v[SEATS:]
    try:
        got = store.load("names", parse, _NAMES)
    except Exception:  # noqa: BLE001  (a file of another shape: no names)
        got = None
    return got or [None] * SEATS


def load_names(store):
    """The seats' names kept on flash: SEATS names or None (all None when none are)."""
    return _names(store)[:SEATS]


def _live(store, last, kept):
    """(the names of kept whose game is still after the outbox's mark `last`, the mark of
    the newest game after it, or None when none is)."""
    on = []
    new = None
    for r in records(store):
        m = mark(r)
        if last and m == last:
            on = []
            new = None
        else:
            new = m
            for k in kept:
                if k.startswith(m):
                    on.append(k)
    return on, new


def played_with(store, last, names):
    """The names the first game after the outbox's mark `last` was played with: those kept
    for it, else names (the seats' now)."""
    kept = _names(store)[SEATS:]
    if kept:
        kept = _live(store, last, kept)[0]
        if kept:
            return parse_names(kept[0][MARK + 1:])
    return names


def let_go(store, last):
    """The broker has the games up to the outbox's mark `last`: the names kept for them are
    let go (a power cut before: they are, at the next save of the names)."""
    names = _names(store)
    if len(names) > SEATS:
        kept = _live(store, last, names[SEATS:])[0]
        if len(kept) < len(names) - SEATS:
            store.save("names", json.dumps(names[:SEATS] + kept).encode())


def save_names(store, names):
    """names (SEATS) as the seats' (the page's POST /names). The games waiting in the outbox
    keep the names they were played with: the seats' before are kept, with the mark of the
    newest game waiting, in the same save (a power cut: the old file or the new). At most
    _KEPT are: one more and the oldest's games take the next names (said on the console)."""
    kept = _names(store)
    old = kept[:SEATS]
    kept = kept[SEATS:]
    box = saved(store)  # (none: nothing is published, nothing waits)
    new = None
    if box is None:
        kept = []
    else:
        from board.fault import modules, release

        had = modules()
        kept, new = _live(store, box[1], kept)
        release(had)  # (board.history, unless the board had it: the page's request lets go)
    old = " " + ",".join(x or "" for x in old)
    if new is not None and old != " " + ",".join(x or "" for x in names) and not (
            kept and kept[-1].startswith(new)):
        if kept and kept[-1][MARK:] == old:
            kept[-1] = new + old  # (the same names: one entry)
        else:
            kept.append(new + old)
        if len(kept) > _KEPT:
            print("club: %d names kept at most: the oldest's games take the next" % _KEPT)
            kept.pop(0)
    store.save("names", json.dumps(names + kept).encode())
