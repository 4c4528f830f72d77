# A finished game into the history on the real MicroPython binary (host_tests/test_history.py
# runs it from .mpy files as `make build` makes them, in its heap of tools/budgets.py):
# the board app (leanboard's host board, no display) plays a seeded two-player game entered
# card by card on its keys (the starter, every card of the play, B for go, OK for each hand,
# the crib typed), then OK starts the next game: board/history.py replays the game's journal
# into its summary (cribbage/summary.py) and rewrites the history file, read a record at a
# time, with the new record. The board's files are in the folder given, on the host's disk
# (as mp_board.py keeps them), the history full already: the test made it.
#
#     MICROPYPATH=<firmware>:tools/bench micropython -X heapsize=110k mp_history.py FOLDER
# Prints: HISTORY err <the display's error or None> phase P scores A B games G H free F
# (free: bytes free after the game, before the OK). Comments, not docstrings: the heap.

import gc
import sys

from cribbage import score  # noqa: F401  (first, as mp_board: its 6 KB table in one block)
from leanboard import host_board, xorshift
gc.collect()
from cribbage import match as M  # noqa: E402
gc.collect()
from board.app import App  # noqa: E402
from board.keypad import DOWN, UP  # noqa: E402

PIP = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
DECK = bytearray(52)
LEFT = bytearray(8)
gc.collect()
app = App(host_board(sys.argv[1]))
keys = app.keys
t = 0
st = 7 * 2654435761 & 0xFFFFFFFF


def tap(names):
    global t
    for ch in names:
        k = keys.names.find(ch)
        keys.put(DOWN | k)
        keys.put(UP | k)
        t += 20
        app.step(t)
        if app.err:
            raise RuntimeError(app.err)


def card(c):
    tap(str((c >> 2) + 1) + "ABCD"[c & 3])


def rand(n):
    global st
    st = xorshift(st)
    return (st >> 3) % n


def play():
    m = app.m
    tap("#")  # the first deal
    while m.phase != M.OVER:
        if m.phase == M.DEAL:
            tap("#")
        for i in range(52):
            DECK[i] = i
        for i in range(51, 0, -1):
            j = rand(i + 1)
            DECK[i], DECK[j] = DECK[j], DECK[i]
        LEFT[:] = DECK[:8]  # seat s holds LEFT[4s:4s+4]; DECK[8:12] the crib; DECK[12]
        card(DECK[12])  # the starter (it goes in with its suit)
        while m.phase == M.PLAY:
            s = 4 * m.turn
            pick = -1
            for k in range(s, s + 4):
                c = LEFT[k]
                if c != 255 and m.count + PIP[c >> 2] <= 31:
                    pick = k
                    break
            if pick < 0:
                tap("B")
            else:
                card(LEFT[pick])
                LEFT[pick] = 255
        while m.phase == M.SHOW:
            if m.crib_next:
                for k in range(8, 12):
                    card(DECK[k])
            tap("#")


play()
m = app.m
gc.collect()
free = gc.mem_free()
err = None
try:
    tap("#")  # OK: the game to the history, then the next game
except RuntimeError as e:
    err = str(e)
m = app.m
print("HISTORY err %s phase %d scores %d %d games %d %d free %d"
      % (err, m.phase, m.score[0], m.score[1], m.games[0], m.games[1], free))
