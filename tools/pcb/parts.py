"""The LED parts the PCB generator can place (pcb/generate.py --led): pin maps, footprints,
the decoupling each datasheet asks for, and how the chain's track runs from one LED to the next.

Pin numbers differ between packages (a wrong map passes DRC and makes a dead board):
  WS2812B-2020 (and SK6812MINI)  1 DOUT, 2 VSS, 3 DIN, 4 VDD
  SK6812MINI-E (reverse mount)   1 VDD, 2 DOUT, 3 VSS, 4 DIN
  WS2812B 5050                   1 VDD, 2 DOUT, 3 VSS, 4 DIN
pcb/check.py matches these names against KiCad's own symbol for the part.

Plain data and geometry, no pcbnew: the checks in .venv read PIN, DATASHEET and the footprint
numbers too, and the generator (pcb/generate.py) builds the footprints from them. The board
under construction is passed in (`m`: pcb/kicad.py's Maker), never imported.
"""

from pcb.route import hop_path

LED_RAIL = "+5V_LED"  # the LEDs' switched 5 V (the high-side switch's drain): their pour


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
    footprint = None  # (library, name) of KiCad's own footprint, or None: built from PADS
    SILK_W = 0.15  # every silkscreen stroke the project draws, mm (JLCPCB prints 0.15 reliably)
    PIN1_DOT = None  # (x, y) of a pin 1 dot of the project's in the footprint's frame, or None

    def pin(self, name):
        return self.PIN[name]


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
    # the library's pin 1 tick is 0.1 mm from pad 1 (a fab trims silkscreen within 0.15 mm
    # of a pad: pcb/kicad.py's fit_silk drops it), so a dot of the project's beside pad 1's
    # outer side, clear of every pad by 0.28 mm (pad 1 at (-0.915, -0.55), 0.7 mm square)
    PIN1_DOT = (-1.75, -0.85)
    PADS = {"1": (-0.915, -0.55), "2": (-0.915, 0.55), "3": (0.915, 0.55), "4": (0.915, -0.55)}
    PAD_SIZE = (0.7, 0.7)

    def decouple(self, m, L, p, fp, v):
        """100 nF beside each LED (the datasheet's application circuit), VSS into the ground
        plane through a via on the side away from the capacitor."""
        pad_at = m.pad_at
        cx, cy = L.xy(p)
        vss = pad_at(fp, self.pin("VSS"))
        n = (-v[1], v[0])  # across the data's direction
        side = 1.0 if (vss[0] - cx) * n[0] + (vss[1] - cy) * n[1] > 0 else -1.0
        m.to_ground(vss, (vss[0] + n[0] * side * 1.45, vss[1] + n[1] * side * 1.45))
        at = (cx - n[0] * side * 2.3, cy - n[1] * side * 2.3)
        rot = 0.0 if abs(v[0]) > abs(v[1]) else 90.0
        c = m.footprint(self.cap[0], self.cap[1], "C%d" % (p + 1), self.cap[2], at, rot)
        m.connect(c, {"1": LED_RAIL, "2": "GND"})
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
    PAD_SIZE = (1.3, 1.0)  # along the leads, across
    PAD_X = 2.82  # pad centres from the body's centre: 2.17-3.47 mm, over the lead ends
    # seen from the top (the lens, up through the cutout): DIN and GND on one end, DOUT and
    # VDD on the other, so data runs from -x to +x at 0 degrees
    PADS = {"4": (-PAD_X, 0.70), "3": (-PAD_X, -0.70), "2": (PAD_X, -0.70), "1": (PAD_X, 0.70)}
    # the body plus 0.25 mm all round: a fab mills a cutout to +-0.2 mm (MILL_TOL), so the
    # body still drops in at the tolerance's worst, and the pads keep 0.3 mm from the edge
    CUTOUT = (3.70, 3.30)
    MILL_TOL = 0.2
    # a router leaves a radius in every inner corner (its tool's: 0.4-1.0 mm at common fabs),
    # and a sharp-cornered body in a cutout milled MILL_TOL small fits only under a 0.17 mm
    # radius: so each corner is drilled first (an unplated hole, drilled to +-0.1 mm,
    # DRILL_TOL), tangent to both of the corner's edges; then the body fits the cutout milled
    # MILL_TOL small with any corner radius up to ROUTER_R (pcb/check.py's cutout_fits), and
    # the holes keep 0.3 mm from the pads
    RELIEF_D = 1.0
    RELIEFS = ((-1.35, -1.15), (-1.35, 1.15), (1.35, -1.15), (1.35, 1.15))  # the centres
    DRILL_TOL = 0.1
    ROUTER_R = 0.9
    # pin 1 (VDD) is marked on the back's silkscreen (the pads alone are symmetric under
    # 180 degrees: a LED placed backwards gets 5 V on its ground): a dot beyond pad 1's outer
    # corner, and a bar along pad 1's outer side; clear of every pad by 0.2 mm or more
    PIN1_DOT = (4.05, 1.35)  # (x, y), radius 0.2 mm
    PIN1_BAR = ((3.75, 0.2), (3.75, 1.2))
    # the courtyard: the pads plus 0.25 mm, and the cutout (the body) plus 0.25 mm, as one
    # cross-shaped outline (a rectangle round both would swallow the 100 nF beside each LED)
    COURTYARD = ((-3.72, -1.45), (-2.10, -1.45), (-2.10, -1.90), (2.10, -1.90), (2.10, -1.45),
                 (3.72, -1.45), (3.72, 1.45), (2.10, 1.45), (2.10, 1.90), (-2.10, 1.90),
                 (-2.10, 1.45), (-3.72, 1.45))

    def decouple(self, m, L, p, fp, v):
        """100 nF beside each LED on the back, on the GND end downstream (the incoming and
        outgoing tracks leave the other corners free); both GND pads down a via each."""
        pad_at = m.pad_at
        centre = L.xy(p)
        vss = pad_at(fp, self.pin("VSS"))
        m.to_ground(vss, _local(centre, v, 0.7, -4.1))
        at = _local(centre, v, 2.6, -2.9)
        rot = 0.0 if abs(v[0]) > abs(v[1]) else 90.0
        c = m.footprint(self.cap[0], self.cap[1], "C%d" % (p + 1), self.cap[2], at, rot,
                        back=True)
        c.Reference().SetVisible(False)
        m.connect(c, {"1": LED_RAIL, "2": "GND"})
        g = pad_at(c, "2")
        a = (g[0] - centre[0]) * v[0] + (g[1] - centre[1]) * v[1]
        m.to_ground(g, _local(centre, v, a, -4.1))

    def hop(self, obst, net, dout, din, va, vb, pa, pb, far=None):
        return hop_path(obst, net, dout, din, va, vb, pa, pb, 1.5, 1.5, far=far)


PARTS = {cls.key: cls() for cls in (WS2812B2020, SK6812MiniE)}
