"""The keypad scanned by a timer, not by its asyncio task (board/keypad.py): a board's
machine.Timer (hw/common.py) or the fake board's (fakeboard/fake_timer.py) calls the keypad
every _TIMER_MS, so a key is scanned however long the page or a save holds the loop (issue
23.5); the keypad's task only wakes the app. A module of its own: a board or a host run
without a timer loads none of its names (on the unix port each is interned on the heap).

With no key down the timer stops (issue 34: the 5 ms scans cost a Pico ~9 % of its time
with nothing pressed): once every key has been up for debounce_ms the keypad parks, arming a
falling-edge interrupt on the columns and buttons (watch(handler); every row idles low, so
any key down pulls its column low), and the first edge starts the scans again, with a scan at
once. Debounce is the scan's as before: the edge only starts it. An edge the interrupt missed
(armed a moment late, a port whose sleep does not latch it) is still found: the keypad checks
the columns once more as it parks, and the keypad's task checks them once a second while
parked (start()).

While the board sleeps (board/power.py, sleeping True) the edge also wakes it: the keypad
queues a WAKE event and hushes every key down until all are up for debounce_ms, so the tap
that wakes the board only wakes it, however short (a tap over before the first scan queues
nothing else) or long (its DOWN, LONG and UP are all dropped)."""

from micropython import const

from board.keypad import Keypad, sleep_ms, ticks_diff

_TIMER_MS = const(5)  # a 40 ms tap is seen whatever its phase (debounce 30), with 5 ms to spare
_LOOK_MS = const(1000)  # parked, the keypad's task looks at the keys once a second (start())
WAKE = const(0xA0)  # the event an edge queues while the board sleeps (a kind of its own:
# board/keypad.py's DOWN 0x20, UP 0x40, LONG 0x60, REPEAT 0x80; board/power.py's _WAKE)


class TimedKeypad(Keypad):
    """timer(keypad, ms): starts calling keypad(t) every ms (again: set up afresh);
    timer(None, 0) stops it. watch(handler): handler(pin) on a falling edge of any column or
    button; watch(None) disarms it. Without watch the timer never stops."""

    def __init__(self, rows, cols, buttons, timer, size=64, watch=None):
        Keypad.__init__(self, rows, cols, buttons, size=size)
        self.timer = timer
        self.clock = int  # what the scans read: start() sets it (int() is 0)
        self.watch = watch
        self.parked = False  # the timer stopped, the edge armed
        self.sleeping = False  # board/power.py: the board sleeps, an edge wakes it
        self.hush = False  # the waking keys: their events dropped until all are up
        self.edge = self.irq  # (the bound method made once: a scan allocates nothing)
        self.woken = None  # parked, the task waits on it (asyncio's ThreadSafeFlag: rest())

    def __call__(self, t=None):
        """The timer's callback: one scan now; parks when nothing is down. No allocation
        (heap-locked in the tests)."""
        now = self.clock()
        tail = self._tail
        self.update(now)
        quiet = (not self._raw and not self._state
                 and ticks_diff(now, self._raw_at) >= self.debounce_ms)
        if self.hush:
            self._tail = tail  # (only the scan writes the tail: what it queued, dropped)
            if quiet:
                self.hush = False
        if quiet and self.watch is not None:
            self.park()

    def park(self):
        """Stop the timer and arm the edge; a key already down starts the scans again."""
        self.parked = True
        self.timer(None, 0)
        self.watch(self.edge)  # pyright: ignore[reportOptionalCall] (parks only with one)
        if self.scan():  # down before the edge was armed: no edge will come
            self.irq()

    def irq(self, pin=None):
        """A column or a button fell (the pins' interrupt, soft): scan from now on; while
        the board sleeps, queue WAKE and hush the keys down now."""
        if not self.parked:
            return  # (an edge queued before the last one unparked the keypad)
        self.parked = False
        self.watch(None)  # pyright: ignore[reportOptionalCall] (parked: it has one)
        now = self.clock()
        if self.sleeping:
            self.sleeping = False
            self.hush = True
            self._raw_at = now  # (all up for debounce_ms from now, not from before)
            self.put(WAKE)
        self.timer(self, _TIMER_MS)
        self.scanned_at = now
        self()
        if self.woken is not None:
            self.woken.set()  # (the keypad's task, waiting in rest(): looks every scan_ms again)

    async def rest(self, ms):
        """The keypad's task between looks: ms while the timer scans; parked, until an edge
        starts the scans (irq()) or _LOOK_MS pass, so a board with no key down wakes the loop
        once a second, not every scan_ms (issue 34: ~3.5 ms a second on the host). CPython's
        asyncio has no ThreadSafeFlag: there, ms."""
        if not self.parked:
            await sleep_ms(ms)
            return
        import asyncio

        f = self.woken
        if f is None:
            f = getattr(asyncio, "ThreadSafeFlag", None)
            if f is None:
                await sleep_ms(ms)
                return
            f = self.woken = f()
        f.clear()  # (an edge before this wait has unparked the keypad: parked is False)
        if not self.parked:
            return
        try:
            await asyncio.wait_for_ms(f.wait(), _LOOK_MS)
        except asyncio.TimeoutError:  # no edge in a second: look at the keys (one missed)
            self.start(self.clock)

    def start(self, clock):  # pyright: ignore[reportIncompatibleMethodOverride] (True here)
        """Start (or start again) the timer's scans, reading clock; parked, check the keys
        instead (the keypad's task calls this once a second while nothing scans)."""
        if self.parked:
            self.scanned_at = clock()  # (the watchdog's: the keys are watched)
            if self.scan():
                self.irq()
            return True
        if self.clock is not int:  # started before: its callback raised, or a long C call
            print("keys: the scan's timer stopped: started again")
        self.clock = clock
        self.scanned_at = clock()
        self.timer(self, _TIMER_MS)
        return True
