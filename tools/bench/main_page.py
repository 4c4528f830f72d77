# main_game.py with its page, booted as firmware/main.py boots a board: the loader
# (firmware/slots.py) first, which a board keeps resident (issue 34: the page's budget runs
# left it out, ~1.5 KB). The same arguments as main_game.py, a PORT among them:
#
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_page PLAYERS SEED PORT \
#         [NEXT|- [CLIENTS]]
#
# A module of its own, main_game.py unchanged: its ESP32 run (no page) interns 620 names of
# the 620 its pools hold, and one name more of this loader's would take the next pool
# (docs/memory.md); an ESP32 board's main.py loads it all the same (not measured here).

import slots

slots.start()

import main_game  # noqa: E402, F401  (its games, to the end)
