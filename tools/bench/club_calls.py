# The live heap inside the club publisher's calls, which main_club.py's peak (at every card and
# count, and between the publisher's polls) never sees: each call (publish/task.py's _call: a
# tick of publish/link.py, publish/message.py's make()) loads its modules, works and lets them
# go before the game's next step. Imported by main_club.py when its 7th argument is "calls"
# (not otherwise: its code would be on the heap of the budget's run); it wraps board.fault's
# load() and release() and the task's _call, and takes gc.mem_alloc() after a gc.collect()
# before each load and each release inside a call (the release in make(), right after the
# game is decoded, is that call's peak). report(): the highest, and where, as
#   CALLS peak X at WHERE  (WHERE: "load MODULE@CALL" or "release@CALL"; CALL: make, or
#   tickW, W publish/link.py's bits)
# issue 34: a game's message made inside the tick peaked ~32 KB over the board at rest.

import gc

import board.fault as _F
import publish.task as _T

_top = [0, "", 0, ""]  # the peak, where; inside a call (1), which


def _at(where):
    if _top[2]:
        gc.collect()
        a = gc.mem_alloc()
        if a > _top[0]:
            _top[0] = a
            _top[1] = where + "@" + _top[3]


def _wrap(load, release, call):
    def _load(name):
        _at("load " + name)
        return load(name)

    def _release(held=()):
        _at("release")
        return release(held)

    def _call(what, *args, **kw):
        _top[2] = 1
        _top[3] = what + (str(args[1]) if what == "tick" else "")
        try:
            return call(what, *args, **kw)
        finally:
            _top[2] = 0

    _F.load = _load
    _F.release = _release
    _T._call = _call


_wrap(_F.load, _F.release, _T._call)


def report():
    return "CALLS peak %d at %s" % (_top[0], _top[1])
