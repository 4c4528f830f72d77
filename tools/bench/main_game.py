# A whole game on the board booted the way firmware/main.py boots it: the board module first
# (fakeboard/fake.py, with its display), then board.app: App(hw), app.boot(), for P players
# (2-6); the keys go into the keypad's ring as the scan queues them (DOWN, then UP), one
# app.step() each, so every frame is drawn and the display's text built as on a board.
#
#     python tools/maker/build.py --host --target esp32 --out build/host  # (with fakeboard/fake.py)
#     cd build/host/esp32 && mpy-cross -O3 -o main_game.mpy ../../../tools/bench/main_game.py
#     MICROPYPATH=.:lib:.frozen micropython -X heapsize=H -m main_game [PLAYERS [SEED [PORT
#         [NEXT|- [CLIENTS]]]]]
# With PORT (not 0), the board also serves its live page there (board/web.py, as a board with
# Wi-Fi does, its own HTTP, page/http.py) and CLIENTS pages (default 1), each a client of
# the live stream (/events), read it all game on the same asyncio loop: the heap with the page
# and phones at the table. host_tests/test_board_mp.py runs it from .mpy files as `make build`
# makes them, and tools/bench/rom_game.py from a ROMFS image, in the heaps of tools/budgets.py
# (the budgets per board, and what the runs measured). Everything is in that heap: the
# firmware, the app, the fake board and this script; so the script is compiled too (from
# source, every local name would be a string on the heap) and keeps its state in locals. Not
# an mp_*.py: tools/bench/bench.py would run it from source in the repository's folder, and it
# writes its saved game and settings in the current folder (the firmware tree: the board's
# /data).
#
# The players are set in the settings file before boot (as the menu saves them). Each deal:
# a shuffled deck (seat s plays DECK[4s:4s+4]; the crib is DECK[4n:4n+4], the starter next),
# the starter typed, every card of the play typed (each seat plays its first card that fits,
# B for go), each hand filled in from the play and counted with OK, the crib typed. A
# refused key or a MemoryError fails the run. Printed, all from one asyncio loop (the page
# and its clients stay up for every game):
#   the names' line (micropython.qstr_info()), then
#   MAIN players P sides S winner W score N events E peak X heap H saved True|False
# with NEXT (a number, or "-" for none): NEXT phase P games G peak X, after OK has recorded
# the game in the history file (here: the test reads it) and started the next game, and the
# names' line again; NEXT N: that game played too, and the next, N games in all, each
# recorded: the peak is theirs too. With PORT, last: WEB pushed K bytes B least L clients C
# (the states all the clients read, their bytes, the fewest one client read).
# saved: the file saved is exactly what m.dump() writes (checked 32 bytes at a time: no block
# the size of the game). peak: the most gc.mem_alloc() after a gc.collect() (at every card and
# count) of the whole process; heap: the heap's size.

import gc
import sys

from fakeboard.fake import build  # as main.py: the board module first

hw = build(storage_dir=".", display=True)  # the saved game beside the firmware, as /data


def game(argv):
    # The whole run, in locals: a local's name is not interned (its functions' and class's
    # names, arguments and attributes are).
    import os

    players = int(argv[1]) if len(argv) > 1 else 2
    for n in ("game", "game.tmp", "history", "history.tmp", "boots"):  # a fresh board
        try:
            os.remove(n)
        except OSError:
            pass
    from board.settings import Settings  # (the app loads it anyway)

    s = Settings()  # the players set, as the menu saves them
    s.set("players", players)
    with open("settings", "wb") as f:
        f.write(s.dumps())
    del s
    web = int(argv[3]) if len(argv) > 3 else 0  # the live page's port: served, watched
    clients = int(argv[5]) if len(argv) > 5 else 1  # by this many pages
    if web:
        async def net():
            return "127.0.0.1"

        hw["net"] = net  # as a board with Wi-Fi (hw/wifi.py): board/web.py serves
        hw["web_port"] = web
        hw["web_host"] = "127.0.0.1"
    from board.app import App  # (main.py imports board.tasks, whose run(hw) imports board.app,
    import asyncio  # imports asyncio and makes the app: step by step here)

    app = App(hw)
    app.boot()
    keys = app.keys
    seen = [0, 0]  # the live page's client: events and bytes read

    def press(k, now):
        # The key chr(k) pressed and released, as the scan queues them (board.keypad's DOWN,
        # then UP), a frame after each; the clock after.
        key = keys.names.find(chr(k))
        keys.put(0x20 | key)
        app.step(now + 20)
        keys.put(0x40 | key)
        app.step(now + 40)
        if app.err:
            raise RuntimeError("key %s refused: %s" % (chr(k), app.err))
        return now + 40

    def card(c, now):
        # Type card c (rank, then suit: it goes in with its suit); the clock after.
        r = (c >> 2) + 1
        if r >= 10:
            now = press(49, now)  # "1": 10 to 13 are "1" "0".."3"
        now = press(48 + r % 10, now)
        return press(65 + (c & 3), now)  # "A".."D"

    async def serve_and_watch():
        # The web task started as board/tasks.py starts it, and CLIENTS pages (each a client
        # of /events) connected and reading, on this same loop, for every game of the run.
        from board.tasks import web as serve

        seen.append(asyncio.create_task(serve(app)))  # (kept: a task nobody holds may go)
        for _ in range(clients):
            seen.append(0)  # this client's events
            for _t in range(100):  # until the server listens (a refused connect shows at the
                await asyncio.sleep_ms(20)  # write)
                try:
                    r, w = await asyncio.open_connection("127.0.0.1", web)
                    w.write(b"GET /events HTTP/1.1\r\nHost: board\r\n\r\n")
                    await w.drain()
                    break
                except OSError:
                    pass
            seen.append(asyncio.create_task(read(r, len(seen) - 1)))
        await asyncio.sleep_ms(200)

    async def read(r, i):
        while True:
            got = await r.read(512)
            if not got:
                return
            seen[i] += got.count(b"data: ")
            seen[0] += got.count(b"data: ")
            seen[1] += len(got)

    async def main(seed):
        m = app.m
        deck = bytearray(52)
        left = bytearray(24)  # the cards each seat has still to play (255: played)
        x = seed * 2654435761 & 0xFFFFFFFF or 1  # xorshift32 (dealer.autoplay's)
        now = app.now  # (0 for the first game)
        peak = 0
        while m.phase != 4:  # cribbage.match.OVER
            if m.phase == 0:  # DEAL (the first time: after that the starter typed deals)
                now = press(35, now)  # "#"
            n = m.players
            for i in range(52):
                deck[i] = i
            for i in range(51, 0, -1):
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                j = (x >> 3) % (i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            left[:4 * n] = deck[:4 * n]
            now = card(deck[4 * n + 4], now)  # the starter
            while m.phase == 2 or m.phase == 3:
                if m.phase == 2:  # PLAY: the seat's first card that fits, else go
                    c = -1
                    for i in range(4 * m.turn, 4 * m.turn + 4):
                        if left[i] != 255 and m.count + min((left[i] >> 2) + 1, 10) <= 31:
                            c = left[i]
                            left[i] = 255
                            break
                    now = press(66, now) if c < 0 else card(c, now)  # "B": go
                else:  # SHOW: a hand is filled in from the play (OK); the crib typed, OK
                    if m.crib_next:
                        for i in range(4 * n, 4 * n + 4):
                            now = card(deck[i], now)
                    if m.phase != 4:  # (after a crib that won: OK starts the next game)
                        now = press(35, now)
                if web:  # let the server push the change (it looks every 150 ms), the pages read
                    await asyncio.sleep_ms(160 if m.phase == 3 else 0)
                gc.collect()
                if gc.mem_alloc() > peak:
                    peak = gc.mem_alloc()
        if web:
            await asyncio.sleep_ms(400)
        return peak

    async def run(seed):
        # The first game (MAIN), then with NEXT the OK that records it and the games after
        # (NEXT), all on one loop: the page and its clients, if any, stay for every game.
        import micropython

        if web:
            await serve_and_watch()
        peak = await main(seed)
        micropython.qstr_info()
        # The saved file against what m.dump() writes (to a file beside it), 32 bytes at a
        # time: the check needs no block the size of the game (the board's save does not:
        # board/app.py).
        m = app.m
        with open("dumped.game", "wb") as f:
            m.dump(f)
        saved = app.store.open("game")
        ok = saved is not None  # (nothing saved: not the same)
        with open("dumped.game", "rb") as f:
            while ok:
                b = saved.read(32)
                ok = b == f.read(32)
                if not b:
                    break
        if saved:
            saved.close()
        os.remove("dumped.game")
        print("MAIN players %d sides %d winner %d score %d events %d peak %d heap %d saved %s"
              % (m.players, m.sides, m.winner, m.score[m.winner], m.events, peak,
                 gc.mem_alloc() + gc.mem_free(), ok))
        if len(argv) > 4 and argv[4] != "-":  # NEXT: OK after the win, as a board goes on
            n = int(argv[4]) if argv[4].isdigit() else 1
            for k in range(n):  # (NEXT N: and the game it starts played, N - 1 times)
                m = app.m
                for _ in range(2):  # (an OK right after the winning card is a habit: let go)
                    if m.phase == 4:  # (board/history.py and cribbage/summary.py load now)
                        press(35, app.now + 100)
                if k < n - 1:
                    peak = max(peak, await main(seed + k + 1))
            m = app.m
            print("NEXT phase %d games %d peak %d" % (m.phase, sum(m.games), peak))
            micropython.qstr_info()  # (the names with the history's and the summary's)
        if web:
            print("WEB pushed %d bytes %d least %d clients %d"
                  % (seen[0], seen[1], min(seen[3::2]), clients))

    asyncio.run(run(int(argv[2]) if len(argv) > 2 else 7))


game(sys.argv)
