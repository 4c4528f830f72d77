"""When something other than a refusal goes wrong (MemoryError, OSError, a bug). The game
goes on: from the engine's journal (its events are atomic), or else from the last save; the
display and the LEDs say so. Always loaded (board/app.py imports it): on this MicroPython
an import that runs out of memory can crash the interpreter (a NULL module, not a
MemoryError), and a fault is when memory runs out. Every step here that allocates is tried,
with a fallback that does not. It says what to do; the app (App.recover) does it."""

import gc
import sys


from micropython import const

_ROOM = const(3072)  # bytes free that a first import of one of the app's modules wants


def message(e):
    """What the display says of fault e (the least, if even that runs out of memory)."""
    try:
        return "fault (%s %s): the game is kept" % (type(e).__name__, e)
    except Exception:  # noqa: BLE001
        return "fault (out of memory): the game is kept"


# The memory policy: every module the firmware loads inside a function (or that one of those
# loads), by what becomes of it after use. load() brings one in; release() lets go what the
# table says once the call that needed it is done: a call site says what it needs, the table
# decides whether it stays. host_tests/test_memory_table.py holds the table to the code (a
# module loaded inside a function and named nowhere here fails it).
#  k: loaded when first needed and kept (the display's text, the menu, the page, the club's task):
#     board.text board.menutext board.menu board.selftest board.storage board.geometry
#     board.power board.keytimer hw.common cribbage.advise cribbage.advise5
#     cribbage.score5 cribbage.saved1 ssd1306 page page.routes page.server page.lazy ota.trial
#     publish.task slotimg
#  r: resident, loaded at power-up by the app's own imports (named inside functions too):
#     board.app board.fault board.keypad board.modes board.render cribbage.events
#     cribbage.journal cribbage.score slots asyncio
#     board.settings board.commands cribbage.match
# Those two are what release() never touches: they are listed here, not in table, which
# holds what it lets go (a string of them each: 0.6 KB of the heap fewer on every board).
# Strings, not tuples of names: a string of 11 characters or more is an object, while each
# name would be interned for good (the ESP32's game is at a pool's end: docs/memory.md);
# so too "table" and "held", names the game has interned already (cribbage/events.py's,
# board/app.py's), and load, modules and release, MicroPython's own (json.load, sys.modules).
table = (
    # 1: loaded for one call and let go, whoever had it (power-up's code, an undo's record,
    # a saved game's loading; slotboot, the loader's boot half: slots.py lets it go itself
    # too, main.py has no release)
    " board.boot board.undo board.later hw.wifiwhy publish.link slotboot cribbage.loadgame ",
    # h: let go after the call that loaded it, kept if the board had it loaded before (the
    # record's modules, which the live page may hold; the club's, loaded for each call)
    " board.stats board.history board.record board.export cribbage.summary cribbage.spoken"
    " board.snapshot board.screen version page.rows page.pin"
    " page.writes hw.wifi publish publish.packets"
    " publish.outbox publish.names publish.nights publish.contract publish.says publish.message"
    " ota ota.hmac"
    " ota.order ota.install ota.fetch ",
)


def load(name):
    """Module name (dotted), imported if it is not loaded yet: MemoryError, a fault like any
    other, unless there is room for it. An import that runs out of memory half way can crash
    this MicroPython (mp_import_from on a NULL module: a segfault here, a hard fault on a
    chip) instead of raising; host_tests/test_board_starve.py found it."""
    m = sys.modules.get(name)
    if m is not None:
        return m
    if hasattr(gc, "mem_free") and gc.mem_free() < _ROOM:  # (CPython: no heap of its own)
        gc.collect()
        if gc.mem_free() < _ROOM:
            raise MemoryError
    __import__(name)
    return sys.modules[name]


def find(s, name):
    """Whether module name is one of string s's (a row of the table), as a whole word: no
    string is made for it (a fault, short of memory, lets go of what it can)."""
    i = s.find(name)
    while i > 0 and not (s.startswith(" ", i - 1) and s.startswith(" ", i + len(name))):
        i = s.find(name, i + 1)
    return i > 0


def modules(name=None):
    """The modules of policy h loaded now: what release() keeps (taken before a call); but
    name, one the call lets go whoever had it (board.history after a game's record)."""
    h = []
    for k in sys.modules:
        if k != name and find(table[1], k):
            h.append(k)
    return h


def release(held=()):
    """Let go, as the table says, what was loaded for a call (held: modules() before it; None,
    modules() itself failed: nothing was loaded): a module of policy 1 whether or not it was
    loaded before, one of policy h unless it was; each is dropped from sys.modules and its
    package, so that its code leaves the heap at the next collection unless something still
    holds it. Allocates nothing, so never fails short of memory (a copy of sys.modules'
    names to walk once did, under the page's flood, and what a request had loaded stayed for
    good: every later request took it for one the board had): one module at a time, the
    names walked again after each."""
    if held is None:
        return
    while True:
        for name in sys.modules:
            if find(table[0], name) or (find(table[1], name) and name not in held):
                break
        else:
            return
        sys.modules.pop(name)
        k = name.rfind(".")  # its package's attribute for it goes too (found, not sliced)
        for pkg in sys.modules if k > 0 else ():
            if len(pkg) == k and name.startswith(pkg):
                for attr in sys.modules[pkg].__dict__:
                    if len(attr) == len(name) - k - 1 and name.endswith(attr):
                        delattr(sys.modules[pkg], attr)
                        break
                break


def restore(m, store):
    """The game's state after a fault: match m restored from its journal (m itself), else
    the last save (a new Match), else None when neither can be had now (the app tries again
    before the next entry)."""
    try:
        m.restore()
        return m
    except Exception:  # noqa: BLE001
        gc.collect()
    had = None
    try:
        had = modules()
        load("cribbage.loadgame")  # (loads()'s code and the Match's making, let go after:
        # the table's 1)
        from cribbage.match import loads  # (resident, the app's: no module is loaded here,
        # and no name in this module's globals, a hash size fewer)

        return store.load("game", loads)
    except Exception:  # noqa: BLE001
        gc.collect()
    finally:
        release(had)
    return None
