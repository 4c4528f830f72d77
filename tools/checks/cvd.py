"""Colour vision deficiency, simulated, and colour differences: how far apart the board's side
colours stay for a player who cannot tell red from green (host tool and test helper; nothing
here goes onto a board).

    .venv/bin/python tools/checks/cvd.py    # each palette's closest pair of sides, 2-6 players

Simulation: Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of
Color Vision Deficiency", IEEE TVCG 15(6), 2009: one 3x3 matrix per deficiency (severity 1.0:
protanopia, deuteranopia, tritanopia, from the authors' published table), applied to linear
sRGB. Difference: CIEDE2000 (Sharma, Wu and Dalal, "The CIEDE2000 Color-Difference Formula:
Implementation Notes", 2005) between CIELAB colours (sRGB D65, IEC 61966-2-1).

The colours judged are those of the simulator's pictures (tools/sim/ui.py's save_png: an LED's
linear value lifted by the screen's gamma), read back from the PNG the simulator writes.
"""

import math
import os
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)

# Machado et al. 2009, severity 1.0 (linear RGB in, linear RGB out)
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

# the least CIEDE2000 difference between any two sides' front pegs in the pictures, under
# protanopia and deuteranopia, that the colour-blind palette keeps (2-6 players, at the
# default brightness and at full): two colours 10 apart are clearly different colours (about
# 2 is just noticeable); the usual palette falls to 3.9 (five players: blue and pink) and to
# 12.3 (three players: red and green, deuteranopia)
MIN_DE = 14.0


def to_linear(v):
    """An sRGB channel (0-255) as linear light (0-1)."""
    c = v / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c):
    """A linear channel (0-1, clipped) as sRGB (0-255, float)."""
    c = min(1.0, max(0.0, c))
    return 255.0 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb, kind):
    """An sRGB colour (0-255) as a viewer with the deficiency kind (MACHADO's) sees it."""
    lin = [to_linear(v) for v in rgb]
    m = MACHADO[kind]
    return tuple(to_srgb(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))


def lab(rgb):
    """CIELAB (D65) of an sRGB colour (0-255)."""
    r, g, b = (to_linear(v) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def de2000(lab1, lab2):
    """CIEDE2000 between two CIELAB colours (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c1 = math.hypot(a1, b1)
    c2 = math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dLp = L2 - L1
    dCp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    Lm = (L1 + L2) / 2
    cmp_ = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hm = (h1p + h2p + 360) / 2
    else:
        hm = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    d_theta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2
                     + rt * (dCp / sc) * (dHp / sh))


def closest(colours, kind=None):
    """(the least CIEDE2000 between any two of colours (sRGB, 0-255) as a viewer with the
    deficiency kind sees them (None: normal vision), the pair (i, j))."""
    seen = [lab(simulate(c, kind) if kind else c) for c in colours]
    best = (float("inf"), None)
    for i in range(len(seen)):
        for j in range(i + 1, len(seen)):
            d = de2000(seen[i], seen[j])
            if d < best[0]:
                best = (d, (i, j))
    return best


def picture_pegs(colours, players, brightness=64):
    """Each side's front peg colour (sRGB) in the simulator's picture (tools/sim/ui.py's
    save_png, read back from the PNG) of a game of players on the fake board (host_tests'
    boardkit board: tools/host/fakeboard/fake.py), drawn by the board's renderer
    (firmware/board/render.py) with the palette setting colours (0 or 1): every side's front
    peg on a hole of its own lane, its back peg behind it, frames taken at the blink phases so
    that a side sharing a lane is seen lit."""
    from PIL import Image

    from board import render
    from board.layout import Layout
    from fakeboard import fake
    from sim import ui

    hw = fake.build("/data", display=False)
    L = hw["layout"]
    assert isinstance(L, Layout)
    strip = hw["strip"]
    r = render.Renderer(L, strip, brightness, 2000, colours)
    order = getattr(strip, "ORDER", (1, 0, 2, 3))
    board = ui.Board({"pixels": [[*L.xy(p), *L.what(p)] for p in range(L.count)],
                      "order": list(order[:3]), "bpp": getattr(strip, "bpp", 3)})
    from cribbage import match as M

    m = M.Match(players=players)
    v = render.View(m.sides, 121)
    for s in range(m.sides):
        v.front[s] = 20 + 9 * s  # a hole each, apart
        v.back[s] = 12 + 9 * s
    out = [None] * m.sides
    with tempfile.TemporaryDirectory() as d:
        for now in (0, 800):  # steady; the slow blink and the flashes (sides sharing a lane) on
            r.frame(v, now)
            path = os.path.join(d, "f.png")
            ui.save_png(board, bytes(strip.buf), path)
            img = Image.open(path).convert("RGB")
            xs = [p[0] for p in board.pixels]
            ys = [p[1] for p in board.pixels]
            for s in range(m.sides):
                p = L.peg(s % L.lanes, v.front[s], 121)
                x, y = board.pixels[p][:2]
                at = (int((x - min(xs) + 10.0) * 4.0), int((y - min(ys) + 10.0) * 4.0))
                c = img.getpixel(at)
                if c != (30, 22, 16):  # (an unlit hole)
                    out[s] = c
    assert None not in out, out
    return out


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.parse_args(argv)
    print("least CIEDE2000 between two sides' front pegs in the simulator's pictures")
    print("bright players  palette       normal  protanopia  deuteranopia  tritanopia")
    for bright in (64, 255):
        for colours, name in ((0, "usual"), (1, "colour-blind")):
            for players in range(2, 7):
                pegs = picture_pegs(colours, players, bright)
                row = [closest(pegs, k)[0] for k in (None, "protanopia", "deuteranopia",
                                                      "tritanopia")]
                print("%6d %7d  %-12s %7.1f %11.1f %13.1f %11.1f" % (bright, players, name,
                                                                     *row))
    print("the colour-blind palette keeps at least %.0f under protanopia and deuteranopia"
          % MIN_DE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
