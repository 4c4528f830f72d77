"""Which board this is: its module in firmware/hw/ (pico, esp32_devkit, fake) builds the
hardware. `make build` writes it for each port's tree (build/esp32: esp32_devkit; build/rp2040:
pico, or pico_w on a Pico W, by the machine's name); edit it for another board module."""

from hw.pico import build  # noqa: F401  (firmware/main.py imports it from here)
