"""Fabrication files from the generated board (in .venv): the bill of materials with an
assembler's part numbers and the pick-and-place file (CPL) with each side's rotations as the
assembler reads them, and a picture of the board.

The parts are data: hardware/pcb/parts.csv, one row per (value, footprint) with the
manufacturer's part, the LCSC number (the part number JLCPCB's assembly takes), the rotation
the assembler's reel needs on top of KiCad's, and how it is fitted (smd: assembled; consigned:
assembled from reels the maker supplies; tht: hand-soldered; module; none: no part), plus rows
that come with a part (`for`: the Pico's two sockets, with designators of their own in
`refs`, J6 and J7: an assembler's BOM takes designators, not a count)."""

import csv
import io
import os
import re

from pcb.read import PCB_DIR

TABLE = os.path.join(PCB_DIR, "parts.csv")
ASSEMBLED = ("smd", "consigned")


def table(path=TABLE):
    """({(value, footprint): row}, [accessory rows]) from parts.csv."""
    parts, extra = {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            row["rotation"] = int(row["rotation"] or 0)
            if row["for"]:
                extra.append(row)
            else:
                parts[row["value"], row["footprint"]] = row
    return parts, extra


def cpl_rotation(rot, back, correction=0):
    """The rotation an assembler (JLCPCB) places a part at from KiCad 6's: on the back the
    board's angle is seen from below (mirrored: 180 - KiCad's), and the reel's correction,
    a property of the part and its tape, is added as on the top (kicad-jlcpcb-tools'
    fabrication.py: (180 - rotation) % 360, then + correction); on the top KiCad's plus the
    correction."""
    if back:
        return (180 - rot + correction) % 360
    return (rot + correction) % 360


def fab_rows(board, info, parts=None):
    """BOM rows [(value, designators, footprint, lcsc, manufacturer, mpn, description, how)]
    and CPL rows [(designator, x, y, side, rotation)] in mm from the board's bottom-left
    corner, y up. A footprint the table has no row for gets "?" (the checks fail on it)."""
    parts, extra = parts or table()
    left, _top, _right, bottom = info["outline_mm"]
    groups = {}
    cpl = []
    for ref, fp in sorted(board.footprints.items(), key=lambda kv: _ref_key(kv[0])):
        lib = fp["lib"].split(":")[-1]
        row = parts.get((fp["value"], lib))
        how = row["assembly"] if row else "?"
        if how == "none":
            continue  # test points, fiducials, mounting holes: copper only
        groups.setdefault((fp["value"], lib), []).append(ref)
        if fp["smd"] and how in ASSEMBLED:
            back = fp["layer"] == "B.Cu"
            cpl.append((ref, "%.3f" % (fp["at"][0] - left), "%.3f" % (bottom - fp["at"][1]),
                        "Bottom" if back else "Top",
                        "%g" % cpl_rotation(fp["rot"], back, row["rotation"])))
    bom = []
    for (value, lib), refs in sorted(groups.items(), key=lambda kv: _ref_key(kv[1][0])):
        row = parts.get((value, lib)) or {"lcsc": "", "manufacturer": "", "mpn": "",
                                          "description": "?", "assembly": "?"}
        bom.append((value, " ".join(refs), lib, row["lcsc"], row["manufacturer"], row["mpn"],
                    row["description"], HOW.get(row["assembly"], row["assembly"])))
        for x in extra:
            if x["for"] in refs:
                bom.append((x["value"], x["refs"], x["footprint"],
                            x["lcsc"], x["manufacturer"], x["mpn"], x["description"],
                            HOW[x["assembly"]]))
    return bom, cpl


HOW = {"smd": "assembled (SMD)", "consigned": "assembled (SMD) from the maker's own reel",
       "tht": "hand-soldered (through-hole)", "module": "plugged in (a module, not soldered)"}


def _ref_key(ref):
    m = re.match(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def fab_text(board, info):
    """(bom.csv, cpl.csv) text: the columns a PCB assembly service's upload takes."""
    bom, cpl = fab_rows(board, info)
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(("Comment", "Designator", "Footprint", "LCSC Part #", "Manufacturer",
                "Manufacturer Part", "Description", "Assembly"))
    w.writerows(bom)
    c = io.StringIO()
    w = csv.writer(c, lineterminator="\n")
    w.writerow(("Designator", "Mid X", "Mid Y", "Layer", "Rotation"))
    w.writerows(cpl)
    return b.getvalue(), c.getvalue()


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

