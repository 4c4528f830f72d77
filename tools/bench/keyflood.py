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

--trace says where the scans' gaps come from (issue 34): for each gap between two scans over
10 ms, whether the timer's thread woke late (the host held the thread off: its sleep, or the
interpreter's lock the loop held) or woke in time and its scan ran late (soft: the loop held
the scheduled scan), and how much of the gap one step of the asyncio loop (its tasks running
between two polls) covered; and for each tap lost, the gap that lost it.
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


def explain(path):
    """Lines saying where the scans' gaps came from, from tools/keyflood_board.py's trace."""
    wakes, scans, steps, taps, downs = [], [], [], [], []
    with open(path) as f:
        for line in f:
            k, *v = line.split()
            {"W": wakes, "S": scans, "L": steps, "T": taps, "D": downs}[k].append(
                tuple(int(x) for x in v) if len(v) > 1 else int(v[0]))
    for x in (wakes, scans, steps, downs):
        x.sort()

    def step(a, b):  # the loop step covering most of (a, b): (us of it, cpu, runq, blocked)
        best = (0, 0, 0, 0)
        for x, y, cpu, runq in steps:
            if x < b and y > a and min(b, y) - max(a, x) > best[0]:
                best = (min(b, y) - max(a, x), cpu, runq, max(0, y - x - cpu - runq))
        return best

    def woke(a, b):  # the longest the timer's thread slept between a and b (us)
        w = [a] + [x for x in wakes if a < x <= b]
        return max(y - x for x, y in zip(w, w[1:] + [b]))

    gaps = [(a, b) for a, b in zip(scans, scans[1:]) if b - a > 10000]
    long_steps = [s for s in steps if s[1] - s[0] > 5000]
    lines = ["%d scans, %d over 10 ms apart (longest %.1f ms); loop steps over 5 ms: %d, "
             "longest %.1f ms, their time on a processor %.0f %%, waiting for one %.0f %%, "
             "blocked %.0f %%" % (
                 len(scans), len(gaps), max([b - a for a, b in gaps] or [0]) / 1000,
                 len(long_steps), max([y - x for x, y, _c, _r in steps] or [0]) / 1000,
                 *(100 * sum(v) / max(1, sum(y - x for x, y, _c, _r in long_steps)) for v in (
                     [c for _x, _y, c, _r in long_steps], [r for _x, _y, _c, r in long_steps],
                     [max(0, y - x - c - r) for x, y, c, r in long_steps])))]
    if wakes:
        late = [(a, b) for a, b in gaps if woke(a, b) > 10000]
        lines.append("  of the gaps over 10 ms: the timer's thread woke late in %d, in time "
                     "in %d (its scan waited for the loop)" % (len(late), len(gaps) - len(late)))
    lines.append("  each gap (ms): the loop step over it, of which on a processor/waiting "
                 "for one/blocked: " + " ".join(
                     "%.0f:%.0f(%.0f/%.0f/%.0f)" % ((b - a) / 1000, *(x / 1000 for x in step(a, b)))
                     for a, b in gaps[:16]))
    for t0, t1 in taps:
        if any(t0 <= d <= t1 + 40000 for d in downs):  # (a late scan queues it after)
            continue
        seen = [x for x in scans if t0 <= x <= t1]
        before = max([x for x in scans if x < t0] or [t0])
        after = min([x for x in scans if x > t1] or [t1])
        pts = [before] + seen + [after]
        a, b = max(zip(pts, pts[1:]), key=lambda g: g[1] - g[0])
        st = step(a, b)
        lines.append("  a tap of %.0f ms lost: scans in it at %s ms; its longest gap %.1f ms, "
                     "the timer's sleep in it %.1f ms, a loop step %.1f ms of it (on a "
                     "processor %.1f, waiting for one %.1f, blocked %.1f)" % (
                         (t1 - t0) / 1000, ",".join("%.0f" % ((x - t0) / 1000) for x in seen),
                         (b - a) / 1000, woke(a, b) / 1000 if wakes else 0,
                         *(x / 1000 for x in st)))
    return lines


def measure(mode, args):
    """(taps, applied, overflow, longest gap between scans (ms), requests per second,
    statuses, the trace's lines or []) for one run."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as storage:
        env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, HOST, mp_lib(),
                                                             ".frozen")))
        p = subprocess.Popen(
            [venv_program("micropython"), "-X", "heapsize=" + HEAP, BOARD, mode, str(port),
             str(args.taps), str(args.down), str(args.gap), str(START_MS), storage]
            + ([os.path.join(storage, "trace")] if args.trace else []),
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
        lines = []
        if args.trace and taps is not None:
            while line and not line.startswith("TRACED"):
                line = p.stdout.readline()
            lines = explain(os.path.join(storage, "trace"))
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
        return int(taps[1]), int(taps[3]), int(taps[5]), int(taps[7]), rate, statuses, lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=70)
    ap.add_argument("--down", type=int, default=40, help="ms a tap is held")
    ap.add_argument("--gap", type=int, default=60, help="ms between taps")
    ap.add_argument("--clients", type=int, default=4, help="threads flooding the page")
    ap.add_argument("--path", default="/layout")
    ap.add_argument("--runs", type=int, default=1, help="runs of each scan")
    ap.add_argument("--trace", action="store_true", help="where the scans' gaps come from")
    ap.add_argument("--modes", default="task,soft,hard", help="the scans measured, of "
                    "task (the keypad's asyncio task), soft, hard (the timer's stand-ins)")
    args = ap.parse_args(argv)
    print("%d taps of %d ms, %d ms apart, %d clients flooding %s (MicroPython unix port)"
          % (args.taps, args.down, args.gap, args.clients, args.path))
    for mode in args.modes.split(","):
        for _ in range(args.runs):
            taps, applied, overflow, gap, rate, statuses, lines = measure(mode, args)
            print("%-5s scan: %2d of %d taps lost (overflow %d), scans at most %3d ms apart, "
                  "under %.0f requests/s (%s)"
                  % (mode, taps - applied, taps, overflow, gap, rate,
                     " ".join("%s:%d" % (k or "none", v) for k, v in sorted(statuses.items()))))
            for line in lines:
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
