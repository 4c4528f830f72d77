"""Host-only stand-in for MicroPython's built-in `micropython` module.

Firmware says `from micropython import const`, as every MicroPython module does. On the board
that is the built-in; under CPython (pytest, the tools, the simulations) this file is found
instead, because tools/host/ is on the path (pytest's pythonpath; tools/hostenv.py for a tool).
It is never copied to a board: tools/ is not part of the build, and a --host tree leaves it out
(tools/maker/build.py's SKIP: MicroPython's own module wins over a file anyway).
"""


def const(x):
    """The value itself: on MicroPython const() is a hint to the compiler, nothing at run time."""
    return x
