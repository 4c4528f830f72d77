"""The board modules (boards/pico.py, boards/esp32_devkit.py) build the app's hardware with
machine/neopixel stand-ins that check the calls, under the real MicroPython binary: the app
starts on them, a key on the matrix pins reaches it, a frame goes to the strip, a game saves.
(Real pins are for the hardware; this catches a wrong name, argument or pin in the wiring.)"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP = os.path.join(os.path.dirname(sys.executable), "micropython")

MACHINE = '''
PINS = {}
class Pin:
    IN = 1
    OUT = 2
    OPEN_DRAIN = 3
    PULL_UP = 4
    def __init__(self, id, mode=-1, pull=-1, value=None):
        assert isinstance(id, int) and 0 <= id <= 39 and id not in PINS, id
        assert mode in (-1, 1, 2, 3) and pull in (-1, 4), (mode, pull)
        self.id = id
        self.mode = mode
        self.v = 1 if value is None else value
        PINS[id] = self
    def __call__(self, v=None):
        if v is None:
            if self.mode == 1:  # an input: low while a key joins it to a row driven low
                return 0 if PRESSED and any(PINS[r].v == 0 for r in ROWS_OF.get(self.id, ())) else 1
            return self.v
        assert self.mode in (2, 3), "write to an input pin %d" % self.id
        self.v = v
PRESSED = []
ROWS_OF = {}
class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000):
        assert isinstance(scl, Pin) and isinstance(sda, Pin)
    def scan(self):
        return []
class WDT:
    def __init__(self, timeout):
        assert 0 < timeout <= 8388
'''

NEOPIXEL = '''
class NeoPixel:
    ORDER = (1, 0, 2, 3)
    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0
    def write(self):
        self.writes += 1
'''

SCRIPT = '''
import sys
import machine
mod = __import__("boards." + sys.argv[1])
b = getattr(mod, sys.argv[1])
hw = b.build()
hw["storage_dir"] = sys.argv[2]
from board.app import App
app = App(hw)
# key "5" joins row 1 (pin b.ROWS[1]) to column 1 (pin b.COLS[1])
machine.ROWS_OF[b.COLS[1]] = (b.ROWS[1],)
machine.PRESSED.append(1)
t = 0
for _ in range(8):
    t += 10
    app.keys.update(t)
    app.step(t)
machine.PRESSED.pop()
for _ in range(8):
    t += 10
    app.keys.update(t)
    app.step(t)
app.key("#")
app.step(t + 10)
print("BOARD", sys.argv[1], app.m.score[0], hw["strip"].writes, hw["strip"].n,
      hw["display"] is None)
'''


def run_board(tmp_path, name):
    fake = tmp_path / "fakes"
    fake.mkdir(exist_ok=True)
    (fake / "machine.py").write_text(MACHINE)
    (fake / "neopixel.py").write_text(NEOPIXEL)
    (fake / "run.py").write_text(SCRIPT)
    store = tmp_path / ("store_" + name)
    store.mkdir()
    env = dict(os.environ, MICROPYPATH="%s:%s:.frozen" % (fake, os.path.join(ROOT, "firmware")))
    p = subprocess.run([MP, "-X", "heapsize=512k", str(fake / "run.py"), name, str(store)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    line = [x for x in p.stdout.splitlines() if x.startswith("BOARD ")]
    assert line, p.stdout
    return line[0].split(), store


def test_pico_board(tmp_path):
    (_, name, score, writes, n, no_display), store = run_board(tmp_path, "pico")
    assert score == "5"  # the key on the matrix pins pegged 5 for Red
    assert int(writes) >= 1 and n == "253" and no_display == "True"
    assert (store / "game").exists()


def test_esp32_board(tmp_path):
    (_, name, score, writes, n, _), store = run_board(tmp_path, "esp32_devkit")
    assert score == "5" and int(writes) >= 1 and (store / "game").exists()
