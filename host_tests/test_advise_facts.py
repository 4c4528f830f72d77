"""The advisor against published discard analyses and the well-known rules of thumb.

Sources: Schell, "How to analyze discards" parts 2 and 3, cribbageforum.com
(AnalyzeDiscardsPart2.htm, AnalyzeDiscardsPart3.htm), which print exact average hands and
expected averages from four published crib tables (Hessel, Colvert, Rasmussen, Schell).
"""

import random

from cribbage import advise
from dealer.cardtext import parse_many


def _throw(text, dealer):
    dealt = parse_many(text)
    throw = advise.best_discards(dealt, dealer, 1)[0][1]
    return sorted(text.split()[i] for i in throw)


def _hand_average(text, throw_text):
    dealt = parse_many(text)
    throw = tuple(sorted(dealt.index(c) for c in parse_many(throw_text)))
    for _pts, throw2, hand, _crib in advise.details(dealt, True):
        if throw2 == throw:
            return hand
    raise AssertionError(throw)


def test_published_average_hands_match_exactly():
    # Part 2: A-2-7-9-J-Q, 11 unseen starters of the jack's suit: A-2-J-Q 2.85, A-2-7-9 2.39
    assert round(_hand_average("AC 2D 7H 9C JS QS", "7H 9C"), 2) == 2.85
    assert round(_hand_average("AC 2D 7H 9C JS QS", "JS QS"), 2) == 2.39
    # Part 3: A-2-3-4-5-6: 3-4-5-6 averages 9.85, 2-3-4-5 8.57
    assert round(_hand_average("AC 2D 3H 4C 5S 6S", "AC 2D"), 2) == 9.85
    assert round(_hand_average("AC 2D 3H 4C 5S 6S", "AC 6S"), 2) == 8.57


def test_published_example_a2_79_jq_as_dealer():
    # Part 2: toss J-Q (expected 7.20-7.29 by the four tables), not Wergin's 7-9 (6.85-6.91)
    assert _throw("AC 2D 7H 9C JS QS", True) == ["JS", "QS"]


def test_published_example_a23456_as_pone():
    # Part 3: keep 3-4-5-6 and toss A-2 even to the opponent's crib
    assert _throw("AC 2D 3H 4C 5S 6S", False) == ["2D", "AC"]


def test_a_five_goes_to_your_own_crib_but_not_to_the_opponents():
    # 10-Q-Q-J with 5-6: as dealer give yourself 5-6; as pone keep the 5 and throw Q-6
    assert _throw("10S 5C QS 6H QC JD", True) == ["5C", "6H"]
    assert _throw("10S 5C QS 6H QC JD", False) == ["6H", "QS"]


def test_rules_of_thumb_over_many_deals():
    # keep 5s out of the opponent's crib, and pairs and fifteens too; feed your own
    rng = random.Random(7)
    counts = {}
    for dealer in (True, False):
        fives = pairs = fifteens = 0
        for _ in range(400):
            dealt = rng.sample(range(52), 6)
            i, j = advise.best_discards(dealt, dealer, 1)[0][1]
            x, y = dealt[i] >> 2, dealt[j] >> 2
            fives += x == 4 or y == 4
            pairs += x == y
            fifteens += min(x + 1, 10) + min(y + 1, 10) == 15
        counts[dealer] = (fives, pairs, fifteens)
    for k in range(3):
        assert counts[False][k] * 3 < counts[True][k], counts
