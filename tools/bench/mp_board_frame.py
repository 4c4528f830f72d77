"""LED frames and keypad scans under MicroPython: the time to render a frame (a typical one,
and the heaviest: a win lighting a whole lane) against the strip's wire time (30 us per LED),
and one keypad scan with C-level pin calls as machine.Pin's are; and what the keypad costs a
second with no key down: the timer's 200 scans a second (before issue 34) against the parked
keypad's one check a second (board/keytimer.py: the timer off, a pin interrupt to start it),
as a ratio in the same run. Only the layout, the renderer and the keypad are loaded (the
whole game is mp_board.py's)."""

from benchlib import row, per_call_us
from board.keypad import Keypad
from board.keytimer import TimedKeypad
from board.layout import Layout
from board.render import Renderer, View
from leanboard import Strip

WIRE_US_PER_LED = 30


L = Layout()
R = Renderer(L, Strip(L.count), 64, 2000)
V = View()
_t = [0]


def frame():
    _t[0] += 100  # every frame at a new time: the blink phases move
    R.frame(V, _t[0])


wire = L.count * WIRE_US_PER_LED
V.front[0], V.back[0], V.front[1], V.back[1] = 33, 21, 58, 50
V.preview_side, V.preview_score, V.turn, V.crib = 0, 40, 0, 1
typical = per_call_us(frame, 200)
row("board: render a frame (4 pegs, preview, status)", typical, "us", ref=wire,
    ratio=typical / wire, note="ref: %d LEDs x 30 us wire time on the board" % L.count)
V.preview_side = -1
V.front[0], V.winner, V.skunk, V.won, V.games[0] = 121, 0, 1, 2, 2
win = per_call_us(frame, 50)
row("board: render the heaviest frame (a win, a lane lit)", win, "us", ref=wire,
    ratio=win / wire)

# pins as C callables: abs() takes a row's 0/1, object() reads a column high (no key down),
# int() reads it low (a key held)
for what, col in (("no key down", object), ("a key held", int)):
    kp = Keypad([abs] * 4, [col] * 4, [object] * 2)

    def scan(kp=kp):
        _t[0] += 10
        kp.update(_t[0])

    row("board: one keypad scan, 4x4 + 2 buttons, " + what, per_call_us(scan, 500), "us",
        note="every 5 ms from the keypad's timer on a board (board/keytimer.py), every %d ms "
             "from its task without one" % kp.scan_ms)

# The keypad's cost a second with no key down, and the share of a Pico's time it takes (at
# tools/bench/bench.py's host-to-board factor, 210 for the RP2040: printed beside each row)
PICO = 210
kp = Keypad([abs] * 4, [object] * 4, [object] * 2)


def idle_scan(kp=kp):
    _t[0] += 5
    kp.update(_t[0])


scan_us = per_call_us(idle_scan, 500)
timer_s = 200 * scan_us  # every 5 ms from the timer (0.6.0)


def no_timer(scan, ms):  # the timer (stands in for machine.Timer: started and stopped)
    pass


def no_watch(handler):  # the pins' interrupt (Pin.irq: armed and disarmed)
    pass


tk = TimedKeypad([abs] * 4, [object] * 4, [object] * 2, no_timer, watch=no_watch)
tk.start(lambda: _t[0])
_t[0] += 100
tk()  # all keys up for the debounce time: parked
assert tk.parked


def parked_check(tk=tk):  # the keypad's task, once a second while parked (start())
    tk.start(int)


check_us = per_call_us(parked_check, 500)
row("board: keypad with no key down, the timer's scans a second (0.6.0: every 5 ms)",
    timer_s, "us", note="%.1f %% of a Pico's time (x%d)" % (timer_s * PICO / 1e4, PICO))
row("board: keypad with no key down, parked a second (one check; a pin interrupt wakes it)",
    check_us, "us", ref=timer_s, ratio=check_us / timer_s,
    note="%.3f %% of a Pico's time (x%d)" % (check_us * PICO / 1e4, PICO))

held = TimedKeypad([abs] * 4, [int] * 4, [object] * 2, no_timer, watch=no_watch)
held.start(lambda: _t[0])


def held_scan(kp=held):
    _t[0] += 5
    kp()


h = per_call_us(held_scan, 500)
row("board: keypad with keys held (every column low: the worst), the timer's scan", h, "us",
    ref=scan_us, ratio=h / scan_us,
    note="every 5 ms: %.0f %% of a Pico's time (x%d) while a key is down" % (
        h * PICO / 50, PICO))
