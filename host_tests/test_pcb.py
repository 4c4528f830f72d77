"""The peg track's PCB (hardware/pcb/, issue 25): generated from the firmware's layout, and
checked, not trusted.

Without KiCad these still read the committed board files, Gerbers, BOM and pick-and-place back
(tools/pcb/check.py, in .venv) and check them against firmware/board/layout.py and the board
file's pins (firmware/boards/pico.py); with KiCad 6 (the system python3's pcbnew: `apt-get
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
    assert len(list(files["NPTH"].drills())) == board.npth() == 0  # mounting holes: plated, GND


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
    shutil.rmtree(out)
