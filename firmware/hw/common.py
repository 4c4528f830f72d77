"""Builds the hardware dict (see board/app.py) for a board running stock MicroPython:
a WS2812 strip on one pin, a 4x4 keypad scanned by a machine.Timer, buttons, an optional
SSD1306, ticks_ms, littlefs, and Wi-Fi where the port has it (hw/wifi.py: the ESP32, the
Pico W's firmware). Only the per-board modules call this, with their pin numbers."""

import time

import machine
import neopixel

from board.layout import Layout


def _display(i2c_pins):
    """The SSD1306 if one answers on the bus (and the ssd1306 driver is installed), else None."""
    try:
        bus, sda, scl = i2c_pins
        i2c = machine.I2C(bus, sda=machine.Pin(sda), scl=machine.Pin(scl), freq=400000)
        if 0x3C not in i2c.scan():
            return None
        import ssd1306  # mpremote mip install ssd1306

        return ssd1306.SSD1306_I2C(128, 64, i2c)
    except (ImportError, OSError, ValueError):
        return None


def _timer(timer_id):
    """board/keytimer.py's timer(scan, ms): machine.Timer(timer_id) calling scan(t) every ms
    (again: set up afresh; scan None: stopped); None without an id, or on a port without
    machine.Timer."""
    if timer_id is None or not hasattr(machine, "Timer"):
        return None
    t = machine.Timer(timer_id)

    def every(scan, ms):
        if scan is None:
            t.deinit()
        else:
            t.init(mode=machine.Timer.PERIODIC, period=ms, callback=scan)

    return every


def _watch(pins, sleeps):
    """board/keytimer.py's watch(handler): handler(pin) on a falling edge of any of pins (the
    keypad's columns and buttons: Pin.irq, soft), or disarmed (None). On the rp2 a GPIO
    interrupt also ends a machine.lightsleep; on the ESP32 a light sleep ends on a pin held
    low only through esp32.wake_on_gpio, set here once on a board that sleeps (sleeps: it has
    the power states; the port makes those pins' interrupts level-triggered while asleep)."""
    Pin = machine.Pin
    if sleeps:
        try:
            import esp32  # pyright: ignore[reportMissingImports]

            esp32.wake_on_gpio(pins, esp32.WAKEUP_ALL_LOW)  # (each pin low wakes)
        except (ImportError, AttributeError, ValueError, OSError):
            pass

    def watch(handler):
        for p in pins:
            p.irq(handler=handler, trigger=Pin.IRQ_FALLING if handler is not None else 0)

    return watch


def build(led_pin, rows, cols, buttons, i2c_pins, order="GRB", layout=None, setup=None,
          light=None, timer_id=None, power=None):
    """order: the LEDs' colour order on the wire, "GRB" (WS2812B) or "RGB" (PL9823). setup,
    light: the board's own Wi-Fi pieces (hw/wifi.py's joiner; hw/pico_w.py).
    timer_id: the machine.Timer that scans the keypad (board/keytimer.py), so no key is lost
    while the page or a save holds the loop; None: the keypad's task scans. power: (the LED
    rail's pin, the light's ADC pin, the supply's ADC pin, its divider) for board/power.py, or
    None (no power states)."""
    Pin = machine.Pin
    L = layout or Layout()
    strip = neopixel.NeoPixel(Pin(led_pin, Pin.OUT), L.count)
    if order != "GRB":  # neopixel's ORDER: where red, green, blue (and white) go in a pixel
        strip.ORDER = (order.index("R"), order.index("G"), order.index("B"), 3)
    from hw.wifi import joiner

    hw = {
        "layout": L,
        "strip": strip,
        "rows": [Pin(p, Pin.OPEN_DRAIN, value=1) for p in rows],
        "cols": [Pin(p, Pin.IN, Pin.PULL_UP) for p in cols],
        "buttons": [Pin(p, Pin.IN, Pin.PULL_UP) for p in buttons],
        "display": _display(i2c_pins),
        "clock": time.ticks_ms,
        "sleep_ms": time.sleep_ms,
        "storage_dir": "/data",
        "fs": None,
        "watchdog": lambda ms: machine.WDT(timeout=ms),
    }
    if power is not None:  # board/power.py's pieces: the rail off until the first frame
        rail, light_adc, supply_adc, divider = power
        hw["power"] = {"rail": Pin(rail, Pin.OUT, value=0).value,
                       "light": machine.ADC(Pin(light_adc)).read_u16,
                       "supply": machine.ADC(Pin(supply_adc)).read_u16, "divider": divider,
                       "sleep": getattr(machine, "lightsleep", None)}
    timer = _timer(timer_id)
    if timer is not None:
        from board.keytimer import TimedKeypad

        cols = hw.pop("cols")
        buttons = hw.pop("buttons")
        hw["keys"] = TimedKeypad(hw.pop("rows"), cols, buttons, timer,
                                 watch=_watch(cols + buttons, power is not None))
    net = joiner(setup=setup, light=light)  # the live page (board/web.py) on a board with Wi-Fi
    if net is not None:
        hw["net"] = net
        from hw.wifi import broker  # the club's broker (board/publish.py), if named
        club = broker(uid=machine.unique_id())
        if club:  # (else board/publish.py is never loaded)
            hw["broker"] = lambda: club
    return hw
