"""Power-up (issue 34): the saved game is on the LEDs before the app's modules load.

board/tasks.py's run() draws the saved frame (board/boot.py's frame(), from the frame the app
saved with the game) before it imports asyncio and board.app: checked in a real MicroPython
process by what sys.modules holds when the strip is first written, and that frame is the one
the app then shows."""

import os
import subprocess

from fakeboard.fake import build
from board.app import App
from boardkit import Fingers
from hostenv import FIRMWARE, HOST, ROOT, venv_program

# In MicroPython: boot the fake board as firmware/main.py boots a board (build(), then
# board.tasks.run); the strip's first write says which modules were loaded and what it showed.
# A key the app refuses (check_hw) ends run() once the early frame is drawn; or ("stop") the
# first write ends it.
SCRIPT = r"""
import sys
from fakeboard.fake import build
hw = build(storage_dir=sys.argv[1], display=False)
strip = hw["strip"]
first = []
real = strip.write
def write():
    if not first:
        first.append(1)
        print("LOADED", " ".join(k for k in ("board.app", "cribbage.match", "asyncio",
                                             "board.entry", "board.commands") if k in sys.modules))
        print("FRAME", bytes(strip.buf).hex())
        if sys.argv[2] == "stop":
            raise SystemExit
    real()
strip.write = write
if sys.argv[2] != "stop":
    hw["unknown_key"] = 1
from board.tasks import run
try:
    run(hw)
except ValueError:
    print("APP", "board.app" in sys.modules)
"""


def _mp(tmp_path, store, how="refuse"):
    script = tmp_path / "boot.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, MICROPYPATH="%s:%s:.frozen" % (FIRMWARE, HOST))
    p = subprocess.run([venv_program("micropython"), "-X", "heapsize=512k", str(script),
                        str(store), how], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=60)
    out = dict(line.split(" ", 1) for line in p.stdout.splitlines()
               if line[:6] in ("LOADED", "FRAME ", "APP Tr", "APP Fa"))
    return out, p


def _played(store):
    """A game under way saved in store (a deal, the starter, cards played, a peg); the frame
    the app shows when it boots from it (CPython)."""
    hw = build(str(store), display=False)
    app = App(hw)
    f = Fingers(hw, app)
    f.press("A#")  # A picks the dealer, OK deals
    f.press("5C0A5D")  # the starter, then cards played
    f.press("3A")
    hw2 = build(str(store), display=False)
    App(hw2).boot()
    return bytes(hw2["strip"].buf)


def test_the_saved_game_is_on_the_leds_before_the_app_loads(tmp_path):
    store = tmp_path / "data"
    want = _played(store)
    assert any(want) and (store / "frame").exists()
    out, p = _mp(tmp_path, store)
    assert "LOADED" in out and "FRAME" in out, (p.stdout, p.stderr)
    assert out["LOADED"].strip() == "", out["LOADED"]  # none of the app, the engine, asyncio
    assert bytes.fromhex(out["FRAME"]) == want  # the app's own first frame, pixel for pixel
    assert out.get("APP") == "True", p.stdout  # and then the app loaded (and refused the key)


def test_a_frame_saved_for_another_game_is_not_drawn(tmp_path):
    """The saved frame is tied to the game's saved bytes: with a game saved after it (a
    power cut between the two saves), the app draws the first frame, as before."""
    store = tmp_path / "data"
    _played(store)
    kept = (store / "frame").read_bytes()
    hw = build(str(store), display=False)
    app = App(hw)
    Fingers(hw, app).press("2A")  # another card: the game and its frame saved again
    (store / "frame").write_bytes(kept)  # the frame of the game before
    out, p = _mp(tmp_path, store, "stop")
    assert "LOADED" in out, (p.stdout, p.stderr)
    assert "board.app" in out["LOADED"]  # the first write was the app's
    assert bytes.fromhex(out["FRAME"]) == bytes(hw["strip"].buf)
