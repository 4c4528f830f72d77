"""Host side of the simulator: draw a board frame in the terminal (24-bit colour) or as a PNG.

The MicroPython driver (tools/sim/mp_driver.py) describes the board once (every LED's x/y in
mm and what it is, from firmware/board/layout.py's Layout) and then sends frames: the strip's
raw buffer, the display's text lines and the app's state. This module only draws them; it knows
no rule of cribbage and no layout numbers (the geometry comes from the layout data).
"""

import math

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.keypad import KEYS_4X4

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


def board_lines(board, buf, colour=True, cols=0):
    """The track drawn in the board's geometry: one string per terminal row (cols > 0: only
    its first cols columns, for a terminal too narrow for it)."""
    cells = [[" "] * board.cols for _ in range(board.rows)]
    for i, (r, c) in enumerate(board.cells):
        kind = board.pixels[i][2]
        lit = _visible(board.rgb(buf, i))
        ch = "●" if lit else ("○" if kind in (0, 1, 2) else "·")
        if colour:
            ch = _fg(lit or DARK) + ch + RESET
        cells[r][c] = ch
    if cols > 0:
        cells = [row[:cols] for row in cells]
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


TRACK_INDENT = 2  # the track's lines start this many columns in

# How the screen gives way in a terminal too short for all of it, least useful first: each
# step keeps the ones before it. Past the last, the track itself goes.
FIT_STEPS = (
    {"blank": False},  # the blank lines between the parts
    {"trim": True},  # the display's empty rows
    {"keys": "pad"},  # the key map table (the keypad's picture stays)
    {"one": True},  # scores and phase on one line
    {"keys": ""},  # the keypad's picture (the help line still lists the keys)
    {"dense": True},  # the track's empty rows between its bands
    {"boxed": False},  # the display's frame
)


def screen(board, state, keymap, title="cribbage board simulator", colour=True, help_line="",
           width=0, height=0):
    """The whole terminal screen as one string (the caller homes the cursor and prints it).
    keymap: lines describing the keys (the app's key map), shown beside the keypad.

    width, height: the terminal's size (0: no limit). Lines are cut to width - 1 columns (the
    track by its holes, keeping the colour codes whole). A screen taller than height would
    scroll the track off the top, so it is made to fit (FIT_STEPS), and the first line says
    what is left out and what size shows it; the help line (how to quit) is always last."""
    buf = bytes.fromhex(state.get("frame", "")) or bytes(board.bpp * board.count)
    track_w = TRACK_INDENT + board.cols
    cut = bool(width) and track_w > width - 1
    track = [" " * TRACK_INDENT + line for line in
             board_lines(board, buf, colour, cols=width - 1 - TRACK_INDENT if cut else 0)]
    status = []
    if state.get("scores") is not None:
        status.append("scores: " + "  ".join("%s %s" % (n, s) for n, s in state["scores"]))
    if state.get("phase"):
        status.append("phase:  %s" % state["phase"])
    error = ["error:  %s" % state["error"]] if state.get("error") else []
    keyrows = {"all": keymap_lines(board, keymap), "pad": keymap_lines(board, []), "": []}
    help_ = [help_line] if help_line else []

    def build(head, blank=True, trim=False, keys="all", one=False, dense=False, boxed=True,
              show=True, rows=None):
        disp = list(state.get("display") or [])
        while trim and disp and not disp[-1].strip():
            disp.pop()
        disp = disp if rows is None else disp[:rows]
        sep = [""] if blank else []
        out = [head] + sep
        if show:
            out += [x for x in track if x.strip()] if dense else track
        out += sep + (["   ".join(status)] if one and status else status)
        if disp and boxed:
            w = max(16, max(len(x) for x in disp))
            out.append("+" + "-" * w + "+  display")
            out += ["|" + line + " " * (w - len(line)) + "|" for line in disp]
            out.append("+" + "-" * w + "+")
        elif disp:
            out += ["display: " + disp[0]] + ["         " + x for x in disp[1:]]
        out += error + (sep if keyrows[keys] else []) + keyrows[keys] + help_
        return out

    full = build(title)
    need = (max([track_w] + [len(x) for x in full if x not in track]) + 1, len(full))
    out, said, show = full, [], True
    if height and need[1] > height:
        opts = {}
        for step in FIT_STEPS:
            opts.update(step)
            out = build(title, **opts)
            if len(out) <= height:
                break
        keys = opts.get("keys", "all")
        if keys != "all":
            said.append("no key map" if keys else "no key map or keypad")
        if len(out) > height:  # the display's first rows, under the track
            least = len(build(title, rows=1, **opts))  # the fewest rows the track needs
            if least <= height:
                out = build(title, rows=height - len(build(title, rows=0, **opts)), **opts)
                said.append("display cut")
            else:  # no room for the track: the scores, the display, how to quit
                show = False
                out = build(title, show=show, **opts)
                said.insert(0, "no track (it needs %dx%d)" % (track_w + 1, least))
        if len(out) > height:  # not even those fit: what does, and how to quit
            out = (out[:max(height - len(help_), 1)] + help_)[:height]
            said.append("lines cut")
    if cut and show:
        said.insert(0, "track cut")
    elif width and width < need[0] and not [x for x in said if "no key map" in x]:
        said.append("key map cut")
    if said:  # where the title was: what is missing, and the size that shows it all
        out[0] = "small terminal: %s (all needs %dx%d)" % (", ".join(said), need[0], need[1])
    if width:  # cut text lines to the terminal (the track's lines are cut by holes above)
        out = [line if line in track else line[:width - 1] for line in out]
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
