"""The second review of the generated PCB (issue 32, /work review N3-N10): labels on the
controller strip's silkscreen, silkscreen strokes and clearance a fab prints, the mini-E
cutouts' corner reliefs, the parts' numbers, the fiducials' distance from the edges and the
back side's rotation rule. Read from the committed files (tools/pcb/check.py, in .venv)."""

import csv
import json
import os

import pytest
from pcb import check as pcb_check
from pcb import fab
from pcb import parts as pcb_parts

OPTIONS = sorted(pcb_check.OPTIONS)


@pytest.fixture(scope="module")
def boards():
    return {led: pcb_check.load(led) for led in OPTIONS}


@pytest.mark.parametrize("led", OPTIONS)
def test_every_silkscreen_stroke_is_one_a_fab_prints(boards, led):
    """JLCPCB prints 0.15 mm strokes reliably, not thinner: every line, circle and text the
    board prints (the library's 0.12 mm lines widened, the mini-E's pin 1 bar too)."""
    board, info = boards[led]
    assert board.strokes and pcb_check.check_silk_strokes(board, info) == []
    assert min(w for _o, _k, _t, w in board.strokes) >= 0.15
    thin = [("D1", "line", "", 0.12)]
    board.strokes += thin
    try:
        assert pcb_check.check_silk_strokes(board, info)
    finally:
        del board.strokes[-1]


@pytest.mark.parametrize("led", OPTIONS)
def test_drc_keeps_silkscreen_0_15_mm_from_pads(led):
    """KiCad's DRC runs with the fab's 0.15 mm silkscreen clearance (it was 0): the committed
    report, 0 warnings, is at that rule."""
    folder = pcb_check.option_dir(led)
    name = "cribbage-track-%s.kicad_pro" % led
    with open(os.path.join(folder, name)) as f:
        rules = json.load(f)["board"]["design_settings"]["rules"]
    assert rules["min_silk_clearance"] == pytest.approx(0.15)


@pytest.mark.parametrize("led", OPTIONS)
def test_the_strip_says_which_part_is_which(boards, led):
    """Every controller-strip part's reference is printed (R2 cannot be told from R3 by its
    pads), each test point's net beside it, each label clear of every pad, nearer its own part
    than any other of its kind, and above the LEDs."""
    board, info = boards[led]
    assert pcb_check.check_labels(board, info) == []
    refs = pcb_check.strip_refs(board, info)
    for ref in ("U1", "U2", "Q1", "Q2", "Q3", "R2", "R3", "F1", "J1", "J5", "TP1", "TP4",
                "C255", "D254"):
        assert ref in refs
    assert not any(r in refs for r in ("D1", "C1", "D253", "C253", "FID1", "H1"))
    printed = " ".join(t for o, k, t, _b in board.silk if o == "board" and k == "text").split()
    for word in ("+5V", "GND", "RAIL", "DIN"):
        assert word in printed


def test_a_missing_or_misplaced_label_is_caught(boards):
    board, info = boards["2020"]
    saved = list(board.silk)
    try:
        # TP1's label gone
        board.silk[:] = [s for s in saved if not (s[0] == "board" and "+5V" in s[2].split())]
        assert any("+5V" in p for p in pcb_check.check_labels(board, info))
        # a reference gone
        board.silk[:] = [s for s in saved if not (s[0] == "board" and s[2] == "R3")]
        assert any("R3" in p for p in pcb_check.check_labels(board, info))
        # a label moved onto R2's pads
        x, y = board.footprints["R2"]["at"]
        i = next(i for i, s in enumerate(saved) if s[0] == "board" and s[2] == "R2")
        board.silk[:] = saved
        board.silk[i] = ("board", "text", "R2", (x - 1.2, y - 0.95, x + 1.2, y + 0.95))
        assert any("within 0.15 mm of a pad" in p for p in pcb_check.check_labels(board, info))
        # R2's label moved beside R3: it would name the wrong part
        x, y = board.footprints["R3"]["at"]
        board.silk[i] = ("board", "text", "R2", (x - 1.2, y - 3.9, x + 1.2, y - 2.0))
        assert any("nearer R3 than R2" in p for p in pcb_check.check_labels(board, info))
    finally:
        board.silk[:] = saved


def test_the_2020_has_a_pin_1_dot_clear_of_its_pads(boards):
    """The library's pin 1 tick was 0.10 mm from pad 1 (a fab trims it): each LED carries a
    dot of the project's instead, nearest pad 1 and 0.15 mm or more clear of every pad."""
    part = pcb_parts.PARTS["2020"]
    px, py = part.PAD_SIZE
    dot = part.PIN1_DOT

    def gap(n):
        x, y = part.PADS[n]
        dx, dy = max(abs(dot[0] - x) - px / 2, 0), max(abs(dot[1] - y) - py / 2, 0)
        return (dx * dx + dy * dy) ** 0.5 - 0.2  # the dot's radius 0.1 and half its stroke
    assert min(part.PADS, key=gap) == part.PIN["DOUT"] == "1"
    assert min(gap(n) for n in part.PADS) >= 0.15
    board, _info = boards["2020"]
    circles = [o for o, k, _t, _b in board.silk if k == "circle" and o.startswith("D")]
    assert len([o for o in circles if o[1:].isdigit() and int(o[1:]) <= 253]) == 253


def test_the_cutout_corners_take_a_router_radius():
    """A router leaves a radius in each inner corner: without reliefs the body fits a cutout
    milled 0.2 mm small only under 0.17 mm (no router's); with the drilled corner reliefs up
    to ROUTER_R (0.9 mm), the holes 0.3 mm or more from the pads."""
    part = pcb_parts.PARTS["mini-e"]
    assert pcb_check.check_footprint(part) == []
    assert pcb_check.cutout_fits(part, 0.2, part.ROUTER_R)
    assert pcb_check.cutout_fits(part, 0.2, 0.9)
    assert not pcb_check.cutout_fits(part, 0.2, 0.2, reliefs=())
    assert pcb_check.cutout_fits(part, 0.2, 0.15, reliefs=())
    assert not pcb_check.cutout_fits(part, 0.2, 1.2)  # (the claim has a limit)
    assert len(part.RELIEFS) == 4
    px, py = part.PAD_SIZE
    for cx, cy in part.RELIEFS:
        for x, y in part.PADS.values():
            dx, dy = max(abs(cx - x) - px / 2, 0), max(abs(cy - y) - py / 2, 0)
            assert (dx * dx + dy * dy) ** 0.5 - part.RELIEF_D / 2 >= 0.3


def test_a_relief_too_near_a_pad_is_caught(monkeypatch):
    part = pcb_parts.PARTS["mini-e"]
    monkeypatch.setattr(part, "RELIEFS", ((1.6, 1.15),) + part.RELIEFS[1:], raising=False)
    assert any("relief" in p for p in pcb_check.check_footprint(part))


def _rows():
    with open(fab.TABLE, newline="") as f:
        return list(csv.DictReader(f))


def test_parts_table_numbers_agree_with_their_lcsc_parts():
    """C14663 is Yageo CC0603KRX7R9BB104, 50 V (its '9'), not ...7BB104 at 16 V; the
    SK6812MINI-E has an LCSC number, C5149201 (OPSCO), with where it was found."""
    rows = _rows()
    c = next(r for r in rows if r["lcsc"] == "C14663")
    assert c["mpn"] == "CC0603KRX7R9BB104" and "50 V" in c["description"]
    assert "16 V" not in c["description"]
    led = next(r for r in rows if r["value"] == "SK6812MINI-E")
    assert led["lcsc"] == "C5149201" and led["assembly"] == "smd"
    assert "OPSCO" in led["manufacturer"] and "C5149201" in led["description"]


@pytest.mark.parametrize("led", OPTIONS)
def test_fiducials_keep_5_mm_from_the_edges(boards, led):
    board, info = boards[led]
    assert pcb_check.check_marks(board, info) == []
    left, top, right, bottom = info["outline_mm"]
    fids = [fp for fp in board.footprints.values() if fp["ref"].startswith("FID")]
    assert len(fids) == (6 if led == "mini-e" else 3)
    for fp in fids:
        x, y = fp["at"]
        assert min(x - left, right - x, y - top, bottom - y) >= 5.0 - 1e-6
    fp = fids[0]
    saved = fp["at"]
    try:
        fp["at"] = (left + 2.5, saved[1])
        assert any("edge" in p for p in pcb_check.check_marks(board, info))
    finally:
        fp["at"] = saved


def test_back_side_correction_adds_as_kicad_jlcpcb_tools_does():
    """kicad-jlcpcb-tools (fabrication.py): the back's angle (180 - KiCad's) % 360, then plus
    the correction, as on the top; the guide's rule said minus."""
    assert fab.cpl_rotation(0, True, 90) == 270
    assert fab.cpl_rotation(90, True, 90) == 180
    assert fab.cpl_rotation(0, False, 90) == 90


def _read(*path):
    from hostenv import ROOT
    with open(os.path.join(ROOT, *path)) as f:
        return f.read()


def test_the_guides_agree_on_the_pcbs_limit_and_the_batterys_wiring():
    """hardware/README.md's rule of thumb (the supply minus 0.5 A) names the PCB's exception,
    2000 mA as docs/pcb.md says (its fuse holds 3 A); J5's BAT is wired after the storage
    switch (the boost's IN+), not at the charger's B+ ahead of it."""
    guide = " ".join(_read("hardware", "README.md").split())
    pcb = " ".join(_read("docs", "pcb.md").split())
    rule = guide[guide.index("Set the `limit` setting to what your supply gives minus 0.5 A"):]
    rule = rule[:rule.index("- Feed 5 V")]
    assert "On the PCB (build 3) keep it at its default, 2000 mA" in rule
    assert "Keep the `limit` setting at its default, 2000 mA, on this board" in pcb
    assert "boost IN+ -> J5 BAT" in guide and "TP4056 B+ -> J5 BAT" not in guide
    assert "after the storage switch" in guide
