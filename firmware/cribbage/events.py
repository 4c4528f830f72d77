"""The journal's events: their byte codes and sizes, the game's constants.

The bottom of the engine: match.py, journal.py (whose apply() applies an event) and
pegging.py import these names; this module imports none of them (no import circle). Pegging
points is the Rules' (rules.py: points()).

A journal is a bytearray of events; a played card is its own byte (0..51), the other events
start with a code byte >= 0x40 whose low bits carry a seat or side, some with payload bytes.
"""

from .cards import DECK

from micropython import const

VERSION = const(2)  # first byte of dumps(); loads() reads this and version 1 (game.py)

# Phases (Match.phase).
DEAL = const(0)     # waiting for the deal (game start, or the crib was shown)
STARTER = const(1)  # dealt (discards happen here): waiting for the starter
PLAY = const(2)     # the play: play(card) / go(), or pegs
SHOW = const(3)     # the show: show() for pone ... dealer, then the crib (crib_next)
OVER = const(4)     # a side pegged out: only undo(), redo(), next_game()

# Game results (Match.result), worth settings' game values in Match.games.
WIN = const(1)
SKUNK = const(2)         # 121 game: loser under skunk_line
DOUBLE_SKUNK = const(3)  # 121 game: loser under double_line
LURCH = const(4)         # 61 game: loser under skunk_line

# Match modes (Match.mode): what Match.games counts, and when a match ends (match.py).
SINGLE = const(0)     # games won, no match end: a skunk counts skunk_games, ...
BEST_OF_3 = const(1)  # the same, and the first side to 2 games wins the match
BEST_OF_5 = const(2)  # ... to 3 games
ACC = const(3)        # ACC game points: a win 2, a skunk (or lurch) 3, no double skunk

# Why the newest points were pegged (Match.last_why).
WHY_PLAY = const(1)     # a card in the play: 15, 31, pairs, runs (+1 when also the last card)
WHY_GO = const(2)       # one for the go (or the last card)
WHY_HEELS = const(3)    # two for his heels
WHY_HAND = const(4)     # a hand in the show
WHY_CRIB = const(5)     # the crib
WHY_PEG = const(6)      # a plain peg entered by hand
WHY_PENALTY = const(7)  # misdeal / failure to play: two to the other side
WHY_MUGGINS = const(8)  # points the shower overlooked, taken by another side
WHY_LAST = const(9)     # five-card cribbage's three for last: the first pone's, at the first deal

# Penalty kinds (Match.penalty).
MISDEAL = const(0)
FAIL_TO_PLAY = const(1)
FALSE_GO = const(2)  # journalled as E_DEAD after the proving card is taken back

MAX_DEALS = const(100)  # in one game (a real one takes 5-30): bounds the deal records
MAX_PLAY_PEG = const(15)  # the most one card can make in the play: 12 + fifteen 2 + go 1
HAND_MAX = const(29)
NO_CARD = const(255)  # starter not entered


# Journal event codes. A played card is its own byte (0..51): the commonest event is 1 byte.
E_GO = const(0x40)        # 1 byte
E_DEAL = const(0x50)      # | dealer seat; 1 byte
E_STARTER = const(0x60)   # + card (0..51, JACK_UNSEEN, NO_CARD); 2 bytes
E_SHOW = const(0x70)      # | 1: four cards follow, | 2: points follow; 1..6 bytes
E_PEG = const(0x80)       # | side, + points; 2 bytes
E_PENALTY = const(0x90)   # | kind << 3 | side; 1 byte
E_MUGGINS = const(0xA0)   # | side; 1 byte
E_CUT = const(0xB0)       # + one card per seat; 1 + players bytes
E_NEW_GAME = const(0xC0)  # 1 byte: version 1 saves only (next_game() now ends the journal)
E_DEAD = const(0xD0)      # | side (| 8: a false go proved by the card just played, which is
#                           taken back), + seat: two to side, seat's unplayed cards dead; 2 bytes
#                           (the seat byte | 16: the card a false go's penalty takes back was
#                           his last: the play goes on at once; saves before it lack it)
JACK_UNSEEN = const(254)

# Where a card is known to be this deal (the byte a card in the deal's where-table: play.py
# keeps the table and its layout): 0 unknown, 1..6 played by seat s - 1, AT_STARTER, AT_HAND +
# seat (shown in a hand), AT_CRIB.
AT_STARTER = const(7)
AT_HAND = const(8)
AT_CRIB = const(14)


def say(table, k, args=()):
    """Line k of table (a module's refusals, one a line), % args: the text of a ValueError."""
    i = 0
    while k:
        i = table.find("\n", i) + 1
        k -= 1
    j = table.find("\n", i)
    return table[i:j if j >= 0 else len(table)] % args


def show_points_ok(points):
    """True if a hand or crib can count this many points (0..29 but never 19, 25, 26, 27)."""
    return 0 <= points <= HAND_MAX and points != 19 and not 25 <= points <= 27


def size(b, i, players):
    """Bytes in the journal event at b[i] (the one place event sizes are known)."""
    k = b[i]
    if k < DECK or k == E_GO or k == E_NEW_GAME:
        return 1
    h = k & 0xF0
    if h == E_DEAL or h == E_PENALTY or h == E_MUGGINS:
        return 1
    if k == E_STARTER or h == E_PEG or h == E_DEAD:
        return 2
    if h == E_SHOW:
        return 1 + (4 if k & 1 else 0) + (1 if k & 2 else 0)
    if k == E_CUT:
        return 1 + players
    raise ValueError("unknown event %d" % (k,))  # (the other refusals: journal.py)


def why(k):
    """The word for why points were pegged (Match.last_why: WHY_PLAY ... WHY_MUGGINS):
    "play", "go", "heels", "hand", "crib", "peg", "penalty", "muggins", "last" (9: five-card
    cribbage's three for last); "" for none (0) or an unknown one. (The one table of these
    words: the display and the live page say them.)"""
    w = ("", "play", "go", "heels", "hand", "crib", "peg", "penalty", "muggins", "last")
    return w[k] if 0 <= k < len(w) else ""


def shown(b, i):
    """The cards of the show event at b[i] (a journal's bytes: E_SHOW | 1 has the hand's four
    cards after its code, the fourth NO_CARD in a five-card game's three-card hand, | 2 its
    points after them), as bytes; None when it gives its points only. (The one reader of a
    show's layout outside the engine's handlers.)"""
    if b[i] & 0xF1 != E_SHOW | 1:
        return None
    return bytes(b[i + 1:i + (4 if b[i + 4] == NO_CARD else 5)])
