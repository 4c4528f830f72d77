"""The keypad scanned by a timer, not by its asyncio task (board/keypad.py): a board's
machine.Timer (boards/common.py) or the fake board's (boards/fake_timer.py) calls the keypad
every _TIMER_MS, so a key is scanned however long the page or a save holds the loop (issue
23.5); the keypad's task only wakes the app. A module of its own: a board or a host run
without a timer loads none of its names (on the unix port each is interned on the heap)."""

from micropython import const

from board.keypad import Keypad

_TIMER_MS = const(5)  # a 40 ms tap is seen whatever its phase (debounce 30), with 5 ms to spare


class TimedKeypad(Keypad):
    """timer(keypad, ms): starts calling keypad(t) every ms (again: set up afresh)."""

    def __init__(self, rows, cols, buttons, timer, size=64):
        Keypad.__init__(self, rows, cols, buttons, size=size)
        self.timer = timer
        self.clock = int  # what the scans read: start() sets it (int() is 0)

    def __call__(self, t=None):
        """The timer's callback: one scan now. No allocation (heap-locked in the tests)."""
        self.update(self.clock())

    def start(self, clock):  # pyright: ignore[reportIncompatibleMethodOverride] (True here)
        """Start (or start again) the timer's scans, reading clock."""
        self.clock = clock
        self.scanned_at = clock()
        self.timer(self, _TIMER_MS)
        return True
