"""hardware/README.md and what it is built from: the templates draw the layout's chain order,
the strips fit side by side, the generated tables and the key-map card are current and say
what the firmware says, and the bring-up section's claims hold for the firmware."""

import math
import os
import re
import xml.etree.ElementTree as ET

import drill_template as dt
import keymap_card
from board.keypad import KEYS_4X4
from board.layout import Layout
from board.render import Renderer
from board.selftest import selftest

NS = "{http://www.w3.org/2000/svg}"


def readme():
    with open(dt.README) as f:
        return f.read()


def points(d):
    """The (x, y) points of an SVG path's d (M, L, C: every coordinate pair)."""
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[0::2], nums[1::2]))


def runs_in(text):
    """[(first, last, arrow points or None, label texts, wire title)] per data run, in order."""
    out = []
    for g in ET.fromstring(text).iter(NS + "g"):
        if g.get("data-first") is None:
            continue
        arrow = wire = None
        for path in g.findall(NS + "path"):
            t = path.find(NS + "title")
            if t is None:
                arrow = points(path.get("d"))
            else:
                wire = t.text
        labels = [t.text for t in g.findall(NS + "text")]
        out.append((int(g.get("data-first")), int(g.get("data-last")), arrow, labels, wire))
    return out


# --- the templates ------------------------------------------------------------------------

def test_templates_draw_the_chain_order():
    """Every template's data path: the runs in wiring order cover LED 0..count-1 once; each
    arrow goes from its first LED to its last beside the holes, labelled with both; a wire
    joins each run's last LED to the next run's first."""
    for b in dt.all_builds():
        L = b.layout()
        found = runs_in(dt.build_svg(b))
        assert [(a, z) for a, z, *_rest in found] == dt.runs(L), b.name
        assert found[0][0] == 0 and found[-1][1] == L.count - 1
        for (a, z, arrow, labels, wire), nxt in zip(found, [*found[1:], None]):
            assert "LED %d" % a in labels and "LED %d" % z in labels, (b.name, a)
            if a != z:
                (x0, y0), (x1, y1) = L.xy(a), L.xy(z)
                (ax, ay), (bx, by) = arrow[0], arrow[-1]
                # the arrow runs the same way as the LEDs, as long, beside them
                assert abs((bx - ax) - (x1 - x0)) < 0.02 and abs((by - ay) - (y1 - y0)) < 0.02
                assert len(arrow) >= 2
            if nxt is None:
                assert wire is None
            else:
                assert wire == "wire: LED %d DOUT to LED %d DIN" % (z, nxt[0])


def test_runs_are_neighbouring_leds():
    """A run is LEDs next to each other (one pitch, one group gap or one lane apart): a run
    needs no wire inside it; and one run is one kind of LED, in one lane or line."""
    for b in dt.all_builds():
        L = b.layout()
        for a, z in dt.runs(L):
            assert len({dt.run_key(L, p) for p in range(a, z + 1)}) == 1
            for p in range(a, z):
                (x0, y0), (x1, y1) = L.xy(p), L.xy(p + 1)
                step = math.hypot(x1 - x0, y1 - y0)
                assert step <= max(L.pitch + L.group_gap, L.lane_pitch) + 1e-9, (b.name, p)


def test_the_arrows_start_where_the_chain_starts():
    """Run 1 starts at LED 0 (lane 1's turn LED) and the track's first line at hole 1."""
    L = Layout()
    rs = dt.runs(L)
    assert rs[0][0] == 0 == L.turn_led(0)
    track = [r for r in rs if dt.run_key(L, r[0])[0] == "line"]
    assert track[0][0] == L.hole(0, 1) and len(track) == L.bands * L.lanes
    assert all(z - a + 1 == L.row for a, z in track)


def test_strips_fit_side_by_side():
    """For every density the lanes (and bands) are at least the strip's width apart, the
    pitch is the strip's, and no two strip pieces on the template overlap."""
    for density, width in dt.STRIP_WIDTH.items():
        b = dt.strip_build(density)
        L = b.layout()
        assert abs(L.pitch - 1000.0 / density) < 1e-9 and L.group_gap == 0
        assert L.lane_pitch >= width + dt.STRIP_MARGIN
        assert L.band_gap >= L.lane_pitch
        rects = []
        for r in ET.fromstring(dt.build_svg(b)).iter(NS + "rect"):
            t = r.find(NS + "title")
            if t is not None and t.text.startswith("strip piece"):
                rects.append(tuple(float(r.get(k)) for k in ("x", "y", "width", "height")))
        assert len(rects) == len(dt.pieces(L))
        assert all(abs(h - width) < 0.01 for _x, _y, _w, h in rects)
        for i, (x, y, w, h) in enumerate(rects):
            for x2, y2, w2, h2 in rects[i + 1:]:
                overlap_x = min(x + w, x2 + w2) - max(x, x2)
                overlap_y = min(y + h, y2 + h2) - max(y, y2)
                assert overlap_x < 0.02 or overlap_y < 0.02, (density, (x, y), (x2, y2))


def test_strip_pieces_hold_their_leds_at_the_strip_pitch():
    L = dt.strip_build(144).layout()
    ps = dt.pieces(L)
    assert [p for a, z in ps for p in range(a, z + 1)] == list(range(L.count))
    for a, z in ps:
        xs = [L.xy(p)[0] for p in range(a, z + 1)]
        ys = {round(L.xy(p)[1], 6) for p in range(a, z + 1)}
        assert len(ys) == 1
        assert all(abs(abs(x1 - x0) - L.pitch) < 1e-6 for x0, x1 in zip(xs, xs[1:]))


def test_through_hole_leds_fit_their_holes():
    """The flanges of neighbouring LEDs (behind the panel) do not touch."""
    for led, (hole, flange, pitch, _gap) in dt.THT.items():
        b = dt.tht_build(led)
        L = b.layout()
        assert b.led_hole == hole >= led
        assert pitch > flange and L.lane_pitch > flange and L.band_gap > L.lane_pitch


def test_templates_label_status_leds_buttons_and_keypad():
    for b in dt.all_builds():
        L = b.layout()
        root = ET.fromstring(dt.build_svg(b))
        texts = [t.text for t in root.iter(NS + "text")]
        for name in ["turn", "crib"] + ["won %d" % (k + 1) for k in range(L.games)]:
            assert texts.count(name) == L.lanes, (b.name, name)
        for lane in range(L.lanes):
            assert "lane %d" % (lane + 1) in texts
            assert "start %d" % (lane + 1) in texts
        assert "finish" in texts
        titles = [t.text for t in root.iter(NS + "title")]
        buttons = [t for t in titles if t.startswith("button +1 side")]
        assert len(buttons) == dt.button_count() == 2
        assert any("keypad" in t and "cable slot" in t for t in titles)
        assert any(t.startswith("key-map card") for t in titles)
        assert any("DIN" in (t or "") for t in texts)


# --- the README's generated tables --------------------------------------------------------

def test_readme_generated_tables_are_current():
    text = readme()
    blocks = dt.readme_blocks(text)
    assert set(blocks) == set(dt.GENERATED)
    assert dt.update_readme(text) == text, "run: python tools/maker/drill_template.py --all"


def test_readme_writes_out_the_chain_order():
    L = Layout()
    table = dt.readme_blocks(readme())["chain"]
    rows = [line for line in table.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == len(dt.runs(L))
    for row, (a, z) in zip(rows, dt.runs(L)):
        assert ("| %d-%d |" % (a, z) if a != z else "| %d |" % a) in row
    # the worked example under the table
    assert L.hole(0, 31) == 101 and "hole 31 of\nlane 1 is LED 101" in readme()


def test_readme_builds_and_boms():
    text = readme()
    for b in dt.all_builds():
        assert "[`%s`](%s)" % (b.name, b.name) in text
        assert os.path.exists(os.path.join(dt.HARDWARE, b.name))
    for name in ("keymap_card.svg", "wiring_pico.svg", "wiring_esp32.svg"):
        assert "(%s)" % name in text and os.path.exists(os.path.join(dt.HARDWARE, name))
    common = dt.readme_blocks(text)["bom common"]
    assert "1N5817" in common and "ESP32" in common and "VSYS" in common
    strip = dt.readme_blocks(text)["bom strip"]
    joins = len(dt.pieces(dt.strip_build(144).layout())) - 1
    assert "| %d |" % joins in strip and "%d joins" % joins in text


def test_supply_covers_the_default_limit():
    L = Layout()
    limit, dark, need, amps = dt.supply(L)
    assert limit == 2000 and amps * 1000 >= need > limit + dark


# --- the key-map card ---------------------------------------------------------------------

def card_rows(text):
    """[(keys, what)] as the card's table shows them (wrapped lines joined)."""
    out = []
    for g in ET.fromstring(text).iter(NS + "g"):
        if g.get("class") == "row":
            keys = " ".join(t.text for t in g.findall(NS + "text") if t.get("class") == "keys")
            what = " ".join(t.text for t in g.findall(NS + "text") if t.get("class") == "what")
            out.append((keys, what))
    return out


def app_table():
    """The key map's rows read straight from tools/sim/keymap.py (not through the card)."""
    from sim import keymap

    return [(" ".join(k.split()), " ".join(w.split())) for k, w in keymap.ROWS]


def test_keymap_card_has_every_row_of_the_firmware_key_map():
    shown = [(" ".join(k.split()), " ".join(w.split())) for k, w in card_rows(keymap_card.svg())]
    assert shown == app_table()
    assert len(shown) >= 10 and ("#", shown[2][1]) in shown


def test_keymap_card_shows_the_keypad_as_the_firmware_scans_it():
    root = ET.fromstring(keymap_card.svg())
    cells = {}
    for g in root.iter(NS + "g"):
        t = g.find(NS + "title")
        if t is not None and t.text.startswith("key "):
            r = g.find(NS + "rect")
            cells[t.text[4:]] = (float(r.get("x")), float(r.get("y")),
                                 [x.text for x in g.findall(NS + "text")])
    assert sorted(cells) == sorted(KEYS_4X4)
    for i, key in enumerate(KEYS_4X4):  # row by row, four to a row: as board/keypad.py scans
        r, c = divmod(i, 4)
        x, y, _texts = cells[key]
        assert x == cells[KEYS_4X4[c]][0] and y == cells[KEYS_4X4[4 * r]][1]  # a grid
        if c:
            assert x > cells[KEYS_4X4[i - 1]][0]
        if r:
            assert y > cells[KEYS_4X4[i - 4]][1]
    suits = {"A": "\u2663", "B": "\u2666", "C": "\u2665", "D": "\u2660"}  # as modes.py says
    for key, symbol in suits.items():
        assert symbol in cells[key][2]
    assert "OK" in cells["#"][2] and "hold: undo" in cells["*"][2]
    assert "go" in cells["B"][2] and "menu" in cells["D"][2]


def test_keymap_card_size_and_committed_copy():
    text = keymap_card.svg()
    root = ET.fromstring(text)
    assert root.get("width") == "70mm" and root.get("height") == "80mm"
    assert root.get("viewBox") == "0 0 70 80"
    assert keymap_card.HEIGHT <= dt.KEYPAD_H + 5
    with open(keymap_card.OUT) as f:
        assert f.read() == text, "run: python tools/maker/keymap_card.py"


def test_keymap_card_words_from_the_firmware_tables():
    header, rows = keymap_card.table()
    assert header == ("keys", "what they do")
    assert rows[1][0] == "number then A B C D" and "1=ace" in rows[1][1]
    assert keymap_card.suits() == {"A": "clubs", "B": "diamonds", "C": "hearts", "D": "spades"}
    said = keymap_card.meanings("1*#")
    assert said == {"1": ["ace"], "*": ["back", "hold: undo"], "#": ["OK", "hold: redo"]}


# --- the bring-up section's claims --------------------------------------------------------

def strip(n, order=None):
    """The fake board's strip (fakeboard/fake.py), GRB unless order is given."""
    from fakeboard.fake import Strip as FakeStrip

    s = FakeStrip(n)
    if order is not None:
        s.ORDER = order
    return s


def test_self_test_white_frame_is_what_the_guide_measures():
    """The guide's mpremote line: selftest(r, 3 * count) at brightness 255 lights every LED the
    same white, scaled under the limit, and its estimate is the 1987 mA the guide quotes."""
    L = Layout()
    r = Renderer(L, strip(L.count), 255, 2000)
    assert selftest(r, 3 * L.count)
    buf = r.buf
    assert len(set(buf)) == 1 and buf[0] > 0
    assert r.last_ma <= 2000 and "estimate (%d mA for 2000)" % r.last_ma in readme()
    assert "selftest(r, 3 * hw['layout'].count)" in readme()


def test_self_test_runs_red_then_green_then_blue_along_the_chain():
    L = Layout()
    r = Renderer(L, strip(L.count), 64, 2000)
    red, green, blue = 1, 0, 2  # bytes of a GRB pixel
    for step, led, byte in ((0, 0, red), (L.count - 1, L.count - 1, red), (L.count, 0, green),
                            (2 * L.count + 5, 5, blue)):
        selftest(r, step)
        lit = [i for i in range(L.count) if any(r.buf[3 * i:3 * i + 3])]
        assert lit == [led], step
        k = 3 * led
        assert r.buf[k + byte] == max(r.buf[k:k + 3]) > 0, step


def test_rgb_order_fix_in_the_guide_swaps_red_and_green():
    """LED_ORDER = "RGB" gives the strip ORDER (0, 1, 2, 3) (test_board_hw.py checks the
    board file's line reaches the strip): the renderer then sends red first."""
    L = Layout()
    assert 'LED_ORDER = "RGB"' in readme()
    r = Renderer(L, strip(L.count, order=(0, 1, 2, 3)), 64, 2000)
    selftest(r, 0)  # red on LED 0
    assert r.buf[0] > 0 and r.buf[1] == 0 == r.buf[2]


def test_menu_path_to_the_led_test():
    """The guide says D, then B twice, OK: LED test is the item before the last."""
    from board.menu import MENU_ITEMS

    assert MENU_ITEMS.index("LED test") == len(MENU_ITEMS) - 2
    assert "D, then B twice" in readme() and "menu: D, B, B, OK" in readme()
