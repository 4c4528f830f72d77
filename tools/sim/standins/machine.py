"""A fake `machine` module for the simulator: the real board modules (firmware/hw/pico.py,
esp32_devkit.py) build their hardware with it under the micropython binary.

Only on MICROPYPATH when the simulator runs a real board module (tools/sim --board pico),
and in host_tests/test_board_hw.py. Pins check what the port would refuse: pins that do
not exist, the ESP32's flash pins (6-11) and its input-only pins (34-39: no output, no
pull-up; ValueError, as the port raises), a watchdog timeout the RP2040 cannot count (over
8388 ms); and a wiring mistake (WiringError, which no board code catches): a pin built twice
(two parts on one pin), a mode or pull that is not one of Pin's, a write to a pin that is not
an output; an I2C bus given pin numbers instead of Pins is a TypeError.
The keypad is wired by pin number: wire(rows, cols, buttons, names) says which pins are which
(names: the matrix keys, row by row, then one per button), press(name)/release(name) move a
key, and a column pin reads 0 while a pressed key joins it to a row driven low; a column or
button pin whose irq(handler, IRQ_FALLING) is armed calls handler(pin) when a press() pulls
it low (as the port's soft interrupt would, at once). A pin in `grounded` (the PCB's strap,
hw/pico.py's PCB_STRAP) reads 0, as does an input with its pull-down; Pin.init changes a
pin's mode and pull; `adc` holds what each ADC pin reads.
"""

PLATFORM = "rp2"  # set by the simulator's driver: "rp2", "rp2w" (the Pico W) or "esp32"

_pins = {}
_wiring = {"rows": (), "cols": (), "buttons": (), "names": "", "down": set()}


class WiringError(Exception):
    """A mistake in a board module's wiring that the port itself might let pass."""


def _check(pin_id, mode, pull):
    if pin_id in _pins:
        raise WiringError("pin %r built twice: two parts wired to one pin" % (pin_id,))
    if mode not in (-1, Pin.IN, Pin.OUT, Pin.OPEN_DRAIN) or pull not in (-1, Pin.PULL_UP,
                                                                         Pin.PULL_DOWN):
        raise WiringError("pin %r: no mode %r or pull %r on Pin" % (pin_id, mode, pull))
    if PLATFORM == "rp2w":  # the Pico W: GP23-25 and GP29 are the radio's; "LED" is on it
        if pin_id != "LED" and not (isinstance(pin_id, int) and (0 <= pin_id <= 22
                                                                 or 26 <= pin_id <= 28)):
            raise ValueError("invalid pin %r on the Pico W (GP0-GP22, GP26-GP28, \"LED\")"
                             % (pin_id,))
    elif PLATFORM == "rp2":
        if not (isinstance(pin_id, int) and 0 <= pin_id <= 29) or pin_id in (23, 24):
            raise ValueError("invalid pin %r on the RP2040 (GP0-GP22, GP25-GP29)" % (pin_id,))
    elif PLATFORM == "esp32":
        if not (isinstance(pin_id, int) and 0 <= pin_id <= 39) or pin_id in (20, 24, 28, 29,
                                                                              30, 31):
            raise ValueError("invalid pin %r on the ESP32" % (pin_id,))
        if 6 <= pin_id <= 11:
            raise ValueError("GPIO %d is wired to the ESP32's flash" % pin_id)
        if pin_id >= 34 and (mode in (Pin.OUT, Pin.OPEN_DRAIN) or pull == Pin.PULL_UP):
            raise ValueError("GPIO %d is input only, without pull-ups" % pin_id)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        _check(pin_id, mode, pull)
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.level = 1 if value is None else (1 if value else 0)
        self.handler = None  # irq(): called on a falling edge (press())
        _pins[pin_id] = self

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        if trigger not in (0, Pin.IRQ_FALLING, Pin.IRQ_RISING, Pin.IRQ_FALLING | Pin.IRQ_RISING):
            raise ValueError("irq: no trigger %r" % (trigger,))
        self.handler = handler if trigger & Pin.IRQ_FALLING else None

    def value(self, v=None):
        if v is not None:
            if self.mode not in (Pin.OUT, Pin.OPEN_DRAIN):
                raise WiringError("pin %r is not an output: it cannot be written" % (self.id,))
            self.level = 1 if v else 0
            return None
        w = _wiring
        if self.id in w["cols"]:
            c = w["cols"].index(self.id)
            n = len(w["cols"])
            for r in range(len(w["rows"])):
                row = _pins.get(w["rows"][r])
                if row is not None and not row.level and w["names"][r * n + c] in w["down"]:
                    return 0
            return 1
        if self.id in w["buttons"]:
            k = len(w["rows"]) * len(w["cols"]) + w["buttons"].index(self.id)
            return 0 if w["names"][k] in w["down"] else 1
        if self.id in grounded or (self.mode == Pin.IN and self.pull == Pin.PULL_DOWN):
            return 0
        return self.level

    def init(self, mode=-1, pull=-1, value=None):
        if mode not in (-1, Pin.IN, Pin.OUT, Pin.OPEN_DRAIN) or pull not in (-1, Pin.PULL_UP,
                                                                             Pin.PULL_DOWN):
            raise WiringError("pin %r: no mode %r or pull %r on Pin" % (self.id, mode, pull))
        self.mode = self.mode if mode == -1 else mode
        self.pull = pull
        if value is not None:
            self.level = 1 if value else 0

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.level = 1

    def off(self):
        self.level = 0


grounded = set()  # pin ids tied to ground on the board (the PCB's strap): they read 0
adc = {}  # pin id -> what its ADC reads (0..65535): the light and the supply (board/power.py)


class ADC:
    """An ADC on a Pin: read_u16() gives adc[pin id] (0 when unset: no battery)."""

    def __init__(self, pin):
        self.id = pin.id

    def read_u16(self):
        return adc.get(self.id, 0)


class I2C:
    """A bus with an SSD1306 at 0x3C when the simulated board has a display."""

    devices = [0x3C]

    def __init__(self, bus_id, sda=None, scl=None, freq=400000):
        if not (isinstance(sda, Pin) and isinstance(scl, Pin)):
            raise TypeError("I2C(%r): sda and scl must be Pins" % (bus_id,))
        self.bus_id = bus_id
        self.sda = sda
        self.scl = scl

    def scan(self):
        return list(I2C.devices)

    def writeto(self, addr, buf, stop=True):
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        return None


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 0 < timeout <= (8388 if PLATFORM == "rp2" else 0x7FFFFFFF):
            raise ValueError("WDT timeout %r ms out of range" % (timeout,))
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def wire(rows, cols, buttons, names):
    """Tell the fake which pins the keypad rows, columns and buttons are on."""
    _wiring["rows"] = tuple(rows)
    _wiring["cols"] = tuple(cols)
    _wiring["buttons"] = tuple(buttons)
    _wiring["names"] = names


def press(name):
    if name not in _wiring["names"]:
        raise ValueError("no key %r on this board" % (name,))
    low = [p for p in _pins.values() if p.handler is not None and not p.value()]
    _wiring["down"].add(name)
    for p in list(_pins.values()):  # the falling edges: armed pins low now, not before
        if p.handler is not None and p not in low and not p.value():
            p.handler(p)


def release(name):
    _wiring["down"].discard(name)


def reset():
    raise SystemExit("machine.reset()")
