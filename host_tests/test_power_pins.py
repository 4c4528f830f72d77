"""The PCB's power pins are a board option (issue 32, finding C): hw/pico.py and pico_w.py
set up the LED rail's switch (GP22), the light sensor (GP27) and the battery divider (GP28)
only where the power parts are fitted, which the PCB says by tying GP13 to ground. On a strip
or through-hole build GP13 and GP28 float: a floating ADC pin can read anything, and read
as a battery in the "save and stop" band (board/power.py: 2.0-3.3 V) it would stop the board.
Run under the real MicroPython binary with the simulator's machine stand-in (tools/sim/standins/),
as test_board_hw.py runs the board modules."""

import pytest

from test_board_hw import KEY_5_THEN_OK, run_script

# a floating GP28's reading that the board would take for a 3.0 V battery (in the stop band,
# over NO_BATTERY_MV), through SUPPLY_DIVIDER 2 at 3.3 V full scale
FLOATING_RAW = 3000 * 65535 // (3300 * 2)

SCRIPT = '''
import sys
import machine
from board.keypad import KEYS_4X4, BUTTON_NAMES
name, strap, fitted = sys.argv[1], sys.argv[3], sys.argv[4]
machine.PLATFORM = {"pico": "rp2", "pico_w": "rp2w"}[name]
machine.I2C.devices = []
if strap == "ground":
    machine.grounded.add(13)
machine.adc[28] = %d  # the supply's pin: a floating GP28's reading (a "3.0 V battery")
machine.adc[27] = 12345
b = getattr(__import__("hw." + name), name)
hw = b.build() if fitted == "-" else b.build(fitted == "yes")
hw["storage_dir"] = sys.argv[2]
machine.wire(b.ROWS, b.COLS, b.BUTTONS, KEYS_4X4 + BUTTON_NAMES[:len(b.BUTTONS)])
from board.app import App
app = App(hw)
state = "none"
t = 0
if "power" in hw:  # as board/power.py's task starts it
    from board.power import Power, STATES
    p = Power(app, **hw["power"])
    app.powered(p)
    for _ in range(4):
        t += 250
        p.tick(t)
    state = STATES[p.state]
''' % FLOATING_RAW + KEY_5_THEN_OK + '''
pins = sorted(k for k in machine._pins if k in (13, 22, 27, 28))
print("POWER", "power" in hw, state, app.m.score[0],
      machine._pins[13].pull if 13 in machine._pins else -1,
      ",".join(str(k) for k in pins) or "-")
'''


def run(tmp_path, name, strap, fitted="-"):
    line, _store = run_script(tmp_path, SCRIPT, "POWER", name, strap, fitted)
    _, has, state, score, pull, pins = line.split()
    return has == "True", state, int(score), int(pull), pins


@pytest.mark.parametrize("name", ["pico", "pico_w"])
def test_a_board_without_the_power_parts_plays_whatever_gp28_reads(tmp_path, name):
    """GP13 open (a strip or through-hole build): no power pins set up, no power states, and
    the floating GP28's "3.0 V battery" stops nothing: a key still pegs."""
    has, state, score, pull, pins = run(tmp_path, name, "open")
    assert not has and state == "none"
    assert score == 5
    assert pins == "13"  # GP22, GP27, GP28 left alone
    assert pull == 2  # the strap's pin pulled down after the read (PULL_DOWN)


@pytest.mark.parametrize("name", ["pico", "pico_w"])
def test_the_pcb_strap_turns_the_power_parts_on(tmp_path, name):
    """GP13 tied to ground (the PCB): the power pins are set up and honoured, so the same
    reading on GP28 is a battery about to be empty: the board saves and stops (keys do
    nothing). This is what every board did before the option."""
    has, state, score, _pull, pins = run(tmp_path, name, "ground")
    assert has and state == "empty"
    assert score == 0
    assert pins == "13,22,27,28"


def test_the_board_option_overrides_the_strap(tmp_path):
    """POWER_PARTS (or build(fitted)): True for a hand-wired board with the parts and no
    strap, False to ignore a strap; the strap's pin is not touched then."""
    has, state, _score, _pull, pins = run(tmp_path, "pico", "open", "yes")
    assert has and state == "empty" and pins == "22,27,28"
    has, state, score, _pull, pins = run(tmp_path, "pico", "ground", "no")
    assert not has and score == 5 and pins == "-"


def test_the_pcb_ties_the_strap_to_ground():
    """The generated PCB ties the board file's PCB_STRAP to a GND pin (both LED options)."""
    from hw import pico
    from pcb import check as pcb_check
    from wiring_diagram import PICO_PHYSICAL

    for led in pcb_check.OPTIONS:
        board, _info = pcb_check.load(led)
        assert board.pad("U2", str(PICO_PHYSICAL[pico.PCB_STRAP]))["net"] == "GND", led
