# Freeze the cribbage board firmware into your own MicroPython build (modules then run from
# flash and need no RAM for their bytecode). From a micropython checkout, e.g.:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
# main.py and board_config.py are not frozen: copy them onto the board's filesystem
# (mpremote cp firmware/main.py firmware/board_config.py :) so the board can be chosen there;
# with Wi-Fi, the live page too (mpremote mkdir :www + cp firmware/www/index.html :www/).
# The live page's web framework, microdot, is frozen when MICRODOT_LIB names the folder that
# holds it (`MICRODOT_LIB=$(.venv/bin/python tools/hostenv.py)`): frozen, its ~31 KB of code
# leave the heap, which is what an ESP32 without PSRAM needs to serve the page (README).
# The functions used here are provided by MicroPython's tools/makemanifest.py.

include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio, ...)
require("ssd1306")  # the optional OLED's driver, from micropython-lib

metadata(description="Electronic cribbage board firmware", version="0.4.0")  # = version.py

package("cribbage", opt=3)  # the rules core and the match engine
package("board", opt=3)  # the hardware-facing app
package("boards", opt=3)  # the per-board hardware modules (pin maps)
module("version.py", opt=3)  # the firmware's version (the menu and make flash show it)

import os  # noqa: E402

if os.environ.get("MICRODOT_LIB"):
    package("microdot", base_path=os.environ["MICRODOT_LIB"], opt=3)
