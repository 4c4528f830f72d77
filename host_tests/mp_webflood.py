# The live page under a flood, in real MicroPython at the page's heap (host_tests/test_web.py
# runs it, compiled, from the firmware's .mpy build): the board booted as main.py boots it
# (fakeboard/fake.py with its display, then the app), its web task started as board/tasks.py
# starts it, serving on 127.0.0.1:PORT; the test floods it from outside and talks to this
# script over stdin, one line each:
#   heap        -> HEAP alloc free     (after a gc.collect())
#   mods        -> MODS name ...        (which of the modules a request may load are loaded)
#   conns       -> CONNS n waiting w streams s heavy h free f (the server's connections open,
#                                        those still waiting for their request, the live
#                                        streams, the requests holding modules; free heap)
#   key KEYS    -> KEYS n               (KEYS tapped on the fake matrix, 40 ms down, 40 ms
#                                        up, scanned by the keypad's timer as on a board)
#   end         -> GAME ... and exit
# Printed first: READY (the app booted; the server starts on its own task).
# Everything here shares the heap with the board, as on a chip: so it keeps its state in
# locals and is compiled (from source, every name would be interned on the heap).

import gc
import sys

from fakeboard.fake import build  # as main.py: the board module first
from fakeboard.fake_timer import timed

hw = timed(build(storage_dir=".", display=True))  # the keypad scanned on a timer, as on a board


def main(argv):
    import os
    import select

    port = int(argv[1])
    for n in ("game", "game.tmp", "history", "history.tmp", "boots", "settings"):
        try:
            os.remove(n)
        except OSError:
            pass
    from fakeboard.served import served

    app = served(hw, port)  # its page on 127.0.0.1:port, booted as main.py boots it
    import asyncio

    clock = hw["clock"]
    matrix = hw["fake_matrix"]
    app.keys.start(clock)  # (board/tasks.py's keypad task would; here the loop is this one)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    got = [0, 0]  # keys pressed, entries refused or faulted

    def press(ch):
        matrix.press(ch)
        clock.advance(40)  # the timer scans it (debounced: 30 ms)
        matrix.release(ch)
        clock.advance(40)
        app.step(clock())
        got[0] += 1
        if app.err:
            got[1] += 1
            print("REFUSED", ch, app.err)

    servers = []  # the page's server and its loads, as page/routes.py makes them (`conns`)
    import page.lazy
    import page.server

    def keep(cls):
        made = cls.__init__

        def making(self, *args):
            made(self, *args)
            servers.append(self)

        cls.__init__ = making

    keep(page.server.Server)
    keep(page.lazy.Lazy)

    async def run():
        from board.tasks import web

        task = asyncio.create_task(web(app))  # (kept: a task nobody holds may go)
        print("READY")
        while True:
            if poll.poll(0):
                line = sys.stdin.readline().strip()
                if line == "heap":
                    gc.collect()
                    print("HEAP", gc.mem_alloc(), gc.mem_free())
                elif line == "mods":
                    print("MODS", " ".join(n for n in ("board.stats", "board.export",
                                                        "cribbage.summary") if n in sys.modules))
                elif line == "conns":
                    gc.collect()
                    v = servers[-1] if len(servers) > 1 else None  # (the Server)
                    h = servers[-2].heavy if v else -1  # (the Lazy made before it)
                    print("CONNS %d waiting %d streams %d heavy %d free %d" % (
                        len(v.conns) if v else -1, sum(1 for c in v.conns if c.waiting)
                        if v else -1, v.streams if v else -1, h, gc.mem_free()))
                elif line.startswith("key "):
                    for ch in line[4:]:
                        press(ch)
                    print("KEYS", got[0])
                elif line == "end" or not line:
                    break
            await asyncio.sleep_ms(5)
        m = app.m
        print("GAME score %d %d events %d keys %d refused %d" % (
            m.score[0], m.score[1], m.events, got[0], got[1]))
        return task

    asyncio.run(run())


main(sys.argv)
