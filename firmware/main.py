"""Boot: the loader (slots.py: the app's slot, or the root on a board flashed without slots; a
new slot on trial under the watchdog), then build the configured board's hardware and run the
app on it (forever). An app on trial that raises goes back to the slot before it."""

import slots

try:
    import machine

    _hung = machine.reset_cause() == machine.WDT_RESET
    _dog = lambda ms: machine.WDT(timeout=ms)  # noqa: E731
except (ImportError, AttributeError):  # (a port without them: no watchdog, no hang to see)
    _hung, _dog = False, None
slots.start(watchdog=_dog, hung=_hung)

try:
    from board_config import build  # the board's module (firmware/hw/), named in one line

    hw = build()
    hw["note"] = slots.note()  # a rolled-back update, said once on the display (or None)

    from board.tasks import run  # (after the hardware: its imports use the heap)

    run(hw)
except Exception as e:
    if slots.failed(e):  # (back to the slot before it)
        import machine

        machine.reset()
    raise
