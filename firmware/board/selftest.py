"""The LED self-test's frames: selftest(r, step) draws frame step with renderer r (the app
runs them when a key is held at power-up or from the menu; hardware/README.md runs one from
the REPL). Apart, so a board that never runs the test does not keep its code in RAM. It
uses the renderer's public calls and colours only (board/render.py never imports it)."""

# The frames, by step (n = the strip's LED count):
#   0 .. 3n-1    one LED at a time along the chain, in red, then green, then blue;
#   3n .. 3n+2   every LED white, scaled under the current limit (the last one holds: time to
#                read a meter);
#   3n+3         the firmware's version (firmware/version.py) on the track (holds);
#   then done (False).
# A frame that holds answers HOLD: the app keeps it until a key is pressed.
#
# The version, for a board without a display (hardware/README.md, "The LED self-test"): the
# top three lines of holes (in the chain order's lines: band 0 lane 1, band 0 lane 2, ...; on
# the two-lane board lane 1 and lane 2 of holes 1-30, then lane 1 of holes 31-60) each light
# a white hole at their right end, and from their left end as many holes as the number:
# major in red, minor in green, patch in blue ("0.2.0": only the white hole on the first line,
# two green holes on the second, only the white hole on the third). The holes stand in groups
# of five, so the counts read at a glance. A number too big for its line lights the line and
# a red hole at its right end instead of the white one.

from micropython import const

from board.render import RED, WHITE, STATUS, PALETTE
from board.keypad import KIND, DOWN

HOLD = const(2)  # selftest()'s answer for a frame that stays until a key is pressed
_HELD = const(0x4000)  # run()'s step flag: the frame it names is drawn and held


def run(r, strip, keys, step):
    """One turn of the app's loop while the test runs (App.step): the keys mean nothing but
    that a press ends a held frame (the white one, time to read a meter; the version), which
    is drawn once and stays until then. Returns the next step, -1 when the test is over."""
    pressed = False
    while True:
        ev = keys.get()
        if ev < 0:
            break
        if ev & KIND == DOWN:
            pressed = True
    if step & _HELD:
        return (step & ~_HELD) + 1 if pressed else step
    got = selftest(r, step)
    strip.write()  # (r's buffer is the strip's: the app hands the strip in)
    if got:
        return step + 1 if got is True or pressed else step | _HELD
    return -1
_FULL = const(256)  # the counted holes' level (of 256), as a front peg's


def selftest(r, step):
    """Frame `step` of the self-test into renderer r's strip buffer: True, HOLD (the frame
    stays until a key is pressed), or False when done."""
    n = r.layout.count
    blank(r)
    if step < 3 * n:
        colour, p = divmod(step, n)
        # red, green, blue: palette entries chosen for pure-ish channels
        r.lone(p, (RED, 2, 1)[colour])
        return True
    if step < 3 * n + 3:  # all white, scaled under the limit as a frame is
        v = PALETTE[3 * WHITE] * STATUS * r.brightness >> 16
        allowed = r.budget()
        total = 3 * v * n
        if total > allowed:
            v = v * allowed // total
            total = 3 * v * n
        r.last_ma = r.estimate(total)
        buf = r.buf
        o = r.order
        for k in range(0, n * r.bpp, r.bpp):
            buf[k + o[0]] = v
            buf[k + o[1]] = v
            buf[k + o[2]] = v
        return HOLD if step == 3 * n + 2 else True
    if step == 3 * n + 3:
        from version import VERSION
        show_version(r, numbers(VERSION))
        return HOLD
    return False


def blank(r):
    """Every LED of renderer r's strip buffer off (the frame's pixels the renderer remembers
    as lit are off with them: its next frame finds nothing to clear there). The self-test's
    own: a method of the Renderer would stay on every board's heap (issue 34)."""
    buf = r.buf
    for k in range(len(buf)):
        buf[k] = 0


def numbers(text):
    """[major, minor, patch] of a version string ("0.2.0", "1.10.3-rc1"): the leading digits
    of each part, 0 for a part missing or without digits."""
    out = [0, 0, 0]
    parts = text.split(".")
    for i in range(min(3, len(parts))):
        v = 0
        for ch in parts[i]:
            if not "0" <= ch <= "9":
                break
            v = v * 10 + ord(ch) - 48
        out[i] = v
    return out


def hole_at(L, line, col):
    """The pixel of the hole `col` places from the left end of track line `line` (lines from
    the top: band 0's lanes, then band 1's, ...; each band's holes run the other way)."""
    band, lane = divmod(line, L.lanes)
    k = col if band % 2 == 0 else L.row - 1 - col  # along the band's score order
    return L.hole(lane, band * L.row + k + 1)


def show_version(r, nums):
    """Light nums (major, minor, patch) on the top three lines of holes (see the comment at
    the top), scaled under the current limit as a frame is."""
    total = _lights(r, nums, 0)
    allowed = min(total, r.budget())
    r.last_ma = r.estimate(allowed)
    _lights(r, nums, (allowed << 8) // total if total else 256)


def _lights(r, nums, scale):
    """The version's holes written at scale/256 (0: only counted); their channels' sum."""
    L = r.layout
    row = L.row
    total = 0
    for i in range(min(3, L.lanes * L.bands)):
        k = nums[i]
        for col in range(min(k, row - 1)):
            total = _put(r, hole_at(L, i, col), (RED, 2, 1)[i], _FULL, scale, total)
        end = RED if k > row - 1 else WHITE
        total = _put(r, hole_at(L, i, row - 1), end, STATUS, scale, total)
    return total


def _put(r, pixel, colour, level, scale, total):
    """Pixel in palette colour at level/256 of the brightness: written at scale/256 (scale 0:
    only counted). Returns total plus the pixel's channel values (before scaling)."""
    m = level * r.brightness
    c = 3 * colour
    red = PALETTE[c] * m >> 16
    green = PALETTE[c + 1] * m >> 16
    blue = PALETTE[c + 2] * m >> 16
    if scale:
        k = pixel * r.bpp
        buf = r.buf
        o = r.order
        buf[k + o[0]] = red * scale >> 8
        buf[k + o[1]] = green * scale >> 8
        buf[k + o[2]] = blue * scale >> 8
    return total + red + green + blue
