"""The power states' fake pieces (board/power.py's hw["power"]) for fakeboard/fake.py's board:
the LED rail's pin, the light's and the supply's ADCs, machine.lightsleep, and the display's
poweroff()/poweron() (the ssd1306 driver's). For the tests and the simulator."""


class Rail:
    """The LED rail's pin: rail(1) on, rail(0) off, rail() reads it; off at power-up."""

    def __init__(self):
        self.level = 0
        self.ons = 0  # times it was switched on

    def __call__(self, v=None):
        if v is None:
            return self.level
        if v and not self.level:
            self.ons += 1
        self.level = 1 if v else 0


class Adc:
    """An ADC's read_u16: returns .value (0..65535), set by the test or the simulator."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self):
        return self.value


class Nap:
    """machine.lightsleep(ms) on the host: counts the naps and their ms (the asyncio loop's
    own wait keeps the time, virtual in the simulator)."""

    def __init__(self):
        self.naps = 0
        self.ms = 0

    def __call__(self, ms):
        self.naps += 1
        self.ms += ms


def pieces(display=None):
    """hw["power"]: a full-bright room, no battery (0 V: the mains); the display (if any)
    gets poweroff()/poweron(), its .on saying which."""
    if display is not None:
        display.on = True

        def off():
            display.on = False

        def on():
            display.on = True

        display.poweroff = off
        display.poweron = on
    return {"rail": Rail(), "light": Adc(65535), "supply": Adc(0), "sleep": Nap()}
