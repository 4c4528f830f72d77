"""Key-to-frame with the club's publisher (board/publish.py) against brokers that work, are down,
never answer or answer slowly: what the network costs the game. A measurement, not a test (real
time, this machine's load): tools/bench/publish_lag_board.py runs the real firmware, compiled as
`make build` compiles it, in the MicroPython unix port on the fake board, its tasks as on a board,
and times keys to frames.

    python tools/bench/publish_lag.py [PRESSES]     # (make venv first; Mosquitto for "up", "slow")

Cases: off (no broker named), up (a real Mosquitto on 127.0.0.1), down (nothing listens:
refused), hole (a listener that takes the connection and never answers), slow (Mosquitto
behind a proxy that holds every packet 2 s each way); and what an update waiting for the
game's end costs it (issue 31): midgame (no broker, a game in progress: a few deals' keys
played by tools/sim first), waiting (the same, with an update ordered before the keys,
ota/order.py: it waits all along, its column says so).
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import FIRMWARE, ROOT, venv_program
from localnet import free_port

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
SCRIPT = os.path.join(ROOT, "tools", "bench", "publish_lag_board.py")


def mosquitto(folder):
    """A Mosquitto on a free port: (process, port), or (None, 0) without one."""
    if not os.access(MOSQUITTO, os.X_OK):
        return None, 0
    port = free_port()
    conf = os.path.join(folder, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
    p = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    p.kill()
    return None, 0


def slow_proxy(to, delay):
    """A proxy to 127.0.0.1:to that holds every chunk delay seconds each way; its port."""
    ls = socket.create_server(("127.0.0.1", 0))

    def pump(a, b):
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                time.sleep(delay)
                b.sendall(d)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.close()
            except OSError:
                pass

    def accept():
        while True:
            a, _ = ls.accept()
            b = socket.create_connection(("127.0.0.1", to))
            threading.Thread(target=pump, args=(a, b), daemon=True).start()
            threading.Thread(target=pump, args=(b, a), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return ls.getsockname()[1]


MIDGAME = 8  # the keys of game 3 (tools/sim/games.py) played before the midgame cases: the
# first deal's starter and discards in, the play begun


def midgame(store):
    """The board in store left in a game in progress: game 3's first MIDGAME key tokens,
    played by tools/sim (CPython, virtual time) as a player would type them."""
    from sim.games import game_keys  # tools/sim/games.py

    tokens = game_keys(3)[0].split(" ")[:MIDGAME]
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim"), "--storage",
                        store, "--keys", " ".join(tokens)], capture_output=True, text=True,
                       timeout=300)
    if r.returncode:
        raise SystemExit("tools/sim could not set up the game:\n" + r.stdout + r.stderr)


def lag(tree, port, presses, mid=False, order=False):
    """publish_lag_board.py's LAG line as a dict: the firmware of tree (a build's: .mpy, as a board
    runs it), the publisher at broker port (0: none); mid: in a game in progress (midgame());
    order: an update ordered, waiting for its end."""
    store = tempfile.mkdtemp(prefix="lag-")
    if mid:
        midgame(store)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([tree, os.path.join(tree, "lib"),
                                                        ".frozen"]))
    r = subprocess.run([venv_program("micropython"), "-X", "heapsize=512k", SCRIPT, store,
                        str(free_port()), str(port), str(presses)] + (["order"] if order
                                                                     else []),
                       capture_output=True, text=True, env=env, timeout=300)
    shutil.rmtree(store, ignore_errors=True)
    line = [x for x in r.stdout.splitlines() if x.startswith("LAG ")]
    if r.returncode or not line:
        raise SystemExit("publish_lag_board.py failed:\n" + r.stdout + r.stderr)
    w = line[0].split()
    return dict(zip(w[1::2], w[2::2]))


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("presses", nargs="?", type=int, default=60,
                    help="keys pressed in each case (default: %(default)s)")
    presses = ap.parse_args(argv).presses
    folder = tempfile.mkdtemp(prefix="publish-lag-")
    import build  # tools/maker/build.py: the firmware as `make build` compiles it

    build.build("esp32", FIRMWARE, folder, host=True)  # (and the fake board)
    tree = os.path.join(folder, "esp32")
    broker, port = mosquitto(folder)
    hole = socket.create_server(("127.0.0.1", 0))  # takes connections, never answers
    cases = [("off", 0), ("down", free_port()), ("hole", hole.getsockname()[1])]
    if broker:
        cases[1:1] = [("up", port)]
        cases.append(("slow", slow_proxy(port, 2.0)))
    else:
        print("(no Mosquitto at %s: the up and slow cases are left out)" % MOSQUITTO)
    print("key-to-frame, %d keys a case (ms)   median    p95    max   club's status / update"
          % presses)
    try:
        for name, p, mid, order in [c + (False, False) for c in cases] + [
                ("midgame", 0, True, False), ("waiting", 0, True, True)]:
            g = lag(tree, p, presses, mid, order)
            print("  %-32s %8.1f %6.1f %6.1f   %s" % (
                name, int(g["median_us"]) / 1000, int(g["p95_us"]) / 1000,
                int(g["max_us"]) / 1000, g["update"] if mid else g["club"]))
    finally:
        hole.close()
        if broker:
            broker.kill()
            broker.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
