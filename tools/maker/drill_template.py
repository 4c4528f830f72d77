"""Drill templates (SVG), bills of materials and the LED chain table, from the layout data.

    python tools/maker/drill_template.py                        # hardware/drill_template.svg
    python tools/maker/drill_template.py --build strip --density 144  # hardware/drill_strip_144.svg
    python tools/maker/drill_template.py --build tht --led 5    # hardware/drill_tht_5mm.svg
    python tools/maker/drill_template.py --all                  # every build's template, and the
                                                          # generated tables of hardware/README.md
    python tools/maker/drill_template.py --build strip --density 60 --strip-width 11 --out my.svg

Two supported builds (hardware/README.md): an LED strip (60, 96 or 144 LEDs/m: the hole pitch is
the strip's, the lanes are spaced for the strip's width) and through-hole addressable LEDs
(5 mm or 8 mm PL9823 / WS2812D) in drilled holes, in groups of five like a wooden board. A build
only chooses Layout parameters (pitch, gaps): the wiring order, and so the firmware, is the same.

Every LED of firmware/board/layout.py's Layout (the same object the firmware renders with)
becomes a drill mark at its true position in mm. The data path is drawn over it: per run of
neighbouring LEDs (a lane's status LEDs, the start holes, a track line, the finish) an arrow
in wiring order with its first and last LED's number, and a dashed wire to the next run.
Below the track: the 4x4 keypad's outline and cable slot, the key-map card, the OLED window
and the +1 buttons' holes. A 100 mm bar checks the print's scale. Layout parameters (--lanes,
--pitch, ...) override the build's; nothing here knows the layout's numbers.
"""

import argparse
import math
import os
import re
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

from board import geometry, layout as layout_mod
from board import render, settings
from hw import esp32_devkit, pico  # (only their pin constants are read)
from keymap_card import HEIGHT as CARD_H
from keymap_card import WIDTH as CARD_W

HARDWARE = os.path.join(ROOT, "hardware")
README = os.path.join(HARDWARE, "README.md")
MARGIN = 12.0  # mm of panel around the outermost hole
# 4x4 membrane keypad (the common 69 x 77 mm one) and its ribbon cable
KEYPAD_W, KEYPAD_H = 69.0, 77.0
CABLE_W, CABLE_H = 22.0, 3.0
# 0.96" SSD1306 module: board 27 x 27 mm, window over the glass, M2 holes 23 mm apart
OLED_BOARD = 27.0
OLED_WIN_W, OLED_WIN_H = 25.0, 14.0
OLED_HOLE_PITCH = 23.0
OLED_HOLE_D = 2.2
BUTTON_HOLE = 12.0  # mm: a 12 mm panel-mount momentary push button
DIN_ROOM = 26.0  # mm left of the track for the data line's arrow and label
FONT = "font-family:sans-serif"
RUN_COLOUR = "#2e7d32"  # the data path along a run
WIRE_COLOUR = "#1565c0"  # a wire between two runs

# LED strips: LEDs per metre -> width (mm) of a bare (IP30) 5050 WS2812B strip, the widest
# commonly sold (60/m strips are 10 mm wide; 96/m and 144/m ones 10 or 12 mm). A strip in a
# silicone sleeve is wider: measure yours and pass --strip-width.
STRIP_WIDTH = {60: 10.0, 96: 12.0, 144: 12.0}
STRIP_MARGIN = 2.0  # mm between two strips side by side: cut edges, a bead of glue
BAND_EXTRA = 5.0  # a band (30 holes of every lane) is this much further from the next
# through-hole addressable LEDs (PL9823-F5/F8, WS2812D-F5/F8), by body diameter:
# (hole, flange, pitch along a row, extra gap between groups of five), mm
THT = {5: (5.0, 5.8, 8.0, 4.0), 8: (8.0, 9.0, 11.0, 5.0)}
THT_PARTS = {5: "PL9823-F5 or WS2812D-F5", 8: "PL9823-F8 or WS2812D-F8"}
THT_LANE_EXTRA = 2.0  # lanes a little further apart than the holes of a row: they read apart
BOARD_MA = 80  # an ESP32 without Wi-Fi (a Pico draws ~30 mA)
SUPPLY_MARGIN = 1.2


# --- the builds ---------------------------------------------------------------------------

class Build:
    """A build: Layout parameters, hole sizes, the template's file name and a title."""

    def __init__(self, kind, size, layout_kw, led_hole, status_hole, name, title, width=None):
        self.kind = kind  # "default", "strip" or "tht"
        self.size = size  # LEDs per metre (strip), LED diameter in mm (tht)
        self.layout_kw = layout_kw
        self.led_hole = led_hole
        self.status_hole = status_hole
        self.name = name
        self.title = title
        self.width = width  # the strip's width, mm

    def layout(self, **overrides):
        kw = dict(self.layout_kw)
        kw.update(overrides)
        return layout_mod.Layout(**kw)


def default_build():
    """Layout()'s own geometry (what the simulator draws): 5050 LEDs on small boards."""
    return Build("default", None, {}, 5.0, 3.0, "drill_template.svg",
                 "the layout's default geometry (5050 LEDs on small boards)")


def strip_build(density, width=None):
    """An LED strip of `density` LEDs/m: pitch 1000/density, no gaps, lanes a strip apart."""
    if width is None:
        if density not in STRIP_WIDTH:
            raise ValueError("no known width for %d LEDs/m: pass --strip-width" % density)
        width = STRIP_WIDTH[density]
    lane = width + STRIP_MARGIN
    kw = {"pitch": 1000.0 / density, "group_gap": 0.0, "lane_pitch": lane,
          "band_gap": lane + BAND_EXTRA}
    return Build("strip", density, kw, 5.0, 3.0, "drill_strip_%d.svg" % density,
                 "LED strip, %d LEDs/m, %g mm wide" % (density, width), width)


def tht_build(led):
    """Through-hole addressable LEDs of `led` mm in drilled holes, groups of five."""
    hole, _flange, pitch, gap = THT[led]
    lane = pitch + THT_LANE_EXTRA
    kw = {"pitch": pitch, "group_gap": gap, "lane_pitch": lane, "band_gap": lane + BAND_EXTRA}
    return Build("tht", led, kw, hole, hole, "drill_tht_%dmm.svg" % led,
                 "through-hole %d mm LEDs (%s)" % (led, THT_PARTS[led]))


def all_builds():
    """Every template committed in hardware/."""
    return ([default_build()] + [strip_build(d) for d in sorted(STRIP_WIDTH)]
            + [tht_build(d) for d in sorted(THT)])


def button_count():
    """The +1 buttons the board modules wire (the most any of them has)."""
    return max(len(pico.BUTTONS), len(esp32_devkit.BUTTONS))


# --- the chain: runs of neighbouring LEDs in wiring order ----------------------------------

def run_key(L, p):
    """What piece pixel p belongs to: a lane's status LEDs, the starts, a track line, ..."""
    kind, lane, n = L.what(p)
    if kind in (geometry.TURN, geometry.CRIB, geometry.GAMES):
        return ("status", lane)
    if kind == geometry.HOLE:
        return ("line", (n - 1) // L.row, lane)
    return (geometry.KIND_NAMES[kind],)


def runs(L):
    """The chain cut into runs of neighbouring LEDs: [(first, last)] pixels, wiring order."""
    out = []
    key = None
    for p in range(L.count):
        k = run_key(L, p)
        if k != key:
            out.append([p, p])
            key = k
        else:
            out[-1][1] = p
    return [tuple(r) for r in out]


def led_label(L, p):
    """A pixel's name on the template: its hole number, start 1, turn, won 2, ..."""
    kind, lane, n = L.what(p)
    if kind == geometry.HOLE:
        return str(n)
    if kind == geometry.GAMES:
        return "won %d" % (n + 1)
    if kind == geometry.START:
        return "start %d" % (lane + 1)
    if kind == geometry.FINISH:
        return "finish" if L.shared_finish else "finish %d" % (lane + 1)
    return geometry.KIND_NAMES[kind]


def run_text(L, first, last):
    """What a run is, in wiring order: "lane 2, holes 30 to 1", "lane 1 status: turn, ..."."""
    kind, lane, n = L.what(first)
    if kind == geometry.HOLE:
        return "lane %d, holes %d to %d" % (lane + 1, n, L.what(last)[2])
    names = ", ".join(led_label(L, p) for p in range(first, last + 1))
    if kind in (geometry.TURN, geometry.CRIB, geometry.GAMES):
        return "lane %d status: %s" % (lane + 1, names)
    return names + (" hole" if first == last else " holes")


def direction(L, first, last):
    """How a run runs on the panel."""
    (x0, y0), (x1, y1) = L.xy(first), L.xy(last)
    if first == last:
        return "one LED"
    if abs(x1 - x0) >= abs(y1 - y0):
        return "left to right" if x1 > x0 else "right to left"
    return "top to bottom" if y1 > y0 else "bottom to top"


def chain_table(L):
    """The wiring order as a Markdown table: one row per run."""
    out = ["| run | LEDs | what, in wiring order | on the panel |", "|---|---|---|---|"]
    for i, (a, b) in enumerate(runs(L)):
        leds = "%d" % a if a == b else "%d-%d" % (a, b)
        out.append("| %d | %s | %s | %s |" % (i + 1, leds, run_text(L, a, b), direction(L, a, b)))
    return "\n".join(out)


# --- the template -----------------------------------------------------------------------

def _is_status(L, p):
    return L.what(p)[0] in (geometry.GAMES, geometry.TURN, geometry.CRIB)


def panel_size(L, keypad=True):
    """(width, height, track height) of the panel in mm, with the room for the title."""
    w, h, _x0, _y0 = L.size()
    track_w = w + 2 * MARGIN + DIN_ROOM
    track_h = h + 2 * MARGIN + 14.0  # title lines
    extra_h = (max(KEYPAD_H, CARD_H, OLED_BOARD + 2 * BUTTON_HOLE + 24.0) + 2 * MARGIN
               if keypad else 0.0)
    panel_w = max(track_w, KEYPAD_W + CARD_W + OLED_BOARD + 4 * MARGIN) if keypad else track_w
    return panel_w, track_h + extra_h + 14.0, track_h  # + scale bar and legend


def _unit(dx, dy):
    d = math.hypot(dx, dy)
    return (dx / d, dy / d) if d else (1.0, 0.0)


class _Path:
    """The data path's geometry: where each run's arrow goes on the panel."""

    def __init__(self, L, pos, radius):
        self.L = L
        self.pos = pos  # pixel -> (x, y) on the panel
        self.radius = radius  # pixel -> its hole's radius
        self.runs = runs(L)

    def ends(self, first, last):
        """(in point, out point, unit direction) of a run's arrow, beside its holes."""
        (x0, y0), (x1, y1) = self.pos(first), self.pos(last)
        u = _unit(x1 - x0, y1 - y0)
        off = self.radius(first) + 1.3
        ox, oy = (0.0, off) if abs(u[0]) >= abs(u[1]) else (-off, 0.0)  # below, or left
        return (x0 + ox, y0 + oy), (x1 + ox, y1 + oy), u


def _f(v):
    return "%.2f" % v


def _arrow(add, first, last, path, group):
    """One run: an arrow along its LEDs (a head every `group` LEDs), its first and last LED."""
    (ax, ay), (bx, by), u = path.ends(first, last)
    if first == last:
        x, y = path.pos(first)
        add('<text x="%s" y="%s" text-anchor="end" style="%s;font-size:1.8px;fill:%s">LED %d'
            '</text>' % (_f(x - path.radius(first) - 0.8), _f(y + 0.6), FONT, RUN_COLOUR, first))
        return
    pts = [path.ends(first, p)[1] for p in list(range(first, last, group))[1:]] + [(bx, by)]
    d = "M%s %s" % (_f(ax), _f(ay)) + "".join("L%s %s" % (_f(x), _f(y)) for x, y in pts)
    add('<path d="%s" fill="none" stroke="%s" stroke-width="0.35" marker-mid="url(#run)" '
        'marker-end="url(#run)"/>' % (d, RUN_COLOUR))
    horizontal = abs(u[0]) >= abs(u[1])
    for p, (x, y), start in ((first, (ax, ay), True), (last, (bx, by), False)):
        if horizontal:
            anchor = "start" if (u[0] > 0) == start else "end"
            tx, ty = x, y + 2.2
        else:
            anchor, tx, ty = "end", x - 1.0, y + 0.6
        add('<text x="%s" y="%s" text-anchor="%s" style="%s;font-size:1.8px;fill:%s">LED %d'
            '</text>' % (_f(tx), _f(ty), anchor, FONT, RUN_COLOUR, p))


def _wire(add, path, i, ext=2.5, bend=5.0):
    """The dashed wire from run i's last LED to run i + 1's first (DOUT to DIN)."""
    a0, a1 = path.runs[i]
    b0, b1 = path.runs[i + 1]

    def point(first, last, out):
        """(end point, point ext beyond it, control point): where a wire leaves or enters."""
        if first == last:
            return None
        a, b, u = path.ends(first, last)
        s = 1 if out else -1
        p = b if out else a
        q = (p[0] + s * ext * u[0], p[1] + s * ext * u[1])
        return p, q, (q[0] + s * bend * u[0], q[1] + s * bend * u[1])

    def at_led(p, towards):
        x, y = path.pos(p)
        u = _unit(towards[0] - x, towards[1] - y)
        r = path.radius(p) + 0.5
        q = (x + r * u[0], y + r * u[1])
        return q, q, q

    src = point(a0, a1, True)
    dst = point(b0, b1, False)
    if src is None:
        src = at_led(a1, dst[1] if dst else path.pos(b0))
    if dst is None:
        dst = at_led(b0, src[1])
    d = "M%s %sL%s %sC%s %s %s %s %s %sL%s %s" % tuple(
        _f(v) for v in (*src[0], *src[1], *src[2], *dst[2], *dst[1], *dst[0]))
    add('<path d="%s" fill="none" stroke="%s" stroke-width="0.3" stroke-dasharray="1 0.6" '
        'marker-end="url(#wire)"><title>wire: LED %d DOUT to LED %d DIN</title></path>'
        % (d, WIRE_COLOUR, a1, b0))


def _din(add, path):
    """The data line's arrow into LED 0, from the level shifter and the 330 ohm resistor."""
    first, last = path.runs[0]
    if first == last:
        x, y = path.pos(first)
        r = path.radius(first) + 0.5
        end, u = (x - r, y), (1.0, 0.0)
    else:
        end, _b, u = path.ends(first, last)
    tail = (end[0] - 9.0 * u[0], end[1] - 9.0 * u[1])
    add('<path d="M%s %sL%s %s" stroke="%s" stroke-width="0.4" marker-end="url(#wire)"/>'
        % (_f(tail[0]), _f(tail[1]), _f(end[0]), _f(end[1]), WIRE_COLOUR))
    add('<text x="%s" y="%s" text-anchor="end" style="%s;font-size:2px;fill:%s">DIN (from '
        '330 ohm)</text>' % (_f(tail[0] - 0.8), _f(tail[1] + 0.7), FONT, WIRE_COLOUR))


def _markers(add):
    add("<defs>")
    for name, colour in (("run", RUN_COLOUR), ("wire", WIRE_COLOUR)):
        add('<marker id="%s" viewBox="0 0 4 4" refX="3" refY="2" markerWidth="2.2" '
            'markerHeight="2.2" markerUnits="userSpaceOnUse" orient="auto">'
            '<path d="M0 0L4 2L0 4z" fill="%s"/></marker>' % (name, colour))
    add("</defs>")


def _hole(add, L, p, x, y, d):
    """A drill mark: the hole's outline, a centre-punch cross and its name."""
    kind, lane, n = L.what(p)
    add('<circle cx="%s" cy="%s" r="%s" fill="none" stroke="black" stroke-width="0.3">'
        '<title>%s lane %d %d, pixel %d</title></circle>'
        % (_f(x), _f(y), _f(d / 2), geometry.KIND_NAMES[kind], lane, n, p))
    add('<path d="M%s %sh1.6M%s %sv1.6" stroke="black" stroke-width="0.15"/>'
        % (_f(x - 0.8), _f(y), _f(x), _f(y - 0.8)))
    label = led_label(L, p)
    if kind == geometry.HOLE and (lane or n % L.group):
        return  # hole numbers: every group's last, on lane 1
    add('<text x="%s" y="%s" text-anchor="middle" style="%s;font-size:2px">%s</text>'
        % (_f(x), _f(y - d / 2 - 0.8), FONT, label))
    if kind == geometry.TURN:
        add('<text x="%s" y="%s" style="%s;font-size:2.4px;font-weight:bold">lane %d</text>'
            % (_f(x - d / 2), _f(y - d / 2 - 3.6), FONT, lane + 1))


def _keypad(add, kx, ky):
    add('<g><title>4x4 membrane keypad: outline (adhesive) and cable slot</title>')
    add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
        'stroke-width="0.3" stroke-dasharray="2 1"/>' % (kx, ky, KEYPAD_W, KEYPAD_H))
    add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
        'stroke-width="0.3"/>' % (kx + (KEYPAD_W - CABLE_W) / 2, ky + KEYPAD_H - CABLE_H - 4.0,
                                  CABLE_W, CABLE_H))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">4x4 keypad '
        '%.0f x %.0f mm</text>' % (kx + KEYPAD_W / 2, ky + KEYPAD_H / 2, FONT, KEYPAD_W,
                                   KEYPAD_H))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">dashed: '
        'outline, solid: cable slot (cut out)</text>' % (kx + KEYPAD_W / 2, ky + KEYPAD_H / 2 + 5,
                                                         FONT))
    add('</g>')


def _card(add, cx, cy):
    add('<g><title>key-map card (hardware/keymap_card.svg), stuck beside the keypad</title>')
    add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
        'stroke-width="0.2" stroke-dasharray="0.6 0.8"/>' % (cx, cy, CARD_W, CARD_H))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">key-map card'
        '</text>' % (cx + CARD_W / 2, cy + CARD_H / 2, FONT))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:2.5px">'
        'keymap_card.svg, %.0f x %.0f mm</text>' % (cx + CARD_W / 2, cy + CARD_H / 2 + 4.5, FONT,
                                                    CARD_W, CARD_H))
    add('</g>')


def _oled(add, ox2, ky):
    add('<g><title>0.96 inch SSD1306 OLED: window and M2 screw holes</title>')
    add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
        'stroke-width="0.2" stroke-dasharray="1 1"/>' % (ox2, ky, OLED_BOARD, OLED_BOARD))
    add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
        'stroke-width="0.3"/>' % (ox2 + (OLED_BOARD - OLED_WIN_W) / 2,
                                  ky + (OLED_BOARD - OLED_WIN_H) / 2, OLED_WIN_W, OLED_WIN_H))
    m = (OLED_BOARD - OLED_HOLE_PITCH) / 2
    for dx in (m, m + OLED_HOLE_PITCH):
        for dy in (m, m + OLED_HOLE_PITCH):
            add('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="none" stroke="black" '
                'stroke-width="0.3"/>' % (ox2 + dx, ky + dy, OLED_HOLE_D / 2))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:2.5px">OLED '
        '(measure your module)</text>' % (ox2 + OLED_BOARD / 2, ky + OLED_BOARD + 4, FONT))
    add('</g>')


def _buttons(add, bx, by, n, d):
    """The +1 buttons' holes, one per side, in a column."""
    for i in range(n):
        y = by + d / 2 + i * (d + 12.0)
        add('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="none" stroke="black" stroke-width="0.3">'
            '<title>button +1 side %d</title></circle>' % (bx, y, d / 2, i + 1))
        add('<path d="M%.2f %.2fh1.6M%.2f %.2fv1.6" stroke="black" stroke-width="0.15"/>'
            % (bx - 0.8, y, bx, y - 0.8))
        add('<text x="%.2f" y="%.2f" text-anchor="middle" style="%s;font-size:2.5px">+1 side %d'
            ' (%.0f mm)</text>' % (bx, y + d / 2 + 3.2, FONT, i + 1, d))


def _strips(add, L, pos, width):
    """Each strip piece's outline (behind the panel): where it is glued, and that the
    pieces side by side do not overlap."""
    for a, b in pieces(L):
        (x0, y0), (x1, _y1) = pos(a), pos(b)
        left = min(x0, x1) - L.pitch / 2
        add('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#9e9e9e" '
            'stroke-width="0.2" stroke-dasharray="0.8 0.8"><title>strip piece: LED %d to %d'
            '</title></rect>' % (_f(left), _f(y0 - width / 2), _f(abs(x1 - x0) + L.pitch),
                                 _f(width), a, b))


def svg(L, led_hole=5.0, status_hole=3.0, keypad=True, title=None, button_hole=BUTTON_HOLE,
        strip_width=None):
    """The template as SVG text, 1 user unit = 1 mm; with strip_width, the outline of every
    strip piece too."""
    _w, _h, x0, y0 = L.size()
    ox = MARGIN - x0 + DIN_ROOM  # shift so every mark is inside the panel, the DIN arrow too
    oy = MARGIN - y0 + 14.0  # room for the title
    panel_w, panel_h, track_h = panel_size(L, keypad)

    def pos(p):
        x, y = L.xy(p)
        return (x + ox, y + oy)

    def radius(p):
        return (status_hole if _is_status(L, p) else led_hole) / 2

    out = []
    add = out.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add('<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" '
        'viewBox="0 0 %.1f %.1f">' % (panel_w, panel_h, panel_w, panel_h))
    add('<title>Cribbage board drill template, %d lanes x %d holes, print at 100%%</title>'
        % (L.lanes, L.holes))
    _markers(add)
    add('<rect x="0.25" y="0.25" width="%.1f" height="%.1f" fill="white" stroke="black" '
        'stroke-width="0.5"/>' % (panel_w - 0.5, panel_h - 0.5))
    lines = ["Drill template: %s." % (title or "%d lanes x %d holes" % (L.lanes, L.holes)),
             "%d LEDs, %d lanes x %d holes; hole pitch %.2f mm, lanes %.1f mm apart; LED holes "
             "%.1f mm, status LEDs %.1f mm." % (L.count, L.lanes, L.holes, L.pitch, L.lane_pitch,
                                                led_hole, status_hole),
             "Print at 100% (no fit to page) and check the 100 mm bar before drilling."]
    for i, text in enumerate(lines):
        add('<text x="%.1f" y="%.1f" style="%s;font-size:3.2px">%s</text>'
            % (MARGIN, 5.5 + 4.0 * i, FONT, text))
    if strip_width:
        _strips(add, L, pos, strip_width)
    for p in range(L.count):
        x, y = pos(p)
        _hole(add, L, p, x, y, 2 * radius(p))
    path = _Path(L, pos, radius)
    _din(add, path)
    for i, (a, b) in enumerate(path.runs):
        add('<g data-first="%d" data-last="%d"><title>data run %d: LED %d to %d, %s</title>'
            % (a, b, i + 1, a, b, run_text(L, a, b)))
        _arrow(add, a, b, path, L.group)
        if i + 1 < len(path.runs):
            _wire(add, path, i)
        add('</g>')
    if keypad:
        ky = track_h + MARGIN / 2
        _keypad(add, MARGIN, ky)
        _card(add, 2 * MARGIN + KEYPAD_W, ky)
        ox2 = 3 * MARGIN + KEYPAD_W + CARD_W
        _oled(add, ox2, ky)
        _buttons(add, ox2 + OLED_BOARD / 2, ky + OLED_BOARD + 10.0, button_count(), button_hole)
    _footer(add, panel_h)
    add('</svg>')
    return "\n".join(out) + "\n"


def _footer(add, panel_h):
    """The 100 mm scale bar and the legend of the data path."""
    by = panel_h - 8.0
    add('<g><title>scale check: this bar must measure 100 mm</title>')
    add('<path d="M%.1f %.1fh100M%.1f %.1fv3M%.1f %.1fv3" stroke="black" stroke-width="0.4"/>'
        % (MARGIN, by, MARGIN, by - 1.5, MARGIN + 100, by - 1.5))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">100 mm</text>'
        % (MARGIN + 50, by + 4.5, FONT))
    add('</g>')
    x = MARGIN + 110
    add('<path d="M%.1f %.1fh8" stroke="%s" stroke-width="0.35" marker-end="url(#run)"/>'
        % (x, by - 2.0, RUN_COLOUR))
    add('<text x="%.1f" y="%.1f" style="%s;font-size:2.5px">data path, LED to LED (DOUT to '
        'DIN); LED n: its place in the chain (LED 0 first)</text>' % (x + 10, by - 1.2, FONT))
    add('<path d="M%.1f %.1fh8" stroke="%s" stroke-width="0.3" stroke-dasharray="1 0.6" '
        'marker-end="url(#wire)"/>' % (x, by + 3.0, WIRE_COLOUR))
    add('<text x="%.1f" y="%.1f" style="%s;font-size:2.5px">a wire between two runs (data, '
        'with 5 V and GND beside it)</text>' % (x + 10, by + 3.8, FONT))


def build_svg(b, **overrides):
    """A build's template."""
    return svg(b.layout(**overrides), b.led_hole, b.status_hole, title=b.title,
               strip_width=b.width)


# --- bills of materials and the README's generated tables ---------------------------------

def supply(L):
    """(limit mA, dark mA, supply mA with margin, supply A to buy) for the default limit."""
    limit = settings.Settings().get("limit")
    dark = L.count * render.IDLE_UA // 1000
    need = (limit + dark + BOARD_MA) * SUPPLY_MARGIN
    return limit, dark, need, math.ceil(need / 1000)


def power_table(L):
    limit, dark, need, amps = supply(L)
    full = L.count * 3 * render.MA_PER_CHANNEL
    return "\n".join([
        "| | current at 5 V |", "|---|---|",
        "| all %d LEDs full white (what the LEDs could draw without the limit) | %d x 3 x %d mA "
        "= **%.1f A** |" % (L.count, L.count, render.MA_PER_CHANNEL, full / 1000),
        "| all LEDs dark (quiescent) | %d x %.1f mA = %.1f A |"
        % (L.count, render.IDLE_UA / 1000, dark / 1000),
        "| Pico / ESP32 (no Wi-Fi) | about 0.03 / %.2f A |" % (BOARD_MA / 1000),
        "| **supply** = limit + quiescent + board, + %d %% | %d + %d + %d mA = %.1f A, + %d %% = "
        "%.1f A: **5 V %d A supply** |" % (round(100 * (SUPPLY_MARGIN - 1)), limit, dark,
                                           BOARD_MA, (limit + dark + BOARD_MA) / 1000,
                                           round(100 * (SUPPLY_MARGIN - 1)), need / 1000, amps)])


def common_bom(L):
    _limit, _dark, _need, amps = supply(L)
    rows = [
        ("1", "Raspberry Pi Pico (RP2040) **or** ESP32 DevKit (ESP32-WROOM-32, 4 MB flash)",
         "stock MicroPython 1.23 or newer"),
        ("1", "74AHCT125 quad buffer (DIP-14, or SOIC on an adapter)",
         "3.3 V to 5 V level shifter for the LED data line"),
        ("1", "330 ohm resistor (300-500 ohm)", "in series with DIN, close to LED 0"),
        ("1", "1000 uF electrolytic capacitor, 10 V or more",
         "across 5 V and GND where the power enters the LEDs"),
        ("1", "100 nF ceramic capacitor", "across the 74AHCT125's VCC and GND"),
        ("1", "5 V power supply, %d A (see Power)" % amps,
         "barrel jack and socket, or a USB-C PD trigger board set to 5 V"),
        ("1", "1N5817 Schottky diode", "5 V into the Pico's VSYS, or the ESP32 DevKit's 5V "
         "(VIN) pin, stripe towards the board: USB and the supply can be plugged in together"),
        ("1", "4x4 membrane keypad (8-pin ribbon)", "the common %.0f x %.0f mm one; print "
         "[`keymap_card.svg`](keymap_card.svg) to stick beside it" % (KEYPAD_W, KEYPAD_H)),
        ("%d" % button_count(), "momentary push buttons, %.0f mm panel mount" % BUTTON_HOLE,
         "+1 for side 1, side 2 (hold to repeat); optional"),
        ("1", "SSD1306 0.96\" 128x64 OLED, I2C, address 0x3C (optional)",
         "the board is fully usable without it"),
        ("-", "wire: 18 AWG (0.8 mm2) for 5 V and GND, 24-26 AWG for signals; perfboard; "
         "panel (3-6 mm plywood or acrylic); standoffs", ""),
    ]
    out = ["| qty | part | notes |", "|---|---|---|"]
    out += ["| %s | %s | %s |" % r for r in rows]
    return "\n".join(out)


def pieces(L):
    """The chain cut into pieces of strip: [(first, last)], each LED one pitch right or left
    of the one before it on the same line (a vertical run is single LEDs)."""
    starts = {a for a, _b in runs(L)}
    out = []
    for p in range(L.count):
        if out and p not in starts:
            (x0, y0), (x1, y1) = L.xy(p - 1), L.xy(p)
            if abs(y1 - y0) < 0.01 and abs(abs(x1 - x0) - L.pitch) < 0.01:
                out[-1][1] = p
                continue
        out.append([p, p])
    return [tuple(r) for r in out]


def _piece_counts(L):
    """'8 x 30, 2 x 5, 3 x 1': the strip pieces' lengths, longest first."""
    counts = {}
    for a, b in pieces(L):
        counts[b - a + 1] = counts.get(b - a + 1, 0) + 1
    return ", ".join("%d x %d" % (counts[n], n) for n in sorted(counts, reverse=True))


def _holes(L, b):
    """'243 x 5 mm, 10 x 3 mm': the LED holes by diameter."""
    status = sum(1 for p in range(L.count) if _is_status(L, p))
    if b.led_hole == b.status_hole:
        return "%d x %g mm" % (L.count, b.led_hole)
    return "%d x %g mm, %d x %g mm (status)" % (L.count - status, b.led_hole, status,
                                                b.status_hole)


def _wire_m(L, buses, cut=runs):
    """Metres of wire: `buses` wires along every run (5 V, GND) + 3 per join between the
    pieces `cut` makes, rounded up to half a metre."""
    total = 0.0
    rs = cut(L)
    for i, (a, b) in enumerate(rs):
        (x0, y0), (x1, y1) = L.xy(a), L.xy(b)
        total += buses * (math.hypot(x1 - x0, y1 - y0) + L.pitch)
        if i + 1 < len(rs):
            (x2, y2) = L.xy(rs[i + 1][0])
            total += 3 * (math.hypot(x2 - x1, y2 - y1) + 20.0)  # + 2 x 10 mm to strip and solder
    return math.ceil(total / 500.0) / 2


def _panel(L):
    w, h, _t = panel_size(L)
    return "%.0f x %.0f cm" % (math.ceil(w / 10), math.ceil(h / 10))


def _table(head, rows, builds):
    out = ["| | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
    for name, f in rows:
        out.append("| %s | " % name + " | ".join(f(b, b.layout()) for b in builds) + " |")
    return "\n".join(out)


def strip_bom():
    builds = [strip_build(d) for d in sorted(STRIP_WIDTH)]
    rows = [
        ("drill template", lambda b, L: "[`%s`](%s)" % (b.name, b.name)),
        ("WS2812B strip, 5 V, bare (IP30)", lambda b, L: "%d LEDs/m, %g mm wide" % (b.size,
                                                                                  b.width)),
        ("strip to buy", lambda b, L: "%d LEDs = %.2f m: **%d m**" % (
            L.count, L.count / b.size, math.ceil(L.count / b.size))),
        ("cut into pieces (LEDs)", lambda b, L: _piece_counts(L)),
        ("joins between pieces (5 V, GND, data)", lambda b, L: "%d" % (len(pieces(L)) - 1)),
        ("hookup wire for the joins, 3 cores", lambda b, L: "%g m" % _wire_m(L, 0, pieces)),
        ("hole pitch", lambda b, L: "%.2f mm (the strip's), no gaps" % L.pitch),
        ("lanes / bands apart", lambda b, L: "%g / %g mm" % (L.lane_pitch, L.band_gap)),
        ("holes", lambda b, L: _holes(L, b)),
        ("panel", lambda b, L: _panel(L)),
    ]
    return _table(["%d LEDs/m" % b.size for b in builds], rows, builds)


def tht_bom():
    builds = [tht_build(d) for d in sorted(THT)]
    rows = [
        ("drill template", lambda b, L: "[`%s`](%s)" % (b.name, b.name)),
        ("addressable LEDs, %d" % builds[0].layout().count,
         lambda b, L: "%s, diffused" % THT_PARTS[b.size]),
        ("100 nF ceramic capacitors, one per LED", lambda b, L: "%d" % L.count),
        ("tinned copper wire, 0.6-0.8 mm (5 V and GND buses, joins)",
         lambda b, L: "%g m" % _wire_m(L, 2)),
        ("hole pitch, groups of %d" % builds[0].layout().group,
         lambda b, L: "%g mm, + %g mm between groups" % (L.pitch, L.group_gap)),
        ("lanes / bands apart", lambda b, L: "%g / %g mm" % (L.lane_pitch, L.band_gap)),
        ("holes", lambda b, L: "%s (the flange, %g mm, stops the LED at the back)"
         % (_holes(L, b), THT[b.size][1])),
        ("panel", lambda b, L: _panel(L)),
    ]
    return _table(["%d mm LEDs" % b.size for b in builds], rows, builds)


def builds_table():
    out = ["| template | build | LEDs | hole pitch | lanes apart | panel |",
           "|---|---|---|---|---|---|"]
    for b in all_builds():
        L = b.layout()
        out.append("| [`%s`](%s) | %s | %d | %.2f mm | %g mm | %s |"
                   % (b.name, b.name, b.title, L.count, L.pitch, L.lane_pitch, _panel(L)))
    return "\n".join(out)


GENERATED = {
    "builds": builds_table,
    "bom common": lambda: common_bom(layout_mod.Layout()),
    "bom strip": strip_bom,
    "bom tht": tht_bom,
    "power": lambda: power_table(layout_mod.Layout()),
    "chain": lambda: chain_table(layout_mod.Layout()),
}
BLOCK = re.compile(r"(<!-- generated: ([a-z ]+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def update_readme(text):
    """text with every generated block (<!-- generated: NAME --> ... <!-- end generated -->)
    made again; ValueError for a block name this tool does not make."""
    def block(m):
        name = m.group(2)
        if name not in GENERATED:
            raise ValueError("unknown generated block %r" % name)
        return m.group(1) + GENERATED[name]() + "\n" + m.group(4)
    return BLOCK.sub(block, text)


def readme_blocks(text):
    """{name: content} of the generated blocks in text."""
    return {m.group(2): m.group(3) for m in BLOCK.finditer(text)}


# --- command line -------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", choices=("default", "strip", "tht"), default="default",
                    help="default: Layout()'s own geometry; strip: an LED strip; tht: "
                         "through-hole LEDs in drilled holes")
    ap.add_argument("--density", type=int, default=144,
                    help="strip: LEDs per metre (%s)" % ", ".join(map(str, sorted(STRIP_WIDTH))))
    ap.add_argument("--strip-width", type=float, default=None,
                    help="strip: its width in mm, when yours is not the usual one")
    ap.add_argument("--led", type=int, choices=sorted(THT), default=5,
                    help="tht: LED diameter in mm")
    ap.add_argument("--all", action="store_true",
                    help="write every build's template into hardware/ and the generated "
                         "tables of hardware/README.md")
    ap.add_argument("--out", default=None, help="the SVG to write (default: hardware/<build>)")
    ap.add_argument("--led-hole", type=float, default=None,
                    help="diameter in mm of the hole over each LED (the build's by default)")
    ap.add_argument("--status-hole", type=float, default=None,
                    help="diameter in mm of the status and games-won LED holes")
    ap.add_argument("--button-hole", type=float, default=BUTTON_HOLE,
                    help="diameter in mm of the +1 buttons' holes")
    ap.add_argument("--no-keypad", action="store_true", help="track only")
    for name in ("lanes", "holes", "row", "group", "games"):
        ap.add_argument("--" + name, type=int, default=None, help="Layout(%s=...)" % name)
    for name in ("pitch", "group_gap", "lane_pitch", "band_gap"):
        ap.add_argument("--" + name.replace("_", "-"), dest=name, type=float, default=None,
                        help="Layout(%s=...) in mm" % name)
    ap.add_argument("--separate-finish", action="store_true", help="one finish hole per lane")
    a = ap.parse_args(argv)
    try:
        a.build_obj = make_build(a)
    except ValueError as e:
        ap.error(str(e))
    if a.out is None:
        a.out = os.path.join(HARDWARE, a.build_obj.name)
    return a


def make_build(a):
    if a.build == "strip":
        return strip_build(a.density, a.strip_width)
    if a.build == "tht":
        return tht_build(a.led)
    return default_build()


def make_layout(a):
    """The build's Layout with the layout options given on the command line."""
    kw = {}
    for name in ("lanes", "holes", "row", "group", "games",
                 "pitch", "group_gap", "lane_pitch", "band_gap"):
        v = getattr(a, name, None)
        if v is not None:
            kw[name] = v
    if getattr(a, "separate_finish", False):
        kw["shared_finish"] = False
    build = getattr(a, "build_obj", None) or default_build()
    return build.layout(**kw)


def write(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def write_all():
    """Every build's template, and hardware/README.md's generated tables."""
    for b in all_builds():
        path = os.path.join(HARDWARE, b.name)
        write(path, build_svg(b))
        print("wrote %s" % os.path.relpath(path))
    with open(README) as f:
        text = f.read()
    new = update_readme(text)
    if new != text:
        write(README, new)
        print("updated %s" % os.path.relpath(README))
    return 0


def main(argv=None):
    a = parse_args(argv)
    if a.all:
        return write_all()
    b = a.build_obj
    L = make_layout(a)
    led = b.led_hole if a.led_hole is None else a.led_hole
    status = b.status_hole if a.status_hole is None else a.status_hole
    write(a.out, svg(L, led, status, keypad=not a.no_keypad, title=b.title,
                     button_hole=a.button_hole, strip_width=b.width))
    w, h, _x, _y = L.size()
    print("wrote %s: %d drill marks, LED field %.0f x %.0f mm, lanes %.1f mm apart"
          % (os.path.relpath(a.out), L.count, w, h, L.lane_pitch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
