"""A printable key-map card (SVG, 70 x 80 mm) to stick beside the 4x4 membrane keypad.

    python tools/maker/keymap_card.py        # writes hardware/keymap_card.svg; print at 100 %

Made from what the firmware itself uses, so the card, the board and the simulator cannot
disagree: the key map is board/modes.py's data (THE KEY MAP) (what the firmware's key handling
reads) with tools/sim/keymap.py's words for it (the rows the simulator shows too, each key's few
words); which key sits where is board/keypad.py's KEYS_4X4, row by row over the board modules'
ROWS x COLS. The card has the keypad's grid (each key with its suit and what it does alone and
held), the ranks and suits, then the whole table.
"""

import os
import sys
from xml.sax.saxutils import escape

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

from board.keypad import KEYS_4X4
from hw import esp32_devkit, pico  # (only their pin constants are read)
from sim import keymap as keywords  # (the key map's words)

OUT = os.path.join(ROOT, "hardware", "keymap_card.svg")
WIDTH, HEIGHT = 70.0, 80.0  # mm: beside the common 69 x 77 mm keypad
PAD = 2.0
FONT = "font-family:sans-serif"
EM = 0.56  # average character width of a sans-serif font, in font sizes (for wrapping)
EM_BOLD = 0.62
SUITS = {"clubs": "\u2663", "diamonds": "\u2666", "hearts": "\u2665", "spades": "\u2660"}
RED_SUITS = ("diamonds", "hearts")


# --- reading the key map ------------------------------------------------------------------

def table():
    """(header, rows) of the key map: tools/sim/keymap.py's, rows (keys, what they do)."""
    return keywords.HEADER, list(keywords.ROWS)


def keypad_grid():
    """The keypad's key names, row by row, as the firmware scans them."""
    shapes = {(len(m.ROWS), len(m.COLS)) for m in (pico, esp32_devkit)}
    if len(shapes) != 1:
        raise ValueError("the board modules disagree on the keypad: %r" % sorted(shapes))
    (n_rows, n_cols), = shapes
    names = KEYS_4X4[:n_rows * n_cols]
    return [names[r * n_cols:(r + 1) * n_cols] for r in range(n_rows)]


def suits():
    """{key: suit name}: THE KEY MAP's suit keys (board/modes.py), in the cards' order."""
    return dict(zip(keywords.SUITS, keywords.SUIT_NAMES))


def meanings(keys):
    """{key: [short meanings]} for the keypad's keys (tools/sim/keymap.py's CELLS): the rank it
    names, alone, then held."""
    out = {k: [] for k in keys}
    for key, words in keywords.CELLS:
        if key in out:
            out[key].append(words)
    return out


# --- drawing ------------------------------------------------------------------------------

def wrap(text, width, size, em=EM):
    """Lines of text no wider than width mm at font size `size` mm (estimated)."""
    per_line = max(1, int(width / (em * size)))
    lines = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _text(add, x, y, s, size, extra=""):
    add('<text x="%.2f" y="%.2f" style="%s;font-size:%.2fpx%s">%s</text>'
        % (x, y, FONT, size, extra, escape(s)))


def _key_cell(add, x, y, w, h, key, suit, lines):
    add('<g><title>key %s</title>' % escape(key))
    add('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" rx="1" fill="none" stroke="black" '
        'stroke-width="0.25"/>' % (x, y, w, h))
    _text(add, x + 1.2, y + 4.2, key, 3.8, ";font-weight:bold")
    if suit:
        colour = "#c62828" if suit in RED_SUITS else "black"
        add('<text x="%.2f" y="%.2f" text-anchor="end" style="%s;font-size:4.2px;fill:%s">%s'
            '</text>' % (x + w - 1.2, y + 4.3, FONT, colour, SUITS.get(suit, suit)))
    for i, line in enumerate(lines):
        _text(add, x + 1.2, y + 6.6 + 1.9 * i, line, 1.6)
    add('</g>')


def _grid(add, top):
    """The keypad's keys where they are, each with what it does; returns the bottom y."""
    grid = keypad_grid()
    cols = len(grid[0])
    w = (WIDTH - 2 * PAD) / cols
    h = 9.6
    said = meanings([k for row in grid for k in row])
    suit = suits()
    for r, row in enumerate(grid):
        for c, key in enumerate(row):
            lines = [line for m in said[key] for line in wrap(m, w - 2.2, 1.6)]
            if len(lines) > 2:
                raise ValueError("key %s: too much to say in a cell: %r" % (key, lines))
            _key_cell(add, PAD + c * w, top + r * h, w, h, key, suit.get(key), lines)
    return top + len(grid) * h


KEYS_W = 15.5  # mm: the table's keys column
KEYS_SIZE = 1.35  # mm: its font (bold)
SIZE = 1.5  # mm: the table's font
LINE = 1.85  # mm between lines of the table


def _table(add, y, rows):
    """The key map table, each row wrapped; returns the bottom y."""
    what_x = PAD + KEYS_W
    for keys, what in rows:
        add('<g class="row">')
        add('<path d="M%.2f %.2fH%.2f" stroke="#999" stroke-width="0.15"/>'
            % (PAD, y, WIDTH - PAD))
        key_lines = wrap(keys, KEYS_W - 0.8, KEYS_SIZE, EM_BOLD)
        what_lines = wrap(what, WIDTH - PAD - what_x, SIZE)
        for i, line in enumerate(key_lines):
            add('<text class="keys" x="%.2f" y="%.2f" style="%s;font-size:%.2fpx;'
                'font-weight:bold">%s</text>' % (PAD, y + 1.7 + LINE * i, FONT, KEYS_SIZE,
                                                 escape(line)))
        for i, line in enumerate(what_lines):
            add('<text class="what" x="%.2f" y="%.2f" style="%s;font-size:%.2fpx">%s</text>'
                % (what_x, y + 1.7 + LINE * i, FONT, SIZE, escape(line)))
        add('</g>')
        y += LINE * max(len(key_lines), len(what_lines)) + 0.5
    return y


def svg():
    """The card as SVG text, 1 user unit = 1 mm; ValueError if the key map does not fit."""
    _header, rows = table()
    out = []
    add = out.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add('<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
        % (WIDTH, HEIGHT, WIDTH, HEIGHT))
    add('<title>Cribbage board key map, %g x %g mm: print at 100%%</title>' % (WIDTH, HEIGHT))
    add('<rect x="0.1" y="0.1" width="%g" height="%g" rx="2" fill="white" stroke="black" '
        'stroke-width="0.2"/>' % (WIDTH - 0.2, HEIGHT - 0.2))
    _text(add, PAD, 4.2, "Cribbage board: the keys", 2.8, ";font-weight:bold")
    add('<text x="%.2f" y="4.2" text-anchor="end" style="%s;font-size:1.3px">print at 100%%, '
        '%g x %g mm</text>' % (WIDTH - PAD, FONT, WIDTH, HEIGHT))
    y = _grid(add, 6.0)
    y += 1.0
    y = _table(add, y, rows)
    if y > HEIGHT - 1.0:
        raise ValueError("the key map needs %.1f mm, the card is %g mm high" % (y, HEIGHT))
    add('</svg>')
    return "\n".join(out) + "\n"


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=OUT, help="the SVG file (default: %(default)s)")
    out = ap.parse_args(argv).out
    text = svg()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    print("wrote %s (%g x %g mm)" % (os.path.relpath(out), WIDTH, HEIGHT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
