"""Regenerate firmware/cribbage/tables.py from the rules core: python tools/tables/gen_tables.py"""

import os

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (importing hostenv puts firmware/ on sys.path)

OUT = os.path.join(ROOT, "firmware", "cribbage", "tables.py")


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.parse_args(argv)
    # tables.py must exist for the core to import; a stub is enough to build the real one
    if not os.path.exists(OUT):
        with open(OUT, "w") as f:
            f.write("SHOW_BIAS = 48\nSHOW = b''\n")
    import tablegen

    src = tablegen.tables_source()
    with open(OUT, "w") as f:
        f.write(src)
    print("wrote %s (%d bytes of source)" % (os.path.relpath(OUT, ROOT), len(src)))


if __name__ == "__main__":
    main()
