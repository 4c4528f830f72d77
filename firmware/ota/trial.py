"""A new app on trial (slots.py) confirms itself: board/tasks.py starts watch(app) after the
first frame when slots.trial says the running slot is on trial. Once it has run CONFIRM_MS
with no fault it confirms the slot (and the board's state, which said "on trial", goes out
again without it: board/snapshot.py); a fault before then sends the board back to the slot
before it. The trial's watchdog is fed while the loop runs, and after (it cannot be stopped):
a hang resets the board, and the loader goes back; so does a fault whose going back finds no
heap for the loader's other half in _SHORT_TRIES steps (the loader's note then says it hung)."""

import gc

import slots
from board.keypad import sleep_ms, ticks_diff
from micropython import const

CONFIRM_MS = const(30000)
STEP_MS = const(250)
_SHORT_TRIES = const(4)  # steps a fault waits for the heap to go back before the watchdog


def fault(app, n0):
    """What the app says of a fault it has handled since the trial began (an exception in an
    entry, a frame or a task: App.recover), or None. An app that counts them (app.fault,
    an int) is read by its count; else by its message line, a fault's "fault (...)"
    (board/fault.py), looked at every STEP_MS."""
    n = getattr(app, "fault", None)
    if n is not None:
        return "%d faults" % (n - n0) if n != n0 else None
    e = app.err
    return e if e and e.startswith("fault") else None


async def watch(app, reset=None, files=None):
    """The trial's task (forever). reset: what restarts the board (machine.reset)."""
    n0 = getattr(app, "fault", None)
    t0 = app.clock()
    short = 0  # steps failed() found no heap for the loader's other half (slotboot)
    why = None
    while slots.trial is not None:
        why = why or fault(app, n0)  # (kept: the message line may have moved on)
        if why:
            try:
                back = slots.failed(RuntimeError(why), files)
            except MemoryError:  # (it loads slotboot: short of heap, try again a step
                gc.collect()  # later; after _SHORT_TRIES, stop feeding the watchdog: its
                short += 1  # reset takes the board back to the slot before, as a hang)
                if short >= _SHORT_TRIES:
                    return
                _feed()
                await sleep_ms(STEP_MS)
                continue
            if back:
                if reset is None:
                    import machine
                    reset = machine.reset
                reset()
                return
        if ticks_diff(app.clock(), t0) >= CONFIRM_MS:
            try:
                slots.confirm(files)
            except MemoryError:  # (it loads the loader's other half, slotboot: short of heap
                gc.collect()  # this once, the next step tries again, the watchdog fed)
                _feed()
                await sleep_ms(STEP_MS)
                continue
            done = getattr(app, "apply", None)  # (the App's door: a change, so its state,
            if done is not None:  # no longer "on trial" (board/snapshot.py), goes out)
                from board.modes import NOTHING

                done(NOTHING)
            break
        _feed()
        await sleep_ms(STEP_MS)
    while slots.wdt is not None:  # a watchdog cannot be stopped: fed while the loop runs
        _feed()
        await sleep_ms(STEP_MS)


def _feed():
    if slots.wdt is not None:
        slots.wdt.feed()
