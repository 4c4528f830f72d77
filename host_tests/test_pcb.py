"""The peg track's PCB (hardware/pcb/, issue 25): generated from the firmware's layout, and
checked, not trusted.

Without KiCad these still read the committed board files, Gerbers, BOM and pick-and-place back
(tools/pcb/check.py, in .venv) and check them against firmware/board/layout.py and the board
file's pins (firmware/hw/pico.py); with KiCad 6 (the system python3's pcbnew: `apt-get
install kicad kicad-footprints`, as .ci/run does) they also run the generator
(tools/pcb/generate.py, as a subprocess) with its DRC and check that the committed files are
what it makes, byte for byte.
"""

import os
import shutil
import subprocess

import pytest
from board import layout as layout_mod
from pcb import check as pcb_check
from pcb import fab
from pcb import parts as pcb_parts

OPTIONS = sorted(pcb_check.OPTIONS)


def _has_pcbnew():
    if not os.path.exists(pcb_check.KICAD_PY):
        return False
    r = subprocess.run([pcb_check.KICAD_PY, "-c", "import pcbnew; print(pcbnew.Version())"],
                       capture_output=True, text=True)
    return r.returncode == 0 and r.stdout.startswith("6.")


HAS_PCBNEW = _has_pcbnew()
NO_KICAD = ("no KiCad 6 pcbnew for %s (the generator is written for KiCad 6.0, Debian 12's: "
            "`apt-get install --no-install-recommends kicad kicad-footprints kicad-symbols`): "
            "the generator and its DRC not run; the committed hardware/pcb files are still "
            "checked" % pcb_check.KICAD_PY)
HAS_SYMBOLS = os.path.exists(os.path.join(pcb_check.SYMBOLS, "LED.kicad_sym"))


@pytest.fixture(scope="module")
def boards():
    return {led: pcb_check.load(led) for led in OPTIONS}


@pytest.mark.parametrize("led", OPTIONS)
def test_leds_where_the_layout_puts_them_in_chain_order(boards, led):
    board, info = boards[led]
    assert pcb_check.check_leds(board, info) == []
    assert len([f for f in board.footprints.values()
                if f["value"] == pcb_parts.PARTS[led].value]) == layout_mod.Layout().count


@pytest.mark.parametrize("led", OPTIONS)
def test_controller_wired_as_the_pico_board_file_says(boards, led):
    assert pcb_check.check_controller(boards[led][0]) == []


@pytest.mark.parametrize("led", OPTIONS)
def test_drc_clean_and_gerbers_read_back(boards, led):
    board, info = boards[led]
    assert pcb_check.check_drc(info) == []
    z = os.path.join(pcb_check.option_dir(led), "cribbage-track-%s-gerbers.zip" % info["led"])
    assert pcb_check.check_gerbers(board, info, z) == []
    files = pcb_check.read_gerbers(z)
    assert len(list(files["PTH"].drills())) == len(board.vias) + board.tht_pads() > 500
    # mounting holes: plated, GND; the unplated holes are the mini-E cutouts' corner reliefs
    part = pcb_parts.PARTS[info["led"]]
    reliefs = len(getattr(part, "RELIEFS", ())) * layout_mod.Layout().count
    assert len(list(files["NPTH"].drills())) == board.npth() == reliefs


@pytest.mark.parametrize("led", OPTIONS)
def test_bom_and_pick_and_place_are_the_boards(boards, led):
    board, info = boards[led]
    folder = pcb_check.option_dir(led)
    assert pcb_check.check_fab(board, info, folder) == []
    _bom, cpl = fab.fab_rows(board, info)
    leds = {"D%d" % (p + 1) for p in range(layout_mod.Layout().count)}
    assert sum(1 for r in cpl if r[0] in leds) == 253


@pytest.mark.parametrize("led", OPTIONS)
def test_copper_carries_the_firmwares_current_limit(boards, led):
    _board, info = boards[led]
    assert pcb_check.check_current(info) == []
    # and the check can fail: a thinner pour would not carry it
    thin = dict(info, pour_min_width_mm=0.5)
    assert pcb_check.check_current(thin)


def test_the_guide_states_each_boards_figures(boards):
    """docs/pcb.md's size and copper figures are the generated boards' own."""
    with open(os.path.join(pcb_check.ROOT, "docs", "pcb.md")) as f:
        guide = f.read()
    for led in OPTIONS:
        _board, info = boards[led]
        w, h = info["size_mm"]
        assert "%g x %g mm" % (w, h) in guide
        width = info["pour_min_width_mm"]
        assert "| %s | %.2f mm | %.1f A |" % (info["part"], width,
                                               pcb_check.ipc2221_amps(width)) in guide
    assert "%.2f A" % (pcb_check.current_need_ma() / 1000) in guide


def test_ipc2221_figures():
    # IPC-2221 external layer, 1 oz, 10 C rise: about 1 A needs 0.30 mm (12 mil)
    assert 0.9 < pcb_check.ipc2221_amps(0.30) < 1.1
    assert pcb_check.ipc2221_amps(2.0) > pcb_check.ipc2221_amps(1.0)


@pytest.mark.parametrize("led", OPTIONS)
def test_a_moved_hole_fails_until_the_pcb_is_regenerated(boards, led):
    """Change the layout data (the group gap moves every hole after the first group) and the
    committed board, pick-and-place and all, no longer passes."""
    board, info = boards[led]
    moved = layout_mod.Layout(group_gap=3.5)
    problems = pcb_check.check_leds(board, info, moved)
    assert problems and all("regenerate" in p for p in problems)
    folder = pcb_check.option_dir(led)
    assert pcb_check.check_cpl_layout(folder, info, moved)
    assert pcb_check.check_cpl_layout(folder, info) == []


def test_reverse_mount_footprint_matches_the_datasheet():
    """The SK6812MINI-E footprint (KiCad's library has none) against the datasheet: the pads
    sit over the leads' ends, 1.40 mm apart, and the cutout clears the body."""
    part = pcb_parts.PARTS["mini-e"]
    ds = part.DATASHEET
    body_l, body_w = ds["body"]
    pads = part.PADS
    assert set(pads) == set(part.PIN.values())
    for num, (x, y) in pads.items():
        inner, outer = abs(x) - part.PAD_SIZE[0] / 2, abs(x) + part.PAD_SIZE[0] / 2
        assert body_l / 2 < inner < ds["lead_reach"] < outer, num  # over the lead's end
        assert abs(abs(y) - ds["lead_pitch"] / 2) < 1e-9, num
    # DIN and VSS on one end, DOUT and VDD on the other (the datasheet's pin table)
    same_end = {n for n, (x, _y) in pads.items() if x < 0}
    assert same_end == {part.PIN["DIN"], part.PIN["VSS"]}
    cut_l, cut_w = part.CUTOUT
    assert cut_l >= body_l + 0.2 and cut_w >= body_w + 0.2
    # the pads keep the 0.3 mm copper-to-edge clearance from the cutout
    assert min(abs(x) for x, _y in pads.values()) - part.PAD_SIZE[0] / 2 - cut_l / 2 >= 0.3


@pytest.mark.parametrize("led", OPTIONS)
def test_led_side_and_cutouts(boards, led):
    board, info = boards[led]
    part = pcb_parts.PARTS[led]
    leds = [f for f in board.footprints.values() if f["value"] == part.value]
    assert {f["layer"] for f in leds} == {"B.Cu" if part.back else "F.Cu"}
    # one rectangular cutout per reverse-mounted LED on Edge.Cuts, plus the outline
    assert len(board.edges) == 4 + (4 * len(leds) if part.back else 0)


def test_a_broken_chain_or_power_pin_is_caught():
    """The read-back checks fail on a board whose chain skips a LED or whose LED sits on the
    wrong supply net (each board read afresh: the mutations stay here)."""
    board, info = pcb_check.load("2020")
    pin = pcb_parts.PARTS["2020"].PIN
    board.pad("D41", pin["DIN"])["net"] = board.pad("D39", pin["DOUT"])["net"]
    board.pad("D100", pin["VDD"])["net"] = "GND"
    problems = pcb_check.check_leds(board, info)
    assert any("LED 40's DIN" in p and "broken" in p for p in problems)
    assert any("D100 VDD on 'GND'" in p for p in problems)


def test_gerber_checks_can_fail(boards):
    board, info = pcb_check.load("2020")
    z = os.path.join(pcb_check.option_dir("2020"), "cribbage-track-2020-gerbers.zip")
    board.vias.pop()
    bigger = dict(info, size_mm=[info["size_mm"][0] + 1, info["size_mm"][1]])
    problems = pcb_check.check_gerbers(board, bigger, z)
    assert any("plated drills" in p for p in problems)
    assert any("outline" in p for p in problems)


def test_a_wrong_pin_map_is_caught(boards):
    board, info = boards["2020"]
    part = pcb_parts.PARTS["2020"]
    saved = dict(part.PIN)
    try:
        part.PIN = {"VDD": "1", "DOUT": "2", "VSS": "3", "DIN": "4"}  # the 5050's map
        assert pcb_check.check_leds(board, info)
    finally:
        part.PIN = saved


@pytest.mark.skipif(not HAS_SYMBOLS, reason="KiCad's symbol library is not installed "
                    "(apt-get install kicad-symbols): pin names not compared")
@pytest.mark.parametrize("led", OPTIONS)
def test_pin_names_match_kicads_own_symbol(led):
    assert pcb_check.check_symbol(pcb_parts.PARTS[led]) == []


@pytest.mark.skipif(not HAS_PCBNEW, reason=NO_KICAD)
@pytest.mark.parametrize("led", OPTIONS)
def test_generator_makes_the_committed_board(tmp_path, boards, led):
    """Run the KiCad generator afresh: DRC 0/0, every check, and the same board as committed
    (parts, positions, nets, tracks, vias) with the same BOM and pick-and-place."""
    out = str(tmp_path / led)
    pcb_check.generate(led, out)
    fresh, info = pcb_check.load(led, out)
    assert info["drc_errors"] == 0 and info["unconnected"] == 0
    committed, cinfo = boards[led]
    assert {k: v for k, v in info.items() if k != "kicad"} == \
        {k: v for k, v in cinfo.items() if k != "kicad"}
    assert sorted(fresh.footprints) == sorted(committed.footprints)
    for ref, fp in fresh.footprints.items():
        other = committed.footprints[ref]
        assert (fp["at"], fp["rot"], fp["layer"]) == (other["at"], other["rot"], other["layer"])
        assert [(p["number"], p["net"]) for p in fp["pads"]] == \
            [(p["number"], p["net"]) for p in other["pads"]]
    assert sorted(fresh.segments) == sorted(committed.segments)
    assert sorted(map(tuple, fresh.vias)) == sorted(map(tuple, committed.vias))
    assert fab.fab_text(fresh, info) == fab.fab_text(committed, cinfo)
    z = os.path.join(out, "cribbage-track-%s-gerbers.zip" % info["led"])
    assert pcb_check.check_gerbers(fresh, info, z) == []
    # byte for byte: the board file, Gerbers, DRC report and board.json as committed (by the
    # same KiCad: another release may write its files differently)
    folder = pcb_check.option_dir(led)
    if info["kicad"] == cinfo["kicad"]:
        for f in sorted(os.listdir(out)):
            assert _bytes(os.path.join(out, f)) == _bytes(os.path.join(folder, f)), f
    shutil.rmtree(out)


# --- issue 32: protection, the LED rail's switch, sensors, fabrication -----------------------

def _fresh(led="2020"):
    """A board read afresh (the tests below change it)."""
    return pcb_check.load(led)


@pytest.mark.parametrize("led", OPTIONS)
def test_power_parts_on_the_pins_the_board_file_names(boards, led):
    board, _info = boards[led]
    assert pcb_check.check_power(board) == []
    pins = pcb_check.board_pins()
    assert pins == {"LED_POWER": 22, "LIGHT_ADC": 27, "SUPPLY_ADC": 28}
    u2 = {p["number"]: p["net"] for p in board.footprints["U2"]["pads"]}
    q3_gate = board.pad("Q3", "1")["net"]
    assert u2[str(pcb_check.PICO_PHYSICAL[pins["LED_POWER"]])] == q3_gate == "LED_POWER"


def test_a_pin_the_board_does_not_route_is_caught(boards):
    """Name another pin in the board file and the committed board no longer passes: board
    and firmware cannot disagree."""
    board, _info = boards["2020"]
    for name, other in (("LED_POWER", 26), ("LIGHT_ADC", 26), ("SUPPLY_ADC", 26)):
        pins = dict(pcb_check.board_pins(), **{name: other})
        problems = pcb_check.check_power(board, pins)
        assert problems and any(name in p for p in problems), name


def test_pico_and_pico_w_must_name_the_same_pins(boards, monkeypatch):
    from hw import pico_w
    monkeypatch.setattr(pico_w, "LIGHT_ADC", 26)
    assert any("pico_w.py" in p for p in pcb_check.check_power(boards["2020"][0]))


def test_no_pull_up_or_pull_down_is_caught():
    board, _info = _fresh()
    for ref in ("R2", "R3"):  # Q2's gate pull-up, Q3's gate pull-down
        for p in board.footprints[ref]["pads"]:
            p["net"] = "NC_" + ref
    problems = pcb_check.check_power(board)
    assert any("pull-up" in p for p in problems)
    assert any("pull-down" in p for p in problems)


@pytest.mark.parametrize("led", OPTIONS)
def test_every_5v_consumer_is_behind_the_protection(boards, led):
    assert pcb_check.check_protection(boards[led][0]) == []


def test_a_consumer_before_the_protection_is_caught():
    board, _info = _fresh()
    board.pad("C255", "1")["net"] = "VIN"  # the 1000 uF on the raw input
    board.pad("D254", "2")["net"] = board.pad("Q1", "2")["net"]  # the Pico between Q1 and F1
    problems = pcb_check.check_protection(board)
    assert any("C255 pad 1" in p and "unprotected" in p for p in problems)
    assert any("D254 pad 2" in p for p in problems)
    board, _info = _fresh()
    board.pad("Q1", "4")["net"] = "VIN"  # a reverse FET whose gate is not on ground
    assert any("gate on GND" in p for p in pcb_check.check_protection(board))


@pytest.mark.parametrize("led", OPTIONS)
def test_drc_has_no_warning_either(boards, led):
    """The silkscreen over pads and off the board (63 and 33 warnings before) is gone, and a
    warning of any kind fails the check."""
    _board, info = boards[led]
    assert info["drc_warnings"] == 0
    assert pcb_check.check_drc(dict(info, drc_warnings=3))
    assert pcb_check.check_drc({k: v for k, v in info.items() if k != "drc_warnings"})
    with open(os.path.join(pcb_check.option_dir(led), "drc.rpt")) as f:
        assert "0 errors, 0 unconnected items, 0 warnings" in f.read()


@pytest.mark.parametrize("led", OPTIONS)
def test_silkscreen_stays_inside_the_board(boards, led):
    """KiCad 6's DRC does not check silkscreen against the board's edge, so check_silk does:
    every silkscreen item's box (texts at their printed size) inside the outline by
    SILK_EDGE_MM. A label or a footprint moved over the edge fails."""
    board, info = boards[led]
    assert len(board.silk) > 300  # the LEDs' marks, the labels, the Pico's outline
    assert {o for o, *_ in board.silk} >= {"board", "D1", "Q4"}
    assert pcb_check.check_silk(board, info) == []
    left, top, _right, bottom = info["outline_mm"]
    moved, _ = _fresh(led)
    i = next(i for i, it in enumerate(moved.silk) if it[2] == "LIGHT")
    owner, kind, text, (x0, y0, x1, y1) = moved.silk[i]
    moved.silk[i] = (owner, kind, text, (x0, top - 1.5, x1, top + 0.4))  # 1.5 mm over the top
    problems = pcb_check.check_silk(moved, info)
    assert len(problems) == 1 and "'LIGHT'" in problems[0] and "1.80 mm" in problems[0]


def test_silkscreen_stays_off_the_reverse_mount_cutouts(boards):
    """The SK6812MINI-E board's 253 cutouts are holes in the board: silkscreen over one (or
    within SILK_EDGE_MM of it) is off the board too. The pin 1 dot moved into D1's fails."""
    board, info = boards["mini-e"]
    assert len(board.cutouts) == 253 and not boards["2020"][0].cutouts
    assert pcb_check.check_silk(board, info) == []
    moved, _ = _fresh("mini-e")
    i = next(i for i, it in enumerate(moved.silk) if it[0] == "D1" and it[1] == "circle")
    (a0, b0, a1, b1) = dict(moved.cutouts)["D1"]
    cx, cy = (a0 + a1) / 2, (b0 + b1) / 2
    moved.silk[i] = ("D1", "circle", "", (cx - 0.3, cy - 0.3, cx + 0.3, cy + 0.3))
    problems = pcb_check.check_silk(moved, info)
    assert problems == ["silkscreen D1 circle reaches within 0.30 mm of D1's cutout"]


def test_silkscreen_boxes_are_read_from_the_board_file(tmp_path):
    """The boxes come from the board file itself: a label and a footprint moved there (the
    text at its size and justification, a footprint's marks with its position) fail."""
    from pcb.read import Board

    folder = pcb_check.option_dir("2020")
    with open(os.path.join(folder, "cribbage-track-2020.kicad_pcb")) as f:
        text = f.read()
    board, info = pcb_check.load("2020")
    left, top, right, bottom = info["outline_mm"]
    light = next(b for o, k, t, b in board.silk if t == "LIGHT")
    assert 4.2 < light[2] - light[0] < 6.5 and 1.8 < light[3] - light[1] < 2.0  # KiCad: 4.25 wide
    at = '(gr_text "LIGHT" (at %g %g)' % ((light[0] + light[2]) / 2, (light[1] + light[3]) / 2)
    assert at in text
    bad = tmp_path / "moved.kicad_pcb"
    bad.write_text(text.replace(at, '(gr_text "LIGHT" (at %g %g)' % (right - 2.0, 40.0)))
    problems = pcb_check.check_silk(Board(str(bad)), info)
    assert len(problems) == 1 and "'LIGHT'" in problems[0]
    # the light sensor (Q4, its outline on the silkscreen) moved 2 mm over the top edge
    q4 = board.footprints["Q4"]["at"]
    at = "(at %g %g" % q4
    start = text.index('(footprint "LED_THT:LED_D3.0mm"')
    assert text.index(at, start) - start < 200
    moved = text[:start] + text[start:].replace(at, "(at %g %g" % (q4[0], top - 1.0), 1)
    bad.write_text(moved)
    problems = pcb_check.check_silk(Board(str(bad)), info)
    assert problems and all("Q4" in p for p in problems)


@pytest.mark.parametrize("led", OPTIONS)
def test_pours_join_pads_through_thermal_reliefs(boards, led):
    board, _info = boards[led]
    assert pcb_check.check_zones(board) == []
    pours = [z for z in board.zones if not z["priority"]]
    assert {z["net"] for z in pours} == {"GND", pcb_parts.LED_RAIL}
    solid = [dict(z, pads="solid") for z in board.zones]
    board2, _ = _fresh(led)
    board2.zones = solid
    assert len(pcb_check.check_zones(board2)) == 2
    # the only other zones: the MOSFETs' drain copper, joining pads solidly; one more on
    # another net, or drain copper through reliefs, fails
    others = [z for z in board.zones if z["priority"]]
    assert {z["net"] for z in others} == {"VIN", pcb_parts.LED_RAIL}
    assert all(z["pads"] == "solid" for z in others)
    board2.zones = list(board.zones) + [dict(others[0], net="+5V")]
    assert any("+5V" in p and "drain copper" in p for p in pcb_check.check_zones(board2))
    board2.zones = [dict(z, pads="thermal") if z["priority"] else z for z in board.zones]
    assert len(pcb_check.check_zones(board2)) == len(others)


@pytest.mark.parametrize("led", OPTIONS)
def test_fiducials_test_points_and_pin_1_marks(boards, led):
    board, info = boards[led]
    assert pcb_check.check_marks(board, info) == []
    board2, _ = _fresh(led)
    for ref in [r for r in board2.footprints if r.startswith(("FID", "TP2"))]:
        del board2.footprints[ref]
    problems = pcb_check.check_marks(board2, info)
    assert any("fiducials" in p for p in problems) and any("ground" in p for p in problems)


def test_the_reverse_mount_footprint_meets_the_fab_tolerance():
    part = pcb_parts.PARTS["mini-e"]
    assert pcb_check.check_footprint(part) == []
    (bl, bw), (cl, cw) = part.DATASHEET["body"], part.CUTOUT
    assert min(cl - bl, cw - bw) / 2 >= part.MILL_TOL + 0.05  # was 0.15 per side
    saved = (part.CUTOUT, part.PIN1_DOT, part.COURTYARD)
    try:
        part.CUTOUT = (3.50, 3.10)  # the old cutout: 0.15 mm per side
        assert any("milling" in p for p in pcb_check.check_footprint(part))
        part.CUTOUT = saved[0]
        part.PIN1_DOT = (-4.05, -1.35)  # beside pad 3 (VSS): a backwards mark
        assert any("nearest pad 3" in p for p in pcb_check.check_footprint(part))
        part.PIN1_DOT = saved[1]
        part.COURTYARD = ((-3.0, -1.0), (3.0, -1.0), (3.0, 1.0), (-3.0, 1.0))
        assert any("courtyard" in p for p in pcb_check.check_footprint(part))
    finally:
        part.CUTOUT, part.PIN1_DOT, part.COURTYARD = saved


@pytest.mark.parametrize("led", OPTIONS)
def test_bom_has_an_assemblers_part_number_for_every_assembled_part(boards, led):
    board, info = boards[led]
    assert pcb_check.check_bom(board, info) == []
    bom, _cpl = fab.fab_rows(board, info)
    for value, _refs, _fp, lcsc, _mfr, mpn, _desc, how in bom:
        assert (mpn and mpn != "any") or how.startswith("hand"), value
        if how == "assembled (SMD)":
            assert lcsc.startswith("C") and lcsc[1:].isdigit(), value
    # the Pico's sockets have their row (designators J6 J7, not "(2 x U2)"), the Pico its own
    assert any(r[0] == "1x20 socket" and r[1] == "J6 J7" for r in bom)
    assert any(r[1] == "U2" for r in bom)
    # the LEDs: both from LCSC (the mini-E's OPSCO part C5149201, review 32's N5)
    led_row = next(r for r in bom if r[0] == pcb_parts.PARTS[led].value)
    assert led_row[3] == ("C965555" if led == "2020" else "C5149201")
    assert led_row[7] == "assembled (SMD)"


@pytest.mark.parametrize("led", OPTIONS)
def test_bom_files_designators_and_part_numbers(boards, led):
    """The committed BOM file as an assembler reads it: every designator a reference (letters
    and a number), each once in the file and none the board's for another part (the Pico's
    sockets were "(2 x U2)"); the green rail LED with its maker's part beside its LCSC number
    (it had only "green LED 0603 (LCSC C72043)")."""
    import csv
    import re

    board, info = boards[led]
    path = os.path.join(pcb_check.option_dir(led), "cribbage-track-%s-bom.csv" % info["led"])
    with open(path) as f:
        rows = list(csv.DictReader(f))
    seen = {}
    for r in rows:
        for ref in r["Designator"].split():
            assert re.match(r"[A-Z]+\d+$", ref), (ref, r["Comment"])
            assert ref not in seen, (ref, seen.get(ref), r["Comment"])
            seen[ref] = r["Comment"]
    assert set(board.footprints) - set(seen) == {ref for ref, fp in board.footprints.items()
                                                 if fp["lib"].startswith(("TestPoint:",
                                                                          "Fiducial"))
                                                 or ref.startswith("H")}
    sockets = next(r for r in rows if r["Comment"] == "1x20 socket")
    assert sockets["Designator"] == "J6 J7" and not {"J6", "J7"} & set(board.footprints)
    green = next(r for r in rows if r["Designator"] == "D255")
    assert green["LCSC Part #"] == "C72043"
    assert green["Manufacturer"] and "LCSC" not in green["Manufacturer Part"]


def test_a_part_without_a_number_or_a_row_is_caught(boards):
    board, info = boards["2020"]
    parts, extra = fab.table()
    parts = {k: dict(v) for k, v in parts.items()}
    parts["330", "R_0603_1608Metric"]["lcsc"] = ""
    del parts["AONR21357", "DFN-8-1EP_3x3mm_P0.65mm_EP1.55x2.4mm"]
    problems = pcb_check.check_bom(board, info, (parts, extra))
    assert any("R1" in p and "LCSC" in p for p in problems)
    assert any("AONR21357" in p and "no row" in p for p in problems)


def test_cpl_rotation_per_side():
    # top: KiCad's angle plus the reel's correction; back: seen from below
    assert fab.cpl_rotation(90, False) == 90
    assert fab.cpl_rotation(90, False, 180) == 270
    assert fab.cpl_rotation(0, True) == 180
    assert fab.cpl_rotation(90, True) == 90
    assert fab.cpl_rotation(270, True, 180) == 90


# The KiCad-to-JLCPCB rotation table the common tools apply (matthewlai/JLCKicadTools,
# jlc_kicad_tools/cpl_rotations_db.csv, which Bouni/kicad-jlcpcb-tools downloads as its
# corrections): "^SOT-23",180, "^SOIC-",270 and "^DFN-",270, added to KiCad's angle on the
# top (jlc_lib/cpl_fix_rotations.py). Kept here apart from hardware/pcb/parts.csv, so that a
# wrong correction there fails (the SOIC-14 had +90: U1 placed 180 degrees off).
JLC_TABLE = ((r"^SOT-23", 180), (r"^SOIC-", 270), (r"^DFN-", 270))


@pytest.mark.parametrize("led", OPTIONS)
def test_cpl_rotations_follow_the_published_jlcpcb_table(boards, led):
    import csv
    import re

    board, info = boards[led]
    path = os.path.join(pcb_check.option_dir(led), "cribbage-track-%s-cpl.csv" % info["led"])
    with open(path) as f:
        rows = {r["Designator"]: r for r in csv.DictReader(f)}
    assert rows["U1"]["Layer"] == "Top" and board.footprints["U1"]["rot"] % 360 == 0
    assert rows["U1"]["Rotation"] == "270"  # SOIC-14 at KiCad's 0: the table's 270
    checked = 0
    for ref, r in rows.items():
        fp = board.footprints[ref]
        name = fp["lib"].split(":")[-1]
        corr = next((c for pat, c in JLC_TABLE if re.match(pat, name)), None)
        if corr is None or r["Layer"] != "Top":
            continue
        assert float(r["Rotation"]) == (fp["rot"] + corr) % 360, ref
        checked += 1
    assert checked >= 4  # U1, Q3 (SOT-23) and Q1, Q2 (DFN)
    assert rows["Q1"]["Rotation"] == "%g" % ((board.footprints["Q1"]["rot"] + 270) % 360)


@pytest.mark.parametrize("led", OPTIONS)
def test_committed_cpl_rotations_are_each_sides(boards, led, tmp_path):
    board, info = boards[led]
    folder = pcb_check.option_dir(led)
    assert pcb_check.check_rotations(board, info, folder) == []
    # KiCad's raw angles (the old file) fail on the back; a wrong side fails anywhere
    name = "cribbage-track-%s-cpl.csv" % info["led"]
    with open(os.path.join(folder, name)) as f:
        rows = f.read().split("\n")
    bad = []
    for r in rows:
        cells = r.split(",")
        if len(cells) == 5 and cells[0] in board.footprints:
            fp = board.footprints[cells[0]]
            cells[4] = "%g" % (fp["rot"] % 360)
            if fp["layer"] == "F.Cu":
                cells[3] = "Bottom" if cells[0] == "R1" else cells[3]
        bad.append(",".join(cells))
    (tmp_path / name).write_text("\n".join(bad))
    problems = pcb_check.check_rotations(board, info, str(tmp_path))
    assert any("R1" in p for p in problems)
    raw_wrong = [ref for ref, fp in board.footprints.items() if fp["layer"] == "B.Cu"
                 and ref in {r.split(",")[0] for r in rows}
                 and fp["rot"] % 360 != fab.cpl_rotation(fp["rot"], True)]
    assert bool(raw_wrong) == pcb_parts.PARTS[led].back  # the back's LEDs off the axis
    assert all(any(p.startswith(ref + ":") for p in problems) for ref in raw_wrong)


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.slow
@pytest.mark.skipif(not HAS_PCBNEW, reason=NO_KICAD)
def test_make_pcb_twice_gives_the_same_bytes(tmp_path):
    """Two runs of the generator write the same bytes in every file (sorted parts, derived
    ids, no dates), and the same as committed: `make pcb` leaves git clean."""
    runs = []
    for n in range(2):
        out = str(tmp_path / str(n))
        pcb_check.generate("2020", out)
        runs.append({f: _bytes(os.path.join(out, f)) for f in sorted(os.listdir(out))})
    assert runs[0].keys() == runs[1].keys()
    for f in runs[0]:
        assert runs[0][f] == runs[1][f], f
    folder = pcb_check.option_dir("2020")
    _board, info = pcb_check.load("2020", str(tmp_path / "0"))
    if info["kicad"] != pcb_check.load("2020")[1]["kicad"]:
        return  # committed by another KiCad release: the two runs above still agree
    for f, data in runs[0].items():
        with open(os.path.join(folder, f), "rb") as fh:
            assert fh.read() == data, f


def test_the_guide_says_where_the_mounting_holes_are(boards):
    """docs/pcb.md lists every mounting hole where the board has it (mm from the bottom-left
    corner), and says the corner without one."""
    with open(os.path.join(pcb_check.ROOT, "docs", "pcb.md")) as f:
        guide = f.read()
    for led in OPTIONS:
        board, info = boards[led]
        left, _top, _right, bottom = info["outline_mm"]
        holes = [fp for ref, fp in board.footprints.items() if ref.startswith("H")]
        assert len(holes) == 5
        for fp in holes:
            where = "(%g, %g)" % (round(fp["at"][0] - left, 1), round(bottom - fp["at"][1], 1))
            assert where in guide, where
    assert "five M3" in guide and "top-left corner is the Pico's" in guide


def test_the_guide_states_the_mosfets_figures():
    """docs/pcb.md's drop and dissipation per MOSFET are the default limit's current through
    the AONR21357's worst RDS(on); the advice keeps the limit where those figures hold."""
    with open(os.path.join(pcb_check.ROOT, "docs", "pcb.md")) as f:
        guide = f.read()
    volts, watts = pcb_check.fet_figures()
    assert "at most %.2f V and dissipates at most %.2f W" % (volts, watts) in guide
    assert "at most %g mohm" % (pcb_check.FET_RDS_OHM * 1000) in guide
    assert "%d A hold" % (pcb_check.PTC_HOLD_MA // 1000) in guide
    assert pcb_check.current_need_ma() < pcb_check.PTC_HOLD_MA  # the default runs under it
    assert "**Keep the\n`limit` setting at its default, 2000 mA" in guide


def test_two_parts_with_one_reference_are_refused(tmp_path):
    """Two footprints with one reference (the supply's 0603 capacitor was a second C5, LED
    4's): the BOM and the pick-and-place would drop one part, so reading such a board fails,
    and the committed boards' references are all different."""
    from pcb.read import Board, option_dir

    for led in ("2020", "mini-e"):
        board = pcb_check.load(led)[0]
        assert "C256" in board.footprints and board.footprints["C5"]["value"] == "100nF"
    folder = option_dir("2020")
    with open(os.path.join(folder, "cribbage-track-2020.kicad_pcb")) as f:
        text = f.read()
    bad = tmp_path / "twice.kicad_pcb"
    bad.write_text(text.replace('(fp_text reference "C256"', '(fp_text reference "C5"'))
    with pytest.raises(ValueError, match="two footprints are C5"):
        Board(str(bad))


def test_the_guide_states_what_a_rail_short_does_to_the_mosfets():
    """docs/pcb.md's figures for a short on the LED rail are the datasheet figures'
    arithmetic (check.fet_fault_figures): each AONR21357 carries F1's 5 A trip current for
    good and the PTC's 15 A for its 5 s without passing 150 C, where the AO3401A it replaces
    did neither (the figures before, in the guide too)."""
    with open(os.path.join(pcb_check.ROOT, "docs", "pcb.md")) as f:
        guide = " ".join(f.read().split())
    new = pcb_check.fet_fault_figures()
    old = pcb_check.fet_fault_figures(fet=pcb_check.AO3401A)
    trip = pcb_check.PTC_TRIP_MA / 1000
    assert new["amps"] > trip and new["trip_c"] < pcb_check.FET_TJ_MAX_C  # the trip, for good
    assert new["fault_c"] < pcb_check.FET_TJ_MAX_C  # 15 A for 5 s
    assert new["amps_10s"] > pcb_check.PTC_TRIP_S[0]
    assert old["amps"] < trip and old["fault_c"] > pcb_check.FET_TJ_MAX_C  # the SOT-23s
    assert "**%.1f A for good** in a %d C room" % (new["amps"], pcb_check.AMBIENT_C) in guide
    assert "F1's 5 A trip current for good at a **%d C** junction" % round(new["trip_c"]) \
        in guide
    assert "each dissipates **%.1f W** for up to %d s: its junction reaches **%d C**" % (
        new["fault_w"], pcb_check.PTC_TRIP_S[1], round(new["fault_c"])) in guide
    assert "up to **%.1f A** for 10 s" % new["amps_10s"] in guide
    assert "carried %.1f A for good" % old["amps"] in guide
    assert "dissipated %d W" % round(old["fault_w"]) in guide
    assert "only from a supply whose own current limit is at most 3 A" not in guide


@pytest.mark.parametrize("led", OPTIONS)
def test_q1_and_q2_are_the_aonr21357_with_its_pins_on_the_right_nets(boards, led):
    """Q1 and Q2 are the DFN 3x3 AONR21357 (pins 1-3 source, 4 gate, 5-8 and the exposed
    pad 9 drain): Q1 drain on the input, source to F1, gate on GND; Q2 source on +5V, drain
    the LED rail, gate on the line Q3 pulls low. A gate on a source pin is caught."""
    board, _info = boards[led]
    for ref in ("Q1", "Q2"):
        fp = board.footprints[ref]
        assert fp["value"] == "AONR21357"
        assert fp["lib"].endswith(":DFN-8-1EP_3x3mm_P0.65mm_EP1.55x2.4mm")
        assert sorted(p["number"] for p in fp["pads"] if p["number"]) == \
            [str(n) for n in range(1, 10)]
    assert pcb_check.fet_nets(board, "Q1") == {"G": "GND", "S": "VIN_RP", "D": "VIN"}
    assert pcb_check.fet_nets(board, "Q2") == {"G": "LED_GATE", "S": "+5V",
                                               "D": pcb_parts.LED_RAIL}
    assert board.pad("F1", "1")["net"] == "VIN_RP" and board.pad("Q3", "3")["net"] == "LED_GATE"
    board2, _ = _fresh(led)
    board2.pad("Q2", "1")["net"], board2.pad("Q2", "4")["net"] = "LED_GATE", "+5V"
    assert any("Q2's S pins" in p for p in pcb_check.check_power(board2))
    board2, _ = _fresh(led)
    board2.footprints["Q1"]["value"] = "AO3401A"
    assert any("not the AONR21357" in p for p in pcb_check.check_protection(board2))


@pytest.mark.parametrize("led", OPTIONS)
def test_each_mosfets_drain_has_the_datasheets_square_inch_of_copper(boards, led):
    """The datasheet's thermal resistances are for 1 in^2 of 2 oz copper: each MOSFET's drain
    has a square inch of 1 oz on both layers (measured on the filled zones), stitched by
    vias; less copper, or none, fails."""
    board, info = boards[led]
    assert pcb_check.check_fet_copper(board, info) == []
    for ref in ("Q1", "Q2"):
        assert min(info["fet_copper_mm2"][ref].values()) >= 645.16
        assert info["fet_vias"][ref] >= pcb_check.FET_VIAS_MIN
    small = dict(info, fet_copper_mm2=dict(info["fet_copper_mm2"],
                                           Q1={"F.Cu": 700.0, "B.Cu": 600.0}))
    assert any("Q1's drain" in p and "B.Cu" in p for p in pcb_check.check_fet_copper(board,
                                                                                   small))
    board2, _ = _fresh(led)
    board2.zones = [z for z in board2.zones if not (z["priority"] and z["net"] == "VIN")]
    assert len(pcb_check.check_fet_copper(board2, info)) == 2
    assert any("vias" in p for p in pcb_check.check_fet_copper(
        board, dict(info, fet_vias={"Q1": 3, "Q2": 80})))
