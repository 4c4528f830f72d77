# main_game.py publishing to the club's MQTT broker at 127.0.0.1:BROKER (board/publish.py, board
# id "t1"): the same run, with the publisher's task started beside the page's as board/tasks.py
# starts it; after main_game's last game, the run goes on (the same asyncio loop and tasks)
# until the broker has every game recorded (20 s at most), then prints
#   CLUB sent N status S peak X
# (the games the broker took, the publisher's status, the peak while it finished).
#
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_club PLAYERS SEED PORT NEXT \
#         CLIENTS BROKER
# A module of its own, main_game.py unchanged: its heap from a ROMFS image (its .mpy on the
# filesystem) has no room to spare. host_tests/test_publish.py compiles both into the tree.

import gc
import os
import sys

import asyncio

import board.tasks

_kept = [board.tasks.web]  # the page's task (main_game.py starts it), then the publisher's


async def _web_and_club(app):
    # main_game.py starts the page's task through board.tasks.web: the publisher starts too
    # (this script's code is all on the heap while the games run: kept short)
    app.hw["broker"] = lambda: {"host": "127.0.0.1", "port": int(sys.argv[6]),
                                "prefix": "cribbage", "board": "t1"}
    from board.publish import task

    _kept.append(asyncio.create_task(task(app)))
    await _kept[0](app)


try:
    os.remove("outbox")  # a fresh board (main_game.py removes the rest)
except OSError:
    pass
board.tasks.web = _web_and_club
import main_game  # noqa: E402, F401  (its games, to the end)


async def _done():
    from board import publish

    peak = 0
    for _ in range(100):
        p = publish.CURRENT
        if p is not None and p.sent >= max(int(sys.argv[4]) if sys.argv[4].isdigit() else 1,
                                           1):
            break
        await asyncio.sleep_ms(200)
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    print("CLUB sent %d status %s peak %d" % (p.sent if p else 0,
                                              p.status.split()[0] if p else "none", peak))


asyncio.run(_done())
