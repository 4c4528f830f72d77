"""Which board this is: the name of a module in firmware/boards/ (pico, esp32_devkit, fake).
`make flash` (or you) writes this one line."""

BOARD = "pico"
