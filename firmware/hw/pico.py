"""Raspberry Pi Pico (RP2040) wiring. Pins (GPIO numbers), all at 3.3 V:

  LED data   GP0 -> 74AHCT125 -> 330 ohm -> strip DIN (5 V strip, 1000 uF across the supply)
  keypad     rows GP2 GP3 GP4 GP5 (open drain), columns GP6 GP7 GP8 GP9 (pull-ups)
  buttons    GP10 GP11 (+1 for side 1 / side 2; to ground, pull-ups)
  display    I2C0: SDA GP20, SCL GP21, SSD1306 at 0x3C (optional: found by a bus scan)
  LED rail   GP22 high = the LEDs' 5 V on (the PCB's P-MOSFET switch, docs/pcb.md); its gate
             is pulled off, so the rail stays off from power-up until the firmware drives it
  light      GP27 = ADC1: a phototransistor into 10k, higher = brighter room
  supply     GP28 = ADC2: the battery's voltage through 100k/100k (half of it; 0 V = no
             battery, on the mains supply). Not GP29/ADC3 (the Pico's own VSYS/3): on the
             Pico W GP29 is also the radio's clock line, so it cannot be read while Wi-Fi runs
  PCB strap  GP13 (pin 17) tied to GND (pin 18, beside it) on the PCB: the last three (the
             power parts) are there. A strip or through-hole build leaves GP13 open and has
             no power parts: GP22/27/28 are then left alone (a floating GP28 would read as a
             battery running flat and stop the board), and the board has no power states.
"""

LED_PIN = 0
ROWS = (2, 3, 4, 5)
COLS = (6, 7, 8, 9)
BUTTONS = (10, 11)
I2C = (0, 20, 21)  # bus id, sda, scl
LED_POWER = 22  # output: high turns the LED rail on (off at power-up)
LIGHT_ADC = 27  # ADC1: ambient light
SUPPLY_ADC = 28  # ADC2: battery voltage / 2 (SUPPLY_DIVIDER)
SUPPLY_DIVIDER = 2  # volts at the battery per volt at SUPPLY_ADC (100k over 100k)
LED_ORDER = "GRB"  # colours on the wire: WS2812B strips GRB; "RGB" for PL9823 THT LEDs
KEYPAD_TIMER = -1  # the keypad scan's machine.Timer: the RP2040's are virtual (id -1), their
# callback soft (run between bytecodes: the page's Python work cannot hold it off)
PCB_STRAP = 13  # input: low (tied to GND on the PCB) = the PCB's power parts are fitted
POWER_PARTS = None  # None: the strap says; True: fitted (a hand-wired board with the rail
# switch, the light sensor and the battery divider on GP22/27/28, and no strap); False: none


def power_parts(fitted=None):
    """The power pins for board/power.py (hw/common.py's power), or None on a board
    without the power parts. fitted None: POWER_PARTS, and if that is None too the strap:
    GP13 read with its pull-up, low only where the PCB ties it to ground (then pulled down,
    so the strap draws nothing)."""
    if fitted is None:
        fitted = POWER_PARTS
    if fitted is None:
        import time

        from machine import Pin

        strap = Pin(PCB_STRAP, Pin.IN, Pin.PULL_UP)
        time.sleep_us(100)  # (the pull-up charges the pin's few pF in well under 1 us)
        fitted = strap.value() == 0
        strap.init(Pin.IN, Pin.PULL_DOWN)
    return (LED_POWER, LIGHT_ADC, SUPPLY_ADC, SUPPLY_DIVIDER) if fitted else None


def build(fitted=None):
    """The Pico's hardware; fitted: power_parts()'s (None: as POWER_PARTS or the strap say)."""
    from hw.common import build as common_build
    return common_build(LED_PIN, ROWS, COLS, BUTTONS, I2C, LED_ORDER, timer_id=KEYPAD_TIMER,
                        power=power_parts(fitted))
