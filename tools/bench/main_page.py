# main_game.py with its page, booted as firmware/main.py boots a board: the loader
# (firmware/slots.py) first, whose resident half a board keeps (issue 34: slotboot.py, the
# rest, is not loaded at all on a board flashed without slots, as here, and let go after
# start() on one with a record). The same arguments as main_game.py, a PORT among them (0: no
# page, as the ESP32's run):
#
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_page PLAYERS SEED PORT \
#         [NEXT|- [CLIENTS]]
#
# A module of its own, main_game.py unchanged. host_tests/test_board_mp.py runs both ESP32's
# (PORT 0: budgets.HEAPS["esp32_booted"]) and the Pico W's page (budgets.HEAPS["pico_w_page"])
# through it, compiled with -s main_page (its source name its module's, as build.py names a
# module's). Through it the ESP32's run interns 624-627 names (2-6 players; main_game.py's
# 610-613 and the loader's 12, this module's own 2): still past the 620 of five pools, so a
# sixth pool's 7.1 KB (64-bit) and the heap it splits (docs/memory.md, 2026-11-29, h-names).

import slots

slots.start()

import main_game  # noqa: E402, F401  (its games, to the end)
