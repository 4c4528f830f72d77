"""The discard advisor of five-card cribbage: which two of the five dealt cards to throw.

best_discards(cards, dealer, n=3) -> [(points, (i, j)), ...], best first, as advise.py's for
six cards (i, j index into cards; dealer: the crib is yours). points = the exact average of
the three kept cards over the 47 starters you cannot see (score5.hand, every one
scored), plus the expected crib of the two thrown when the crib is yours, minus it when it is
the opponent's: cribtable.CRIB2, the two-card crib values the six-card advisor uses (the
crib's other two cards and the starter at random; a crib is four cards in both games).
rank() allocates nothing once the cards are valid (preallocated buffers, as advise.py).
"""

from .cards import check_distinct
from .score5 import hand as count_hand  # (three cards: score.hand's count, without its
# dispatch at each of rank()'s 470 hands)
from .cribtable import CRIB2, CRIB2_PONE

# The throws of five cards: pairs (i, j) in order, and the three kept indices of each.
THROWS = tuple((i, j) for i in range(5) for j in range(i + 1, 5))
_KEEP = bytes(k for t in THROWS for k in range(5) if k not in t)

# Results of the last rank(), in throw order (index into THROWS):
HAND = [0] * 10  # kept hand's points summed over every unseen starter
CRIB = [0] * 10  # crib value of the throw, hundredths, signed: + your crib, - theirs
KEY = [0] * 10   # 100 * unseen * expected points: HAND * 100 + CRIB * unseen
ORDER = bytearray(10)  # throw indices, best first (ties: earlier throw first)
_KEPT = [0, 0, 0]  # the kept three being scored (a list: unpacking it allocates nothing)
_DEALT = bytearray(52)  # 1 for each card dealt to you: not a starter you can get


def cell(x, y):
    """cribtable.CRIB2's index of the thrown cards x, y (cribgen.cell: r1 < r2 suited,
    r1 > r2 offsuit, r1 == r2 a pair)."""
    rx = x >> 2
    ry = y >> 2
    if rx == ry:
        return rx * 14
    if (x & 3) == (y & 3):
        return rx * 13 + ry if rx < ry else ry * 13 + rx
    return rx * 13 + ry if rx > ry else ry * 13 + rx


def rank(cards, dealer):
    """Score every throw of the five dealt cards into HAND, CRIB, KEY and ORDER; return 10."""
    if len(cards) != 5:
        raise ValueError("five-card cribbage deals 5 cards, not %d" % len(cards))
    check_distinct(cards)
    dealt = _DEALT
    for c in range(52):
        dealt[c] = 0
    for k in range(5):
        dealt[cards[k]] = 1
    kept = _KEPT
    table = CRIB2 if dealer else CRIB2_PONE
    sign = 1 if dealer else -1
    for k in range(10):
        q = 3 * k
        kept[0] = cards[_KEEP[q]]
        kept[1] = cards[_KEEP[q + 1]]
        kept[2] = cards[_KEEP[q + 2]]
        total = 0
        for s in range(52):
            if not dealt[s]:
                total += count_hand(kept, s)
        HAND[k] = total
        t = THROWS[k]
        i = cell(cards[t[0]], cards[t[1]])
        v = sign * (table[2 * i] << 8 | table[2 * i + 1])
        CRIB[k] = v
        KEY[k] = 100 * total + 47 * v
    order = ORDER  # insertion sort, best first; equal keys keep throw order
    for k in range(10):
        v = KEY[k]
        p = k
        while p > 0 and KEY[order[p - 1]] < v:
            order[p] = order[p - 1]
            p -= 1
        order[p] = k
    return 10


def best_discards(cards, dealer, n=3):
    """The n best throws as [(expected_points, (i, j)), ...], best first."""
    if not isinstance(n, int) or n < 1:
        raise ValueError("n is how many throws to list: 1 or more, not %r" % (n,))
    rank(cards, dealer)
    out = []
    for p in range(min(n, 10)):
        k = ORDER[p]
        out.append((KEY[k] / 4700, THROWS[k]))
    return out
