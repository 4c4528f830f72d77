"""Host-only stand-in for MicroPython's built-in `micropython` module.

Firmware says `from micropython import const`, as every MicroPython module does. On the board
that is the built-in; under CPython (pytest, the tools, the simulations) this file is found
instead, because tools/ is on the path (pytest's pythonpath; sys.path[0] for `python tools/x.py`).
It is never copied to a board: tools/ is not part of the build.
"""


def const(x):
    """The value itself: on MicroPython const() is a hint to the compiler, nothing at run time."""
    return x
