"""Power that follows the game (issue 32): the LEDs dim after a while with no key, then
the LED rail goes off and the board sleeps; any key wakes it with the game as it was (that
key only wakes it). The room's light sets the brightness under the menu's; the battery's
voltage is shown, warned about when low, and before it is empty the game is saved and the
board stops, asking for a charge. hw["power"] (board/app.py) holds the pieces, all passed in."""

# States: ON, DIM (the LEDs at a quarter), OFF (the rail off, the strip not written, the
# board napping: lightsleep where the port has it), EMPTY (the battery is spent: the game
# saved, the rail off, the display asks for a charge; keys do nothing until it charges).
# "low" is a flag beside them: the display's second line warns.
#
# Battery thresholds (a 1-cell Li-ion through a boost): a cell is full at 4.2 V, nominal
# 3.6-3.7 V; under a light load little is left below 3.5 V (the knee of the discharge curve)
# and 3.0 V is the end of discharge most cells' datasheets give (Battery University BU-501
# "Basics about discharging"; e.g. Samsung INR18650-35E: discharge cut-off 2.65 V). So: warn
# at 3.5 V, save and stop at 3.3 V (margin over the cut-off and over a boost's own lockout:
# the board must still write the flash when it stops). A reading under 2 V is no battery (the
# divider reads 0 V on the 5 V supply alone): no warning then.

from micropython import const

from board.keypad import DOWN, KIND, UP, sleep_ms, ticks_diff
from board.modes import SAY

ON = const(0)
DIM = const(1)
OFF = const(2)
EMPTY = const(3)
STATES = ("on", "dim", "off", "empty")  # (the page's "power" field)

DIM_MS = 120000  # no key for 2 min: the LEDs dim
OFF_MS = 600000  # no key for 10 min: the rail off, the board sleeps
WARN_MV = 3500  # the battery is low: said on the display
STOP_MV = 3300  # about to be empty: save, rail off, "charge the board"
NO_BATTERY_MV = 2000  # under this, no battery is there (the mains supply): nothing to say
_AGAIN_MV = const(100)  # hysteresis: a warning clears, an empty board restarts, this far above
_DIM = const(64)  # the dim state's level (of 256)
_DARK = const(48)  # the level (of 256) in a dark room: the menu's brightness is the top
_TICK_MS = const(250)  # the task's period while on
_NAP_MS = const(200)  # one nap while off (lightsleep), then awake _AWAKE_MS for the key scan
_AWAKE_MS = const(60)
_WAKE = const(0xA0)  # board/keytimer.py's WAKE: a key's edge woke the sleeping board (the
# keypad hushes that key itself); a const here so that a board without the timer's keypad
# never loads keytimer.py


class Power:
    """The power states of app (board/app.py). rail(v): the LED rail's pin (1 on); light()
    and supply(): ADC readings 0..65535 (read_u16) or None; supply reads the battery through
    divider (volts at the battery per volt at the pin, full scale 3.3 V); nap(ms): the board's
    light sleep, or None (the asyncio loop simply idles); net: hw["net"] (hw/wifi.py's
    Net), whose radio is off while the board sleeps (sleep(), wake()), or None."""

    def __init__(self, app, rail, light=None, supply=None, sleep=None, divider=2,
                 dim_ms=DIM_MS, off_ms=OFF_MS, net=None):
        self.app = app
        self.net = net if hasattr(net, "sleep") else None
        self.rail = rail
        self.light = light
        self.supply = supply
        self.nap = sleep
        self.divider = divider
        self.dim_ms = dim_ms
        self.off_ms = off_ms
        self.state = ON
        self.low = False
        self.mv = -1  # the battery in mV (smoothed); 0: no battery; -1: not read yet
        self.shown = -1  # the mV the display and the page last said (0.01 V steps)
        self.level = 256  # the room's share of the menu's brightness (of 256, smoothed)
        self.seen = app.changes  # app.changes counts what keys (and the page) did
        self.last = app.clock()  # when the last of them happened
        self.waking = False  # the key that woke the board is still down: its events dropped
        self.on()  # (at the first frame: the app drew it before its tasks started this)

    def on(self):
        """The rail on and the strip written: the frame in the buffer (drawn at power-up,
        or kept while off) lights as it was."""
        self.rail(1)
        self.app.strip.write()

    def state_name(self):
        """"on", "dim", "off", "empty" (the page's "power" field); "low" when warned."""
        return "low" if self.low and self.state < OFF else STATES[self.state]

    # --- the app's hook: every turn of its loop ----------------------------------------

    def step(self, app, now):
        """app.step's first question: True while the board is off or empty (no key is
        handled, no frame drawn). The first key down while off wakes the board, and that key
        only wakes it: its events up to its release are dropped; the frame comes back before
        anything else (a keypad that queues WAKE, board/keytimer.py's, drops the waking key's
        events itself, a tap too short for a DOWN included). Allocates nothing."""
        if self.state < OFF and not self.waking:
            return False
        keys = app.keys
        while True:
            ev = keys.get()
            if ev < 0:
                return self.state >= OFF
            kind = ev & KIND
            if self.state == OFF:
                if kind == DOWN:
                    self.wake(now)
                elif kind == _WAKE:
                    self.wake(now)
                    self.waking = False  # (the keypad hushes the waking key)
                    return False
            elif self.state != EMPTY and kind == UP:  # the waking key let go: what comes
                self.waking = False  # after it is the game's
                return False

    def wake(self, now):
        """Off -> on: the rail, the display, the frame as it was."""
        app = self.app
        self.state = ON
        self.waking = True
        self.last = now
        self.seen = app.changes
        self.sleeping(False)
        d = app.display
        if d is not None and hasattr(d, "poweron"):
            d.poweron()
        self.bright()
        self.on()
        app.powered(self)  # (and drawn again at once: the blinks, the display's text)
        if self.net is not None:
            self.net.wake()  # (it joins again in its own task: the page, the club resume)

    def sleeping(self, v):
        """Tell the keypad the board sleeps (board/keytimer.py: a key's edge then wakes it)."""
        keys = self.app.keys
        if hasattr(keys, "sleeping"):
            keys.sleeping = v

    # --- the task's tick ---------------------------------------------------------------

    def tick(self, now):
        """Every _TICK_MS (and after each nap): what keys did, the supply, the room's light,
        the state that follows."""
        app = self.app
        if app.changes != self.seen:  # a key (or the page) did something
            self.seen = app.changes
            self.last = now
            if self.state == DIM:
                self.state = ON
        self.read_supply()
        mv = self.mv
        if self.state == EMPTY:
            if mv <= 0 or mv >= STOP_MV + _AGAIN_MV:  # charging, or on the mains
                self.low = False
                self.state = OFF
                self.wake(now)
                self.waking = False
            return
        if 0 < mv < STOP_MV:
            self.stop()
            return
        self.low = mv > 0 and (mv < WARN_MV or (self.low and mv < WARN_MV + _AGAIN_MV))
        if self.state != OFF:
            idle = ticks_diff(now, self.last)
            if idle >= self.off_ms:
                self.off()
            elif idle >= self.dim_ms:
                self.state = DIM
            self.bright()
        self.say()

    def read_supply(self):
        if self.supply is None:
            return
        mv = self.supply() * 3300 * self.divider // 65535  # (< 2**30 with a divider up to 4)
        if mv < NO_BATTERY_MV:
            self.mv = 0
        elif self.mv <= 0:
            self.mv = mv
        else:
            self.mv = (3 * self.mv + mv) >> 2  # smoothed: the LEDs' current makes it ripple

    def bright(self):
        """The renderer's brightness: the menu's setting, times the room's light (a dark room
        _DARK of it; unless the menu's auto-dimming is off), times _DIM when dim."""
        app = self.app
        level = 256
        if self.light is not None and app.cfg.get("auto-dimming"):  # (the menu's setting
            # off: the brightness as set, whatever the room)
            room = _DARK + (256 - _DARK) * (self.light() >> 8) // 255
            level = self.level  # smoothed: a quarter of the way at each tick, and all of it
            level += (room - level + 3) >> 2 if room > level else -((level - room + 3) >> 2)
            self.level = level
        else:
            self.level = 256  # (turned on again: from the full setting, to the room's)
        if self.state == DIM:
            level = level * _DIM >> 8
        top = app.cfg.get("bright")
        b = top * level >> 8
        if b < 1 and top:
            b = 1
        r = app.renderer
        if r.brightness != b:
            r.brightness = b
            app.powered(self)

    def off(self):
        """On/dim -> off: the rail off (the strip keeps its buffer, unwritten), the display
        off; the task naps from now on."""
        self.state = OFF
        self.waking = False
        self.rail(0)
        d = self.app.display
        if d is not None and hasattr(d, "poweroff"):
            d.poweroff()
        if self.net is not None:
            self.net.sleep()  # the radio off (a Pico W connected cannot sleep)
        self.sleeping(True)

    def stop(self):
        """The battery is about to be empty: the game saved, the rail off, the display says
        to charge (keys do nothing until the supply comes back)."""
        app = self.app
        self.state = EMPTY
        self.low = True
        self.rail(0)
        if self.net is not None:
            self.net.sleep()
        app.save()  # (each entry is saved after its frame: this writes one still pending)
        d = app.display
        if d is not None:
            if hasattr(d, "poweron"):
                d.poweron()
            from board.screen import draw
            draw(d, app.lines())
        self.say(True)

    def say(self, now=False):
        """The display and the page follow the supply: in 0.01 V steps, or at once."""
        mv = self.mv // 10 if self.mv > 0 else 0
        if now or (mv != self.shown and (mv == 0 or abs(mv - self.shown) >= 5 or self.low)):
            self.shown = mv
            app = self.app
            app.apply((SAY, app.msg))  # (the door for what only changes what is shown: the
            self.seen = app.changes  # display is drawn again, the page's state made again)

    def lines(self, out):
        """The display's lines with the supply's (board/text.py): empty, the charge message
        alone; low, a warning under the scores; else the battery's voltage if there is room."""
        if self.state == EMPTY:
            out[:] = ("battery empty", "game saved:", "charge the board")
            return out
        mv = self.shown
        if mv <= 0:
            return out
        s = "%s %d.%02dV" % ("LOW batt" if self.low else "batt", mv // 100, mv % 100)
        if self.low:
            out.insert(1, s)
            if len(out) > 8:
                out.pop()
        elif len(out) < 8:
            out.append(s)
        return out


async def task(app):
    """The power states' asyncio task (board/tasks.py starts it when hw has "power")."""
    p = app.power
    if p is None:
        p = Power(app, net=app.hw.get("net"), **app.hw["power"])
        app.powered(p)
    while True:
        try:
            p.tick(app.clock())
        except Exception as e:  # noqa: BLE001  (the game goes on; the power states wait)
            print("power:", repr(e))
        if p.state == OFF and p.nap is not None:
            p.nap(_NAP_MS)  # the whole board sleeps here
            await sleep_ms(_AWAKE_MS)  # and wakes for the keypad's scans
        else:
            await sleep_ms(_TICK_MS)
