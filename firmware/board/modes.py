"""The app's modes (app.mode): what the keys mean now; and the actions a key can ask of the
app besides an engine call (board/entry.py says what the key functions return). The one
place their numbers live."""

from micropython import const

NORMAL = const(0)   # the game: deal, starter, the play, the show, pegs
MENU = const(1)     # D: new game, settings, advisor, stats, LED test, penalty
ADVISE = const(2)   # the discard advisor (from the menu)
PENALTY = const(3)  # the penalty entry: misdeal or failure to play (from the menu)
STATS = const(4)    # the statistics per side, on the display (from the menu)

# (ACTION, ...) tuples a key function returns: the first item is one of these, or an engine call
DEAL_FIRST = const(1)  # (DEAL_FIRST, fn, arg, ...): deal first if the game waits for a deal
NEXT_GAME = const(2)   # (NEXT_GAME,): the game is over, OK starts the next (record it first)
NEW_GAME = const(3)    # (NEW_GAME,): the menu's new game (record this one, start afresh)
SETTINGS = const(4)    # (SETTINGS, name): a setting changed: save the settings, apply it
SELFTEST = const(5)    # (SELFTEST,): run the LED self-test

VERSION_MSG = ("version",)  # app.msg at power-up: the display's first line names the firmware
