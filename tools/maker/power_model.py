"""Battery life from the firmware's own frames: the simulator runs the real firmware through a
scripted game in virtual time, every LED frame it writes is costed with the LEDs' datasheet
currents, the microcontroller and the other parts add their current per power state, and a
1-cell Li-ion through the boost converter gives the hours (docs/power.md: the model, its
sources and the figures).

    .venv/bin/python tools/maker/power_model.py              # the report (make power)
    .venv/bin/python tools/maker/power_model.py --led sk6812mini-e --mcu-sleep 0.9

Every figure is a parameter with its source beside it (PARTS): a measurement on a real board
replaces an assumption by a command-line option, the frames stay the firmware's.
"""

import argparse
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from board.settings import Settings

from sim.games import game_keys, settings_keys
from sim.keys import parse_keys
from sim.runner import Sim

# --- the parts (mA unless said), each with where the figure comes from ------------------
LEDS = {
    # name: (mA per channel at 255, mA per LED dark, source)
    "ws2812b-2020": (12.0, 0.6, "Worldsemi WS2812B-2020 datasheet: 12 mA operating current per "
                     "channel; quiescent (all channels off) < 0.6 mA"),
    "sk6812mini-e": (12.0, 1.0, "SK6812 family (0.2 W package): about 12 mA per channel (13 "
                     "mA measured on an SK6812 side-emitter); dark: 0.46 mA measured on that "
                     "SK6812, 'about 1 mA even when off' on card10's LEDs (card10 firmware "
                     "issue 37): the upper figure taken until the MINI-E is measured"),
}
PARTS = {
    # name: (default, source)
    "mcu_run": (20.0, "Pico running MicroPython's asyncio loop at 125 MHz, at VSYS 5 V: 18 mA "
                "measured 'normal operation' at 5 V (mjoldfield.com 2021, CircuitPython); "
                "20 mA taken for MicroPython's busier loop"),
    "mcu_sleep": (1.5, "Pico in machine.lightsleep(ms) naps (200 ms asleep, 60 ms awake), from "
                  "5 V: 1.5 mA taken over 0.99 mA measured with lightsleep(5000), 5 V on VSYS "
                  "(Peter Hinch, micropython#8832, fixing #8770); 0.9 mA dormant (0.76 mA "
                  "measured at 5 V on VSYS: arduino-pico #2620)"),
    "wifi_on": (25.0, "Pico W's CYW43439 connected to an access point in its default power "
                "saving, average extra at 5 V (assumption from published hobby measurements of "
                "a connected, mostly idle Pico W: tens of mA; bursts of 100+ mA while sending)"),
    "wifi_off": (0.2, "Pico W with the CYW43439 powered down (WL_ON low): extra at 5 V "
                 "(assumption; the Pico W datasheet's low-power figures are with WL_ON low)"),
    "display_base": (0.5, "SSD1306 128x64 OLED, controller and charge pump with no pixel lit, "
                     "at 3.3 V (assumption from the SSD1306 datasheet's operating current class)"),
    "display_char": (0.054, "one character lit on the OLED: ~18 lit pixels of the 8x8 font x "
                     "~3 uA each (a 0.96-inch panel all lit draws ~25 mA at 3.3 V)"),
    "display_sleep": (0.01, "SSD1306 in sleep (display off): 10 uA, its datasheet's sleep current"),
    "shifter": (0.04, "74AHCT125 on the LED rail, static ICC 40 uA max (TI datasheet); its input "
                "idles low between frames, so the 1.35 mA delta-ICC of a 3.3 V high is not drawn"),
    "rail_led": (3.0, "the PCB's rail indicator LED through 1 kohm from the rail: (5 - 2) V / "
                 "1 kohm = 3 mA while the rail is on"),
    "light": (0.1, "TEPT4400 phototransistor into 10 kohm from 3.3 V: its photocurrent, ~0.1 mA "
              "averaged over a day of room light (datasheet class: tens of uA per 100 lx)"),
    "divider": (0.021, "battery divider 100k/100k across the cell (4.2 V / 200 kohm), drawn from "
                "the cell directly, not through the boost"),
    "buck_eff": (0.9, "the Pico's RT6150 buck-boost at these loads (Pico datasheet's efficiency "
                 "curve): 3.3 V loads seen from 5 V"),
    "boost_eff": (0.90, "the guide's boost, a TI TPS61023 module (e.g. Adafruit MiniBoost 5V "
                  "@ 1A), at play's 200-350 mA from one cell: the TPS61023 datasheet (SLVSF14) "
                  "gives 94 % at VIN 3.6 V, VOUT 5 V, IOUT 1.5 A; 90 % taken below that until "
                  "measured "
                  "(an MT3608 module: 85-90 % at 100-500 mA, embedblog.eu, lygte-info.dk)"),
    "boost_eff_light": (0.75, "the TPS61023 at standby's ~1.6 mA: auto PFM (power-save mode) at "
                        "light load keeps it switching only as the load needs; 75 % taken, "
                        "under the datasheet's light-load curve class, until measured (an MT3608 "
                        "module stays in PWM: its loss is its ~6 mA no-load draw)"),
    "boost_noload": (0.05, "the TPS61023's own draw: 20 uA quiescent from VOUT in light load and "
                     "0.9 uA into VIN (datasheet SLVSF14, electrical characteristics), seen at "
                     "the cell ~0.04 mA; 0.05 mA taken. An MT3608 module draws about 6 mA at "
                     "3 V in, 5 V out (lygte-info.dk, 'DC-DC Boost converter 2-24V to 2-28V 2A "
                     "MT3908'): the alternative row"),
    "cell_mah": (3000.0, "the issue's cell: 3000 mAh"),
    "cell_v": (3.7, "a Li-ion cell's nominal voltage"),
    "supply_v": (5.0, "the board's supply (the boost's output)"),
}

SAMPLE_MS = 40  # the renderer's frame tick (board/render.py: blink phases at 120/200/600 ms)
CYCLE_MS = 1200  # every blink pattern repeats within this (600 ms on-off, 5 x 120 ms flashes)
DEAL_S = 180.0  # a deal at the table: shuffle, deal, discard, play, count (~3 minutes)
DIM_BRIGHT = 8  # the dim state's brightness: the menu's lowest
DIM_AFTER_S = 120.0  # the power states (issue 32's firmware, parameters here): no key for 2
RAIL_OFF_S = 600.0  # minutes dims the LEDs, 10 minutes turns the LED rail off and sleeps
MT3608 = dict(boost_eff=0.85, boost_eff_light=0.85, boost_noload=6.0)  # the first guide's boost
# (an MT3608 module: 85 % at 100-500 mA, 6 mA of its own; PARTS' sources), as an alternative row
GOAL_PLAY_H = 8.0
GOAL_STANDBY_D = 30.0


SCENARIOS = ("play", "play, dimmed", "play, Pico W, Wi-Fi off", "play, Wi-Fi on",
             "play, MT3608 boost", "idle, until the rail goes off", "standby",
             "standby, MT3608 boost",
             "standby, Pico W, Wi-Fi off", "standby, Wi-Fi on")


def params(**over):
    """The parts' figures (PARTS' defaults), with some replaced."""
    p = {k: v[0] for k, v in PARTS.items()}
    for k, v in over.items():
        if k not in p:
            raise KeyError("no part %r (PARTS: %s)" % (k, ", ".join(sorted(p))))
        p[k] = float(v)
    return p


def frame_ma(frame, led="ws2812b-2020", bpp=3):
    """The LED rail's current (mA) for one strip buffer (bytes, or hex as the simulator gives
    it): every LED's dark current, plus each channel's datasheet current times its PWM duty
    (the byte as the firmware wrote it: after its brightness and its current limit)."""
    if isinstance(frame, str):
        frame = bytes.fromhex(frame)
    per_channel, dark, _ = LEDS[led]
    return len(frame) // bpp * dark + sum(frame) * per_channel / 255


def display_ma(lines, p):
    """The OLED's current at 3.3 V showing these lines (None: no display)."""
    if lines is None:
        return 0.0
    chars = sum(len(s.strip()) for s in lines)
    return p["display_base"] + chars * p["display_char"]


def at_5v(ma_3v3, p):
    """A 3.3 V load's current seen at the 5 V supply, through the Pico's regulator."""
    return ma_3v3 * 3.3 / (p["supply_v"] * p["buck_eff"])


def cell_ma(ma_5v, p):
    """The cell's current for a 5 V load: the boost's power at its efficiency, plus its own
    no-load draw, plus the battery divider (on the cell itself)."""
    return (ma_5v * p["supply_v"] / (p["boost_eff"] * p["cell_v"]) + p["boost_noload"]
            + p["divider"])


def game_timeline(seed=1, players=2, target=121, bright=None):
    """(the menu's commands before the game (the brightness, if given), per entry its
    commands, the game's deals): game_keys()'s game, split into what a player enters at once
    (a card, a go, an OK)."""
    script, match = game_keys(seed, players=players, target=target)
    pre = parse_keys(settings_keys(bright=bright)) if bright is not None else []
    entries = [parse_keys(e) for e in script.split()]
    return pre, entries, match.deals


def run_frames(pre, entries, entry_ms, firmware=None):
    """Run the game on the simulated board: after each entry, the frames of one whole blink
    cycle (every SAMPLE_MS), each standing for its share of the entry's time. Returns
    [(ms, frame hex, display lines)], the weights summing to the game's time."""
    out = []
    per = CYCLE_MS // SAMPLE_MS
    with tempfile.TemporaryDirectory() as storage:
        sim = Sim(storage, firmware)
        try:
            for c in pre:
                sim.send(c)
            for cmds in entries:
                for c in cmds:
                    sim.send(c)
                for _ in range(per):
                    st = sim.state()
                    if st.get("crash"):
                        raise RuntimeError("the app crashed:\n%s" % st["crash"])
                    out.append((entry_ms / per, st["frame"], st.get("display")))
                    sim.send("wait %d" % SAMPLE_MS)
        finally:
            sim.close()
    return out


def play_figures(samples, p, led, wifi, pico_w):
    """(average, peak) mA at 5 V while playing: frames time-weighted, plus the awake parts."""
    base = p["mcu_run"] + p["shifter"] + p["rail_led"] + at_5v(p["light"], p)
    if pico_w:
        base += p["wifi_on"] if wifi else p["wifi_off"]
    total = 0.0
    weight = 0.0
    peak = 0.0
    for ms, frame, lines in samples:
        ma = base + frame_ma(frame, led) + at_5v(display_ma(lines, p), p)
        total += ma * ms
        weight += ms
        peak = max(peak, ma)
    return total / weight, peak


def standby_ma(p, wifi=False, pico_w=False):
    """mA at 5 V with the LED rail off (no LED, no shifter, no rail LED), the display asleep
    and the Pico in light sleep; with Wi-Fi kept on the Pico W cannot sleep: it runs."""
    ma = at_5v(p["display_sleep"] + p["light"], p)
    if pico_w and wifi:
        return ma + p["mcu_run"] + p["wifi_on"]
    return ma + p["mcu_sleep"] + (p["wifi_off"] if pico_w else 0.0)


def standby_figures(p):
    """The rail-off scenarios: name -> dict(avg, peak (mA at 5 V), cell (mA), hours). The
    boost runs at its light-load (PFM) efficiency, except with Wi-Fi kept on (~45 mA)."""
    light = dict(p, boost_eff=p["boost_eff_light"])
    out = {}
    for name, pico_w, wifi, q in (
            ("standby", False, False, light),
            ("standby, MT3608 boost", False, False, dict(p, **MT3608)),
            ("standby, Pico W, Wi-Fi off", True, False, light),
            ("standby, Wi-Fi on", True, True, p)):
        ma = standby_ma(p, wifi, pico_w)
        c = cell_ma(ma, q)
        out[name] = dict(avg=ma, peak=ma, cell=c, hours=p["cell_mah"] / c)
    return out


def boost_in_for_goal(p):
    """The most the boost may draw from the cell at standby's load for GOAL_STANDBY_D days:
    the cell's current for those days less the divider (the guide's check before wiring)."""
    return p["cell_mah"] / (GOAL_STANDBY_D * 24) - p["divider"]


def report(seed=1, led="ws2812b-2020", deal_s=DEAL_S, dim_bright=DIM_BRIGHT, firmware=None,
           target=121, dim_after_s=DIM_AFTER_S, rail_off_s=RAIL_OFF_S, **over):
    """Every scenario's figures: a dict of name -> dict(avg, peak (mA at 5 V), cell (mA from
    the cell), hours), plus the game's facts."""
    p = params(**over)
    bright = Settings().get("bright")
    pre, entries, deals = game_timeline(seed, target=target)
    game_s = deals * deal_s
    entry_ms = game_s * 1000.0 / len(entries)
    lit = run_frames(pre, entries, entry_ms, firmware)
    pre_dim, _, _ = game_timeline(seed, target=target, bright=dim_bright)
    dim = run_frames(pre_dim, entries, entry_ms, firmware)
    out = {"_game": dict(seed=seed, deals=deals, entries=len(entries), minutes=game_s / 60,
                         entry_s=entry_ms / 1000, bright=bright, dim_bright=dim_bright,
                         led=led, frames=len(lit), dim_after_s=dim_after_s,
                         rail_off_s=rail_off_s,
                         dark_ma=len(lit[0][1]) // 6 * LEDS[led][1])}
    for name, samples, pico_w, wifi in (
            ("play", lit, False, False),
            ("play, Pico W, Wi-Fi off", lit, True, False),
            ("play, Wi-Fi on", lit, True, True),
            ("play, dimmed", dim, False, False),
            ("play, MT3608 boost", lit, False, False)):
        avg, peak = play_figures(samples, p, led, wifi, pico_w)
        c = cell_ma(avg, dict(p, **MT3608) if "MT3608" in name else p)
        out[name] = dict(avg=avg, peak=peak, cell=c, hours=p["cell_mah"] / c)
    # left alone after the game: its last frame lit, then dimmed, then the rail goes off
    per = CYCLE_MS // SAMPLE_MS
    lit_avg, lit_peak = play_figures(lit[-per:], p, led, False, False)
    dim_avg, _ = play_figures(dim[-per:], p, led, False, False)
    idle = (lit_avg * dim_after_s + dim_avg * (rail_off_s - dim_after_s)) / rail_off_s
    c = cell_ma(idle, p)
    out["idle, until the rail goes off"] = dict(avg=idle, peak=lit_peak, cell=c,
                                                hours=p["cell_mah"] / c)
    out.update(standby_figures(p))
    # what the goals need: the boost's input current at standby's load (the guide's check
    # before wiring: cell current for the goal's days, less the divider on the cell), and the
    # average 5 V load that 8 hours of play allow
    play_max = ((p["cell_mah"] / GOAL_PLAY_H - p["boost_noload"] - p["divider"])
                * p["boost_eff"] * p["cell_v"] / p["supply_v"])
    out["_needs"] = dict(boost_in_for_goal=boost_in_for_goal(p),
                         standby_load=out["standby"]["avg"], play_max=play_max)
    return out


def summary(r):
    """The README's line: the figures of the default scenarios."""
    return ("**On a battery** (one 3,000 mAh Li-ion cell; modelled from the firmware's own "
            "frames, [docs/power.md](docs/power.md)): %.1f hours of play at the default "
            "brightness; with the LED rail off, %.0f days standby through the guide's TPS61023 "
            "boost (%.0f days through an MT3608 module)." % (
                r["play"]["hours"], r["standby"]["hours"] / 24,
                r["standby, MT3608 boost"]["hours"] / 24))


def table(r):
    """The figures as a Markdown table (docs/power.md holds it as printed)."""
    rows = ["| scenario | average mA at 5 V | peak mA at 5 V | mA from the cell | lasts |",
            "|---|---|---|---|---|"]
    for name in SCENARIOS:
        f = r[name]
        h = f["hours"]
        lasts = "%.1f hours" % h if h < 72 else "%.0f days" % (h / 24)
        rows.append("| %s | %.1f | %.1f | %.2f | %s |" % (name, f["avg"], f["peak"], f["cell"],
                                                          lasts))
    return "\n".join(rows)


def verdict(r):
    """Whether the goals are met, and what would meet them."""
    play = r["play"]["hours"]
    days = r["standby"]["hours"] / 24
    lines = ["play at the default brightness: %.1f h (goal %.0f h): %s" % (
        play, GOAL_PLAY_H, "met" if play >= GOAL_PLAY_H else "NOT met"),
        "standby, rail off: %.1f days (goal %.0f days): %s" % (
        days, GOAL_STANDBY_D, "met" if days >= GOAL_STANDBY_D else "NOT met")]
    lines.append("  %.0f hours of play allow %.0f mA at 5 V on average" % (
        GOAL_PLAY_H, r["_needs"]["play_max"]))
    lines.append("  of play's %.0f mA at 5 V, the LEDs' dark current is %.0f mA: the lit pegs add "
                 "little, so dimming saves little; the rail switch is what saves" % (
                     r["play"]["avg"], r["_game"]["dark_ma"]))
    n = r["_needs"]
    lines.append("  %.0f days of standby allow the boost %.2f mA from the cell at standby's "
                 "%.1f mA load at 5 V (the guide's check before wiring); the MT3608 module: "
                 "%.0f days" % (
                     GOAL_STANDBY_D, n["boost_in_for_goal"], n["standby_load"],
                     r["standby, MT3608 boost"]["hours"] / 24))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="the scripted game (game_keys seed)")
    ap.add_argument("--led", choices=sorted(LEDS), default="ws2812b-2020")
    ap.add_argument("--deal-s", type=float, default=DEAL_S, help="seconds a deal takes")
    ap.add_argument("--dim-bright", type=int, default=DIM_BRIGHT)
    ap.add_argument("--dim-after-s", type=float, default=DIM_AFTER_S,
                    help="no key for this long dims the LEDs")
    ap.add_argument("--rail-off-s", type=float, default=RAIL_OFF_S,
                    help="no key for this long turns the LED rail off and sleeps")
    ap.add_argument("--sources", action="store_true", help="print every figure's source")
    ap.add_argument("--led-dark-ma", type=float, default=None,
                    help="one LED's dark (quiescent) current as measured on a board "
                    "(docs/power.md says how), instead of the model's assumption")
    for k, (v, _) in PARTS.items():
        ap.add_argument("--" + k.replace("_", "-") + ("-ma" if k.startswith("boost_no") else ""),
                        dest=k, type=float, default=None, help="default %g" % v)
    a = ap.parse_args(argv)
    over = {k: getattr(a, k) for k in PARTS if getattr(a, k) is not None}
    if a.led_dark_ma is not None:
        ch, _dark, src = LEDS[a.led]
        LEDS[a.led] = (ch, a.led_dark_ma, "measured on a board (--led-dark-ma); model: " + src)
    if a.sources:
        for k, (v, src) in PARTS.items():
            print("%-14s %8g  %s" % (k, v, src))
        for k, (ch, dark, src) in LEDS.items():
            print("%-14s %g mA/channel, %g mA dark  %s" % (k, ch, dark, src))
        return 0
    r = report(a.seed, a.led, a.deal_s, a.dim_bright, dim_after_s=a.dim_after_s,
               rail_off_s=a.rail_off_s, **over)
    g = r["_game"]
    print("game: seed %d, %d deals, %d entries, %.0f minutes (%.1f s an entry), %d frames; "
          "LEDs %s at brightness %d (dimmed %d)" % (
              g["seed"], g["deals"], g["entries"], g["minutes"], g["entry_s"], g["frames"],
              g["led"], g["bright"], g["dim_bright"]))
    print(table(r))
    print(verdict(r))
    print(summary(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
