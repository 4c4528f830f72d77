# page/server.py's Readable, the page's one shim over MicroPython's asyncio internals, on the
# real MicroPython (host_tests/test_page_server.py runs it: PORT free on 127.0.0.1): a task
# awaiting a listening socket waits (the loop runs others meanwhile) until a client connects,
# then accepts it at once; prints "READABLE waited W accepted A" and "DONE".

import asyncio
import socket
import sys

from page.server import Readable


async def main(port):
    ai = socket.getaddrinfo("127.0.0.1", port)[0]
    s = socket.socket(ai[0])
    s.setblocking(False)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(ai[-1])
    s.listen(2)
    got = []

    async def wait():
        await Readable(s)
        got.append(s.accept()[0])

    t = asyncio.create_task(wait())
    for _ in range(5):  # the loop runs on while it waits: no connection, nothing taken
        await asyncio.sleep_ms(10)
    waited = not got
    r, w = await asyncio.open_connection("127.0.0.1", port)
    for _ in range(100):
        if got:
            break
        await asyncio.sleep_ms(10)
    print("READABLE waited", waited, "accepted", len(got))
    w.close()
    for c in got:
        c.close()
    t.cancel()
    s.close()
    print("DONE")


asyncio.run(main(int(sys.argv[1])))
