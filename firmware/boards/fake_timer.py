"""The fake board's keypad scanned on a timer, as a board's machine.Timer scans it
(boards/common.py): TimedClock is boards/fake.py's Clock whose advance(ms) also fires the
timers started on it, at every one of their times passed (the clock reads that time then).

    hw = timed(build(...))    # boards/fake.py's hw, its keypad scanned on hw["clock"]'s timer

Apart from fake.py, which every host run loads: on the unix port each name a loaded module
has is interned on the heap, and the heap tests count it."""

from board.keytimer import TimedKeypad
from boards.fake import Clock


class TimedClock(Clock):
    def __init__(self, t=0):
        Clock.__init__(self, t)
        self.timers = []  # [next time, period, callback] each

    def every(self, callback, ms):
        """board/keytimer.py's timer(callback, ms): callback(clock) every ms from now on (a
        callback started again keeps one timer, restarted)."""
        for tm in self.timers:
            if tm[2] is callback:
                tm[0] = self.t + ms
                tm[1] = ms
                return
        self.timers.append([self.t + ms, ms, callback])

    def advance(self, ms):
        end = self.t + ms
        while True:
            due = None
            for tm in self.timers:
                if tm[0] <= end and (due is None or tm[0] < due[0]):
                    due = tm
            if due is None:
                break
            self.t = due[0]
            due[0] += due[1]
            due[2](self)
        self.t = end


def timed(hw):
    """hw (boards/fake.py's build()) with a TimedClock for its clock and a keypad scanned on
    its timer (started by the keypad's start(), as on a board)."""
    clock = TimedClock(hw["clock"]())
    hw["clock"] = clock
    hw["keys"] = TimedKeypad(hw["rows"], hw["cols"], hw["buttons"], clock.every)
    return hw
