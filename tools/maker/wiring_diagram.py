"""Wiring diagrams (SVG) for each board, drawn from the pin maps the firmware itself reads.

    python tools/maker/wiring_diagram.py        # writes hardware/wiring_pico.svg, wiring_esp32.svg

The pin numbers come from firmware/hw/pico.py and esp32_devkit.py (LED_PIN, ROWS, COLS,
BUTTONS, I2C), never from here, so the picture cannot drift from the firmware. One line per
wire: board pin on the left, the part it goes to on the right.
"""

import os
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

from hw import esp32_devkit, pico  # (only their pin constants are read)

# Raspberry Pi Pico: GPIO -> physical pin (the header numbering printed on the board)
PICO_PHYSICAL = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
                 11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
                 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}

BOARDS = {
    "pico": (pico, "Raspberry Pi Pico (RP2040)", "VSYS (pin 39)",
             "GND (pin 38)", "3V3 OUT (pin 36)"),
    "esp32": (esp32_devkit, "ESP32 DevKit (WROOM-32)", "5V / VIN", "GND", "3V3"),
}
# where the 5 V supply enters each board: through a Schottky diode, so USB can stay plugged in
DIODE = {"pico": "Pico: 5 V into VSYS through a 1N5817 Schottky diode (stripe towards VSYS).",
         "esp32": "ESP32: 5 V into 5V/VIN through a 1N5817 Schottky diode (stripe towards VIN)."}
FONT = "font-family:sans-serif;font-size:11px"
ROW = 18


def pin_label(board, gpio):
    if board == "pico":
        return "GP%d (pin %d)" % (gpio, PICO_PHYSICAL[gpio])
    return "GPIO %d" % gpio


def wires(board):
    """(board pin label, group, far end label) for every wire, grouped by the part."""
    mod, _title, vin, gnd, v33 = BOARDS[board]
    out = [(pin_label(board, mod.LED_PIN), "led",
            "74AHCT125 1A; 1Y -> 330 ohm -> LED 0 DIN")]
    for i, p in enumerate(mod.ROWS):
        out.append((pin_label(board, p), "keypad", "keypad row %d (pin %d)" % (i + 1, i + 1)))
    for i, p in enumerate(mod.COLS):
        out.append((pin_label(board, p), "keypad", "keypad column %d (pin %d)" % (i + 1, i + 5)))
    for i, p in enumerate(mod.BUTTONS):
        out.append((pin_label(board, p), "buttons", "button +1 side %d (other leg: GND)" % (i + 1)))
    _bus, sda, scl = mod.I2C
    out.append((pin_label(board, sda), "oled", "OLED SDA"))
    out.append((pin_label(board, scl), "oled", "OLED SCL"))
    out.append((v33, "oled", "OLED VCC (3.3 V)"))
    out.append((vin, "power", "+5 V through a 1N5817 (LEDs, 74AHCT125 VCC: +5 V direct)"))
    out.append((gnd, "power", "supply GND (also LEDs' GND, OLED GND, 1OE)"))
    return out


COLOURS = {"led": "#2e7d32", "keypad": "#1565c0", "buttons": "#6a1b9a", "oled": "#ef6c00",
           "power": "#c62828"}
PARTS = {"led": "LED data", "keypad": "4x4 keypad", "buttons": "buttons", "oled": "SSD1306 OLED",
         "power": "5 V power"}


def svg(board):
    mod, title, _vin, _gnd, _v33 = BOARDS[board]
    ws = wires(board)
    top = 50
    h = 0  # set at the end
    w = 760
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (w, h, w, h),
           '<rect width="%d" height="%d" fill="white"/>' % (w, h),
           '<text x="20" y="24" style="%s;font-size:15px;font-weight:bold">%s: wiring '
           '(from firmware/hw/%s.py)</text>' % (FONT, title, mod.__name__.split(".")[-1])]
    y = top
    group = None
    box_top = y
    rows = []
    for label, g, far in ws:
        if g != group:
            if group is not None:
                y += ROW
            group = g
            out.append('<text x="300" y="%d" style="%s;font-weight:bold;fill:%s">%s</text>'
                       % (y + 4, FONT, COLOURS[g], PARTS[g]))
            y += ROW
        rows.append((y, label, g, far))
        y += ROW
    out.append('<rect x="20" y="%d" width="190" height="%d" rx="6" fill="#f1f8e9" '
               'stroke="black"/>' % (box_top - 14, y - box_top + 8))
    out.append('<text x="30" y="%d" style="%s;font-weight:bold">%s</text>'
               % (box_top, FONT, title.split(" (")[0]))
    for yy, label, g, far in rows:
        out.append('<text x="200" y="%d" text-anchor="end" style="%s">%s</text>'
                   % (yy + 4, FONT, label))
        out.append('<circle cx="210" cy="%d" r="3" fill="%s"/>' % (yy, COLOURS[g]))
        out.append('<path d="M210 %dH420" stroke="%s" stroke-width="2"/>' % (yy, COLOURS[g]))
        out.append('<circle cx="420" cy="%d" r="3" fill="%s"/>' % (yy, COLOURS[g]))
        out.append('<text x="428" y="%d" style="%s">%s</text>' % (yy + 4, FONT, far))
    notes = ["LEDs: 1000 uF across 5 V/GND where the power enters them; 330 ohm (300-500) in DIN.",
             DIODE[board] + " USB can stay plugged in.",
             "74AHCT125 runs at 5 V: 3.3 V in, 5 V out. Tie 1OE (pin 1) and unused inputs to GND.",
             "Keypad rows are driven low one at a time; columns read with pull-ups."]
    for i, n in enumerate(notes):
        out.append('<text x="20" y="%d" style="%s">%s</text>' % (y + 20 + 16 * i, FONT, n))
    out.append("</svg>")
    h = y + 20 + 16 * len(notes)
    out[1] = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
              'viewBox="0 0 %d %d">' % (w, h, w, h))
    out[2] = '<rect width="%d" height="%d" fill="white"/>' % (w, h)
    return "\n".join(out) + "\n"


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.parse_args(argv)
    outdir = os.path.join(ROOT, "hardware")
    os.makedirs(outdir, exist_ok=True)
    for board in sorted(BOARDS):
        path = os.path.join(outdir, "wiring_%s.svg" % board)
        with open(path, "w") as f:
            f.write(svg(board))
        print("wrote %s" % os.path.relpath(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
