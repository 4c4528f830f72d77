"""The simulator says what went wrong (issue 35): a taken port for the live page (item 1), a
micropython process that died (item 5), the quit line in an 80-column terminal (item 21)."""

import os
import socket
import subprocess
import sys

import pytest
from hostenv import ROOT
from sim import runner
from sim.runner import Sim, SimError
from sim.terminal import quit_line

SIM = os.path.join(ROOT, "tools", "sim")


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_a_taken_port_is_refused_and_named(host):
    """`make sim WEB=PORT` with PORT taken (by another simulator's page on 127.0.0.1, or any
    server on every address): it refuses to start, says which port and how to pick another,
    and exits 2 -- not a board without its page and another program at its address."""
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, SIM, "--web", str(port)], capture_output=True,
                           text=True, timeout=60, stdin=subprocess.DEVNULL)
    finally:
        s.close()
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: port %d is taken" % port), r.stderr
    assert "make sim WEB=" in lines[0] and "Traceback" not in r.stderr


def test_a_port_out_of_range_is_a_usage_error():
    r = subprocess.run([sys.executable, SIM, "--web", "70000"], capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "a port is 1 to 65535" in r.stderr


# A stand-in for micropython: describes a one-LED board, then dies as a crashed interpreter
# does (a traceback on stderr, exit status 3), after reading `lines` commands.
FAKE = r'''#!%s
import sys
lines = int(%r)
sys.stdout.write('LAYOUT {"pixels": [[0.0, 0.0, 1, 0, 0]], "order": [1, 0, 2], "bpp": 3}\n')
sys.stdout.flush()
for _ in range(lines):
    sys.stdin.readline()
for i in range(30):
    sys.stderr.write("line %%d of the noise before\n" %% i)
sys.stderr.write("Traceback (most recent call last):\nMemoryError: memory allocation failed\n")
sys.exit(3)
'''


def fake_micropython(tmp_path, monkeypatch, lines=0):
    path = tmp_path / "micropython"
    path.write_text(FAKE % (sys.executable, lines))
    path.chmod(0o755)
    monkeypatch.setattr(runner, "micropython", lambda: str(path))


def test_a_dead_micropython_is_said_not_a_broken_pipe(tmp_path, monkeypatch):
    """Issue 35.5: the interactive board sends to a micropython that has died: a SimError
    with its exit status and the last lines of its stderr, never a BrokenPipeError."""
    fake_micropython(tmp_path, monkeypatch)
    sim = Sim(str(tmp_path / "store"))
    sim.proc.wait(timeout=30)  # dead before the next key
    with pytest.raises(SimError) as e:
        for _ in range(3):  # (the first write may still fill the pipe's buffer)
            sim.state()
    text = str(e.value)
    assert "exit status 3" in text and "MemoryError: memory allocation failed" in text
    assert "line 29 of the noise" in text and "line 0 of the noise" not in text  # the last
    sim.close()


def test_the_command_line_says_the_firmware_stopped_and_exits_2(tmp_path, monkeypatch,
                                                                  capsys):
    from sim import cli

    fake_micropython(tmp_path, monkeypatch, lines=1)
    code = cli.main(["--storage", str(tmp_path / "s"), "--keys", "7# " * 2000])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("sim: the firmware stopped: micropython exit status 3"), err
    assert "MemoryError" in err and "BrokenPipe" not in err


@pytest.mark.parametrize("buttons", [0, 1, 2, 3])
def test_the_quit_line_fits_80_columns(buttons):
    """Issue 35.21: the last line (how to quit, the computer keys) whole in 80 columns (the
    screen cuts lines at 79), whatever was last pressed: the status gives way first."""
    for long_next, pressed in ((False, ""), (True, ""), (False, "hold 7"), (False, "#")):
        line = quit_line(buttons, long_next, pressed, 80)
        assert len(line) <= 79, line
        assert line.startswith("Esc or Ctrl-C quits; keys:") and "l+key=long press" in line
        if buttons:
            assert "zxc"[:buttons] + "=buttons" in line
    assert quit_line(2, False, "7", 120).endswith("last key: 7")  # room: the whole status
