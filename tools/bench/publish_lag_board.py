# Key-to-frame on the board's own asyncio loop, in real time: the app's tasks as board/tasks.py
# starts them (the keypad's scan, the frames, the page and, with a broker, the club's publisher:
# publish/) on the fake board, and a task that presses keys on the fake keypad and
# times each key to the first frame that shows it (the strip written or the display shown
# after the app took the key): a digit from its press, "*" (which acts on its release) from
# its release. Run by tools/bench/publish_lag.py (which starts the brokers):
#
#     MICROPYPATH=firmware:.venv/mp-lib:.frozen micropython tools/bench/publish_lag_board.py \
#         STORAGE WEB_PORT BROKER_PORT|0 PRESSES [order]
#
# order: an update ordered (ota/order.py's take(), as the club's message or the board's page
# give it) before the keys, in the game STORAGE holds: it must be mid-game, so the order waits
# for the game's end all along (issue 31: what an update waiting costs the game).
#
# Printed: LAG n N median_us M p95_us P max_us X club STATUS update WORD

import asyncio
import sys
import time

from fakeboard.fake import build


def main(argv):
    storage, web, club, presses = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    order = argv[5:] == ["order"]
    hw = build(storage_dir=storage, display=True)
    hw["clock"] = time.ticks_ms
    hw["sleep_ms"] = time.sleep_ms

    async def net():
        return "127.0.0.1"

    hw["net"] = net
    hw["web_port"] = web
    hw["web_host"] = "127.0.0.1"
    if club:
        hw["broker"] = lambda: {"host": "127.0.0.1", "port": club, "prefix": "cribbage",
                                "board": "lag"}
    from board.app import App
    from board.tasks import tasks

    pubs = []  # the publisher board/tasks.py starts (its status: the LAG line's club)
    if club:
        from publish.task import Publisher

        _run = Publisher.run

        def run(pub):
            pubs.append(pub)
            return _run(pub)

        Publisher.run = run

    app = App(hw)
    app.boot()
    if order:
        from ota.order import between, take

        if between(app):
            raise RuntimeError("the order case needs a game in progress in " + storage)
        take(app, {"version": "99.0.0", "url": "http://127.0.0.1:9/update/lag/"})
    shown = [0, -1]  # the last frame (strip written, display shown): ticks_us, app.changes
    strip = hw["strip"]
    display = hw["display"]
    write, show = strip.write, display.show

    def wrote():
        shown[0] = time.ticks_us()
        shown[1] = app.changes
        write()

    def showed():
        shown[0] = time.ticks_us()
        shown[1] = app.changes
        show()

    strip.write = wrote
    display.show = showed
    lags = []

    async def press():
        m = hw["fake_matrix"]
        await asyncio.sleep_ms(6000)  # the page up, the publisher at its first tries
        for i in range(presses):
            key = "9" if i % 2 == 0 else "*"  # a digit typed, then taken back
            seen = app.changes
            t0 = time.ticks_us()
            m.press(key)
            if key == "*":  # (it acts on its release: timed from there)
                await asyncio.sleep_ms(80)
                t0 = time.ticks_us()
                m.release(key)
            while shown[1] == seen or time.ticks_diff(shown[0], t0) < 0:  # (a frame of the key)
                await asyncio.sleep_ms(1)
                if time.ticks_diff(time.ticks_us(), t0) > 10000000:
                    raise RuntimeError("no frame for key %s" % key)
            lags.append(time.ticks_diff(shown[0], t0))
            m.release(key)
            await asyncio.sleep_ms(120 + 37 * (i % 7))  # (presses at varied moments)
        lags.sort()
        n = len(lags)
        status = pubs[0].status.split(":")[0] if pubs and pubs[0].cfg else "off"
        ota = getattr(app, "ota", None)  # (the order's state: "waiting 99.0.0" all along)
        print("LAG n %d median_us %d p95_us %d max_us %d club %s update %s"
              % (n, lags[n // 2], lags[n * 95 // 100], lags[-1], status,
                 ota[0].split(" ")[0] if ota and ota[0] else "none"))
        sys.exit(0)

    async def run():
        kept = [asyncio.create_task(press())]  # (held while the app runs)
        await tasks(app, 20)  # (as board/tasks.py's run() starts them on a board)
        kept.clear()

    asyncio.run(run())


main(sys.argv)
