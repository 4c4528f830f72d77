"""The fake board's keypad scanned on a timer, as a board's machine.Timer scans it
(hw/common.py): TimedClock is fakeboard/fake.py's Clock whose advance(ms) also fires the
timers started on it, at every one of their times passed (the clock reads that time then),
and Watch, the pins' falling-edge interrupt (board/keytimer.py's watch), fired by the clock.

    hw = timed(build(...))    # fakeboard/fake.py's hw, its keypad scanned on hw["clock"]'s timer,
                              # parked on hw["fake_watch"] while no key is down

Apart from fake.py, which every host run loads: on the unix port each name a loaded module
has is interned on the heap, and the heap tests count it."""

from board.keytimer import TimedKeypad
from fakeboard.fake import Clock


class TimedClock(Clock):
    def __init__(self, t=0):
        Clock.__init__(self, t)
        self.timers = []  # [next time, period, callback] each
        self.watches = []  # Watch: their edges are looked for at each advance()

    def every(self, callback, ms):
        """board/keytimer.py's timer(callback, ms): callback(clock) every ms from now on (a
        callback started again keeps one timer, restarted); every(None, 0) stops them all
        (period 0: kept, so a restart allocates nothing)."""
        if callback is None:
            for tm in self.timers:
                tm[1] = 0
            return
        for tm in self.timers:
            if tm[2] is callback:
                tm[0] = self.t + ms
                tm[1] = ms
                return
        self.timers.append([self.t + ms, ms, callback])

    def advance(self, ms):
        for w in self.watches:  # (the fake's pins change only between advances: an edge
            w.check()  # is seen at the time it happened)
        end = self.t + ms
        while True:
            due = None
            for tm in self.timers:
                if tm[1] and tm[0] <= end and (due is None or tm[0] < due[0]):
                    due = tm
            if due is None:
                break
            self.t = due[0]
            due[0] += due[1]
            due[2](self)
        self.t = end


class Watch:
    """board/keytimer.py's watch(handler) on fake pins: handler(pin) when one of pins (the
    columns and buttons, called: 0 is low) falls while armed, as a Pin.irq(IRQ_FALLING) would;
    the clock looks at each advance() (clock.watches). dead: an interrupt that never comes (a
    sleep that does not latch the edge): the keypad must find the key by itself."""

    def __init__(self, pins, clock=None, dead=False):
        self.pins = pins
        self.handler = None
        self.low = 0  # the pins low when last looked at (bits)
        self.dead = dead
        self.arms = 0  # times armed
        self.fired = 0  # edges that called the handler
        if clock is not None:
            clock.watches.append(self)

    def levels(self):
        bits = 0
        pins = self.pins
        for i in range(len(pins)):
            if not pins[i]():
                bits |= 1 << i
        return bits

    def __call__(self, handler):
        if handler is not None:
            self.arms += 1
            self.low = self.levels()  # (edges from now on)
        self.handler = handler

    def check(self):
        """Fire the handler if a pin fell since the last look (and it is armed)."""
        low = self.levels()
        fell = low & ~self.low
        self.low = low
        if fell and self.handler is not None and not self.dead:
            self.fired += 1
            i = 0
            while not fell >> i & 1:
                i += 1
            self.handler(self.pins[i])


def timed(hw, watch=True, dead=False):
    """hw (fakeboard/fake.py's build()) with a TimedClock for its clock and a keypad scanned on
    its timer (started by the keypad's start(), as on a board), parked on a Watch of its
    columns and buttons (hw["fake_watch"]) while no key is down (watch False: never)."""
    clock = TimedClock(hw["clock"]())
    hw["clock"] = clock
    w = None
    if watch:
        w = Watch(list(hw["cols"]) + list(hw["buttons"]), clock, dead)
        hw["fake_watch"] = w
    hw["keys"] = TimedKeypad(hw["rows"], hw["cols"], hw["buttons"], clock.every, watch=w)
    return hw
