"""Reads the generated PCB back and checks it against the firmware's own data (issue 25).

    python tools/pcb_check.py                # check every committed board in hardware/pcb/
    python tools/pcb_check.py --write        # also (re)write its BOM, pick-and-place, picture
    python tools/pcb_check.py --generate     # run the KiCad generator first (make pcb)

Runs in .venv (no KiCad needed to check the committed files): the board file is read as the
text it is (KiCad's s-expressions), the Gerbers and drill files with gerbonara. What is checked:
every LED where firmware/board/layout.py's Layout() puts it (within 0.01 mm), the chain in
pixel order (each DIN on the previous DOUT's net), VDD on +5V and VSS on GND, the pin names
against KiCad's own symbol, the Pico's pins against firmware/boards/pico.py, every Gerber layer
present with the outline the stated size and one drill per via and through-hole pad, the DRC
result, and the 5 V copper against the firmware's current limit.

The generator itself (tools/pcb_board.py) needs KiCad 6's pcbnew, which lives in the system
python3: --generate calls it as a subprocess (KICAD_PY, default /usr/bin/python3).
"""

import argparse
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
import warnings
import zipfile

from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

import pcb_parts
from board import layout as layout_mod
from board import render, settings
from boards import pico
from wiring_diagram import PICO_PHYSICAL

PCB_DIR = os.path.join(ROOT, "hardware", "pcb")
OPTIONS = {"2020": "ws2812b-2020", "mini-e": "sk6812mini-e"}  # --led -> folder
KICAD_PY = os.environ.get("KICAD_PY", "/usr/bin/python3")
SYMBOLS = os.environ.get("KICAD_SYMBOL_DIR", "/usr/share/kicad/symbols")
TOL = 0.01  # mm: an LED off its layout position by more is a different board
LAYERS = ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Paste", "B_Paste", "F_Silkscreen",
          "B_Silkscreen", "Edge_Cuts")
BOARD_MA = 80  # the controller's own draw (an ESP32; a Pico draws less): tools/drill_template
RISE_C = 10  # IPC-2221 temperature rise the copper is rated at


# --- reading the board file -----------------------------------------------------------------

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def sexp(text):
    """KiCad's s-expression text as nested lists of strings."""
    stack = [[]]
    for m in _TOKEN.finditer(text):
        t = m.group()
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1] if t[0] == '"' else t)
    return stack[0][0]


def _kids(node, name):
    return [n for n in node if isinstance(n, list) and n and n[0] == name]


def _kid(node, name):
    k = _kids(node, name)
    return k[0] if k else None


def _place(x, y, rot, px, py):
    """A footprint's local point on the board (KiCad: degrees counter-clockwise, y down)."""
    a = math.radians(rot)
    return (x + px * math.cos(a) + py * math.sin(a), y - px * math.sin(a) + py * math.cos(a))


class Board:
    """What a .kicad_pcb file holds that the checks need: footprints with their pads (absolute
    positions, nets), vias, tracks."""

    def __init__(self, path):
        with open(path) as f:
            tree = sexp(f.read())
        self.path = path
        self.footprints = {}
        self.edges = []
        for fp in _kids(tree, "footprint"):
            at = [float(v) for v in _kid(fp, "at")[1:]]
            x, y, rot = at[0], at[1], at[2] if len(at) > 2 else 0.0
            for s in _kids(fp, "fp_line"):
                if _kid(s, "layer")[1] == "Edge.Cuts":
                    self.edges.append(tuple(_place(x, y, rot, *(float(v) for v in
                                                                 _kid(s, key)[1:3]))
                                            for key in ("start", "end")))
            ref = value = ""
            for t in _kids(fp, "fp_text"):
                if t[1] == "reference":
                    ref = t[2]
                elif t[1] == "value":
                    value = t[2]
            attr = _kid(fp, "attr")
            pads = []
            for pad in _kids(fp, "pad"):
                ax, ay = _place(x, y, rot, *(float(v) for v in _kid(pad, "at")[1:3]))
                net = _kid(pad, "net")
                drill = _kid(pad, "drill")
                pads.append({"number": pad[1], "type": pad[2], "shape": pad[3], "at": (ax, ay),
                             "net": net[2] if net else "",
                             "drill": float(drill[1]) if drill else 0.0,
                             "size": tuple(float(v) for v in _kid(pad, "size")[1:3])})
            self.footprints[ref] = {"ref": ref, "value": value, "lib": fp[1],
                                    "layer": _kid(fp, "layer")[1], "at": (x, y), "rot": rot,
                                    "smd": bool(attr and "smd" in attr), "pads": pads}
        self.vias = [[float(v) for v in _kid(v, "at")[1:3]] for v in _kids(tree, "via")]
        self.segments = [(tuple(float(v) for v in _kid(s, "start")[1:3]),
                          tuple(float(v) for v in _kid(s, "end")[1:3]),
                          float(_kid(s, "width")[1]), _kid(s, "layer")[1])
                         for s in _kids(tree, "segment")]
        for s in _kids(tree, "gr_line"):
            if _kid(s, "layer")[1] == "Edge.Cuts":
                self.edges.append((tuple(float(v) for v in _kid(s, "start")[1:3]),
                                   tuple(float(v) for v in _kid(s, "end")[1:3])))

    def pad(self, ref, number):
        for p in self.footprints[ref]["pads"]:
            if p["number"] == number:
                return p
        raise KeyError("%s has no pad %s" % (ref, number))

    def tht_pads(self):
        return sum(1 for fp in self.footprints.values() for p in fp["pads"]
                   if p["type"] == "thru_hole")

    def npth(self):
        return sum(1 for fp in self.footprints.values() for p in fp["pads"]
                   if p["type"] == "np_thru_hole")


def option_dir(led):
    return os.path.join(PCB_DIR, OPTIONS[led])


def load(led, folder=None):
    """(Board, board.json info) of one LED option's generated folder."""
    folder = folder or option_dir(led)
    with open(os.path.join(folder, "board.json")) as f:
        info = json.load(f)
    name = "cribbage-track-%s" % info["led"]
    return Board(os.path.join(folder, name + ".kicad_pcb")), info


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
        if nets["VDD"] != "+5V":
            out.append("%s VDD on %r, not +5V" % (ref, nets["VDD"]))
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
    """The Pico's pins on the nets firmware/boards/pico.py wires; the level shifter's path."""
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
    if net("U1", 14) != "+5V":
        out.append("74AHCT125 VCC not on +5V")
    if net("U2", 39) != net("D254", 1) or net("D254", 2) != "+5V":
        out.append("VSYS is not fed from +5V through the 1N5817")
    for n in (3, 8, 13, 18, 23, 28, 33, 38):
        if net("U2", n) != "GND":
            out.append("Pico pin %d (GND) not on GND" % n)
    if net("J1", 1) != "+5V" or net("J1", 2) != "GND":
        out.append("the power terminal is not +5V, GND")
    if net("C255", 1) != "+5V" or net("C255", 2) != "GND":
        out.append("the bulk capacitor is not across +5V and GND")
    return out


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
    if info["drc_errors"] or info["unconnected"]:
        return ["DRC: %d errors, %d unconnected" % (info["drc_errors"], info["unconnected"])]
    return []


def check_all(led, folder=None, L=None):
    board, info = load(led, folder)
    folder = folder or option_dir(led)
    out = check_drc(info) + check_leds(board, info, L) + check_controller(board)
    out += check_gerbers(board, info, os.path.join(folder, "cribbage-track-%s-gerbers.zip"
                                                   % info["led"]))
    out += check_current(info, L)
    out += check_fab(board, info, folder, L)
    return out


# --- fabrication files: BOM and pick-and-place (CPL), from the board ------------------------

BOM_PARTS = {  # value -> (description, manufacturer part)
    "WS2812B-2020": ("addressable RGB LED 2.0 x 2.0 mm, 5 V", "Worldsemi WS2812B-2020"),
    "SK6812MINI-E": ("addressable RGB LED, reverse mount 3.2 x 2.8 mm, 5 V",
                     "Opsco SK6812MINI-E"),
    "100nF": ("ceramic capacitor 100 nF 16 V X7R", "any"),
    "330": ("resistor 330 ohm 1 %", "any"),
    "74AHCT125": ("quad buffer, TTL-level inputs (3.3 V to 5 V)", "Nexperia 74AHCT125D"),
    "1N5817": ("Schottky diode 1 A 20 V, DO-41 (through-hole)", "1N5817"),
    "1000uF 10V": ("electrolytic capacitor 1000 uF 10 V, D10 mm P5 mm (through-hole)", "any"),
}


def fab_rows(board, info):
    """BOM rows [(value, designators, footprint, description, mpn, how)] and CPL rows
    [(designator, x, y, side, rotation)] in mm from the board's bottom-left corner, y up."""
    left, _top, _right, bottom = info["outline_mm"]
    groups = {}
    cpl = []
    for ref, fp in sorted(board.footprints.items(), key=lambda kv: _ref_key(kv[0])):
        if ref.startswith("H"):
            continue  # mounting holes: drilled, not assembled
        key = (fp["value"], fp["lib"])
        groups.setdefault(key, []).append(ref)
        if fp["smd"]:
            side = "Bottom" if fp["layer"] == "B.Cu" else "Top"
            cpl.append((ref, "%.3f" % (fp["at"][0] - left), "%.3f" % (bottom - fp["at"][1]),
                        side, "%g" % (fp["rot"] % 360)))
    bom = []
    for (value, lib), refs in sorted(groups.items(), key=lambda kv: _ref_key(kv[1][0])):
        desc, mpn = BOM_PARTS.get(value, (value, "-"))
        smd = board.footprints[refs[0]]["smd"]
        bom.append((value, " ".join(refs), lib.split(":")[-1], desc, mpn,
                    "assembled (SMD)" if smd else "hand-soldered (through-hole)"))
    return bom, cpl


def _ref_key(ref):
    m = re.match(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def fab_text(board, info):
    """(bom.csv, cpl.csv) text: the columns a PCB assembly service's upload takes."""
    bom, cpl = fab_rows(board, info)
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(("Comment", "Designator", "Footprint", "Description", "Manufacturer Part",
                "Assembly"))
    w.writerows(bom)
    c = io.StringIO()
    w = csv.writer(c, lineterminator="\n")
    w.writerow(("Designator", "Mid X", "Mid Y", "Layer", "Rotation"))
    w.writerows(cpl)
    return b.getvalue(), c.getvalue()


def check_fab(board, info, folder, L=None):
    """The committed BOM and CPL are what the board gives, and the CPL's LEDs sit where the
    layout puts them (the file a fab places parts from is checked against the firmware)."""
    out = []
    bom, cpl = fab_text(board, info)
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


# --- the picture ----------------------------------------------------------------------------

def picture(board, info, path, scale=4):
    """A top view of the board as PNG (KiCad 6 has no renderer to call): outline, tracks,
    pads, holes and the LED order along the chain."""
    from PIL import Image, ImageDraw
    left, top, right, bottom = info["outline_mm"]
    w, h = int((right - left) * scale), int((bottom - top) * scale)
    img = Image.new("RGB", (w + 1, h + 1), (20, 70, 35))
    d = ImageDraw.Draw(img)

    def xy(x, y):
        return ((x - left) * scale, (y - top) * scale)
    front = info["led_layer"] == "F.Cu"
    for (a, b, width, layer) in board.segments:
        colour = (200, 160, 60) if (layer == "F.Cu") else (120, 110, 60)
        d.line([xy(*a), xy(*b)], fill=colour, width=max(1, int(width * scale)))
    for fp in board.footprints.values():
        for p in fp["pads"]:
            x, y = p["at"]
            sx, sy = p["size"]
            if p["type"] == "np_thru_hole":
                r = p["drill"] / 2 * scale
                d.ellipse([xy(x, y)[0] - r, xy(x, y)[1] - r, xy(x, y)[0] + r, xy(x, y)[1] + r],
                          fill=(0, 0, 0))
                continue
            hx, hy = (sy, sx) if abs(fp["rot"] % 180 - 90) < 1 else (sx, sy)
            cx, cy = xy(x, y)
            box = [cx - hx / 2 * scale, cy - hy / 2 * scale, cx + hx / 2 * scale,
                   cy + hy / 2 * scale]
            colour = (230, 200, 120) if p["type"] == "thru_hole" else (210, 210, 210)
            if p["shape"] in ("circle", "oval"):
                d.ellipse(box, fill=colour)
            else:
                d.rectangle(box, fill=colour)
            if p["drill"]:
                r = p["drill"] / 2 * scale
                d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(0, 0, 0))
        if fp["value"] in ("WS2812B-2020", "SK6812MINI-E"):
            cx, cy = xy(*fp["at"])
            r = 1.1 * scale
            d.ellipse([cx - r, cy - r, cx + r, cy + r],
                      fill=(250, 250, 250) if front else (255, 240, 200))
    for a, b in board.edges:
        d.line([xy(*a), xy(*b)], fill=(10, 10, 10), width=2)
    for v in board.vias:
        cx, cy = xy(*v)
        d.ellipse([cx - 1, cy - 1, cx + 1, cy + 1], fill=(180, 180, 180))
    d.rectangle([0, 0, w, h], outline=(230, 230, 230), width=2)
    title = ("%s: %g x %g mm, %d LEDs on the %s, chain from firmware/board/layout.py"
             % (info["part"], info["size_mm"][0], info["size_mm"][1],
                sum(1 for f in board.footprints.values() if f["value"] == info["part"]),
                "top" if front else "back (shining up through the cutouts)"))
    out = Image.new("RGB", (img.width, img.height + 22), (255, 255, 255))
    out.paste(img, (0, 0))
    ImageDraw.Draw(out).text((6, img.height + 5), title, fill=(0, 0, 0))
    out.save(path, optimize=True)


# --- main -----------------------------------------------------------------------------------

def generate(led, folder):
    """Run the KiCad generator (system python3 with pcbnew) for one LED option."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([KICAD_PY, os.path.join(ROOT, "tools", "pcb_board.py"), "--led", led,
                        "--out", folder], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit("pcb_board.py --led %s failed:\n%s%s" % (led, r.stdout, r.stderr))
    return r.stdout.strip()


def write(led, folder=None):
    folder = folder or option_dir(led)
    board, info = load(led, folder)
    bom, cpl = fab_text(board, info)
    name = os.path.join(folder, "cribbage-track-%s" % info["led"])
    with open(name + "-bom.csv", "w") as f:
        f.write(bom)
    with open(name + "-cpl.csv", "w") as f:
        f.write(cpl)
    picture(board, info, name + ".png")


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
