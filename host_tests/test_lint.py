"""The static checks: `make test` runs ruff and pyright, and they catch what they are there for
(a real machine API misuse per port, lint errors), so a green run means something."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
STUBS = os.path.join(ROOT, ".venv", "stubs")


def test_make_test_runs_lint_and_typecheck_first():
    r = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True)
    out = r.stdout
    assert "ruff check firmware tools host_tests" in out
    assert "pyright -p tools/typecheck/rp2.json" in out
    assert "pyright -p tools/typecheck/esp32.json" in out
    assert out.index("ruff check") < out.index("pytest")


def test_ruff_fails_on_an_error(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f(x):\n    return undefined_name + x\n")
    r = subprocess.run([os.path.join(BIN, "ruff"), "check", "--config",
                        os.path.join(ROOT, "pyproject.toml"), str(bad)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert "F401" in r.stdout and "F821" in r.stdout


def pyright(tmp_path, port, code):
    """Type-check one firmware-like file with the project's config for a port."""
    (tmp_path / "fw.py").write_text(code)
    cfg = tmp_path / ("pyrightconfig_%s.json" % port)
    cfg.write_text(json.dumps({
        "extends": os.path.join(ROOT, "tools", "typecheck", port + ".json"),
        "include": [str(tmp_path / "fw.py")],
    }))
    r = subprocess.run([os.path.join(BIN, "pyright"), "-p", str(cfg), "--outputjson"],
                       capture_output=True, text=True, timeout=300)
    return [d["message"] for d in json.loads(r.stdout)["generalDiagnostics"]
            if d["severity"] == "error"]


@pytest.mark.skipif(not os.path.isdir(os.path.join(STUBS, "rp2")),
                    reason="stubs not installed: make typecheck installs them")
def test_pyright_knows_each_ports_machine_api(tmp_path):
    ok = ("import machine, neopixel\n"
          "p = machine.Pin(2, machine.Pin.OPEN_DRAIN, value=1)\n"
          "np = neopixel.NeoPixel(machine.Pin(0, machine.Pin.OUT), 8)\n"
          "np.buf[0] = 1\n"
          "np.write()\n"
          "from micropython import const\n"
          "N = const(3)\n")
    for port in ("rp2", "esp32"):
        assert pyright(tmp_path, port, ok) == [], port
    bad = "import machine\nmachine.Pin(2).toggle_twice()\n"
    assert any("toggle_twice" in m for m in pyright(tmp_path, "rp2", bad))
    # each port's own modules: rp2 (PIO) only on the Pico, esp32 (RMT) only on the ESP32
    assert pyright(tmp_path, "rp2", "import rp2\nrp2.PIO(0)\n") == []
    assert any("esp32" in m for m in pyright(tmp_path, "rp2", "import esp32\n"))
    assert pyright(tmp_path, "esp32", "import esp32\nesp32.RMT\n") == []
    assert any("rp2" in m for m in pyright(tmp_path, "esp32", "import rp2\n"))
