"""The show and the play, scored.

score_hand() counts fifteens (the 31 sets of the five cards), pairs, runs (the ranks as bits),
flush and nobs at run time, in a few hundred bytecodes: no table on the heap (the ranks'
table, cribbage.tables' 6,188 bytes, is the discard advisor's, which scores 46 starters for
each of 15 throws; a board loads it with the advisor only). Scoring a hand or a play card
allocates nothing, so it can run with the heap locked.

The same count item by item, for people to read (breakdown(), spoken()), is in spoken.py: a
board without a display never loads it.
"""

from .cards import PIP, JACK, fmt_many

from micropython import const

_DECK = const(52)


def score_hand(hand, starter, crib=False):
    """Points in a four-card hand (or crib) with the starter: fifteens, pairs, runs,
    flush (4 in hand, 5 with the starter; a crib only counts 5) and one for his nobs.
    (A hand of five-card cribbage, three cards: hand().) Allocates nothing."""
    if len(hand) != 4:
        raise ValueError("a hand is 4 cards, not %d" % len(hand))
    c0, c1, c2, c3 = hand
    s = starter
    if not (0 <= c0 < _DECK and 0 <= c1 < _DECK and 0 <= c2 < _DECK and 0 <= c3 < _DECK
            and 0 <= s < _DECK):
        raise ValueError("not a card in %r + %r" % (hand, starter))
    if (c0 == c1 or c0 == c2 or c0 == c3 or c0 == s or c1 == c2 or c1 == c3 or c1 == s
            or c2 == c3 or c2 == s or c3 == s):
        raise ValueError("duplicate card in " + fmt_many(hand) + " + " + fmt_many((s,)))
    p0 = PIP[c0]
    p1 = PIP[c1]
    p2 = PIP[c2]
    p3 = PIP[c3]
    p4 = PIP[s]
    # fifteens: no card is 15 alone, so a set of them is 2 to 5 cards; the three a pair
    # leaves sum to 15 when the pair sums to t - 15, the four one card leaves when it is t - 15
    t = p0 + p1 + p2 + p3 + p4
    u = t - 15
    n = ((t == 15) + (p0 == u) + (p1 == u) + (p2 == u) + (p3 == u) + (p4 == u))
    q = p0 + p1
    n += (q == 15) + (q == u)
    q = p0 + p2
    n += (q == 15) + (q == u)
    q = p0 + p3
    n += (q == 15) + (q == u)
    q = p0 + p4
    n += (q == 15) + (q == u)
    q = p1 + p2
    n += (q == 15) + (q == u)
    q = p1 + p3
    n += (q == 15) + (q == u)
    q = p1 + p4
    n += (q == 15) + (q == u)
    q = p2 + p3
    n += (q == 15) + (q == u)
    q = p2 + p4
    n += (q == 15) + (q == u)
    q = p3 + p4
    n += (q == 15) + (q == u)
    a = c0 >> 2
    b = c1 >> 2
    c = c2 >> 2
    d = c3 >> 2
    e = s >> 2
    pts = 2 * (n + (a == b) + (a == c) + (a == d) + (a == e) + (b == c) + (b == d) + (b == e)
               + (c == d) + (c == e) + (d == e))
    # runs: the ranks held as bits; five cards hold one row of three or more at most, each
    # way of making it with the pairs in it its length in points (the ranks' table,
    # cribbage.tables, once did this: now the advisor's only)
    held = 1 << a | 1 << b | 1 << c | 1 << d | 1 << e
    if held & held >> 1 & held >> 2:
        n = 0
        ways = 1
        for r in range(13):
            if held >> r & 1:
                n += 1
                ways *= (a == r) + (b == r) + (c == r) + (d == r) + (e == r)
            elif n >= 3:
                break
            else:
                n = 0
                ways = 1
        pts += n * ways
    su = c0 & 3
    if (c1 & 3) == su and (c2 & 3) == su and (c3 & 3) == su:
        if (s & 3) == su:
            pts += 5
        elif not crib:
            pts += 4
    nob = JACK * 4 + (s & 3)
    if c0 == nob or c1 == nob or c2 == nob or c3 == nob:
        pts += 1
    return pts


def hand(cards, starter, crib=False):
    """Points in a hand of either game with the starter: four cards (or the crib), as
    score_hand; three cards, a hand of five-card cribbage (Hoyle), as score5.py counts it,
    loaded with a five-card Match (loadgame.match(): here only for a call without one) and
    kept: a six-card game never has its code on the heap (issue 34). Allocates nothing once
    loaded. (Its name, and every name in its code, is one a board has anyway: a name more
    in a module a six-card game loads is one more in the RAM of every board, and a few more
    take a new 7 KB block of names: test_board_mp.)"""
    if len(cards) != 3 or crib:
        return score_hand(cards, starter, crib)
    import sys

    name = "cribbage.score5"  # (a string, not an import statement: no name more interned
    __import__(name)  # here, and an import short of memory raises as the Match's does)
    return sys.modules[name].hand(cards, starter)


# What the newest card of a play made (play_parts), as bits of one small int. Their layout is
# known here only: play_parts() writes them, play_points() counts them, play_cards() reads the
# cards in them (for the words: spoken.py's play_why()); elsewhere only the flags are named.
PLAY_15 = const(1)         # the count is 15
PLAY_31 = const(2)         # the count is 31
_SAME = const(2)           # (parts >> _SAME) & 7: the cards of its rank at the end of the
# pile (1, or 2-4: a pair, ...)
_RUN = const(5)            # (parts >> _RUN) & 7: the run it ends (0, or 3-7 cards)
PLAY_LAST = const(0x100)   # one for the last card (the match engine sets it)
PLAY_GO = const(0x200)     # one for the go: nobody can play on (the match engine sets it)


def play_points(parts):
    """The points of play_parts(): 2 for 15, 2 for 31, 2/6/12 for pairs, 1 a run's card, 1
    for the go or the last card."""
    k = parts >> _SAME & 7
    return (2 * (parts & PLAY_15) + (parts & PLAY_31) + k * (k - 1) + (parts >> _RUN & 7)
            + (parts >> 8 & 1) + (parts >> 9 & 1))  # PLAY_LAST, PLAY_GO


def play_cards(parts):
    """The cards of play_parts() bits: (the cards of the newest card's rank at the end of the
    pile: 1, or 2-4 for a pair, pair royal, double pair royal; the cards of the run it ends:
    0, or 3-7). For the words (spoken.py); the scorer counts with play_points()."""
    return parts >> _SAME & 7, parts >> _RUN & 7


def score_play(pile):
    """Points the newest card of the pile makes (the pile: cards since the count was last
    reset, newest last): 15 or 31 for two, pairs 2/6/12 with the cards just before it, and
    the longest run of the last three or more cards with no repeated rank. Go and the last
    card are the match engine's to score."""
    return play_points(play_parts(pile))


def play_parts(pile):
    """What the newest card of the pile makes, as PLAY_* bits (see above): score_play()'s
    items, for the display to say why."""
    n = len(pile)
    if n == 0:
        return 0
    total = 0
    lo_seen = 0  # cards 0..25 and 26..51 as two masks: small ints on a 32-bit board
    hi_seen = 0
    for i in range(n):
        c = pile[i]
        if not 0 <= c < _DECK:
            raise ValueError("not a card: %r" % (c,))
        if c < 26:
            if lo_seen >> c & 1:
                raise ValueError("duplicate card in the play")
            lo_seen |= 1 << c
        else:
            if hi_seen >> (c - 26) & 1:
                raise ValueError("duplicate card in the play")
            hi_seen |= 1 << (c - 26)
        total += PIP[c]
    if total > 31:
        raise ValueError("the count would be %d, over 31" % total)
    parts = PLAY_15 if total == 15 else PLAY_31 if total == 31 else 0
    # Pairs: how many of the newest cards share its rank.
    r = pile[n - 1] >> 2
    k = 1
    i = n - 2
    while i >= 0 and pile[i] >> 2 == r:
        k += 1
        i -= 1
    parts |= k << _SAME
    # Runs: grow the tail while its ranks are distinct; it is a run when max - min + 1 == length.
    mask = 0
    lo = 13
    hi = -1
    best = 0
    k = 0
    i = n - 1
    while i >= 0:
        r = pile[i] >> 2
        if mask >> r & 1:
            break
        mask |= 1 << r
        if r < lo:
            lo = r
        if r > hi:
            hi = r
        k += 1
        if k >= 3 and hi - lo == k - 1:
            best = k
        i -= 1
    return parts | best << _RUN
