# The statistics' pages on the real MicroPython binary (host_tests/test_board_stats.py runs it
# from .mpy files as `make build` makes them): the board app on the fake board with its
# display, the history in the folder given (on the host's disk, written by the test), opens
# the menu's "stats" item, turns the pages with A, and leaves them with *.
#
#     MICROPYPATH=<built tree> micropython -X heapsize=128k mp_stats.py FOLDER
# Prints: PAGE, then "| line" for each of the display's 8 lines, per page shown (4: round
# the three sides and back to the first); then
# LEFT mode M stats <the pages kept: None> modules <board.stats, cribbage.summary loaded>
# err <the display's error> menu F1 pages F2 left F3 again F4 third F5: bytes free (after a
# gc.collect) on the menu's item before OK, on the first page, back on the menu after *, and
# after opening and leaving the pages once more, and a third time; before menu, pages, left
# and the last line, micropython.qstr_info()'s line: the names interned (in pools on the
# heap: the 621st name takes a 7 KB pool, wherever it comes).
# Comments, not docstrings: the heap.

import gc
import micropython
import sys

from cribbage import score  # noqa: F401  (first, as mp_board: its 6 KB table in one block)
gc.collect()
from fakeboard.fake import build  # noqa: E402
hw = build(sys.argv[1], display=True)
gc.collect()
from cribbage import match as M  # noqa: E402, F401
gc.collect()
from board.app import App  # noqa: E402
from board.keypad import DOWN, UP  # noqa: E402

gc.collect()
app = App(hw)
keys = app.keys
t = 0


def tap(names):
    global t
    for ch in names:
        k = keys.names.find(ch)
        keys.put(DOWN | k)
        keys.put(UP | k)
        t += 20
        app.step(t)


def page():
    print("PAGE")
    for line in hw["display"].shown:
        print("| " + line)


tap("D")
from board.menu import MENU_ITEMS  # noqa: E402  (loaded by D)
tap("A" * MENU_ITEMS.index("stats"))
gc.collect()
menu = gc.mem_free()
micropython.qstr_info()
tap("#")
gc.collect()
pages = gc.mem_free()
micropython.qstr_info()
if app.err:
    raise RuntimeError(app.err)
page()
for _ in range(3):
    tap("A")
    page()
tap("*")
gc.collect()
n = 0
for name in ("board.stats", "cribbage.summary"):
    if name in sys.modules:
        n += 1
left = gc.mem_free()
micropython.qstr_info()
tap("#*")  # again: nothing more stays (a dict may grow once)
gc.collect()
micropython.qstr_info()
again = gc.mem_free()
tap("#*")  # and once more
gc.collect()
print("LEFT mode %d stats %s modules %d err %s menu %d pages %d left %d again %d third %d"
      % (app.mode, app.e.stats, n, app.err, menu, pages, left, again, gc.mem_free()))
