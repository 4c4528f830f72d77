# main_game.py with its page, booted as firmware/main.py boots a board: the loader
# (firmware/slots.py) first, whose resident half a board keeps (issue 34: slotboot.py, the
# rest, is let go after start(); ~1.0-1.1 KB on 32-bit left). The same arguments as
# main_game.py, a PORT among them (0: no page, as the ESP32's run):
#
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_page PLAYERS SEED PORT \
#         [NEXT|- [CLIENTS]]
#
# A module of its own, main_game.py unchanged: its ESP32 run (no page) interns 614-617 names
# of the 620 its pools hold, and the loader's ~45 take the next pool (docs/memory.md): run
# through this module (PORT 0) it peaks at 132.8-133.7 KB on 64-bit, ~101.2-101.8 KB of heap
# against the ESP32's 96 (2026-11-29), so host_tests/test_board_mp.py's ESP32 test runs
# main_game.py without it; an ESP32 board's main.py loads it all the same.

import slots

slots.start()

import main_game  # noqa: E402, F401  (its games, to the end)
