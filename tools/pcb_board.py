"""The peg track as a printed circuit board, generated from the firmware's layout (issue 25).

    /usr/bin/python3 tools/pcb_board.py --led 2020 --out hardware/pcb/ws2812b-2020
    /usr/bin/python3 tools/pcb_board.py --led mini-e --out hardware/pcb/sk6812mini-e

Runs under the system Python that has KiCad 6's `pcbnew` module (Debian 12: `apt-get install
kicad kicad-footprints`), not in .venv: `make pcb` and host_tests/test_pcb.py call it as a
subprocess. It writes into --out: the KiCad board, the Gerbers and Excellon drill files (zipped,
as a fabrication house takes them), the DRC report, and board.json (what it placed and the
copper figures) for tools/pcb_check.py, which reads everything back and checks it in .venv.

Every LED sits at firmware/board/layout.py's Layout().xy(pixel) (+ a fixed offset), the chain
in pixel order: the same positions and order as the renderer, the simulator and the drill
template. The LED parts and their pin maps are in tools/pcb_parts.py; nothing here knows a rule
of cribbage, only where the layout puts each LED.
"""

import argparse
import json
import math
import os
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if not os.access(os.environ.get("HOME") or "/nonexistent", os.W_OK):
    import tempfile
    os.environ["HOME"] = tempfile.mkdtemp(prefix="kicad-home-")  # pcbnew writes settings
import hostenv  # noqa: E402, F401  (firmware/ on sys.path)

import pcb_parts  # noqa: E402
from board import geometry, layout as layout_mod  # noqa: E402
from boards import pico  # noqa: E402  (only its pin constants are read)
from wiring_diagram import PICO_PHYSICAL  # noqa: E402

import pcbnew  # noqa: E402  (KiCad 6's Python module: the system python3 only)

FP_LIB = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
NAME = "cribbage-track"
# Board frame, in layout mm (the layout's origin is the top-left track hole): the LED field runs
# x -10..228, y -14..78; the controller strip (Pico, level shifter, headers, power) sits above.
LEFT, RIGHT, TOP, BOTTOM = -18.0, 236.0, -52.0, 86.0
OX, OY = 40.0, 70.0  # where the layout's origin lands on KiCad's page (positions stay > 0)
TRACK_W = 0.25  # signal tracks, mm
POWER_W = 0.5  # VSYS
VIA_D, VIA_DRILL = 0.6, 0.3
CLEARANCE = 0.2
MOUNT_HOLES = ((-14.0, -16.0), (231.0, -47.0), (131.0, -47.0), (-13.0, 81.0), (231.0, 81.0))
# Pico: USB end at the board's left edge; header rows 17.78 mm apart, pins 2.54 mm apart
PICO_X0 = LEFT + (51.0 - 19 * 2.54) / 2  # pin 1 (and pin 40) column
PICO_YB = -27.0  # the row of pins 1-20 (nearer the track)
PICO_YT = PICO_YB - 17.78  # the row of pins 40-21
U1_AT = (42.0, -34.5)
HDR_Y = -21.5  # keypad and +1 button headers
DATA_Y = -19.3  # the data line's corridor to LED 0


def mm(v):
    return pcbnew.FromMM(v)


def pt(x, y):
    """A layout point (mm) on the board."""
    return pcbnew.wxPointMM(OX + x, OY + y)


def unpt(p):
    return (pcbnew.ToMM(p.x) - OX, pcbnew.ToMM(p.y) - OY)


_LOADED = {}


def load(lib, name):
    """A fresh copy of a library footprint (each library is read once)."""
    if (lib, name) not in _LOADED:
        fp = pcbnew.FootprintLoad(os.path.join(FP_LIB, lib + ".pretty"), name)
        if fp is None:
            raise SystemExit("no footprint %s:%s in %s" % (lib, name, FP_LIB))
        fp.SetFPID(pcbnew.LIB_ID(lib, name))
        _LOADED[lib, name] = fp
    return pcbnew.FOOTPRINT(_LOADED[lib, name])


class Maker:
    """The board under construction: nets, parts, tracks, vias."""

    def __init__(self, path, part):
        self.board = pcbnew.NewBoard(path)
        self.board.SetFileName(path)  # (the Gerbers are named after it)
        self.part = part
        self.led_layer = pcbnew.B_Cu if part.back else pcbnew.F_Cu
        self.far_layer = pcbnew.F_Cu if part.back else pcbnew.B_Cu
        self.nets = {}
        self.vias = 0
        self.refs = {}
        ds = self.board.GetDesignSettings()
        nc = ds.GetNetClasses().GetDefault()
        nc.SetClearance(mm(CLEARANCE))
        nc.SetTrackWidth(mm(TRACK_W))
        nc.SetViaDiameter(mm(VIA_D))
        nc.SetViaDrill(mm(VIA_DRILL))
        ds.m_CopperEdgeClearance = mm(0.3)
        ds.m_TrackMinWidth = mm(0.2)
        ds.m_ViasMinSize = mm(VIA_D)
        ds.m_MinThroughDrill = mm(VIA_DRILL)

    def net(self, name):
        if name not in self.nets:
            n = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(n)
            self.nets[name] = n
        return self.nets[name]

    def footprint(self, lib, name, ref, value, at, rot=0.0, back=False):
        return self.place(load(lib, name), ref, value, at, rot, back)

    def place(self, fp, ref, value, at, rot=0.0, back=False):
        fp.SetReference(ref)
        fp.SetValue(value)
        self.board.Add(fp)
        if back:
            fp.Flip(fp.GetPosition(), False)
        fp.SetPosition(pt(*at))
        fp.SetOrientationDegrees(rot)
        self.refs[ref] = fp
        return fp

    def connect(self, fp, pins):
        """pins: {pad number: net name}."""
        for pad in fp.Pads():
            if pad.GetNumber() in pins:
                pad.SetNet(self.net(pins[pad.GetNumber()]))

    def track(self, points, net, layer=None, width=TRACK_W):
        layer = self.led_layer if layer is None else layer
        n = self.net(net)
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            if abs(x0 - x1) < 1e-6 and abs(y0 - y1) < 1e-6:
                continue
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(pt(x0, y0))
            t.SetEnd(pt(x1, y1))
            t.SetWidth(mm(width))
            t.SetLayer(layer)
            t.SetNet(n)
            self.board.Add(t)

    def via(self, at, net):
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pt(*at))
        v.SetWidth(mm(VIA_D))
        v.SetDrill(mm(VIA_DRILL))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetNet(self.net(net))
        self.board.Add(v)
        self.vias += 1

    def to_ground(self, pad_at, via_at, layer=None):
        """An SMD pad on GND: a short track to a via into the ground plane."""
        self.track([pad_at, via_at], "GND", layer)
        self.via(via_at, "GND")

    def line(self, a, b, layer=pcbnew.Edge_Cuts, width=0.1):
        s = pcbnew.PCB_SHAPE(self.board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(pt(*a))
        s.SetEnd(pt(*b))
        s.SetLayer(layer)
        s.SetWidth(mm(width))
        self.board.Add(s)

    def rect(self, x0, y0, x1, y1, layer=pcbnew.Edge_Cuts, width=0.1):
        c = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        for a, b in zip(c, c[1:]):
            self.line(a, b, layer, width)

    def text(self, s, at, size=1.5, layer=None):
        t = pcbnew.PCB_TEXT(self.board)
        t.SetText(s)
        t.SetPosition(pt(*at))
        t.SetTextSize(pcbnew.wxSizeMM(size, size))
        t.SetTextThickness(mm(size * 0.15))
        t.SetLayer(pcbnew.F_SilkS if layer is None else layer)
        self.board.Add(t)

    def zone(self, net, layer, priority=0):
        z = pcbnew.ZONE(self.board)
        z.SetLayer(layer)
        z.SetNet(self.net(net))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL)
        z.SetMinThickness(mm(0.25))
        z.SetLocalClearance(mm(0.3))
        z.SetPriority(priority)
        o = z.Outline()
        o.NewOutline()
        for x, y in ((LEFT, TOP), (RIGHT, TOP), (RIGHT, BOTTOM), (LEFT, BOTTOM)):
            p = pt(x, y)
            o.Append(p.x, p.y)
        self.board.Add(z)
        return z


def pad_at(fp, number):
    for pad in fp.Pads():
        if pad.GetNumber() == number:
            return unpt(pad.GetPosition())
    raise KeyError("%s has no pad %s" % (fp.GetReference(), number))


# --- the LED field --------------------------------------------------------------------------

def run_of(L, p):
    """Which run of neighbouring LEDs pixel p is in: a lane's status LEDs, the start holes, a
    track line, the finish (the drill template's runs)."""
    kind, lane, n = L.what(p)
    if kind in (geometry.TURN, geometry.CRIB, geometry.GAMES):
        return ("status", lane)
    if kind == geometry.HOLE:
        return ("line", (n - 1) // L.row, lane)
    return (kind,)


def flow(L, p):
    """The unit direction the data runs through LED p: its run's, first LED to last."""
    key = run_of(L, p)
    first = last = p
    while first > 0 and run_of(L, first - 1) == key:
        first -= 1
    while last + 1 < L.count and run_of(L, last + 1) == key:
        last += 1
    if first == last:  # a lone LED (the finish): the way the data arrives, on the axis
        (x0, y0), (x1, y1) = L.xy(max(p - 1, 0)), L.xy(p)
        if abs(x1 - x0) >= abs(y1 - y0):
            return (1.0, 0.0) if x1 >= x0 else (-1.0, 0.0)
        return (0.0, 1.0) if y1 >= y0 else (0.0, -1.0)
    (x0, y0), (x1, y1) = L.xy(first), L.xy(last)
    n = math.hypot(x1 - x0, y1 - y0)
    return ((x1 - x0) / n, (y1 - y0) / n)


def rotation(v):
    """Footprint rotation (degrees) for data flowing along unit vector v."""
    ang = math.degrees(math.atan2(-v[1], v[0]))  # screen y is down: CCW positive
    return round(ang / 90.0) * 90.0 % 360.0


def chain_net(p):
    """The net from LED p's DOUT to LED p + 1's DIN."""
    return "DATA_%d_%d" % (p, p + 1)


def led_field(m, L):
    """Every LED at its layout position, its decoupling capacitor and ground vias."""
    part = m.part
    leds = []
    for p in range(L.count):
        x, y = L.xy(p)
        v = flow(L, p)
        rot = (rotation(v) + part.rot_for_right) % 360.0
        fp = part.make(m)
        m.place(fp, "D%d" % (p + 1), part.value, (x, y), rot, part.back)
        fp.Reference().SetVisible(False)
        din = "LED_DIN" if p == 0 else chain_net(p - 1)
        dout = chain_net(p) if p + 1 < L.count else "LED_END"
        m.connect(fp, {part.pin("VDD"): "+5V", part.pin("VSS"): "GND", part.pin("DIN"): din,
                       part.pin("DOUT"): dout})
        leds.append((p, fp, v))
    for p, fp, v in leds:
        part.decouple(m, L, p, fp, v)
    return leds


def obstacles(m, layer):
    """Every pad, via, track and board edge on a copper layer so far (pcb_parts.Obstacles)."""
    obst = pcb_parts.Obstacles()
    for fp in m.board.GetFootprints():
        for pad in fp.Pads():
            if pad.IsOnLayer(layer):
                obst.add(_box(pad.GetBoundingBox(), pad.GetNetname()))
        for item in fp.GraphicalItems():
            if item.GetLayer() == pcbnew.Edge_Cuts:
                obst.add(_box(item.GetBoundingBox(), ""))
    for t in m.board.GetTracks():
        if t.IsOnLayer(layer):
            obst.add(_box(t.GetBoundingBox(), t.GetNetname()))
    return obst


def _box(r, net):
    x0, y0 = pcbnew.ToMM(r.GetX()) - OX, pcbnew.ToMM(r.GetY()) - OY
    return (x0, y0, x0 + pcbnew.ToMM(r.GetWidth()), y0 + pcbnew.ToMM(r.GetHeight()), net)


def chain(m, L, leds):
    """DOUT of each LED to DIN of the next, in pixel order."""
    part = m.part
    obst = obstacles(m, m.led_layer)
    far = obstacles(m, m.far_layer) if part.back else None
    for p in range(L.count - 1):
        a, b = leds[p][1], leds[p + 1][1]
        va, vb = leds[p][2], leds[p + 1][2]
        paths = part.hop(obst, chain_net(p), pad_at(a, part.pin("DOUT")),
                         pad_at(b, part.pin("DIN")), va, vb, L.xy(p), L.xy(p + 1), far)
        if len(paths) == 1:
            m.track(paths[0], chain_net(p))
        else:  # down a via, along the other layer, up a via
            m.track(paths[0], chain_net(p))
            m.via(paths[1][0], chain_net(p))
            m.track(paths[1], chain_net(p), m.far_layer)
            m.via(paths[1][-1], chain_net(p))
            m.track(paths[2], chain_net(p))


# --- the controller strip -------------------------------------------------------------------

def pico_pin_at(n):
    """Where the Pico's pin n sits (USB to the left: pins 1-20 along the lower row)."""
    if n <= 20:
        return (PICO_X0 + (n - 1) * 2.54, PICO_YB)
    return (PICO_X0 + (40 - n) * 2.54, PICO_YT)


def pico_footprint(m):
    """Raspberry Pi Pico / Pico W as two 1x20 rows of 1.0 mm holes, 17.78 mm apart (KiCad 6
    has no Pico footprint; the Pico datasheet's pinout and 2.54 mm pitch)."""
    fp = pcbnew.FOOTPRINT(m.board)
    fp.SetFPID(pcbnew.LIB_ID("cribbage", "RaspberryPi_Pico_2x20_P2.54mm"))
    fp.SetAttributes(pcbnew.FP_THROUGH_HOLE)
    fp.SetPosition(pt(0, 0))
    for n in range(1, 41):
        pad = pcbnew.PAD(fp)
        pad.SetNumber(str(n))
        pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if n == 1 else pcbnew.PAD_SHAPE_CIRCLE)
        pad.SetSize(pcbnew.wxSizeMM(1.7, 1.7))
        pad.SetDrillSize(pcbnew.wxSizeMM(1.0, 1.0))
        pad.SetLayerSet(pad.PTHMask())
        x, y = pico_pin_at(n)
        pad.SetPosition(pt(x, y))
        pad.SetPos0(pt(x, y) - pt(0, 0))
        fp.Add(pad)
    return fp


def controller(m):
    """Pico headers, 74AHCT125 level shifter, 330 ohm, 1N5817, power, keypad/button/OLED
    headers, from firmware/boards/pico.py's pins."""
    gp = {pico.LED_PIN: "LED_3V3"}
    for i, g in enumerate(pico.ROWS):
        gp[g] = "ROW%d" % (i + 1)
    for i, g in enumerate(pico.COLS):
        gp[g] = "COL%d" % (i + 1)
    for i, g in enumerate(pico.BUTTONS):
        gp[g] = "BTN%d" % (i + 1)
    gp[pico.I2C[1]] = "SDA"
    gp[pico.I2C[2]] = "SCL"
    pins = {str(PICO_PHYSICAL[g]): n for g, n in gp.items()}
    pins.update({str(n): "GND" for n in (3, 8, 13, 18, 23, 28, 33, 38)})
    pins.update({"39": "VSYS", "36": "+3V3"})
    u = m.place(pico_footprint(m), "U2", "Raspberry Pi Pico or Pico W (on 1x20 sockets)",
                (0, 0))
    m.connect(u, pins)
    cx = PICO_X0 + 9.5 * 2.54
    m.rect(PICO_X0 - 1.37, PICO_YB + 2.39 - 21.0 + 0.0, PICO_X0 - 1.37 + 51.0, PICO_YB + 2.39,
           pcbnew.F_SilkS, 0.15)
    m.text("Raspberry Pi Pico / Pico W", (cx, (PICO_YB + PICO_YT) / 2 + 3), 1.6)
    m.text("USB", (PICO_X0 + 3.0, (PICO_YB + PICO_YT) / 2 - 2), 1.4)

    def pin(n):
        return pico_pin_at(n)

    # keypad: rows then columns on a 1x8 header right below the Pico's pins
    kp = m.footprint("Connector_PinHeader_2.54mm", "PinHeader_1x08_P2.54mm_Vertical", "J2",
                     "keypad 4x4 (rows 1-4, columns 1-4)", (pin(4)[0], HDR_Y), 90.0)
    kp_pins = {str(i + 1): "ROW%d" % (i + 1) for i in range(4)}
    kp_pins.update({str(i + 5): "COL%d" % (i + 1) for i in range(4)})
    m.connect(kp, kp_pins)
    order = [PICO_PHYSICAL[g] for g in pico.ROWS + pico.COLS]
    for i, n in enumerate(order):
        a = pin(n)
        b = pad_at(kp, str(i + 1))
        if abs(a[0] - b[0]) < 1e-6:
            m.track([a, b], kp_pins[str(i + 1)], pcbnew.F_Cu)
        else:
            y1 = a[1] + 1.3
            m.track([a, (a[0], y1), (b[0], y1 + abs(a[0] - b[0])), b], kp_pins[str(i + 1)],
                    pcbnew.F_Cu)
    m.text("KEYPAD", (pin(4)[0] + 8.9, HDR_Y + 2.6), 1.2)
    # +1 buttons: 1x3 header (side 1, side 2, GND) below the button pins
    bn = m.footprint("Connector_PinHeader_2.54mm", "PinHeader_1x03_P2.54mm_Vertical", "J3",
                     "+1 buttons (side 1, side 2, GND)",
                     (pin(PICO_PHYSICAL[pico.BUTTONS[0]])[0], HDR_Y), 90.0)
    m.connect(bn, {"1": "BTN1", "2": "BTN2", "3": "GND"})
    for i, g in enumerate(pico.BUTTONS):
        m.track([pin(PICO_PHYSICAL[g]), pad_at(bn, str(i + 1))], "BTN%d" % (i + 1), pcbnew.F_Cu)
    m.text("+1 BUTTONS", (pad_at(bn, "2")[0], HDR_Y + 2.6), 1.2)
    # level shifter: GP0 -> 1A; 1Y -> 330 ohm -> LED 0's DIN; the other gates tied off
    u1 = m.footprint("Package_SO", "SOIC-14_3.9x8.7mm_P1.27mm", "U1", "74AHCT125", U1_AT)
    m.connect(u1, {"1": "GND", "2": "LED_3V3", "3": "LED_5V", "4": "GND", "5": "GND",
                   "7": "GND", "9": "GND", "10": "GND", "12": "GND", "13": "GND", "14": "+5V"})
    if not m.part.back:  # (with the LEDs on the back, the top is the ground pour)
        for n in ("1", "4", "5", "7"):
            a = pad_at(u1, n)
            m.to_ground(a, (U1_AT[0] - 0.75, a[1]), pcbnew.F_Cu)
        for n in ("9", "10", "12", "13"):
            a = pad_at(u1, n)
            m.to_ground(a, (U1_AT[0] + 0.75, a[1]), pcbnew.F_Cu)
    a2 = pad_at(u1, "2")
    m.track([pin(PICO_PHYSICAL[pico.LED_PIN]), (PICO_X0, a2[1]), a2], "LED_3V3", pcbnew.F_Cu)
    c2 = m.footprint("Capacitor_SMD", "C_0805_2012Metric", "C254", "100nF", (U1_AT[0] + 6.0,
                     U1_AT[1] - 2.0), 90.0)
    m.connect(c2, {"1": "+5V", "2": "GND"})
    g = pad_at(c2, "2")
    if not m.part.back:
        m.to_ground(g, (g[0] + 1.6, g[1]), pcbnew.F_Cu)
    if m.part.back:  # +5V is the back's pour: the top's SMD +5V pads go down a via
        for fp, n, dx in ((u1, "14", 1.8), (c2, "1", 1.6)):
            a = pad_at(fp, n)
            m.track([a, (a[0] + dx, a[1])], "+5V", pcbnew.F_Cu)
            m.via((a[0] + dx, a[1]), "+5V")
    r1 = m.footprint("Resistor_SMD", "R_0805_2012Metric", "R1", "330", (U1_AT[0] - 5.0, -25.0),
                     270.0)
    m.connect(r1, {"1": "LED_5V", "2": "LED_DIN"})
    a3 = pad_at(u1, "3")
    r1a, r1b = pad_at(r1, "1"), pad_at(r1, "2")
    top, bot = (r1a, r1b) if r1a[1] < r1b[1] else (r1b, r1a)
    if top is not r1a:
        raise SystemExit("R1's pad 1 must face U1")
    m.track([a3, (top[0], a3[1]), top], "LED_5V", pcbnew.F_Cu)
    m.text("330R", (r1a[0] - 2.5, -25.0), 1.0)
    m.text("74AHCT125", (U1_AT[0], U1_AT[1] + 6.0), 1.0)
    # VSYS through the 1N5817 (stripe towards the Pico), the OLED header, 3V3
    lanes = {26: -43.2, 27: -42.2, 36: -41.2, 39: -40.2}
    j4 = m.footprint("Connector_PinHeader_2.54mm", "PinHeader_1x04_P2.54mm_Vertical", "J4",
                     "OLED SSD1306 I2C (GND VCC SCL SDA)", (50.0, -48.0), 270.0)
    m.connect(j4, {"1": "GND", "2": "+3V3", "3": "SCL", "4": "SDA"})
    want = {"SDA": "4", "SCL": "3", "+3V3": "2"}
    xs = [pad_at(j4, str(n))[0] for n in (4, 3, 2, 1)]
    if xs != sorted(xs):
        raise SystemExit("J4 must read SDA SCL VCC GND left to right")
    for n, net in ((PICO_PHYSICAL[pico.I2C[1]], "SDA"), (PICO_PHYSICAL[pico.I2C[2]], "SCL"),
                   (36, "+3V3")):
        a = pin(n)
        b = pad_at(j4, want[net])
        m.track([a, (a[0], lanes[n]), (b[0], lanes[n]), b], net, pcbnew.F_Cu)
    m.text("OLED", (pad_at(j4, "3")[0] + 1.27, -45.3), 1.2)
    d1 = m.footprint("Diode_THT", "D_DO-41_SOD81_P10.16mm_Horizontal", "D254", "1N5817",
                     (64.0, lanes[39]))
    m.connect(d1, {"1": "VSYS", "2": "+5V"})
    a = pin(39)
    m.track([a, (a[0], lanes[39]), pad_at(d1, "1")], "VSYS", pcbnew.F_Cu, POWER_W)
    m.text("1N5817", (69.0, lanes[39] - 2.5), 1.0)
    # power in: a 2-way terminal and the 1000 uF bulk capacitor where it enters
    j1 = m.footprint("TerminalBlock_Phoenix", "TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_"
                     "Horizontal", "J1", "5 V in (3 A)", (90.0, -36.0))
    m.connect(j1, {"1": "+5V", "2": "GND"})
    m.text("+5V  GND", (92.5, -29.5), 1.4)
    c1 = m.footprint("Capacitor_THT", "CP_Radial_D10.0mm_P5.00mm", "C255", "1000uF 10V",
                     (110.0, -36.0))
    m.connect(c1, {"1": "+5V", "2": "GND"})
    return r1b


def data_to_first_led(m, L, r1_out, leds):
    """330 ohm to LED 0's DIN along the corridor above the status LEDs."""
    din = pad_at(leds[0][1], m.part.pin("DIN"))
    x0 = L.xy(0)[0] - 4.0
    pts = [r1_out, (r1_out[0], DATA_Y), (x0, DATA_Y), (x0, din[1]), din]
    if m.part.back:  # the LEDs are on the back: down a via just before LED 0
        m.track(pts[:-1], "LED_DIN", pcbnew.F_Cu)
        m.via(pts[-2], "LED_DIN")
        m.track(pts[-2:], "LED_DIN", m.led_layer)
    else:
        m.track(pts, "LED_DIN", pcbnew.F_Cu)


# --- copper figures, outputs -----------------------------------------------------------------

def pour_min_width(m, L, zone):
    """The narrowest copper of the LED layer's 5 V pour between two neighbouring track lines
    (mm), measured on the filled zone: the longest unbroken run of copper on a vertical cut
    through every LED column and midway between columns; the smallest over all cuts."""
    polys = zone.GetFilledPolysList(m.led_layer)
    bins = {}  # 1 mm column -> edges crossing it

    def add(chain):
        n = chain.PointCount()
        pts = [chain.CPoint(j) for j in range(n)]
        for j in range(n):
            a, b = pts[j], pts[(j + 1) % n]
            x0, y0 = pcbnew.ToMM(a.x) - OX, pcbnew.ToMM(a.y) - OY
            x1, y1 = pcbnew.ToMM(b.x) - OX, pcbnew.ToMM(b.y) - OY
            if x0 == x1:
                continue
            for k in range(math.floor(min(x0, x1)), math.floor(max(x0, x1)) + 1):
                bins.setdefault(k, []).append((x0, y0, x1, y1))
    for i in range(polys.OutlineCount()):
        add(polys.Outline(i))
        for k in range(polys.HoleCount(i)):
            add(polys.Hole(i, k))
    lines = sorted({round(L.xy(L.hole(lane, s))[1], 3) for lane in range(L.lanes)
                    for s in range(1, L.holes + 1)})
    xs = sorted({round(L.xy(L.hole(0, s))[0], 3) for s in range(1, L.holes + 1)})
    cuts = xs + [(a + b) / 2 for a, b in zip(xs, xs[1:])]
    best = None
    for x in cuts:
        ys = sorted(y0 + (y1 - y0) * (x - x0) / (x1 - x0)
                    for x0, y0, x1, y1 in bins.get(math.floor(x), ())
                    if min(x0, x1) <= x < max(x0, x1))
        spans = list(zip(ys[0::2], ys[1::2]))
        for y0, y1 in zip(lines, lines[1:]):
            longest = max([min(b, y1) - max(a, y0) for a, b in spans] + [0.0])
            best = longest if best is None else min(best, longest)
    return round(best, 2)


def plot(board, out, name):
    """Gerbers and drill files into out/ (absolute paths: KiCad resolves them against the
    board's folder otherwise), then zipped."""
    gdir = os.path.join(out, "gerbers")
    os.makedirs(gdir, exist_ok=True)
    for f in os.listdir(gdir):
        os.remove(os.path.join(gdir, f))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(gdir)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetUseAuxOrigin(False)
    po.SetExcludeEdgeLayer(True)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    layers = [("F_Cu", pcbnew.F_Cu), ("B_Cu", pcbnew.B_Cu), ("F_Mask", pcbnew.F_Mask),
              ("B_Mask", pcbnew.B_Mask), ("F_Paste", pcbnew.F_Paste),
              ("B_Paste", pcbnew.B_Paste), ("F_Silkscreen", pcbnew.F_SilkS),
              ("B_Silkscreen", pcbnew.B_SilkS), ("Edge_Cuts", pcbnew.Edge_Cuts)]
    for suffix, layer in layers:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
    pc.ClosePlot()
    dw = pcbnew.EXCELLON_WRITER(board)
    dw.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    dw.SetFormat(True)
    dw.CreateDrillandMapFilesSet(gdir, True, False)
    zpath = os.path.join(out, name + "-gerbers.zip")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(gdir)):
            info = zipfile.ZipInfo(f, (2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(gdir, f), "rb") as fh:
                z.writestr(info, _stable(fh.read()))
    for f in os.listdir(gdir):
        os.remove(os.path.join(gdir, f))
    os.rmdir(gdir)
    return zpath


def _stable(data):
    """Drop the creation date lines so a regenerated zip only differs when the copper does."""
    out = []
    for line in data.split(b"\n"):
        if b"CreationDate" in line or line.startswith(b"; DRILL file {KiCad") \
                or line.startswith(b"G04 Created by KiCad") or b"FILE_CREATION_DATE" in line:
            continue
        out.append(line)
    return b"\n".join(out)


def drc(board, out):
    """KiCad's DRC on the filled board: (errors, unconnected items). Warnings (silkscreen
    clipped by the mask and the like) are kept in the report but are not errors."""
    path = os.path.join(out, "drc.rpt")
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path) as f:
        text = f.read()
    import re
    errors = text.count("Severity: error") - text.count("[unconnected_items]")
    unconnected = int(re.search(r"Found (\d+) unconnected", text).group(1))
    warnings = text.count("Severity: warning")
    lines = text.split("\n")
    head = ["** DRC report for %s (KiCad %s) **" % (os.path.basename(board.GetFileName()),
                                                  pcbnew.Version()),
            "** %d errors, %d unconnected items, %d warnings **" % (errors, unconnected,
                                                                   warnings)]
    body = [ln for ln in lines if not ln.startswith(("** Drc report for", "** Created on"))]
    with open(path, "w") as f:
        f.write("\n".join(head + body))
    return errors, unconnected, text


_T0 = [time.time()]


def tick(what):
    if os.environ.get("PCB_TIMING"):
        t = time.time()
        print("%6.1f s  %s" % (t - _T0[0], what), file=sys.stderr)
        _T0[0] = t


def build(led, out):
    part = pcb_parts.PARTS[led]
    L = layout_mod.Layout()
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    name = "%s-%s" % (NAME, part.key)
    path = os.path.join(out, name + ".kicad_pcb")
    m = Maker(path, part)
    m.rect(LEFT, TOP, RIGHT, BOTTOM)
    leds = led_field(m, L)
    chain(m, L, leds)
    r1_out = controller(m)
    data_to_first_led(m, L, r1_out, leds)
    for i, (x, y) in enumerate(MOUNT_HOLES):
        h = m.footprint("MountingHole", "MountingHole_3.2mm_M3_Pad", "H%d" % (i + 1), "M3",
                        (x, y))
        m.connect(h, {"1": "GND"})
    m.text("Cribbage board: %s, %d LEDs, chain from firmware/board/layout.py"
           % (part.value, L.count), (150.0, -24.0), 1.5)
    m.text("LED 0 DIN", (L.xy(0)[0] - 4.0, DATA_Y - 1.5), 1.0)
    m.zone("+5V", m.led_layer)
    m.zone("GND", m.far_layer)
    tick("placed and routed")
    # saved and read back before filling and DRC: every item as KiCad itself loads it (a
    # footprint flipped by the script kept a stale pad shape for DRC otherwise)
    pcbnew.SaveBoard(path, m.board)
    m.board = pcbnew.LoadBoard(path)
    five = next(z for z in m.board.Zones() if z.GetNetname() == "+5V")
    filler = pcbnew.ZONE_FILLER(m.board)
    filler.Fill(m.board.Zones())
    tick("zones filled")
    errors, unconnected, _text = drc(m.board, out)
    tick("DRC")
    width = pour_min_width(m, L, five)
    tick("pour width")
    plot(m.board, out, name)
    tick("plotted")
    for z in m.board.Zones():  # saved unfilled (KiCad: press B to refill): a smaller file
        z.UnFill()
    pcbnew.SaveBoard(path, m.board)
    for f in (name + ".kicad_prl",):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    tht = sum(1 for fp in m.board.GetFootprints() for pad in fp.Pads()
              if pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH)
    npth = sum(1 for fp in m.board.GetFootprints() for pad in fp.Pads()
               if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH)
    info = {
        "led": part.key, "part": part.value, "kicad": pcbnew.Version(),
        "size_mm": [RIGHT - LEFT, BOTTOM - TOP], "origin_mm": [OX, OY],
        "outline_mm": [OX + LEFT, OY + TOP, OX + RIGHT, OY + BOTTOM],
        "led_layer": "B.Cu" if part.back else "F.Cu",
        "drc_errors": errors, "unconnected": unconnected,
        "vias": m.vias, "tht_pads": tht, "npth_holes": npth,
        "pour_min_width_mm": width, "copper_oz": 1, "track_mm": TRACK_W,
    }
    with open(os.path.join(out, "board.json"), "w") as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write("\n")
    return info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--led", choices=sorted(pcb_parts.PARTS), default="2020")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    info = build(a.led, a.out)
    print("%s: %d x %d mm, DRC %d errors, %d unconnected, 5 V pour >= %.2f mm"
          % (a.out, info["size_mm"][0], info["size_mm"][1], info["drc_errors"],
             info["unconnected"], info["pour_min_width_mm"]))
    return 0 if info["drc_errors"] == 0 and info["unconnected"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
