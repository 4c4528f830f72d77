# The board side of tools/bench/keyflood.py, under the MicroPython unix port (MICROPYPATH=firmware):
#     micropython keyflood_board.py task|soft|hard PORT TAPS DOWN_MS GAP_MS START_MS STORAGE [TRACE]
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
# TRACE (a file): where the scans' gaps come from (issue 34), written there as lines of
#     W us   the timer's thread awake (its sleep over, the GIL taken: it asks for a scan)
#     S us   a scan ran (whichever thread ran it)
#     L us0 us1 cpu runq   the asyncio loop ran a task from us0 to us1 without polling
#                 (steps over 2 ms), of which its thread was cpu us on a processor and runq
#                 us waiting for one (Linux: /proc/thread-self/schedstat; the rest it was
#                 blocked: the interpreter's lock the timer's thread held, a system call)
#     T us0 us1   a tap: the button down from us0 to us1 (as the tapping thread set it)
#     D us        a scan queued the tapped button's DOWN
# in time.ticks_us() from the taps' start; tools/bench/keyflood.py --trace reads it.

import sys
import time

import _thread
import micropython
from array import array

_N = 5000  # trace entries of each kind (a run is ~10 s: 2000 ticks, a few hundred steps)
trace = None  # [t0, wakes, scans, steps, taps, downs, counts] while tracing


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
            if trace is not None:
                mark(1, time.ticks_us())
            if self.hard:
                self._fire(None)
                continue
            try:
                micropython.schedule(self._fire, None)
            except RuntimeError:  # the schedule queue is full: this tick is skipped
                pass


def mark(kind, t, t1=0):
    """One trace entry: kind 1 a wake, 2 a scan, 3 a loop step from t to t1 (its thread's cpu
    and runq us in trace[7]), 4 a tap from t to t1, 5 a DOWN."""
    n = trace[6]
    i = n[kind]
    if i < _N:
        trace[kind][i] = time.ticks_diff(t, trace[0])
        if kind in (3, 4):
            trace[kind][_N + i] = time.ticks_diff(t1, trace[0])
        if kind == 3:
            s0 = trace[7]
            cpu, runq = schedstat()
            s0[2 * i] = (cpu - s0[-2]) // 1000
            s0[2 * i + 1] = (runq - s0[-1]) // 1000
        n[kind] = i + 1


def schedstat():
    """(ns on a processor, ns waiting for one) of the calling thread (Linux), or (0, 0)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            v = f.read().split()
        return int(v[0]), int(v[1])
    except OSError:
        return 0, 0


def traced_loop(asyncio):
    """The loop's steps: the time between two polls of asyncio's (its wait_io_event()) is the
    time its tasks ran without a pause; the steps over 2 ms are kept."""
    q = asyncio.core._io_queue
    wait = q.wait_io_event
    last = [time.ticks_us()]

    def wait_io_event(dt):
        t = time.ticks_us()
        if trace is not None and time.ticks_diff(t, last[0]) > 2000:
            mark(3, last[0], t)
        wait(dt)
        if trace is not None:
            trace[7][-2], trace[7][-1] = schedstat()
        last[0] = time.ticks_us()

    q.wait_io_event = wait_io_event


def write_trace(path):
    with open(path, "w") as f:
        n = trace[6]
        for i in range(n[1]):
            f.write("W %d\n" % trace[1][i])
        for i in range(n[2]):
            f.write("S %d\n" % trace[2][i])
        for i in range(n[3]):
            f.write("L %d %d %d %d\n" % (trace[3][i], trace[3][_N + i], trace[7][2 * i],
                                          trace[7][2 * i + 1]))
        for i in range(n[4]):
            f.write("T %d %d\n" % (trace[4][i], trace[4][_N + i]))
        for i in range(n[5]):
            f.write("D %d\n" % trace[5][i])


def main(argv):
    import asyncio

    from board.keytimer import TimedKeypad
    from board.tasks import tasks
    from fakeboard.fake import build
    from fakeboard.served import served

    mode, port, taps, down_ms, gap_ms, start_ms, storage = (
        argv[1], int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]), int(argv[6]), argv[7])
    trace_path = argv[8] if len(argv) > 8 else None
    if trace_path:
        traced_loop(asyncio)
        entries = [array("i", bytes(4 * _N)), array("i", bytes(4 * _N)),
                   array("i", bytes(8 * _N)), array("i", bytes(8 * _N)),
                   array("i", bytes(4 * _N))]  # (before the app)
        stats = array("q", bytes(16 * _N + 16))
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
        if trace is not None:
            mark(2, time.ticks_us())
            held = keys.held(16)
            update(now)
            if keys.held(16) and not held:
                mark(5, time.ticks_us())
            return
        update(now)

    keys.update = timed_update

    def tapper():
        global trace
        time.sleep_ms(start_ms)
        if trace_path:
            trace = [time.ticks_us()] + entries + [[0, 0, 0, 0, 0, 0], stats]
        for _ in range(taps):
            button.pressed = True
            t = time.ticks_us()
            time.sleep_ms(down_ms)
            button.pressed = False
            if trace is not None:
                mark(4, t, time.ticks_us())
            time.sleep_ms(gap_ms)
        time.sleep_ms(300)  # the last tap's release debounced and drained
        done[0] = True

    async def report():
        while not done[0]:
            await asyncio.sleep_ms(50)
        print("TAPS %d applied %d overflow %d gap %d" % (taps, app.m.score[0], keys.overflow,
                                                         gap[0]))
        if trace_path:
            write_trace(trace_path)
            print("TRACED")
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
