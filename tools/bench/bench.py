"""Benchmarks: every tools/bench/mp_*.py under real MicroPython, every py_*.py under CPython.

Each script prints `ROW {json}` lines (see tools/bench/benchlib.py); this collects them into
one table. Speed is reported against a plain reference measured in the same run, as a ratio,
and host MicroPython times are turned into board estimates with BOARD_FACTOR below (the one
place that factor lives). Usage: python tools/bench/bench.py [name-filter]
"""

import glob
import json
import os
import subprocess
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import budgets
from hostenv import ROOT, venv_program

BENCH = os.path.join(ROOT, "tools", "bench")
MP_HEAP = budgets.heap("core")  # the core's tests' heap; mp_board.py re-runs itself from
# source in SOURCE_HEAP (tools/budgets.py's "source_game")
# Host micropython (x86_64 unix port) runs bytecode about this many times faster than the
# board (matched against MicroPython's published perf_bench results; +/-25%).
BOARD_FACTOR = {"RP2040": 210, "ESP32": 185}


def micropython():
    return venv_program("micropython") or "micropython"


def run(script):
    name = os.path.basename(script)
    env = dict(os.environ)
    paths = [os.path.join(ROOT, p) for p in ("firmware", "tools/host", "host_tests/both",
                                              "tools/bench")]
    if name == "mp_edges.py":  # the board's .mpy files, as a board runs them (from source,
        tree = os.path.join(ROOT, "build", "bench")  # compiling would be what it measured)
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "maker", "build.py"), "--host",
                        "--target", "rp2040", "--out", tree, "--quiet"], check=True,
                       capture_output=True)
        paths[0] = os.path.join(tree, "rp2040")
    if name.startswith("mp_"):
        env["MICROPYPATH"] = ":".join(paths)
        env["SOURCE_HEAP"] = budgets.heap("source_game")
        env["SOAK_SOURCE_HEAP"] = budgets.heap("source_soak")
        cmd = [micropython(), "-X", "heapsize=" + MP_HEAP, script]
    else:
        env["PYTHONPATH"] = os.pathsep.join(paths + [os.path.join(ROOT, "tools")])
        cmd = [sys.executable, script]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    rows = [json.loads(line[4:]) for line in p.stdout.splitlines() if line.startswith("ROW ")]
    if p.returncode:
        rows.append({"what": "FAILED (exit %d): %s" % (p.returncode, (p.stderr or p.stdout)
                                                         .strip().splitlines()[-1:]),
                     "value": 0, "unit": ""})
    return rows


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.3g" % v if abs(v) < 1000 else "%d" % round(v)
    return str(v)


def board(r):
    """Estimated board times for host MicroPython timings."""
    unit = r.get("unit")
    if unit not in ("us", "ms"):
        return ""
    parts = []
    for chip, k in sorted(BOARD_FACTOR.items()):
        v = r["value"] * k
        parts.append("%s %s" % (chip, fmt_time(v if unit == "us" else v * 1000)))
    return ", ".join(parts)


def fmt_time(us):
    if us >= 1e6:
        return "%.2f s" % (us / 1e6)
    if us >= 1000:
        return "%.1f ms" % (us / 1000)
    return "%.0f us" % us


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pattern", nargs="?", default="",
                    help="run only the benchmarks whose name holds this (default: all)")
    pattern = ap.parse_args(argv).pattern
    scripts = sorted(glob.glob(os.path.join(BENCH, "mp_*.py"))) + \
        sorted(glob.glob(os.path.join(BENCH, "py_*.py")))
    failed = False
    print("Board estimates: host MicroPython time x %s (tools/bench/bench.py's BOARD_FACTOR:"
          " the unix port on this x86_64 host against MicroPython's published perf_bench results"
          " for those boards, +/-25%%; /work/shared/notes/micropython.md). The chip's own figures,"
          " measured on an emulated RP2040 from .mpy: docs/developers.md (issue 34)."
          % ", ".join("%s %d" % kv for kv in sorted(BOARD_FACTOR.items())))
    for script in scripts:
        name = os.path.basename(script)[:-3]
        if pattern not in name:
            continue
        where = "MicroPython %s heap" % MP_HEAP if name.startswith("mp_") else "CPython"
        print("\n## %s (%s)" % (name, where))
        print("%-46s %12s %-8s %12s %9s  %s" % ("what", "value", "unit", "reference", "ratio",
                                             "board estimate / note"))
        for r in run(script):
            failed |= r["what"].startswith("FAILED")
            est = board(r) if name.startswith("mp_") else ""
            note = "; ".join(x for x in (est, r.get("note", "")) if x)
            print("%-46s %12s %-8s %12s %9s  %s" % (r["what"][:46], fmt(r["value"]), r["unit"],
                                                 fmt(r.get("ref")), fmt(r.get("ratio")), note))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
