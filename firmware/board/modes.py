"""The app's modes (app.mode): what the keys mean now; the commands every input becomes
(what a key handler returns, what App.apply applies); the shape of the display's message
(app.msg). The one place their numbers live."""

from micropython import const

NORMAL = const(0)   # the game: deal, starter, the play, the show, pegs
MENU = const(1)     # D: new game, settings, advisor, stats, LED test, penalty
ADVISE = const(2)   # the discard advisor (from the menu)
PENALTY = const(3)  # the penalty entry: misdeal or failure to play (from the menu)
STATS = const(4)    # the statistics per side, on the display (from the menu)

# COMMANDS: every input (a key, a +1 button, the live page, any later source) becomes one
# command, and App alone applies it (App.apply, the one door; the keys' own way in goes
# through the same App._apply). A command is a tuple whose first item is one of these; a key
# handler (board/entry.py, board/menu.py) always returns one.
_IDLE = const(0)       # NOTHING: the entry changed, or there is nothing to do
REFUSE = const(1)      # (REFUSE, text): say text, flash the LEDs red; nothing else changes
CALL = const(2)        # (CALL, fn, arg, ...): an engine call (m.play, c): made, saved, said
DEAL_FIRST = const(3)  # (DEAL_FIRST, fn, arg, ...): the same, dealing first if the game waits
# for a deal (the starter, or a hand, typed between deals); a refusal takes the deal back
NEXT_GAME = const(4)   # (NEXT_GAME,): the game is over, OK starts the next (recorded first)
NEW_GAME = const(5)    # (NEW_GAME,): the menu's or the page's new game (this one recorded)
SETTINGS = const(6)    # (SETTINGS, name): a setting changed: save the settings, apply it
SELFTEST = const(7)    # (SELFTEST,): run the LED self-test
MODE = const(8)        # (MODE, mode, k): the keys mean another thing now; k: the menu's item
# (MENU) or the penalty's kind (PENALTY: cribbage.events MISDEAL, FAIL_TO_PLAY, FALSE_GO)
UNDO = const(9)        # (UNDO, 0): hold *, undo; (UNDO, 1): hold #, redo
SAY = const(11)        # (SAY, msg): the message line says msg (a message: below)
# notes (SAY and after): they change what is shown, not the game nor the entry, and leave
# the error line as it is
PIN = const(12)        # (PIN, pin): the live page's PIN on the LEDs (no display); -1: none
SUSPECT = const(13)    # (SUSPECT,): the game's state may be half changed (the page's replay
# of the game failed): the app restores it from its journal before the next entry

NOTHING = (_IDLE,)  # (one tuple, not one per key; its op is 0)

# MESSAGES: app.msg, the display's message line, is always (kind, a, b):
MSG_TEXT = const(0)     # (MSG_TEXT, "words", 0); "" says nothing
_VERSION = const(1)     # VERSION_MSG: "firmware 0.3.0" (power-up)
MSG_PLAYER = const(2)   # (MSG_PLAYER, seat, 0): "player: Blue" (A picked the seat)
MSG_PEGGED = const(3)   # (MSG_PEGGED, side, points): what the last event pegged, and why

VERSION_MSG = (_VERSION, 0, 0)  # app.msg at power-up: the first line names the firmware


def message(text):
    """The message that says text."""
    return (MSG_TEXT, text, 0)
