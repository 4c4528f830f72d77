"""tools/maker/drill_template.py and tools/maker/wiring_diagram.py: every LED of the layout is a
drill mark at its true position, for every build; the committed pictures are what the tools make
now."""

import os
import re
import xml.etree.ElementTree as ET

import drill_template
import wiring_diagram
from board.layout import Layout
from hw import esp32_devkit, pico

NS = "{http://www.w3.org/2000/svg}"


def marks(text):
    """(root, {pixel: (x, y, diameter)}) of a template's LED drill marks."""
    root = ET.fromstring(text)
    out = {}
    for c in root.iter(NS + "circle"):
        t = c.find(NS + "title")
        if t is not None and "pixel" in t.text:
            p = int(t.text.rsplit(" ", 1)[1])
            out[p] = (float(c.get("cx")), float(c.get("cy")), 2 * float(c.get("r")))
    return root, out


def check_true_scale(L, text, led_hole=5.0, status_hole=3.0):
    root, m = marks(text)
    assert sorted(m) == list(range(L.count))
    # 1 user unit = 1 mm: the viewBox matches the page size given in mm
    w = float(root.get("width")[:-2])
    h = float(root.get("height")[:-2])
    assert root.get("viewBox").split()[2:] == ["%.1f" % w, "%.1f" % h]
    # every mark sits where the layout says, shifted by one common offset
    x0, y0 = L.xy(0)
    dx, dy = m[0][0] - x0, m[0][1] - y0
    for p in range(L.count):
        x, y = L.xy(p)
        assert abs(m[p][0] - x - dx) < 0.01 and abs(m[p][1] - y - dy) < 0.01, p
        assert 0 < m[p][0] < w and 0 < m[p][1] < h
    # neighbouring track holes are one pitch apart (within a group of 5)
    a, b = L.hole(0, 1), L.hole(0, 2)
    assert abs(abs(m[a][0] - m[b][0]) - L.pitch) < 0.01
    assert m[a][2] == led_hole and m[L.turn_led(0)][2] == status_hole
    return root


def test_default_board():
    root = check_true_scale(Layout(), drill_template.svg(Layout(), led_hole=5.0, status_hole=3.0))
    assert "100 mm" in ET.tostring(root, encoding="unicode")


def test_every_build_is_true_scale():
    for b in drill_template.all_builds():
        check_true_scale(b.layout(), drill_template.build_svg(b), b.led_hole, b.status_hole)


def test_another_build_is_a_change_of_parameters():
    L = Layout(lanes=3, holes=60, row=30)
    check_true_scale(L, drill_template.svg(L))
    a = drill_template.parse_args(["--lanes", "3", "--holes", "60", "--pitch", "6.5"])
    L2 = drill_template.make_layout(a)
    assert (L2.lanes, L2.holes, L2.pitch) == (3, 60, 6.5)


def test_command_line_builds():
    """--build/--density/--led pick the build and its file; layout options still override."""
    a = drill_template.parse_args([])
    assert os.path.basename(a.out) == "drill_template.svg"
    assert vars(drill_template.make_layout(a)) == vars(Layout())
    a = drill_template.parse_args(["--build", "strip", "--density", "96"])
    assert os.path.basename(a.out) == "drill_strip_96.svg"
    L = drill_template.make_layout(a)
    assert abs(L.pitch - 1000 / 96) < 1e-9 and L.group_gap == 0
    assert L.lane_pitch >= drill_template.STRIP_WIDTH[96]
    a = drill_template.parse_args(["--build", "strip", "--density", "30", "--strip-width", "11",
                                   "--lane-pitch", "20"])
    assert drill_template.make_layout(a).lane_pitch == 20
    a = drill_template.parse_args(["--build", "tht", "--led", "8"])
    assert os.path.basename(a.out) == "drill_tht_8mm.svg"
    assert drill_template.make_layout(a).pitch == drill_template.THT[8][2]


def test_main_writes_the_chosen_build(tmp_path, capsys):
    out = tmp_path / "t.svg"
    assert drill_template.main(["--build", "tht", "--led", "5", "--led-hole", "3.2",
                                "--out", str(out)]) == 0
    L = drill_template.tht_build(5).layout()
    _root, m = marks(out.read_text())
    assert m[L.hole(0, 1)][2] == 3.2 and len(m) == L.count
    assert "lanes 10.0 mm apart" in capsys.readouterr().out


def test_committed_templates_are_current():
    """hardware/<build>.svg is what the tool makes from today's layout, for every build."""
    for b in drill_template.all_builds():
        with open(os.path.join(drill_template.HARDWARE, b.name)) as f:
            assert f.read() == drill_template.build_svg(b), \
                "run: python tools/maker/drill_template.py --all (%s)" % b.name


def test_wiring_diagrams_follow_the_board_modules():
    """Every pin of firmware/hw/{pico,esp32_devkit}.py is a wire in the committed SVG."""
    for board, mod in (("pico", pico), ("esp32", esp32_devkit)):
        text = wiring_diagram.svg(board)
        path = os.path.join(wiring_diagram.ROOT, "hardware", "wiring_%s.svg" % board)
        with open(path) as f:
            assert f.read() == text, "run: python tools/maker/wiring_diagram.py"
        pins = (mod.LED_PIN, *mod.ROWS, *mod.COLS, *mod.BUTTONS, *mod.I2C[1:])
        for p in pins:
            assert ">%s<" % wiring_diagram.pin_label(board, p) in text, (board, p)
        assert text.count("keypad row") == 4 and text.count("keypad column") == 4
        assert "1N5817" in text  # the diode into VSYS / VIN, on both boards
    assert wiring_diagram.pin_label("pico", 21) == "GP21 (pin 27)"


def test_hardware_readme_pin_tables_match_the_board_modules():
    with open(os.path.join(wiring_diagram.ROOT, "hardware", "README.md")) as f:
        text = f.read()
    pico_part = text.split("## Raspberry Pi Pico wiring")[1].split("\n## ")[0]
    esp_part = text.split("## ESP32 DevKit wiring")[1].split("\n## ")[0]
    for part, mod, pat in ((pico_part, pico, r"\bGP(\d+)\b"), (esp_part, esp32_devkit,
                                                               r"\bGPIO (\d+)\b")):
        table = "\n".join(line for line in part.splitlines() if line.startswith("| "))
        named = {int(n) for n in re.findall(pat, table)}
        pins = {mod.LED_PIN, *mod.ROWS, *mod.COLS, *mod.BUTTONS, *mod.I2C[1:]}
        assert named == pins, (mod.__name__, sorted(named ^ pins))
        assert "1N5817" in table  # the diode in the 5 V line, on both boards
    for gp, phys in ((0, 1), (20, 26), (21, 27)):
        assert "GP%d (pin %d)" % (gp, phys) in pico_part
