"""The whole board app under MicroPython (fake board, no display): a complete game entered on
the keys, with the peak heap and the time from a key event to the updated frame (the time to
render a frame against the LED wire time is mp_board_frame.py's). host_tests/test_board_mp.py
also runs it, from .mpy files as a board runs them, and from source (more than an ESP32
without PSRAM offers: flash the .mpy build there), in the heaps of tools/budgets.py, and checks
the GAME line.

Key events go into the keypad's ring as the scanner would queue them (DOWN, then UP), so the
game's time is the app's, not the simulated scan's.

Heap, measured after a gc.collect() at every event (64-bit unix port; about half of it on a
32-bit ESP32): `harness` is this script's own code and benchlib's, on the heap before any
firmware module loads; `peak` is the most in use at once during the game, less the harness:
engine + app + fake board (their code, the Match, the View, the renderer's buffers). HEAP
rows: what each group of imports keeps. Started with a heap under SOURCE_HEAP's from source
(tools/bench/bench.py uses the core's), the script runs itself again with SOURCE_HEAP and says so.
"""

import gc
import os
import sys
from array import array

SOURCE_HEAP = os.getenv("SOURCE_HEAP") or "160k"  # tools/budgets.py's "source_game" (tools/
# bench.py passes it): compiling from source needs 126-139k, by the checkout's path
_heap = gc.mem_alloc() + gc.mem_free()
if _heap < int(SOURCE_HEAP[:-1]) * 1024 and not os.getenv("MP_BOARD_CHILD"):
    os.putenv("MP_BOARD_CHILD", "1")
    sys.exit(os.system("%s -X heapsize=%s %s" % (sys.executable, SOURCE_HEAP, sys.argv[0])) >> 8)

try:
    from benchlib import row, ticks_us, ticks_diff
except ImportError:  # run directly with only firmware on the path
    import time

    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff

    def row(what, value, unit, ref=None, ratio=None, note=None):
        print("ROW", what, value, unit, ref, ratio, note)

from leanboard import host_board, median, xorshift  # noqa: E402  (the harness's: before _harness)

LAT = array("H", bytes(2 * 160))  # the first key-to-frame times, us
# the players' cards (the harness's, preallocated: not the board's memory)
DECK = bytearray(52)

CRIB = bytearray(4)
LEFT = bytearray(8)  # the cards each seat has still to play (NONE: played)
NONE = 255
gc.collect()
_harness = gc.mem_alloc()  # this script and benchlib: subtracted from the peak below
_mods = []  # (what, bytes kept) per group of imports


def _kept(what, before):
    gc.collect()
    _mods.append((what, gc.mem_alloc() - before))
    return gc.mem_alloc()


_at = _harness
from cribbage import cards, tables, score  # noqa: E402,F401  (the rules core: 6 KB table first)

_at = _kept("rules core: cards, tables, score", _at)
from cribbage import match as M  # noqa: E402

_at = _kept("engine: match, events, pegging, journal", _at)
from board.app import App  # noqa: E402
from board.keypad import DOWN, UP  # noqa: E402
from board.storage import Storage  # noqa: E402

_at = _kept("board app: app, commands, entry, render, keypad, layout, settings, storage", _at)

PIP = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
FOLDER = "/tmp/mp_board_bench"


class Game:
    def __init__(self, seed):
        Storage(FOLDER).delete("game")  # a fresh game, not the last run's
        self.hw = host_board(FOLDER)
        self.app = App(self.hw)
        self.keys = self.app.keys
        self.t = 0
        self.st = seed * 2654435761 & 0xFFFFFFFF or 1
        self.peak = 0
        self.lat = LAT  # the first key-to-frame times, us
        self.n_lat = 0

    def rand(self, n):
        self.st = xorshift(self.st)
        return (self.st >> 3) % n

    def tap(self, names):
        app = self.app
        for ch in names:
            k = self.keys.names.find(ch)
            self.keys.put(DOWN | k)
            self.t += 20
            t0 = ticks_us()
            app.step(self.t)  # the event is handled and the new frame written
            dt = ticks_diff(ticks_us(), t0)
            if self.n_lat < len(self.lat):
                self.lat[self.n_lat] = min(dt, 65535)
                self.n_lat += 1
            self.keys.put(UP | k)
            self.t += 20
            app.step(self.t)

    def card(self, c):
        self.tap(str((c >> 2) + 1) + "ABCD"[c & 3])

    def measure(self):
        gc.collect()
        a = gc.mem_alloc() - _harness
        if a > self.peak:
            self.peak = a

    def play(self):
        """Deal real cards (the first two of each hand to the crib), play the first card that
        fits, show every hand and the crib: until a side wins."""
        m = self.app.m
        self.tap("#")
        while m.phase != M.OVER:
            if m.phase == M.DEAL:
                self.tap("#")
            deck = DECK
            for i in range(52):
                deck[i] = i
            for i in range(51, 0, -1):
                j = self.rand(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            for s in range(2):  # six each: the first two to the crib
                CRIB[2 * s] = deck[6 * s]
                CRIB[2 * s + 1] = deck[6 * s + 1]
                for k in range(4):
                    LEFT[4 * s + k] = deck[6 * s + 2 + k]
            self.card(deck[12])  # the starter: it goes in with its suit
            self.measure()
            while m.phase == M.PLAY:
                s = m.turn
                pick = -1
                for k in range(4 * s, 4 * s + 4):
                    c = LEFT[k]
                    if c != NONE and m.count + PIP[c >> 2] <= 31:
                        pick = k
                        break
                if pick < 0:
                    self.tap("B")
                else:
                    c = LEFT[pick]
                    LEFT[pick] = NONE
                    self.card(c)
                if self.app.err:
                    raise RuntimeError(self.app.err)
                self.measure()
            while m.phase == M.SHOW:
                if m.crib_next:  # a hand is filled in from the play (OK); the crib typed
                    for k in range(4):
                        self.card(CRIB[k])
                self.tap("#")
                if self.app.err:
                    raise RuntimeError(self.app.err)
                self.measure()
        return m


def main():
    g = Game(7)
    g.measure()
    t0 = ticks_us()
    m = g.play()
    game_ms = ticks_diff(ticks_us(), t0) // 1000
    # the file on "flash" holds exactly this game (loads() of it is tested in host_tests)
    saved = g.app.store.read("game") == m.dumps()
    heap = gc.mem_alloc() + gc.mem_free()
    print("GAME over winner %d scores %d %d events %d peak %d heap %d harness %d saved %s"
          % (m.winner, m.score[0], m.score[1], m.events, g.peak, heap, _harness, saved))
    where = "64-bit unix port, heap %dk%s" % (heap // 1024, " (re-run: the core's heap cannot "
                                               "compile it from source)" if os.getenv(
        "MP_BOARD_CHILD") == "1" else "")
    row("board app: peak heap in a whole game (engine + app + fake board, no display)",
        g.peak, "bytes", note="%s; less this script and benchlib (%d bytes)" % (where, _harness))
    for what, n in _mods:
        row("board app heap kept by " + what, n, "bytes", note=where)
    row("board app: a whole game entered on the keys", game_ms, "ms",
        note="%d events; includes a gc.collect() per event to find the peak" % m.events)
    row("board app: key event to updated frame (median)", median(g.lat, g.n_lat), "us",
        note="handle the key, update the view, render, write; add the scan's debounce "
             "(30 ms) and at most one 10 ms scan on a board (the scan wakes the app)")
    # the loop turn when nothing changed (most turns): maybe() skips the frame
    app = g.app
    v = app.view
    v.dirty = False
    app.step(1000)
    t0 = ticks_us()
    for _ in range(500):
        app.step(1000)
    row("board app: a loop turn with nothing to do", ticks_diff(ticks_us(), t0) / 500, "us",
        note="the app's loop runs every 20 ms")
    # what those turns allocate (nothing: the loop runs 50 times a second for years)
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(100):
        app.step(1000)
    idle = gc.mem_alloc() - before
    print("IDLE alloc %d" % idle)
    row("board app: heap allocated by 100 idle loop turns", idle, "bytes")

if __name__ == "__main__":  # (mp_edges.py imports its Game)
    main()
    sys.exit(0)
