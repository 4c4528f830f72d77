"""ESP32 DevKit (ESP32-WROOM-32, 4 MB flash) wiring. Avoid GPIO 6-11 (flash), 1 and 3
(REPL), 34-39 (input only, no pull-ups).

  LED data   GPIO 13 -> 74AHCT125 -> 330 ohm -> strip DIN (driven by the RMT peripheral)
  keypad     rows GPIO 16 17 18 19 (open drain), columns GPIO 25 26 27 32 (pull-ups)
  buttons    GPIO 4, 5 (+1 for side 1 / side 2; to ground, pull-ups)
  display    I2C0: SDA GPIO 21, SCL GPIO 22, SSD1306 at 0x3C (optional)
"""

LED_PIN = 13
ROWS = (16, 17, 18, 19)
COLS = (25, 26, 27, 32)
BUTTONS = (4, 5)
I2C = (0, 21, 22)
LED_ORDER = "GRB"  # colours on the wire: WS2812B strips GRB; "RGB" for PL9823 THT LEDs
KEYPAD_TIMER = 0  # the keypad scan's machine.Timer: hardware timer 0, its callback soft on the
# ESP32 (run between bytecodes: the page's Python work cannot hold it off)


def build():
    from hw.common import build as common_build
    return common_build(LED_PIN, ROWS, COLS, BUTTONS, I2C, LED_ORDER, timer_id=KEYPAD_TIMER)
