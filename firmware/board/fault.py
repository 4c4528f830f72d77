"""When something other than a refusal goes wrong (MemoryError, OSError, a bug). The game
goes on: from the engine's journal (its events are atomic), or else from the last save; the
display and the LEDs say so. Always loaded (board/app.py imports it): on this MicroPython
an import that runs out of memory can crash the interpreter (a NULL module, not a
MemoryError), and a fault is when memory runs out. Every step here that allocates is tried,
with a fallback that does not. It says what to do; the app (App.recover) does it."""

import gc
import sys

from cribbage.match import loads  # (loaded by the app already: nothing is imported later,
# when memory may be shorter still)

from micropython import const

_ROOM = const(3072)  # bytes free that a first import of one of the app's modules wants


def message(e):
    """What the display says of fault e (the least, if even that runs out of memory)."""
    try:
        return "fault (%s %s): the game is kept" % (type(e).__name__, e)
    except Exception:  # noqa: BLE001
        return "fault (out of memory): the game is kept"


def room(name):
    """Before the first import of module `name` (a lazy one): MemoryError, a fault like any
    other, unless there is room for it. An import that runs out of memory half way can crash
    this MicroPython (mp_import_from on a NULL module: a segfault here, a hard fault on a
    chip) instead of raising; host_tests/test_board_starve.py found it."""
    if name in sys.modules or not hasattr(gc, "mem_free"):  # (CPython: no heap of its own)
        return
    if gc.mem_free() < _ROOM:
        gc.collect()
        if gc.mem_free() < _ROOM:
            raise MemoryError


def forget(name):
    """The lazy import's other half: drop the module of dotted name from sys.modules and its
    package, so that its code leaves the heap at the next collection unless something still
    holds it. The one who loaded it forgets it (a game's summary, the statistics, the boot)."""
    sys.modules.pop(name, None)
    i = name.rfind(".")
    p = sys.modules.get(name[:i]) if i > 0 else None
    if p is not None and name[i + 1:] in p.__dict__:
        delattr(p, name[i + 1:])


def unload(name):
    """Forget module name (code needed once: board.boot, board.stats): gc frees it."""
    forget(name)
    gc.collect()


def restore(m, store):
    """The game's state after a fault: match m restored from its journal (m itself), else
    the last save (a new Match), else None when neither can be had now (the app tries again
    before the next entry)."""
    try:
        m.restore()
        return m
    except Exception:  # noqa: BLE001
        gc.collect()
    try:
        return store.load("game", loads)
    except Exception:  # noqa: BLE001
        gc.collect()
    return None
