"""The page's PIN: a write from a phone (a new game, the seats' names) needs the PIN the board
shows, for that phone, once; a phone that asks for one or types a wrong one waits before its
next try (its own wait: nobody else's).

    pin = Pin(app, phones, idle) # app: the board's (apply() its door, clock, display, msg)
    pin.ask(ip)                  # POST /pin: a new PIN shown, or (text, status) why not
    pin.refused(ip, form)        # a write: (text, status) why it is refused, or None
    pin.used(ip)                 # the write served: the PIN is taken off the board
    pin.mask(lines)              # the display's lines with the PIN hidden (for the network)

The PIN shows on the display's message line ("web PIN 1234"), or on the LEDs of a board
without a display (board/state.py marks it), for _PIN_SHOWN_MS.

Loaded only while a PIN is wanted (page/routes.py's Web.pins(), as board/fault.py's table
says): a Pin whose PIN is off the board (used, expired, guessed at too often) calls idle(),
and the page lets it go, keeping only the phones' waits (phones, a dict it hands in again).
"""

import asyncio
import os

from board.keypad import ticks_diff, ticks_add, sleep_ms
from board.modes import SAY, PIN, MSG_TEXT, message

from micropython import const

_PIN_MSG = "web PIN "  # the display's PIN line (the page's copy masks the number)
_LOCK_MS = const(2000)  # a phone that asks a PIN or types a wrong one waits this long before
_LOCK_MAX = const(8)    # its next try, doubled each time (to 256x) until a new game is started
_PHONES = const(8)      # phones whose waits are remembered (the oldest wait is forgotten)
_TRIES = const(3)       # wrong tries before a PIN is taken off the board
_PIN_SHOWN_MS = const(60000)
_ASK = const(0)  # a phone's record: when it may ask for a PIN again,
_TRY = const(1)  # when it may type one again (after a wrong one),
_DOUBLED = const(2)  # and how many times its waits have doubled
_QUIET = (SAY, message(""))  # the app's command that clears the display's message line


def says(app, start):
    """True if the display's message line is text starting with start."""
    msg = app.msg
    return msg[0] == MSG_TEXT and msg[1].startswith(start)


class Pin:
    """The PIN and the phones' waits."""

    def __init__(self, app, phones=None, idle=None):
        self.app = app
        self.phones = {} if phones is None else phones  # ip -> its waits (_ASK, _TRY, _DOUBLED)
        self.idle = idle  # called when the PIN is off the board (None: nobody is told)
        self.pin = 0
        self.pin_for = ""  # the phone (ip) that asked for the PIN
        self.pin_at = -1  # when the PIN was shown on the display (-1: not since it was made)
        self.tries = 0  # wrong tries of this PIN
        self.hiding = None  # the task that takes the PIN off the LEDs
        self.new_pin()

    def new_pin(self):
        b = os.urandom(2)
        self.pin = (b[0] << 8 | b[1]) % 9000 + 1000
        self.pin_at = -1
        self.pin_for = ""
        self.tries = 0

    def _waits(self, now, ip, what):
        """ms the phone at ip waits before it may ask for a PIN (what _ASK) or type one (_TRY)
        again (0: none)."""
        w = self.phones.get(ip)
        if w is not None:
            left = ticks_diff(w[what], now)
            if 0 < left <= _LOCK_MS << _LOCK_MAX:
                return left
        return 0

    def _strike(self, now, ip, what):
        """The phone at ip asked for a PIN (what _ASK) or typed a wrong one (_TRY): it waits
        before it does so again, twice as long as its last wait (until a new game is started
        from it). Only that phone waits: others, the owner's, never do for it."""
        phones = self.phones
        w = phones.get(ip)
        if w is None:
            if len(phones) >= _PHONES:  # the one whose waits end first is forgotten
                old = None
                for k in phones:
                    if old is None or ticks_diff(max(phones[k][0], phones[k][1]),
                                                 max(phones[old][0], phones[old][1])) < 0:
                        old = k
                del phones[old]
            w = phones[ip] = [now, now, 0]
        w[what] = ticks_add(now, _LOCK_MS << w[_DOUBLED])
        if w[_DOUBLED] < _LOCK_MAX:
            w[_DOUBLED] += 1

    def ask(self, ip):
        """The board shows a new PIN on its display, for the phone at ip (the page asks
        before a change); that phone waits before it may ask again (longer each time). None,
        or (text, status) when it must wait."""
        app = self.app
        now = app.clock()
        left = self._waits(now, ip, _ASK)
        if left:
            return "wait %d s" % (left // 1000 + 1), 429
        self._strike(now, ip, _ASK)
        self.new_pin()
        self.pin_for = ip
        app.apply((SAY, message(_PIN_MSG + str(self.pin))))  # (the page's copy of the
        # display hides it)
        self.pin_at = now
        self.show_pin(True)
        return None

    def refused(self, ip, form):
        """Why a write from the phone at ip with the PIN in form is refused, as (text,
        status), or None: from the phone the PIN was shown for, within _PIN_SHOWN_MS, and that
        phone not waiting; a wrong PIN makes only that phone wait (doubling), and the third
        takes the PIN off the board."""
        now = self.app.clock()
        left = self._waits(now, ip, _TRY)
        if left:
            return "locked: wait %d s" % (left // 1000 + 1), 429
        shown = self.pin_at >= 0 and 0 <= ticks_diff(now, self.pin_at) < _PIN_SHOWN_MS
        if not shown or self.pin_for != ip:
            return "ask for the PIN first", 403  # (no PIN of this phone's to guess)
        if form.get("pin", "") != str(self.pin):
            self._strike(now, ip, _TRY)  # (its own wait: nobody else's)
            self.tries += 1
            if self.tries >= _TRIES:  # enough guesses at this one
                self.new_pin()
                self.show_pin(False)
            return "wrong PIN", 403
        return None

    def used(self, ip):
        """The PIN served: it is taken off the board (a PIN serves once), the phone's waits
        start again."""
        self.phones.pop(ip, None)
        self.new_pin()
        self.show_pin(False)

    def mask(self, lines):
        """The display's lines (a list, changed in place) with the PIN as ****: the display
        may be showing it, and it never goes on the network."""
        pin = str(self.pin)
        for i in range(len(lines)):
            lines[i] = lines[i].replace(pin, "****")

    def show_pin(self, on):
        """The PIN on the LEDs of a board without a display (board/state.py marks it), for
        _PIN_SHOWN_MS; the display says it in its message line."""
        app = self.app
        if self.hiding is not None:  # one PIN at a time: the last one's timer goes
            self.hiding.cancel()
            self.hiding = None
        if on:
            self.hiding = asyncio.create_task(self._hide())
        if app.display is None:
            app.apply((PIN, self.pin if on else -1))
        elif not on and says(app, _PIN_MSG):
            app.apply(_QUIET)  # a PIN that no longer works leaves the display
        if not on and self.idle is not None:
            self.idle()  # (the page lets go of this Pin: no PIN of its works any more)

    async def _hide(self):
        """The PIN shown expires (its time is up, on any board). Its own task: nothing
        escapes."""
        try:
            await sleep_ms(_PIN_SHOWN_MS)
            self.hiding = None
            self.pin_at = -1
            self.show_pin(False)
        except Exception as e:  # noqa: BLE001  (MemoryError: the PIN is refused anyway)
            print("web:", repr(e))
