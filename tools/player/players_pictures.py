"""Make the pictures of docs/players.md: the keypad, and a deal step by step as the board
shows it. python tools/player/players_pictures.py [FOLDER]   (default docs/players/)

The keypad is the key-map card (tools/maker/keymap_card.py: the firmware's own key map), drawn for a
screen. The deal is typed on the simulator (tools/sim/: the real firmware in the real
MicroPython, in virtual time, so the pictures are the same on every run): after each step the
board's LEDs (sim.ui.save_png) beside its display, enlarged to be read. STEPS is the deal the
guide tells; the guide's text and these steps must be changed together (its test checks that
every picture it shows is one made here).
"""

import os
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT

import keymap_card
from sim import ui
from sim.keys import parse_keys
from sim.runner import Sim

OUT = os.path.join(ROOT, "docs", "players")
KEYPAD = "keypad.svg"
KEYPAD_PX = 8  # screen pixels per mm of the 70 x 80 mm card: 560 x 640
BOARD_SCALE = 2.5  # px per mm of the track
ZOOM = 3  # the display's text, enlarged
# (file, the keys typed since the step before, what it shows): Red deals, Blue is the pone.
# Red holds 5H KD 8C 2S, Blue 10C 5C 7D 6H; the starter is 3D; the crib JD 5S QH 4C.
STEPS = [
    ("1-deal.png", "", "a new game: who deals (A picks), OK deals"),
    ("2-starter.png", "#", "dealt: type the starter"),
    ("3-play.png", "3B", "the starter 3\u2666 (3 B): the play begins, Blue leads"),
    ("4-fifteen.png", "0A 5C", "Blue 10\u2663 (0 A), Red 5\u2665 (5 C): Red 15 for 2"),
    ("5-go.png", "5A 13B B", "Blue 5\u2663 pairs (2), Red K\u2666 makes 30, Blue says go (B)"),
    ("6-go-1.png", "B", "Red cannot play either (B): Red 1 for the go, the count starts again"),
    ("7-show.png", "7B 8A 6C 2D", "the rest played (15 for 2, a run of 3, the last card): "
     "the hands, filled in from the play, are counted"),
    ("8-crib.png", "#", "OK pegged both hands (Blue 7, Red 6): type the crib"),
    ("9-next-deal.png", "11B 5D 12C 4A", "the crib's fourth card pegs it (8): Blue deals next"),
]


def keypad(folder):
    """The key-map card as an SVG sized for a screen (the same drawing, 8 px per mm)."""
    text = keymap_card.svg()
    w, h = keymap_card.WIDTH, keymap_card.HEIGHT
    old = 'width="%gmm" height="%gmm"' % (w, h)
    if old not in text:
        raise ValueError("tools/maker/keymap_card.py's SVG has changed its size attributes")
    text = text.replace(old, 'width="%d" height="%d"' % (w * KEYPAD_PX, h * KEYPAD_PX), 1)
    path = os.path.join(folder, KEYPAD)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def states():
    """The board's state after each of STEPS, typed on one simulated board."""
    cmds = []
    for _name, keys, _what in STEPS:
        cmds += parse_keys(keys) + ["state"]
    with tempfile.TemporaryDirectory(prefix="players-") as store:
        sim = Sim(store)
        sim.run(cmds)  # (the state at the end of the input, after those asked for)
        got = sim.states
        board = sim.board
    bad = [(name, st.get("error") or st.get("crash")) for (name, _k, _w), st in zip(STEPS, got)
           if st.get("error") or st.get("crash") or st.get("refused")]
    if sim.errors or bad or len(got) != len(STEPS):
        raise RuntimeError("the deal did not go as the guide tells: %r %r" % (sim.errors, bad))
    return board, got


def picture(board, st, path):
    """The LEDs and, to their right, the display enlarged ZOOM times."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "board.png")
        lines = st.get("display") or []
        ui.save_png(board, bytes.fromhex(st["frame"]), raw, lines, scale=BOARD_SCALE)
        img = Image.open(raw).convert("RGB")
    h_track = img.height - (len(lines) * 12 + 16)
    track = img.crop((0, 0, img.width, h_track))
    shown = img.crop((8, h_track, 8 + 16 * 8 + 8, img.height - 4))  # save_png's display box
    shown = shown.resize((shown.width * ZOOM, shown.height * ZOOM), Image.NEAREST)
    pad = 12
    out = Image.new("RGB", (track.width + shown.width + 2 * pad,
                            max(track.height, shown.height) + 2 * pad), (92, 64, 40))
    out.paste(track, (pad, pad + (out.height - 2 * pad - track.height) // 2))
    out.paste(shown, (track.width + pad, pad))
    out.save(path, optimize=True)
    return out.size


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=OUT,
                    help="where the pictures go (default: %(default)s)")
    folder = ap.parse_args(argv).folder
    os.makedirs(folder, exist_ok=True)
    print("wrote %s" % os.path.relpath(keypad(folder)))
    board, got = states()
    for (name, _keys, what), st in zip(STEPS, got):
        w, h = picture(board, st, os.path.join(folder, name))
        print("wrote %s (%d x %d): %s" % (os.path.relpath(os.path.join(folder, name)), w, h,
                                          what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
