"""When something other than a refusal goes wrong (MemoryError, OSError, a bug): loaded on
the first fault only. The game goes on: from the engine's journal (its events are atomic),
or else from the last save; the display and the LEDs say so."""

import gc


def fault(app, e):
    """An entry or a frame raised e: restore the game and say so."""
    gc.collect()
    app._clear_entry()
    app.mode = 0  # normal play (board/app.py _NORMAL)
    app.selftest_step = -1
    try:
        app.m.restore()
        app._unsaved = True  # what the journal holds goes to flash after the next frame
    except Exception:  # noqa: BLE001
        gc.collect()
        from cribbage.match import loads
        m = app.store.load("game", loads)
        if m is not None:
            app.m = m
            app._unsaved = False
    app._error("fault (%s %s): the game is kept" % (type(e).__name__, e))
    try:
        from board import state
        state.update(app)
    except Exception:  # noqa: BLE001
        gc.collect()
