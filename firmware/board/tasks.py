"""The app running on asyncio (a board, the simulator): started by main.py (run), or
by a simulator (tasks). It sits above the app and the page: the one module that knows both.

Two tasks: the keypad scan, which calls the app at once when a scan queues a key (the frame
for a key does not wait for the next tick), and the frame loop (blinks, the watchdog). A task
that ends with an exception reaches the asyncio loop's exception handler, which says so
(board/fault.py) and starts the task again: the board never stops on a fault.
"""

import gc

from board.modes import SAY, MSG_TEXT, message

from micropython import const

_WEB_ROOM = const(48 * 1024)  # free heap the page wants before it starts: its modules (page/:
# ~36 KB on the 64-bit unix port, less on a chip) and page/server.py's shed line (12 KB) after
# them, below which every connection gets 503. Less (36 KB, when microdot was most of it) let the
# page start in the ESP32's game heap and its first client run out (issue 34)
_WEB_RETRY_MS = const(5000)  # a page that could not start or stopped tries again after this


def run(hw):
    """Start the app on hardware hw (blocks forever). If the app cannot even start (a
    MemoryError reading a game, ...), it tries again after a gc.collect(); a file that 3
    boots in a row died parsing (boot.GIVE_UP) is set aside (board/boot.py keeps the count
    per file) and the board starts without it. The saved game is on the LEDs before the
    app's modules load (board/boot.py's frame(): a third of the boot's time was the import)."""
    from board.boot import GIVE_UP, frame

    r = frame(hw)
    import asyncio

    from board.app import App
    app = None
    for attempt in range(GIVE_UP):
        try:
            app = App(hw, r)
            break
        except Exception as e:  # noqa: BLE001
            print("boot failed:", repr(e))
            gc.collect()
            if attempt == GIVE_UP - 1:
                raise
    assert app is not None
    app.boot()
    asyncio.run(tasks(app, 20))


async def web(app, club=None):
    """The live page's task on a board with Wi-Fi: it joins the network first (hw["net"]),
    and only then loads the server (page/ and microdot: a board without credentials never
    does; club: the club's publisher, handed to the page, or None). If the server cannot
    start or stops (no memory for it, a socket error), the board says so in its log and on
    the display (in place of the page's address), plays on, and starts it again when there
    is room, after _WEB_RETRY_MS (doubling to 16x). Nothing of the page's reaches the game's
    fault path: this task ends only without a network."""
    from board.keypad import sleep_ms
    try:
        addr = await app.hw["net"]()
    except Exception as e:  # noqa: BLE001
        print("web: no network:", repr(e))
        addr = None
    if not addr:
        print("web: no network: the board plays without its page")
        return
    wait = _WEB_RETRY_MS
    while True:
        try:
            gc.collect()
            if hasattr(gc, "mem_free") and gc.mem_free() < _WEB_ROOM:
                raise MemoryError("%d bytes free" % gc.mem_free())
            from page.routes import serve
            await serve(app, addr, club)
            wait = _WEB_RETRY_MS  # (it served: the next stop waits the least)
        except Exception as e:  # noqa: BLE001
            print("web: stopped: %r; tried again in %d s" % (e, wait // 1000))
            msg = app.msg
            if msg[0] == MSG_TEXT and msg[1].startswith("page "):  # (page/routes.py's line)
                app.apply((SAY, message("page off: %s" % (
                    "no memory" if isinstance(e, MemoryError) else type(e).__name__))))
            gc.collect()
        await sleep_ms(wait)
        wait = min(wait * 2, _WEB_RETRY_MS << 4)


async def tasks(app, frame_ms):
    """The app's asyncio tasks (frames every frame_ms): start them, restart any that dies,
    forever."""
    import asyncio

    from board.keypad import sleep_ms

    def woken():  # a key was queued: handle it and draw now
        app.step(app.clock())

    async def frames():
        while True:
            app.step(app.clock())
            await sleep_ms(frame_ms)

    running = []  # the scan task, the frame task (each replaced when it ends)

    def start():
        if not running:
            running.append(None)
            running.append(None)
        t = running[0]
        if hasattr(app.keys, "run") and (t is None or t.done()):
            running[0] = asyncio.create_task(app.keys.run(app.clock, woken))
        t = running[1]
        if t is None or t.done():
            running[1] = asyncio.create_task(frames())

    def died(loop, context):  # the loop's exception handler
        gc.collect()
        try:
            e = context.get("exception")
            print("task failed:", repr(e))
            app.recover(e)
        except Exception:  # noqa: BLE001
            gc.collect()
        start()

    asyncio.get_event_loop().set_exception_handler(died)
    start()
    if app.hw.get("power") is not None:  # the power states (board/power.py): its own task
        from board.power import task as power_task
        running.append(asyncio.create_task(power_task(app)))
    from slots import trial  # a new version on trial (issue 31): ota/trial.py confirms it
    if trial:
        from ota.trial import watch
        running.append(asyncio.create_task(watch(app)))
    if app.hw.get("net") is not None:  # the live page (page/), on a board with Wi-Fi
        club = None
        if app.hw.get("broker") is not None:  # the club's broker (publish/): its own task,
            from publish.task import Publisher  # which never ends and never blocks; the
            club = Publisher(app)  # page shows its status
        running.append(asyncio.create_task(web(app, club)))  # (it restarts the server itself)
        if club is not None:
            running.append(asyncio.create_task(club.run()))
    while True:
        await sleep_ms(1000)
