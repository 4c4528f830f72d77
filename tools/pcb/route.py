"""Routing geometry for the LED chain (pure Python, no pcbnew): copper already on a layer as
boxes on a grid, and the track from one LED's DOUT to the next one's DIN that clears it."""

import math


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
