"""Every hand: all 12,994,800 (four cards + starter) through score_hand, as hand and as crib.

The hand counts per score 0..29 must equal the published distribution (S. Lumetta, "Amusing
Cribbage Facts", also Wikipedia's "Cribbage statistics"); crib zeros must be 1,022,208
(Wikipedia). The crib distribution is not published: on every hand the crib score must differ
from the hand score by exactly the four-card flush a crib does not count.
Split over two processes (a 2-core machine): ~1 minute.
"""

import multiprocessing

from cribbage.score import score_hand

PUBLISHED = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


def _count(first_cards):
    """Hand and crib score counts for every hand whose lowest card is in first_cards."""
    hand_dist = [0] * 30
    crib_dist = [0] * 30
    bad = []
    sh = score_hand
    for a in first_cards:
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    hand = (a, b, c, d)
                    suit = a & 3
                    four_flush = (b & 3) == suit and (c & 3) == suit and (d & 3) == suit
                    for s in range(52):
                        if s == a or s == b or s == c or s == d:
                            continue
                        h = sh(hand, s)
                        k = sh(hand, s, True)
                        hand_dist[h] += 1
                        crib_dist[k] += 1
                        lost = 4 if four_flush and (s & 3) != suit else 0
                        if h - k != lost and len(bad) < 5:
                            bad.append((hand, s, h, k))
    return hand_dist, crib_dist, bad


def test_all_hands_and_cribs():
    # interleave first cards so both workers get a similar share of the work
    shares = [list(range(0, 49, 2)), list(range(1, 49, 2))]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        parts = pool.map(_count, shares)
    hand_dist = [sum(p[0][i] for p in parts) for i in range(30)]
    crib_dist = [sum(p[1][i] for p in parts) for i in range(30)]
    bad = [b for p in parts for b in p[2]]
    assert bad == []
    assert sum(hand_dist) == 12994800 == sum(crib_dist)
    assert {i: hand_dist[i] for i in range(30)} == PUBLISHED
    assert crib_dist[0] == 1022208
    for impossible in (19, 25, 26, 27):
        assert crib_dist[impossible] == 0
