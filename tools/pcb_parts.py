"""The LED parts the PCB generator can place (tools/pcb_board.py --led): pin maps, footprints,
the decoupling each datasheet asks for, and how the chain's track runs from one LED to the next.

Pin numbers differ between packages (a wrong map passes DRC and makes a dead board):
  WS2812B-2020 (and SK6812MINI)  1 DOUT, 2 VSS, 3 DIN, 4 VDD
  SK6812MINI-E (reverse mount)   1 VDD, 2 DOUT, 3 VSS, 4 DIN
  WS2812B 5050                   1 VDD, 2 DOUT, 3 VSS, 4 DIN
tools/pcb_check.py matches these names against KiCad's own symbol for the part.

Plain data and geometry (no pcbnew import at module level): the checks in .venv read PIN,
DATASHEET and the footprint numbers too.
"""

import math


class Part:
    """An LED option: key (--led), value, pin map, footprint and its placement rules."""

    key = ""
    value = ""
    mpn = ""
    symbols = ()  # KiCad's symbols with this part's pin names (LED library), first found
    PIN = {}  # name -> pad number
    back = False  # placed on the board's back (reverse mount)
    rot_for_right = 0.0  # footprint rotation that makes data flow to +x
    cap = ("Capacitor_SMD", "C_0402_1005Metric", "100nF")

    def pin(self, name):
        return self.PIN[name]


def _unit(dx, dy):
    n = math.hypot(dx, dy)
    return (dx / n, dy / n) if n else (1.0, 0.0)


def _near(path, centres, own, r, r_own):
    """Does any segment of path pass within r mm of an LED centre (r_own for its own two)?"""
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        n2 = dx * dx + dy * dy
        for i, (cx, cy) in enumerate(centres):
            t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((cx - x0) * dx + (cy - y0) * dy) / n2))
            px, py = x0 + t * dx, y0 + t * dy
            lim = r_own if i in own else r
            if (px - cx) ** 2 + (py - cy) ** 2 < lim * lim:
                return True
    return False


def hop_path(centres, p, dout, din, va, vb, escape, clear):
    """A track from LED p's DOUT to LED p+1's DIN: a dogleg when the two LEDs sit in line along
    the data's direction, else a Z through the channel midway between them (whichever of the
    two Zs keeps `clear` mm from every other LED)."""
    pa, pb = centres[p], centres[p + 1]
    d = _unit(pb[0] - pa[0], pb[1] - pa[1])
    if va == vb and abs(d[0] * va[0] + d[1] * va[1]) > 0.999:
        # along: a (projection on va), across: c
        a1 = dout[0] * va[0] + dout[1] * va[1]
        n = (-va[1], va[0])
        c1 = dout[0] * n[0] + dout[1] * n[1]
        c2 = din[0] * n[0] + din[1] * n[1]

        def at(a, c):
            return (a * va[0] + c * n[0], a * va[1] + c * n[1])
        k = a1 + escape
        return [dout, at(k, c1), at(k + abs(c2 - c1), c2), din]
    p1 = (dout[0] + va[0] * escape, dout[1] + va[1] * escape)
    p4 = (din[0] - vb[0] * escape, din[1] - vb[1] * escape)
    yc = (pa[1] + pb[1]) / 2
    xc = (pa[0] + pb[0]) / 2
    options = []
    if abs(p1[0] - p4[0]) < 1e-6 or abs(p1[1] - p4[1]) < 1e-6:
        options.append([dout, p1, p4, din])
    options.append([dout, p1, (p1[0], yc), (p4[0], yc), p4, din])
    options.append([dout, p1, (xc, p1[1]), (xc, p4[1]), p4, din])
    for path in options:
        if not _near(path[1:-1], centres, (p, p + 1), clear, 1.5):
            return path
    raise ValueError("no clear track from LED %d to LED %d" % (p, p + 1))


class WS2812B2020(Part):
    """WS2812B-2020: 2.0 x 2.0 mm top-mount, 4 pads; KiCad's own footprint."""

    key = "2020"
    value = "WS2812B-2020"
    mpn = "Worldsemi WS2812B-2020"
    # KiCad 6 has no WS2812B-2020 symbol (7+ has, tried first); its SK6812MINI has the same
    # pins (the WS2812B-2020 datasheet's pin table: 1 DOUT, 2 VSS, 3 DIN, 4 VDD)
    symbols = ("WS2812B-2020", "SK6812MINI")
    PIN = {"DOUT": "1", "VSS": "2", "DIN": "3", "VDD": "4"}
    rot_for_right = 180.0  # at 0 degrees DIN is on the right: data flows to -x
    footprint = ("LED_SMD", "LED_WS2812B-2020_PLCC4_2.0x2.0mm")
    # datasheet (Worldsemi WS2812B-2020 V1.3): body 2.0 x 2.0 mm, pads 0.7 x 0.7 mm (here),
    # pad centres 1.83 mm apart across the body and 1.10 mm along it
    DATASHEET = {"pad_pitch_x": 1.83, "pad_pitch_y": 1.10, "body": (2.0, 2.0)}

    def make(self, m):
        from pcb_board import load
        return load(*self.footprint)

    def decouple(self, m, L, p, fp, v):
        """100 nF beside each LED (the datasheet's application circuit), VSS into the ground
        plane through a via on the side away from the capacitor."""
        from pcb_board import pad_at
        cx, cy = L.xy(p)
        vss = pad_at(fp, self.pin("VSS"))
        n = (-v[1], v[0])  # across the data's direction
        side = 1.0 if (vss[0] - cx) * n[0] + (vss[1] - cy) * n[1] > 0 else -1.0
        m.to_ground(vss, (vss[0] + n[0] * side * 1.45, vss[1] + n[1] * side * 1.45))
        at = (cx - n[0] * side * 2.3, cy - n[1] * side * 2.3)
        rot = 0.0 if abs(v[0]) > abs(v[1]) else 90.0
        c = m.footprint(self.cap[0], self.cap[1], "C%d" % (p + 1), self.cap[2], at, rot)
        m.connect(c, {"1": "+5V", "2": "GND"})
        c.Reference().SetVisible(False)
        g = pad_at(c, "2")
        m.to_ground(g, (g[0] - n[0] * side * 0.95, g[1] - n[1] * side * 0.95))

    def hop(self, L, p, dout, din, va, vb, pa, pb):
        if getattr(self, "_centres_of", None) is not L:
            self._centres = [L.xy(i) for i in range(L.count)]
            self._centres_of = L
        return hop_path(self._centres, p, dout, din, va, vb, 0.9, 3.0)


PARTS = {cls.key: cls() for cls in (WS2812B2020,)}
