"""MicroPython side of the simulator: run the real board app on the host board (fake hardware).

Run by tools/sim/runner.py under the micropython binary with MICROPYPATH=tools/sim:<firmware tree>:
    micropython mp_driver.py STORAGE_DIR realtime|virtual [display|nodisplay [BOARD [WEB_PORT]]]

It builds the hardware with tools/host/fakeboard/fake.py -- or, given BOARD (pico, esp32_devkit),
with that real board module on the fake machine/neopixel/ssd1306 of tools/sim/standins/; given
WEB_PORT, it serves the live page (board/web.py) on 127.0.0.1:WEB_PORT (realtime only) -- with the
storage in STORAGE_DIR on the host (a restarted simulator resumes the saved game; a folder an
update left slots in boots through the loader, boot_loader(), into the slot's version), starts
the app exactly as firmware/main.py does on a board, and talks to the host over stdin/stdout,
one line each:

  host -> driver: key NAME HOLD_MS GAP_MS   press NAME (a keypad or button name), hold, release,
                                            then let GAP_MS pass
                  tap NAME HOLD_MS GAP_MS   the same key's events (down, long if HOLD_MS is a
                                            long press, up) queued as the scan would, with no
                                            clock between them, then let GAP_MS pass: a
                                            script that must mean the same on a loaded
                                            machine in real time (a press held past long_ms
                                            by a stalled process would be a long one)
                  wait MS                   let MS pass
                  state                     ask for the board's state now
                  quit                      stop (the saved game stays)
  driver -> host: LAYOUT {json}             once: every LED's x/y (mm) and kind, byte order, keys
                  STATE {json}              frame (strip buffer, hex), display lines, app state
                  ERROR text                a command the driver could not do
  anything else the app prints is passed through (the host shows or logs it).

"virtual" time (scripted runs, tests): asyncio's clock is replaced by one that jumps to the next
timer when every task sleeps (VirtualTime), so a whole game runs in well under a second and
always the same way, however busy the machine: the app's clock counts virtual ms from 0 and
nothing the app or asyncio does waits on the real clock. "realtime": the real clock, stdin
polled every 10 ms (the interactive terminal UI).

STATE's "error" and "refusals" (the first ten entries the app refused; "refused" counts them
all) name players as the display does ("Red", "Blue2"), never the engine's seats.
"""

import sys

import asyncio
import asyncio.core as _core
import gc
import io
import json
import time
from binascii import hexlify

try:
    import select
except ImportError:  # pragma: no cover
    select = None



def boot_loader(argv):
    """A board whose flash has app slots (an update installed: STORAGE/slots.rec) boots
    through its loader, firmware/slots.py, as firmware/main.py has it: the slot the record
    names (a trial boot counted, a failed trial gone back, its image mounted) goes first on
    sys.path, so the simulator runs the version the board would, from its slot (issue 31).
    STORAGE is the board's root: the process works there, as a board's cwd is "/". Returns
    (STORAGE, the loader's note, or None), before any of the app's modules is imported."""
    import os

    storage = argv[1] if len(argv) > 1 else ".sim"
    try:
        os.stat(storage + "/slots.rec")
    except OSError:
        return storage, None
    if storage[:1] != "/":
        storage = os.getcwd() + "/" + storage
    os.chdir(storage)
    import slots

    slots.start()
    return storage, slots.note()


_BOOTED = boot_loader(sys.argv) if __name__ == "__main__" else (None, None)

from board.keypad import KEYS_4X4, BUTTON_NAMES  # noqa: E402  (after the loader: the slot's)
from fakeboard import fake  # noqa: E402


# asyncio's clock runs this far ahead of the real one in virtual time (a quarter of the 2**30
# ticks period; within the +-2**29 that ticks_diff can tell apart): see VirtualTime.
_AHEAD = 1 << 28


class VirtualTime:
    """asyncio's clock and its idle wait, replaced: waiting advances the clock instead, so a
    scripted run never depends on how fast the machine is.

    The app reads ticks() (hw["clock"]): virtual milliseconds from 0 at the start. asyncio
    orders its tasks by `now`, the same time kept _AHEAD of the real clock, because C code in
    asyncio still stamps some tasks with the real time (a task created, woken, or cancelled):
    such a stamp is always in the virtual past, so the task runs at once, as it would on a
    board, and never makes the clock jump. create_task() is patched to stamp a new task with
    the virtual time, the one such push the app makes in normal play."""

    def __init__(self):
        self.now = time.ticks_add(time.ticks_ms(), _AHEAD)
        self.start = self.now

    def ticks(self):
        """The app's clock: virtual ms since the start (wraps at 2**30, as ticks_ms does)."""
        return time.ticks_diff(self.now, self.start) & 0x3FFFFFFF

    def sched_ticks(self):
        return self.now

    def wait_io_event(self, dt):
        if dt > 0:
            self.now = time.ticks_add(self.now, dt)

    def sleep_ms(self, ms):
        """A blocking sleep (the app's boot check uses one): the clock just moves on."""
        self.now = time.ticks_add(self.now, ms)

    def create_task(self, coro, _orig=_core.create_task):
        t = _orig(coro)
        q = _core._task_queue
        q.remove(t)  # pushed with the real time: now the virtual time instead
        q.push(t, self.now)
        return t

    def install(self):
        _core.ticks = self.sched_ticks
        _core._io_queue.wait_io_event = self.wait_io_event
        _core.create_task = asyncio.create_task = self.create_task


def out(kind, obj):
    sys.stdout.write(kind + " " + json.dumps(obj) + "\n")


def describe(hw):
    """Send the board's geometry to the host, from the layout object the app uses: written
    piece by piece (a list of 253 pixels with boxed floats would take 40 KB of heap)."""
    L = hw["layout"]
    w = sys.stdout.write
    w('LAYOUT {"pixels": [')
    for p in range(L.count):
        kind, lane, n = L.what(p)
        x, y = L.xy(p)
        w('%s[%s, %s, %d, %d, %d]' % ("," if p else "", repr(float(x)), repr(float(y)),
                                      kind, lane, n))
    strip = hw["strip"]
    order = getattr(strip, "ORDER", (1, 0, 2, 3))
    keys = hw["sim_keys"].names
    w('], "order": [%d, %d, %d], "bpp": %d, "keys": %s}\n'
      % (order[0], order[1], order[2], getattr(strip, "bpp", 3), json.dumps(keys)))


class FakeKeys:
    """Key presses on tools/host/fakeboard/fake.py's keypad matrix and buttons."""

    def __init__(self, hw):
        self.matrix = hw["fake_matrix"]
        self.buttons = hw.get("fake_buttons") or []
        self.names = self.matrix.names + BUTTON_NAMES[:len(self.buttons)]

    def set(self, name, down):
        if name in self.matrix.names:
            if down:
                self.matrix.press(name)
            else:
                self.matrix.release(name)
        elif name in self.names:
            self.buttons[self.names.index(name) - len(self.matrix.names)].pressed = down
        else:
            raise ValueError("no key %r on this board" % (name,))


class WiredKeys:
    """Key presses on a real board module's pins, through the fake machine module."""

    def __init__(self, machine, mod):
        self.names = KEYS_4X4 + BUTTON_NAMES[:len(mod.BUTTONS)]
        machine.wire(mod.ROWS, mod.COLS, mod.BUTTONS, self.names)
        self.machine = machine

    def set(self, name, down):
        if name not in self.names:
            raise ValueError("no key %r on this board" % (name,))
        if down:
            self.machine.press(name)
        else:
            self.machine.release(name)


class Driver:
    def __init__(self, hw, app, realtime):
        self.hw = hw
        self.app = app
        self.realtime = realtime
        self.done = False
        self.crash = ""
        self.poller = None
        if realtime and select:
            self.poller = select.poll()
            self.poller.register(sys.stdin, select.POLLIN)

    def press(self, name, down):
        self.hw["sim_keys"].set(name, down)

    def state(self):
        st = {"frame": hexlify(self.hw["strip"].buf).decode()}
        if self.crash:
            st["crash"] = self.crash
        d = self.hw.get("display")
        if d is not None:
            st["display"] = list(d.shown)
        p = self.app.power  # the power states (board/power.py; the fake board's pieces)
        if p is not None:
            st["power"] = p.state_name()
            st["rail"] = p.rail()
            st["supply_mv"] = p.mv
        try:
            st.update(app_state(self.app))
        except Exception as e:
            buf = io.StringIO()
            sys.print_exception(e, buf)
            st["crash"] = st.get("crash", "") + buf.getvalue()
        out("STATE", st)

    async def command(self, line):
        w = line.split()
        if not w:
            return
        try:
            if w[0] == "key":
                hold = int(w[2]) if len(w) > 2 else 80
                gap = int(w[3]) if len(w) > 3 else 80
                self.press(w[1], True)
                await asyncio.sleep_ms(hold)
                self.press(w[1], False)
                await asyncio.sleep_ms(gap)
            elif w[0] == "tap":
                tap(self.app, w[1], int(w[2]))
                await asyncio.sleep_ms(int(w[3]))
            elif w[0] == "wait":
                await asyncio.sleep_ms(int(w[1]))
            elif w[0] == "state":
                self.state()
            elif w[0] == "quit":
                self.done = True
            else:
                raise ValueError("unknown command %r" % (w[0],))
        except ValueError as e:
            sys.stdout.write("ERROR %s\n" % (e,))

    async def read_line(self):
        """The next command line: blocking in virtual time, polled in real time."""
        if not self.realtime:
            return sys.stdin.readline()
        while True:
            if self.poller is None or self.poller.poll(0):
                return sys.stdin.readline()
            await asyncio.sleep_ms(10)

    async def run(self):
        while not self.done:
            line = await self.read_line()
            if not line:  # end of input: the script is over
                break
            await self.command(line)
        await asyncio.sleep_ms(0)


# --- the seam to the app: the only part that knows the app's names -----------------------
# (firmware/board/app.py documents hw: App(hw), boot(); firmware/board/tasks.py: tasks(app))

def start_app(hw):
    """Build the app the way firmware/main.py's board.tasks.run(hw) does, with the host board."""
    from board.app import App

    app = App(hw)
    count_refusals(app)
    app.boot()  # a key held at power-up starts the LED self-test, as on the board
    return app


_KEPT = 10  # refusals whose text is kept (all are counted)


def tap(app, name, hold):
    """Queue key name's events on the app's keypad (board/keypad.py's put(), as its scan
    does): down, long if hold reaches its long_ms, up."""
    from board.keypad import DOWN, LONG, UP

    keys = app.keys
    k = keys.names.find(name) if len(name) == 1 else -1
    if k < 0:
        raise ValueError("no key %r" % (name,))
    keys.put(DOWN | k)
    if hold >= keys.long_ms:
        keys.put(LONG | k)
    keys.put(UP | k)


def count_refusals(app):
    """Count every entry the app refuses (app.refuse: the display's "!" line and the red
    flash), keeping the first few texts named as the display names them: a scripted run
    whose keys were refused did not do what it was told, even if a later key cleared it."""
    refuse = app.refuse
    app.refused = 0
    app.refusals = []

    def counted(text):
        refuse(text)
        app.refused += 1
        if len(app.refusals) < _KEPT:
            app.refusals.append(named(app, text))

    app.refuse = counted


def named(app, text):
    """A refusal's text as the display shows it: the engine's "seat 1" named as the player
    (board/text.py's who(): "Blue", "Red2")."""
    from board.text import who

    return who(app.m, text) if text else ""


def app_main(app):
    """The app's main coroutine (board/tasks.py's tasks: keypad scan, keys -> engine ->
    frame)."""
    from board.tasks import tasks

    return tasks(app, 20)


def app_state(app):
    """What the host prints at the end of a scripted run: scores, phase, last error."""
    from board import screen
    from cribbage import match as M

    m = app.m
    phases = {M.DEAL: "deal", M.STARTER: "starter", M.PLAY: "play", M.SHOW: "show",
              M.OVER: "over"}
    st = {
        "scores": [[screen.SIDE_NAMES[s], m.score[s]] for s in range(m.sides)],
        "games": [m.games[s] for s in range(m.sides)],
        "phase": phases.get(m.phase, str(m.phase)),
        "error": named(app, app.err),
        "refused": app.refused,
        "refusals": app.refusals,
        "lines": app.lines(),
        "target": m.target,
        "players": m.players,
    }
    if m.cards() == 5:  # five-card cribbage (six-card: no key, as before)
        st["cards"] = 5
    if m.phase == M.OVER:
        st["winner"] = screen.SIDE_NAMES[m.winner]
    return st


async def guarded(coro, drv):
    """Run the app; if it raises, keep the traceback for the host (the board would reboot)."""
    try:
        await coro
    except Exception as e:  # any crash of the app is what we report
        buf = io.StringIO()
        sys.print_exception(e, buf)
        drv.crash = buf.getvalue()


def build_hw(storage, display, board):
    """The hardware: tools/host/fakeboard/fake.py, or (board given) the real board module built
    on the fake machine/neopixel/ssd1306 modules in tools/sim/standins/."""
    if not board:
        # the two "+1" buttons the Pico and ESP32 boards have (hw/pico.py BUTTONS)
        hw = fake.build(storage_dir=storage, display=display, buttons=2)
        from fakeboard.fakepower import pieces  # the power states (board/power.py): a full-bright
        hw["power"] = pieces(hw["display"])  # room, no battery
        hw["sim_keys"] = FakeKeys(hw)
        return hw
    import machine

    machine.PLATFORM = {"pico": "rp2", "pico_w": "rp2w"}.get(board, "esp32")
    machine.I2C.devices = [0x3C] if display else []
    mod = getattr(__import__("hw." + board), board)
    hw = mod.build()
    hw["storage_dir"] = storage  # not /data: a folder on the host
    hw["sim_keys"] = WiredKeys(machine, mod)
    return hw


def sim_reset():
    raise SystemExit("machine.reset()")


async def localhost():
    """The simulator's network: the live page is served on this machine only."""
    return "127.0.0.1"


async def main(storage, realtime, display=True, board="", web=0):
    hw = build_hw(storage, display, board)
    if web:  # the live page (board/web.py), as a board with Wi-Fi serves it
        hw["net"] = localhost
        hw["web_port"] = web
        hw["web_host"] = "127.0.0.1"
        from hw import wifi  # the club's broker, if STORAGE/wifi.json names one
        wifi.PATH = storage + "/wifi.json"  # (the page's /club says what is wrong with it)
        club = wifi.broker(wifi.PATH, b"sim")
        if club:
            hw["broker"] = lambda: club
        hw["sim_kind"] = "rp2040"  # an update's bundle (ota/order.py): the Pico W's, whose slots
        # go into STORAGE beside its Wi-Fi file; its restart into the new version ends the
        hw["sim_reset"] = sim_reset  # simulator (the flash it leaves is the board's)
        hw["sim_root"] = storage  # (the slots' flash: the board's root)
    if realtime:
        hw["clock"] = time.ticks_ms
        hw["sleep_ms"] = time.sleep_ms
    else:
        vt = VirtualTime()
        vt.install()
        hw["clock"] = vt.ticks
        hw["sleep_ms"] = vt.sleep_ms
    if _BOOTED[1]:
        hw["note"] = _BOOTED[1]  # (as firmware/main.py hands the app the loader's note)
    describe(hw)
    gc.collect()  # the description is garbage now: give the app an unfragmented heap
    app = start_app(hw)
    drv = Driver(hw, app, realtime)
    task = asyncio.create_task(guarded(app_main(app), drv))
    await asyncio.sleep_ms(50)  # let the app boot and draw its first frame
    await drv.run()
    drv.state()
    task.cancel()


def run(argv):
    storage = _BOOTED[0] or (argv[1] if len(argv) > 1 else ".sim")
    realtime = len(argv) > 2 and argv[2] == "realtime"
    display = not (len(argv) > 3 and argv[3] == "nodisplay")
    board = argv[4] if len(argv) > 4 else ""
    web = int(argv[5]) if len(argv) > 5 and argv[5] else 0
    asyncio.run(main(storage, realtime, display, board, web))


if __name__ == "__main__":
    run(sys.argv)
