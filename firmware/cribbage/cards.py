"""Cards as small ints: card = rank * 4 + suit.

rank 0..12 is ace..king (ace always low), suit 0..3 is clubs, diamonds, hearts, spades.
A card fits in a byte, so hands, piles and saved games are plain bytes/lists of ints.
PIP[c] is a card's value in the count (ace 1, face cards 10). What the board needs and
nothing more: reading cards from typed text, and their spoken names, are in the host's
tools/host/dealer/cardtext.py (the tools and tests load it; a board never does).
"""

from micropython import const

DECK = const(52)
JACK = const(10)  # rank of the jack, for nobs and heels

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"

PIP = bytes(min((c >> 2) + 1, 10) for c in range(DECK))


def fmt(c):
    """Short text of a card: 0 -> "AC", 37 -> "10D". Ten is written 10, as players say it."""
    if not 0 <= c < DECK:
        raise ValueError("no such card: %r" % (c,))
    r = c >> 2
    return ("10" if r == 9 else RANK_CHARS[r]) + SUIT_CHARS[c & 3]


def fmt_many(cards):
    return " ".join(fmt(c) for c in cards)


def check_distinct(cards):
    """Raise ValueError naming the first card that is not a card or is given twice."""
    n = len(cards)
    for i in range(n):
        c = cards[i]
        if not (isinstance(c, int) and 0 <= c < DECK):
            raise ValueError("not a card: %r" % (c,))
        for j in range(i):
            if cards[j] == c:
                raise ValueError("duplicate card %s" % fmt(c))
