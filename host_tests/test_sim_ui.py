"""The simulator's host side: key scripts, the terminal drawing in the board's geometry, and
the interactive UI in a pseudo-terminal (keys in, terminal restored on quit)."""

import os
import select
import subprocess
import sys
import time

import pytest
from board.keypad import KEYS_4X4
from board.layout import Layout
from hostenv import ROOT
from sim import keys, ui
from sim.games import card_keys
from sim.keymap import key_help

SIM = os.path.join(ROOT, "tools", "sim.py")  # the command line, as the README runs it


def board_of(L):
    pix = []
    for p in range(L.count):
        kind, lane, n = L.what(p)
        x, y = L.xy(p)
        pix.append([x, y, kind, lane, n])
    return ui.Board({"pixels": pix, "order": [1, 0, 2]})


def test_parse_keys():
    assert keys.parse_keys("1 2#") == ["key 1 80 80", "key 2 80 80", "key # 80 80"]
    assert keys.parse_keys("~*") == ["key * %d 80" % keys.LONG_MS]
    assert keys.parse_keys("a.[b]") == ["key A 80 80", "wait 1000", "key b 80 80"]
    for bad, msg in (("5X", "'X' is not a keypad key"), ("1~", "which key"), ("[a", "']'")):
        with pytest.raises(ValueError) as e:
            keys.parse_keys(bad)
        assert msg in str(e.value)


def test_card_keys_follow_the_key_map():
    from cribbage.cardtext import parse

    assert card_keys(parse("5H")) == "5C"  # 5, then C = hearts
    assert card_keys(parse("KS")) == "13D"
    assert card_keys(parse("AC")) == "1A"
    assert card_keys(parse("10D")) == "0B"  # a ten: 0 (one key; 10 works too)


@pytest.mark.parametrize("kw", [{}, {"lanes": 3, "holes": 60, "row": 30},
                                {"shared_finish": False}, {"group_gap": 0.0, "pitch": 6.94}])
def test_every_led_gets_its_own_cell_in_board_order(kw):
    L = Layout(**kw)
    b = board_of(L)
    assert len(set(b.cells)) == L.count  # no two LEDs share a character cell
    # along a band's line the holes keep their left-to-right order and spacing
    row0 = [b.cells[L.hole(0, s)] for s in range(1, L.row + 1)]
    assert len({r for r, _c in row0}) == 1
    cols = [c for _r, c in row0]
    assert cols == sorted(cols)
    steps = {cols[i + 1] - cols[i] for i in range(len(cols) - 1)}
    assert min(steps) == 2  # one pitch is two columns
    if L.group_gap:
        assert max(steps) == 3  # groups of five stand apart
    # lanes of a band are on neighbouring rows, lane 0 on top
    assert b.cells[L.hole(1, 1)][0] == row0[0][0] + 1


def test_screen_draws_lit_leds_in_true_colour():
    L = Layout()
    b = board_of(L)
    buf = bytearray(3 * L.count)
    p = L.hole(1, 42)
    buf[3 * p:3 * p + 3] = bytes((10, 200, 30))  # GRB: r=200, g=10, b=30
    lines = ui.board_lines(b, buf)
    r, c = b.cells[p]
    assert "\x1b[38;2;" in lines[r]
    plain = ui.board_lines(b, buf, colour=False)
    assert plain[r][c] == "●"
    assert sum(line.count("●") for line in plain) == 1
    assert sum(line.count("○") for line in plain) == L.count - 1 - L.lanes * L.header
    assert b.lit(buf) == {p: (200, 10, 30)}
    text = ui.screen(b, {"frame": bytes(buf).hex(), "scores": [["Red", 3], ["Blue", 42]],
                         "display": ["R3 B42", "play Red 12"], "phase": "play"},
                     ["| # | OK |"], colour=False)
    assert "Red 3" in text and "|play Red 12" in text and "| # | OK |" in text
    for k in KEYS_4X4:
        assert "[%s]" % k in text


def test_png_has_the_led_at_its_place(tmp_path):
    from PIL import Image

    L = Layout()
    b = board_of(L)
    buf = bytearray(3 * L.count)
    p = L.hole(0, 7)
    buf[3 * p:3 * p + 3] = bytes((0, 255, 0))  # pure red
    path = tmp_path / "b.png"
    ui.save_png(b, bytes(buf), str(path), scale=4.0)
    img = Image.open(path).convert("RGB")
    x, y = L.xy(p)
    xs = [q[0] for q in b.pixels]
    ys = [q[1] for q in b.pixels]
    px = img.getpixel((int((x - min(xs) + 10) * 4), int((y - min(ys) + 10) * 4)))
    assert px[0] > 200 and px[1] < 60 and px[2] < 60
    x2, y2 = L.xy(L.hole(0, 8))  # a dark hole next to it
    px2 = img.getpixel((int((x2 - min(xs) + 10) * 4), int((y2 - min(ys) + 10) * 4)))
    assert max(px2) < 60


def read_until(fd, want, timeout=30):
    buf = b""
    end = time.time() + timeout
    while want not in buf and time.time() < end:
        r, _w, _x = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def test_interactive_ui_in_a_terminal(tmp_path):
    """Keys typed in a terminal reach the board; Esc quits and restores the terminal."""
    import pty
    import termios

    import fcntl
    import struct

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, SIM,
                             "--storage", str(tmp_path / "s")],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    try:
        out = read_until(master, b"Esc or Ctrl-C quits")
        assert b"Esc or Ctrl-C quits" in out
        assert b"\x1b[?1049h" in out  # the alternate screen
        assert b"[#]" in out and b"\xe2\x97\x8b" in out  # the key map and the holes
        os.write(master, b"7#")  # peg 7 for Red
        out = read_until(master, b"R7 B0")
        assert b"R7 B0" in out
        os.write(master, b"\x1b")
        out = read_until(master, b"simulator stopped")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert b"\x1b[?1049l" in out and b"\x1b[?25h" in out  # main screen and cursor back
    assert termios.tcgetattr(slave) == before  # cbreak mode undone
    os.close(master)
    os.close(slave)
    # the game was saved: a scripted run on the same storage goes on from 7
    r = subprocess.run([sys.executable, SIM,
                        "--storage", str(tmp_path / "s"), "--keys", "2#"],
                       capture_output=True, text=True, timeout=60)
    assert "scores: Red 9, Blue 0" in r.stdout, r.stdout + r.stderr


def test_the_simulator_shows_the_apps_own_key_map():
    lines = key_help()
    assert any("hold *" in line and "undo" in line for line in lines)
    assert any("A the next side" in line for line in lines)  # muggins with 3+ sides
