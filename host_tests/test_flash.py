"""tools/flash.py: the mpremote command lines for a fake port, and clear errors without a board."""

import os
import shlex
import subprocess
import sys

import flash
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLASH = os.path.join(ROOT, "tools", "flash.py")


def fake_build(tmp_path):
    for t in ("rp2040", "esp32"):
        d = tmp_path / t
        (d / "cribbage").mkdir(parents=True)
        (d / "cribbage" / "score.mpy").write_bytes(b"M\x06")
        (d / "main.py").write_text("import board\n")
        (d / "board_config.py").write_text('BOARD = "pico"\n')
    return tmp_path


def dry(tmp_path, *args):
    r = subprocess.run([sys.executable, FLASH, *args, "--dry-run", "--build", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    cmds = [shlex.split(line[2:]) for line in r.stdout.splitlines() if line.startswith("$ ")]
    assert cmds and all(os.path.basename(c[0]) == "mpremote" for c in cmds)
    return [c[1:] for c in cmds]


@pytest.mark.parametrize("board,target", [("pico", "rp2040"), ("esp32", "esp32")])
def test_flash_command_lines(tmp_path, board, target):
    b = fake_build(tmp_path)
    cmds = dry(b, "flash", "--board", board, "--port", "/dev/ttyFAKE0")
    for c in cmds:
        assert c[:2] == ["connect", "/dev/ttyFAKE0"]
    assert cmds[0][2] == "exec" and "sys.platform" in cmds[0][3]  # a board must answer first
    assert ["mip", "install", "ssd1306"] in [c[2:] for c in cmds]
    copy = cmds[-2][2:]
    steps = " ".join(copy).split(" + ")
    assert "cp -r %s :" % os.path.join(b, target, "cribbage") in steps
    assert "cp %s :main.py" % os.path.join(b, target, "main.py") in steps
    cfg = [s for s in steps if s.endswith(":" + flash.CONFIG_FILE)]
    assert len(cfg) == 1  # the build's own board_config.py is not copied as well
    with open(cfg[0].split()[1]) as f:
        assert f.read() == flash.config_text(board)
    assert cmds[-1][2:] == ["reset"]
    # the other target's tree is never copied
    other = "esp32" if target == "rp2040" else "rp2040"
    assert os.path.join(b, other) not in " ".join(copy)


def test_auto_port_and_dev_and_repl(tmp_path):
    b = fake_build(tmp_path)
    cmds = dry(b, "flash", "--board", "pico")
    assert all(c[:2] == ["connect", "auto"] for c in cmds)
    dev = dry(b, "dev", "--board", "esp32", "--port", "/dev/ttyUSB7")
    words = dev[-1]
    assert words[words.index("mount") + 1].endswith("firmware")
    assert words[-2] == "exec"
    assert words[-1] == "import board_config; board_config.BOARD = 'esp32_devkit'; import main"
    assert dry(b, "repl", "--port", "/dev/ttyUSB7") == [["connect", "/dev/ttyUSB7", "repl"]]


def test_missing_build_is_a_clear_error(tmp_path):
    r = subprocess.run([sys.executable, FLASH, "flash", "--board", "pico", "--dry-run",
                        "--build", str(tmp_path / "nothing")], capture_output=True, text=True)
    assert r.returncode == 2
    assert "make build" in r.stderr


def test_real_mpremote_on_a_missing_port_says_so(tmp_path):
    """One real mpremote run: the port does not exist, the message says so and what to do."""
    b = fake_build(tmp_path)
    r = subprocess.run([sys.executable, FLASH, "flash", "--board", "pico",
                        "--port", "/dev/ttyNOBOARD9", "--build", str(b)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "no board at /dev/ttyNOBOARD9" in r.stderr
    assert "mpremote devs" in r.stderr
    assert "mip" not in r.stdout  # it stopped before installing or copying anything


def test_wrong_board_is_named(monkeypatch):
    monkeypatch.setattr(flash, "run", lambda *a, **k: "MicroPython\nesp32\n")
    with pytest.raises(flash.FlashError) as e:
        flash.check_board("pico", "/dev/ttyACM0", dry=False)
    assert "BOARD=esp32" in str(e.value)
    flash.check_board("esp32", "/dev/ttyACM0", dry=False)  # the right one passes


def test_no_device_message():
    msg = flash.explain(None, "mpremote: no device found\n")
    assert "no board found" in msg and "PORT=" in msg


def test_config_names_a_board_module_the_firmware_has():
    """board_config.py as flash writes it is what firmware/main.py reads: BOARD = module."""
    for board in flash.BOARDS:
        ns = {}
        exec(flash.config_text(board), ns)
        assert os.path.exists(os.path.join(ROOT, "firmware", "boards", ns["BOARD"] + ".py"))
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        assert "from %s import BOARD" % flash.CONFIG_FILE[:-3] in f.read()


def test_make_targets_call_the_tools():
    def dry_make(*args):
        r = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout

    out = dry_make("flash", "BOARD=esp32", "PORT=/dev/ttyUSB3")
    assert "tools/build.py" in out  # flash builds first
    assert "tools/flash.py flash --board esp32 --port /dev/ttyUSB3" in out
    assert "tools/flash.py dev --board pico" in dry_make("dev")
    assert "tools/flash.py repl --port /dev/ttyACM1" in dry_make("repl", "PORT=/dev/ttyACM1")
    assert "tools/sim.py" in dry_make("sim")
