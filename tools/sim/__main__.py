"""Starts the board simulator: python tools/sim [--keys ...] (--help for the options).

The simulator is this package, tools/sim/ (its __init__.py lists a module per job); this file
only runs its command line, cli.py. Python runs a folder's __main__.py with the folder as
sys.path[0]: toolpath.py puts tools/ on the path, where `import sim` finds this package.
(`make sim` runs it so.)
"""

import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from sim.cli import main

if __name__ == "__main__":
    sys.exit(main())
