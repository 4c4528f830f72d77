"""Which board this is: its module in firmware/boards/ (pico, esp32_devkit, fake) builds the
hardware. `make build` writes this one line for each port's tree (build/rp2040, build/esp32);
edit it for another board module."""

from boards.pico import build  # noqa: F401  (firmware/main.py imports it from here)
