"""Regenerate the advisor's crib table, firmware/cribbage/cribtable.py:
python tools/tables/gen_crib_table.py

Full enumeration with the core's scorer (tools/tables/cribgen.py says the method and its error):
169 cells of 58,800 cribs each, about 10 s per core. Cells run in parallel on all cores.
"""

import os
import time

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

OUT = os.path.join(ROOT, "firmware", "cribbage", "cribtable.py")


def _cell_sum(args):
    import cribgen

    return cribgen.pair_sum(*args)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.parse_args(argv)
    import cribgen

    t0 = time.time()
    todo = cribgen.cells()
    try:
        import multiprocessing

        with multiprocessing.Pool() as pool:
            sums = pool.map(_cell_sum, todo)
    except (ImportError, OSError):  # no process pool here: one core does it
        sums = [cribgen.pair_sum(*args) for args in todo]
    src = cribgen.table_source(sums)
    with open(OUT, "w") as f:
        f.write(src)
    print("wrote %s (%d bytes of source) in %.1f s"
          % (os.path.relpath(OUT, ROOT), len(src), time.time() - t0))


if __name__ == "__main__":
    main()
