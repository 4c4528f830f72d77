"""The key map (what each key is for); the app's modes (app.mode): what the keys mean now;
the commands every input becomes (what a key handler returns, what App.apply applies, each op
by its handler in board/app.py's table); the shape of the display's message (app.msg). The
one place their numbers live."""

from micropython import const

# THE KEY MAP as data: every key, in the order of what it is for; the key handling reads a
# key's place in KEYS (board/entry.py's _SUIT_KEY, _BACK_KEY, _OK_KEY, board/app.py's
# _BACK_KEY: copies of the places below held equal by host_tests/test_keymap.py: a name of
# its own each would be one more interned name on the board for good, and the game's names
# fill their pool to the last few: 602-608 of 620), and so do the simulator and the key card
# (tools/sim/keymap.py words each key: the board has no room to say it, its display says what
# is expected step by step).
#   0-9 (places 0-9)  a digit: points, or a card's rank (its place is its value; 0 the ten)
#   A-D (10-13)       after a number, its suit in cribbage/cards.py's order: clubs, diamonds,
#                     hearts, spades; alone (nothing typed): next player, go, count, the menu
#   * (14)            back: delete the last key or card, cancel; held: undo
#   # (15)            OK: confirm what is typed; held: redo (held: the place - 14 is the UNDO
#                     command's argument)
#   a-f (16-21)       the +1 buttons: a point for side 1-6 (place - 16), repeating while held
# Which key sits where on the keypad is board/keypad.py's KEYS_4X4; what OK does, the menu and
# the LEDs: the comment at the end.
KEYS = "0123456789ABCD*#abcdef"

NORMAL = const(0)   # the game: deal, starter, the play, the show, pegs
MENU = const(1)     # D: new game, settings, advisor, stats, LED test, penalty
ADVISE = const(2)   # the discard advisor (from the menu)
PENALTY = const(3)  # the penalty entry: misdeal or failure to play (from the menu)
STATS = const(4)    # the statistics per side, on the display (from the menu)

# COMMANDS: every input (a key, a +1 button, the live page, any later source) becomes one
# command, and App alone applies it (App.apply, the one door; the keys' own way in goes
# through the same table of handlers, board/app.py's). A command is a tuple whose first item
# is one of these; a key handler (board/entry.py, board/menu.py) always returns one, and
# changes nothing itself: what it would change in the typed entry is an EDIT.
_IDLE = const(0)       # NOTHING: the entry changed, or there is nothing to do
REFUSE = const(1)      # (REFUSE, text): say text, flash the LEDs red; nothing else changes
CALL = const(2)        # (CALL, fn, arg, ...): an engine call (m.play, c): made, saved, said
DEAL_FIRST = const(3)  # (DEAL_FIRST, fn, arg, ...): the same, dealing first if the game waits
# for a deal (the starter, or a hand, typed between deals); a refusal takes the deal back
NEXT_GAME = const(4)   # (NEXT_GAME,): the game is over, OK starts the next (recorded first)
NEW_GAME = const(5)    # (NEW_GAME,): the menu's or the page's new game (this one recorded)
SETTINGS = const(6)    # (SETTINGS, name, value): set the setting (value -1: step it), save
# the settings and apply it; a value out of its range is refused
SELFTEST = const(7)    # (SELFTEST,): run the LED self-test
MODE = const(8)        # (MODE, mode, k): the keys mean another thing now; k: the menu's item
# (MENU) or the penalty's kind (PENALTY: cribbage.events MISDEAL, FAIL_TO_PLAY, FALSE_GO)
UNDO = const(9)        # (UNDO, 0): hold *, undo; (UNDO, 1): hold #, redo
EDIT = const(10)       # (EDIT, then, name, value, ...): the typed entry's fields (board/entry.
# py's Entry) set by name, in order ("cards": its list holds value's cards; "clear": the entry
# emptied first, Entry.clear), then the command `then` applied (NOTHING: none)
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


# THE KEY MAP, the rest: what OK does follows the game (the display, or the blinking LEDs, say
# what is expected):
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
