"""The board simulator: the real firmware app in the real MicroPython binary, fake hardware.

    python tools/sim                         # interactive: the board in the terminal
    python tools/sim --keys "# 5C# 10A#"     # scripted: feed keys, print the final state
    python tools/sim --autoplay 1 --png board.png --show   # a whole game, and a picture
    python tools/sim --autoplay 1 --cards 5 --show         # a game of five-card cribbage
    python tools/sim --board esp32           # the real board module on fake machine pins

The app runs in `micropython` (the unix port from the venv) with tools/host/fakeboard/fake.py's
hardware, driven by tools/sim/mp_driver.py (tools/sim/runner.py starts it); this process draws
the LEDs in the board's own geometry (from firmware/board/layout.py, as the driver reports it)
with 24-bit colour, the display's text and the key map (tools/sim/ui.py), and turns your
keyboard into the keypad (tools/sim/terminal.py). The interactive board saves its game and
settings in .sim/ (or --storage DIR), so quitting and starting again resumes the game;
--fresh starts a new game there and keeps the settings. Scripted runs (--keys, --autoplay)
never touch .sim/: they play on a temporary folder, deleted afterwards, unless --storage DIR
is given (then they go on from the game saved there). A scripted run plays in virtual time:
the same keys give the same board however busy the machine is. It exits 0 if it did what it
was told, 1 if not: a key the board refused ("refused:" names each), a key the board has not
got, an autoplayed game that did not end where the engine's own game ended; 2 if it could not
run (a bad key script, the firmware crashed).

Key script (--keys, tools/sim/keys.py): every character is one press of that keypad key (0-9
A-D * #, a-d count as A-D); spaces are ignored; "~X" holds X for a long press; "." lets a
second pass; "[a]" presses discrete button a. A card can be written as a card: "(5H JD)" as
`make score` writes them, or "5♥": the keys that type it are pressed (5 C, 11 B). Mind that
keys are not cards: "5C" is 5 then key C, the five of HEARTS (A clubs, B diamonds, C hearts,
D spades); the printout names every card typed ("5C = 5♥"). Interactive: the same keys; "l"
then a key = long press; Esc or Ctrl-C quits and restores the terminal.
"""

import argparse
import contextlib
import json
import os
import sys
import tempfile

from hostenv import ROOT

from sim import ui
from sim.games import game_keys
from sim.keymap import key_help
from sim.keys import describe_cards, parse_keys
from sim.runner import Sim, SimError
from sim.terminal import interactive

STORAGE = os.path.join(ROOT, ".sim")  # the interactive board's saved game and settings
# The board's files (firmware/board/storage.py: NAME, and NAME.tmp while it is written).
GAME_FILES = ("game", "boots")  # the game (with the games won) and the boot counter
SETTINGS_FILES = ("settings",)  # kept by --fresh; history (finished games) and *.bad always


def forget(storage, names):
    """Delete the board's files names (and their .tmp) in storage; the names deleted."""
    gone = []
    for name in names:
        for n in (name, name + ".tmp"):
            path = os.path.join(storage, n)
            if os.path.isfile(path):
                os.remove(path)
                gone.append(n)
    return gone


def port_taken(port, host="127.0.0.1"):
    """Why the live page cannot be served on host:port (the board's server binds it as this
    does, SO_REUSEADDR), or "" if it can. Asked before the board starts: a board whose page
    cannot listen plays on without it, and the address would show whatever else is there."""
    import errno
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            why = "is taken: another program (another simulator?) serves http://%s:%d/" % (
                host, port)
        elif e.errno == errno.EACCES:
            why = "is not allowed (ports under 1024 need root)"
        else:
            why = "cannot be used: %s" % (e.strerror or e)
        other = free_near(port, host)
        return ("port %d %s; the board's page needs a free one: pick another, e.g. "
                "make sim WEB=%d (or tools/sim --web %d)" % (port, why, other, other))
    finally:
        s.close()
    return ""


def wifi_file_fault(path):
    """What is wrong with the simulated board's Wi-Fi file (its broker entry: the club), in
    the board's own words (firmware/hw/wifi.py's fault()), or "" (none there, or a good
    one). Said before the board starts: its page would only say "no broker"."""
    from hw.wifi import fault

    why = fault(os.path.relpath(path))
    return "%s; put it right (README: To try it without a board) or remove it" % why if why \
        else ""


def free_near(port, host):
    """A port after port that is free now (to suggest), or port + 1."""
    import socket

    for p in range(port + 1, min(port + 50, 65535)):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, p))
            return p
        except OSError:
            continue
        finally:
            s.close()
    return port + 1


def summary(board, st):
    """The final state as text lines: scores, phase, last error, lit LEDs, display."""
    lines = []
    if "scores" in st:
        lines.append("scores: " + ", ".join("%s %s" % (n, s) for n, s in st["scores"]))
    lines.append("phase: %s" % st.get("phase", "?"))
    lines.append("last error: %s" % (st.get("error") or "none"))
    refused = st.get("refused", 0)
    texts = st.get("refusals") or []
    for t in texts:
        lines.append("refused: %s" % t)
    if refused > len(texts):
        lines.append("refused: ... and %d more" % (refused - len(texts)))
    lit = board.lit(bytes.fromhex(st["frame"]))
    lines.append("lit LEDs: %d of %d" % (len(lit), board.count))
    for d in st.get("display") or []:
        if d:
            lines.append("display: %s" % d)
    return lines


def failures(a, sim, st):
    """Why a scripted run did not do what it was told (empty if it did): a key the board has
    not got, an entry the board refused, an autoplayed game that did not end where the
    engine's own game ended."""
    why = ["the driver could not do: %s" % e for e in sim.errors]
    if st.get("refused"):
        why.append("the board refused %d entr%s (see \"refused:\")"
                   % (st["refused"], "y" if st["refused"] == 1 else "ies"))
    m = a.engine
    if m is not None and a.upto is None and not a.user_keys:
        want = [int(s) for s in m.score[:m.sides]]
        got = [s for _n, s in st.get("scores", [])]
        if st.get("phase") != "over" or got != want:
            why.append("the autoplayed game did not reach its end: the board has %s, phase %s; "
                       "the engine's game ended %s" % (got, st.get("phase"), want))
    return why


def scripted(a):
    """Run the key script (a.script, the autoplayed game's keys, then a.user_keys: --keys)
    without the terminal UI on the board in a.storage, and print the final state. Exit status
    0 if it did what it was told, 1 if not (failures(): said on stderr)."""
    try:
        cmds = parse_keys(a.script + " " + (a.user_keys or ""))
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
        if a.autoplay is not None:
            print("autoplay: seed %d, %s%d players, game %d: %d key presses"
                  % (a.autoplay, "five-card, " if a.cards == 5 else "", a.players, a.game,
                     len(parse_keys(a.script))))
        cards = describe_cards(a.user_keys or "")
        if cards:
            print(cards)
        print("\n".join(summary(sim.board, st)))
        print("saved game: %s" % ("not kept (a scripted run plays on a temporary folder; "
                                  "--storage DIR keeps it)" if a.temporary else a.storage))
    if a.png:
        w, h = ui.save_png(sim.board, bytes.fromhex(st["frame"]), a.png, st.get("display"))
        print("wrote %s (%d x %d)" % (a.png, w, h))
    why = failures(a, sim, st)
    for w in why:
        sys.stderr.write("sim: %s\n" % w)
    return 1 if why else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", help="key script, run without the terminal UI: keypad keys (5C is 5 "
                    "then key C, the five of HEARTS: A-D = clubs diamonds hearts spades), or "
                    "cards written as cards: 5\u2665 or (5H)")
    ap.add_argument("--autoplay", type=int, metavar="SEED",
                    help="type a whole game the core's computer players play (seeded deck), "
                    "on a fresh board")
    ap.add_argument("--players", type=int, default=2, help="with --autoplay: 2 to 6 players")
    ap.add_argument("--game", type=int, default=None,
                    help="with --autoplay: 121 or 61 (default 121; 61 with --cards 5)")
    ap.add_argument("--cards", type=int, default=6, choices=(6, 5),
                    help="with --autoplay: 5 plays five-card cribbage (two players to 61, "
                    "set in the board's menu as a player would: docs/five-card.md)")
    ap.add_argument("--upto", type=int, metavar="N",
                    help="with --autoplay: stop after the first N entries (mid-game pictures)")
    ap.add_argument("--png", help="save a picture of the board (with --keys)")
    ap.add_argument("--show", action="store_true", help="print the board too (with --keys)")
    ap.add_argument("--json", action="store_true", help="print the final state as JSON")
    ap.add_argument("--storage", default=None, metavar="DIR",
                    help="folder for the saved game and settings (default: .sim/ for the "
                    "interactive board; a temporary folder, deleted after, for --keys and "
                    "--autoplay)")
    ap.add_argument("--fresh", action="store_true",
                    help="start a new game: forget the saved game (scores, games won), keep the "
                    "settings (players, game, muggins, ...)")
    ap.add_argument("--board", default="", choices=("", "pico", "pico_w", "esp32"),
                    help="run the real board module (firmware/hw/pico.py, pico_w.py or "
                    "esp32_devkit.py, its pin map) on fake machine/neopixel modules instead of "
                    "tools/host/fakeboard/fake.py")
    ap.add_argument("--no-display", action="store_true",
                    help="a board without the OLED: the LEDs give all the feedback")
    ap.add_argument("--firmware", default=None,
                    help="firmware tree to run (default firmware/; e.g. build/rp2040)")
    ap.add_argument("--web", type=int, default=0, metavar="PORT",
                    help="serve the live page on http://127.0.0.1:PORT/ as a board with Wi-Fi "
                    "does (the interactive board only)")
    ap.add_argument("--heap", default="512k",
                    help="MicroPython heap size (the unix port has 64-bit objects)")
    a = ap.parse_args(argv)
    if a.cards == 5 and (a.players != 2 or a.game not in (None, 61)):
        ap.error("--cards 5: five-card cribbage is two players to 61 (--players 2, --game 61)")
    if a.cards == 5 and a.autoplay is None:
        ap.error("--cards 5 goes with --autoplay (on the board: the menu's cards setting)")
    if a.game is None:
        a.game = 61 if a.cards == 5 else 121
    a.user_keys = a.keys
    a.script = ""
    a.engine = None  # with --autoplay: the engine's own game, where the board must end
    scripted_run = a.keys is not None or a.autoplay is not None
    if a.web and scripted_run:  # a scripted run's clock jumps: nothing could be served
        ap.error("--web serves the page from the interactive board (not with --keys/--autoplay)")
    if a.web and not 0 < a.web < 65536:
        ap.error("--web %d: a port is 1 to 65535 (make sim WEB=8080)" % a.web)
    if a.web:
        taken = port_taken(a.web)
        if taken:
            sys.stderr.write("sim: %s\n" % taken)
            return 2
        bad = wifi_file_fault(os.path.join(a.storage or STORAGE, "wifi.json"))
        if bad:
            sys.stderr.write("sim: %s\n" % bad)
            return 2
    with contextlib.ExitStack() as stack:
        a.temporary = a.storage is None and scripted_run
        if a.temporary:
            a.storage = stack.enter_context(tempfile.TemporaryDirectory(prefix="sim-"))
        elif a.storage is None:
            a.storage = STORAGE
        if a.autoplay is not None:  # the computer players' game starts on a new board
            forget(a.storage, GAME_FILES + SETTINGS_FILES)
        elif a.fresh:
            forget(a.storage, GAME_FILES)
        try:
            if a.autoplay is not None:
                script, a.engine = game_keys(a.autoplay, a.players, a.game, cards=a.cards)
                if a.upto is not None:
                    script = " ".join(script.split(" ")[:a.upto])
                a.script = script
            if scripted_run:
                return scripted(a)
            return interactive(a)
        except SimError as e:
            sys.stderr.write("sim: %s\n" % e)
            return 2
