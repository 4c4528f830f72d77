"""Cards as text a person types or reads: parse("5H"), name(c) "five of hearts".

Host tools, tests and the simulations use it; the board does not load it (it reads cards from
keys), so none of this takes a board's RAM. Card numbers and fmt() are in cribbage/cards.py.
"""

from cribbage.cards import DECK, RANK_CHARS, SUIT_CHARS

# Suit symbols a player may type or paste; the board itself only ever shows letters.
_SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"  # club, diamond, heart, spade
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "jack", "queen", "king")

RANK = bytes(c >> 2 for c in range(DECK))  # RANK[c], SUIT[c]: a card's rank and suit
SUIT = bytes(c & 3 for c in range(DECK))


def card(rank, suit):
    """The card of rank 0..12 (ace..king) and suit 0..3 (C, D, H, S)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError("no such card: rank %r suit %r" % (rank, suit))
    return rank * 4 + suit


def parse(text):
    """One card from text: "5H", "10h", "TD", "as", "QC", "5♥". Raises ValueError naming it."""
    t = text.strip().upper()
    if len(t) < 2:
        raise ValueError("bad card %r: want rank then suit, like 5H or 10S" % text)
    r, s = t[:-1], t[-1]
    if r == "10":
        r = "T"
    rank = RANK_CHARS.find(r) if len(r) == 1 else -1
    if rank < 0 and r == "1":
        rank = 0  # "1S" is the ace on some printed decks
    suit = SUIT_CHARS.find(s)
    if suit < 0:
        suit = _SUIT_SYMBOLS.find(s)
        if suit < 0:
            suit = "\u2667\u2662\u2661\u2664".find(s)  # outline symbols
    if rank < 0 or suit < 0:
        raise ValueError("bad card %r: want rank A 2-10 J Q K (or T) then suit C D H S" % text)
    return rank * 4 + suit


def parse_many(text):
    """Cards separated by spaces or commas: "5H 5C 5S JD" -> [17, 16, 19, 42]."""
    return [parse(tok) for tok in text.replace(",", " ").split()]


def name(c):
    """Spoken name: 'five of hearts'."""
    return _RANK_NAMES[c >> 2] + " of " + _SUIT_NAMES[c & 3]


def rank_name(r):
    return _RANK_NAMES[r]
