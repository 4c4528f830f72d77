"""Print-at-100% drill and panel template (SVG) generated from the board's layout data.

    python tools/drill_template.py [--out hardware/drill_template.svg] [--led-hole 5.0]
                                   [--lanes 2 --holes 120 --row 30 ...]

Every LED of firmware/board/layout.py's Layout (the same object the firmware renders with)
becomes a drill mark at its true position in mm: track holes, start holes, the finish, the
games-won and status LEDs. Below the track: the 4x4 membrane keypad's outline and cable slot,
and the optional 0.96" SSD1306 OLED's window and screw holes. A 100 mm scale bar checks that
the print came out at true scale. Layout parameters (--lanes, --holes, ...) build the same
template for another board; nothing here knows the layout's numbers.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from board import layout as layout_mod  # noqa: E402  (firmware/ is not a package root here)

MARGIN = 12.0  # mm of panel around the outermost hole
# 4x4 membrane keypad (the common 69 x 77 mm one) and its ribbon cable
KEYPAD_W, KEYPAD_H = 69.0, 77.0
CABLE_W, CABLE_H = 22.0, 3.0
# 0.96" SSD1306 module: board 27 x 27 mm, window over the glass, M2 holes 23 mm apart
OLED_BOARD = 27.0
OLED_WIN_W, OLED_WIN_H = 25.0, 14.0
OLED_HOLE_PITCH = 23.0
OLED_HOLE_D = 2.2
FONT = "font-family:sans-serif"


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "hardware", "drill_template.svg"))
    ap.add_argument("--led-hole", type=float, default=5.0,
                    help="diameter in mm of the hole over each LED (5050 WS2812: 5 mm)")
    ap.add_argument("--status-hole", type=float, default=3.0,
                    help="diameter in mm of the status and games-won LED holes")
    ap.add_argument("--no-keypad", action="store_true", help="track only")
    for name in ("lanes", "holes", "row", "group", "games"):
        ap.add_argument("--" + name, type=int, default=None, help="Layout(%s=...)" % name)
    for name in ("pitch", "group_gap", "lane_pitch", "band_gap"):
        ap.add_argument("--" + name.replace("_", "-"), dest=name, type=float, default=None,
                        help="Layout(%s=...) in mm" % name)
    ap.add_argument("--separate-finish", action="store_true", help="one finish hole per lane")
    return ap.parse_args(argv)


def make_layout(a):
    kw = {}
    for name in ("lanes", "holes", "row", "group", "games",
                 "pitch", "group_gap", "lane_pitch", "band_gap"):
        v = getattr(a, name, None)
        if v is not None:
            kw[name] = v
    if getattr(a, "separate_finish", False):
        kw["shared_finish"] = False
    return layout_mod.Layout(**kw)


def svg(L, led_hole=5.0, status_hole=3.0, keypad=True):
    """The template as SVG text, 1 user unit = 1 mm."""
    w, h, x0, y0 = L.size()
    ox = MARGIN - x0  # shift so every mark is inside the panel
    oy = MARGIN - y0 + 8.0  # room for the title
    track_w = w + 2 * MARGIN
    track_h = h + 2 * MARGIN + 8.0
    extra_h = (max(KEYPAD_H, OLED_BOARD) + 2 * MARGIN) if keypad else 0.0
    panel_w = max(track_w, KEYPAD_W + OLED_BOARD + 3 * MARGIN)
    panel_h = track_h + extra_h + 14.0  # + scale bar
    out = []
    add = out.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add('<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" '
        'viewBox="0 0 %.1f %.1f">' % (panel_w, panel_h, panel_w, panel_h))
    add('<title>Cribbage board drill template, %d lanes x %d holes, print at 100%%</title>'
        % (L.lanes, L.holes))
    add('<rect x="0.25" y="0.25" width="%.1f" height="%.1f" fill="white" stroke="black" '
        'stroke-width="0.5"/>' % (panel_w - 0.5, panel_h - 0.5))
    add('<text x="%.1f" y="5.5" style="%s;font-size:3.2px">Drill template: %d lanes x %d '
        'holes, %d LEDs, pitch %.1f mm; LED holes %.1f mm, status LEDs %.1f mm.</text>'
        % (MARGIN, FONT, L.lanes, L.holes, L.count, L.pitch, led_hole, status_hole))
    add('<text x="%.1f" y="9.5" style="%s;font-size:3.2px">Print at 100%% (no fit to page) '
        'and check the 100 mm bar before drilling.</text>' % (MARGIN, FONT))
    for p in range(L.count):
        kind, lane, n = L.what(p)
        x, y = L.xy(p)
        x += ox
        y += oy
        small = kind in (layout_mod.GAMES, layout_mod.TURN, layout_mod.CRIB)
        d = status_hole if small else led_hole
        add('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="none" stroke="black" '
            'stroke-width="0.3"><title>%s lane %d %d, pixel %d</title></circle>'
            % (x, y, d / 2, layout_mod.KIND_NAMES[kind], lane, n, p))
        add('<path d="M%.2f %.2fh1.6M%.2f %.2fv1.6" stroke="black" stroke-width="0.15"/>'
            % (x - 0.8, y, x, y - 0.8))  # centre punch cross
        label = None
        if kind == layout_mod.HOLE and lane == 0 and n % L.group == 0:
            label = str(n)
        elif kind == layout_mod.START and lane == 0:
            label = "start"
        elif kind == layout_mod.FINISH and lane == 0:
            label = "finish"
        elif kind == layout_mod.TURN:
            label = "turn %d" % lane
        elif kind == layout_mod.CRIB:
            label = "crib"
        if label:
            add('<text x="%.2f" y="%.2f" text-anchor="middle" style="%s;font-size:2.2px">%s'
                '</text>' % (x, y - d / 2 - 0.8, FONT, label))
    if keypad:
        ky = track_h + MARGIN / 2
        kx = MARGIN
        add('<g><title>4x4 membrane keypad: outline (adhesive) and cable slot</title>')
        add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
            'stroke-width="0.3" stroke-dasharray="2 1"/>' % (kx, ky, KEYPAD_W, KEYPAD_H))
        add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
            'stroke-width="0.3"/>' % (kx + (KEYPAD_W - CABLE_W) / 2, ky + KEYPAD_H - CABLE_H
                                      - 4.0, CABLE_W, CABLE_H))
        add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">4x4 keypad '
            '%.0f x %.0f mm</text>' % (kx + KEYPAD_W / 2, ky + KEYPAD_H / 2, FONT, KEYPAD_W,
                                       KEYPAD_H))
        add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">dashed: '
            'outline, solid: cable slot</text>' % (kx + KEYPAD_W / 2, ky + KEYPAD_H / 2 + 5,
                                                   FONT))
        add('</g>')
        ox2 = kx + KEYPAD_W + MARGIN
        add('<g><title>0.96 inch SSD1306 OLED: window and M2 screw holes</title>')
        add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
            'stroke-width="0.2" stroke-dasharray="1 1"/>' % (ox2, ky, OLED_BOARD, OLED_BOARD))
        add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black" '
            'stroke-width="0.3"/>' % (ox2 + (OLED_BOARD - OLED_WIN_W) / 2,
                                      ky + (OLED_BOARD - OLED_WIN_H) / 2, OLED_WIN_W,
                                      OLED_WIN_H))
        m = (OLED_BOARD - OLED_HOLE_PITCH) / 2
        for dx in (m, m + OLED_HOLE_PITCH):
            for dy in (m, m + OLED_HOLE_PITCH):
                add('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="none" stroke="black" '
                    'stroke-width="0.3"/>' % (ox2 + dx, ky + dy, OLED_HOLE_D / 2))
        add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:2.5px">OLED '
            '(measure your module)</text>' % (ox2 + OLED_BOARD / 2, ky + OLED_BOARD + 4, FONT))
        add('</g>')
    by = panel_h - 8.0
    add('<g><title>scale check: this bar must measure 100 mm</title>')
    add('<path d="M%.1f %.1fh100M%.1f %.1fv3M%.1f %.1fv3" stroke="black" stroke-width="0.4"/>'
        % (MARGIN, by, MARGIN, by - 1.5, MARGIN + 100, by - 1.5))
    add('<text x="%.1f" y="%.1f" text-anchor="middle" style="%s;font-size:3px">100 mm</text>'
        % (MARGIN + 50, by + 4.5, FONT))
    add('</g>')
    add('</svg>')
    return "\n".join(out) + "\n"


def main(argv=None):
    a = parse_args(argv)
    L = make_layout(a)
    text = svg(L, a.led_hole, a.status_hole, keypad=not a.no_keypad)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write(text)
    w, h, _x, _y = L.size()
    print("wrote %s: %d drill marks, LED field %.0f x %.0f mm"
          % (os.path.relpath(a.out), L.count, w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main())
