"""The board app: keys -> entries -> match engine -> View -> renderer -> pixels (one way).

The key map and what OK does: board/modes.py (THE KEY MAP). What the app is, how it is split
and where its mode state lives: the comment below (a comment costs no RAM when the module is
compiled on the board; a long docstring does).
"""

# Start it with board.tasks.run(hw) (asyncio, forever; `hw` is the dict a board module builds,
# its keys: board/boot.py's THE HARDWARE INTERFACE: the app never constructs hardware), or
# drive board.app.App(hw) step by step:
# app.boot() (a key held at power-up starts the LED self-test), app.step(now_ms) handles queued
# key events and draws a frame (strip.write() only when a pixel changed); app.key("5") /
# app.long_key("*") inject key presses. What a simulator or a test reads: app.m (the match
# engine's state), app.err (the last refused entry's message, or None), app.msg (the message
# line: board/modes.py's (kind, a, b)), app.lines() (the display's text, also without a
# display), app.view (what the LEDs show), app.cfg (settings).
#
# THE APP OWNS WHAT THE USER SEES. One way in: every input becomes a command (board/modes.py:
# a tuple, its op first), and only the app applies it, each op by its handler in one table
# (board/commands.py, the App's own, with the View's fill): they and this module are the only
# code that changes the entry (app.e), the View (app.view) and the app's own state. A key:
# board/entry.py or board/menu.py reads the View and returns the command (what it would
# change in the entry is an EDIT): key handlers write nothing. Anything else (the live page's
# new game, its PIN, a later network source) calls app.apply(cmd), the door, which applies it
# as a key's (a fault in it handled here, never raised to the caller). What draws or reports
# (board/text.py, menutext.py, the renderer, entry.py's preview) reads the View, the snapshot
# the app fills (board/commands.py's shown(app)), never the app; the history
# (board/history.py) takes the game and the files and returns what to say.
#
# WHERE MODE STATE LIVES (one rule): the mode and the place in it are the app's (app.mode,
# app.item: the menu's item, app.pen: the penalty's kind), changed only by a (MODE, mode, k)
# command; everything typed or chosen within a mode (the number, the cards, the seat, the
# muggins side, the penalty's offender, the advice, the statistics' pages and page, "OK again
# ends this game") is the entry's, changed only by an EDIT (or the entry's clear(), fault() or
# blank(), called by the app). The View carries copies of both for the readers.
#
# The board's modules, each's job and what loads lazily: docs/developers.md (firmware/board/,
# and the names a board interns: no __init__.py, a lazy module let go after its use).

import gc

from cribbage import match as M

from board import keypad
from board.keypad import ticks_diff
from board.render import ERROR_MS, dumps
from board import entry
from board.commands import run, follow, shown
from board import fault  # kept loaded: an import that runs out of memory can crash MicroPython
from board import modes  # (its commands and the key map as modes.X: no copy of each in
# this module's globals, ~22 bytes each on a 64-bit port)

from micropython import const

# (private consts: folded into the code, no names kept in RAM)
_WATCHDOG_MS = const(8000)
_SELFTEST_HOLD_MS = const(600)
_BACK_KEY = const(14)  # board/modes.py's KEYS (THE KEY MAP): back's place; then OK's, the
# buttons' (a copy: host_tests/test_keymap.py holds it equal; a name would be interned for good)


class App:
    def __init__(self, hw, r=None):
        # Every attribute first, while the heap is whole: the instance dict grows to its full
        # size (about 600 bytes in one piece on a 64-bit port) before the files, the renderer
        # and the match split the heap (a 96 KB heap once lacked that block here)
        self.hw = hw
        self.unsaved = False  # an entry is in the engine, not yet on flash
        self.changes = 0  # counts the keys handled: the live page (board/web.py) follows it
        self.pin = -1  # the live page's PIN while the LEDs show it (no display), else -1
        self.broken = False  # a fault left the engine's state unrestored (board/fault.py)
        self._deferred = False  # True while step() handles keys: it saves after the frame
        self.wdt = None
        self.mode = modes.NORMAL
        self.item = 0  # menu item
        self.pen = 0  # the penalty entry's kind (cribbage.events.MISDEAL, FAIL_TO_PLAY)
        self.err = None
        self.msg = modes.VERSION_MSG  # power-up: the display's first line says which firmware
        self.now = 0
        self.selftest_step = -1
        self.counting = -1  # the entry is a hand with its count: 0, 1 the crib (entry.counting)
        self.held = ""  # the key whose long press was taken: its release is no short press
        self.text = None  # True once the display's text is drawn (None: draw it again; its
        # lines are not kept: the display has them, ~0.3 KB of strings on a board)
        self.redraw_at = -1  # when the display's text changes without an event (text.py)
        self.count_at = 0
        self.note = None  # what happened at boot to a file it could not read, or the loader's
        self.power = None  # board/power.py's states (board/tasks.py sets them with hw's power)
        self.record = None  # a game won, its record in the history: (events, head) written
        # at its end (step), (events, None) not written then; a list, its parts
        # made at the OK that starts the next game (commands.record), written at the next
        # save (board/undo.py's saved(), which flags it undone if an undo went past its end)
        self.fault = 0  # faults handled (recover): ota/trial.py counts them (a name the app
        # has already: the module board.fault's, one interned name fewer than "faults")
        # the attributes filled in once the hardware is checked and the files read: places now
        for name in ("layout", "clock", "display", "strip", "keys", "store", "cfg", "renderer",
                     "m", "view", "e"):
            setattr(self, name, None)
        had = fault.modules()
        from board import boot  # power-up only: its code leaves the heap after (release):
        (self.keys, self.store, self.layout, self.clock, self.display, self.strip, self.cfg,
         self.renderer, self.m, self.note, self.view) = boot.start(hw, r)  # (the hardware,
        # the files, the renderer, the match and its View: App's, assigned here, the one way in)
        boot = None
        fault.release(had)  # (board.boot: loaded for one call, fault.py's table)
        gc.collect()
        self.e = entry.Entry()  # what is typed and not yet confirmed
        self.watchdog(self.cfg.get("watchdog"))
        follow(self)
        if self.note:  # said on the display (once: the loader's file is gone), the LEDs flash
            self.refuse(self.note)
            self.view.error_at = self.clock()

    # --- setup ---------------------------------------------------------------------------

    def watchdog(self, value):
        """Start the watchdog (opt-in: it cannot be stopped until reset)."""
        make = self.hw.get("watchdog")
        if value and make is not None and self.wdt is None:
            self.wdt = make(_WATCHDOG_MS)

    def powered(self, power):
        """board/power.py's states, from their task (board/tasks.py): step() asks them first;
        and again when they changed what shows (woken, dimmed): the frame is drawn anew."""
        self.power = power
        self.view.dirty = True

    # --- the key events ------------------------------------------------------------------

    def event(self, ev):
        """One keypad event (kind | key) from the key source."""
        kind = ev & keypad.KIND
        name = self.keys.name(ev)
        if self.selftest_step >= 0:
            return
        k = modes.KEYS.find(name) - _BACK_KEY  # its place in THE KEY MAP: 0 back, 1 OK, 2..
        # buttons
        if k == 0 or k == 1:  # a long meaning too: act on release, or on LONG
            if kind == keypad.LONG:
                self.held = name
                self.long_key(name)
            elif kind == keypad.UP:
                if self.held != name:
                    self.key(name)
                self.held = ""
        elif k >= 2:  # +1 for a side, repeating while held
            if kind == keypad.DOWN or kind == keypad.REPEAT:
                side = k - 2
                if side >= self.m.sides:
                    run(self, (modes.REFUSE, "no side %d" % (side + 1)))
                else:
                    run(self, (modes.CALL, self.m.peg, side, 1))
                self._done()
        elif kind == keypad.DOWN:
            self.key(name)

    def key(self, name):
        """A short press of the key called name ("5", "A", "#", "*", ...): board/entry.py (or
        board/menu.py) says what it means, as a command; the app applies it (commands.run)."""
        e = self.e
        if e.quick:
            e.quick = False
            if modes.KEYS.find(name) == _BACK_KEY + 1 and not e.cards:  # OK right after a
                return  # card or go that went in as typed: a habit, not an entry (a hand filled
                # in after it: OK counts it)
        self.err = None
        run(self, entry.key(shown(self), name))
        self._done()

    def long_key(self, name):
        """A long press: hold * undo, hold # redo (in a menu: leave it)."""
        self.err = None
        self.e.clear()
        run(self, (modes.MODE, modes.NORMAL, 0) if self.mode != modes.NORMAL else  # (held:
                    (modes.UNDO, modes.KEYS.find(name) - _BACK_KEY) if name in "*#" else  # back,
                    modes.NOTHING)  # OK)
        self._done()

    def apply(self, call):
        """THE DOOR for every input but the keypad's own (the live page's new game and its
        PIN, a network message): call (board/modes.py) applied as a key's is. A fault in it
        is the game's, handled here (recover): nothing is raised to the caller, app.err says
        what went wrong. A note (SAY, PIN, SUSPECT) changes only what is shown."""
        what = call[0]
        if what == modes.SUSPECT:  # (the game may be half changed: nothing looks at it now)
            run(self, call)
            return
        if what == modes.SAY or what == modes.PIN:
            run(self, call)
            if what == modes.PIN:
                follow(self)
            self.changes += 1
            self.view.dirty = True
            return
        self.err = None
        try:
            run(self, call)
            self._done()
        except Exception as e:  # noqa: BLE001  (as step() does for a key)
            self.recover(e)

    def _done(self):
        """After a command: the entry and the View follow; step() saves after its frame, a
        direct call (tests, the simulator's injected keys, the page) saves now."""
        self.changes += 1
        follow(self)
        if not self._deferred:
            self.save()

    def save(self):
        """Save the game if an entry changed it: right after the frame that shows the entry
        (step), so the LEDs never wait for the flash (board/storage.py's saved(): a failure
        is said on the display, the game goes on and the next entry saves it again)."""
        d = self.record  # the finished game's record (board/undo.py): written now if it
        if isinstance(d, list) or (self.unsaved and isinstance(d, tuple) and d[1] is not None):
            said = had = None  # could not be at its end; else flagged undone if an entry
            for again in (0, 1):  # undid the game past that end (before the game is saved:
                try:  # a power cut between, the game's end again, recorded again after it)
                    had = fault.modules("board.history")  # (let go: the record's, loaded
                    # for it here or at the OK, board/commands.py)
                    self.record, said = fault.load("board.undo").saved(self.store, d, self.m)
                    break
                except Exception as e:  # noqa: BLE001  (out of memory to load it)
                    gc.collect()
                    if again:
                        self.refuse(fault.message(e))  # (the game is not saved either: the
                        return  # flash keeps its end; the next save tries again)
            fault.release(had)  # board.undo and board.history (3.3 KB of the 64-bit heap
            had = None  # kept in every game after the first otherwise: issue 34)
            if said:
                self.refuse(said)
                self.view.dirty = True
        if not self.unsaved:
            return
        self.unsaved = False
        said = self.store.saved(self.m, dumps, self.view, self.renderer)  # (and the frame as
        if said:  # shown now beside it: board/boot.py draws it at the next power-up)
            self.refuse(said)

    def recover(self, e):
        """Anything but a refusal raised by an entry or a frame: restore the game and say
        so. The typed entry stays as it was (board/fault.py says how), unless the last thing
        said was a fault too. If even that runs out of memory, say the least, and step()
        restores the game before the next entry."""
        self.fault += 1  # (first: the trial sees every fault, however this one ends)
        try:
            gc.collect()
            self.counting = -1  # (the display counts a hand only once the View says so)
            self.e.fault(self.err)
            self.mode = modes.NORMAL
            self.selftest_step = -1
            self.restore()
            self.refuse(fault.message(e))
            try:
                follow(self)  # (the hand as played, for the game as restored)
            except Exception:  # noqa: BLE001
                gc.collect()
                self.view.dirty = True
        except Exception:  # noqa: BLE001
            gc.collect()
            self.broken = True
            self.err = "fault (out of memory): the game is kept"
            self.view.error_at = self.now
            self.view.dirty = True

    def restore(self):
        """The game's state again from its journal, else from the last save (board/fault.py);
        if neither can be had now, self.broken stays True and step() tries again before the
        next entry."""
        self.broken = True
        try:
            got = fault.restore(self.m, self.store)
        except Exception:  # noqa: BLE001  (still short: the next turn tries again)
            gc.collect()
            return
        if got is not None:
            self.unsaved = got is self.m  # the journal's state goes to flash after the next
            self.m = got  # frame; a game loaded from flash is what the flash holds
            self.broken = False

    def refuse(self, text):
        """REFUSE: say text on the display and flash the LEDs red; nothing else changes."""
        self.err = text
        self.view.error_at = self.now
        if self.display is None:  # nothing shows what is typed: after the flash, type afresh
            self.e.blank()

    def lines(self):
        """The display's text now (also what the simulator prints); board/text.py builds it,
        loaded only on a board with a display."""
        return fault.load("board.text").lines(shown(self))[0]

    # --- the loop -------------------------------------------------------------------------

    def step(self, now):
        """One turn of the loop: handle queued key events, draw a frame, save what an entry
        changed (after the frame), feed the watchdog. A fault in an entry or a frame is
        handled here (recover): the loop never stops."""
        self.now = now
        keys = self.keys
        if self.selftest_step >= 0:  # (its code loaded only while the test runs)
            from board.selftest import run
            self.selftest_step = run(self.renderer, self.strip, keys, self.selftest_step)
            if self.selftest_step < 0:
                self.view.dirty = True
        elif self.power is not None and self.power.step(self, now):
            pass  # off or empty (board/power.py): no key, no frame; the waking key is dropped
        else:
            if self.broken:  # a fault could not restore the game: try again before any entry
                self.restore()
            self._deferred = True
            while True:
                ev = keys.get()
                if ev < 0:
                    break
                try:
                    self.event(ev)
                except Exception as e:  # noqa: BLE001  (a refusal is no exception: see do)
                    self.recover(e)
            self._deferred = False
            v = self.view
            try:  # the frame
                if v.dirty:  # the view changed: the display's text may have too
                    self.text = None
                if self.renderer.maybe(v, now):
                    self.strip.write()
                d = self.display
                if d is not None:
                    if self.redraw_at >= 0 and ticks_diff(now, self.redraw_at) >= 0:
                        self.text = None  # a long count scrolls on
                    if self.text is None:
                        self.redraw_at = fault.load("board.text").draw(d, shown(self))[1]
                        self.text = True
                if v.error_at >= 0 and ticks_diff(now, v.error_at) > ERROR_MS:
                    v.error_at = -1  # the flash is over (the display keeps the message)
                    v.dirty = True
            except Exception as e:  # noqa: BLE001
                self.recover(e)
            self.save()
            m = self.m
            s = self.record
            if m.phase != M.OVER:
                if isinstance(s, tuple):  # (undone: no longer the game's)
                    self.record = None
            elif not self.broken and (s is None or (isinstance(s, tuple) and (
                    s[0] != m.events or len(s) > 2))):
                self.rest(keys, self.store)  # a game won: its record, after its frame and its
                # save (issue 34), until a key waits; without another key (the outbox: issue 30)
        if self.wdt is not None:  # fed only while this loop and the keypad scan both run
            scanned = getattr(keys, "scanned_at", now)
            if ticks_diff(now, scanned) < _WATCHDOG_MS // 4:
                self.wdt.feed()

    def rest(self, keys, store):
        """The won game's record to the history (board/history.py's rest()): its summary
        until keys has an event waiting (that key first, then the rest; keys None: all of
        it), then the record written to store (None: its parts kept, written after the next
        game's frame: App.save). board/commands.py's run finishes it before a command that
        would change the game (recorded once, as it ended)."""
        m = self.m
        no = self.record  # (if even the next line runs out of memory: the next turn again)
        try:
            no = (m.events, None)  # kept if it fails (not written: again at the OK); made
            # first, so that the handlers below need no memory (a failed replay: half put back)
            had = fault.modules("board.history")
            H = fault.load("board.history")
        except Exception:  # noqa: BLE001  (no room to load it: the game untouched, no fault,
            self.record = no  # and what this turn said, a save's failure, stays said: the
            return  # record is made at the OK, which says if it cannot be)
        try:
            s, said = H.rest(m, store, self.record, keys)
            H = None
            self.record = s
            if said:
                self.refuse(said)
            if not isinstance(s, tuple) or len(s) < 3:
                fault.release(had)  # (board.history: not kept for the OK, nor after it)
        except Exception as e:  # noqa: BLE001
            self.record = no
            self.recover(e)

    def boot(self):
        """At power-up: the saved game's frame at once, then, only if a key is down, the
        LED self-test when it stays held for _SELFTEST_HOLD_MS (board/boot.py)."""
        self.step(self.clock())
        fault.release(fault.modules("version"))  # (the first frame's line: the firmware's
        # version, read for it and let go: fault.py's table, h; a redraw before the first key
        # reads it again)
        keys = self.keys
        if not hasattr(keys, "update") or not keys.scan():
            return False  # nothing held: no self-test window to wait for
        had = fault.modules()
        from board.boot import held_at_power_up
        on = held_at_power_up(keys, self.clock, self.hw.get("sleep_ms"), _SELFTEST_HOLD_MS)
        fault.release(had)  # (board.boot: loaded for one call)
        gc.collect()
        if on:
            self.selftest_step = 0
        return on
