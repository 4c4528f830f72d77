# main_game.py publishing to the club's MQTT broker at 127.0.0.1:BROKER (publish/, board
# id "t1"): the same run, with the publisher's task started beside the page's as board/tasks.py
# starts it; after main_game's last game, the run goes on (the same asyncio loop and tasks)
# until the broker has every game recorded (20 s at most), then prints
#   CLUB sent N status S peak X
# (the games the broker took, the publisher's status, the peak while it finished).
#
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_club PLAYERS SEED PORT NEXT \
#         CLIENTS BROKER SECRET [calls]
# (SECRET: the board's key, 64 hex digits: it logs in as t1 and signs, docs/club-board.md)
# With "calls" (club_calls.py compiled into the tree too), last: CALLS peak X at WHERE, the
# live heap inside the publisher's calls, which the peak above does not see (club_calls.py).
# Booted as a board's main.py boots: the loader (firmware/slots.py) first, as main_page.py
# does for the page's budget run. A module of its own, main_game.py unchanged: its heap from a
# ROMFS image (its .mpy on the filesystem) has no room to spare. host_tests/test_publish.py
# compiles both into the tree.

import gc
import sys

import slots  # the loader first, whose resident half a board keeps (main.py, main_page.py)

slots.start()

import asyncio  # noqa: E402

import board.tasks  # noqa: E402

_web = board.tasks.web


def _web_and_club(app):
    # main_game.py starts the page's task with board.tasks.web(app): the publisher's starts
    # too (this script's code is on the heap all the run, beside the board's: kept short)
    app.hw["broker"] = lambda: {"host": "127.0.0.1", "port": int(sys.argv[6]),
                                "prefix": "cribbage", "board": "t1", "secret": sys.argv[7]}
    from publish.task import Publisher

    p = _pub[0] = Publisher(app)
    app.hw["club"] = asyncio.create_task(p.run())  # (held while the app runs)
    return _web(app, p)


_pub = [None]


async def _done(n):
    p = _pub[0]

    peak = 0
    for _ in range(100):
        if p.sent >= n:
            break
        await asyncio.sleep_ms(200)
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    print("CLUB sent %d status %s peak %d" % (p.sent, p.status.split()[0], peak))
    if len(sys.argv) > 8:
        print(sys.modules["club_calls"].report())


try:
    import os

    os.remove("outbox")  # a fresh board (main_game.py removes the rest)
except OSError:
    pass
board.tasks.web = _web_and_club
if len(sys.argv) > 8:
    import club_calls  # noqa: F401  (its hooks: the heap inside the publisher's calls)
import main_game  # noqa: E402, F401  (its games, to the end)

asyncio.run(_done(max(int(sys.argv[4]) if sys.argv[4].isdigit() else 1, 1)))
