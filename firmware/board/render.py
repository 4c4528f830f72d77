"""The renderer: a View (scores, pegs, preview, win) -> bytes in the LED strip's buffer."""

# (A comment, not the docstring: a long docstring is a string object while the module
# compiles, which a board compiling from source notices; comments cost nothing.)
#
# Data flows one way: the app fills a View from the engine's state, frame() writes the strip's
# preallocated `buf` (and nothing else: the caller calls strip.write() when it returns True).
# A frame allocates nothing: the lit pixels are gathered into preallocated arrays, their
# estimated current summed, scaled under the supply limit, and only the pixels that changed
# since the last frame are touched (a 735-byte loop would cost ~5 ms on a Pico).
#
# How sides are told apart -- by colour AND without colour:
#   * colour: the palette setting ("colours": board/settings.py) picks PALETTE's usual colours
#     or, for players who cannot tell red from green, its colour-blind safe ones (every pair of
#     sides told apart under simulated protanopia and deuteranopia: tools/checks/cvd.py);
#   * position: each side pegs its own lane (side s on lane s % lanes);
#   * the front peg (score) is full brightness, the back peg (previous score) a quarter;
#   * when sides outnumber lanes (three players on a two-lane board), the sides sharing a lane
#     blink: the first steady, the second on-off slowly, the third with a short double flash;
#   * the turn and crib status LEDs sit at each lane's end of the header (a side sharing a
#     lane blinks them as it blinks its pegs).
# The previewed hole (points typed, not yet confirmed) blinks fast in the side's colour, lit
# first: a digit typed shows at once (View.at: when it appeared), never a blink phase later.
# A win lights the winner's whole lane dimly with the finish bright; a skunk (double skunk)
# blinks the skunk line hole (and the double skunk line) on every loser's lane, and the games-won
# LEDs show the new total with this game's games blinking. The games-won LEDs count games (or ACC
# game points) one an LED, dim; past their number they count on, bright, from the first: with
# three, 4 is one bright and two dim, 6 and more all three bright (the display has the totals).
# An error flashes the header and the start holes red for ERROR_MS. marks: up to 8 extra holes
# to blink white (the discard advisor lights entry positions with them when there is no display).
#
# Current: each channel at 255 draws about MA_PER_CHANNEL mA, each LED IDLE_UA idle; when the
# frame's estimate passes limit_ma, every value is scaled down in proportion.


from array import array

from micropython import const

from board.keypad import ticks_diff

_MAX_SIDES = const(6)
_MAX_MARKS = const(8)
ERROR_MS = const(900)
MA_PER_CHANNEL = const(20)  # WS2812 at 255 on one channel
IDLE_UA = const(800)  # per LED, all off

# colours (r, g, b) at full scale, two palettes of 8 by the "colours" setting (0, 1): the
# sides' red, blue, green, yellow, magenta, cyan, then WHITE and RED; then the colour-blind
# palette: the same sides from Okabe and Ito's colours (vermillion, blue, bluish green,
# yellow, reddish purple, sky blue as the LEDs' linear light) moved apart in lightness and
# blue-yellow, the two things a red-green colour-blind eye still tells (tools/checks/cvd.py: the
# closest two sides of 2-6 players stay at CIEDE2000 14.8 under simulated protanopia, 15.1
# deuteranopia; the usual palette's fall to 3.9), then the same WHITE and RED. (One bytes and
# no new name: each module-level name is interned on a board for good.) The board's one table
# of side colours: the page (GET /state's "colours") and the club's pages (tools/club/page.py)
# take theirs from it.
PALETTE = bytes((255, 16, 0, 0, 48, 255, 0, 255, 24, 255, 150, 0, 200, 0, 255, 0, 200, 180,
                 255, 255, 255, 255, 0, 0,
                 110, 11, 0, 0, 37, 192, 30, 177, 56, 255, 255, 6, 166, 43, 81, 24, 164, 255,
                 255, 255, 255, 255, 0, 0))
WHITE = const(6)
RED = const(7)

# levels (of 256) for each kind of light
_FRONT = const(256)
_BACK = const(48)
_LANE = const(20)
STATUS = const(96)


class View:
    """What the board should show; the app (board/app.py) alone fills it, the renderer, the
    display's text and the keys only read it: the snapshot every reader gets, never the app.
    The LEDs' fields first; then what the display's text and the key handlers read, copied
    in by the app before each reader (board/commands.py's shown(app))."""

    # (what the app copies in, declared for the type checker: bare annotations cost nothing)
    m: object
    e: object
    msg: object
    err: object
    cfg: object
    display: object
    store: object
    power: object

    def __init__(self, sides=2, target=121):
        self.sides = sides
        self.target = target
        self.front = bytearray(_MAX_SIDES)  # scores 0..255
        self.back = bytearray(_MAX_SIDES)
        self.games = bytearray(_MAX_SIDES)
        self.turn = -1  # side to play / enter, or -1
        self.crib = -1  # side owning the crib, or -1
        self.preview_side = -1  # side whose typed points preview, or -1
        self.preview_score = 0  # the score the preview would peg to
        self.at = 0  # ticks_ms when the preview appeared: it blinks lit first, from then
        self.winner = -1
        self.skunk = 0  # 0 none, 1 skunk, 2 double skunk (of the game just won)
        self.won = 0  # games the game just won counts for (to blink them)
        self.skunk_line = 91  # the lowest loser's score that is no skunk
        self.double_line = 61
        self.error_at = -1  # ticks_ms when an error was signalled, or -1
        self.marks = array("h", [-1] * _MAX_MARKS)  # pixels to blink white, -1 = none
        self.dirty = True  # set after changing anything: Renderer.maybe() draws only then
        self.m = None  # the game (cribbage.match.Match), read by its public names
        self.e = None  # the typed entry (board/entry.py's Entry)
        self.mode = 0  # what the keys mean now (board/modes.py), the menu's item, the
        self.item = 0  # penalty's kind
        self.pen = 0
        self.msg = None  # the message line (board/modes.py) and the error (None: none)
        self.err = None
        self.counting = -1  # the entry is a hand with its count: 0, 1 the crib (else -1)
        self.count_at = 0  # since when (the display's spoken count scrolls from it)
        self.now = 0  # ticks_ms of the app's turn
        self.power = None  # board/power.py's states (their display lines), or None
        self.cfg = None  # the settings (board/settings.py)
        self.display = None  # the display, or None (LEDs only)
        self.store = None  # the files (board/storage.py): the statistics' pages read them


# The saved frame (board/boot.py's loads() reads it and draws it at power-up, before the app
# loads: its layout is known here and there, held equal by test_board_render's round trip):
# what the View's LEDs show and the renderer's brightness and limit, tied to the saved game
# by its last 4 bytes (the engine's CRC-32), with a checksum: 0 _REC_MAGIC, 1-4 the game's
# CRC, 5 sides, 6 target, 7 turn+1, 8 crib+1, 9 winner+1, 10 skunk, 11 won, 12 skunk line,
# 13 double line, 14 preview side+1, 15 preview score, 16-21 front, 22-27 back, 28-33 games,
# 34-49 the marks (2 bytes each, +1), 50 brightness, 51-52 limit (mA), 53 the sum of 0..52
# (low byte).
_REC = const(54)
_REC_MAGIC = const(0xF5)


def dumps(v, r, data):
    """The saved frame's bytes (above) of View v drawn by Renderer r, for the game whose
    saved bytes end with data (4 bytes: its CRC-32)."""
    b = bytearray(_REC)
    b[0] = _REC_MAGIC
    b[1:5] = data
    for k, x in enumerate((v.sides, v.target, v.turn + 1, v.crib + 1, v.winner + 1, v.skunk,
                           v.won, v.skunk_line, v.double_line, v.preview_side + 1,
                           v.preview_score)):
        b[5 + k] = x & 255
    b[16:22] = v.front
    b[22:28] = v.back
    b[28:34] = v.games
    for k in range(_MAX_MARKS):
        x = v.marks[k] + 1
        b[34 + 2 * k] = x & 255
        b[35 + 2 * k] = x >> 8 & 255
    b[50] = min(r.brightness, 255)
    b[51] = r.limit_ma & 255
    b[52] = r.limit_ma >> 8 & 127 | (r.colours & 1) << 7  # (the palette in the top bit)
    b[53] = sum(b) & 255
    return b


class Renderer:
    """Owns the strip buffer's contents. frame(view, now_ms) -> True if the buffer changed."""

    def __init__(self, layout, strip, brightness=64, limit_ma=2000, colours=0):
        self.layout = layout
        self.buf = strip.buf  # (the strip itself is the app's: it writes it, App.step)
        self.bpp = getattr(strip, "bpp", 3)
        self.order = getattr(strip, "ORDER", (1, 0, 2, 3))  # neopixel: GRB on the wire: the
        # places of red, green and blue in a pixel's bytes (one field, not three: a hash size
        # fewer in the Renderer's dict)
        self.brightness = brightness
        self.limit_ma = limit_ma
        self.colours = colours  # the palette: the "colours" setting (0 usual, 1 colour-blind)
        # the most a frame lights: a won lane, the header (or the error flash), three pegs
        # and two skunk holes per side, the preview, the marks (the self-test's all-white
        # frame writes the strip itself)
        n = min(layout.holes + layout.first_track + 5 * _MAX_SIDES + 1 + _MAX_MARKS, layout.count)
        self._pix = array("H", bytes(2 * n))  # this frame's lit pixels...
        self._rgb = bytearray(3 * n)  # ...and their values
        self._n = 0
        self._old = array("H", bytes(2 * n))  # last frame's lit pixels
        self._n_old = 0
        self._stamp = bytearray(layout.count)  # frame id that last lit each pixel
        self._frame_id = 0
        self.last_ma = 0  # the last frame's estimate, after scaling
        self._sum = 0  # sum of this frame's channel values
        self._tick = -1  # maybe(): the blink tick of the last frame drawn

    # --- building a frame -------------------------------------------------------------

    def _add(self, pixel, colour, level):
        """Light pixel in palette colour at level/256 (times the brightness setting)."""
        i = self._n
        if i >= len(self._pix):
            return
        c = PALETTE
        k = 3 * colour + 24 * self.colours
        m = level * self.brightness
        j = 3 * i
        rgb = self._rgb
        r = (c[k] * m) >> 16
        g = (c[k + 1] * m) >> 16
        b = (c[k + 2] * m) >> 16
        rgb[j] = r
        rgb[j + 1] = g
        rgb[j + 2] = b
        self._sum += r + g + b
        self._pix[i] = pixel
        self._n = i + 1

    def budget(self):
        """The sum of channel values a frame may light under limit_ma (after the idle draw)."""
        idle = self.layout.count * IDLE_UA // 1000
        return max(0, (self.limit_ma - idle) * 255 // MA_PER_CHANNEL)

    def estimate(self, total):
        """The strip's current (mA) with channel values summing to total."""
        return self.layout.count * IDLE_UA // 1000 + total * MA_PER_CHANNEL // 255

    def _limit(self):
        """Scale the gathered values so the frame's estimate stays under limit_ma."""
        rgb = self._rgb
        total = self._sum
        allowed = self.budget()
        if total > allowed:
            for j in range(3 * self._n):
                rgb[j] = rgb[j] * allowed // total
            total = allowed
        self.last_ma = self.estimate(total)

    def _write(self):
        """Write this frame's pixels, then clear last frame's that are not lit now.
        True if any byte of the buffer changed (the caller then sends it to the strip)."""
        buf = self.buf
        bpp = self.bpp
        changed = False
        stamp = self._stamp
        t = self._frame_id + 1
        if t > 255:
            t = 1
        self._frame_id = t
        rgb = self._rgb
        pix = self._pix
        o = self.order
        o_r = o[0]
        o_g = o[1]
        o_b = o[2]
        for i in range(self._n):
            p = pix[i]
            k = p * bpp
            j = 3 * i
            stamp[p] = t
            if buf[k + o_r] != rgb[j] or buf[k + o_g] != rgb[j + 1] or buf[k + o_b] != rgb[j + 2]:
                buf[k + o_r] = rgb[j]
                buf[k + o_g] = rgb[j + 1]
                buf[k + o_b] = rgb[j + 2]
                changed = True
        old = self._old
        for i in range(self._n_old):
            p = old[i]
            if stamp[p] != t:
                k = p * bpp
                if buf[k] or buf[k + 1] or buf[k + 2]:
                    buf[k] = 0
                    buf[k + 1] = 0
                    buf[k + 2] = 0
                    changed = True
        for i in range(self._n):
            old[i] = pix[i]
        self._n_old = self._n
        return changed

    def frame(self, v, now):
        """Draw View v at time now (ms) into the strip buffer. True if the strip needs a write."""
        # (the frame's pixels gathered here, not in a method of their own: a function object
        # fewer on the heap, and the Renderer's dict a hash size smaller: issue 34)
        L = self.layout
        lanes = L.lanes
        fast = (now // 200) & 1  # preview blink
        slow = (now // 600) & 1  # second side on a lane
        flash = ((now // 120) % 5) != 0 and ((now // 600) & 1)  # third side: short flashes
        err = v.error_at >= 0 and 0 <= ticks_diff(now, v.error_at) < ERROR_MS
        self._n = 0
        self._sum = 0
        target = v.target
        # the win: the winner's lane, then the skunk lines on the losers' lanes
        w = v.winner
        if w >= 0:
            lane = w % lanes
            self._add(L.peg(lane, 1, target), w, _LANE)  # one call for the colour, then copies
            pix = self._pix
            rgb = self._rgb
            r = rgb[0]
            g = rgb[1]
            b = rgb[2]
            i = 1
            j = 3
            end = min(L.holes + 1, target)
            for s in range(2, end):
                pix[i] = L.peg(lane, s, target)
                rgb[j] = r
                rgb[j + 1] = g
                rgb[j + 2] = b
                i += 1
                j += 3
            self._n = i
            self._sum += (i - 1) * (r + g + b)
            if v.skunk and fast:
                for side in range(v.sides):
                    if side % lanes != lane:
                        self._add(L.peg(side % lanes, v.skunk_line, target), RED, _FRONT)
                        if v.skunk > 1:
                            self._add(L.peg(side % lanes, v.double_line, target), RED, _FRONT)
        # each side's pegs
        for side in range(v.sides):
            lane = side % lanes
            share = side // lanes  # 0: steady; 1: slow blink; 2: flashes
            if share == 1 and not slow:
                continue
            if share >= 2 and not flash:
                continue
            f = v.front[side]
            b = v.back[side]
            if b != f and (b or f):
                self._add(L.peg(lane, b, target), side, _BACK)
            if f or side == v.turn:
                self._add(L.peg(lane, f, target), side, _FRONT if f else STATUS)
            if L.lap(f, target):  # second time round: the start hole says so
                self._add(L.hole(lane, 0), side, _BACK)
        # the preview blinks in the side's colour, lit first (a digit typed shows at once)
        p = v.preview_side
        if p >= 0 and not ticks_diff(now, v.at) // 200 & 1:
            self._add(L.peg(p % lanes, v.preview_score, target), p, _FRONT)
        # status header: turn, crib, games won (this game's games blink)
        if not err:
            for side in range(v.sides):
                lane = side % lanes
                share = side // lanes  # a side sharing a lane: its turn/crib blink as its pegs
                if share == 0 or (slow if share == 1 else flash):
                    if side == v.turn:
                        self._add(L.turn_led(lane), side, STATUS)
                    if side == v.crib:
                        self._add(L.crib_led(lane), side, STATUS)
                if share:
                    continue  # the games won on a shared lane are the first side's
                g = v.games[side]
                if side == w and not fast:
                    g -= v.won  # this game's games blink: off, the total before it
                n = L.games
                for k in range(n):  # one each, then brighter for the next n: 2n at most
                    if k < g:
                        self._add(L.games_led(lane, k), side, _FRONT if k + n < g else STATUS)
        else:
            if fast:
                for k in range(L.first_track):
                    self._add(k, RED, STATUS)
        for k in range(_MAX_MARKS):
            m = v.marks[k]
            if m >= 0 and fast:
                self._add(m, WHITE, STATUS)
        self._limit()
        return self._write()

    def maybe(self, view, now):
        """frame() only when the view is dirty or, while something blinks, every 40 ms
        (the blink phases change at multiples of 120 and 200 ms): the app's loop calls this
        each turn and most turns cost nothing. (It clears view.dirty, the one field of the
        View it writes: the app's mark that the view changed, taken.)"""
        # (something on the board blinks: frames change with time alone)
        tick = now // 40 if (view.preview_side >= 0 or view.winner >= 0 or view.error_at >= 0
                             or view.sides > 2 or view.marks[0] >= 0) else -1
        if not view.dirty and tick == self._tick:
            return False
        view.dirty = False
        self._tick = tick
        return self.frame(view, now)

    # --- whole-strip effects (the LED self-test: board/selftest.py's selftest(r, step)) -----

    def lone(self, pixel, colour):
        """A frame of one LED in PALETTE's colour (the self-test's pure channels, whatever
        the setting) at full level. True if the buffer changed."""
        self._n = 0
        self._sum = 0
        c = self.colours
        self.colours = 0
        self._add(pixel, colour, _FRONT)
        self.colours = c
        self._limit()
        return self._write()
