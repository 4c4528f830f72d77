"""The board simulator: the real firmware app in the real MicroPython binary, fake hardware.

    python tools/sim.py                         # interactive: the board in the terminal
    python tools/sim.py --keys "# 5C# 10A#"     # scripted: feed keys, print the final state
    python tools/sim.py --autoplay 1 --png board.png --show   # a whole game, and a picture
    python tools/sim.py --board esp32           # the real board module on fake machine pins

The app runs in `micropython` (the unix port from the venv) with firmware/boards/fake.py's
hardware, driven by tools/sim/mp_driver.py (tools/sim/runner.py starts it); this process draws
the LEDs in the board's own geometry (from firmware/board/layout.py, as the driver reports it)
with 24-bit colour, the display's text and the key map (tools/sim/ui.py), and turns your
keyboard into the keypad (tools/sim/terminal.py). Saved games live in --storage (default
.sim/), so quitting and starting again resumes the game; --fresh forgets it.

Key script (--keys, tools/sim/keys.py): every character is one press of that keypad key (0-9
A-D * #, a-d count as A-D); spaces are ignored; "~X" holds X for a long press; "." lets a
second pass; "[a]" presses discrete button a. Interactive: the same keys; "l" then a key =
long press; Esc or Ctrl-C quits and restores the terminal.
"""

import argparse
import json
import os
import shutil
import sys

from hostenv import ROOT

from sim import ui
from sim.games import game_keys
from sim.keymap import key_help
from sim.keys import parse_keys
from sim.runner import Sim, SimError
from sim.terminal import interactive


def summary(board, st):
    """The final state as text lines: scores, phase, last error, lit LEDs, display."""
    lines = []
    if "scores" in st:
        lines.append("scores: " + ", ".join("%s %s" % (n, s) for n, s in st["scores"]))
    lines.append("phase: %s" % st.get("phase", "?"))
    lines.append("last error: %s" % (st.get("error") or "none"))
    lit = board.lit(bytes.fromhex(st["frame"]))
    lines.append("lit LEDs: %d of %d" % (len(lit), board.count))
    for d in st.get("display") or []:
        if d:
            lines.append("display: %s" % d)
    return lines


def scripted(a):
    """Run the key script a.keys without the terminal UI and print the final state."""
    try:
        cmds = parse_keys(a.keys)
    except ValueError as e:
        raise SimError("bad key script: %s" % e) from None
    sim = Sim(a.storage, a.firmware, realtime=False, heap=a.heap, display=not a.no_display,
              board=a.board)
    st = sim.run(cmds)
    for e in sim.errors:
        print("driver: %s" % e)
    if st.get("crash"):
        raise SimError("the firmware app crashed:\n" + st["crash"])
    if a.json:
        print(json.dumps(st))
    else:
        if a.show:
            print(ui.screen(sim.board, st, key_help(), colour=sys.stdout.isatty()))
        print("\n".join(summary(sim.board, st)))
    if a.png:
        w, h = ui.save_png(sim.board, bytes.fromhex(st["frame"]), a.png, st.get("display"))
        print("wrote %s (%d x %d)" % (a.png, w, h))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", help="key script: run without the terminal UI")
    ap.add_argument("--autoplay", type=int, metavar="SEED",
                    help="type a whole game the core's computer players play (seeded deck), "
                    "on a fresh board")
    ap.add_argument("--players", type=int, default=2, help="with --autoplay: 2 to 6 players")
    ap.add_argument("--game", type=int, default=121, help="with --autoplay: 121 or 61")
    ap.add_argument("--upto", type=int, metavar="N",
                    help="with --autoplay: stop after the first N entries (mid-game pictures)")
    ap.add_argument("--png", help="save a picture of the board (with --keys)")
    ap.add_argument("--show", action="store_true", help="print the board too (with --keys)")
    ap.add_argument("--json", action="store_true", help="print the final state as JSON")
    ap.add_argument("--storage", default=os.path.join(ROOT, ".sim"),
                    help="folder for the saved game (default .sim/)")
    ap.add_argument("--fresh", action="store_true", help="forget the saved game first")
    ap.add_argument("--board", default="", choices=("", "pico", "esp32"),
                    help="run the real board module (firmware/boards/pico.py or esp32_devkit.py, "
                    "its pin map) on fake machine/neopixel modules instead of boards/fake.py")
    ap.add_argument("--no-display", action="store_true",
                    help="a board without the OLED: the LEDs give all the feedback")
    ap.add_argument("--firmware", default=None,
                    help="firmware tree to run (default firmware/; e.g. build/rp2040)")
    ap.add_argument("--heap", default="512k",
                    help="MicroPython heap size (the unix port has 64-bit objects)")
    a = ap.parse_args(argv)
    if a.autoplay is not None:
        a.fresh = True  # the computer players' game starts from a new board
    if a.fresh and os.path.isdir(a.storage):
        shutil.rmtree(a.storage)
    try:
        if a.autoplay is not None:
            script, _m = game_keys(a.autoplay, a.players, a.game)
            if a.upto is not None:
                script = " ".join(script.split(" ")[:a.upto])
            a.keys = script + " " + (a.keys or "")
        if a.keys is not None:
            return scripted(a)
        return interactive(a)
    except SimError as e:
        sys.stderr.write("sim: %s\n" % e)
        return 2
