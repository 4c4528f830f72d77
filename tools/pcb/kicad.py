"""KiCad 6's pcbnew, wrapped for the generator (pcb/generate.py): the board under construction
(Maker: nets, footprints, tracks, vias, zones, text), the footprints KiCad's library lacks
(the reverse-mount LED from pcb/parts.py's data, the Pico on two 1x20 rows), and the board
file written byte for byte the same on every run (canonical()).

Runs under the system python3 only (the one with pcbnew); nothing in .venv imports it.
"""

import os
import re
import uuid

import pcbnew

FP_LIB = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
# Board frame, in layout mm (the layout's origin is the top-left track hole): the LED field runs
# x -10..228, y -14..78; the controller strip (Pico, level shifter, headers, power) sits above.
LEFT, RIGHT, TOP, BOTTOM = -18.0, 236.0, -52.0, 86.0
OX, OY = 40.0, 70.0  # where the layout's origin lands on KiCad's page (positions stay > 0)
TRACK_W = 0.25  # signal tracks, mm
POWER_W = 0.5  # VSYS
SUPPLY_W = 1.0  # the 5 V input through the protection to the switch: 2.3 A and more
VIA_D, VIA_DRILL = 0.6, 0.3
CLEARANCE = 0.2
THERMAL_GAP, THERMAL_SPOKE = 0.3, 0.4  # a pad's relief in a pour: gap and spoke width, mm
SILK_W = 0.15  # the thinnest silkscreen stroke: JLCPCB's minimum line (character rules)
SILK_CLEAR = 0.15  # silkscreen kept this far from pads (JLCPCB trims it nearer): DRC's rule


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
        ds.m_SilkClearance = mm(SILK_CLEAR)

    pad_at = staticmethod(lambda fp, number: pad_at(fp, number))

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

    def text(self, s, at, size=1.5, layer=None, angle=0.0):
        t = pcbnew.PCB_TEXT(self.board)
        t.SetText(s)
        if angle:
            t.SetTextAngle(angle * 10)  # (KiCad 6: tenths of a degree)
        t.SetPosition(pt(*at))
        t.SetTextSize(pcbnew.wxSizeMM(size, size))
        t.SetTextThickness(mm(max(size * 0.15, SILK_W)))
        t.SetLayer(pcbnew.F_SilkS if layer is None else layer)
        self.board.Add(t)

    def zone(self, net, layer, priority=0, box=None, solid=False):
        """A pour of net over the board (or over box: layout mm x0, y0, x1, y1). solid: pads
        join it whole (a MOSFET's drain copper, pcb/generate.py's fet_copper), not through
        thermal reliefs."""
        z = pcbnew.ZONE(self.board)
        z.SetLayer(layer)
        z.SetNet(self.net(net))
        # thermal reliefs: a pad joins the pour through four spokes, not solidly, so a 0402's
        # or a LED's pad does not sit on a board-sized heat sink in reflow (tombstoning) and a
        # hand-soldered ground pin heats with an ordinary iron; vias stay solid (KiCad)
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL if solid else
                           pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetThermalReliefGap(mm(THERMAL_GAP))
        z.SetThermalReliefSpokeWidth(mm(THERMAL_SPOKE))
        z.SetMinThickness(mm(0.25))
        z.SetLocalClearance(mm(0.3))
        z.SetPriority(priority)
        o = z.Outline()
        o.NewOutline()
        x0, y0, x1, y1 = box or (LEFT, TOP, RIGHT, BOTTOM)
        for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
            p = pt(x, y)
            o.Append(p.x, p.y)
        self.board.Add(z)
        return z


def pad_at(fp, number):
    for pad in fp.Pads():
        if pad.GetNumber() == number:
            return unpt(pad.GetPosition())
    raise KeyError("%s has no pad %s" % (fp.GetReference(), number))




def reverse_mount(m, part):
    """A reverse-mount LED's footprint from its data (pcb/parts.py: PADS, PAD_SIZE, CUTOUT,
    the pin 1 mark, COURTYARD), drawn seen from the top and flipped onto the back by place()."""
    fp = pcbnew.FOOTPRINT(m.board)
    fp.SetFPID(pcbnew.LIB_ID("cribbage", "LED_%s_ReverseMount" % part.value))
    fp.SetAttributes(pcbnew.FP_SMD)
    layers = pcbnew.LSET()  # drawn as a front footprint, then flipped onto the back
    for layer in (pcbnew.F_Cu, pcbnew.F_Paste, pcbnew.F_Mask):
        layers.AddLayer(layer)
    for num, (x, y) in sorted(part.PADS.items()):
        pad = pcbnew.PAD(fp)
        pad.SetNumber(num)
        pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT)
        pad.SetSize(pcbnew.wxSizeMM(*part.PAD_SIZE))
        pad.SetLayerSet(layers)
        # flipping mirrors y: give the mirror, get the top view above
        pad.SetPos0(pcbnew.wxPointMM(x, -y))
        pad.SetPosition(pcbnew.wxPointMM(x, -y))
        fp.Add(pad)

    def outline(points, layer, width):
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
            s = pcbnew.FP_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
            s.SetLayer(layer)
            s.SetStart0(pcbnew.wxPointMM(x0, -y0))
            s.SetEnd0(pcbnew.wxPointMM(x1, -y1))
            s.SetWidth(mm(width))
            s.SetDrawCoord()
            fp.Add(s)
    w, h = part.CUTOUT[0] / 2, part.CUTOUT[1] / 2
    outline([(-w, -h), (w, -h), (w, h), (-w, h)], pcbnew.Edge_Cuts, 0.1)
    outline(list(part.COURTYARD), pcbnew.F_CrtYd, 0.05)
    (bx0, by0), (bx1, by1) = part.PIN1_BAR
    s = pcbnew.FP_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
    s.SetLayer(pcbnew.F_SilkS)
    s.SetStart0(pcbnew.wxPointMM(bx0, -by0))
    s.SetEnd0(pcbnew.wxPointMM(bx1, -by1))
    s.SetWidth(mm(SILK_W))
    s.SetDrawCoord()
    fp.Add(s)
    dot(fp, part.PIN1_DOT, mirror=True)
    for x, y in part.RELIEFS:  # the corners' reliefs: unplated holes, no copper
        pad = pcbnew.PAD(fp)
        pad.SetNumber("")
        pad.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
        pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
        pad.SetSize(pcbnew.wxSizeMM(part.RELIEF_D, part.RELIEF_D))
        pad.SetDrillSize(pcbnew.wxSizeMM(part.RELIEF_D, part.RELIEF_D))
        holes = pcbnew.LSET()  # the masks only: no copper, so none to keep off the edge
        holes.AddLayer(pcbnew.F_Mask)
        holes.AddLayer(pcbnew.B_Mask)
        pad.SetLayerSet(holes)
        pad.SetPos0(pcbnew.wxPointMM(x, -y))
        pad.SetPosition(pcbnew.wxPointMM(x, -y))
        fp.Add(pad)
    fp.Value().SetLayer(pcbnew.F_Fab)
    fp.Reference().SetLayer(pcbnew.F_Fab)
    return fp


def dot(fp, at, mirror=False):
    """A pin 1 dot on the footprint's silkscreen at `at` (its frame; mirror: drawn for a
    footprint that place() flips onto the back): a circle of radius 0.1 mm drawn 0.2 mm wide,
    a filled dot 0.4 mm across."""
    x, y = at
    c = pcbnew.FP_SHAPE(fp, pcbnew.SHAPE_T_CIRCLE)
    c.SetLayer(pcbnew.F_SilkS)
    c.SetStart0(pcbnew.wxPointMM(x, -y if mirror else y))
    c.SetEnd0(pcbnew.wxPointMM(x + 0.1, -y if mirror else y))
    c.SetWidth(mm(0.2))
    c.SetDrawCoord()
    fp.Add(c)
    return c


def fit_silk(fp):
    """A footprint's silkscreen as a fab prints it: every stroke at least SILK_W wide (KiCad's
    library draws 0.12 mm), and nothing within SILK_CLEAR of its own pads (JLCPCB trims
    silkscreen nearer, so a mark there prints short or not at all): a drawing that comes too
    near is left out (the 0402's body marks; the WS2812B-2020's pin 1 tick, which the part's
    own dot replaces; a test point's ring, which its printed name replaces). KiCad's DRC
    then checks the whole board at SILK_CLEAR."""
    layers = (pcbnew.F_SilkS, pcbnew.B_SilkS)
    clear = mm(SILK_CLEAR)
    for item in list(fp.GraphicalItems()):
        if item.GetClass() != "MGRAPHIC" or item.GetLayer() not in layers:
            continue
        side = pcbnew.F_Cu if item.GetLayer() == pcbnew.F_SilkS else pcbnew.B_Cu
        pads = [p for p in fp.Pads() if p.IsOnLayer(side)]
        if item.GetWidth() < mm(SILK_W):
            item.SetWidth(mm(SILK_W))

        def near(item=item, pads=pads):
            shape = item.GetEffectiveShape()
            return any(p.GetEffectiveShape().Collide(shape, clear) for p in pads)
        if near():
            fp.Remove(item)
    return fp


def fab_text(fp):
    """A footprint's reference and value on the fabrication layer only: the silkscreen keeps
    nothing over pads or off the board (the checks fail on any silkscreen DRC warning, and
    check.py's check_silk on anything outside the outline)."""
    layer = pcbnew.B_Fab if fp.IsFlipped() else pcbnew.F_Fab
    for t in (fp.Reference(), fp.Value()):
        t.SetLayer(layer)
    return fp


# --- the board file, the same bytes on every run ---------------------------------------------

_TSTAMP = re.compile(r"\((tstamp|uuid) [0-9a-fA-F-]{36}\)")
_NS = uuid.UUID("6f1c5b0e-3a4d-5c2e-9b8a-7d6e5f4a3b2c")  # this project's namespace for ids


def _blocks(text, start, end):
    """The top-level s-expressions of text[start:end] as (begin, finish) spans."""
    out = []
    depth = 0
    i = start
    begin = None
    in_str = False
    while i < end:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "(":
            if depth == 0:
                begin = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                out.append((begin, i + 1))
        i += 1
    return out


def _ref_key(block):
    m = re.search(r'\(fp_text reference "([A-Za-z]+)(\d*)"', block)
    if not m:
        return ("", 0, block)
    return (m.group(1), int(m.group(2) or 0), _TSTAMP.sub("", block))


def _sorted_runs(text, start, end, sort_footprints, sep="\n  "):
    """text[start:end]'s s-expressions with each run of one kind sorted (a footprint's
    drawings too): the same items, in an order that does not depend on their ids."""
    blocks = _blocks(text, start, end)
    if not blocks:
        return text[start:end]
    items = []
    for b, e in blocks:
        kind = re.match(r"\((\w+)", text[b:e]).group(1)
        block = text[b:e]
        if kind == "footprint":
            inner = block.index("(", 1)
            block = block[:inner] + _sorted_runs(block, inner, len(block) - 1, False,
                                                 "\n    ") + ")"
        items.append((kind, block))
    out = [text[start:blocks[0][0]]]
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j][0] == items[i][0]:
            j += 1
        run = [k[1] for k in items[i:j]]
        if items[i][0] == "footprint" and sort_footprints:
            run.sort(key=_ref_key)
        elif items[i][0] not in ("general", "paper", "layers", "setup", "net"):
            run.sort(key=lambda s: _TSTAMP.sub("", s))
        out.append(run)
        i = j
    flat = [out[0]]
    for run in out[1:]:
        flat.append(sep.join(run))
    return flat[0] + sep.join(flat[1:]) + text[blocks[-1][1]:end]


def canonical(text):
    """KiCad 6 writes its items in an order that depends on their random ids (footprints,
    drawings, zones sorted by uuid within a type and layer) and gives every item a random id:
    six files changed on every run. Here each run of items of one kind is sorted (the
    footprints by reference, D2 before D10; the rest by their text without ids; a footprint's
    drawings too), and every id is replaced by one derived from its place in that order, so
    the same board is the same bytes. KiCad reads the result as it reads its own files."""
    head = text.index("(", 1)
    body = text[:head] + _sorted_runs(text, head, len(text.rstrip()) - 1, True) + \
        text[len(text.rstrip()) - 1:]
    counter = iter(range(10 ** 9))
    return _TSTAMP.sub(lambda m: "(%s %s)" % (m.group(1), uuid.uuid5(_NS, str(next(counter)))),
                       body)


def save(board, path):
    """Save the board, then rewrite it canonically (canonical())."""
    pcbnew.SaveBoard(path, board)
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(canonical(text))
