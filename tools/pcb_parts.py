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


class Obstacles:
    """Copper and board edges already on the board, as boxes on a 1 mm grid, so a new track
    can be tried against them: (x0, y0, x1, y1, net) in layout mm, net "" for an edge."""

    def __init__(self):
        self.grid = {}

    def add(self, box):
        x0, y0, x1, y1, _net = box
        for i in range(math.floor(x0) - 1, math.floor(x1) + 2):
            for j in range(math.floor(y0) - 1, math.floor(y1) + 2):
                self.grid.setdefault((i, j), []).append(box)

    def add_path(self, path, net, width):
        for x, y in _samples(path):
            self.add((x - width / 2, y - width / 2, x + width / 2, y + width / 2, net))

    def clear(self, path, net, margin, edge_margin):
        """Does path keep margin mm from every box of another net (edge_margin from edges)?"""
        for x, y in _samples(path):
            for x0, y0, x1, y1, other in self.grid.get((math.floor(x), math.floor(y)), ()):
                if other == net:
                    continue
                lim = edge_margin if other == "" else margin
                dx = max(x0 - x, 0.0, x - x1)
                dy = max(y0 - y, 0.0, y - y1)
                if dx * dx + dy * dy < lim * lim:
                    return False
        return True


def _samples(path, step=0.1):
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) / step))
        for k in range(n + 1):
            yield (x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n)


def _between(a, b, step=0.5):
    lo, hi = min(a, b), max(a, b)
    return [lo + k * step for k in range(int((hi - lo) / step) + 1)]


OFFSETS = (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0)


def hop_path(obst, net, dout, din, va, vb, pa, pb, escape, escape_in=None, width=0.25,
             margin=0.2, edge=0.3, far=None):
    """A track from one LED's DOUT to the next one's DIN: a dogleg when the two sit in line
    along the data's direction, else a Z through a channel between them (midway first, then
    further off), the first that clears every other net's copper and the board's edges.

    Returns [path] on the LED layer; with `far` (the other layer's Obstacles) a hop that is no
    dogleg goes down a via at each end and runs on the other layer: [escape, far path, escape],
    so the LED layer's pour is only cut by the lines of LEDs themselves."""
    d = _unit(pb[0] - pa[0], pb[1] - pa[1])
    options = []
    m = margin + width / 2 + 0.02
    em = edge + width / 2 + 0.02
    if va == vb and abs(d[0] * va[0] + d[1] * va[1]) > 0.999:
        # along: a (projection on va), across: c
        a1 = dout[0] * va[0] + dout[1] * va[1]
        a2 = din[0] * va[0] + din[1] * va[1]
        n = (-va[1], va[0])
        c1 = dout[0] * n[0] + dout[1] * n[1]
        c2 = din[0] * n[0] + din[1] * n[1]

        def at(a, c):
            return (a * va[0] + c * n[0], a * va[1] + c * n[1])
        k = a1 + escape
        k2 = k + abs(c2 - c1) if escape_in is None else a2 - escape_in
        options.append([dout, at(k, c1), at(k2, c2), din])
    p1 = (dout[0] + va[0] * escape, dout[1] + va[1] * escape)
    p4 = (din[0] - vb[0] * escape, din[1] - vb[1] * escape)
    if far is not None and not options:
        vm = margin + 0.3 + 0.02  # a via's radius
        if not (obst.clear([dout, p1], net, m, em) and obst.clear([p4, din], net, m, em)
                and obst.clear([p1], net, vm, edge + 0.32) and obst.clear([p4], net, vm,
                                                                          edge + 0.32)):
            raise ValueError("no room for the vias of %s" % net)
        obst.add_path([dout, p1], net, width)
        obst.add_path([p4, din], net, width)
        for v in (p1, p4):
            obst.add((v[0] - 0.3, v[1] - 0.3, v[0] + 0.3, v[1] + 0.3, net))
        mid = hop_path(far, net, p1, p4, va, vb, pa, pb, 0.0, None, width, margin, edge)[0]
        for v in (p1, p4):
            far.add((v[0] - 0.3, v[1] - 0.3, v[0] + 0.3, v[1] + 0.3, net))
        return [[dout, p1], mid, [p4, din]]
    if abs(p1[0] - p4[0]) < 1e-6 or abs(p1[1] - p4[1]) < 1e-6:
        options.append([dout, p1, p4, din])
    for e1, e2 in ((0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0), (2.0, 2.0)):
        q1 = (p1[0] + va[0] * e1, p1[1] + va[1] * e1)
        q4 = (p4[0] - vb[0] * e2, p4[1] - vb[1] * e2)
        yc = (pa[1] + pb[1]) / 2
        xc = (pa[0] + pb[0]) / 2
        for off in OFFSETS:
            y, x = yc + off, xc + off
            options.append([dout, p1, q1, (q1[0], y), (q4[0], y), q4, p4, din])
            options.append([dout, p1, q1, (x, q1[1]), (x, q4[1]), q4, p4, din])
        for y in _between(q1[1], q4[1]):
            options.append([dout, p1, q1, (q1[0], y), (q4[0], y), q4, p4, din])
        for x in _between(q1[0], q4[0]):
            options.append([dout, p1, q1, (x, q1[1]), (x, q4[1]), q4, p4, din])
    for path in options:
        if obst.clear(path, net, m, em):
            obst.add_path(path, net, width)
            return [path]
    raise ValueError("no clear track for %s" % net)


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

    def hop(self, obst, net, dout, din, va, vb, pa, pb, far=None):
        return hop_path(obst, net, dout, din, va, vb, pa, pb, 0.9)


def _local(centre, u, a, c):
    """A point a mm along the data's direction u and c mm across it (n = u turned +90)."""
    return (centre[0] + a * u[0] - c * u[1], centre[1] + a * u[1] + c * u[0])


class SK6812MiniE(Part):
    """SK6812MINI-E: reverse mount. The LED sits on the board's back with its body through a
    cutout and shines up through the board, so the top is bare copper and solder mask, flat
    under a wooden top (the holes drilled over the cutouts light up). Not in KiCad's library:
    the footprint is written here from the datasheet's dimensions (DATASHEET) and
    host_tests/test_pcb.py checks it against them."""

    key = "mini-e"
    value = "SK6812MINI-E"
    mpn = "Opsco SK6812MINI-E"
    # the datasheet's pin table: 1 VDD, 2 DOUT, 3 VSS (GND), 4 DIN, the WS2812B 5050's numbers
    symbols = ("SK6812MINI-E", "WS2812B")
    PIN = {"VDD": "1", "DOUT": "2", "VSS": "3", "DIN": "4"}
    back = True
    rot_for_right = 270.0  # the leads across the line: 7 mm pitch leaves no room along it
    # Opsco SK6812MINI-E datasheet: body 3.20 x 2.80 x 1.78 mm, two leads each side 1.40 mm
    # apart (centres), reaching 2.94 mm from the centre along the body's long side.
    DATASHEET = {"body": (3.20, 2.80), "lead_pitch": 1.40, "lead_reach": 2.94}
    PAD_SIZE = (1.4, 1.0)  # along the leads, across
    PAD_X = 2.80  # pad centres from the body's centre: 2.1-3.5 mm, over the lead ends
    # seen from the top (the lens, up through the cutout): DIN and GND on one end, DOUT and
    # VDD on the other, so data runs from -x to +x at 0 degrees
    PADS = {"4": (-2.80, 0.70), "3": (-2.80, -0.70), "2": (2.80, -0.70), "1": (2.80, 0.70)}
    CUTOUT = (3.50, 3.10)  # the body plus 0.15 mm all round

    def make(self, m):
        import pcbnew
        fp = pcbnew.FOOTPRINT(m.board)
        fp.SetFPID(pcbnew.LIB_ID("cribbage", "LED_SK6812MINI-E_ReverseMount"))
        fp.SetAttributes(pcbnew.FP_SMD)
        layers = pcbnew.LSET()  # drawn as a front footprint, then flipped onto the back
        for layer in (pcbnew.F_Cu, pcbnew.F_Paste, pcbnew.F_Mask):
            layers.AddLayer(layer)
        for num, (x, y) in self.PADS.items():
            pad = pcbnew.PAD(fp)
            pad.SetNumber(num)
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetShape(pcbnew.PAD_SHAPE_RECT)
            pad.SetSize(pcbnew.wxSizeMM(*self.PAD_SIZE))
            pad.SetLayerSet(layers)
            # flipping mirrors y: give the mirror, get the top view above
            pad.SetPos0(pcbnew.wxPointMM(x, -y))
            pad.SetPosition(pcbnew.wxPointMM(x, -y))
            fp.Add(pad)
        w, h = self.CUTOUT[0] / 2, self.CUTOUT[1] / 2
        c = [(-w, -h), (w, -h), (w, h), (-w, h), (-w, -h)]
        for (x0, y0), (x1, y1) in zip(c, c[1:]):
            s = pcbnew.FP_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetStart0(pcbnew.wxPointMM(x0, y0))
            s.SetEnd0(pcbnew.wxPointMM(x1, y1))
            s.SetWidth(pcbnew.FromMM(0.1))
            s.SetDrawCoord()
            fp.Add(s)
        fp.Value().SetLayer(pcbnew.F_Fab)
        return fp

    def decouple(self, m, L, p, fp, v):
        """100 nF beside each LED on the back, on the GND end downstream (the incoming and
        outgoing tracks leave the other corners free); both GND pads down a via each."""
        from pcb_board import pad_at
        centre = L.xy(p)
        vss = pad_at(fp, self.pin("VSS"))
        m.to_ground(vss, _local(centre, v, 0.7, -4.1))
        at = _local(centre, v, 2.6, -2.9)
        rot = 0.0 if abs(v[0]) > abs(v[1]) else 90.0
        c = m.footprint(self.cap[0], self.cap[1], "C%d" % (p + 1), self.cap[2], at, rot,
                        back=True)
        c.Reference().SetVisible(False)
        m.connect(c, {"1": "+5V", "2": "GND"})
        g = pad_at(c, "2")
        a = (g[0] - centre[0]) * v[0] + (g[1] - centre[1]) * v[1]
        m.to_ground(g, _local(centre, v, a, -4.1))

    def hop(self, obst, net, dout, din, va, vb, pa, pb, far=None):
        return hop_path(obst, net, dout, din, va, vb, pa, pb, 1.5, 1.5, far=far)


PARTS = {cls.key: cls() for cls in (WS2812B2020, SK6812MiniE)}
