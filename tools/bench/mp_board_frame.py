"""LED frames and keypad scans under MicroPython: the time to render a frame (a typical one,
and the heaviest: a win lighting a whole lane) against the strip's wire time (30 us per LED),
and one keypad scan with C-level pin calls as machine.Pin's are. Only the layout, the
renderer and the keypad are loaded (the whole game is mp_board.py's)."""

from benchlib import row, per_call_us
from board.keypad import Keypad
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
