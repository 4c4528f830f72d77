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

import os

# The host's own modules, never on a board (no board module imports them): the fake board and
# its RAM filesystem, the dealer and the computer players (the board never deals: the players
# hold real cards), the generators of the score and crib tables, the card-text reader. The
# one list: tools/build.py reads it too (make build, make flash and package.json leave them
# out; `tools/build.py --host` builds a tree with them for the simulator and the tests).
HOST_ONLY = ("boards/fake.py", "boards/fake_timer.py", "boards/fakepower.py", "boards/ramfs.py",
             "cribbage/autoplay.py",
             "cribbage/cardtext.py", "cribbage/cribgen.py", "cribbage/deal.py",
             "cribbage/tablegen.py")


def board_files(pkg):
    """The package's modules a board runs (paths within it, for package()'s files)."""
    return sorted(f for f in os.listdir(pkg)
                  if f.endswith(".py") and pkg + "/" + f not in HOST_ONLY)


include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio, ...)
require("ssd1306")  # the optional OLED's driver, from micropython-lib

metadata(description="Electronic cribbage board firmware", version="0.6.0")  # = version.py

# (makemanifest runs this file in its own folder, firmware/)
package("cribbage", files=board_files("cribbage"), opt=3)  # the rules core, the match engine
package("board", files=board_files("board"), opt=3)  # the hardware-facing app
package("boards", files=board_files("boards"), opt=3)  # the per-board hardware (pin maps)
module("version.py", opt=3)  # the firmware's version (the menu and make flash show it)

if os.environ.get("MICRODOT_LIB"):
    package("microdot", base_path=os.environ["MICRODOT_LIB"], opt=3)
