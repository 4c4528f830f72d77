# Real MemoryErrors, not injected ones: the board app boots, then ballast takes the heap
# until only FREE bytes are left, and the app plays on what remains (host_tests/
# test_board_starve.py sweeps FREE, from .mpy files as `make build` makes them). The keys go
# in as the scanner queues them, one App.step() each: pegs for alternate sides (A, digits,
# OK), an undo and a redo now and then, OK after each win (the history record, the next
# game), GAMES games. The saved game is in a RAM filesystem (fakeboard/ramfs.py), the history
# file on the host's disk (flashfs.FlashFs, ./starve_flash): a board keeps it on flash and
# streams it, where a RAM file would cost the heap a copy of it per write. The harness itself
# allocates nothing once running (key names by index, small ints), so every MemoryError is
# the app's, and the app must catch it: nothing may escape App.step().
#
# Prints, then exits 0:
#   BOOT ok|MemoryError              (App(hw) itself may not fit: nothing to play then)
#   STARVE free B entries N faults F unsaved U behind T|F games G events E
#          saved_ok T|F same T|F
# free: bytes left after the ballast; faults: entries the app reported as faults; unsaved:
# saves it reported as failed (behind: one of them since the last save that went through,
# so the flash may hold less than the board shows, and the board said so); games: OKs after
# a win; events: in the game at the end; saved_ok: the saved file loads (None: no file);
# same: it holds the state in memory (checked after the app's heap is freed: a board
# rebooting on it comes back to exactly the game it showed).
# (Comments, not docstrings: the heap is the point.)

import gc
import sys

from cribbage import score  # noqa: F401  (first, as mp_board: its 6 KB table in one block)
from leanboard import host_board
from flashfs import FlashFs
from board.keypad import DOWN, UP, LONG

FREE = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 3
MAX_ENTRIES = 400  # a run that faults on every entry stops here
KEYS = "123A456B789C*0#D"
ballast = [None] * 1500  # room for the ballast's blocks, taken before the app boots
fs = FlashFs("starve_flash")
hw = host_board("/data", fs)
try:
    from board.app import App
    app = App(hw)
    print("BOOT ok")
except MemoryError:
    print("BOOT MemoryError")
    sys.exit(0)
keys = app.keys
free = 0
t = 0
behind = False  # the board said "not saved" since the last save that went through
entries = faults = unsaved = games = 0  # every global bound now: a new one later would
# grow the module's dict, an allocation of the harness's while the heap is full


def tap(ch, kind=DOWN):
    global t
    k = KEYS.find(ch)
    keys.put(kind | k)
    keys.put(UP | k)
    t += 20
    app.step(t)


def said(word):
    e = app.err
    return e is not None and e.find(word) >= 0


def run():
    global entries, faults, unsaved, behind, free, ballast
    # the ballast, here: this call's frame is on the heap already (big frames are)
    gc.collect()
    n = 0
    while gc.mem_free() > FREE + 128 and n < len(ballast):  # small blocks: holes and end
        try:
            ballast[n] = bytearray(96)
        except MemoryError:  # what is free is in pieces under 96 bytes: the heap is full
            break  # (a heap split by the imports; else the harness, not the app, fails)
        n += 1
    gc.collect()
    free = gc.mem_free()  # printed at the end: a print now might not fit
    games = 0
    i = 0
    last = fs.files.get("/data/game")
    while games < GAMES and entries < MAX_ENTRIES:
        m = app.m
        if m.phase == 4:  # OVER: OK records the game and starts the next
            tap("#")
            games += 1
        elif i % 11 == 10:
            tap("*", LONG)  # undo
            tap("#", LONG)  # redo
        else:
            tap("A")  # the other side
            tap("8" if i % 3 else "1")
            if i % 3 == 0:
                tap("3")
            tap("#")
        entries += 1
        if said("fault"):
            faults += 1
        now = fs.files.get("/data/game")
        if now is not last:  # a save went through (RamFs: a new bytes object each save)
            behind = False
            last = now
        if said("not saved"):
            unsaved += 1
            behind = True
        i += 1
    ballast = None  # the squeeze ends here, inside the run
    return games


games = run()
gc.collect()
state = app.m.state()
events = app.m.events
app = keys = None
gc.collect()
from cribbage.match import loads  # noqa: E402

data = fs.files.get("/data/game")
saved = None
ok = None  # no file: nothing was ever saved
if data is not None:
    try:
        saved = loads(data).state()
        ok = True
    except Exception:  # noqa: BLE001
        ok = False  # a file that does not load: never allowed
print("STARVE free %d entries %d faults %d unsaved %d behind %s games %d events %d "
      "saved_ok %s same %s" % (free, entries, faults, unsaved, behind, games, events,
                               ok, saved == state))
