"""The power model (tools/maker/power_model.py): its arithmetic against hand-computed frames, its
figures over a scripted game stable (virtual time), and the README's and docs/power.md's
figures what it prints."""

import os
import re

import pytest

import power_model as pm
from board.layout import Layout
from board.render import Renderer
from board.selftest import selftest
from fakeboard.fake import Strip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = Layout().count  # 253 LEDs


def _read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def test_a_dark_frame_draws_every_leds_quiescent_current():
    dark = bytes(3 * N)
    assert pm.frame_ma(dark) == pytest.approx(N * 0.6)  # WS2812B-2020: < 0.6 mA each
    assert pm.frame_ma(dark.hex(), "sk6812mini-e") == pytest.approx(N * 1.0)


def test_one_led_full_white_adds_three_channels_at_full_current():
    buf = bytearray(3 * N)
    buf[30:33] = b"\xff\xff\xff"  # LED 10, every channel at 255
    assert pm.frame_ma(bytes(buf)) == pytest.approx(N * 0.6 + 3 * 12.0)
    buf[30:33] = b"\x40\x00\x00"  # one channel at 64/255 of the time
    assert pm.frame_ma(bytes(buf)) == pytest.approx(N * 0.6 + 12.0 * 64 / 255)


def test_the_firmwares_current_limit_is_in_the_bytes_the_model_costs():
    """The self-test's white frame at brightness 255 under a 500 mA limit: the firmware's
    renderer scales every channel to 5 (its budget: (500 - 253 x 0.8) x 255 / 20 = 3799, over
    253 x 3 channels), and the model costs those bytes, not the unscaled white."""
    L = Layout()
    r = Renderer(L, Strip(L.count), 255, 500)
    assert selftest(r, 3 * L.count)
    assert set(r.buf) == {5}
    want = N * 0.6 + 3 * N * 5 * 12.0 / 255  # 151.8 + 178.6 mA
    assert pm.frame_ma(bytes(r.buf)) == pytest.approx(want)
    assert pm.frame_ma(bytes(r.buf)) < 500  # the datasheet's figures are under the estimate's
    assert pm.frame_ma(bytes(r.buf)) == pytest.approx(330.39, abs=0.01)


def test_frames_are_weighted_by_the_time_they_stand():
    p = pm.params()
    dark = bytes(3 * N).hex()
    white = (b"\xff" * 3 + bytes(3 * N - 3)).hex()
    avg, peak = pm.play_figures([(1000.0, dark, None), (3000.0, white, None)], p,
                                "ws2812b-2020", wifi=False, pico_w=False)
    base = p["mcu_run"] + p["shifter"] + p["rail_led"] + pm.at_5v(p["light"], p)
    assert avg == pytest.approx(base + N * 0.6 + 36.0 * 3 / 4)
    assert peak == pytest.approx(base + N * 0.6 + 36.0)
    on, _ = pm.play_figures([(1.0, dark, None)], p, "ws2812b-2020", wifi=True, pico_w=True)
    off, _ = pm.play_figures([(1.0, dark, None)], p, "ws2812b-2020", wifi=False, pico_w=True)
    assert on - off == pytest.approx(p["wifi_on"] - p["wifi_off"])
    # the display's characters at 3.3 V, through the Pico's regulator
    lit, _ = pm.play_figures([(1.0, dark, ["0123456789"])], p, "ws2812b-2020", False, False)
    bare, _ = pm.play_figures([(1.0, dark, [""])], p, "ws2812b-2020", False, False)
    assert lit - bare == pytest.approx(10 * p["display_char"] * 3.3 / (5 * 0.9))


def test_the_cell_feeds_the_boost_at_its_efficiency_plus_its_own_draw():
    p = pm.params()
    assert pm.cell_ma(100.0, p) == pytest.approx(100 * 5 / (0.90 * 3.7) + 0.05 + 0.021)
    assert pm.cell_ma(100.0, dict(p, **pm.MT3608)) == pytest.approx(
        100 * 5 / (0.85 * 3.7) + 6.0 + 0.021)
    assert pm.cell_ma(0.0, pm.params(boost_noload=0.1)) == pytest.approx(0.121)
    with pytest.raises(KeyError):
        pm.params(nonsense=1)


def test_standby_has_no_led_and_the_pico_asleep():
    p = pm.params()
    sleep = pm.standby_ma(p)
    assert sleep == pytest.approx(p["mcu_sleep"] + pm.at_5v(p["display_sleep"] + p["light"], p))
    assert sleep < 2  # the rail is off: none of the 253 LEDs' 152 mA
    assert pm.standby_ma(p, wifi=True, pico_w=True) > p["mcu_run"]  # Wi-Fi keeps it awake


def test_standby_through_the_guides_boost_meets_30_days_and_the_mt3608_does_not():
    """Issue 32's standby goal: the TPS61023's light-load figures give 30 days or more, the
    MT3608 module's 6 mA of its own does not; the rail-off rows run the boost at its
    light-load efficiency, except with Wi-Fi on (~45 mA, the play efficiency)."""
    p = pm.params()
    f = pm.standby_figures(p)
    assert f["standby"]["hours"] / 24 >= pm.GOAL_STANDBY_D
    assert f["standby, Pico W, Wi-Fi off"]["hours"] / 24 >= pm.GOAL_STANDBY_D
    assert f["standby, MT3608 boost"]["hours"] / 24 < pm.GOAL_STANDBY_D
    ma = f["standby"]["avg"]
    assert f["standby"]["cell"] == pytest.approx(
        ma * 5 / (p["boost_eff_light"] * 3.7) + p["boost_noload"] + p["divider"])
    wifi = f["standby, Wi-Fi on"]
    assert wifi["cell"] == pytest.approx(pm.cell_ma(wifi["avg"], p))


def test_the_guides_check_before_wiring_is_what_the_model_needs():
    """hardware/README.md's check of a boost module (its input current at standby's load) is
    no looser than what 30 days need, the recommended TPS61023 passes it on its datasheet's
    figures and an MT3608 module fails it; the check's resistor gives standby's load."""
    guide = " ".join(_read("hardware/README.md").split())
    m = re.search(r"input current must stay under ([0-9.]+) mA", guide)
    assert m, "the guide's check before wiring"
    limit = float(m.group(1))
    p = pm.params()
    assert limit <= pm.boost_in_for_goal(p)
    f = pm.standby_figures(p)
    assert f["standby"]["cell"] - p["divider"] < limit
    assert f["standby, MT3608 boost"]["cell"] - p["divider"] > limit
    r = re.search(r"\*\*([0-9.]+) kohm\*\* resistor across OUT\+/OUT- \(about ([0-9.]+) mA", guide)
    assert r, "the check's load resistor"
    assert 5.1 / float(r.group(1)) == pytest.approx(f["standby"]["avg"], rel=0.1)
    assert "TPS61023" in guide and "TPS61023" in _read("hardware/pcb/parts.csv")


def test_a_short_scripted_game_gives_the_same_figures_every_run():
    """Virtual time: the first 12 entries of a 61-point game, twice, give the same frames and
    figures; their weights add up to the entries' time; the LEDs lit add to the dark current."""
    pre, entries, deals = pm.game_timeline(3, target=61)
    entries = entries[:12]
    runs = [pm.run_frames(pre, entries, 15000.0) for _ in range(2)]
    assert runs[0] == runs[1]
    samples = runs[0]
    assert len(samples) == 12 * pm.CYCLE_MS // pm.SAMPLE_MS
    assert sum(ms for ms, _, _ in samples) == pytest.approx(12 * 15000.0)
    leds = [pm.frame_ma(f) for _, f, _ in samples]
    assert min(leds) >= N * 0.6 and max(leds) > N * 0.6  # pegs lit on top of the dark draw
    p = pm.params()
    figures = [pm.play_figures(r, p, "ws2812b-2020", False, False) for r in runs]
    assert figures[0] == figures[1]
    avg, peak = figures[0]
    assert N * 0.6 + p["mcu_run"] < avg <= peak


@pytest.mark.slow
def test_the_readme_and_docs_state_what_the_model_prints():
    """The default report (a whole 121-point game, twice: lit and dimmed): the README's line
    and docs/power.md's table are what it prints; a change of firmware or figures that moves
    them fails here until `make power` is run and its output copied."""
    r = pm.report()
    assert pm.summary(r) in " ".join(_read("README.md").split())  # (wrapped there)
    doc = _read("docs/power.md")
    assert pm.table(r) in doc
    for line in pm.verdict(r).splitlines():
        assert line.strip() in doc


def test_the_dimmed_game_is_the_same_game_at_the_menus_brightness():
    """The dim scenario sets the brightness through the board's own menu: the same entries
    give frames no channel of which is brighter, and less current in all."""
    _, entries, _ = pm.game_timeline(5, target=61)
    pre, _, _ = pm.game_timeline(5, target=61, bright=8)
    assert pre  # the menu's keys
    lit = pm.run_frames([], entries[:6], 15000.0)
    dim = pm.run_frames(pre, entries[:6], 15000.0)
    for (_, a, _), (_, b, _) in zip(lit, dim):
        a, b = bytes.fromhex(a), bytes.fromhex(b)
        assert all(y <= x for x, y in zip(a, b))
    assert sum(pm.frame_ma(f) for _, f, _ in dim) < sum(pm.frame_ma(f) for _, f, _ in lit)


def test_the_dark_current_is_said_to_be_unmeasured_with_the_figures_used():
    """Nobody here has measured a board's dark LEDs: docs/power.md says so, with the figures
    the model takes (its own) and how a maker measures one and puts it in."""
    doc = " ".join(_read("docs/power.md").split())
    assert "## The LEDs' dark current: not measured here" in _read("docs/power.md")
    assert "WS2812B-2020: **%g mA** per LED" % pm.LEDS["ws2812b-2020"][1] in doc
    assert "SK6812MINI-E: **%g mA** per LED" % pm.LEDS["sk6812mini-e"][1] in doc
    assert "--led-dark-ma" in doc and "I_on" in doc and "I_off" in doc


def test_a_measured_dark_current_replaces_the_assumption(monkeypatch):
    """--led-dark-ma sets the LED's dark current the model costs every frame with."""
    seen = {}

    def report(*a, **k):
        seen["dark"] = pm.LEDS["ws2812b-2020"][1]
        raise SystemExit(0)

    monkeypatch.setattr(pm, "report", report)
    monkeypatch.setitem(pm.LEDS, "ws2812b-2020", pm.LEDS["ws2812b-2020"])
    with pytest.raises(SystemExit):
        pm.main(["--led-dark-ma", "0.45"])
    assert seen["dark"] == 0.45
    assert pm.frame_ma(bytes(3 * N)) == pytest.approx(N * 0.45)


@pytest.mark.slow
def test_the_docs_dark_current_figures_are_the_models(monkeypatch):
    """docs/power.md's play hours at 0.3 and 1 mA dark are what the model gives then."""
    doc = " ".join(_read("docs/power.md").split())
    ch, _dark, src = pm.LEDS["ws2812b-2020"]
    for dark, words in ((0.3, "at 0.3 mA the 2020 board's play would be about %.1f hours"),
                        (1.0, "at 1 mA %.1f hours")):
        monkeypatch.setitem(pm.LEDS, "ws2812b-2020", (ch, dark, src))
        assert words % pm.report()["play"]["hours"] in doc
