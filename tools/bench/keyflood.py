"""Key taps lost while the live page is flooded (issue 23.5): a measurement, not a test.

    python tools/bench/keyflood.py [--taps 70] [--down 40] [--gap 60] [--clients 4] [--path /layout]

Runs the app with its page in the MicroPython unix port (tools/bench/keyflood_board.py, the fake
board on the real clock), floods the page from --clients threads (GET --path in a loop), taps
the first "+1" button --taps times (--down ms held, --gap ms apart) in real time, and counts
the taps the app applied: once with the keypad scanned by its asyncio task ("task", as before
issue 23.5), then scanned by a timer. The unix port has no machine.Timer: a thread stands in
for it (tools/bench/keyflood_board.py), either scheduling the scan with micropython.schedule()
("soft": how an ESP32 runs a Timer's callback, between two bytecodes of whatever holds the
loop; but the unix port runs it only once a blocking call returns, asyncio's idle poll
included, where a chip's idle wait runs it at once) or calling it from the thread ("hard", as
an interrupt would). Figures are the host's: a chip is about 200 times slower (bench.py's
BOARD_FACTOR), so the page holds the loop far longer there; nothing here measures a chip.
"""

import argparse
import http.client
import os
import subprocess
import sys
import tempfile
import threading
import time

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import FIRMWARE, HOST, ROOT, mp_lib, venv_program

BOARD = os.path.join(ROOT, "tools", "bench", "keyflood_board.py")
HEAP = "1024k"  # from source, the page and the app: room enough that the heap is not measured
START_MS = 1500  # from the board's READY to the first tap: the flood is on by then


def flood(port, path, stop, counts):
    """GET path in a loop until stop is set; counts[status] += 1 (0: no answer). The thread
    runs at a lower priority (Linux: per thread), so that the board's own threads, the taps
    and the timer's stand-in, are not the ones the host's scheduler holds off."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass
    while not stop.is_set():
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            status = r.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            c.close()
        counts[status] = counts.get(status, 0) + 1


def measure(mode, args):
    """(taps, applied, overflow, longest gap between scans (ms), requests per second,
    statuses) for one run."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as storage:
        env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, HOST, mp_lib(),
                                                             ".frozen")))
        p = subprocess.Popen(
            [venv_program("micropython"), "-X", "heapsize=" + HEAP, BOARD, mode, str(port),
             str(args.taps), str(args.down), str(args.gap), str(START_MS), storage],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        assert p.stdout is not None
        out = []
        line = ""
        while not line.startswith("READY"):
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the board stopped:\n" + "".join(out))
            out.append(line)
        for _ in range(100):  # until the page listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        stop = threading.Event()
        counts = [{} for _ in range(args.clients)]
        ts = [threading.Thread(target=flood, args=(port, args.path, stop, counts[i]))
              for i in range(args.clients)]
        t0 = time.monotonic()
        for t in ts:
            t.start()
        taps = None
        while taps is None:
            line = p.stdout.readline()
            if not line:
                break
            out.append(line)
            if line.startswith("TAPS "):
                taps = line.split()
        elapsed = time.monotonic() - t0
        stop.set()
        for t in ts:
            t.join(10)
        p.kill()
        p.wait()
        if taps is None:
            raise SystemExit("no result from the board:\n" + "".join(out[-30:]))
        statuses = {}
        for c in counts:
            for k, v in c.items():
                statuses[k] = statuses.get(k, 0) + v
        rate = sum(statuses.values()) / elapsed
        return int(taps[1]), int(taps[3]), int(taps[5]), int(taps[7]), rate, statuses


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=70)
    ap.add_argument("--down", type=int, default=40, help="ms a tap is held")
    ap.add_argument("--gap", type=int, default=60, help="ms between taps")
    ap.add_argument("--clients", type=int, default=4, help="threads flooding the page")
    ap.add_argument("--path", default="/layout")
    ap.add_argument("--runs", type=int, default=1, help="runs of each scan")
    ap.add_argument("--modes", default="task,soft,hard", help="the scans measured, of "
                    "task (the keypad's asyncio task), soft, hard (the timer's stand-ins)")
    args = ap.parse_args(argv)
    print("%d taps of %d ms, %d ms apart, %d clients flooding %s (MicroPython unix port)"
          % (args.taps, args.down, args.gap, args.clients, args.path))
    for mode in args.modes.split(","):
        for _ in range(args.runs):
            taps, applied, overflow, gap, rate, statuses = measure(mode, args)
            print("%-5s scan: %2d of %d taps lost (overflow %d), scans at most %3d ms apart, "
                  "under %.0f requests/s (%s)"
                  % (mode, taps - applied, taps, overflow, gap, rate,
                     " ".join("%s:%d" % (k or "none", v) for k, v in sorted(statuses.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
