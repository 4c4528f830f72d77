# main_game.py publishing to the club's MQTT broker at 127.0.0.1:BROKER (publish/, board
# id "t1"): the same run, with the publisher's task started beside the page's as board/tasks.py
# starts it; after main_game's last game, the run goes on (the same asyncio loop and tasks)
# until the broker has every game recorded (20 s at most), then prints
#   CLUB sent N status S peak X
# (the games the broker took, the publisher's status, the peak while it finished).
#
#     CLUB_KEY=SECRET MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_club \
#         PLAYERS SEED PORT NEXT CLIENTS BROKER [calls]
# (SECRET: the board's key, 64 hex digits: it logs in as t1 and signs, docs/club-board.md;
# from the environment, as a board reads it from its Wi-Fi file: the unix port interns its
# arguments, a name of 64 bytes a board never has)
# With "calls" (club_calls.py compiled into the tree too), last: CALLS peak X at WHERE, the
# live heap inside the publisher's calls, which the peak above does not see (club_calls.py).
# Booted as a board's main.py boots: the loader (firmware/slots.py) first, as main_page.py
# does for the page's budget run. A module of its own, main_game.py unchanged: its heap from a
# ROMFS image (its .mpy on the filesystem) has no room to spare. The bench's own code is in
# club_start.py (the publisher started, then let go) and club_done.py (loaded after the
# games): this module's, on the heap all the run, is as short as main_page.py's (issue 34:
# main_club.py with that code in it, 823 bytes of .mpy, kept ~1.5 KB of the 64-bit heap
# that a board never has). host_tests/test_publish.py compiles all four into the tree.

import sys

import slots  # the loader first, whose resident half a board keeps (main.py, main_page.py)

slots.start()

import club_start  # noqa: E402  (the publisher started with the page's task; then let go)

del club_start

if len(sys.argv) > 7:
    import club_calls  # noqa: F401  (its hooks: the heap inside the publisher's calls)
import main_game  # noqa: E402, F401  (its games, to the end)
import club_done  # noqa: E402, F401  (until the broker has every game: CLUB ...)
