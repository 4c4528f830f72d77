"""Starts the board simulator: python tools/sim.py [--keys ...] (--help for the options).

The simulator is the package tools/sim/ (its __init__.py lists a module per job); this file
only runs its command line, tools/sim/cli.py. `import sim` finds that package, never this
file: in one folder a package wins over a module of the same name, and this file runs as
__main__. (Kept so that `python tools/sim.py` and `make sim` stay as the README has them.)
"""

import sys

from sim.cli import main

if __name__ == "__main__":
    sys.exit(main())
