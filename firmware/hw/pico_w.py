"""Raspberry Pi Pico W (RP2040 with the CYW43439 radio): wired as the Pico (hw/pico.py,
the same pins: the radio's own are GP23-25 and GP29, none of ours: the PCB's LED rail switch
GP22, light GP27, battery GP28 and the strap GP13 included), with its live page over
Wi-Fi (hw/wifi.py). The radio's power saving is turned off once joined, or the page's
replies wait for the radio to wake (Raspberry Pi's Pico W guide: config(pm=0xa11140)), and
the Pico W's own LED (on the radio, pin "LED") lights once the board has joined.
board_config.py picks this module on a Pico W (its machine name says so: os.uname())."""

from hw.pico import (  # noqa: F401  (the PCB's power pins: named here for the firmware)
    BUTTONS, COLS, I2C, KEYPAD_TIMER, LED_ORDER, LED_PIN, LED_POWER, LIGHT_ADC, PCB_STRAP, ROWS,
    SUPPLY_ADC, SUPPLY_DIVIDER, power_parts)

_PM_OFF = 0xA11140  # the cyw43 pm value with power saving off (pm_mode 0), as Raspberry
# Pi's guide gives it (not PM_PERFORMANCE, 0xA11142: that one still saves power)


def _setup(w):
    try:
        w.config(pm=_PM_OFF)
    except (OSError, ValueError, TypeError):
        pass  # an older firmware: the page answers, a little later


def build(fitted=None):
    """The Pico W's hardware; fitted: the PCB's power parts (hw/pico.py's power_parts)."""
    import machine

    from hw.common import build as common_build

    try:
        light = machine.Pin("LED", machine.Pin.OUT, value=0)
    except (ValueError, TypeError):
        light = None  # a plain Pico's firmware (no radio): no Wi-Fi either
    return common_build(LED_PIN, ROWS, COLS, BUTTONS, I2C, LED_ORDER, setup=_setup, light=light,
                        timer_id=KEYPAD_TIMER, power=power_parts(fitted))
