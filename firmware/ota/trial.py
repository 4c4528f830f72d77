"""A new app on trial (slots.py) confirms itself: board/tasks.py starts watch(app) after the
first frame when slots.trial says the running slot is on trial. Once it has run CONFIRM_MS
with no fault (no call to app.recover: an exception in an entry, a frame or a task) it
confirms the slot; a fault before then sends the board back to the slot before it. The
trial's watchdog is fed while the loop runs, and after (it cannot be stopped): a hang resets
the board, and the loader goes back."""

import slots
from board.keypad import sleep_ms, ticks_diff
from micropython import const

CONFIRM_MS = const(30000)
_FEED_MS = const(1000)


async def watch(app, reset=None, files=None):
    """The trial's task (forever). reset: what restarts the board (machine.reset)."""
    faults = []
    recover = app.recover

    def counted(e):  # every fault the app handles, counted, then handled as before
        faults.append(repr(e))
        recover(e)

    app.recover = counted
    t0 = app.clock()
    while slots.trial is not None:
        if faults and slots.failed(RuntimeError(faults[0]), files):
            if reset is None:
                import machine
                reset = machine.reset
            reset()
            return
        if ticks_diff(app.clock(), t0) >= CONFIRM_MS:
            slots.confirm(files)
            app.recover = recover
            break
        _feed()
        await sleep_ms(_FEED_MS)
    while slots.wdt is not None:  # a watchdog cannot be stopped: fed while the loop runs
        _feed()
        await sleep_ms(_FEED_MS)


def _feed():
    if slots.wdt is not None:
        slots.wdt.feed()
