"""The discard advisor: which cards to throw to the crib, ranked by expected points.

best_discards(cards, dealer, n=3) -> [(points, (i, j)), ...], best first. cards are the six
(two players) or five (three or four players: throw one, the tuple is (i,)) dealt cards; i, j
index into cards; dealer is True when the crib is yours (with four players: your side's).

points = the exact average of the kept four cards over every starter you cannot see (46 or
47 cards), plus the expected crib of the thrown cards when the crib is yours, minus it when
it is an opponent's. The crib value comes from the generated cribtable.py (see
tools/tables/cribgen.py: full enumeration, random other crib cards, exact suits, rounded to 0.01
point).

The hand part uses the ranks' table (tables.SHOW, whose only reader this is): fifteens, pairs
and runs depend only on the starter's rank, so each kept hand is looked up once per starter rank (13
lookups weighted by how many of that rank are unseen) instead of scored 46 times; flush and
nobs are counted from the unseen cards of each suit. The tests check every total against
score_hand() over all starters, exactly. rank() does all the work with integers in
preallocated buffers: it allocates nothing, so it can run with the heap locked.
"""

from .cards import check_distinct, JACK
from .tables import SHOW, SHOW_BIAS
from .cribtable import CRIB2, CRIB1, CRIB2_PONE, CRIB1_PONE


# BINOM[17 * (k - 1) + n] = C(n, k) for k 1..5 and n 0..16: tables.SHOW's index, by the
# combinatorial number system (85 small ints in a tuple: they live in its slots, no objects)
def _binom_table():
    t = []
    for k in range(1, 6):
        for n in range(17):
            v = 1
            for i in range(k):
                v = v * (n - i) // (i + 1)
            t.append(v)
    return tuple(t)


BINOM = _binom_table()


def show_index(a, b, c, d, e):
    """Index into tables.SHOW of the rank multiset a <= b <= c <= d <= e (ranks 0..12)."""
    t = BINOM
    return t[a] + t[18 + b] + t[36 + c] + t[54 + d] + t[72 + e]

# The discards of six cards: pairs (i, j) in order, and the four kept indices of each.
THROWS6 = tuple((i, j) for i in range(6) for j in range(i + 1, 6))
THROWS5 = tuple((i,) for i in range(5))
_KEEP6 = bytes(k for t in THROWS6 for k in range(6) if k not in t)
_KEEP5 = bytes(k for t in THROWS5 for k in range(5) if k not in t)

# Results of the last rank(), in discard order (index into THROWS6 / THROWS5):
HAND = [0] * 15  # kept hand's points summed over every unseen starter
CRIB = [0] * 15  # crib value of the throw, hundredths, signed: + your crib, - theirs
KEY = [0] * 15   # 100 * unseen * expected points: HAND * 100 + CRIB * unseen
ORDER = bytearray(15)  # discard indices, best first (ties: earlier discard first)
_SEEN_RANK = bytearray(13)  # dealt cards of each rank
_SEEN_SUIT = bytearray(4)   # dealt cards of each suit


def _check(cards):
    n = len(cards)
    if n != 5 and n != 6:
        raise ValueError("the advisor wants the 6 (two players) or 5 (three or four) dealt "
                         "cards, not %d" % n)
    check_distinct(cards)


def hand_total(c0, c1, c2, c3, unseen):
    """Points of the hand c0..c3 summed over every unseen starter (the cards not dealt to
    you, as counted in _SEEN_RANK/_SEEN_SUIT by rank()). Allocates nothing."""
    a = c0 >> 2
    b = c1 >> 2
    c = c2 >> 2
    d = c3 >> 2
    # sort the four ranks: five compare-and-swaps
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
    t = BINOM
    show = SHOW
    seen = _SEEN_RANK
    # The index of the sorted five is the sum of one term per slot; the starter's rank e
    # takes slot p and the kept ranks after it move up one slot.
    sa0 = t[a]
    sa1 = t[18 + a]
    sb1 = t[18 + b]
    sb2 = t[36 + b]
    sc2 = t[36 + c]
    sc3 = t[54 + c]
    sd3 = t[54 + d]
    sd4 = t[72 + d]
    total = 0
    base = sa1 + sb2 + sc3 + sd4  # starter lowest: slot 0
    for e in range(a + 1):
        total += (4 - seen[e]) * show[base + t[e]]
    base = sa0 + sb2 + sc3 + sd4
    for e in range(a + 1, b + 1):
        total += (4 - seen[e]) * show[base + t[18 + e]]
    base = sa0 + sb1 + sc3 + sd4
    for e in range(b + 1, c + 1):
        total += (4 - seen[e]) * show[base + t[36 + e]]
    base = sa0 + sb1 + sc2 + sd4
    for e in range(c + 1, d + 1):
        total += (4 - seen[e]) * show[base + t[54 + e]]
    base = sa0 + sb1 + sc2 + sd3
    for e in range(d + 1, 13):
        total += (4 - seen[e]) * show[base + t[72 + e]]
    total -= SHOW_BIAS * unseen
    suits = _SEEN_SUIT
    s = c0 & 3
    if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s:
        # four in hand on every starter, five with each unseen card of the suit
        total += 4 * unseen + 13 - suits[s]
    # his nobs: one for each unseen starter of a kept jack's suit
    if a == JACK or b == JACK or c == JACK or d == JACK:
        if c0 >> 2 == JACK:
            total += 13 - suits[c0 & 3]
        if c1 >> 2 == JACK:
            total += 13 - suits[c1 & 3]
        if c2 >> 2 == JACK:
            total += 13 - suits[c2 & 3]
        if c3 >> 2 == JACK:
            total += 13 - suits[c3 & 3]
    return total


def rank(cards, dealer):
    """Score every discard of the 5 or 6 dealt cards into HAND, CRIB, KEY and ORDER; return
    how many discards there are (15 or 5). Allocates nothing once the cards are valid."""
    _check(cards)
    seen_rank = _SEEN_RANK
    seen_suit = _SEEN_SUIT
    for r in range(13):
        seen_rank[r] = 0
    for s in range(4):
        seen_suit[s] = 0
    n = len(cards)
    for k in range(n):  # by index: a for-in over a list would allocate an iterator
        c = cards[k]
        seen_rank[c >> 2] += 1
        seen_suit[c & 3] += 1
    unseen = 52 - n
    hand = HAND
    crib = CRIB
    key = KEY
    if n == 6:
        keep = _KEEP6
        m = 15
        table = CRIB2 if dealer else CRIB2_PONE
    else:
        keep = _KEEP5
        m = 5
        table = CRIB1 if dealer else CRIB1_PONE
    sign = 1 if dealer else -1
    for k in range(m):
        q = 4 * k
        hand[k] = hand_total(cards[keep[q]], cards[keep[q + 1]], cards[keep[q + 2]],
                             cards[keep[q + 3]], unseen)
        if m == 15:
            t = THROWS6[k]
            x = cards[t[0]]
            y = cards[t[1]]
            rx = x >> 2
            ry = y >> 2
            # suited pairs sit above the diagonal, offsuit ones below (see cribgen.cell)
            if rx == ry:
                i = rx * 14
            elif (x & 3) == (y & 3):
                i = rx * 13 + ry if rx < ry else ry * 13 + rx
            else:
                i = rx * 13 + ry if rx > ry else ry * 13 + rx
        else:
            i = cards[k] >> 2
        v = sign * (table[2 * i] << 8 | table[2 * i + 1])
        crib[k] = v
        key[k] = 100 * hand[k] + unseen * v
    # insertion sort of the discards, best first; equal keys keep discard order
    order = ORDER
    for k in range(m):
        v = key[k]
        p = k
        while p > 0 and key[order[p - 1]] < v:
            order[p] = order[p - 1]
            p -= 1
        order[p] = k
    return m


def best_discards(cards, dealer, n=3):
    """The n best discards as [(expected_points, (i, j)), ...], best first; (i,) when five
    cards are dealt. expected_points is a float (hand average +/- crib value)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError("n is how many discards to list: 1 or more, not %r" % (n,))
    m = rank(cards, dealer)
    throws = THROWS6 if m == 15 else THROWS5
    scale = 100 * (52 - len(cards))
    out = []
    for p in range(min(n, m)):
        k = ORDER[p]
        out.append((KEY[k] / scale, throws[k]))
    return out


def details(cards, dealer):
    """Every discard, best first, as (expected_points, throw, hand_average, crib_value) with
    crib_value signed as it counts for you (for printing; allocates freely)."""
    m = rank(cards, dealer)
    throws = THROWS6 if m == 15 else THROWS5
    unseen = 52 - len(cards)
    out = []
    for p in range(m):
        k = ORDER[p]
        out.append((KEY[k] / (100 * unseen), throws[k], HAND[k] / unseen, CRIB[k] / 100))
    return out
