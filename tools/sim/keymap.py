"""The app's key map in words: each key of firmware/board/modes.py's THE KEY MAP (the data the
firmware's key handling reads) as the players read it. The simulator shows the rows beside its
keypad (key_help), tools/maker/keymap_card.py prints them and each key's few words (CELLS) on the
card stuck beside the keypad; host_tests/test_keymap.py holds the words to the data. What OK does,
the menu and the LEDs: board/modes.py's comment at its end."""

import textwrap

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.modes import KEYS  # (THE KEY MAP: every key, in the order of what it is for)

# What each key is for, by its place in KEYS (board/modes.py's comment says the places)
DIGITS = KEYS[0:10]  # 0-9: a number, or a card's rank
SUITS = KEYS[10:14]  # A-D: the suits, in the cards' order (alone: next, go, count, menu)
BACK = KEYS[14]  # *: back (held: undo)
OK = KEYS[15]  # #: OK (held: redo)
HELD = BACK + OK  # held: undo, redo
BUTTONS = KEYS[16:]  # the +1 buttons

HEADER = ("keys", "what they do")

# (keys, what they do): one row each, unwrapped (the readers wrap it)
ROWS = (
    ("0-9", "type a number: points, or a card's rank"),
    ("number then A B C D", "a card: rank 1=ace 2-9, 0=ten, 11 J 12 Q 13 K; suit A=clubs "
     "B=diamonds C=hearts D=spades (5 C: 5 of hearts; 1 3 D: king of spades). Played cards, "
     "starter, crib's 4th card: no OK"),
    ("#", "OK: confirm what is typed (it previews first, OK pegs it)"),
    ("*", "back: delete the last key or card; cancel"),
    ("hold *  /  hold #", "undo  /  redo (any number of times)"),
    ("A (nothing typed)", "next player: who a plain peg goes to (and who deals first)"),
    ("B (nothing typed)", "go (in the play; no OK)"),
    ("C (nothing typed)", "count a hand now (ends an unentered play); in the show, the hand as "
     "played again; after a short count, muggins on: take it (3+ sides: C proposes who calls, "
     "A the next side, OK)"),
    ("D (nothing typed)", "menu: new game, settings, advisor, stats, LED test, penalty"),
    ("buttons a, b, ...", "+1 point for side 1, 2, ... (hold to repeat)"),
)

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # SUITS' keys, in cards.py's order

# What each key's cell on the card says, in a few words: (key, words), the rank it names,
# then alone, then held (each the start of its row's words above)
CELLS = (
    ("1", "ace"), ("0", "ten"),
    (OK, "OK"), (BACK, "back"),
    (SUITS[0], "next player"), (SUITS[1], "go"), (SUITS[2], "count a hand now"),
    (SUITS[3], "menu"),
    (HELD[0], "hold: undo"), (HELD[1], "hold: redo"),
)

KEYS_W = 21  # the keys column's width
WHAT_W = 61  # the words' column's width: longer words wrap onto the next lines


def key_help():
    """The app's own key map (HEADER and ROWS), as lines of a table."""
    out = []
    for keys, what in (HEADER,) + ROWS:
        for i, line in enumerate(textwrap.wrap(what, WHAT_W)):
            out.append("  | %s | %s |" % ((keys if i == 0 else "").ljust(KEYS_W),
                                            line.ljust(WHAT_W)))
    return out
