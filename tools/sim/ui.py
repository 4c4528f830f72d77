"""Host side of the simulator: draw a board frame in the terminal (24-bit colour) or as a PNG.

The MicroPython driver (tools/sim/mp_driver.py) describes the board once (every LED's x/y in
mm and what it is, from firmware/board/layout.py's Layout) and then sends frames: the strip's
raw buffer, the display's text lines and the app's state. This module only draws them; it knows
no rule of cribbage and no layout numbers (the geometry comes from the layout data).
"""

import math

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.keypad import KEYS_4X4

KIND_NAMES = ("start", "hole", "finish", "games", "turn", "crib")
DARK = (58, 58, 58)  # an unlit hole in the terminal
RESET = "\x1b[0m"


class Board:
    """The LED geometry: pixels[i] = (x_mm, y_mm, kind, lane, n), and a GRB/RGB byte order."""

    def __init__(self, desc):
        self.pixels = [tuple(p) for p in desc["pixels"]]
        self.count = len(self.pixels)
        self.order = tuple(desc.get("order", (1, 0, 2)))  # buf offsets of r, g, b
        self.bpp = desc.get("bpp", 3)
        self.keys = desc.get("keys", KEYS_4X4)
        self.lanes = 1 + max(p[3] for p in self.pixels)
        self.cells = grid([(p[0], p[1]) for p in self.pixels])
        self.rows = 1 + max(r for r, _c in self.cells)
        self.cols = 1 + max(c for _r, c in self.cells)

    def rgb(self, buf, i):
        """(r, g, b) of pixel i in a raw strip buffer."""
        o = self.bpp * i
        return (buf[o + self.order[0]], buf[o + self.order[1]], buf[o + self.order[2]])

    def lit(self, buf):
        """{pixel: (r, g, b)} of every pixel that is not dark."""
        out = {}
        for i in range(self.count):
            c = self.rgb(buf, i)
            if c != (0, 0, 0):
                out[i] = c
        return out


def pitch(values):
    """The hole pitch: the most common step between neighbouring distinct coordinates."""
    vs = sorted({round(v, 1) for v in values})
    steps = {}
    for a, b in zip(vs, vs[1:]):
        d = round(b - a, 1)
        steps[d] = steps.get(d, 0) + 1
    if not steps:
        return 1.0
    best = max(steps.values())
    return min(d for d in steps if steps[d] == best)  # ties: the smaller step


def _rows(ys, p, k):
    """Row of each distinct y: neighbouring lines one row per pitch apart (at least one)."""
    vs = sorted({round(y, 1) for y in ys})
    out = {vs[0]: 0}
    for a, b in zip(vs, vs[1:]):
        out[b] = out[a] + max(1, round((b - a) / p * k))
    return out


def grid(xys):
    """(row, col) terminal cell of each (x, y) in the board's proportions: a cell is about
    twice as tall as wide, so one pitch is 2 columns and about 1 row (gaps kept, rounded up).
    Finer if two LEDs would share a cell."""
    p = pitch([x for x, _y in xys])
    x0 = min(x for x, _y in xys)
    k = 1.0
    while True:
        rows = _rows([y for _x, y in xys], p, k)
        cells = [(rows[round(y, 1)], math.ceil((x - x0) * 2 * k / p - 0.01))
                 for x, y in xys]
        if len(set(cells)) == len(cells) or k >= 4:
            return cells
        k += 0.5


def _fg(c):
    return "\x1b[38;2;%d;%d;%dm" % c


def _visible(c):
    """An LED's colour as the eye sees it: LEDs are linear, screens are not, so a gamma of
    1/2.2 lifts dim LEDs (a back peg, a dimly lit lane) into view and keeps them dimmer than
    the bright ones. None for a dark LED."""
    if max(c) == 0:
        return None
    return tuple(int(255 * (v / 255) ** 0.45 + 0.5) for v in c)


def board_lines(board, buf, colour=True):
    """The track drawn in the board's geometry: one string per terminal row."""
    cells = [[" "] * board.cols for _ in range(board.rows)]
    for i, (r, c) in enumerate(board.cells):
        kind = board.pixels[i][2]
        lit = _visible(board.rgb(buf, i))
        ch = "●" if lit else ("○" if kind in (0, 1, 2) else "·")
        if colour:
            ch = _fg(lit or DARK) + ch + RESET
        cells[r][c] = ch
    return ["".join(row).rstrip() for row in cells]


def keymap_lines(board, keymap):
    """The 4x4 keypad as printed on it (the computer keys are the same characters), then
    the app's key map table (lines) beside it."""
    names = board.keys
    pad = []
    for r in range(4):
        pad.append(" ".join("[%s]" % names[r * 4 + c] for c in range(4)))
    extra = names[16:]
    if extra:
        pad.append("buttons: " + " ".join("[%s]" % b for b in extra))
    out = []
    for i in range(max(len(pad), len(keymap))):
        left = pad[i] if i < len(pad) else ""
        right = keymap[i] if i < len(keymap) else ""
        out.append((left + " " * 20)[:20] + right)
    return out


def screen(board, state, keymap, title="cribbage board simulator", colour=True, help_line="",
           width=0):
    """The whole terminal screen as one string (the caller clears and prints it). keymap:
    lines describing the keys (the app's key map), shown beside the keypad."""
    buf = bytes.fromhex(state.get("frame", "")) or bytes(board.bpp * board.count)
    out = [title, ""]
    out += ["  " + line for line in board_lines(board, buf, colour)]
    out.append("")
    scores = state.get("scores")
    if scores is not None:
        out.append("scores: " + "  ".join("%s %s" % (n, s) for n, s in scores))
    if state.get("phase"):
        out.append("phase:  %s" % state["phase"])
    disp = state.get("display")
    if disp:
        w = max(16, max(len(x) for x in disp))
        out.append("+" + "-" * w + "+  display")
        out += ["|" + line + " " * (w - len(line)) + "|" for line in disp]
        out.append("+" + "-" * w + "+")
    if state.get("error"):
        out.append("error:  %s" % state["error"])
    out.append("")
    out += keymap_lines(board, keymap)
    if help_line:
        out.append(help_line)
    if width:  # cut text lines to the terminal (the board's lines carry colour codes: kept)
        n = len(board_lines(board, bytes(board.bpp * board.count), colour))
        out = out[:2 + n] + [line[:width - 1] for line in out[2 + n:]]
    return "\n".join(out)


def save_png(board, buf, path, display=None, scale=4.0):
    """A picture of the board: each LED a disc at its true position (scale px per mm), unlit
    holes dark grey, on a wooden panel; the display's text below if there is one."""
    from PIL import Image, ImageDraw

    xs = [p[0] for p in board.pixels]
    ys = [p[1] for p in board.pixels]
    margin = 10.0
    w = int((max(xs) - min(xs) + 2 * margin) * scale)
    h_track = int((max(ys) - min(ys) + 2 * margin) * scale)
    lines = list(display or [])
    h = h_track + (len(lines) * 12 + 16 if lines else 0)
    img = Image.new("RGB", (w, h), (92, 64, 40))
    d = ImageDraw.Draw(img)
    for i, (x, y, kind, _lane, _n) in enumerate(board.pixels):
        cx = (x - min(xs) + margin) * scale
        cy = (y - min(ys) + margin) * scale
        rad = (2.5 if kind in (0, 1, 2) else 1.8) * scale
        c = board.rgb(buf, i)
        if c == (0, 0, 0):
            d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=(30, 22, 16))
        else:
            glow = _visible(c)
            d.ellipse((cx - rad * 1.4, cy - rad * 1.4, cx + rad * 1.4, cy + rad * 1.4),
                      fill=tuple(int(v * 0.35 + 40) for v in glow))
            d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=glow)
    if lines:
        y0 = h_track
        d.rectangle((8, y0, 8 + 16 * 8 + 8, h - 4), fill=(0, 0, 0))
        for k, line in enumerate(lines):
            d.text((12, y0 + 4 + 12 * k), line, fill=(120, 200, 255))
    img.save(path)
    return (w, h)
