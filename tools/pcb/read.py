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


SILK = ("F.SilkS", "B.SilkS")
TEXT_W = 1.1  # a text's width per character per mm of its size, at most: KiCad 6's stroke
# font measured with pcbnew (EDA_TEXT.GetTextBox) on the boards' labels, 0.83-1.07
TEXT_H = 1.9  # and its height per mm of size (1.83-1.84 measured)
GLYPH_H = 1.2  # the strokes' own height per mm of size, at most (capitals and digits: 1.0,
# a "+" or a "1" no taller; no descenders in the labels): how near a label may come to a pad


def glyph_box(text, x, y, size, thick, upright=False):
    """The box a centred label's strokes fill (its printed ink, not KiCad's text box with its
    line spacing): TEXT_W per character, GLYPH_H high, plus the stroke; upright: turned 90
    degrees."""
    w = len(text) * size * TEXT_W + thick
    h = size * GLYPH_H + thick
    if upright:
        w, h = h, w
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _circle(a, b, c):
    """The centre and radius of the circle through three points (an arc's start, mid, end)."""
    (ax, ay), (bx, by), (cx, cy) = a, b, c
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if abs(d) < 1e-12:
        return ((ax + cx) / 2, (ay + cy) / 2), math.dist(a, c) / 2
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay)
          + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx)
          + (cx * cx + cy * cy) * (bx - ax)) / d
    return (ux, uy), math.dist((ux, uy), a)


def _box(points, grow=0.0):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow)


def silk_item(node, place=None):
    """(kind, text or "", bounding box (x0, y0, x1, y1) on the board) of one silkscreen
    drawing or text (gr_* at the board's level, fp_* in a footprint: place(x, y) puts its
    local points on the board), or None when it is not on a silkscreen or not printed (a
    hidden text). Arcs count as their whole circle and texts at TEXT_W, TEXT_H: the box is
    never smaller than what prints."""
    layer = _kid(node, "layer")
    if not layer or layer[1] not in SILK or "hide" in node[1:]:
        return None
    place = place or (lambda x, y: (x, y))
    kind = node[0].split("_", 1)[1]

    def pt(key):
        k = _kid(node, key)
        return place(float(k[1]), float(k[2]))
    width = _kid(node, "width")
    half = float(width[1]) / 2 if width else 0.0
    if kind in ("line", "rect"):
        return kind, "", _box([pt("start"), pt("end")], half)
    if kind == "circle":
        c = pt("center")
        r = math.dist(c, pt("end")) + half
        return kind, "", (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
    if kind == "arc":
        c, r = _circle(pt("start"), pt("mid"), pt("end"))
        r += half
        return kind, "", (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
    if kind == "poly":
        pts = _kid(node, "pts")
        return kind, "", _box([place(float(x[1]), float(x[2])) for x in _kids(pts, "xy")], half)
    if kind == "text":
        text = node[2] if node[0] == "fp_text" else node[1]
        at = _kid(node, "at")
        x, y = place(float(at[1]), float(at[2]))
        angle = float(at[3]) if len(at) > 3 else 0.0
        effects = _kid(node, "effects")
        font = _kid(effects, "font")
        size = _kid(font, "size")
        thick = _kid(font, "thickness")
        w = len(text) * float(size[2]) * TEXT_W + (float(thick[1]) if thick else 0.0)
        h = float(size[1]) * TEXT_H
        justify = _kid(effects, "justify") or []
        lo, hi = -w / 2, w / 2  # along the text, from its anchor
        if "left" in justify or "right" in justify:  # (mirrored on the back: the other way)
            left = ("left" in justify) != ("mirror" in justify)
            lo, hi = (0.0, w) if left else (-w, 0.0)
        if abs(angle % 180 - 90) < 1:  # vertical: along y (either way: both sides taken)
            reach = max(-lo, hi)
            return kind, text, (x - h / 2, y - reach, x + h / 2, y + reach)
        if abs(angle % 180) > 1:  # any other angle: the circle round it
            reach = math.hypot(max(-lo, hi), h / 2)
            return kind, text, (x - reach, y - reach, x + reach, y + reach)
        if abs(angle % 360 - 180) < 1:
            lo, hi = -hi, -lo
        return kind, text, (x + lo, y - h / 2, x + hi, y + h / 2)
    return kind, "", _box([pt("start"), pt("end")], half) if _kid(node, "start") else None


class Board:
    """What a .kicad_pcb file holds that the checks need: footprints with their pads (absolute
    positions, nets), vias, tracks."""

    def __init__(self, path):
        with open(path) as f:
            tree = sexp(f.read())
        self.path = path
        self.footprints = {}
        self.edges = []
        self.silk = []  # (owner: a footprint's reference or "board", kind, text, box)
        self.strokes = []  # (owner, kind, text, stroke width mm) of every printed silk item
        self.cutouts = []  # (owner, box) of the holes milled inside the outline
        for fp in _kids(tree, "footprint"):
            at = [float(v) for v in _kid(fp, "at")[1:]]
            x, y, rot = at[0], at[1], at[2] if len(at) > 2 else 0.0
            cut = []
            for s in _kids(fp, "fp_line"):
                if _kid(s, "layer")[1] == "Edge.Cuts":
                    cut.append(tuple(_place(x, y, rot, *(float(v) for v in _kid(s, key)[1:3]))
                                     for key in ("start", "end")))
            self.edges += cut
            if cut:  # a footprint's cutout (the reverse-mount LED's): its box
                self.cutouts.append((ref_of(fp), _box([p for s in cut for p in s])))
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
                pat = _kid(pad, "at")
                pads.append({"number": pad[1], "type": pad[2], "shape": pad[3], "at": (ax, ay),
                             "rot": float(pat[3]) if len(pat) > 3 else 0.0,
                             "layers": _kid(pad, "layers")[1:],
                             "net": net[2] if net else "",
                             "drill": float(drill[1]) if drill else 0.0,
                             "size": tuple(float(v) for v in _kid(pad, "size")[1:3])})
            for item in fp[1:]:
                if isinstance(item, list) and item and item[0].startswith("fp_"):
                    got = silk_item(item, lambda px, py, x=x, y=y, rot=rot:
                                    _place(x, y, rot, px, py))
                    if got:
                        self.silk.append((ref_of(fp),) + got)
                        self.strokes.append((ref_of(fp), got[0], got[1], stroke(item)))
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
        self.zones = []  # {net, layer, pads: "thermal" / "solid" / "none", gap, spoke,
        #                   priority: 0 the pours, 1 a MOSFET's drain copper}
        for z in _kids(tree, "zone"):
            cp = _kid(z, "connect_pads")
            mode = cp[1] if len(cp) > 1 and isinstance(cp[1], str) else "thermal"
            fill = _kid(z, "fill") or []
            gap, spoke = _kid(fill, "thermal_gap"), _kid(fill, "thermal_bridge_width")
            self.zones.append({"net": _kid(z, "net_name")[1], "layer": _kid(z, "layer")[1],
                               "pads": {"yes": "solid", "no": "none"}.get(mode, mode),
                               "gap": float(gap[1]) if gap else 0.0,
                               "spoke": float(spoke[1]) if spoke else 0.0,
                               "priority": int(_kid(z, "priority")[1])
                               if _kid(z, "priority") else 0})
        self.segments = [(tuple(float(v) for v in _kid(s, "start")[1:3]),
                          tuple(float(v) for v in _kid(s, "end")[1:3]),
                          float(_kid(s, "width")[1]), _kid(s, "layer")[1])
                         for s in _kids(tree, "segment")]
        for item in tree[1:]:
            if isinstance(item, list) and item and item[0].startswith("gr_"):
                got = silk_item(item)
                if got:
                    self.silk.append(("board",) + got)
                    self.strokes.append(("board", got[0], got[1], stroke(item)))
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


def stroke(node):
    """A silkscreen item's stroke width (mm): a drawing's width, a text's thickness (KiCad's
    default, its size / 8, when the file gives none); a filled shape's 0 counts as its own."""
    width = _kid(node, "width")
    if width:
        return float(width[1])
    effects = _kid(node, "effects")
    font = _kid(effects, "font") if effects else None
    thick = _kid(font, "thickness") if font else None
    if thick:
        return float(thick[1])
    size = _kid(font, "size") if font else None
    return float(size[1]) / 8 if size else 0.0


def pad_box(pad):
    """A pad's box on the board (its size turned with it: 0/90/180/270 degrees)."""
    sx, sy = pad["size"]
    if abs(pad.get("rot", 0.0) % 180 - 90) < 1:
        sx, sy = sy, sx
    x, y = pad["at"]
    return (x - sx / 2, y - sy / 2, x + sx / 2, y + sy / 2)


def ref_of(fp):
    """A footprint node's reference."""
    for t in _kids(fp, "fp_text"):
        if t[1] == "reference":
            return t[2]
    return ""


def option_dir(led):
    return os.path.join(PCB_DIR, OPTIONS[led])


def load(led, folder=None):
    """(Board, board.json info) of one LED option's generated folder."""
    folder = folder or option_dir(led)
    with open(os.path.join(folder, "board.json")) as f:
        info = json.load(f)
    name = "cribbage-track-%s" % info["led"]
    return Board(os.path.join(folder, name + ".kicad_pcb")), info
