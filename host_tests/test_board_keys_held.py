"""No key press is lost while the loop is held (issue 23.5): the app running its asyncio tasks
as on a board (board/tasks.py), on the fake board whose keypad a Timer scans on the virtual
clock (fakeboard/fake_timer.py, as hw/common.py wires a machine.Timer), while one task holds the
loop for seconds of virtual time (the page's flood, a save) and 40 ms taps happen. Nothing
here waits on the wall clock for its result: the taps happen inside the held task, on the
virtual clock; afterwards the test only lets the loop run until the app has drained."""

import asyncio

from board.app import App
from fakeboard.fake import build
from fakeboard.fake_timer import timed
from fakeboard.ramfs import RamFs
from board.keypad import DOWN, UP
from board.tasks import tasks
from cribbage import match as M


def tap(hw, name, down_ms=40, gap_ms=40):
    """One tap of key name on the fake board's matrix or buttons, in virtual time only."""
    clock = hw["clock"]
    btn = "ab".find(name)
    if btn >= 0:
        hw["fake_buttons"][btn].pressed = True
    else:
        hw["fake_matrix"].press(name)
    clock.advance(down_ms)
    if btn >= 0:
        hw["fake_buttons"][btn].pressed = False
    else:
        hw["fake_matrix"].release(name)
    clock.advance(gap_ms)


def held_taps(timer, taps, hold_ms=0):
    """The app on its tasks; once they run, one task holds the loop while taps happen (and
    hold_ms more); then the loop runs until the app drained the keys (at most 400 turns).
    Returns the app."""
    hw = build("/data", display=False, fs=RamFs(), buttons=2)
    if timer:
        timed(hw)
    app = App(hw)
    app.boot()
    keys = app.keys
    seen = []  # every event the app handled, in order
    event = app.event

    def noted(ev):
        seen.append((ev & 0xE0, keys.name(ev)))
        event(ev)

    app.event = noted

    async def main():
        task = asyncio.create_task(tasks(app, 20))  # (as board/tasks.py's run() does)
        for _ in range(400):  # until the keypad's task runs (it starts the timer)
            await asyncio.sleep(0.001)
            if not timer or hw["clock"].timers:
                break
        else:
            raise AssertionError("the keypad's task never started its timer")
        await asyncio.sleep(0.03)  # the tasks at their steady pace
        t0 = hw["clock"]()
        for name in taps:  # the held loop: no await until every tap is over
            tap(hw, name)
        hw["clock"].advance(hold_ms)
        held = hw["clock"]() - t0
        for _ in range(400):
            await asyncio.sleep(0.002)
            if keys._head == keys._tail:  # (nothing left to drain)
                break
        await asyncio.sleep(0.03)
        task.cancel()
        return held

    app.held_ms = asyncio.run(main())
    app.seen = seen
    return app


TAPS = "12#" + "a" * 10 + "7#" + "b" * 3  # 12 for Red, Red +10, 7 for Red, Blue +3


def expected(taps):
    out = []
    for name in taps:
        out += [(DOWN, name), (UP, name)]
    return out


def test_no_tap_is_lost_while_the_loop_is_held():
    app = held_taps(True, TAPS, hold_ms=500)
    assert app.held_ms == 80 * len(TAPS) + 500  # the loop held 1.9 s (virtual)
    assert app.seen == expected(TAPS)  # every press and release, in order
    assert app.m.score == [29, 3] and app.err is None
    assert app.keys.overflow == 0


def test_the_scan_in_the_loop_lost_them_all():
    # the scan as it was, in the keypad's own task: the held loop hides every tap
    app = held_taps(False, TAPS)
    assert app.seen == [] and app.m.score == [0, 0]


def test_a_loop_held_longer_than_the_ring_holds_counts_what_it_lost():
    # 40 taps (80 events) into the 64-byte ring (63 events) with nothing drained: the first
    # 63 are handled in order, the rest counted, and a tap after the drain is handled again
    taps = "a" * 40
    app = held_taps(True, taps)
    assert app.seen == expected(taps)[:63]
    assert app.keys.overflow == 80 - 63
    assert app.m.score == [32, 0] and app.m.phase != M.OVER


# --- the board modules wire a machine.Timer to the keypad -----------------------------------

BOARD_SCRIPT = '''
import sys
import machine
from board.keypad import KEYS_4X4, BUTTON_NAMES


class Timer:  # machine.Timer as the ports give it (the simulator's fake machine has none)
    ONE_SHOT = 0
    PERIODIC = 1
    made = []

    def __init__(self, id):
        self.id = id
        self.inits = []
        Timer.made.append(self)

    def init(self, mode=PERIODIC, period=-1, callback=None):
        self.inits.append((mode, period))
        self.callback = callback

    def deinit(self):
        self.inits.append("off")
        self.callback = None


machine.Timer = Timer
machine.PLATFORM = {"pico": "rp2", "pico_w": "rp2w"}.get(sys.argv[1], "esp32")
machine.I2C.devices = []
b = getattr(__import__("hw." + sys.argv[1]), sys.argv[1])
hw = b.build()
hw["storage_dir"] = sys.argv[2]
machine.wire(b.ROWS, b.COLS, b.BUTTONS, KEYS_4X4 + BUTTON_NAMES[:len(b.BUTTONS)])
from board.app import App
app = App(hw)
keys = app.keys
now = [0]
keys.start(lambda: now[0])
timer = Timer.made[0]
called = []  # the callbacks the timer ran (the keypad's, each time)
for name in "5#":  # scanned only by the timer's callback; parked (the timer off) once all
    machine.press(name)  # keys are up, started again by the column's falling edge (its irq)
    for _ in range(5):
        now[0] += 10
        called.append(timer.callback is keys)
        timer.callback(timer)
    machine.release(name)
    for _ in range(5):
        now[0] += 10
        if timer.callback is not None:
            called.append(timer.callback is keys)
            timer.callback(timer)
app.step(now[0])
print("BOARD", timer.id, timer.inits, all(called), app.m.score[0], "rows" in hw,
      len(Timer.made), keys.parked)
'''


def board_with_timer(tmp_path, name):
    from test_board_hw import run_script

    return run_script(tmp_path, BOARD_SCRIPT, "BOARD", name)[0][6:]


def test_the_pico_scans_its_keys_on_a_virtual_timer(tmp_path):
    # Timer(-1) (the RP2040's are virtual), every 5 ms; "5" then OK reached the app
    # each key's falling edge starts the scans again; once all are up the timer is off
    on_off = "[(1, 5), 'off', (1, 5), 'off']"
    assert board_with_timer(tmp_path, "pico") == "-1 %s True 5 False 1 True" % on_off
    assert board_with_timer(tmp_path, "pico_w") == "-1 %s True 5 False 1 True" % on_off


def test_the_esp32_scans_its_keys_on_hardware_timer_0(tmp_path):
    assert board_with_timer(tmp_path, "esp32_devkit") == \
        "0 [(1, 5), 'off', (1, 5), 'off'] True 5 False 1 True"


def test_a_timer_that_stopped_is_started_again():
    # a port may leave a timer off after its callback raised: the keypad's task sees no scan
    # for over a second and starts it again (and the keys are scanned again)
    from board.keytimer import TimedKeypad
    from fakeboard.fake import Matrix
    from fakeboard.fake_timer import TimedClock

    clock = TimedClock()
    m = Matrix()
    kp = TimedKeypad(m.rows, m.cols, (), clock.every)

    async def main():
        task = asyncio.create_task(kp.run(clock))
        for _ in range(400):
            await asyncio.sleep(0.001)
            if clock.timers:
                break
        clock.timers.clear()  # the timer is off
        clock.advance(900)
        for _ in range(20):
            await asyncio.sleep(0.001)
        assert not clock.timers  # (not yet: 900 ms without a scan may be a held loop)
        clock.advance(200)
        for _ in range(400):
            await asyncio.sleep(0.001)
            if clock.timers:
                break
        task.cancel()

    asyncio.run(main())
    assert len(clock.timers) == 1
    m.press("5")
    clock.advance(40)
    ev = kp.get()
    assert ev & 0xE0 == DOWN and kp.name(ev) == "5"
