"""When something other than a refusal goes wrong (MemoryError, OSError, a bug). The game
goes on: from the engine's journal (its events are atomic), or else from the last save; the
display and the LEDs say so. Always loaded (board/app.py imports it): on this MicroPython
an import that runs out of memory can crash the interpreter (a NULL module, not a
MemoryError), and a fault is when memory runs out. Every step here that allocates is tried,
with a fallback that does not."""

import gc
import sys

from cribbage.match import loads  # (all loaded by the app already: nothing is imported
from board import state, entry  # later, when memory may be shorter still)
from board.modes import NORMAL

from micropython import const

_ROOM = const(3072)  # bytes free that a first import of one of the app's modules wants


def fault(app, e):
    """An entry or a frame raised e: restore the game and say so. The typed entry stays as
    it was (the hand filled in from the play filled in again), unless the last thing said
    was a fault too: then the entry may be what fails, and it goes."""
    gc.collect()
    app.counting = -1  # (the display counts a hand only once state.update says it is one)
    short = "fault (out of memory): the game is kept"  # (a local: no name kept on a board)
    typed = app.e
    f = typed.filled
    if (app.err is not None and app.err[:7] == short[:7]) or f < 0 or (f and
                                                                       f == len(typed.cards)):
        typed.clear()  # a fault again: what is typed may be what fails; or the hand as
    else:  # played (untouched, or cut short by the fault): follow() below fills it in again
        typed.quick = False  # what was typed stays, as it was; the rest goes
        typed.advice = None
        typed.mug = -1
        typed.asked = False
        typed.off = -1
        typed.stats = None
    app.mode = NORMAL
    app.selftest_step = -1
    restore(app)
    try:
        msg = "fault (%s %s): the game is kept" % (type(e).__name__, e)
    except Exception:  # noqa: BLE001
        msg = short
    app.refuse(msg)
    try:
        entry.follow(app)  # (the hand as played, for the game as restored)
        state.update(app)
    except Exception:  # noqa: BLE001
        gc.collect()
        app.view.dirty = True


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


def restore(app):
    """The state from the engine's journal, else from the last save; if neither can be had
    now, app.broken stays True and the app tries again before the next entry."""
    app.broken = True
    try:
        app.m.restore()
        app.unsaved = True  # what the journal holds goes to flash after the next frame
        app.broken = False
        return
    except Exception:  # noqa: BLE001
        gc.collect()
    try:
        m = app.store.load("game", loads)
        if m is not None:
            app.m = m
            app.unsaved = False
            app.broken = False
    except Exception:  # noqa: BLE001
        gc.collect()
