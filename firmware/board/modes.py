"""The app's modes (app.mode): what the keys mean now. The one place their numbers live."""

from micropython import const

NORMAL = const(0)   # the game: deal, starter, the play, the show, pegs
MENU = const(1)     # D: new game, settings, advisor, LED test, penalty
ADVISE = const(2)   # the discard advisor (from the menu)
PENALTY = const(3)  # the penalty entry: misdeal or failure to play (from the menu)
