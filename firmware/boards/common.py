"""Builds the hardware dict (see board/app.py) for a board running stock MicroPython:
a WS2812 strip on one pin, a 4x4 keypad, buttons, an optional SSD1306, ticks_ms, littlefs,
and Wi-Fi where the port has it (boards/wifi.py: the ESP32, the Pico W's firmware).
Only the per-board modules call this, with their pin numbers."""

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


def build(led_pin, rows, cols, buttons, i2c_pins, order="GRB", layout=None, setup=None,
          light=None):
    """order: the LEDs' colour order on the wire, "GRB" (WS2812B) or "RGB" (PL9823). setup,
    light: the board's own Wi-Fi pieces (boards/wifi.py's joiner; boards/pico_w.py)."""
    Pin = machine.Pin
    L = layout or Layout()
    strip = neopixel.NeoPixel(Pin(led_pin, Pin.OUT), L.count)
    if order != "GRB":  # neopixel's ORDER: where red, green, blue (and white) go in a pixel
        strip.ORDER = (order.index("R"), order.index("G"), order.index("B"), 3)
    from boards.wifi import joiner

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
    net = joiner(setup=setup, light=light)  # the live page (board/web.py) on a board with Wi-Fi
    if net is not None:
        hw["net"] = net
        from boards.wifi import broker  # the club's broker (board/publish.py), if named
        club = broker(uid=machine.unique_id())
        if club:  # (else board/publish.py is never loaded)
            hw["broker"] = lambda: club
    return hw
