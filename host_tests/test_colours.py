"""Issue 35.22: about one man in twelve cannot tell red from green. The "colours" setting
(board/settings.py) draws the sides in a colour-blind safe palette (board/render.py's
PALETTE, its second half):
checked on the simulator's pictures under simulated protanopia and deuteranopia (Machado et
al. 2009; tools/checks/cvd.py), every pair of sides at least cvd.MIN_DE (CIEDE2000) apart with 2-6
players; the cues that are not colour (lanes, the front peg brighter than the back peg, sides
sharing a lane blinking each its own way) hold in either palette; the page and the club draw
in the board's one table."""

import json
import os

import pytest

import cvd  # tools/checks/cvd.py
from boardkit import board, new_game
from board import render
from board.app import App
from board.settings import Settings
from board.boot import settings as settings_loads  # (power-up's: board/boot.py)
from fakeboard.fake import build
from webkit import Page

KINDS = ("protanopia", "deuteranopia")


# --- the helper: the published formulas, checked against their published figures ---------

@pytest.mark.parametrize("lab1,lab2,de", [  # Sharma, Wu and Dalal 2005, table 1 (pairs 1, 7,
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),  # 17, 25)
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_gives_the_published_differences(lab1, lab2, de):
    assert abs(cvd.de2000(lab1, lab2) - de) < 1e-4
    assert abs(cvd.de2000(lab2, lab1) - de) < 1e-4


def test_the_simulation_keeps_greys_and_merges_red_and_green():
    """Machado's matrices keep white, black and greys (each row sums to 1); a protanope and a
    deuteranope see pure red and a green of the same lightness nearly alike, a normal eye not."""
    for kind in cvd.MACHADO:
        for g in (0, 128, 255):
            assert all(abs(c - g) < 1.0 for c in cvd.simulate((g, g, g), kind))
    red, green = (200, 90, 0), (120, 120, 0)
    assert cvd.de2000(cvd.lab(red), cvd.lab(green)) > 20
    for kind in KINDS:
        assert cvd.de2000(cvd.lab(cvd.simulate(red, kind)),
                          cvd.lab(cvd.simulate(green, kind))) < 8


# --- the palettes on the simulator's pictures ---------------------------------------------

@pytest.mark.parametrize("bright", [64, 255])  # the default brightness, and full
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_colour_blind_palette_tells_every_pair_of_sides_apart(players, bright):
    pegs = cvd.picture_pegs(1, players, bright)
    for kind in KINDS:
        de, pair = cvd.closest(pegs, kind)
        assert de >= cvd.MIN_DE, (players, bright, kind, pair, de)
    assert cvd.closest(pegs)[0] >= cvd.MIN_DE  # and for everyone else


def test_the_usual_palette_fails_the_same_check():
    """What the setting is for (and proof the check can fail): with five players the usual
    blue and pink fall together for a protanope and a deuteranope; with three, red and green
    come closer than the figure for a deuteranope."""
    pegs = cvd.picture_pegs(0, 5)
    for kind in KINDS:
        assert cvd.closest(pegs, kind)[0] < 6
    assert cvd.closest(cvd.picture_pegs(0, 3), "deuteranopia")[0] < cvd.MIN_DE


@pytest.mark.parametrize("colours", [0, 1])
def test_the_cues_that_are_not_colour_hold_in_either_palette(colours):
    """Without colour at all (the pictures' lightness): each side's front peg is brighter
    than its back peg by at least 15 L*; five sides on two lanes: the sides sharing a lane
    are lit in different frames (steady, slow blink, short flashes)."""
    from board.layout import Layout

    hw = build("/data", display=False)
    L = hw["layout"]
    assert isinstance(L, Layout)
    strip = hw["strip"]
    r = render.Renderer(L, strip, 64, 2000, colours)
    v = render.View(5, 121)
    for s in range(5):
        v.front[s], v.back[s] = 20 + 9 * s, 12 + 9 * s
    from sim.ui import _visible

    def lightness(p):
        c = strip.rgb(p)
        return cvd.lab(_visible(c))[0] if max(c) else 0.0

    seen = {}
    for now in range(0, 2400, 40):
        r.frame(v, now)
        for s in range(5):
            lane = s % L.lanes
            front, back = L.peg(lane, v.front[s], 121), L.peg(lane, v.back[s], 121)
            if max(strip.rgb(front)):
                assert lightness(front) - lightness(back) >= 15, (s, now)
                seen.setdefault(s, set()).add(now)
    assert sorted(seen) == [0, 1, 2, 3, 4]
    for a in range(5):
        for b in range(a + 1, 5):
            if a % L.lanes == b % L.lanes:
                assert seen[a] != seen[b], (a, b)  # told apart by their blinking


# --- the setting ---------------------------------------------------------------------------

def test_the_setting_in_the_menu_turns_the_leds_and_survives_a_restart():
    hw, app, f = board(display=True)
    f.press("5#")
    red = hw["strip"].rgb(app.layout.peg(0, 5, 121))
    new_game(f, app, {"colours": 1})
    assert app.renderer.colours == 1
    f.press("5#")
    safe = hw["strip"].rgb(app.layout.peg(0, 5, 121))
    assert safe != red and max(safe) > 0
    k = 64 * 256  # (default brightness, front level)
    assert safe == tuple(c * k >> 16 for c in render.PALETTE[24:27])
    saved = hw["fs"].files["/data/settings"]
    assert saved[:2] == b"\x06\x0c" and settings_loads(saved).get("colours") == 1
    again = App(hw)  # a restart: the setting holds
    assert again.cfg.get("colours") == 1 and again.renderer.colours == 1


def test_the_menu_says_the_setting_in_words():
    hw, app, f = board(display=True)
    from board.menu import MENU_ITEMS

    f.press("D" + "A" * MENU_ITEMS.index("colours"))
    text = " ".join(hw["display"].shown)
    assert "colours" in text and "= 0" in text and "1 = colour-blind" in text
    f.press("1#")
    assert "= 1" in " ".join(hw["display"].shown) and app.cfg.get("colours") == 1
    assert all(len(line) <= 16 for line in hw["display"].shown)


def test_the_usual_palettes_file_is_earlier_firmwares():
    """With the default palette the settings file is version 5's, byte for byte (the firmware
    before the palette reads it); a version 6 file loads, colours kept."""
    s = Settings()
    assert s.dumps()[:2] == b"\x05\x0b" and settings_loads(s.dumps()).values == s.values
    s.set("colours", 1)
    s.set("players", 3)
    assert s.dumps()[:2] == b"\x06\x0c" and settings_loads(s.dumps()).values == s.values
    s.set("colours", 0)
    assert settings_loads(s.dumps()).get("players") == 3
    with pytest.raises(ValueError):
        s.set("colours", 2)


# --- the page and the club draw in the board's table ----------------------------------------

def test_the_pages_state_carries_the_palette_in_use():
    p = Page()
    try:
        st = json.loads(p.get("/state")[1])
        assert st["colours"] == ["%02x%02x%02x" % tuple(render.PALETTE[3 * k:3 * k + 3])
                                 for k in range(st["sides"])]
        new_game(p.f, p.app, {"colours": 1})
        st = json.loads(p.get("/state")[1])
        assert st["colours"] == ["%02x%02x%02x" % tuple(render.PALETTE[24 + 3 * k:27 + 3 * k])
                                 for k in range(st["sides"])]
    finally:
        p.close()


def test_the_club_takes_the_boards_table():
    """tools/club draws the sides in the board's palette (as a screen shows the LEDs), no
    copy of its own: no colour written out in its code."""
    import re

    from club import page

    seen = tuple("#%02x%02x%02x" % tuple(
        round(255 * (render.PALETTE[3 * k + i] / 255) ** 0.45) for i in range(3))
        for k in range(6))
    assert seen == page.COLOURS
    here = os.path.dirname(page.__file__)
    for name in ("page.py", "night.py", "director.py"):
        with open(os.path.join(here, name)) as f:
            assert not re.search(r'"#[0-9a-fA-F]{3,6}"', f.read()), name
