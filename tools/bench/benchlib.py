"""Shared by the benchmark scripts (MicroPython and CPython): timing, heap deltas, ROW output."""

import gc
import json
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def row(what, value, unit, ref=None, ratio=None, note=None):
    """One result line for tools/bench/bench.py: ROW {json}."""
    d = {"what": what, "value": value, "unit": unit}
    if ref is not None:
        d["ref"] = ref
    if ratio is not None:
        d["ratio"] = ratio
    if note:
        d["note"] = note
    print("ROW " + json.dumps(d))


def per_call_us(fn, n, repeats=5):
    """Median microseconds per fn() call over `repeats` runs of n calls."""
    times = []
    for _ in range(repeats):
        t = ticks_us()
        for _ in range(n):
            fn()
        times.append(ticks_diff(ticks_us(), t) / n)
    times.sort()
    return times[len(times) // 2]


def alloc_per_call(fn, n=200):
    """Heap bytes allocated per fn() call, with the collector off (MicroPython)."""
    if not hasattr(gc, "mem_alloc"):
        return None
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(n):
            fn()
        after = gc.mem_alloc()
    finally:
        gc.enable()
    return (after - before) / n
