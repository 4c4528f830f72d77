"""The whole board app on the real MicroPython binary: a complete game entered on the keys of
the fake board (engine + renderer + keypad + storage), from .mpy files as a board runs them
(mpy-cross, like `make build`), in the 96k heap the core's tests get (this 64-bit port's
objects are twice an ESP32's). tools/bench/mp_board.py is the script; it prints the GAME line
checked here."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
HEAP = "96k"  # the game's peak is ~90 KB here (64-bit objects); about half on an ESP32


def compile_firmware(out):
    src = os.path.join(ROOT, "firmware")
    for folder, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".py") or f == "main.py":
                continue
            rel = os.path.relpath(os.path.join(folder, f), src)
            dst = os.path.join(out, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            # not check=True: a module the game does not import may be mid-edit; one it
            # needs and that failed shows up as an ImportError in the run below
            subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", dst,
                            os.path.join(folder, f)], capture_output=True)


def test_whole_game_under_micropython(tmp_path):
    compile_firmware(str(tmp_path))
    env = dict(os.environ, MICROPYPATH=str(tmp_path) + ":" + os.path.join(ROOT, "tools/bench"),
               MP_BOARD_CHILD="mpy")  # run here, in HEAP: no re-run with a source-sized heap
    p = subprocess.run([os.path.join(BIN, "micropython"), "-X", "heapsize=" + HEAP,
                        os.path.join(ROOT, "tools/bench/mp_board.py")],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr + p.stdout
    game = [line.split() for line in p.stdout.splitlines() if line.startswith("GAME ")]
    assert len(game) == 1, p.stdout
    g = game[0]
    # GAME over winner W scores A B events N peak P heap H saved True
    winner, a, b = int(g[3]), int(g[5]), int(g[6])
    assert max(a, b) >= 121 and min(a, b) < 121 and (a, b)[winner] >= 121
    assert int(g[8]) > 100  # events: a real game, not a stub
    assert g[-1] == "True"  # the saved game reloads as the game played
    assert int(g[10]) < int(g[12])  # the peak fits the heap
