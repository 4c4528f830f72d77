"""Runs host_tests/both/ under real MicroPython: one micropython process per test module.

A board runs one app, not a whole test suite: giving each module a fresh heap (MP_HEAP,
default tools/budgets.py's "core" heap; a module with its own row in budgets.HEAPS, named as
the module, gets that heap: HEAP_<NAME> measures it) keeps one module's garbage and
fragmentation from failing the next.
mp_runner.py does the work inside MicroPython; this sums its lines into one closing
'micropython: N passed, N failed' line. Exit status 1 if anything failed.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOTH = os.path.join(ROOT, "host_tests", "both")


def main(argv):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import budgets  # tools/budgets.py

    heap = os.environ.get("MP_HEAP") or budgets.heap("core")
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        exe = "micropython"
    # (.frozen: the port's frozen modules, asyncio among them, as on a board)
    env = dict(os.environ, MICROPYPATH="firmware:tools/host:host_tests/both:host_tests:.frozen")
    names = sorted(n[:-3] for n in os.listdir(BOTH) if n.startswith("test_") and n.endswith(".py"))
    names = [n for n in names if not argv or n in argv]
    passed = failed = 0
    for name in names:
        own = budgets.heap(name) if name in budgets.HEAPS else heap
        p = subprocess.run([exe, "-X", "heapsize=" + own, "host_tests/mp_runner.py", name],
                           cwd=ROOT, env=env, capture_output=True, text=True)
        m = re.search(r"^micropython: (\d+) passed, (\d+) failed$", p.stdout, re.M)
        if m and p.returncode in (0, 1):
            passed += int(m.group(1))
            failed += int(m.group(2))
        else:
            failed += 1
        ok = bool(m) and p.returncode == 0
        print("%-28s %s%s" % (name, m.group(0)[13:] if m else "crashed (exit %d)" % p.returncode,
                               " (its own heap, %s)" % own if own != heap else ""))
        if not ok:
            sys.stdout.write(p.stdout + p.stderr)
    print("%d modules, each in its own micropython -X heapsize=%s" % (len(names), heap))
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
