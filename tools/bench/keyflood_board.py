# The board side of tools/bench/keyflood.py, under the MicroPython unix port (MICROPYPATH=firmware):
#     micropython keyflood_board.py task|soft|hard PORT TAPS DOWN_MS GAP_MS START_MS STORAGE
# The fake board (fakeboard/fake.py) with its two "+1" buttons, on the real clock (ticks_ms), the
# app on its asyncio tasks as main.py starts it (board/tasks.py), serving its page on
# 127.0.0.1:PORT. START_MS after READY a thread taps button "a" (+1 for Red) TAPS times,
# DOWN_MS held, GAP_MS apart, in real time whatever the loop is doing; then it prints
#     TAPS n applied N overflow K gap MS
# (applied: Red's score, one point per tap the app saw; gap: the longest time in ms between two
# scans of the keypad while it ran) and the process ends.
# "task": the keypad scanned by its own asyncio task (as before issue 23.5). "soft", "hard": by
# a stand-in for machine.Timer, as the unix port has none: a thread that every 5 ms either
# hands the callback to micropython.schedule(), which runs it between two bytecodes of the main
# thread (soft: how an ESP32, or an RP2040's soft timer, runs a Timer's callback), or calls it
# itself at once (hard: as an interrupt would, the main thread running on). The unix port runs
# scheduled callbacks only once a blocking call (asyncio's poll while idle, a socket write)
# returns, where a chip's idle wait runs them: "soft" here is worse than a chip's soft timer.

import sys
import time

import _thread
import micropython


class ThreadTimer:
    """board/keytimer.py's timer(scan, ms) on a thread: every ms, scan(self) scheduled (soft) or
    called from the thread (hard)."""

    def __init__(self, hard):
        self.hard = hard
        self.period = 0
        self.callback = None
        self.running = False
        self._fire = self.fire  # (bound once)

    def __call__(self, scan, ms):
        self.period = ms
        self.callback = scan
        if not self.running:
            self.running = True
            _thread.start_new_thread(self._run, ())

    def deinit(self):
        self.running = False

    def fire(self, _):
        self.callback(self)

    def _run(self):
        while self.running:
            time.sleep_ms(self.period)
            if self.hard:
                self._fire(None)
                continue
            try:
                micropython.schedule(self._fire, None)
            except RuntimeError:  # the schedule queue is full: this tick is skipped
                pass


def main(argv):
    import asyncio

    from board.keytimer import TimedKeypad
    from board.tasks import tasks
    from fakeboard.fake import build
    from fakeboard.served import served

    mode, port, taps, down_ms, gap_ms, start_ms, storage = (
        argv[1], int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]), int(argv[6]), argv[7])
    hw = build(storage_dir=storage, display=True, buttons=2)
    hw["clock"] = time.ticks_ms
    hw["sleep_ms"] = time.sleep_ms
    button = hw["fake_buttons"][0]
    timer = None
    if mode != "task":
        m = hw["fake_matrix"]
        timer = ThreadTimer(mode == "hard")
        hw["keys"] = TimedKeypad(m.rows, m.cols, hw["fake_buttons"], timer)
    app = served(hw, port)  # its page on 127.0.0.1:port, booted as main.py boots it
    done = [False]
    keys = app.keys
    update = keys.update
    gap = [0, None]  # the longest time between two scans (ms), the last scan's time

    def timed_update(now):  # every scan, whoever makes it
        if gap[1] is not None:
            gap[0] = max(gap[0], time.ticks_diff(now, gap[1]))
        gap[1] = now
        update(now)

    keys.update = timed_update

    def tapper():
        time.sleep_ms(start_ms)
        for _ in range(taps):
            button.pressed = True
            time.sleep_ms(down_ms)
            button.pressed = False
            time.sleep_ms(gap_ms)
        time.sleep_ms(300)  # the last tap's release debounced and drained
        done[0] = True

    async def report():
        while not done[0]:
            await asyncio.sleep_ms(50)
        print("TAPS %d applied %d overflow %d gap %d" % (taps, app.m.score[0], keys.overflow,
                                                         gap[0]))
        if timer is not None:
            timer.deinit()

    async def run():
        task = asyncio.create_task(tasks(app, 20))  # (kept: a task nobody holds may go)
        print("READY")
        _thread.start_new_thread(tapper, ())
        await report()
        task.cancel()

    asyncio.run(run())


main(sys.argv)
