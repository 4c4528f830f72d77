"""Runs the plain test modules of host_tests/both/ under real MicroPython.

pytest cannot run on MicroPython, so the shared tests are plain functions with asserts; this
imports each test_*.py in host_tests/both/, calls every test_* function and prints one
'N passed, N failed' line. Exit status 1 if anything failed.
"""

import gc
import os
import sys

HERE = "host_tests/both"


def main():
    only = sys.argv[1:]
    names = sorted(n[:-3] for n in os.listdir(HERE) if n.startswith("test_") and n.endswith(".py"))
    passed = failed = 0
    for modname in names:
        if only and modname not in only:
            continue
        try:
            mod = __import__(modname)
        except Exception as e:  # a module that fails to import is one failure, loudly
            failed += 1
            print("FAIL", modname, "(import)")
            sys.print_exception(e)
            continue
        for fname in sorted(n for n in dir(mod) if n.startswith("test_")):
            fn = getattr(mod, fname)
            if not callable(fn):
                continue
            gc.collect()
            try:
                fn()
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (modname, fname))
                sys.print_exception(e)
            else:
                passed += 1
        del sys.modules[modname]
        gc.collect()
    gc.collect()
    print("micropython: heap in use after the run %d bytes, free %d"
          % (gc.mem_alloc(), gc.mem_free()))
    print("micropython: %d passed, %d failed" % (passed, failed))
    if failed or not passed:
        sys.exit(1)


main()
