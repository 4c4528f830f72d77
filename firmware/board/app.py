"""The board app: keys -> entries -> match engine -> View -> renderer -> pixels (one way).

The key map and what OK does are in the comment below (a comment costs no RAM when
the module is compiled on the board; a long docstring does).
"""

# Entry point: App(hw) then board.tasks.tasks(app) (asyncio, on a board or in the simulator), or
# app.step(now) / app.key(name) / app.long_key(name) driven by tests. `hw` is the dict a board
# module builds (below): the app never constructs hardware.
#
# THE HARDWARE INTERFACE (the MicroPython examples/hwapi pattern). The app never constructs
# hardware: a board module (firmware/boards/<name>.py, chosen in firmware/board_config.py)
# builds it and hands the app one dict, `hw`, with these keys:
#
#   layout       board.layout.Layout: where every LED is (parameters of the build)
#   strip        the LEDs: `.buf` (bytearray, bpp bytes per LED, in the strip's colour order)
#                and `.write()`; optional `.ORDER` (neopixel's, default GRB) and `.bpp` (3)
#   keys         optional: a key source with get() -> event byte (kind | key, see
#                board.keypad) or -1, and name(event) -> "0".."9" "A".."D" "*" "#" or "a"..
#                (buttons); update(now)/held(k)/run(clock) if it scans. When absent the app
#                builds a board.keypad.Keypad from:
#   rows, cols   the 4x4 matrix pins as callables: rows[r](0/1) drive, cols[c]() read (0 =
#                pressed; pull-ups); machine.Pin objects are such callables
#   buttons      optional discrete buttons, callables reading 0 when pressed ("+1" per side)
#   display      optional: an object with fill(c), text(s, x, y, c), show() -- the
#                micropython-lib ssd1306 driver's SSD1306_I2C, or None (LEDs only)
#   clock        callable -> milliseconds (time.ticks_ms on a board; wraps at 2**30)
#   sleep_ms     optional callable(ms), used only by the boot self-test check
#   storage_dir  folder for the saved game and settings ("/data" on a board)
#   fs           optional filesystem object (open/rename/remove/mkdir, e.g. a vfs.VfsLfs2);
#                None: the running system's (littlefs on a board, the host's folder)
#   watchdog     optional callable(timeout_ms) -> object with feed() (machine.WDT); used only
#                when the watchdog setting is on
#   net          optional: an async function -> the address the board is reachable at, or
#                None (no network): a board with Wi-Fi (boards/wifi.py) joins the network in
#                it; then the live page is served (board/web.py), as its own asyncio task
#   web_port     optional: the page's port (80); web_host: the address to listen on (0.0.0.0)
#   broker       optional: a function -> the club's MQTT broker ({"host", "port", "prefix",
#                "board"}: boards/wifi.py's broker()) or None; with net, board/publish.py
#   power        optional: the power states' pieces (board/power.py's Power: rail, light,
#                supply, sleep, divider); board/tasks.py starts them
#
# A host's own handles go under keys starting "fake_" or "sim_" (the fake board's matrix and
# buttons, the simulator's key feed): the app leaves them alone. Any other key the app does not
# know is refused when it starts (board.boot.HW_KEYS): a misspelt key is not silently ignored.
#
# Start it with board.tasks.run(hw) (asyncio, forever), or drive board.app.App(hw) step by step:
# app.boot() (a key held at power-up starts the LED self-test), app.step(now_ms) handles queued
# key events and draws a frame (strip.write() only when a pixel changed); app.key("5") /
# app.long_key("*") inject key presses. What a simulator or a test reads: app.m (the match
# engine's state), app.err (the last refused entry's message, or None), app.msg (the message
# line: board/modes.py's (kind, a, b)), app.lines() (the display's text, also without a
# display), app.view (what the LEDs show), app.cfg (settings).
#
# ONE WAY IN: every input becomes a command (board/modes.py: a tuple, its op first) and only
# the app applies it (_apply) and assigns to itself. A key: board/entry.py or board/menu.py
# looks at the app and returns the command; anything else (the live page's new game, its PIN,
# a later network source) calls app.apply(cmd), the door, which applies it as a key's (a
# fault in it handled here, never raised to the caller). state.py, text.py, fault.py and
# boot.py read the app and return what it keeps. Nothing below imports the app; the asyncio
# wiring (board/tasks.py) and the page (board/web.py) sit above it.
#
# Modules (small, so each compiles in a small heap; text/menu/geometry/selftest load only when
# used: every function, name and string of a loaded module stays in RAM):
# layout (the LED map), render (View -> strip buffer), keypad (scan -> events), storage (saved
# game), settings, app (loop, key dispatch) with entry (typing, OK) and state (engine -> View),
# text + screen (display lines), menu (settings, advisor), geometry (LED positions), selftest
# (the LED self-test's frames).
# (The packages board/, boards/ and cribbage/ have no __init__.py: a namespace package loads
# nothing, and every module loaded interns its path for good, as one of the board's names.)
#
# THE KEY MAP (4x4 keypad; stick the suit symbols beside A B C D)
#
#   | keys                  | what they do                                                  |
#   |-----------------------|---------------------------------------------------------------|
#   | 0-9                   | type a number: points, or a card's rank                       |
#   | number then A B C D   | a card: rank 1=ace 2-9, 0=ten, 11 J 12 Q 13 K; suit A=clubs   |
#   |                       | B=diamonds C=hearts D=spades (5 C: 5 of hearts; 1 3 D: king   |
#   |                       | of spades). Played cards, starter, crib's 4th card: no OK     |
#   | #                     | OK: confirm what is typed (it previews first, OK pegs it)     |
#   | *                     | back: delete the last key or card; cancel                     |
#   | hold *  /  hold #     | undo  /  redo (any number of times)                           |
#   | A (nothing typed)     | next player: who a plain peg goes to (and who deals first)    |
#   | B (nothing typed)     | go (in the play; no OK)                                       |
#   | C (nothing typed)     | count a hand now (ends an unentered play); in the show, the   |
#   |                       | hand as played again; after a short count, muggins on: take   |
#   |                       | it (3+ sides: C proposes who calls, A the next side, OK)      |
#   | D (nothing typed)     | menu: new game, settings, advisor, stats, LED test, penalty   |
#   | buttons a, b, ...     | +1 point for side 1, 2, ... (hold to repeat)                  |
#
# What OK does follows the game (the display, or the blinking LEDs, say what is expected):
#   * between deals, nothing typed: deal (the first time, the player chosen with A deals);
#   * after the deal: type the starter card (it is turned with its suit; typing it also
#     deals), or just OK if you do not enter it;
#   * the play: type each card as it is played (it goes in with its suit), B for go; the
#     board pegs fifteens, pairs, runs, 31, the go and the last card itself and says why;
#     an OK after a card or a go is taken as a habit and does nothing; the display shows
#     the starter, who has said go in this series and the cards of the series;
#   * the show: a hand whose cards were entered in the play is already typed (the display
#     lists it, the count is spoken and previewed on the track): OK pegs it, * clears it, C
#     brings it back, a card typed starts it afresh (a card that cannot be in the hand, the
#     starter or one another player played or showed, is refused at its suit key and the
#     entry stays as it was); two players, both hands played in full: one OK pegs the
#     pone's, then the dealer's (both counts shown first). Otherwise type the four cards, OK;
#     the crib (always typed) goes in with its 4th card, an OK after it is a habit. Muggins on
#     (every hand and the crib wait for OK): the count stays hidden; type your count after
#     the cards, OK; then the board shows the true count and what was missed (C takes it).
#     Or type just the points, OK;
#   * outside the show: a number then OK pegs those points (1-15) for the player chosen
#     with A (pegging by hand: nothing else needs entering);
#   * game over: OK starts the next game (games won are kept).
# In the menu (D): A or D next item, B previous, OK steps the setting (or digits then OK set
# it), OK on "new game" starts one with the settings (during a game: OK twice, the first
# flashes red), * leaves. Penalty (D B, OK): two points for a misdeal or a failure to play
# after a go; it proposes the non-dealer for a misdeal, A picks who gets the two, B misdeal, C
# failed to play (no display: hole 1 or 2 of lane 1 white), D who failed (in the play his
# cards left are dead; no display: hole 6 + seat of lane 1), the track previews, OK pegs it.
# A wrong entry (a card twice, an impossible count, a key that means nothing now) flashes
# the LEDs red, says why on the display, and changes nothing (a board without a display also
# forgets what was typed, which it cannot show: after a red flash, type the entry again).
#
# Reading the LEDs: each side pegs its own lane in its colour (red, blue, green, yellow, pink,
# cyan); the front peg is bright, the back peg dim. With more sides than lanes (three players
# on a two-lane board, the five-handed game) sides share lanes: side 3 pegs on lane 1 with
# its pegs blinking slowly, side 5 with short flashes, so each score still reads at a glance.
# The blinking hole is the preview (what OK will peg); a red flash of the header is an error.
# Without a display, what is typed blinks white at the start of lane 1: a hole per card (and
# one for a number or go being typed).

import gc

from cribbage import match as M

from board.keypad import Keypad, DOWN, UP, LONG, REPEAT, KIND, ticks_diff
from board.render import Renderer, View, ERROR_MS
from board.settings import Settings, loads as settings_loads, NAMES, RULES
from board.storage import Storage
from board import entry, state
from board import fault  # kept loaded: an import that runs out of memory can crash MicroPython
from board.modes import (NORMAL, MENU, ADVISE, PENALTY, STATS, REFUSE, CALL, DEAL_FIRST,
                         NEXT_GAME, NEW_GAME, SETTINGS, SELFTEST, MODE, UNDO, SAY, PIN, SUSPECT,
                         MSG_PEGGED, VERSION_MSG, NOTHING, message)

from micropython import const

# (private consts: folded into the code, no names kept in RAM)
_WATCHDOG_MS = const(8000)
_SELFTEST_HOLD_MS = const(600)
_HELD = const(0x4000)  # selftest_step's flag: the frame it names is drawn and held


class App:
    def __init__(self, hw):
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
        self.mode = NORMAL
        self.item = 0  # menu item
        self.pen = 0  # the penalty entry's kind (cribbage.events.MISDEAL, FAIL_TO_PLAY)
        self.err = None
        self.msg = VERSION_MSG  # power-up: the display's first line says which firmware
        self.now = 0
        self.selftest_step = -1
        self.counting = -1  # the entry is a hand with its count: 0, or 1 the crib (state.py)
        self._held_long = ""
        self._text = None
        self.redraw_at = -1  # when the display's text changes without an event (text.py)
        self.count_at = 0
        self.note = None  # what happened at boot to a file it could not read
        self.power = None  # board/power.py's states (board/tasks.py sets them with hw's power)
        # the attributes it can fill in only once the hardware is checked and the files read:
        # their places now, their values below
        for name in ("layout", "clock", "display", "strip", "keys", "store", "cfg", "renderer",
                     "m", "view", "e"):
            setattr(self, name, None)
        from board import boot  # power-up only: its code leaves the heap after (unload)
        boot.check_hw(hw)
        self.layout = hw["layout"]
        self.clock = hw["clock"]
        self.display = hw.get("display")
        self.strip = hw["strip"]
        keys = hw.get("keys")
        if keys is None:
            keys = Keypad(hw.get("rows", ()), hw.get("cols", ()), hw.get("buttons", ()))
        self.keys = keys
        self.store = Storage(hw.get("storage_dir", "/data"), hw.get("fs"))
        cfg, game, self.note = boot.open_files(self.store, settings_loads, M.loads)
        self.cfg = cfg or Settings()
        self.renderer = Renderer(self.layout, self.strip, self.cfg.get("bright"),
                                 self.cfg.get("limit"))
        gc.collect()  # (the match wants ~750 bytes in one piece for its attributes)
        self.m = game or self.new_match()
        boot.got_through(self.store)  # the files are read: not a boot that failed
        fault.unload("board.boot")
        self.view = View(self.m.sides, self.m.target)
        self.e = entry.Entry()  # what is typed and not yet confirmed
        self.watchdog(self.cfg.get("watchdog"))
        self.follow()
        if self.note:  # said on the display, and the LEDs flash red
            self.refuse(self.note)
            self.view.error_at = self.clock()

    # --- setup ---------------------------------------------------------------------------

    def new_match(self):
        c = self.cfg
        five = c.get("cards") == 5  # five-card cribbage: two players to 61, whatever else
        return M.Match(players=2 if five else c.get("players"),
                       target=61 if five else c.get("game"),
                       muggins=bool(c.get("muggins")),
                       skunk_line=-1 if c.get("skunk") else 0,
                       double_line=-1 if c.get("skunk") else 0, mode=c.get("match"),
                       deal=c.get("deal"), cards=5 if five else 6)

    def watchdog(self, on):
        """Start the watchdog (opt-in: it cannot be stopped until reset)."""
        make = self.hw.get("watchdog")
        if on and make is not None and self.wdt is None:
            self.wdt = make(_WATCHDOG_MS)

    def powered(self, power):
        """board/power.py's states, from their task (board/tasks.py): step() asks them first."""
        self.power = power

    # --- the key events ------------------------------------------------------------------

    def event(self, ev):
        """One keypad event (kind | key) from the key source."""
        kind = ev & KIND
        name = self.keys.name(ev)
        if self.selftest_step >= 0:
            return
        if name == "*" or name == "#":  # these have a long meaning: act on release, or on LONG
            if kind == LONG:
                self._held_long = name
                self.long_key(name)
            elif kind == UP:
                if self._held_long != name:
                    self.key(name)
                self._held_long = ""
        elif name in "abcdef":  # +1 for a side, repeating while held
            if kind == DOWN or kind == REPEAT:
                side = "abcdef".index(name)
                if side >= self.m.sides:
                    self._apply((REFUSE, "no side %d" % (side + 1)))
                else:
                    self._apply((CALL, self.m.peg, side, 1))
                self._done()
        elif kind == DOWN:
            self.key(name)

    def key(self, name):
        """A short press of the key called name ("5", "A", "#", "*", ...): board/entry.py (or
        board/menu.py) says what it means, as a command; the app applies it (_apply)."""
        e = self.e
        if e.quick:
            e.quick = False
            if name == "#" and not e.cards:  # OK right after a card or go that went in as
                return  # typed: a habit, not an entry (a hand filled in after it: OK counts it)
        self.err = None
        if self.mode == MENU or self.mode == PENALTY or self.mode == STATS:
            fault.room("board.menu")
            from board.menu import menu_key  # loaded the first time D is pressed
            call = menu_key(self, name)
        elif "0" <= name <= "9":
            call = entry.digit(self, ord(name) - 48)
        elif name in "ABCD":
            if e.num >= 0:
                call = entry.suit(self, "ABCD".index(name))
            elif self.mode == ADVISE:
                fault.room("board.menu")
                from board.menu import advise
                call = advise(self, name)
            else:
                call = entry.letter(self, name)
        elif name == "#":
            call = entry.ok(self)
        elif name == "*":
            call = entry.back(self)
        else:
            call = (REFUSE, "key %s means nothing here" % name)
        self._apply(call)
        self._done()

    def long_key(self, name):
        """A long press: hold * undo, hold # redo (in a menu: leave it)."""
        self.err = None
        self.e.clear()
        self._apply((MODE, NORMAL, 0) if self.mode != NORMAL else
                    (UNDO, 0) if name == "*" else (UNDO, 1) if name == "#" else NOTHING)
        self._done()

    def apply(self, call):
        """THE DOOR for every input but the keypad's own (the live page's new game and its
        PIN, a network message): call (board/modes.py) applied as a key's is. A fault in it
        is the game's, handled here (recover): nothing is raised to the caller, app.err says
        what went wrong. A note (SAY, PIN, SUSPECT) changes only what is shown."""
        what = call[0]
        if what == SUSPECT:  # (the game may be half changed: nothing looks at it now)
            self.broken = True
            return
        if what == SAY or what == PIN:
            self._apply(call)
            if what == PIN:
                self.follow()
            self.changes += 1
            self.view.dirty = True
            return
        self.err = None
        try:
            self._apply(call)
            self._done()
        except Exception as e:  # noqa: BLE001  (as step() does for a key)
            self.recover(e)

    def _done(self):
        """After a command: the entry and the View follow; step() saves after its frame, a
        direct call (tests, the simulator's injected keys, the page) saves now."""
        self.changes += 1
        self.follow()
        if not self._deferred:
            self.save()

    def follow(self):
        """After a command: the entry follows the game (a false go puts the penalty entry),
        then the View (board/state.py), and whether the entry is a hand with its count (the
        display's spoken count scrolls from its start)."""
        call = entry.follow(self)
        if call[0] == MODE:
            self._apply(call)
        counting = state.update(self)
        if counting >= 0 and self.counting < 0:
            self.count_at = self.now
        self.counting = counting

    def _apply(self, call):
        """Do what a command asks (board/modes.py says the forms): say a refusal, make an
        engine call (dealing first if asked), change the mode, or take a menu action. True if
        an event went in."""
        what = call[0]
        m = self.m
        if not what:  # NOTHING (op 0)
            return False
        if what == CALL:
            return self.do(call[1], *call[2:])
        if what == REFUSE:
            self.refuse(call[1])
            return False
        if what == DEAL_FIRST:
            if m.phase != M.DEAL:
                return self.do(call[1], *call[2:])
            before = m.mark()
            m.deal()
            if self.do(call[1], *call[2:]):
                return True
            m.rollback(before)  # exactly as before, redo events included (one deal of replay)
            return False
        if what == MODE:
            self.mode = call[1]
            if call[1] == MENU:
                self.item = call[2]
            elif call[1] == PENALTY:
                self.pen = call[2]
            return False
        if what == SAY:
            self.msg = call[1]
            return False
        if what == UNDO:  # (UNDO, 1): redo
            if m.redo() if call[1] else m.undo():
                self.msg = message("redone" if call[1] else "undone")
                self.unsaved = True
                return True
            self.refuse("nothing to redo" if call[1] else "nothing to undo")
            return False
        if what == NEXT_GAME:
            self.record()  # first: a power cut before the game's save records it once
            if not self.do(m.next_game):
                return False
            if m.next_dealer < 0:  # the players cut for deal (settings: deal)
                self.msg = message("cut for deal: A picks the dealer, OK deals")
            return True
        if what == NEW_GAME:  # the menu's or the page's: the finished or abandoned game
            self.record()  # recorded first
            self.m = self.new_match()
            self.view = View(self.m.sides, self.m.target)
            self.unsaved = True
            self.save()  # (now: the new game is on flash before anything else)
            self.e.clear()
            self.e.seat = 0
            self.msg = message("new game: A picks the dealer, OK deals")
            self.mode = NORMAL
            return False
        if what == SETTINGS:  # a setting saved and applied (the menu stays open)
            cfg = self.cfg
            self.store.save("settings", cfg.dumps())
            self.renderer.brightness = cfg.get("bright")
            self.renderer.limit_ma = cfg.get("limit")
            self.watchdog(cfg.get("watchdog"))
            self.msg = message("new game to apply" if call[1] in NAMES[:RULES] or call[1] == "cards"
                               else "")
            return False
        if what == SELFTEST:
            self.selftest_step = 0
            self.mode = NORMAL
            return False
        if what == PIN:
            self.pin = call[1]
            return False
        raise ValueError("no such command: %r" % (call,))

    def do(self, fn, *args):
        """Make one engine call; when it goes in, clear the entry (and any menu: a penalty),
        say what it pegged and save the game after the frame. A refusal is said."""
        e = self.e
        m = self.m
        n = m.events
        try:
            pts = fn(*args)
        except ValueError as x:  # (a card refused as typed: the OK after it is a habit
            self.refuse(str(x))   # still, and the refusal stays on the display)
            return False
        except BaseException:  # a fault (board/fault.py keeps the entry): if the event
            if m.events != n:  # went in all the same, the entry went with it
                e.clear()
            raise
        quick = e.quick  # (a card or go that went in as typed: the next OK is a habit)
        e.clear()
        e.quick = quick
        self.mode = NORMAL
        self.msg = message("")
        if m.last_side >= 0 and pts:
            self.msg = (MSG_PEGGED, m.last_side, m.last_points)
        self.unsaved = True
        return True

    def record(self):
        """The finished game to the history (board/history.py), if it is over."""
        fault.room("board.history")
        from board.history import record_game
        record_game(self)

    def save(self):
        """Save the game if an entry changed it: right after the frame that shows the entry
        (step), so the LEDs never wait for the flash. A save that fails (flash full, a fault)
        is tried once more after a gc.collect(), then said on the display; the game goes on
        in memory and the next entry saves it again."""
        if not self.unsaved:
            return
        self.unsaved = False
        for again in (0, 1):
            try:
                self.store.save("game", self.m.dump)  # (in pieces: no block of its size)
                return
            except Exception as e:  # noqa: BLE001
                gc.collect()
                if again:
                    try:
                        msg = "not saved (%s %s): the game goes on" % (type(e).__name__, e)
                    except Exception:  # noqa: BLE001
                        msg = "not saved (out of memory): the game goes on"
                    self.refuse(msg)

    def recover(self, e):
        """Anything but a refusal raised by an entry or a frame: restore the game and say
        so. The typed entry stays as it was (board/fault.py says how), unless the last thing
        said was a fault too. If even that runs out of memory, say the least, and step()
        restores the game before the next entry."""
        try:
            gc.collect()
            self.counting = -1  # (the display counts a hand only once the View says so)
            self.e.fault(self.err)
            self.mode = NORMAL
            self.selftest_step = -1
            self.restore()
            self.refuse(fault.message(e))
            try:
                self.follow()  # (the hand as played, for the game as restored)
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
        """Say text on the display and flash the LEDs red; nothing else changes."""
        self.err = text
        self.view.error_at = self.now
        if self.display is None:  # nothing shows what is typed: after the flash, type afresh
            e = self.e
            e.num = -1
            e.ndig = 0
            e.cards.clear()
            e.advice = None
            e.filled = 0
            e.fill_at = -1  # the hand's played cards come back: only the rest is typed

    def lines(self):
        """The display's text now (also what the simulator prints); board/text.py builds it,
        loaded only on a board with a display."""
        fault.room("board.text")
        from board.text import lines
        return lines(self)[0]



    # --- the loop -------------------------------------------------------------------------

    def step(self, now):
        """One turn of the loop: handle queued key events, draw a frame, save what an entry
        changed (after the frame), feed the watchdog. A fault in an entry or a frame is
        handled here (recover): the loop never stops."""
        self.now = now
        keys = self.keys
        if self.selftest_step >= 0:
            step = self.selftest_step
            pressed = False
            while True:  # keys mean nothing during the test: a press ends a held frame
                ev = keys.get()
                if ev < 0:
                    break
                if ev & KIND == DOWN:
                    pressed = True
            if step & _HELD:  # a frame that holds (board/selftest.py: the white one, time to
                if pressed:   # read a meter; the version) is drawn once, and stays until a key
                    self.selftest_step = (step & ~_HELD) + 1
            else:
                from board.selftest import selftest  # (loaded only while the test runs)
                got = selftest(self.renderer, step)
                if got:
                    self.selftest_step = step + 1 if got is True or pressed else step | _HELD
                else:
                    self.selftest_step = -1
                    self.view.dirty = True
                self.strip.write()
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
                    self._text = None
                if self.renderer.maybe(v, now):
                    self.strip.write()
                d = self.display
                if d is not None:
                    if self.redraw_at >= 0 and ticks_diff(now, self.redraw_at) >= 0:
                        self._text = None  # a long count scrolls on
                    if self._text is None:
                        fault.room("board.text")
                        from board.text import lines
                        self._text, self.redraw_at = lines(self)  # (and when a long count
                        fault.room("board.screen")  # scrolls on)
                        from board.screen import draw
                        draw(d, self._text)
                if v.error_at >= 0 and ticks_diff(now, v.error_at) > ERROR_MS:
                    v.error_at = -1  # the flash is over (the display keeps the message)
                    v.dirty = True
            except Exception as e:  # noqa: BLE001
                self.recover(e)
            self.save()
        if self.wdt is not None:  # fed only while this loop and the keypad scan both run
            scanned = getattr(keys, "scanned_at", now)
            if ticks_diff(now, scanned) < _WATCHDOG_MS // 4:
                self.wdt.feed()

    def boot(self):
        """At power-up: the saved game's frame at once, then, only if a key is down, the
        LED self-test when it stays held for _SELFTEST_HOLD_MS (board/boot.py)."""
        self.step(self.clock())
        keys = self.keys
        if not hasattr(keys, "update") or not keys.scan():
            return False  # nothing held: no self-test window to wait for
        from board.boot import held_at_power_up
        on = held_at_power_up(self, _SELFTEST_HOLD_MS)
        fault.unload("board.boot")
        if on:
            self.selftest_step = 0
        return on

