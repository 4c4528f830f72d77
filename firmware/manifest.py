# Freeze the cribbage board firmware into your own MicroPython build (modules then run from
# flash and need no RAM for their bytecode). This manifest is every board's: the whole of a
# board without radio (the Pico); a board with Wi-Fi takes manifest_wifi.py, which requires the
# optional parts too (the live page, the club's publisher). From a micropython checkout, e.g.:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
#   make -C ports/rp2 BOARD=RPI_PICO_W FROZEN_MANIFEST=/path/to/repo/firmware/manifest_wifi.py
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/repo/firmware/manifest_wifi.py
# main.py and board_config.py are not frozen: copy them onto the board's filesystem
# (mpremote cp firmware/main.py firmware/board_config.py :) so the board can be chosen there;
# with Wi-Fi, the live page too (mpremote mkdir :www + cp firmware/www/index.html :www/).
# The functions used here are provided by MicroPython's tools/makemanifest.py.

import os

# Everything here is the board's: the host's own modules (the fake board, the dealer and the
# computer players, the card-text reader) live in tools/host/, never in firmware/.

# The optional parts: what a board with radio (Wi-Fi) runs and a board without never does.
# Each part's folder has its manifest.py (which manifest_wifi.py includes); here, each part's
# paths: its folder, and the modules elsewhere only it runs (the page's state and history
# export, which the club's publisher sends too: the publisher requires the page).
# tools/maker/build.py reads it too (make build's rp2040 tree, the Pico's, carries no part).
PARTS = {"page": ("page", "www", "board/snapshot.py", "board/export.py"),
         "publish": ("publish",)}


def board_files(pkg, only=None):
    """The package's modules a board runs (paths within it, for package()'s files): those of
    no part (only None), or only those of part `only`."""
    out = []
    for f in sorted(os.listdir(pkg)):
        path = pkg + "/" + f
        if not f.endswith(".py") or f == "manifest.py":
            continue
        part = None
        for k in PARTS:
            for p in PARTS[k]:
                if path == p or path.startswith(p + "/"):
                    part = k
        if part == only:
            out.append(f)
    return out


include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio, ...)
require("ssd1306")  # the optional OLED's driver, from micropython-lib

metadata(description="Electronic cribbage board firmware", version="0.6.0")  # = version.py

# (makemanifest runs this file in its own folder, firmware/)
package("cribbage", files=board_files("cribbage"), opt=3)  # the rules core, the match engine
package("board", files=board_files("board"), opt=3)  # the hardware-facing app
package("hw", files=board_files("hw"), opt=3)  # the per-board hardware (pin maps)
module("version.py", opt=3)  # the firmware's version (the menu and make flash show it)
module("slots.py", opt=3)  # the boot loader's app slots (main.py; issue 31)
module("slotboot.py", opt=3)  # the loader's boot half, loaded for a call (slots.py; issue 34)
module("slotimg.py", opt=3)  # an image slot's block device (slotboot.py; issue 34)
package("ota", files=board_files("ota"), opt=3)  # updates over the air: the install, the trial
