"""The generated PCB's files read back in .venv (no KiCad): the board file as the text it is
(KiCad's s-expressions) into footprints, pads, nets, tracks, vias and edges."""

import json
import math
import os
import re

from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

PCB_DIR = os.path.join(ROOT, "hardware", "pcb")
OPTIONS = {"2020": "ws2812b-2020", "mini-e": "sk6812mini-e"}  # --led -> folder


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
            drawn = {}  # layer -> how many lines, circles, arcs (silkscreen, courtyard, ...)
            for kind in ("fp_line", "fp_circle", "fp_arc", "fp_poly", "fp_rect"):
                for s in _kids(fp, kind):
                    layer = _kid(s, "layer")[1]
                    drawn[layer] = drawn.get(layer, 0) + 1
            if ref in self.footprints:  # (a BOM and a pick-and-place would drop one)
                raise ValueError("two footprints are %s" % ref)
            self.footprints[ref] = {"ref": ref, "value": value, "lib": fp[1],
                                    "layer": _kid(fp, "layer")[1], "at": (x, y), "rot": rot,
                                    "smd": bool(attr and "smd" in attr), "pads": pads,
                                    "drawn": drawn}
        self.vias = [[float(v) for v in _kid(v, "at")[1:3]] for v in _kids(tree, "via")]
        self.zones = []  # {net, layer, pads: "thermal" / "solid" / "none", gap, spoke}
        for z in _kids(tree, "zone"):
            cp = _kid(z, "connect_pads")
            mode = cp[1] if len(cp) > 1 and isinstance(cp[1], str) else "thermal"
            fill = _kid(z, "fill") or []
            gap, spoke = _kid(fill, "thermal_gap"), _kid(fill, "thermal_bridge_width")
            self.zones.append({"net": _kid(z, "net_name")[1], "layer": _kid(z, "layer")[1],
                               "pads": {"yes": "solid", "no": "none"}.get(mode, mode),
                               "gap": float(gap[1]) if gap else 0.0,
                               "spoke": float(spoke[1]) if spoke else 0.0})
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
