"""What a request of the page loads for itself (the statistics, the deals' replay, the
history's export): loaded when there is room, and dropped after the last request that loaded
it, unless the board had it loaded already (a connection that loaded any is marked heavy:
page/server.py calls ended() as it closes)."""

import gc
import sys

from board.fault import room, forget

# the modules a request may load: dropped after it unless the board had them loaded
_LAZY = ("board.stats", "board.export", "board.record", "board.history", "cribbage.summary")


class Lazy:
    """The modules of _LAZY the page's requests hold."""

    def __init__(self):
        self.heavy = 0  # requests holding modules of _LAZY
        self.had = 0  # which of _LAZY the board had loaded when the first of them began

    def load(self, c, name):
        """Module name for the request on connection c (page/server.py's Conn; None: no
        connection, what it loads stays): loaded if there is room."""
        if c is not None and not c.heavy:
            if not self.heavy:
                had = 0
                for i in range(len(_LAZY)):
                    if _LAZY[i] in sys.modules:
                        had |= 1 << i
                self.had = had
            self.heavy += 1
            c.heavy = True
        room(name)
        __import__(name)
        return sys.modules[name]

    def ended(self, c):
        """Connection c closed: if it loaded modules and was the last to, they are dropped
        (gc frees them)."""
        if not c.heavy:
            return
        self.heavy -= 1
        if self.heavy <= 0:
            self.heavy = 0
            for i in range(len(_LAZY)):
                if not self.had & 1 << i:
                    forget(_LAZY[i])  # (the deals made stay: bytes, a few hundred)
            gc.collect()


def passing(name, what, *args):
    """Module name's function what(*args), for one call: every module the call loaded (that
    one, what it imports) is let go after (the club's names, for the page's /club and
    /names: nothing of the club stays on the heap for them)."""
    had = list(sys.modules)
    room(name)
    __import__(name)
    try:
        return getattr(sys.modules[name], what)(*args)
    finally:
        for k in list(sys.modules):
            if k not in had:
                forget(k)
