"""The whole board app on the real MicroPython binary: a complete game entered on the keys of
the fake board (engine + renderer + keypad + storage), tools/bench/mp_board.py printing the
GAME line checked here, run twice:

* from .mpy files as `make build` makes them (tools/build.py's mpy-cross call), in the 96k heap
  the core's tests get (this 64-bit port's objects are about twice an ESP32's);
* from source, as `make dev` / `mpremote mount` runs it (every module compiled on the heap
  first), in 128k: more than an ESP32 without PSRAM offers (~112 KB): since the crash-proofing
  of issue 9 (boot guard, deferred saves, fault recovery) and the typed entry's own object the
  source tree no longer compiles on such a board (the peak is ~85 KB, but compiling app.py
  leaves the heap too fragmented at 120k): run it there from .mpy (make flash), not from
  source. A Pico has ~190 KB: `make dev` runs there.

A MemoryError anywhere fails the run. The peak the script reports is the app's (its own code
and benchlib's are measured before the firmware loads and left out; the two add up to the
heap in use at the worst moment, which must fit with room to spare)."""

import os
import subprocess

import build  # tools/build.py
from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")
MPY_HEAP = "96k"
SOURCE_HEAP = "128k"


def play(path, heap):
    """Run the game script with firmware from path in heap; the GAME line's numbers. The
    firmware is imported from the current folder, as a board imports it from its filesystem's
    root: each module's __file__ is a string on the heap, so a long temporary folder would
    cost the game memory a board does not spend."""
    env = dict(os.environ, MICROPYPATH=".:" + os.path.join(ROOT, "tools/bench"),
               MP_BOARD_CHILD="test")  # run here, in heap: no re-run with a bigger one
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap,
                        os.path.join(ROOT, "tools/bench/mp_board.py")],
                       capture_output=True, text=True, env=env, cwd=path, timeout=300)
    assert p.returncode == 0, p.stderr + p.stdout
    game = [line.split() for line in p.stdout.splitlines() if line.startswith("GAME ")]
    assert len(game) == 1, p.stdout
    g = game[0]
    # GAME over winner W scores A B events N peak P heap H harness S saved True
    assert g[-1] == "True"  # the saved game reloads as the game played
    winner, a, b = int(g[3]), int(g[5]), int(g[6])
    assert max(a, b) >= 121 and min(a, b) < 121 and (a, b)[winner] >= 121
    assert int(g[8]) > 100  # events: a real game, not a stub
    assert "IDLE alloc 0" in p.stdout.splitlines()  # the loop allocates nothing when idle
    return {"peak": int(g[10]), "heap": int(g[12]), "harness": int(g[14])}


def test_whole_game_from_mpy_in_96k(tmp_path):
    build.build("esp32", os.path.join(ROOT, "firmware"), str(tmp_path))  # as `make build`
    r = play(str(tmp_path / "esp32"), MPY_HEAP)
    assert r["heap"] < 100 * 1024  # it did run in the small heap
    assert r["peak"] + r["harness"] < r["heap"]


def test_whole_game_from_source_in_128k():
    r = play(os.path.join(ROOT, "firmware"), SOURCE_HEAP)
    assert r["heap"] < 132 * 1024  # it did run in the heap it was given
    assert r["peak"] + r["harness"] < r["heap"]
