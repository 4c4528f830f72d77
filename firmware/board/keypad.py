"""The keypad: a 4x4 matrix and optional discrete buttons -> a ring buffer of key events.

Pins are passed in and only called, so any callable stands in for one in a test:
    rows: outputs, rows[r](0) drives row r low, rows[r](1) lets it float high (open drain);
    cols: inputs with pull-ups, cols[c]() reads 0 when a key joins it to the low row;
    buttons: inputs with pull-ups, active low (a button to ground).
Key numbers: matrix key r * n_cols + c (0..15, named by `names`, "123A456B789C*0#D"), then
buttons from 16 up (named "a", "b", ...).

update(now_ms) is one scan step, pure apart from the pins: tests call it with a fake clock.
run() is the keypad's asyncio task: it scans every scan_ms and wakes the app when events wait.
On a board a timer scans instead (board/keytimer.py's TimedKeypad: start() starts it), so a
key is scanned however long the page or a save holds the loop; run() then only wakes the app,
and starts the timer again if it stopped. A change of the raw keys must hold debounce_ms
before it counts, by the scans: seen again debounce_ms after its first scan, or undone only by
a scan more than debounce_ms after it (a late scan: the tap it ends still counts). Events
(one byte: kind | key) go into a preallocated bytearray ring; get() returns the next one or
-1. The scan writes only the ring's tail, get() only its head, so a timer's callback may
interrupt get() anywhere. A full ring keeps what it holds and counts the
events it could not take (overflow; run() prints it): a loss is never silent. A scan and get()
allocate nothing (a hard interrupt may run the scan). Between scans every row is driven low,
so one read of the columns says whether any key is down: an idle scan is four pin reads.

    DOWN   the key went down (debounced): the app acts on most keys here, for speed
    LONG   held long_ms (once per press)
    REPEAT every repeat_ms after LONG while still held (for +1 buttons)
    UP     released (with LONG already sent if it was a long press)
"""

# (On a board an idle keypad is not scanned at all: the timer stops while nothing is down,
# board/keytimer.py.)

from array import array

from micropython import const

DOWN = const(0x20)
UP = const(0x40)
LONG = const(0x60)
REPEAT = const(0x80)
KIND = const(0xE0)
KEY = const(0x1F)
_STALLED_MS = const(1000)  # a timer that has not scanned for this long is started again
_MAX_KEYS = const(28)  # 16 matrix keys + up to 12 buttons: the key bits stay a small int

KEYS_4X4 = "123A456B789C*0#D"
BUTTON_NAMES = "abcdefghijkl"


def ticks_diff(a, b):
    """a - b in ms for clock readings that wrap at 2**30 (time.ticks_ms), within +-2**29 of
    each other: time.ticks_diff, also under CPython and with fake clocks. Every interval on
    the board goes through this one function (the renderer's and the display's too)."""
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def ticks_add(t, ms):
    """The clock reading ms after t, wrapped as time.ticks_ms wraps (time.ticks_add): the one
    place beside ticks_diff that knows the wrap."""
    return (t + ms) & 0x3FFFFFFF


class Keypad:
    debounce_ms = 30
    long_ms = 700
    repeat_ms = 180
    scan_ms = 10  # the keypad's task: how often it scans (without a timer) and wakes the app

    def __init__(self, rows=(), cols=(), buttons=(), names=KEYS_4X4, size=64):
        if len(rows) * len(cols) + len(buttons) > _MAX_KEYS:
            raise ValueError("at most %d keys" % _MAX_KEYS)
        self.rows = rows
        self.cols = cols
        self.buttons = buttons
        # (no attribute more than it needs: on the unix port, where the heap tests run, each
        # new name is interned on the heap, and the game's runs are near a pool's end)
        self.names = names[:len(rows) * len(cols)] + BUTTON_NAMES[:len(buttons)]
        for r in rows:
            r(0)  # idle: all rows low (see scan())
        self._ring = bytearray(size)
        self._head = 0  # next to read
        self._tail = 0  # next to write
        self._raw = 0  # raw key bits at the last scan
        self._raw_at = 0  # when the raw bits last changed
        self._state = 0  # debounced key bits
        self.scanned_at = 0  # when update() last ran: the app's watchdog checks it
        self._long = 0  # keys that already sent LONG this press
        self._down_at = array("i", bytes(4 * _MAX_KEYS))  # ticks of each key's DOWN (or REPEAT)
        self.overflow = 0  # events the full ring could not take

    # --- the ring buffer (Hinch's RingbufQueue, for bytes) -------------------------------

    def put(self, ev):
        """Queue an event; a full ring keeps its events and counts this one in overflow.
        (It never moves the head: that is get()'s, which a timer's scan may interrupt.)"""
        ring = self._ring
        tail = (self._tail + 1) % len(ring)
        if tail == self._head:
            self.overflow += 1
            return
        ring[self._tail] = ev
        self._tail = tail  # (after the byte: get() never reads one not yet written)

    def get(self):
        """The next event (kind | key), or -1 when there is none."""
        if self._head == self._tail:
            return -1
        ev = self._ring[self._head]
        self._head = (self._head + 1) % len(self._ring)
        return ev

    def any(self):
        """How many events wait (machine.UART's any()): the app's longer work gives way to
        them (board/history.py's rest())."""
        return (self._tail - self._head) % len(self._ring)

    def name(self, ev):
        """The key's name: "5", "#", "a" (first button)."""
        return self.names[ev & KEY]

    # --- scanning ----------------------------------------------------------------------

    def scan(self):
        """Raw key bits now: bit k set while key k is down."""
        bits = 0
        k = 0
        rows = self.rows
        down = False
        for c in self.cols:
            if not c():
                down = True
        if down:  # some key is down: drive one row low at a time to find which
            for r in rows:
                r(1)
            for r in rows:
                r(0)
                for c in self.cols:
                    if not c():
                        bits |= 1 << k
                    k += 1
                r(1)
            for r in rows:
                r(0)
        else:
            k = len(rows) * len(self.cols)
        for b in self.buttons:
            if not b():
                bits |= 1 << k
            k += 1
        return bits

    def update(self, now):
        """One scan at time now (ms): debounce, queue DOWN/UP/LONG/REPEAT events."""
        self.scanned_at = now
        raw = self.scan()
        held = -1  # the key bits that count from now (debounced), -1: no change counts
        if raw != self._raw:
            # A change no scan contradicted for more than debounce_ms, undone only now: the
            # scans came late (the timer held off by a collection, a flash write, a long C
            # call; the task by the loop), and the late scan finds the tap over. It held
            # from its first scan to the gap, however long the gap: it counts, before the
            # change this scan sees (issue 34: a 40 ms tap was lost to one scan 8-12 ms
            # late). Scans exactly every 5 or 10 ms never reach here: the change counted at
            # the scan debounce_ms after its first, or was undone within it (a bounce).
            if self._raw != self._state and ticks_diff(now, self._raw_at) > self.debounce_ms:
                held = self._raw
            self._raw = raw
            self._raw_at = now
        elif raw != self._state and ticks_diff(now, self._raw_at) >= self.debounce_ms:
            held = raw
        if held >= 0:
            raw = held
            changed = raw ^ self._state
            self._state = raw
            # Releases first, then presses: a key let go and the next one pressed within one
            # debounce window happened in that order (OK acts on release: "#" then "5" must
            # not become "5" then "#").
            ups = changed & ~raw
            k = 0
            while ups:
                if ups & 1:
                    self._long &= ~(1 << k)
                    self.put(UP | k)
                ups >>= 1
                k += 1
            downs = changed & raw
            k = 0
            while downs:
                if downs & 1:
                    self._down_at[k] = now
                    self.put(DOWN | k)
                downs >>= 1
                k += 1
        held = self._state
        k = 0
        while held:
            if held & 1:
                d = ticks_diff(now, self._down_at[k])
                if not self._long >> k & 1:
                    if d >= self.long_ms:
                        self._long |= 1 << k
                        self._down_at[k] = now
                        self.put(LONG | k)
                elif d >= self.repeat_ms:
                    self._down_at[k] = now
                    self.put(REPEAT | k)
            held >>= 1
            k += 1

    def held(self, k):
        """True while key k is down (debounced): the boot self-test checks a key this way."""
        return bool(self._state >> k & 1)

    def start(self, clock):
        """Start a timer's scans: False, this keypad has none (board/keytimer.py's has)."""
        return False

    async def run(self, clock, wake=None):
        """The keypad's task: scans every scan_ms (or starts a timer's scans: start()), and
        every scan_ms wakes the app (wake()) when events wait, so the app acts at once; says
        when the ring was full (overflow)."""
        timed = self.start(clock)
        told = self.overflow
        while True:
            if not timed:
                self.update(clock())
            elif ticks_diff(clock(), self.scanned_at) > _STALLED_MS:
                self.start(clock)  # (a callback that raised may leave its timer off; a
                # parked one checks its keys: board/keytimer.py)
            if wake is not None and self._head != self._tail:
                wake()
            if self.overflow != told:
                told = self.overflow
                print("keys: %d lost in all: the key buffer was full" % told)
            await self.rest(self.scan_ms)

    async def rest(self, ms):
        """The task's wait between looks: ms (a timed keypad, parked, waits for a key)."""
        await sleep_ms(ms)


async def sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython; CPython's asyncio only has sleep(seconds)."""
    import asyncio

    s = getattr(asyncio, "sleep_ms", None)
    if s is not None:
        await s(ms)
    else:
        await asyncio.sleep(ms / 1000)
