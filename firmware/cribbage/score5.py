"""A hand of five-card cribbage (Hoyle) counted: three cards and the starter.

Fifteens, pairs and runs as in any hand, a flush the three hand cards of one suit, 3, or 4
with the starter, and one for his nobs. A five-card Match's making loads it (loadgame.py's
match(); score.py's hand() too, for a call without a Match) and keeps it: a six-card game,
the board's usual one, never has this code on its heap (issue 34). Allocates nothing.
"""

from .cards import PIP, JACK, DECK, fmt_many


def hand(cards, starter):
    """Points in a three-card hand with the starter (score.hand()'s, which says which game's
    hand it is)."""
    c0, c1, c2 = cards
    s = starter
    if not (0 <= c0 < DECK and 0 <= c1 < DECK and 0 <= c2 < DECK and 0 <= s < DECK):
        raise ValueError("not a card in %r + %r" % (cards, starter))
    if c0 == c1 or c0 == c2 or c0 == s or c1 == c2 or c1 == s or c2 == s:
        raise ValueError("duplicate card in " + fmt_many(cards) + " + " + fmt_many((s,)))
    p0 = PIP[c0]
    p1 = PIP[c1]
    p2 = PIP[c2]
    p3 = PIP[s]
    pts = 0
    for m in range(1, 16):  # fifteens: each of the 15 non-empty sets of the four cards
        if ((p0 if m & 1 else 0) + (p1 if m & 2 else 0) + (p2 if m & 4 else 0)
                + (p3 if m & 8 else 0)) == 15:
            pts += 2
    a = c0 >> 2
    b = c1 >> 2
    c = c2 >> 2
    d = s >> 2
    pts += 2 * ((a == b) + (a == c) + (a == d) + (b == c) + (b == d) + (c == d))
    # runs: sort the four ranks (five compare-and-swaps), then a run of four, else each run
    # of three among the four sets of three (sorted: a-b-d is one only when c is b or d)
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    if b == a + 1 and c == b + 1 and d == c + 1:
        pts += 4
    else:
        pts += 3 * ((b == a + 1 and c == b + 1) + (b == a + 1 and d == b + 1)
                    + (c == a + 1 and d == c + 1) + (c == b + 1 and d == c + 1))
    su = c0 & 3
    if (c1 & 3) == su and (c2 & 3) == su:
        pts += 4 if (s & 3) == su else 3
    nob = JACK * 4 + (s & 3)
    if c0 == nob or c1 == nob or c2 == nob:
        pts += 1
    return pts
