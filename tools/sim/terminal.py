"""The simulator's interactive terminal UI: the board drawn in the terminal, redrawn 20 times
a second, and your keyboard as the keypad (tools/sim without --keys).

The keys: 0-9, a-d for A-D, * and # (Enter works too); "l" then a key is a long press;
z, x, ... are the board's discrete buttons. Esc or Ctrl-C quits and restores the terminal.
"""

import os
import select
import sys
import time

from sim import ui
from sim.keymap import key_help
from sim.keys import HOLD_MS, LONG_MS
from sim.runner import Sim, SimError

BUTTON_KEYS = "zxcvbnm"  # computer keys for the discrete buttons a, b, ...


class Terminal:
    """cbreak mode and the alternate screen while the simulator runs; restored on any exit
    (Esc, Ctrl-C, an error, or SIGTERM/SIGHUP, which are turned into KeyboardInterrupt)."""

    def __enter__(self):
        import signal
        import termios
        import tty

        def stop(_sig, _frame):
            raise KeyboardInterrupt

        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, stop)
        self.fd = sys.stdin.fileno()
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        sys.stdout.write("\x1b[?1049h\x1b[?25l")
        sys.stdout.flush()
        return self

    def __exit__(self, *exc):
        import termios

        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        sys.stdout.write("\x1b[?25h\x1b[?1049l")
        sys.stdout.flush()
        return False


def terminal_size():
    """(columns, rows) of the terminal itself (not $COLUMNS/$LINES, which a parent process
    may have set); (0, 0) if stdout is not a terminal. Read every frame: a resized window is
    redrawn to its new size."""
    try:
        size = os.get_terminal_size(sys.stdout.fileno())
    except OSError:
        return (0, 0)
    return (size.columns, size.lines)


def quit_line(buttons, long_next=False, pressed="", cols=0):
    """The screen's last line: how to quit and which computer keys are the board's (buttons:
    how many discrete buttons it has, z x ...), then the last key pressed if the terminal
    (cols wide, 0: any) has room. Never longer than 79 columns: an 80-column terminal shows
    it whole (ui.screen cuts lines at its width - 1)."""
    line = ("Esc or Ctrl-C quits; keys: 0-9 a-d * # (Enter=#)%s; l+key=long press"
            % (" %s=buttons" % BUTTON_KEYS[:buttons] if buttons else ""))
    status = "  [long press armed]" if long_next else (
        "  last key: " + pressed if pressed else "")
    room = (cols or 10 ** 6) - 1
    if len(line + status) <= room:
        return line + status
    short = "  " + ("l+" if long_next else pressed)  # "  7": the key, without words
    if status and len(line + short) <= room:
        return line + short
    return line


def interactive(a, size=terminal_size):
    """Run the board in this terminal until Esc or Ctrl-C (a: the command line's options).
    size() gives the terminal's (columns, rows): the screen is made to fit it (ui.screen),
    so a small terminal never scrolls the track off the top, and says what it leaves out."""
    if not sys.stdin.isatty():
        raise SimError("no terminal: use --keys for a scripted run")
    sim = Sim(a.storage, a.firmware, realtime=True, heap=a.heap, display=not a.no_display,
              board=a.board, web=a.web)
    keymap = key_help()
    buttons = BUTTON_KEYS
    extra = sim.board.keys[16:]  # discrete buttons, named a, b, ... on the board
    long_next = False
    pressed = ""
    fd = sys.stdin.fileno()
    try:
        with Terminal():
            last = 0.0
            while True:
                r, _w, _x = select.select([fd], [], [], 0.04)
                if r:
                    ch = os.read(fd, 1).decode("latin-1")
                    if ch == "\x1b" and select.select([fd], [], [], 0.02)[0]:
                        os.read(fd, 16)  # an arrow or function key's escape sequence: ignore
                        continue
                    if ch in ("\x1b", "\x03", "\x04"):
                        break
                    if ch == "l":
                        long_next = True
                        continue
                    key = ch.upper() if ch in "abcdABCD" else ch
                    if ch in buttons and buttons.index(ch) < len(extra):
                        key = extra[buttons.index(ch)]
                    elif key == "\r" or key == "\n":
                        key = "#"
                    if key in sim.board.keys:
                        sim.send("key %s %d %d" % (key, LONG_MS if long_next else HOLD_MS, 40))
                        pressed = ("hold " if long_next else "") + key
                    long_next = False
                now = time.monotonic()
                if now - last >= 0.05:
                    last = now
                    st = sim.state()
                    if st.get("crash"):
                        raise SimError("the firmware app crashed:\n" + st["crash"])
                    cols, rows = size()
                    text = ui.screen(sim.board, st, keymap,
                                     help_line=quit_line(len(extra), long_next, pressed, cols),
                                     width=cols, height=rows)
                    # home, each line cleared to its end, the rest of the screen cleared:
                    # no flicker from clearing the whole screen every frame
                    sys.stdout.write("\x1b[H" + text.replace("\n", "\x1b[K\n") + "\x1b[K\x1b[J")
                    sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    print("simulator stopped; the game is saved in %s" % a.storage)
    return 0
