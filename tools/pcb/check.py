"""Reads the generated PCB back and checks it against the firmware's own data (issues 25, 32).

    python -m pcb.check                # (in tools/) check every committed board in hardware/pcb/
    python -m pcb.check --write        # also (re)write its BOM, pick-and-place, picture
    python -m pcb.check --generate     # run the KiCad generator first (make pcb)

Runs in .venv (no KiCad needed to check the committed files): the board file is read as the
text it is (pcb/read.py), the Gerbers and drill files with gerbonara. What is checked: every
LED where firmware/board/layout.py's Layout() puts it (within 0.01 mm), the chain in pixel
order (each DIN on the previous DOUT's net), VDD on the switched LED rail and VSS on GND, the
pin names against KiCad's own symbol, the Pico's pins against firmware/hw/pico.py (the LED
rail's switch on LED_POWER, the light sensor on LIGHT_ADC, the battery divider on SUPPLY_ADC),
the input protection in the path of every 5 V consumer, every Gerber layer present with the
outline the stated size and one drill per via and through-hole pad, the DRC result (errors and
warnings, silkscreen among them), the 5 V copper against the firmware's current limit, and the
BOM (a part number for every assembled part) and pick-and-place (rotations per side).

The generator itself (pcb/generate.py) needs KiCad 6's pcbnew, which lives in the system
python3: --generate calls it as a subprocess (KICAD_PY, default /usr/bin/python3).
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import warnings
import zipfile

from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

from board import layout as layout_mod
from board import render, settings
from hw import pico, pico_w
from pcb import fab
from pcb import parts as pcb_parts
from pcb.parts import LED_RAIL
from pcb.read import OPTIONS, PCB_DIR, Board, load, option_dir  # noqa: F401  (the tests' names)
from pcb.read import GLYPH_H, TEXT_W, pad_box
from wiring_diagram import PICO_PHYSICAL

KICAD_PY = os.environ.get("KICAD_PY", "/usr/bin/python3")
SYMBOLS = os.environ.get("KICAD_SYMBOL_DIR", "/usr/share/kicad/symbols")
TOL = 0.01  # mm: an LED off its layout position by more is a different board
LAYERS = ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Paste", "B_Paste", "F_Silkscreen",
          "B_Silkscreen", "Edge_Cuts")
BOARD_MA = 80  # the controller's own draw (an ESP32; a Pico draws less): tools/drill_template
RISE_C = 10  # IPC-2221 temperature rise the copper is rated at
PTC_HOLD_MA = 3000  # F1's hold current (hardware/pcb/parts.csv: SMD1812P300TF, 3 A hold)
PTC_TRIP_MA = 5000  # and the current it trips at within its time
# Q1 (reverse polarity) and Q2 (the LED rail's switch): AOS AONR21357, P-MOSFET, DFN 3x3 EP
# (AOS datasheet Rev 1.0, July 2017): -30 V, VGS +-25 V, RDS(on) at most 12.3 mohm at VGS
# -4.5 V, ID -16 A (9.8 typical); at VGS -10 V 7.8 mohm at most, 10.7 at a 125 C junction (so
# hot it is 10.7 / 7.8 = 1.37 times its 25 C figure); junction 150 C at most; junction to
# ambient at most 25 C/W for t <= 10 s and 55 C/W in steady state, on 1 in^2 of 2 oz copper;
# pulsed drain current -136 A. Pins 1-3 source, 4 gate, 5-8 and the exposed pad drain.
FET_VALUE = "AONR21357"
FET_PINS = {"G": ("4",), "S": ("1", "2", "3"), "D": ("5", "6", "7", "8", "9")}
FET_RDS_OHM = 0.0123  # at most, VGS -4.5 V (the gates see about -5 V: Q1's on GND, Q2's via Q3)
FET_TJ_MAX_C = 150
FET_RTH_JA = 55.0
FET_RTH_JA_10S = 25.0
FET_HOT_RDS = 10.7 / 7.8
# The datasheet's thermal figures are for 1 in^2 of 2 oz copper: the board gives each
# MOSFET's drain a square inch of 1 oz copper on each layer, stitched by vias (the same copper
# cross-section; pcb/generate.py's fet_copper), and check_fet_copper holds it to that
FET_COPPER_MM2 = 645.16
FET_VIAS_MIN = 20
# A short on the LED rail: its current goes through Q1, F1 and Q2 until F1 trips. The PTC:
# 3 A hold, 5 A trip; a 3 A 1812 PTC's maximum time to trip is 5 s at 15 A (e.g.
# SRF1812P300LR; RUILON's own table not found).
AMBIENT_C = 40  # a warm room, the board in a case
PTC_TRIP_S = (15.0, 5.0)  # (amps, seconds): tripped within, at the most
# The AO3401A (SOT-23) the board had before, for the guide's before-and-after: 60 mohm at most
# at -4.5 V, 125 C/W steady and 90 C/W for 10 s, 1.5 times hot (AOS datasheet, Rev 3 2011)
AO3401A = {"rds": 0.060, "rth": 125.0, "rth_10s": 90.0, "hot": 1.5}


def fet_fault_figures(ambient=AMBIENT_C, fet=None):
    """What a short on the LED rail does to each of Q1 and Q2, at their worst RDS(on) when
    hot: {"amps": carried for good at ambient without passing 150 C, "trip_c": the junction
    carrying F1's trip current for good, "fault_w": dissipated at the PTC's time-to-trip test
    current, "fault_c": the junction at the end of that test's time, "amps_10s": the most it
    carries for 10 s (the datasheet's short-time figure) without passing 150 C}."""
    fet = fet or {"rds": FET_RDS_OHM, "rth": FET_RTH_JA, "rth_10s": FET_RTH_JA_10S,
                  "hot": FET_HOT_RDS}
    hot = fet["rds"] * fet["hot"]
    room = FET_TJ_MAX_C - ambient
    trip = PTC_TRIP_MA / 1000
    fault_w = PTC_TRIP_S[0] ** 2 * hot
    return {"amps": (room / (fet["rth"] * hot)) ** 0.5,
            "trip_c": ambient + trip * trip * hot * fet["rth"],
            "fault_w": fault_w,
            "fault_c": ambient + fault_w * fet["rth_10s"],
            "amps_10s": (room / (fet["rth_10s"] * hot)) ** 0.5}


def fet_figures(ma=None):
    """(volts dropped, watts dissipated) in each of Q1 and Q2 at the firmware's default
    limit's total current (or ma), at their worst RDS(on)."""
    amps = (current_need_ma() if ma is None else ma) / 1000
    return amps * FET_RDS_OHM, amps * amps * FET_RDS_OHM


# --- the checks: each returns a list of problems (empty: it holds) --------------------------

def check_leds(board, info, L=None):
    """LED count, positions (layout + the board's origin, within TOL) and the chain's nets."""
    L = L or layout_mod.Layout()
    part = pcb_parts.PARTS[info["led"]]
    ox, oy = info["origin_mm"]
    leds = [fp for fp in board.footprints.values() if fp["value"] == part.value]
    out = []
    if len(leds) != L.count:
        out.append("%d LEDs on the board, the layout has %d" % (len(leds), L.count))
    prev_dout = None
    for p in range(L.count):
        ref = "D%d" % (p + 1)
        if ref not in board.footprints:
            out.append("no %s (LED %d)" % (ref, p))
            continue
        fp = board.footprints[ref]
        x, y = L.xy(p)
        bx, by = fp["at"][0] - ox, fp["at"][1] - oy
        if abs(bx - x) > TOL or abs(by - y) > TOL:
            out.append("LED %d (%s) at (%.3f, %.3f), the layout has (%.3f, %.3f): regenerate "
                       "the PCB (make pcb)" % (p, ref, bx, by, x, y))
        nets = {n: board.pad(ref, num)["net"] for n, num in part.PIN.items()}
        if nets["VDD"] != LED_RAIL:
            out.append("%s VDD on %r, not the switched LED rail %s" % (ref, nets["VDD"],
                                                                      LED_RAIL))
        if nets["VSS"] != "GND":
            out.append("%s VSS on %r, not GND" % (ref, nets["VSS"]))
        if p == 0:
            if nets["DIN"] != board.pad("R1", "2")["net"]:
                out.append("LED 0's DIN is not on the 330 ohm resistor's output")
        elif nets["DIN"] != prev_dout or not prev_dout:
            out.append("LED %d's DIN on %r, LED %d's DOUT on %r: the chain is broken"
                       % (p, nets["DIN"], p - 1, prev_dout))
        prev_dout = nets["DOUT"]
    return out


def check_controller(board):
    """The Pico's pins on the nets firmware/hw/pico.py wires; the level shifter's path."""
    out = []

    def net(ref, n):
        return board.pad(ref, str(n))["net"]
    want = {pico.LED_PIN: board.pad("U1", "2")["net"]}
    kp = "J2"
    for i, g in enumerate(pico.ROWS + pico.COLS):
        want[g] = net(kp, i + 1)
    for i, g in enumerate(pico.BUTTONS):
        want[g] = net("J3", i + 1)
    want[pico.I2C[1]] = net("J4", 4)  # SDA
    want[pico.I2C[2]] = net("J4", 3)  # SCL
    for g, n in want.items():
        have = net("U2", PICO_PHYSICAL[g])
        if not n or have != n:
            out.append("Pico GP%d (pin %d) on %r, its part's pin on %r"
                       % (g, PICO_PHYSICAL[g], have, n))
    if net("U1", 3) != net("R1", 1):
        out.append("74AHCT125 1Y does not reach the 330 ohm resistor")
    for n in (1, 4, 5, 7, 9, 10, 12, 13):
        if net("U1", n) != "GND":
            out.append("74AHCT125 pin %d not on GND" % n)
    if net("U1", 14) != LED_RAIL:
        out.append("74AHCT125 VCC not on the LED rail")
    if sorted((net("R9", 1), net("R9", 2))) != sorted(("GND", net("U1", 2))):
        out.append("the 74AHCT125's input (1A) has no pull-down to GND")
    if net("U2", 39) != net("D254", 1) or net("D254", 2) != "+5V":
        out.append("VSYS is not fed from +5V through the 1N5817")
    for n in (3, 8, 13, 18, 23, 28, 33, 38):
        if net("U2", n) != "GND":
            out.append("Pico pin %d (GND) not on GND" % n)
    for mod in (pico, pico_w):  # the strap that tells the firmware the power parts are here
        if net("U2", PICO_PHYSICAL[mod.PCB_STRAP]) != "GND":
            out.append("%s's PCB_STRAP (GP%d, pin %d) is not tied to GND"
                       % (mod.__name__.split(".")[-1] + ".py", mod.PCB_STRAP,
                          PICO_PHYSICAL[mod.PCB_STRAP]))
    if net("J1", 1) != "VIN" or net("J1", 2) != "GND":
        out.append("the power terminal is not VIN, GND")
    if net("C255", 1) != "+5V" or net("C255", 2) != "GND":
        out.append("the bulk capacitor is not across +5V and GND")
    return out


def _nets(board, ref):
    return {p["number"]: p["net"] for p in board.footprints[ref]["pads"]}


def fet_nets(board, ref):
    """{"G", "S", "D": net} of an AONR21357 (FET_PINS), or a problem string: another part,
    or a role's pins on different nets."""
    fp = board.footprints.get(ref)
    if fp is None or fp["value"] != FET_VALUE:
        return "%s is %s, not the %s" % (ref, fp and fp["value"], FET_VALUE)
    nets = _nets(board, ref)
    out = {}
    for role, pins in FET_PINS.items():
        have = {nets.get(n) for n in pins}
        if len(have) != 1 or None in have:
            return "%s's %s pins %s are on %s, not one net" % (ref, role, "/".join(pins),
                                                              sorted(map(str, have)))
        out[role] = have.pop()
    return out


def _on(board, net):
    """Every (ref, pad number) on a net."""
    return sorted((ref, p["number"]) for ref, fp in board.footprints.items()
                  for p in fp["pads"] if p["net"] == net and net)


def _between(board, a, b, value=None):
    """The two-pad parts (resistors, capacitors) across nets a and b."""
    out = []
    for ref, fp in board.footprints.items():
        nets = sorted(p["net"] for p in fp["pads"])
        if len(nets) == 2 and nets == sorted((a, b)) and (value is None or fp["value"] == value):
            out.append(ref)
    return sorted(out)


def board_pins(module=pico):
    """The power pins a board file names: {name: GPIO}. Pico and Pico W must agree (one PCB
    takes either)."""
    return {name: getattr(module, name) for name in ("LED_POWER", "LIGHT_ADC", "SUPPLY_ADC")}


def check_power(board, pins=None):
    """The LED rail's switch, the light sensor and the battery divider on the pins the
    firmware's board file names (firmware/hw/pico.py, pico_w.py), wired as drawn:
    LED_POWER -> Q3's gate (100k to GND: off while the pin floats) -> Q3 pulls Q2's gate low;
    Q2's gate pulled up to its source (+5V): the rail is off until the firmware drives the
    pin; Q2's drain is the LED rail. LIGHT_ADC on the phototransistor's emitter with a
    resistor to GND, its collector on 3V3. SUPPLY_ADC between two resistors from BAT (J5's
    battery pin) and to GND, with a capacitor to GND."""
    pins = pins or board_pins()
    out = []
    if pins != board_pins(pico_w):
        out.append("hw/pico.py names %s, hw/pico_w.py %s: one PCB takes either"
                   % (pins, board_pins(pico_w)))

    def pico_net(name):
        g = pins[name]
        if g not in PICO_PHYSICAL:
            out.append("%s = GP%d is not on the Pico's header" % (name, g))
            return None
        return _nets(board, "U2").get(str(PICO_PHYSICAL[g]))
    q3 = _nets(board, "Q3")  # SOT-23: 1 G, 2 S, 3 D
    fet = fet_nets(board, "Q2")
    if isinstance(fet, str):
        return out + [fet]
    q2 = {"1": fet["G"], "2": fet["S"], "3": fet["D"]}
    drive = pico_net("LED_POWER")
    if not drive or q3["1"] != drive:
        out.append("the LED rail's switch (Q3's gate, %r) is not on LED_POWER = GP%d (%r)"
                   % (q3["1"], pins["LED_POWER"], drive))
    elif not _between(board, drive, "GND"):
        out.append("LED_POWER's gate has no pull-down: the rail may turn on while the pin "
                   "floats")
    if q3["2"] != "GND" or q3["3"] != q2["1"]:
        out.append("Q3 does not pull Q2's gate to GND")
    if q2["2"] != "+5V" or q2["3"] != LED_RAIL:
        out.append("Q2 does not switch +5V onto the LED rail (source %r, drain %r)"
                   % (q2["2"], q2["3"]))
    if not _between(board, q2["1"], q2["2"]):
        out.append("Q2's gate has no pull-up to its source: the rail is not off at power-up")
    light = pico_net("LIGHT_ADC")
    q4 = _nets(board, "Q4")
    if not light or q4.get("2") != light or q4.get("1") != "+3V3":
        out.append("the light sensor (Q4: collector %r, emitter %r) is not between 3V3 and "
                   "LIGHT_ADC = GP%d (%r)" % (q4.get("1"), q4.get("2"), pins["LIGHT_ADC"],
                                               light))
    elif not _between(board, light, "GND"):
        out.append("the light sensor's emitter has no resistor to GND")
    supply = pico_net("SUPPLY_ADC")
    bat = _nets(board, "J5").get("3")
    if not supply or not _between(board, supply, bat, "100k") or \
            not _between(board, supply, "GND", "100k"):
        out.append("SUPPLY_ADC = GP%d (%r) is not the middle of a 100k/100k divider from the "
                   "battery pin (%r) to GND" % (pins["SUPPLY_ADC"], supply, bat))
    return out


INPUTS = (("J1", "1"), ("J5", "1"))  # the screw terminal's +, the battery module's 5 V out


def check_protection(board):
    """Every 5 V consumer behind the protection: the inputs' + pins share one net (VIN) that
    reaches only the reverse-polarity MOSFET's drain (Q1: gate on GND, so a swapped supply
    sees an off transistor); its source's net reaches only the resettable fuse (F1), whose
    other side is +5V. Anything else on VIN or between Q1 and F1 (a LED, the Pico's diode,
    a capacitor) is a consumer without protection, and fails."""
    out = []
    vin = {_nets(board, ref)[pad] for ref, pad in INPUTS}
    if len(vin) != 1:
        return ["the inputs' + pins are on different nets %s" % sorted(vin)]
    vin = vin.pop()
    f1 = _nets(board, "F1")
    q1 = fet_nets(board, "Q1")
    if isinstance(q1, str):
        return [q1]
    if q1["D"] != vin or q1["G"] != "GND":
        out.append("Q1 (reverse polarity) is not drain on the input, gate on GND")
    drain = {("Q1", n) for n in FET_PINS["D"]}
    extra = [p for p in _on(board, vin) if p not in INPUTS and p not in drain]
    if extra:
        out.append("on the unprotected input %s: %s" % (vin, ", ".join("%s pad %s" % p
                                                                        for p in extra)))
    mid = q1["S"]
    source = {("Q1", n) for n in FET_PINS["S"]}
    extra = [p for p in _on(board, mid) if p not in source and p != ("F1", "1")]
    if f1["1"] != mid or extra:
        out.append("between Q1 and the fuse (%s): %s" % (mid, ", ".join("%s pad %s" % p
                                                                         for p in extra)))
    if f1["2"] != "+5V":
        out.append("the fuse's output is %r, not +5V" % f1["2"])
    d254 = _nets(board, "D254")
    if d254["2"] != "+5V":
        out.append("the Pico's VSYS diode is fed from %r, not the protected +5V" % d254["2"])
    return out


def check_bom(board, info, parts=None):
    """Every part on the board has a row in hardware/pcb/parts.csv; every assembled (SMD)
    part an LCSC number (the assembler's), or is marked consigned (the maker's reel)."""
    parts = parts or fab.table()
    out = []
    seen = set()
    for ref, fp in sorted(board.footprints.items()):
        key = (fp["value"], fp["lib"].split(":")[-1])
        if key in seen:
            continue
        seen.add(key)
        row = parts[0].get(key)
        if row is None:
            out.append("%s (%s, %s) has no row in hardware/pcb/parts.csv" % (ref, *key))
        elif fp["smd"] and row["assembly"] == "smd" and not re.match(r"C\d+$", row["lcsc"]):
            out.append("%s (%s) is assembled but has no LCSC number" % (ref, key[0]))
        elif row["assembly"] not in fab.HOW and row["assembly"] != "none":
            out.append("%s: unknown assembly %r" % (ref, row["assembly"]))
    return out


def check_rotations(board, info, folder):
    """The committed pick-and-place file's rotations, per side: the top's KiCad's angle plus
    the reel's correction, the back's seen from below (180 - KiCad's + the correction);
    each row's side the footprint's."""
    parts, _extra = fab.table()
    path = os.path.join(folder, "cribbage-track-%s-cpl.csv" % info["led"])
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            fp = board.footprints.get(r["Designator"])
            if fp is None:
                out.append("%s in the CPL is not on the board" % r["Designator"])
                continue
            back = fp["layer"] == "B.Cu"
            row = parts[fp["value"], fp["lib"].split(":")[-1]]
            want = fab.cpl_rotation(fp["rot"], back, row["rotation"])
            if r["Layer"] != ("Bottom" if back else "Top") or \
                    abs(float(r["Rotation"]) - want) > 0.01:
                out.append("%s: %s %s degrees in the CPL, the board gives %s %g"
                           % (r["Designator"], r["Layer"], r["Rotation"],
                              "Bottom" if back else "Top", want))
    return out


def check_zones(board):
    """Both pours join pads through thermal reliefs (spokes), not solidly: no 0402 or LED
    pad on a board-sized heat sink in reflow, no ground pin that needs a hot iron. The only
    other copper zones are the MOSFETs' drain copper (check_fet_copper), which joins its pads
    solidly: the exposed pad is the heat's way out."""
    out = []
    pours = [z for z in board.zones if not z.get("priority")]
    if len(pours) != 2:
        out.append("%d pours, want the LED rail's and GND's" % len(pours))
    drains = set()
    for ref in ("Q1", "Q2"):
        fet = fet_nets(board, ref) if ref in board.footprints else None
        if isinstance(fet, dict):
            drains.add(fet["D"])
    for z in board.zones:
        if z.get("priority"):
            if z["net"] not in drains or z["pads"] != "solid":
                out.append("a zone on %s (%s, joining pads %s) is neither a pour nor a "
                           "MOSFET's drain copper" % (z["net"], z["layer"], z["pads"]))
            continue
        if z["pads"] != "thermal" or not z["gap"] or not z["spoke"]:
            out.append("the %s pour on %s joins pads %s (gap %g, spokes %g mm), not through "
                       "thermal reliefs" % (z["net"], z["layer"], z["pads"], z["gap"],
                                            z["spoke"]))
    return out


FIDUCIAL_EDGE_MM = 5.0  # some assembly lines want fiducials 3-5 mm clear of the rails


def check_fet_copper(board, info):
    """Q1 and Q2 are the AONR21357, and each one's drain (the exposed pad) sits in a zone of
    its drain net on both layers, joining its pads solidly, each filled with at least a
    square inch of copper (measured by the generator on the filled zones, board.json), and
    stitched by vias: the datasheet's 1 in^2 of 2 oz copper as two layers of 1 oz, on which
    its thermal resistances (FET_RTH_JA, FET_RTH_JA_10S) hold."""
    out = []
    areas = info.get("fet_copper_mm2") or {}
    vias = info.get("fet_vias") or {}
    for ref in ("Q1", "Q2"):
        fet = fet_nets(board, ref)
        if isinstance(fet, str):
            out.append(fet)
            continue
        for layer in ("F.Cu", "B.Cu"):
            zones = [z for z in board.zones if z.get("priority") and z["net"] == fet["D"]
                     and z["layer"] == layer and z["pads"] == "solid"]
            mm2 = areas.get(ref, {}).get(layer, 0.0)
            if not zones or mm2 < FET_COPPER_MM2:
                out.append("%s's drain (%s) has %.0f mm^2 of copper on %s, the datasheet's "
                           "thermal figures want %.0f" % (ref, fet["D"], mm2 if zones else 0,
                                                          layer, FET_COPPER_MM2))
        if vias.get(ref, 0) < FET_VIAS_MIN:
            out.append("%s's drain copper is stitched by %d vias (%d wanted)"
                       % (ref, vias.get(ref, 0), FET_VIAS_MIN))
    return out


def check_marks(board, info):
    """Fiducials (three per assembled side) and test points on +5V, GND and LED 0's data."""
    out = []
    sides = ("F.Cu", "B.Cu") if info["led_layer"] == "B.Cu" else ("F.Cu",)
    for side in sides:
        n = sum(1 for fp in board.footprints.values()
                if fp["lib"].endswith(":Fiducial_1mm_Mask2mm") and fp["layer"] == side)
        if n < 3:
            out.append("%d fiducials on %s, an assembler wants 3" % (n, side))
    left, top, right, bottom = info["outline_mm"]
    for fp in board.footprints.values():
        if fp["lib"].endswith(":Fiducial_1mm_Mask2mm"):
            x, y = fp["at"]
            edge = min(x - left, right - x, y - top, bottom - y)
            if edge < FIDUCIAL_EDGE_MM - 1e-6:
                out.append("%s is %.2f mm from the board's edge (%g wanted: an assembly line's "
                           "rails)" % (fp["ref"], edge, FIDUCIAL_EDGE_MM))
    din = board.pad("D1", pcb_parts.PARTS[info["led"]].pin("DIN"))["net"]
    probed = {p["net"] for fp in board.footprints.values() if fp["lib"].startswith("TestPoint:")
              for p in fp["pads"]}
    for net, what in (("+5V", "5 V"), ("GND", "ground"), (din, "LED 0's data")):
        if net not in probed:
            out.append("no test point on %s (%s)" % (what, net))
    part = pcb_parts.PARTS[info["led"]]
    side = "B." if part.back else "F."
    for fp in board.footprints.values():
        if fp["value"] == part.value and (fp["drawn"].get(side + "SilkS", 0) < 1
                                          or fp["drawn"].get(side + "CrtYd", 0) < 4):
            out.append("%s has no pin 1 mark or no courtyard" % fp["ref"])
            break
    return out


def _inside(poly, x, y):
    """Is (x, y) inside (or on) the polygon?"""
    n = len(poly)
    hit = False
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if min(x0, x1) - 1e-9 <= x <= max(x0, x1) + 1e-9 and \
                min(y0, y1) - 1e-9 <= y <= max(y0, y1) + 1e-9 and \
                abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) < 1e-9:
            return True  # on an edge
        if (y0 > y) != (y1 > y) and x < x0 + (x1 - x0) * (y - y0) / (y1 - y0):
            hit = not hit
    return hit


def check_footprint(part):
    """A footprint the generator writes itself (the reverse-mount LED) against its data: the
    cutout fits the body even milled MILL_TOL small on every side, the pads keep 0.3 mm
    from the cutout, pin 1 is marked nearer pad 1 than any other pad and clear of every pad,
    and the courtyard holds every pad and the cutout."""
    if part.footprint is not None:
        return []  # KiCad's own
    out = []
    (bl, bw), (cl, cw) = part.DATASHEET["body"], part.CUTOUT
    if min(cl - bl, cw - bw) / 2 < part.MILL_TOL + 0.05:
        out.append("%s: the cutout %g x %g leaves %.2f mm per side around the %g x %g body, "
                   "less than the fab's +-%g mm milling and 0.05 mm" % (
                       part.value, cl, cw, min(cl - bl, cw - bw) / 2, bl, bw, part.MILL_TOL))
    px, py = part.PAD_SIZE
    gap = min(abs(x) for x, _y in part.PADS.values()) - px / 2 - cl / 2
    if gap < 0.3 - 1e-9:
        out.append("%s: pads %.2f mm from the cutout (0.3 wanted)" % (part.value, gap))

    def dist(pt, pad):
        x, y = part.PADS[pad]
        dx = max(abs(pt[0] - x) - px / 2, 0.0)
        dy = max(abs(pt[1] - y) - py / 2, 0.0)
        return (dx * dx + dy * dy) ** 0.5
    one = part.PIN["VDD"] if part.PIN.get("VDD") == "1" else "1"
    dot = part.PIN1_DOT
    near = min(part.PADS, key=lambda n: dist(dot, n))
    if near != one:
        out.append("%s: the pin 1 mark is nearest pad %s" % (part.value, near))
    clear = min(dist(dot, n) for n in part.PADS) - 0.3  # the dot's radius and line
    for (bx, by) in part.PIN1_BAR:
        clear = min(clear, min(dist((bx, by), n) for n in part.PADS) - part.SILK_W / 2)
    if clear < 0.2:
        out.append("%s: the pin 1 mark is %.2f mm from a pad (0.2 wanted)" % (part.value,
                                                                             clear))
    for x, y in part.RELIEFS:
        gap = min(dist((x, y), n) for n in part.PADS) - part.RELIEF_D / 2
        if gap < 0.3 - 1e-9:
            out.append("%s: a corner relief %.2f mm from a pad (0.3 wanted)" % (part.value, gap))
    if not cutout_fits(part, part.MILL_TOL, part.ROUTER_R):
        out.append("%s: the body does not fit a cutout milled %g mm small with a %g mm corner "
                   "radius" % (part.value, part.MILL_TOL, part.ROUTER_R))
    corners = [(x + sx * px / 2, y + sy * py / 2) for x, y in part.PADS.values()
               for sx in (-1, 1) for sy in (-1, 1)]
    corners += [(sx * cl / 2, sy * cw / 2) for sx in (-1, 1) for sy in (-1, 1)]
    outside = [c for c in corners if not _inside(part.COURTYARD, *c)]
    if outside:
        out.append("%s: the courtyard leaves out %s" % (part.value, outside[:2]))
    return out


def cutout_fits(part, small, radius, reliefs=None, steps=400):
    """Does the reverse-mount LED's body (DATASHEET's, sharp-cornered) fit its cutout milled
    `small` mm small on every side with every inner corner rounded to `radius` (a router's
    tool), given the corner reliefs (drilled DRILL_TOL small)? Every point of the body's
    outline must be in the milled cutout or in a relief hole."""
    reliefs = part.RELIEFS if reliefs is None else reliefs
    bx, by = part.DATASHEET["body"][0] / 2, part.DATASHEET["body"][1] / 2
    hx, hy = part.CUTOUT[0] / 2 - small, part.CUTOUT[1] / 2 - small
    r_hole = part.RELIEF_D / 2 - part.DRILL_TOL

    def free(x, y):
        ax, ay = abs(x), abs(y)
        if ax <= hx and ay <= hy:
            fx, fy = hx - radius, hy - radius  # the rounded corner's centre
            if not (ax > fx and ay > fy and ((ax - fx) ** 2 + (ay - fy) ** 2) ** 0.5 > radius):
                return True
        return any(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= r_hole for cx, cy in reliefs)
    for i in range(steps + 1):
        t = -1 + 2 * i / steps
        for sx in (-1, 1):
            if not free(sx * bx, t * by) or not free(t * bx, sx * by):
                return False
    return True


def strip_refs(board, info, L=None):
    """The controller strip's parts (pcb/generate.py's strip_parts): every footprint but the
    LEDs and their capacitors (D and C up to the layout's count), the fiducials and the
    mounting holes."""
    count = (L or layout_mod.Layout()).count
    out = []
    for ref in board.footprints:
        m = re.match(r"([A-Z]+)(\d+)$", ref)
        if ref.startswith(("FID", "H")) or (m and m.group(1) in "DC" and int(m.group(2)) <= count):
            continue
        out.append(ref)
    return sorted(out)


FIELD_TOP = -14.0  # layout mm: the LED field's top (pcb/kicad.py), the strip above it
TP_LABELS = {"TP1": "+5V", "TP2": "GND", "TP3": "DIN", "TP4": "RAIL"}
LABEL_GAP_MM = 0.15  # JLCPCB's characters: 0.15 mm from pads at least
TP_LABEL_NEAR_MM = 7.0  # a test point's label this near its pad (box to box) at the most
SILK_MIN_MM = 0.15  # and every stroke 0.15 mm wide at least


def check_labels(board, info):
    """Which part is which, on the top's silkscreen: every controller-strip part's reference,
    and what each test point carries beside it (within 6 mm), each label's strokes (read.py's
    glyph_box) LABEL_GAP_MM or more from every top pad, and above the LED field."""
    out = []
    texts = [(text, box) for owner, kind, text, box in board.silk
             if owner == "board" and kind == "text"]
    words = {}
    for text, box in texts:
        for w in text.split():
            words.setdefault(w, []).append(box)
    oy = info["origin_mm"][1]
    for ref in strip_refs(board, info):
        if ref not in words:
            out.append("%s's reference is not on the silkscreen" % ref)
    for tp, net in TP_LABELS.items():
        pad = pad_box(board.footprints[tp]["pads"][0])
        if not any(_gap(b, pad) <= TP_LABEL_NEAR_MM for b in words.get(net, ())):
            out.append("no %r printed within %g mm of %s" % (net, TP_LABEL_NEAR_MM, tp))
    refs = set(strip_refs(board, info))
    tp_of = {net: tp for tp, net in TP_LABELS.items()}

    def beside(t, b):  # a test point's net alone, near it (J5's own "GND" is not one)
        tp = tp_of.get(t)
        return tp and _gap(b, pad_box(board.footprints[tp]["pads"][0])) <= TP_LABEL_NEAR_MM
    texts = [(t, b) for t, b in texts if t.split()[0] in refs or beside(t, b)]
    owned = [(pad_box(p), ref) for ref, fp in board.footprints.items() for p in fp["pads"]
             if any(lay.startswith(("F.", "*.")) for lay in p["layers"])]
    pads = [b for b, _r in owned]
    for text, (x0, y0, x1, y1) in texts:
        g = _glyphs(text, (x0, y0, x1, y1))
        ref = text.split()[0] if text.split()[0] in refs else tp_of[text]
        mine = min(_gap(g, b) for b, r in owned if r == ref)
        kind = ref.rstrip("0123456789")
        other = [r for b, r in owned if r != ref and r.rstrip("0123456789") == kind
                 and _gap(g, b) <= mine]
        if other:
            out.append("the label %r is nearer %s than %s" % (text, other[0], ref))
        for b in pads:
            if not (g[2] + LABEL_GAP_MM <= b[0] or b[2] + LABEL_GAP_MM <= g[0]
                    or g[3] + LABEL_GAP_MM <= b[1] or b[3] + LABEL_GAP_MM <= g[1]):
                out.append("the label %r comes within %g mm of a pad at (%.2f, %.2f)"
                           % (text, LABEL_GAP_MM, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2))
                break
        if y1 - oy > FIELD_TOP:
            out.append("the label %r is over the LED field" % text)
    return out


def _glyphs(text, box):
    """A label's strokes' box (read.py's glyph_box) from the box read.py's silk gives it,
    horizontal or turned 90 degrees (its size from whichever fits)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for upright in (False, True):
        size = ((x1 - x0) if upright else (y1 - y0)) / 1.9  # (read.py's TEXT_H)
        thick = max(size * 0.15, SILK_MIN_MM)
        along = len(text) * size * TEXT_W + thick
        if abs(along - ((y1 - y0) if upright else (x1 - x0))) < 1e-3:
            w, h = along, size * GLYPH_H + thick
            if upright:
                w, h = h, w
            return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    size = (y1 - y0) / 1.9  # (not a box read.py gives: taken as horizontal)
    w, h = len(text) * size * TEXT_W + SILK_MIN_MM, size * GLYPH_H + SILK_MIN_MM
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _gap(a, b):
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return (dx * dx + dy * dy) ** 0.5


def check_silk_strokes(board, info):
    """Every silkscreen stroke the board prints (lines, circles, texts) SILK_MIN_MM wide or
    more: JLCPCB does not print thinner ones reliably."""
    return ["silkscreen %s %s%s is %.3f mm wide (%g wanted)"
            % (owner, kind, " %r" % text if text else "", w, SILK_MIN_MM)
            for owner, kind, text, w in board.strokes if w < SILK_MIN_MM - 1e-9][:5]


def symbol_pins(name, path=None):
    """{pin name: number} of a symbol in KiCad's LED library, or None (no such symbol)."""
    path = path or os.path.join(SYMBOLS, "LED.kicad_sym")
    with open(path) as f:
        text = f.read()
    i = text.find('(symbol "%s"' % name)
    if i < 0:
        return None
    j = text.find('\n  (symbol "', i + 1)
    block = text[i:j if j > 0 else len(text)]
    return dict(re.findall(r'\(pin \w+ \w+.*?\(name "([^"]*)".*?\(number "([^"]*)"', block,
                           re.S))


def check_symbol(part, path=None):
    """The part's pin map against KiCad's own symbol for it (the first the library has)."""
    for name in part.symbols:
        pins = symbol_pins(name, path)
        if pins is not None:
            if pins != part.PIN:
                return ["%s: KiCad's symbol %s has %s, the generator uses %s"
                        % (part.value, name, sorted(pins.items()), sorted(part.PIN.items()))]
            return []
    return ["no KiCad symbol for %s (looked for %s)" % (part.value, ", ".join(part.symbols))]


def read_gerbers(zpath):
    """{layer or drill name: gerbonara file} from a zip the generator wrote."""
    from gerbonara import ExcellonFile, GerberFile
    out = {}
    with zipfile.ZipFile(zpath) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in z.namelist():
            text = z.read(name).decode()
            key = name.rsplit("-", 1)[1].rsplit(".", 1)[0]
            if name.endswith(".drl"):
                out[key] = ExcellonFile.from_string(text)
            else:
                out[key] = GerberFile.from_string(text)
    return out


def check_gerbers(board, info, zpath):
    """Every layer there, the outline the stated size, a drill per via and THT pad."""
    out = []
    files = read_gerbers(zpath)
    for layer in LAYERS + ("PTH", "NPTH"):
        if layer not in files:
            out.append("no %s in %s" % (layer, os.path.basename(zpath)))
    if out:
        return out
    for layer in LAYERS:
        if layer.endswith("Paste") and info["led_layer"][0] != layer[0]:
            continue  # no SMD part on that side
        if not files[layer].objects:
            out.append("%s is empty" % layer)
    (x0, y0), (x1, y1) = files["Edge_Cuts"].bounding_box(unit=_mm())
    w, h = info["size_mm"]
    if abs((x1 - x0) - w) > 0.2 or abs((y1 - y0) - h) > 0.2:
        out.append("outline %.2f x %.2f mm, stated %g x %g" % (x1 - x0, y1 - y0, w, h))
    pth = len(list(files["PTH"].drills()))
    npth = len(list(files["NPTH"].drills()))
    if pth != len(board.vias) + board.tht_pads():
        out.append("%d plated drills, the board has %d vias + %d through-hole pads"
                   % (pth, len(board.vias), board.tht_pads()))
    if npth != board.npth():
        out.append("%d unplated drills, the board has %d mounting holes" % (npth, board.npth()))
    return out


def _mm():
    from gerbonara.utils import MM
    return MM


def ipc2221_amps(width_mm, oz=1.0, rise=RISE_C):
    """Current (A) an outer-layer copper width carries for a temperature rise (IPC-2221)."""
    area_mil2 = (width_mm / 0.0254) * (oz * 1.378)
    return 0.048 * rise ** 0.44 * area_mil2 ** 0.725


def current_need_ma(L=None):
    """What the 5 V copper must carry at the firmware's default limit: the limit the renderer
    keeps every frame under, plus every LED's idle draw and the controller."""
    L = L or layout_mod.Layout()
    limit = settings.Settings().get("limit")  # its default
    return limit + L.count * render.IDLE_UA // 1000 + BOARD_MA


def check_current(info, L=None):
    need = current_need_ma(L)
    amps = ipc2221_amps(info["pour_min_width_mm"], info["copper_oz"])
    if amps * 1000 < need:
        return ["the 5 V pour's narrowest %.2f mm carries %.1f A (IPC-2221, %d C rise), the "
                "firmware's default limit needs %d mA" % (info["pour_min_width_mm"], amps,
                                                          RISE_C, need)]
    return []


def check_drc(info):
    """KiCad's DRC: no error, no unconnected item, and no warning (silkscreen over a pad or
    across the board's edge, a dangling via...): drc.rpt lists each. Silkscreen wholly off
    the board or too near its edge KiCad 6 does not see: check_silk."""
    warned = info.get("drc_warnings")
    if info["drc_errors"] or info["unconnected"] or warned != 0:
        return ["DRC: %d errors, %d unconnected, %s warnings (drc.rpt)"
                % (info["drc_errors"], info["unconnected"], warned)]
    return []


SILK_EDGE_MM = 0.3  # silkscreen kept this far inside the outline: a fab mills the edge to
# +-0.2 mm (parts.py's MILL_TOL), and a line clipped by the router prints ragged


def check_silk(board, info, margin=SILK_EDGE_MM):
    """Every silkscreen item (the board's labels and lines, every footprint's marks and
    outlines, texts at their printed size, arcs as whole circles) inside the board's outline
    by margin, and as far from every cutout (the reverse-mount LEDs' holes). KiCad 6's DRC
    does not check silkscreen against the board's edge (its silkscreen tests are over pads
    and over other silkscreen, and across the edge), so this does."""
    left, top, right, bottom = info["outline_mm"]
    out = []
    for owner, kind, text, (x0, y0, x1, y1) in board.silk:
        over = max(left + margin - x0, top + margin - y0, x1 - (right - margin),
                   y1 - (bottom - margin))
        what = "silkscreen %s %s%s" % (owner, kind, " %r" % text if text else "")
        if over > 0:
            out.append("%s is %.2f mm too near the board's edge or off it (box %.2f, %.2f to "
                       "%.2f, %.2f mm; keep %.2f mm inside)" % (what, over, x0 - left,
                                                               bottom - y1, x1 - left,
                                                               bottom - y0, margin))
        for cut, (a0, b0, a1, b1) in board.cutouts:  # (a hole in the board: off it too)
            if x0 < a1 + margin and x1 > a0 - margin and y0 < b1 + margin and y1 > b0 - margin:
                out.append("%s reaches within %.2f mm of %s's cutout" % (what, margin, cut))
    return out


def check_all(led, folder=None, L=None):
    board, info = load(led, folder)
    folder = folder or option_dir(led)
    out = check_drc(info) + check_leds(board, info, L) + check_controller(board)
    out += check_power(board) + check_protection(board) + check_bom(board, info)
    out += check_zones(board) + check_fet_copper(board, info) + check_marks(board, info)
    out += check_silk(board, info)
    out += check_footprint(pcb_parts.PARTS[info["led"]])
    out += check_labels(board, info) + check_silk_strokes(board, info)
    out += check_gerbers(board, info, os.path.join(folder, "cribbage-track-%s-gerbers.zip"
                                                   % info["led"]))
    out += check_current(info, L)
    out += check_fab(board, info, folder, L) + check_rotations(board, info, folder)
    return out


# --- fabrication files: the committed BOM and CPL against the board ------------------------

def check_fab(board, info, folder, L=None):
    """The committed BOM and CPL are what the board gives, and the CPL's LEDs sit where the
    layout puts them (the file a fab places parts from is checked against the firmware)."""
    out = []
    bom, cpl = fab.fab_text(board, info)
    name = "cribbage-track-%s" % info["led"]
    for suffix, text in (("-bom.csv", bom), ("-cpl.csv", cpl)):
        path = os.path.join(folder, name + suffix)
        if not os.path.exists(path) or _read(path) != text:
            out.append("%s is not what the board gives: make pcb" % os.path.basename(path))
    out += check_cpl_layout(folder, info, L)
    return out


def _read(path):
    with open(path) as f:
        return f.read()


def check_cpl_layout(folder, info, L=None):
    """Every LED of the layout in the committed pick-and-place file, at its position."""
    L = L or layout_mod.Layout()
    path = os.path.join(folder, "cribbage-track-%s-cpl.csv" % info["led"])
    with open(path) as f:
        rows = {r["Designator"]: r for r in csv.DictReader(f)}
    left, _top, _right, bottom = info["outline_mm"]
    ox, oy = info["origin_mm"]
    out = []
    for p in range(L.count):
        r = rows.get("D%d" % (p + 1))
        if r is None:
            out.append("LED %d missing from %s" % (p, os.path.basename(path)))
            continue
        x = float(r["Mid X"]) + left - ox
        y = bottom - float(r["Mid Y"]) - oy
        lx, ly = L.xy(p)
        if abs(x - lx) > TOL or abs(y - ly) > TOL:
            out.append("LED %d at (%.3f, %.3f) in %s, the layout has (%.3f, %.3f): regenerate "
                       "the PCB (make pcb)" % (p, x, y, os.path.basename(path), lx, ly))
    return out



# --- main -----------------------------------------------------------------------------------

def generate(led, folder):
    """Run the KiCad generator (system python3 with pcbnew) for one LED option."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([KICAD_PY, os.path.join(ROOT, "tools", "pcb", "generate.py"), "--led",
                        led, "--out", folder], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit("pcb/generate.py --led %s failed:\n%s%s" % (led, r.stdout, r.stderr))
    return r.stdout.strip()


def write(led, folder=None):
    folder = folder or option_dir(led)
    board, info = load(led, folder)
    bom, cpl = fab.fab_text(board, info)
    name = os.path.join(folder, "cribbage-track-%s" % info["led"])
    with open(name + "-bom.csv", "w") as f:
        f.write(bom)
    with open(name + "-cpl.csv", "w") as f:
        f.write(cpl)
    fab.picture(board, info, name + ".png")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generate", action="store_true", help="run the KiCad generator first")
    ap.add_argument("--write", action="store_true", help="write BOM, CPL and picture")
    ap.add_argument("--led", choices=sorted(OPTIONS), action="append")
    a = ap.parse_args(argv)
    bad = 0
    for led in a.led or sorted(OPTIONS):
        if a.generate:
            print(generate(led, option_dir(led)))
        if a.generate or a.write:
            write(led)
        problems = check_all(led) + check_symbol(pcb_parts.PARTS[led])
        _board, info = load(led)
        print("%s: %s, %g x %g mm, %d LEDs, 5 V pour >= %.2f mm = %.1f A at %d C rise "
              "(needs %.2f A): %s" % (OPTIONS[led], info["part"], info["size_mm"][0],
                                      info["size_mm"][1], layout_mod.Layout().count,
                                      info["pour_min_width_mm"],
                                      ipc2221_amps(info["pour_min_width_mm"]), RISE_C,
                                      current_need_ma() / 1000,
                                      "ok" if not problems else "%d problems" % len(problems)))
        for p in problems:
            print("  " + p)
        bad += len(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
