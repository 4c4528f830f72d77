"""The board modules (hw/pico.py, pico_w.py, esp32_devkit.py) build the app's hardware with
machine/neopixel stand-ins that check the calls (the simulator's, tools/sim/standins/), under the
real MicroPython binary: the app starts on them, a key on the matrix pins reaches it, a frame
goes to the strip, a game saves. (Real pins are for the hardware; this catches a wrong name,
argument or pin in the wiring.)"""

import os
import subprocess

import pytest

from hostenv import FIRMWARE, HOST, ROOT, venv_program
from sim.runner import HW_DIR

MICROPYTHON = venv_program("micropython")

# "5" on the matrix pins (scanned 8 times pressed, 8 released, 10 ms apart), then OK: in a
# script, from its app and time t (test_power_pins.py's script too)
KEY_5_THEN_OK = '''machine.press("5")
for _ in range(8):
    t += 10
    app.keys.update(t)
    app.step(t)
machine.release("5")
for _ in range(8):
    t += 10
    app.keys.update(t)
    app.step(t)
app.key("#")
app.step(t + 10)
'''

SCRIPT = '''
import sys
import machine
from board.keypad import KEYS_4X4, BUTTON_NAMES
machine.PLATFORM = {"pico": "rp2", "pico_w": "rp2w"}.get(sys.argv[1], "esp32")
machine.I2C.devices = []  # nothing answers on the bus: no display
mod = __import__("hw." + sys.argv[1])
b = getattr(mod, sys.argv[1])
hw = b.build()
hw["storage_dir"] = sys.argv[2]
machine.wire(b.ROWS, b.COLS, b.BUTTONS, KEYS_4X4 + BUTTON_NAMES[:len(b.BUTTONS)])
from board.app import App
app = App(hw)
# key "5" joins row 1 (pin b.ROWS[1]) to column 1 (pin b.COLS[1])
t = 0
''' + KEY_5_THEN_OK + '''
print("BOARD", sys.argv[1], app.m.score[0], hw["strip"].writes, hw["strip"].n,
      hw["display"] is None, machine._pins.get("LED") is not None)
'''


def run_script(tmp_path, script, tag, name, *args):
    """script (MicroPython's source) run by the real MicroPython binary with the simulator's
    machine stand-in (tools/sim/standins/), as `script NAME FOLDER ARGS...` (FOLDER: a fresh one
    for its files): the line it printed starting with tag, and the folder."""
    path = tmp_path / "run.py"
    path.write_text(script)
    store = tmp_path / "_".join(("store", name) + args)
    store.mkdir()
    env = dict(os.environ, MICROPYPATH="%s:%s:%s:.frozen" % (HW_DIR, FIRMWARE, HOST))
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=512k", str(path), name, str(store), *args],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    line = [x for x in p.stdout.splitlines() if x.startswith(tag + " ")]
    assert line, p.stdout
    return line[0], store


def run_board(tmp_path, name):
    line, store = run_script(tmp_path, SCRIPT, "BOARD", name)
    return line.split(), store


def test_pico_board(tmp_path):
    (_, name, score, writes, n, no_display, led), store = run_board(tmp_path, "pico")
    assert score == "5"  # the key on the matrix pins pegged 5 for Red
    assert int(writes) >= 1 and n == "253" and no_display == "True"
    assert (store / "game").exists()


def test_pico_w_board(tmp_path):
    """Wired as the Pico (none of its pins is the radio's), its own LED built (unlit: this
    port has no network module, so there is no Wi-Fi to join and no page)."""
    (_, name, score, writes, n, _, led), store = run_board(tmp_path, "pico_w")
    assert score == "5" and int(writes) >= 1 and led == "True" and (store / "game").exists()


def test_esp32_board(tmp_path):
    (_, name, score, writes, n, _, _), store = run_board(tmp_path, "esp32_devkit")
    assert score == "5" and int(writes) >= 1 and (store / "game").exists()


def test_the_app_refuses_a_hardware_key_it_does_not_know():
    """A misspelt key (the fake board once had "wdt" for "watchdog") is refused at start, and
    HW_KEYS is exactly the keys the board app reads (so the list cannot drift from the code)."""
    import glob
    import re

    from board.app import App
    from board.boot import HW_KEYS
    from fakeboard.fake import build
    from fakeboard.ramfs import RamFs

    hw = build("/data", fs=RamFs())
    hw["wdt"] = None
    with pytest.raises(ValueError, match="hw has a key the app does not know: wdt"):
        App(hw)
    del hw["wdt"]
    hw["sim_keys"] = None  # a host's own handle: left alone
    App(hw)
    read = set()
    for path in glob.glob(os.path.join(ROOT, "firmware", "*", "*.py")):  # (the app's, the
        # page's, the club's)
        if "hw" + os.sep in path:
            continue
        with open(path) as f:  # (a host's own handles, "sim_" or "fake_": not the board's)
            read.update(k for k in re.findall(r'hw(?:\.get\(|\[)"([a-z_]+)"', f.read())
                        if k[:4] != "sim_" and k[:5] != "fake_")
    assert read == set(HW_KEYS)


def test_led_order_rgb_reaches_the_strip(tmp_path):
    """A board file's LED_ORDER = "RGB" (PL9823 through-hole LEDs) sets the strip's ORDER, so
    the renderer sends red first; "GRB" (WS2812B strips) keeps the driver's own."""
    script = tmp_path / "order.py"
    script.write_text(
        "from hw.common import build\n"
        "from board.render import Renderer\n"
        "from board.selftest import selftest\n"
        "for order, p in (('GRB', 0), ('RGB', 10)):  # (each build on its own pins)\n"
        "    hw = build(p, (p + 2, p + 3, p + 4, p + 5), (p + 6, p + 7, p + 8, p + 9), (),\n"
        "               (0, 20, 21) if p else (1, 26, 27), order)\n"
        "    r = Renderer(hw['layout'], hw['strip'])\n"
        "    selftest(r, 0)\n"
        "    print(order, tuple(hw['strip'].ORDER), list(hw['strip'].buf[:3]))\n")
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (HW_DIR, FIRMWARE, HOST))
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=512k", str(script)], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    grb, rgb = p.stdout.splitlines()
    assert grb.startswith("GRB (1, 0, 2, 3) [0, ") and not grb.endswith(", 0, 0]")  # red 2nd
    assert rgb.startswith("RGB (0, 1, 2, 3) [") and rgb.endswith(", 0, 0]")  # red first
    with open(os.path.join(FIRMWARE, "hw", "pico.py")) as f:
        assert 'LED_ORDER = "GRB"' in f.read()
