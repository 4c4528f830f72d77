"""The simulator's host side: key scripts, the terminal drawing in the board's geometry, and
the interactive UI in a pseudo-terminal (keys in, terminal restored on quit)."""

import os
import re
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

SIM = os.path.join(ROOT, "tools", "sim")  # the command line, as the README runs it


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


def test_cards_written_as_cards_are_typed_as_keys():
    """In --keys a card can be written as a card: in parentheses as `make score` writes it,
    or with a suit symbol; the keys that type it are pressed. Keys stay keys: 5C is 5 then
    key C (hearts)."""
    P = keys.parse_keys
    assert P("(5H)") == P("5\u2665") == P("5C") == ["key 5 80 80", "key C 80 80"]
    assert P("(10c JD, ks) (AS)") == P("0A 11B 13D 1D")
    assert P("# K\u2660 10\u2663 A\u2666 Q\u2661 #") == P("# 13D 0A 1B 12C #")
    assert P("[a] ~* a") == ["key a 80 80", "key * %d 80" % keys.LONG_MS, "key A 80 80"]
    for bad, msg in (("(5X)", "bad card '5X'"), ("(5H", "without ')'"),
                     ("1 5\u2665", "read the keys 1 5 C as one card, rank 15"),
                     ("#1(5H)", "rank 15"),
                     ("5H", "a card as a card: (5H) or 5\u2665")):
        with pytest.raises(ValueError) as e:
            keys.parse_keys(bad)
        assert msg in str(e.value), (bad, str(e.value))


def test_the_cards_a_key_script_types_are_named():
    H, C, S, D = "\u2665", "\u2663", "\u2660", "\u2666"
    found = [(k, keys.card_symbol(c)) for k, c in keys.keypad_cards("# 5C# 10A 0b 13D 1 1 a")]
    assert found == [("5C", "5" + H), ("10A", "10" + C), ("0B", "10" + D), ("13D", "K" + S),
                     ("11A", "J" + C)]
    assert keys.keypad_cards("14A 00C 7# B") == []  # not cards: no rank 14, 00; a go
    assert keys.describe_cards("7#") == ""
    line = keys.describe_cards("(5H) 5C")
    assert line.startswith("cards typed: 5C = 5%s, 5C = 5%s" % (H, H))
    assert "C %s" % H in line  # and the keypad's suit letters


def test_card_keys_follow_the_key_map():
    from dealer.cardtext import parse

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


ANSI = re.compile("\x1b\\[[0-9;?]*[A-Za-z]")


def visible(line):
    return ANSI.sub("", line)


DISPLAY = ["R3 B42", "play Red 12", "5H 6C", "> 1", "", "", "", ""]


def fit_state():
    L = Layout()
    b = board_of(L)
    buf = bytearray(3 * L.count)
    p = L.hole(1, 42)
    buf[3 * p:3 * p + 3] = bytes((10, 200, 30))
    st = {"frame": bytes(buf).hex(), "scores": [["Red", 3], ["Blue", 42]], "phase": "play",
          "display": DISPLAY, "error": "5H was already played"}
    return b, st


def holes(lines):
    return sum(visible(x).count("\u25cb") + visible(x).count("\u25cf") for x in lines)


def test_screen_fits_any_terminal():
    """A terminal smaller than the screen: nothing scrolls (at most `height` lines, each
    shorter than `width`), the help line (how to quit) stays last, the first line says what
    is left out; the whole track stays while it fits, and is cut, not wrapped, when narrow."""
    b, st = fit_state()
    keymap = key_help()
    help_line = "keys: ... Esc or Ctrl-C quits"
    full = ui.screen(b, st, keymap, help_line=help_line).split("\n")
    every = holes(full)
    small = ui.screen(b, st, keymap, help_line=help_line, width=80, height=10).split("\n")
    need = re.search(r"no track \(it needs (\d+)x(\d+)\)", small[0])
    track_w, track_h = int(need.group(1)), int(need.group(2))
    assert track_w == 2 + b.cols + 1 and track_h < 20  # the track's rows without the gaps
    for width in (30, 50, 60, 70, 80, 100, 120, 200):
        for height in range(1, 60):
            lines = ui.screen(b, st, keymap, help_line=help_line, width=width,
                              height=height).split("\n")
            assert len(lines) <= height, (width, height)
            assert all(len(visible(x)) < width for x in lines), (width, height)
            if height >= 2:
                assert lines[-1] == help_line[:width - 1]
            if width >= 112 and height >= len(full):
                assert lines == full  # room for all of it: all of it, as before
            elif width >= 112 and not lines[0].startswith("small terminal"):
                # only blank lines and the display's empty rows left out: nothing to say
                assert set(lines) >= {x for x in full if x.strip("| ")}, (width, height)
            elif width >= 60:  # anything else left out is said
                assert lines[0].startswith("small terminal"), (width, height, lines[0])
            if width >= track_w and height >= track_h:  # the whole track, every hole
                assert holes(lines) == every, (width, height)
            else:
                assert holes(lines) < every, (width, height)
            if height >= track_h - 2:  # the scores at least
                assert any("Red 3" in x for x in lines), (width, height)
    lines = ui.screen(b, st, keymap, help_line=help_line, width=80, height=24).split("\n")
    need = "(all needs %dx%d)" % (max(len(visible(x)) for x in full) + 1, len(full))
    assert "no key map" in lines[0] and lines[0].endswith(need)
    assert any("|play Red 12" in x for x in lines)  # the display, framed
    assert any("5H was already played" in x for x in lines)
    lines = ui.screen(b, st, keymap, help_line=help_line, width=80, height=10).split("\n")
    assert "no track" in lines[0] and holes(lines) == 0
    assert any("play Red 12" in x for x in lines)
    lines = ui.screen(b, st, keymap, help_line=help_line, width=50, height=40).split("\n")
    assert "track cut" in lines[0] and 0 < holes(lines) < every


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


def test_a_small_terminal_keeps_the_track_on_screen(tmp_path):
    """`make sim` in an 80x24 terminal: every frame fits (the track is not scrolled off the
    top) and says that the key map is left out; keys still work."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, SIM, "--storage", str(tmp_path / "s")],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    try:
        out = read_until(master, b"Esc or Ctrl-C quits")
        os.write(master, b"7#")
        out += read_until(master, b"R7 B0")
        assert b"R7 B0" in out
        os.write(master, b"\x1b")
        out += read_until(master, b"simulator stopped")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    text = out.decode("utf-8", "replace")
    frames = [f.split("\x1b[J")[0] for f in text.split("\x1b[H")[1:] if "\x1b[J" in f]
    assert frames
    for f in frames:
        lines = f.split("\n")
        assert len(lines) <= 24
        assert lines[0].startswith("small terminal") and "no key map" in lines[0]
        assert all(len(visible(x)) < 80 for x in lines)
        assert holes(lines) > 200  # the track
        assert lines[-1].startswith("Esc or Ctrl-C quits; keys:")
        assert "l+key=long press" in lines[-1]  # whole, not cut at 80 columns (issue 35.21)


def test_the_simulator_shows_the_apps_own_key_map():
    lines = key_help()
    assert any("hold *" in line and "undo" in line for line in lines)
    assert any("A the next side" in line for line in lines)  # muggins with 3+ sides
