"""A later version's history records kept (issue 31): after an update went back, the older
firmware's history (board/history.py) may hold records of a format it cannot read, which its
rewrite at a game's end would drop. Loaded by history.add() only when the file holds bytes no
good record does (rarely: then, or a damaged record), and let go after. It imports nothing
of the history: history.add() hands it its reader."""

from micropython import const

_ASIDE = const(16384)  # history.new's bound
_MAX_BYTES = const(8192)  # the history file's (board/history.py)


def add(store, f, read):  # (a name the firmware has already: no new one is interned)
    """If the open history file f holds a record of a later format than this firmware's (a
    first byte above 2 where a record starts: the file's start, or the end of a good one),
    the file, whole, is appended to history.new (moved aside unread as history.new.bad first
    when it would pass its bound: Storage.open), and store.bad says so. read: the history's
    reader of one record (board/history.py's read)."""
    at = [0]
    r = None
    while True:
        f.seek(at[0])
        b = f.read(1) if at[0] < _MAX_BYTES else b""
        if b and b[0] > 2:
            break
        r = read(f, at, r)
        if r is None:
            return
    data = store.open("history.new", _ASIDE - f.seek(0, 2))
    store.save("history.new", _copy, data, f)
    store.bad = "history of a newer version kept as history.new"


def _copy(out, data, f):
    """The open files data (closed after: it is the file replaced; None: none) and f, whole,
    written to out, 512 bytes at a time."""
    for g in (data, f):
        if g:
            g.seek(0)
            while True:
                b = g.read(512)
                if not b:
                    break
                out.write(b)
    if data:
        data.close()
