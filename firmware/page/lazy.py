"""What a request of the page loads for itself (the statistics, the deals' replay, the
history's export): loaded when there is room, and let go after the last request that loaded
it as board/fault.py's table says (what the board had loaded before stays); a connection that
loaded any is marked heavy: page/server.py calls ended() as it closes."""

import gc

from board.fault import load, modules, release


class Lazy:
    """What the page's requests hold of the modules they loaded."""

    def __init__(self):
        self.heavy = 0  # requests holding modules they loaded
        self.had = None  # the modules the board had loaded when the first of them began

    def load(self, c, name):
        """Module name for the request on connection c (page/server.py's Conn; None: no
        connection, what it loads stays): loaded if there is room."""
        if c is not None and not c.heavy:
            if not self.heavy:
                self.had = modules()
            self.heavy += 1
            c.heavy = True
        return load(name)

    def ended(self, c):
        """Connection c closed: if it loaded modules and was the last to, they are let go
        (gc frees them)."""
        if not c.heavy:
            return
        self.heavy -= 1
        if self.heavy <= 0:
            self.heavy = 0
            release(self.had)  # (the deals made stay: bytes, a few hundred)
            self.had = None
            gc.collect()


def passing(name, what, *args):
    """Module name's function what(*args), for one call: every module the call loaded (that
    one, what it imports) is let go after (the club's names, for the page's /club and
    /names: nothing of the club stays on the heap for them)."""
    had = modules()
    try:
        return getattr(load(name), what)(*args)
    finally:
        release(had)
