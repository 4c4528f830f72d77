"""The edges of a game (issue 34), on the unix port: power-up to the saved game on the LEDs,
stage by stage, and a game's end (the winning entry, the OK that starts the next game), each
against what it was before in the same run. tools/bench/bench.py turns the host's times into a
chip's with its BOARD_FACTOR (printed with the table: where it comes from); the chip's own
figures (issue 34, an emulated RP2040 from .mpy) are in docs/developers.md.

Power-up runs in a fresh process (this script again, EDGES_BOOT=1): board/boot.py's frame()
(the saved frame, before the app's modules load), then asyncio, board.app, App(hw) and its
first frame, as board/tasks.py's run() does. The game is mp_board.py's (a whole game entered
on the keys, cards dealt and played), its files in mp_board.py's folder.
"""

import gc
import os
import sys

from benchlib import row, ticks_us, ticks_diff

BOOT = os.getenv("EDGES_BOOT") == "1"
HEAP = "320k"  # from source (a speed bench: room enough that the heap is not measured)
if gc.mem_alloc() + gc.mem_free() < int(HEAP[:-1]) * 1024 and not os.getenv("MP_BOARD_CHILD"):
    os.putenv("MP_BOARD_CHILD", "1")
    sys.exit(os.system("%s -X heapsize=%s %s" % (sys.executable, HEAP, sys.argv[0])) >> 8)


def boot():
    from leanboard import host_board

    hw = host_board("/tmp/mp_board_bench")
    t0 = ticks_us()
    from board.boot import frame

    r = frame(hw)
    t1 = ticks_us()
    try:
        import asyncio  # noqa: F401  (frozen in the port: on the path only with .frozen)
    except ImportError:
        pass
    t2 = ticks_us()
    from board.app import App

    t3 = ticks_us()
    app = App(hw, r)
    t4 = ticks_us()
    app.boot()
    t5 = ticks_us()
    drawn = hw["strip"].writes
    note = ("fresh process, .mpy (tools/bench/bench.py builds them); the chip (issue 34, .mpy): "
            "board.app 273 ms, App 67")
    row("power-up: the saved frame on the LEDs (board.boot)", ticks_diff(t1, t0), "us",
        note="drawn: %s; %s" % (r is not None, note))
    row("power-up: import asyncio", ticks_diff(t2, t1), "us")
    row("power-up: import board.app", ticks_diff(t3, t2), "us", note=note)
    row("power-up: App(hw)", ticks_diff(t4, t3), "us")
    row("power-up: the app's first frame (app.boot)", ticks_diff(t5, t4), "us",
        note="strip writes %d (1: the app's frame was the saved one)" % drawn)
    whole = ticks_diff(t5, t0)
    row("power-up: the saved game on the LEDs, after", ticks_diff(t1, t0), "us",
        ref=whole, ratio=round(ticks_diff(t1, t0) / whole, 3),
        note="reference: before, the app's first frame came after all of these")


def game_end():
    from mp_board import Game
    from board import history
    from board.keypad import DOWN, UP

    g = Game(7)
    app = g.app
    strip = app.strip
    at = [0]
    write = strip.write

    def timed():  # the first write after t0: the key's frame
        if not at[0]:
            at[0] = ticks_us()
        write()

    strip.write = timed
    m = app.m
    # the game to its last entry; the winning one timed (a show or the crib: OK or a card)
    g.play()
    # (the winning entry already went in: time what follows it now, the summary)
    gc.collect()
    s0 = ticks_us()
    body = history.dumps(m)
    s1 = ticks_us()
    rec = ticks_diff(s1, s0)
    row("game end: the summary, after the winning frame", rec, "us",
        note="App.step, after the win's frame and save (before: at the OK, before its frame)")
    # the old order's record, timed on the same game (its history written to a scratch file)
    keep = app.store.read("history")
    gc.collect()
    s0 = ticks_us()
    history.record_game(m, app.store, history.record(m, body))
    s1 = ticks_us()
    hist = ticks_diff(s1, s0)
    app.store.delete("history")
    # the longest a key waits for that work now (issue 34): board/history.py's rest(), as
    # App.step calls it, with a key always waiting (any()): it stops after every deal of the
    # summary, the game put back; the last turn writes the record. Each turn timed; against
    # the work in one (before), in the same run; the least of 3 runs of each (a busy host).
    class Waiting:
        def any(self):
            return 1

    worst = before = last = turns = 0
    for run in range(3):
        app.store.delete("history")
        gc.collect()
        s0 = ticks_us()
        history.record_game(m, app.store, history.record(m, history.dumps(m)))
        s1 = ticks_diff(ticks_us(), s0)
        before = s1 if not run else min(before, s1)
        app.store.delete("history")
        s = None
        most = turns = 0
        while True:
            gc.collect()
            s0 = ticks_us()
            s = history.rest(m, app.store, s, Waiting())[0]
            s1 = ticks_diff(ticks_us(), s0)
            most = max(most, s1)
            turns += 1
            if len(s) < 3:
                break
        worst = most if not run else min(worst, most)
        last = s1 if not run else min(last, s1)
    app.store.delete("history")
    if keep:
        app.store.save("history", keep)
    row("game end: the longest a key waits for the end work", worst, "us", ref=before,
        ratio=round(worst / before, 3), note="after: a turn of rest(), a deal of the summary "
        "(its first: the module loaded; its last: the record written, %d us), %d turns; "
        "reference: before, the summary and the record in one turn" % (last, turns))
    k = app.keys.names.find("#")
    app.keys.put(DOWN | k)
    app.step(g.t + 20)
    app.keys.put(UP | k)
    at[0] = 0
    gc.collect()
    t0 = ticks_us()
    app.step(g.t + 40)  # the OK: the next game's frame, then the record, then the save
    t1 = ticks_us()
    frame = ticks_diff(at[0], t0) if at[0] else ticks_diff(t1, t0)
    ref = frame + rec + hist  # before: the summary and the history, then the frame
    row("game end: the OK to the next game's frame", frame, "us", ref=ref,
        ratio=round(frame / ref, 3), note="reference: before (summary + history + frame); "
        "the chip (issue 34): 222-230 ms before")
    row("game end: the OK's whole step (frame, history, save)", ticks_diff(t1, t0), "us",
        note="phase after: %d (0: the next game's deal)" % app.m.phase)


if BOOT:
    boot()
else:
    game_end()
    os.putenv("EDGES_BOOT", "1")
    os.system("%s -X heapsize=%s %s" % (sys.executable, HEAP, sys.argv[0]))
sys.exit(0)
