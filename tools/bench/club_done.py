# main_club.py's end, loaded once main_game.py's games are over (so its code is not on the
# heap during them): the same asyncio loop's tasks go on until the broker has every game
# recorded (20 s at most), then it prints CLUB sent N status S peak X (and, with "calls",
# club_calls.py's CALLS line).

import gc
import sys

import asyncio
import main_game


async def _done(n):
    p = main_game.hw["club"][0]
    peak = 0
    for _ in range(100):
        if p.sent >= n:
            break
        await asyncio.sleep_ms(200)
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    print("CLUB sent %d status %s peak %d" % (p.sent, p.status.split()[0], peak))
    if len(sys.argv) > 7:
        print(sys.modules["club_calls"].report())


asyncio.run(_done(max(int(sys.argv[4]) if sys.argv[4].isdigit() else 1, 1)))
