"""Tiny helpers shared by the tests that run under both CPython (pytest) and MicroPython."""

import sys

ON_MICROPYTHON = sys.implementation.name == "micropython"


def raises(exc, fn, *args, **kw):
    """Call fn and return the exception of type exc it raised; fail if it raised none."""
    try:
        fn(*args, **kw)
    except exc as e:
        return e
    raise AssertionError("%r did not raise %s" % (fn, exc.__name__))


def no_alloc(fn):
    """Call fn() with the heap locked (MicroPython): any allocation in it raises MemoryError.
    Build the inputs before, in a closure: fn takes no arguments (calling with *args would
    itself allocate). On CPython it just calls fn. Returns fn's result."""
    if not ON_MICROPYTHON:
        return fn()
    import micropython

    micropython.heap_lock()
    try:
        return fn()
    finally:
        micropython.heap_unlock()
