"""The peg track as a printed circuit board, generated from the firmware's layout (issues 25, 32).

    /usr/bin/python3 tools/pcb/generate.py --led 2020 --out hardware/pcb/ws2812b-2020
    /usr/bin/python3 tools/pcb/generate.py --led mini-e --out hardware/pcb/sk6812mini-e

Runs under the system Python that has KiCad 6's `pcbnew` module (Debian 12: `apt-get install
kicad kicad-footprints`), not in .venv: `make pcb` and host_tests/test_pcb.py call it as a
subprocess. It writes into --out: the KiCad board, the Gerbers and Excellon drill files (zipped,
as a fabrication house takes them), the DRC report, and board.json (what it placed and the
copper figures) for pcb/check.py, which reads everything back and checks it in .venv. Every
file is the same bytes on every run (pcb/kicad.py's canonical(), no dates).

Every LED sits at firmware/board/layout.py's Layout().xy(pixel) (+ a fixed offset), the chain
in pixel order: the same positions and order as the renderer, the simulator and the drill
template. The LED parts and their pin maps are in pcb/parts.py; the Pico's pins, the LED rail's
switch and the sensors' ADC pins in firmware/hw/pico.py. Nothing here knows a rule of
cribbage, only where the layout puts each LED.
"""

import argparse
import json
import math
import os
import re
import sys
import time
import zipfile

_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0]) == _HERE:  # run as a script: tools/, not tools/pcb/
    sys.path[0] = os.path.dirname(_HERE)
if not os.access(os.environ.get("HOME") or "/nonexistent", os.W_OK):
    import tempfile
    os.environ["HOME"] = tempfile.mkdtemp(prefix="kicad-home-")  # pcbnew writes settings
import hostenv  # noqa: E402, F401  (firmware/ on sys.path)

from board import geometry, layout as layout_mod  # noqa: E402
from hw import pico  # noqa: E402  (only its pin constants are read)
from pcb import parts as pcb_parts, route  # noqa: E402
from pcb.kicad import (BOTTOM, LEFT, OX, OY, POWER_W, RIGHT, SILK_W,  # noqa: E402
                       SUPPLY_W, TOP, TRACK_W, Maker, dot, fab_text, fit_silk, load, pad_at,
                       pt, reverse_mount, save, unpt)
from pcb.parts import LED_RAIL  # noqa: E402
from pcb.read import TEXT_H, TEXT_W, glyph_box  # noqa: E402
from wiring_diagram import PICO_PHYSICAL  # noqa: E402

import pcbnew  # noqa: E402  (KiCad 6's Python module: the system python3 only)

NAME = "cribbage-track"
# M3 holes (layout mm): three corners (the top-left one is the Pico's: its nearest hole is on
# the left edge, 36 mm below the corner), the top edge at 160 mm, the left edge
MOUNT_HOLES = ((-14.0, -16.0), (231.0, -47.0), (160.0, -47.0), (-13.0, 81.0), (231.0, 81.0))
# Pico: USB end at the board's left edge; header rows 17.78 mm apart, pins 2.54 mm apart
PICO_X0 = LEFT + (51.0 - 19 * 2.54) / 2  # pin 1 (and pin 40) column
PICO_YB = -27.0  # the row of pins 1-20 (nearer the track)
PICO_YT = PICO_YB - 17.78  # the row of pins 40-21
PICO_CENTRE = (PICO_X0 + 9.5 * 2.54, (PICO_YB + PICO_YT) / 2)
U1_AT = (42.0, -34.5)
HDR_Y = -21.5  # keypad and +1 button headers
DATA_Y = -19.3  # the data line's corridor to LED 0
# fiducials (layout mm): three per assembled side, none in line, clear of every part, 5 mm
# from the board's edges (some assembly lines want 3-5 mm clear of the conveyor's rails)
FIDUCIALS = ((-13.0, 30.0), (231.0, 20.0), (180.0, -47.0))
FIELD_TOP = -14.0  # the LED field's top (kicad.py): the controller strip is above it
LABEL_SIZE = 1.0  # mm: the silkscreen labels' height (stroke 0.15 mm, kicad.py's SILK_W)
LABEL_SIZES = (LABEL_SIZE, 0.8)  # 0.8 where 1.0 finds no room: JLCPCB's smallest legible
# what each test point carries, printed after its reference ("TP1 +5V")
TP_LABELS = {"TP1": "+5V", "TP2": "GND", "TP3": "DIN", "TP4": "RAIL"}
NETS_5V = ("VIN", "VIN_RP", "+5V", LED_RAIL)  # the input, after the reverse FET, fused, switched
# Q1 and Q2: AONR21357 P-MOSFETs (DFN 3x3 EP) on KiCad's 3 x 3 mm, 0.65 mm pitch DFN-8
FET_VALUE = "AONR21357"
FET_FOOTPRINT = ("Package_DFN_QFN", "DFN-8-1EP_3x3mm_P0.65mm_EP1.55x2.4mm")
FET_Y, Q1_X, F1_X, Q2_X = -33.675, 152.5, 158.5, 164.5  # Q1, F1, Q2 in a row
# each MOSFET's drain copper (layout mm: x0, y0, x1, y1), on both layers, joined by vias: a
# square inch (645 mm^2) of 1 oz copper on each side, the datasheet's 1 in^2 of 2 oz
FET_ZONES = {"Q1": (130.5, -51.6, 153.0, -21.2), "Q2": (164.0, -51.6, 189.0, -21.2)}
FET_VIA_PITCH = 3.0
VIN_Y = -29.5  # the input's track from J1 and J5 to Q1's copper
FAULT_W = 2.0  # that track: the whole supply's current, and a short's until F1 trips
FEED_Y0, FEED_Y = -30.6, -20.5  # +5V from F1 back to the controller's side (on the back)
HUB_X, S2_X = 104.637, 98.062  # the controller side's +5V: test point, R2, the Pico's diode
GATE_X, GATE_Y, GATE_BACK_Y = 98.6, -42.95, -19.4  # Q2's gate line: down a via, on the back


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
        fp = load(*part.footprint) if part.footprint else reverse_mount(m, part)
        m.place(fp, "D%d" % (p + 1), part.value, (x, y), rot, part.back)
        fp.Reference().SetVisible(False)
        if part.footprint and part.PIN1_DOT:  # (the reverse-mount one draws its own)
            dot(fp, part.PIN1_DOT)
        din = "LED_DIN" if p == 0 else chain_net(p - 1)
        dout = chain_net(p) if p + 1 < L.count else "LED_END"
        m.connect(fp, {part.pin("VDD"): LED_RAIL, part.pin("VSS"): "GND", part.pin("DIN"): din,
                       part.pin("DOUT"): dout})
        leds.append((p, fp, v))
    for p, fp, v in leds:
        part.decouple(m, L, p, fp, v)
    return leds


def obstacles(m, layer):
    """Every pad, via, track and board edge on a copper layer so far (pcb/route.py)."""
    obst = route.Obstacles()
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
    has no Pico footprint; the Pico datasheet's pinout and 2.54 mm pitch), its origin at the
    module's centre."""
    fp = pcbnew.FOOTPRINT(m.board)
    fp.SetFPID(pcbnew.LIB_ID("cribbage", "RaspberryPi_Pico_2x20_P2.54mm"))
    fp.SetAttributes(pcbnew.FP_THROUGH_HOLE)
    centre = pt(*PICO_CENTRE)
    fp.SetPosition(centre)
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
        pad.SetPos0(pt(x, y) - centre)
        fp.Add(pad)
    return fp


def controller(m):
    """Pico headers, 74AHCT125 level shifter (its input pulled down), 330 ohm, 1N5817,
    keypad/button/OLED headers, from firmware/hw/pico.py's pins; then power()."""
    gp = {pico.LED_PIN: "LED_3V3"}
    for i, g in enumerate(pico.ROWS):
        gp[g] = "ROW%d" % (i + 1)
    for i, g in enumerate(pico.COLS):
        gp[g] = "COL%d" % (i + 1)
    for i, g in enumerate(pico.BUTTONS):
        gp[g] = "BTN%d" % (i + 1)
    gp[pico.I2C[1]] = "SDA"
    gp[pico.I2C[2]] = "SCL"
    gp[pico.LED_POWER] = "LED_POWER"
    gp[pico.LIGHT_ADC] = "LIGHT"
    gp[pico.SUPPLY_ADC] = "SUPPLY"
    pins = {str(PICO_PHYSICAL[g]): n for g, n in gp.items()}
    pins.update({str(n): "GND" for n in (3, 8, 13, 18, 23, 28, 33, 38)})
    # the strap: the board file's PCB_STRAP on GND says to the firmware that the power parts
    # are fitted (a strip or through-hole build leaves that pin open): hw/pico.py
    strap = PICO_PHYSICAL[pico.PCB_STRAP]
    if str(strap) in pins or "GND" not in (pins.get(str(strap + 1)), pins.get(str(strap - 1))):
        raise SystemExit("PCB_STRAP (GP%d, pin %d) must be a free pin beside a GND pin"
                         % (pico.PCB_STRAP, strap))
    pins[str(strap)] = "GND"
    pins.update({"39": "VSYS", "36": "+3V3"})
    u = m.place(pico_footprint(m), "U2", "Raspberry Pi Pico or Pico W (on 1x20 sockets)",
                PICO_CENTRE)
    m.connect(u, pins)
    cx = PICO_X0 + 9.5 * 2.54
    # the module's outline (21 x 51 mm), clear of its pins
    x0, y0, x1, y1 = (LEFT + 0.5, PICO_CENTRE[1] - 10.5, PICO_X0 - 1.37 + 51.0,
                      PICO_CENTRE[1] + 10.5)
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1))):
        m.line(a, b, pcbnew.F_SilkS, 0.15)  # (its left side is the board's edge)
    m.text("Raspberry Pi Pico / Pico W", (cx, (PICO_YB + PICO_YT) / 2 + 3), 1.6)
    m.text("USB", (PICO_X0 + 3.0, (PICO_YB + PICO_YT) / 2 - 2), 1.4)

    def pin(n):
        return pico_pin_at(n)

    beside = strap + 1 if pins.get(str(strap + 1)) == "GND" else strap - 1
    m.track([pin(strap), pin(beside)], "GND", pcbnew.F_Cu)

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
    # level shifter on the LED rail: GP0 -> 1A; 1Y -> 330 ohm -> LED 0's DIN; the other gates
    # tied off. Powered with the LEDs: when the rail is off its output is low, so no current
    # runs from the data line into an unpowered LED
    u1 = m.footprint("Package_SO", "SOIC-14_3.9x8.7mm_P1.27mm", "U1", "74AHCT125", U1_AT)
    m.connect(u1, {"1": "GND", "2": "LED_3V3", "3": "LED_5V", "4": "GND", "5": "GND",
                   "7": "GND", "9": "GND", "10": "GND", "12": "GND", "13": "GND",
                   "14": LED_RAIL})
    if not m.part.back:  # (with the LEDs on the back, the top is the ground pour)
        for n in ("1", "4", "5", "7"):
            a = pad_at(u1, n)
            m.to_ground(a, (U1_AT[0] - 0.75, a[1]), pcbnew.F_Cu)
        for n in ("9", "10", "12", "13"):
            a = pad_at(u1, n)
            m.to_ground(a, (U1_AT[0] + 0.75, a[1]), pcbnew.F_Cu)
    a2 = pad_at(u1, "2")
    m.track([pin(PICO_PHYSICAL[pico.LED_PIN]), (PICO_X0, a2[1]), a2], "LED_3V3", pcbnew.F_Cu)
    # its input pulled down: with the Pico unplugged or still booting the LEDs see a steady
    # low, not a floating input's noise (random colours at power-up)
    r9 = m.footprint("Resistor_SMD", "R_0603_1608Metric", "R9", "100k", (36.0, -38.6))
    m.connect(r9, {"1": "GND", "2": "LED_3V3"})
    b = pad_at(r9, "2")
    m.track([b, (b[0], a2[1])], "LED_3V3", pcbnew.F_Cu)
    g = pad_at(r9, "1")
    if not m.part.back:
        m.to_ground(g, (g[0] - 1.3, g[1]), pcbnew.F_Cu)
    c2 = m.footprint("Capacitor_SMD", "C_0603_1608Metric", "C254", "100nF", (U1_AT[0] + 6.0,
                     U1_AT[1] - 2.0), 90.0)
    m.connect(c2, {"1": LED_RAIL, "2": "GND"})
    g = pad_at(c2, "2")
    if not m.part.back:
        m.to_ground(g, (g[0] + 1.6, g[1]), pcbnew.F_Cu)
    if m.part.back:  # the LED rail is the back's pour: the top's SMD pads on it go down a via
        for fp, n, dx in ((u1, "14", 1.8), (c2, "1", 1.6)):
            a = pad_at(fp, n)
            m.track([a, (a[0] + dx, a[1])], LED_RAIL, pcbnew.F_Cu)
            m.via((a[0] + dx, a[1]), LED_RAIL)
    r1 = m.footprint("Resistor_SMD", "R_0603_1608Metric", "R1", "330", (U1_AT[0] - 5.0, -25.0),
                     270.0)
    m.connect(r1, {"1": "LED_5V", "2": "LED_DIN"})
    a3 = pad_at(u1, "3")
    r1a, r1b = pad_at(r1, "1"), pad_at(r1, "2")
    top, bot = (r1a, r1b) if r1a[1] < r1b[1] else (r1b, r1a)
    if top is not r1a:
        raise SystemExit("R1's pad 1 must face U1")
    m.track([a3, (top[0], a3[1]), top], "LED_5V", pcbnew.F_Cu)
    m.text("330R", (r1a[0] + 2.6, -25.0), 1.0)
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
    power(m, j4, d1)
    return r1b


def lane(m, n, y, x_end, y_end, net, via=True):
    """A Pico pin's signal along the board's top edge on the back (the top's tracks cross
    there): up from pin n to y, across to x_end, down to y_end, and up a via (or into a
    through-hole pad there)."""
    a = pico_pin_at(n)
    m.track([a, (a[0], y), (x_end, y), (x_end, y_end)], net, pcbnew.B_Cu)
    if via:
        m.via((x_end, y_end), net)


def power(m, j4, d1):
    """The 5 V path and the power-aware parts, right of the 1N5817:

    J1 (screw terminal) or J5 (a charge-and-boost module's 5 V out) -> VIN -> Q1, a P-MOSFET
    in reverse (drain to the input, gate to ground: conducts only with + on +, a swapped pair
    sees an off transistor) -> VIN_RP -> F1, a 3 A resettable fuse -> +5V (the Pico's VSYS
    through the 1N5817, the 1000 uF) -> Q2, a P-MOSFET high-side switch (gate pulled up to
    +5V by R2: off at power-up; Q3, an N-MOSFET from the Pico's LED_POWER pin, pulls it low;
    R3 holds Q3 off while the pin floats) -> the LED rail (every LED, U1, the rail's LED).
    The light sensor (phototransistor Q4 from 3V3 into R6) on LIGHT_ADC; the battery's voltage
    (J5's BAT pin) through R7/R8 (100k/100k) on SUPPLY_ADC."""
    back = m.part.back
    F = pcbnew.F_Cu

    def gnd(pad, via_at, layer=None):
        if not back:  # (with the LEDs on the back, the top is the ground pour)
            m.to_ground(pad, via_at, layer)

    def sot23(ref, value, at, rot, nets):
        fp = m.footprint("Package_TO_SOT_SMD", "SOT-23", ref, value, at, rot)
        m.connect(fp, nets)
        return fp

    def dfn(ref, at, rot, gate, source, drain):
        """The AONR21357 (DFN 3x3 EP): pins 1-3 source, 4 gate, 5-8 and the exposed pad
        (9) drain (AOS datasheet, Rev 1.0 July 2017)."""
        fp = m.footprint(*FET_FOOTPRINT, ref, FET_VALUE, at, rot)
        nets = dict.fromkeys(("1", "2", "3"), source)
        nets.update(dict.fromkeys(("5", "6", "7", "8", "9"), drain), **{"4": gate})
        m.connect(fp, nets)
        m.track([pad_at(fp, "1"), pad_at(fp, "3")], source, F, 0.35)  # the source pins joined
        return fp

    def r0603(ref, value, at, nets, lib=("Resistor_SMD", "R_0603_1608Metric"), rot=0.0):
        fp = m.footprint(lib[0], lib[1], ref, value, at, rot)
        m.connect(fp, nets)
        return fp
    # the input: J1, and J5 for the battery build's module (5V out, GND, BAT+)
    j1 = m.footprint("TerminalBlock_Phoenix", "TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_"
                     "Horizontal", "J1", "5 V in (3 A)", (80.0, -36.0))
    m.connect(j1, {"1": "VIN", "2": "GND"})
    m.text("+5V  GND", (82.5, -27.6), 1.4)
    j5 = m.footprint("Connector_PinHeader_2.54mm", "PinHeader_1x03_P2.54mm_Vertical", "J5",
                     "charge-and-boost module (5V out, GND, BAT+)", (123.0, -40.0))
    m.connect(j5, {"1": "VIN", "2": "GND", "3": "BAT"})
    for n, label in (("1", "5V"), ("2", "GND"), ("3", "BAT")):  # right of the VIN track
        m.text(label, (128.8, pad_at(j5, n)[1]), 1.0)
    # Q1: reverse polarity (source to the load, drain to the input, gate to ground), in the
    # free part of the controller strip (right of J5) inside its drain copper, then F1, then
    # Q2 (the LED rail's switch) inside its own: each MOSFET's drain (pins 5-8 and the exposed
    # pad) sits in a square inch of copper on each layer (fet_copper)
    m.track([pad_at(j1, "1"), (80.0, VIN_Y), (FET_ZONES["Q1"][0] + 1.0, VIN_Y)], "VIN", F,
            FAULT_W)
    p = pad_at(j5, "1")
    m.track([p, (126.0, p[1]), (126.0, VIN_Y)], "VIN", F, SUPPLY_W)
    q1 = dfn("Q1", (Q1_X, FET_Y), 180.0, "GND", "VIN_RP", "VIN")
    src = [pad_at(q1, n) for n in ("1", "2", "3")]
    f1 = m.footprint("Fuse", "Fuse_1812_4532Metric", "F1", "PTC 3A", (F1_X, FET_Y))
    m.connect(f1, {"1": "VIN_RP", "2": "+5V"})
    m.track([src[1], (pad_at(f1, "1")[0], src[1][1])], "VIN_RP", F, SUPPLY_W)
    g = pad_at(q1, "4")
    if back:  # the top's ground pour, beside F1
        m.track([g, (g[0], g[1] - 2.15)], "GND", F)
    else:
        m.to_ground(g, (g[0], g[1] - 2.15), F)
    f2 = pad_at(f1, "2")
    q2 = dfn("Q2", (Q2_X, FET_Y), 0.0, "LED_GATE", "+5V", LED_RAIL)
    src = [pad_at(q2, n) for n in ("1", "2", "3")]
    m.track([(f2[0], src[1][1]), src[1]], "+5V", F, SUPPLY_W)
    # +5V back to the controller's side: along the strip's bottom, then on the back up to the
    # 1000 uF (the Pico's VSYS, the test point and Q2's gate pull-up take it from there)
    c1 = m.footprint("Capacitor_THT", "CP_Radial_D10.0mm_P5.00mm", "C255", "1000uF 10V",
                     (109.0, -36.95))
    m.connect(c1, {"1": "+5V", "2": "GND"})
    c1p = pad_at(c1, "1")
    if back:  # on the back (the LED rail's pour): the top's ground pour stays whole round F1
        m.track([f2, (f2[0], FEED_Y0)], "+5V", F, SUPPLY_W)
        m.via((f2[0], FEED_Y0), "+5V")
        m.track([(f2[0], FEED_Y0), (f2[0], FEED_Y), (c1p[0], FEED_Y), c1p], "+5V",
                pcbnew.B_Cu, SUPPLY_W)
    else:  # on the top (the LED rail's pour), the back's ground pour whole round F1
        m.track([f2, (f2[0], FEED_Y), (c1p[0], FEED_Y)], "+5V", F, SUPPLY_W)
        m.via((c1p[0], FEED_Y), "+5V")
        m.track([(c1p[0], FEED_Y), c1p], "+5V", pcbnew.B_Cu, SUPPLY_W)
    m.track([c1p, (HUB_X, c1p[1]), (HUB_X, -39.6), (S2_X, -39.6)], "+5V", F, SUPPLY_W)
    tp1 = m.footprint("TestPoint", "TestPoint_Pad_D1.5mm", "TP1", "+5V", (HUB_X, -41.6))
    m.connect(tp1, {"1": "+5V"})
    m.track([(HUB_X, -39.6), (HUB_X, -41.6)], "+5V", F)
    fet_copper(m, q1, FET_ZONES["Q1"], "VIN", -1.0)
    fet_copper(m, q2, FET_ZONES["Q2"], LED_RAIL, 1.0)
    # the LED rail's test point and light: on the rail's copper (the mini-E board: down four
    # vias into the back's pour)
    if back:
        for x, y in ((101.6, -42.6), (101.6, -41.4), (102.6, -42.6), (102.6, -41.4)):
            m.via((x, y), LED_RAIL)
        m.track([(101.6, -42.0), (102.6, -42.0)], LED_RAIL, F, SUPPLY_W)
        m.track([(102.6, -42.0), (102.6, -44.0), (104.0, -44.0)], LED_RAIL, F)
    m.track([(104.0, -44.0), (106.48, -44.0)], LED_RAIL, F)
    tp4 = m.footprint("TestPoint", "TestPoint_Pad_D1.5mm", "TP4", "LED rail", (104.0, -44.0))
    m.connect(tp4, {"1": LED_RAIL})
    r2 = r0603("R2", "10k", (95.2, -42.0), {}, rot=90.0)
    ra, rb = pad_at(r2, "1"), pad_at(r2, "2")
    hi, lo = (ra, rb) if ra[1] < rb[1] else (rb, ra)  # hi: nearer the board's top edge
    m.connect(r2, {"1": "LED_GATE" if ra is hi else "+5V", "2": "LED_GATE" if rb is hi else "+5V"})
    m.track([lo, (lo[0], -39.6), (S2_X, -39.6)], "+5V", F)
    q3 = sot23("Q3", "2N7002", (94.0, -46.5), 0.0, {"1": "LED_POWER", "2": "GND", "3": "LED_GATE"})
    g3, s3, d3 = pad_at(q3, "1"), pad_at(q3, "2"), pad_at(q3, "3")
    # Q2's gate: from Q3's drain and R2 down a via, along the back under the strip to Q2
    g2 = pad_at(q2, "4")
    m.track([d3, (96.5, d3[1]), (96.5, GATE_Y), (GATE_X, GATE_Y)], "LED_GATE", F)
    m.via((GATE_X, GATE_Y), "LED_GATE")
    m.track([(GATE_X, GATE_Y), (GATE_X, GATE_BACK_Y), (g2[0], GATE_BACK_Y),
             (g2[0], g2[1] + 1.7)], "LED_GATE", pcbnew.B_Cu)
    m.via((g2[0], g2[1] + 1.7), "LED_GATE")
    m.track([(g2[0], g2[1] + 1.7), g2], "LED_GATE", F)
    m.track([hi, (96.5, hi[1])], "LED_GATE", F)
    gnd(s3, (91.2, s3[1]), F)
    r3 = r0603("R3", "100k", (90.3, g3[1]), {"1": "GND", "2": "LED_POWER"})
    m.track([pad_at(r3, "2"), g3], "LED_POWER", F)
    gnd(pad_at(r3, "1"), (88.0, g3[1]), F)
    lane(m, PICO_PHYSICAL[pico.LED_POWER], -49.3, g3[0], -49.3, "LED_POWER")
    m.track([(g3[0], -49.3), g3], "LED_POWER", F)
    # the rail's LED (lit while the LEDs have power)
    r5 = r0603("R5", "1k", (107.3, -44.0), {"1": LED_RAIL, "2": "RAIL_LED"})
    d5 = r0603("D255", "green", (110.3, -44.0), {"1": "GND", "2": "RAIL_LED"},
               lib=("LED_SMD", "LED_0603_1608Metric"), rot=180.0)
    m.track([pad_at(r5, "2"), pad_at(d5, "2")], "RAIL_LED", F)
    k = pad_at(d5, "1")
    gnd(k, (k[0] + 1.5, k[1]), F)
    # the light sensor: a phototransistor, collector on 3V3, emitter into 10k to ground
    q4 = m.footprint("LED_THT", "LED_D3.0mm", "Q4", "TEPT4400", (100.5, -48.0))
    m.connect(q4, {"1": "+3V3", "2": "LIGHT"})
    e = pad_at(q4, "2")
    r6 = r0603("R6", "10k", (107.0, -48.0), {"1": "LIGHT", "2": "GND"})
    m.track([e, pad_at(r6, "1")], "LIGHT", F)
    gnd(pad_at(r6, "2"), (109.4, -48.0), F)
    lane(m, PICO_PHYSICAL[pico.LIGHT_ADC], -50.1, e[0], e[1], "LIGHT", via=False)
    v = pad_at(j4, "2")
    m.track([v, (v[0], -50.5), (pad_at(q4, "1")[0], -50.5), pad_at(q4, "1")], "+3V3", F)
    m.text("LIGHT", (107.0, -50.0), 1.0)
    # the battery's voltage: BAT -> 100k -> SUPPLY -> 100k -> ground, 100 nF at the pin
    r7 = r0603("R7", "100k", (118.5, -34.92), {"1": "SUPPLY", "2": "BAT"})
    r8 = r0603("R8", "100k", (118.5, -36.92), {"1": "SUPPLY", "2": "GND"})
    c5 = r0603("C256", "100nF", (118.5, -38.92), {"1": "SUPPLY", "2": "GND"},
               lib=("Capacitor_SMD", "C_0603_1608Metric"))
    m.track([pad_at(r7, "2"), pad_at(j5, "3")], "BAT", F)
    m.track([pad_at(r7, "1"), pad_at(c5, "1")], "SUPPLY", F)
    for fp in (r8, c5):
        p = pad_at(fp, "2")
        gnd(p, (120.6, p[1]), F)
    lane(m, PICO_PHYSICAL[pico.SUPPLY_ADC], -50.9, 116.6, -38.92, "SUPPLY")
    m.track([(116.6, -38.92), pad_at(c5, "1")], "SUPPLY", F)
    # the Pico's VSYS: +5V on the back to the 1N5817's anode
    a = pad_at(d1, "2")
    m.track([a, (a[0], -38.5), (97.0, -38.5)], "+5V", pcbnew.B_Cu, POWER_W)
    m.via((97.0, -38.5), "+5V")
    m.track([(97.0, -38.5), (S2_X, -38.5), (S2_X, -39.6)], "+5V", F, POWER_W)
    # test points: ground (5 V and the LED rail above; LED 0's data in data_to_first_led)
    tp2 = m.footprint("TestPoint", "TestPoint_Pad_D1.5mm", "TP2", "GND", (86.2, -45.2))
    m.connect(tp2, {"1": "GND"})
    gnd(pad_at(tp2, "1"), (86.2, -47.2), F)


def data_to_first_led(m, L, r1_out, leds):
    """330 ohm to LED 0's DIN along the corridor above the status LEDs, with a test point."""
    din = pad_at(leds[0][1], m.part.pin("DIN"))
    x0 = L.xy(0)[0] - 4.0
    pts = [r1_out, (r1_out[0], DATA_Y), (x0, DATA_Y), (x0, din[1]), din]
    if m.part.back:  # the LEDs are on the back: down a via just before LED 0
        m.track(pts[:-1], "LED_DIN", pcbnew.F_Cu)
        m.via(pts[-2], "LED_DIN")
        m.track(pts[-2:], "LED_DIN", m.led_layer)
    else:
        m.track(pts, "LED_DIN", pcbnew.F_Cu)
    tp = m.footprint("TestPoint", "TestPoint_Pad_D1.5mm", "TP3", "LED 0 DIN", (40.0, -21.0))
    m.connect(tp, {"1": "LED_DIN"})
    m.track([(r1_out[0], -21.0), pad_at(tp, "1")], "LED_DIN", pcbnew.F_Cu)


def fiducials(m):
    """Three fiducials on each side that is assembled (the mini-E board: both)."""
    sides = (False, True) if m.part.back else (False,)
    n = 0
    for back in sides:
        for at in FIDUCIALS:
            n += 1
            m.footprint("Fiducial", "Fiducial_1mm_Mask2mm", "FID%d" % n, "fiducial", at,
                        back=back)


# --- the controller strip's silkscreen: which part is which --------------------------------

def _layout_box(r, grow=0.0):
    x0, y0 = pcbnew.ToMM(r.GetX()) - OX, pcbnew.ToMM(r.GetY()) - OY
    return (x0 - grow, y0 - grow, x0 + pcbnew.ToMM(r.GetWidth()) + grow,
            y0 + pcbnew.ToMM(r.GetHeight()) + grow)


def label_box(text, at, size=LABEL_SIZE, upright=False):
    """The box a label's strokes fill (pcb/read.py's glyph_box; upright: turned 90 degrees)."""
    return glyph_box(text, at[0], at[1], size, max(size * 0.15, SILK_W), upright)


def text_box(text, at, size=LABEL_SIZE, upright=False):
    """The box pcb/read.py's silkscreen checks take for it (with KiCad's line spacing)."""
    w = len(text) * size * TEXT_W + max(size * 0.15, SILK_W)
    h = size * TEXT_H
    if upright:
        w, h = h, w
    return (at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2)


def _stroke_boxes(item):
    """Boxes round a silkscreen drawing's strokes: a circle's ring as 24 chords' boxes (its
    inside is free), anything else its bounding box."""
    if item.GetClass() == "MGRAPHIC" and item.GetShape() == pcbnew.SHAPE_T_CIRCLE:
        (cx, cy), (ex, ey) = _unpt(item.GetCenter()), _unpt(item.GetEnd())
        r, half = math.hypot(ex - cx, ey - cy), pcbnew.ToMM(item.GetWidth()) / 2
        pts = [(cx + r * math.cos(k * math.pi / 12), cy + r * math.sin(k * math.pi / 12))
               for k in range(25)]
        return [(min(a[0], b[0]) - half, min(a[1], b[1]) - half, max(a[0], b[0]) + half,
                 max(a[1], b[1]) + half) for a, b in zip(pts, pts[1:])]
    return [_layout_box(item.GetBoundingBox())]


def _kind(ref):
    """A reference's letters: R, C, Q, TP..."""
    return ref.rstrip("0123456789")


def _gap(a, b):
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)


def _apart(a, b, gap):
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


LABEL_PAD_GAP = 0.15  # a label's box from any pad's and via's: JLCPCB's rule
LABEL_CLEAR_LEAD = 0.5  # mm: a label this much nearer its part than any other (where it fits)
LABEL_SILK_GAP = 0.15  # from any other silkscreen (KiCad's DRC: silkscreen overlap)


def strip_parts(m):
    """The controller strip's parts (above the LED field): every footprint but the LEDs, their
    capacitors (D1-D253, C1-C253), the fiducials and the mounting holes; the test points
    first, then in reference order."""
    out = []
    count = layout_mod.Layout().count
    for ref, fp in m.refs.items():
        n = re.match(r"([A-Z]+)(\d+)$", ref)
        if ref.startswith(("FID", "H")) or (n.group(1) in ("D", "C") and int(n.group(2)) <= count):
            continue
        out.append((ref, fp))
    key = {r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):] or 0))
           for r, _fp in out}
    return sorted(out, key=lambda rf: (rf[0] not in TP_LABELS, key[rf[0]]))  # test points first


def labels(m):
    """Each controller-strip part's reference, and what each test point carries beside it,
    printed on the top's silkscreen where it fits: the first of a ring of places round the
    part's pads (nearest first) whose box (pcb/read.py's measure) keeps LABEL_PAD_GAP from
    every pad and via, LABEL_SILK_GAP from every other silkscreen item, stays inside the board
    and above the LED field. No place: the generator stops (a label over a pad prints
    ragged, and one far from its part tells nothing)."""
    pads, silk, owned, tracks = [], [], [], []
    for fp in m.board.GetFootprints():
        for pad in fp.Pads():
            if pad.IsOnLayer(pcbnew.F_Cu) or pad.IsOnLayer(pcbnew.F_Mask):
                pads.append(_layout_box(pad.GetBoundingBox()))
                owned.append((pads[-1], fp.GetReference()))
        for item in fp.GraphicalItems():
            if item.GetLayer() == pcbnew.F_SilkS:
                silk += _stroke_boxes(item)
        for t in (fp.Reference(), fp.Value()):
            if t.GetLayer() == pcbnew.F_SilkS and t.IsVisible():
                silk.append(_layout_box(t.GetBoundingBox()))
    for t in m.board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            pads.append(_layout_box(t.GetBoundingBox()))
        elif t.IsOnLayer(pcbnew.F_Cu):
            tracks.append(_layout_box(t.GetBoundingBox()))
    for d in m.board.GetDrawings():
        if d.GetLayer() == pcbnew.F_SilkS:
            if d.GetClass() == "PTEXT":
                silk.append(label_box(d.GetText(), _unpt(d.GetPosition()),
                                      pcbnew.ToMM(d.GetTextHeight())))
            else:
                silk.append(_layout_box(d.GetBoundingBox()))
    placed, missing = [], []

    def fits(text, at, size, upright, ref, kind, near, local, over_tracks):
        b, t = label_box(text, at, size, upright), text_box(text, at, size, upright)
        if t[0] < LEFT + 0.5 or t[2] > RIGHT - 0.5 or t[1] < TOP + 0.5 or \
                t[3] > FIELD_TOP - 0.5:
            return False
        if not all(_apart(b, o, LABEL_PAD_GAP) for o in local) or \
                not all(_apart(b, o, LABEL_SILK_GAP) for o in silk + placed):
            return False
        if not over_tracks and not all(_apart(b, o, 0.0) for o in tracks):
            return False
        # nearer its own part's pads than any other part's (kind None), or where that finds
        # no room, than any other of its kind (R2's label nearer R2 than R3, TP1's nearer TP1
        # than TP4): it says which part it is
        mine = min(_gap(b, o) for o, r in near if r == ref) + (LABEL_CLEAR_LEAD if kind is None
                                                                else 0.0)
        return not any(_gap(b, o) <= mine for o, r in near
                       if r != ref and (kind is None or _kind(r) == kind))

    def place(text, around, ref, quiet=False):
        x0, y0, x1, y1 = around
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        near = [(b, r) for b, r in owned if _gap(b, around) < 12.0]
        local = [b for b in pads if _gap(b, around) < 12.0]
        rings = (0.25, 0.5, 0.8, 1.2, 1.7, 2.3, 3.0)
        far = (3.8, 4.6, 5.5, 6.5)
        passes = [(size, rings, up) for size in LABEL_SIZES for up in (False, True)]
        if not quiet:  # (a test point's two words on one line: only near it)
            passes += [(LABEL_SIZES[-1], far, up) for up in (False, True)]
        passes = [(kind,) + p for kind in (None, _kind(ref)) for p in passes]
        for kind, size, gaps, upright in passes:  # upright: read from the right (90 degrees)
            bw = label_box(text, (0, 0), size, upright)
            w, h = bw[2] - bw[0], bw[3] - bw[1]
            first = [(cx, cy)] if (x1 - x0) > w + 2 and (y1 - y0) > h + 2 else []
            for ring in [first] + [[
                    (cx, y0 - g - h / 2), (cx, y1 + g + h / 2), (x1 + g + w / 2, cy),
                    (x0 - g - w / 2, cy), (x1 + g + w / 2, y0 - g - h / 2),
                    (x0 - g - w / 2, y0 - g - h / 2), (x1 + g + w / 2, y1 + g + h / 2),
                    (x0 - g - w / 2, y1 + g + h / 2)] for g in gaps]:
                for over_tracks in (False, True):  # off the tracks where the ring allows
                    for at in ring:
                        if fits(text, at, size, upright, ref, kind, near, local,
                                over_tracks):
                            m.text(text, at, size, angle=90.0 if upright else 0.0)
                            placed.append(label_box(text, at, size, upright))
                            return at
        if quiet:
            return None
        missing.append(text)
        return None
    for ref, fp in strip_parts(m):
        boxes = [_layout_box(p.GetBoundingBox()) for p in fp.Pads()]
        around = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                  max(b[2] for b in boxes), max(b[3] for b in boxes))
        if ref not in TP_LABELS:
            place(ref, around, ref)
        elif not place("%s %s" % (ref, TP_LABELS[ref]), around, ref, quiet=True):
            place(TP_LABELS[ref], around, ref)  # no room for both on one line: each where
            place(ref, around, ref)  # it fits, what it carries first
    if missing:
        raise SystemExit("no room on the silkscreen beside its part for %s" % ", ".join(missing))
    return placed


def _unpt(p):
    return (pcbnew.ToMM(p.x) - OX, pcbnew.ToMM(p.y) - OY)


def fet_copper(m, fp, box, net, side):
    """A MOSFET's drain copper: a zone of its drain net on each layer over box (above the
    pours, joining its pads solidly: the exposed pad is the heat's way out), stitched by a
    grid of vias and a row beside the drain pins (side: -1 drain to the left, +1 right)."""
    x0, y0, x1, y1 = box
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        m.zone(net, layer, priority=1, box=box, solid=True)
    cx, cy = unpt(fp.GetPosition())
    pts = [(cx + side * 2.6, cy + d) for d in (-1.0, 0.0, 1.0)]
    pts += [(cx + side * 0.9, cy + d) for d in (-2.0, 2.0)]
    x = x0 + 1.5
    while x < x1 - 1.0:
        y = y0 + 1.1
        while y < y1 - 0.8:
            if abs(x - cx) > 3.0 or abs(y - cy) > 2.6:
                pts.append((round(x, 3), round(y, 3)))
            y += FET_VIA_PITCH
        x += FET_VIA_PITCH
    for fid in FIDUCIALS:  # (the fiducials keep their clear ring)
        pts = [p for p in pts if math.hypot(p[0] - fid[0], p[1] - fid[1]) > 2.2]
    for p in pts:
        m.via(p, net)


def fet_areas(m):
    """{ref: {layer: mm^2}}: the filled copper of each MOSFET's drain zones (pcb/check.py
    checks a square inch on each layer), and {ref: vias inside its zone}."""
    areas, vias = {}, {}
    for ref, box in sorted(FET_ZONES.items()):
        fp = m.board.FindFootprintByReference(ref)
        net = next(p.GetNetname() for p in fp.Pads() if p.GetNumber() == "9")
        areas[ref] = {}
        for z in m.board.Zones():
            if z.GetNetname() != net or z.GetPriority() < 1:
                continue
            layer = z.GetLayer()
            polys = z.GetFilledPolysList(layer)
            total = 0.0
            for i in range(polys.OutlineCount()):
                total += _area(polys.Outline(i))
                for k in range(polys.HoleCount(i)):
                    total -= _area(polys.Hole(i, k))
            areas[ref][m.board.GetLayerName(layer)] = round(total, 1)
        x0, y0, x1, y1 = box
        vias[ref] = sum(1 for t in m.board.GetTracks() if t.GetClass() == "PCB_VIA"
                        and t.GetNetname() == net
                        and x0 <= unpt(t.GetPosition())[0] <= x1
                        and y0 <= unpt(t.GetPosition())[1] <= y1)
    return areas, vias


def _area(chain):
    """A closed chain's area in mm^2 (the shoelace formula)."""
    n = chain.PointCount()
    pts = [chain.CPoint(j) for j in range(n)]
    s = 0.0
    for j in range(n):
        a, b = pts[j], pts[(j + 1) % n]
        s += pcbnew.ToMM(a.x) * pcbnew.ToMM(b.y) - pcbnew.ToMM(b.x) * pcbnew.ToMM(a.y)
    return abs(s) / 2


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
    """KiCad's DRC on the filled board: (errors, unconnected items, warnings, the report).
    The report keeps every warning; pcb/check.py fails on any (silkscreen over a pad or across
    the board's edge among them: KiCad 6 does not flag silkscreen wholly off the board, which
    pcb/check.py's check_silk does)."""
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
    return errors, unconnected, warnings, text


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
    fiducials(m)
    for i, (x, y) in enumerate(MOUNT_HOLES):
        h = m.footprint("MountingHole", "MountingHole_3.2mm_M3_Pad", "H%d" % (i + 1), "M3",
                        (x, y))
        m.connect(h, {"1": "GND"})
    m.text("Cribbage board: %s, %d LEDs, chain from firmware/board/layout.py"
           % (part.value, L.count), (150.0, -24.0), 1.5)
    m.zone(LED_RAIL, m.led_layer)
    m.zone("GND", m.far_layer)
    tick("placed and routed")
    # saved and read back before filling and DRC: every item as KiCad itself loads it (a
    # footprint flipped by the script kept a stale pad shape for DRC otherwise)
    for fp in m.board.GetFootprints():
        fab_text(fit_silk(fp))
    labels(m)
    save(m.board, path)
    m.board = pcbnew.LoadBoard(path)
    five = next(z for z in m.board.Zones() if z.GetNetname() == LED_RAIL
                and z.GetPriority() == 0)  # (the pour, not Q2's drain copper)
    filler = pcbnew.ZONE_FILLER(m.board)
    filler.Fill(m.board.Zones())
    fet_mm2, fet_vias = fet_areas(m)
    tick("zones filled")
    errors, unconnected, warnings, _text = drc(m.board, out)
    tick("DRC")
    width = pour_min_width(m, L, five)
    tick("pour width")
    plot(m.board, out, name)
    tick("plotted")
    for z in m.board.Zones():  # saved unfilled (KiCad: press B to refill): a smaller file
        z.UnFill()
    save(m.board, path)
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
        "drc_errors": errors, "unconnected": unconnected, "drc_warnings": warnings,
        "vias": m.vias, "tht_pads": tht, "npth_holes": npth,
        "pour_min_width_mm": width, "copper_oz": 1, "track_mm": TRACK_W,
        "fet_copper_mm2": fet_mm2, "fet_vias": fet_vias,
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
