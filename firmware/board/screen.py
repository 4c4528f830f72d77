"""Text for the optional 128x64 display: 8 lines of 16 characters (framebuf's 8x8 font).

The app builds lines of text; draw() puts them on anything with fill/text/show (the
micropython-lib ssd1306 driver, or a fake on the host). Without a display nothing calls this.
"""

COLS = 16
ROWS = 8
SIDE_NAMES = ("Red", "Blue", "Green", "Yellow", "Pink", "Cyan")
RESULTS = ("", "win", "skunk", "double skunk", "lurch")  # by cribbage.events WIN..LURCH


def seat_name(m, seat):
    """'Red', or 'Red2' when partners share a side (the display's and the menu's name for a
    seat of game m)."""
    name = SIDE_NAMES[m.side_of(seat)]
    if m.players > m.sides:
        name += str(seat // m.sides + 1)
    return name


def wrap(text, width=COLS):
    """Split text into lines of at most width characters, at spaces where possible. (Word
    by word with find, not split: a long count's list of words is a block of 512 bytes on
    a 64-bit port, which a heap in pieces after many games may not have.)"""
    out = []
    for para in text.split("\n"):
        line = ""
        n = len(para)
        i = 0
        while True:
            j = para.find(" ", i)
            if j < 0:
                j = n
            word = para[i:j]
            while len(word) > width:  # a word longer than a line: cut it
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
            if j >= n:
                break
            i = j + 1
        out.append(line)
    return out


def draw(display, lines):
    """Show up to ROWS lines."""
    display.fill(0)
    for i in range(min(len(lines), ROWS)):
        display.text(lines[i][:COLS], 0, 8 * i, 1)
    display.show()
