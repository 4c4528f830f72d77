"""The discard advisor: exact hand averages against score_hand, crib signs, order, no allocation.

Runs under pytest and under real MicroPython (mp_runner.py).
"""

from check import raises, no_alloc
from cribbage import advise
from dealer.cardtext import parse_many
from cribbage.score import score_hand
from cribbage.cribtable import CRIB2, CRIB1

_seed = [12345]


def _rand(n):
    """0..n-1 from a small LCG: the same deals on CPython and MicroPython."""
    _seed[0] = (_seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (_seed[0] >> 8) % n


def _deal(k):
    deck = list(range(52))
    for i in range(k):  # partial Fisher-Yates
        j = i + _rand(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:k]


def _brute_hand_sum(dealt, keep):
    """Points of the kept hand summed over every starter not dealt, one score_hand each."""
    total = 0
    for s in range(52):
        if s not in dealt:
            total += score_hand(keep, s)
    return total


def _crib_value(dealt, throw):
    """The shipped table's value (hundredths) for these thrown cards, looked up plainly."""
    if len(throw) == 1:
        r = dealt[throw[0]] >> 2
        return CRIB1[2 * r] * 256 + CRIB1[2 * r + 1]
    x = dealt[throw[0]]
    y = dealt[throw[1]]
    lo, hi = min(x >> 2, y >> 2), max(x >> 2, y >> 2)
    if lo == hi or (x & 3) != (y & 3):
        i = hi * 13 + lo  # offsuit (or a pair): below the diagonal
    else:
        i = lo * 13 + hi
    return CRIB2[2 * i] * 256 + CRIB2[2 * i + 1]


def _check_deal(dealt, dealer):
    m = advise.rank(dealt, dealer)
    throws = advise.THROWS6 if len(dealt) == 6 else advise.THROWS5
    assert m == len(throws)
    unseen = 52 - len(dealt)
    for k in range(m):
        keep = [dealt[i] for i in range(len(dealt)) if i not in throws[k]]
        brute = _brute_hand_sum(dealt, keep)
        assert advise.HAND[k] == brute, (dealt, throws[k], advise.HAND[k], brute)
        v = _crib_value(dealt, throws[k])
        assert advise.CRIB[k] == (v if dealer else -v)
        assert advise.KEY[k] == 100 * brute + unseen * advise.CRIB[k]


def test_hand_sums_match_score_hand_over_every_starter_six_cards():
    for n in range(12):
        _check_deal(_deal(6), n % 2 == 0)


def test_hand_sums_match_score_hand_over_every_starter_five_cards():
    for n in range(10):
        _check_deal(_deal(5), n % 2 == 1)


def test_hand_sums_exact_on_flushes_nobs_and_quads():
    for text in ("5H 5C 5S 5D JD KH",   # four of a kind, a jack
                 "2H 4H 6H 8H JH 3C",   # four-card flush kept, jack of the suit
                 "JC JD JH JS 5C 5D",   # every jack: nobs on each suit
                 "AS 3S 5S 7S 9S JS",   # six of one suit
                 "5H 5C JD 6S 4C KH",
                 "JH 5H 5C 5S 5D"):     # five cards
        _check_deal(parse_many(text), True)


def test_ranking_is_best_first_and_ties_keep_discard_order():
    dealt = parse_many("5H 5C JD 6S 4C KH")
    m = advise.rank(dealt, False)
    order = [advise.ORDER[p] for p in range(m)]
    assert sorted(order) == list(range(15))
    for p in range(1, m):
        a, b = advise.KEY[order[p - 1]], advise.KEY[order[p]]
        assert a > b or (a == b and order[p - 1] < order[p])


def test_best_discards_example_both_cribs():
    dealt = parse_many("5H 5C JD 6S 4C KH")
    for dealer in (True, False):
        best = advise.best_discards(dealt, dealer)
        assert len(best) == 3
        assert best[0][1] == (2, 5)  # keep 4-5-5-6, throw the jack and king
        assert best[0][0] > best[1][0] >= best[2][0]
    mine = advise.best_discards(dealt, True, 15)
    theirs = advise.best_discards(dealt, False, 15)
    assert len(mine) == 15
    # the same throw is worth exactly twice its crib value more when the crib is yours
    for pts, throw in mine:
        for pts2, throw2 in theirs:
            if throw2 == throw:
                assert abs(pts - pts2 - 2 * _crib_value(dealt, throw) / 100) < 1e-9


def test_five_cards_throw_one():
    dealt = parse_many("JH 5H 5C 5S 5D")
    best = advise.best_discards(dealt, True, 5)
    assert [len(t) for _, t in best] == [1] * 5
    # keep J + three 5s and throw a 5, or keep four 5s and throw the jack
    pts, throw = best[0]
    k = throw[0]
    unseen = 47
    assert abs(pts - (_brute_hand_sum(dealt, [dealt[i] for i in range(5) if i != k]) / unseen
                      + _crib_value(dealt, throw) / 100)) < 1e-9


def test_expected_points_are_hand_average_plus_or_minus_crib():
    dealt = _deal(6)
    for dealer in (True, False):
        for pts, throw in advise.best_discards(dealt, dealer, 15):
            keep = [dealt[i] for i in range(6) if i not in throw]
            want = _brute_hand_sum(dealt, keep) / 46
            crib = _crib_value(dealt, throw) / 100
            want += crib if dealer else -crib
            assert abs(pts - want) < 1e-9


def test_rank_allocates_nothing():
    six = parse_many("5H 5C JD 6S 4C KH")
    five = parse_many("JH 5H 5C 5S 5D")
    assert no_alloc(lambda: advise.rank(six, True)) == 15
    assert no_alloc(lambda: advise.rank(six, False)) == 15
    assert no_alloc(lambda: advise.rank(five, True)) == 5


def test_bad_input_is_a_clear_value_error_and_changes_nothing():
    advise.rank(parse_many("5H 5C JD 6S 4C KH"), True)
    before = list(advise.KEY)
    e = raises(ValueError, advise.best_discards, parse_many("5H 5C JD 6S"), True)
    assert "not 4" in str(e)
    e = raises(ValueError, advise.best_discards, parse_many("5H 5C JD 6S 4C 5H"), True)
    assert "duplicate" in str(e)
    raises(ValueError, advise.best_discards, [1, 2, 3, 4, 5, 52], True)
    raises(ValueError, advise.best_discards, parse_many("5H 5C JD 6S 4C KH"), True, 0)
    assert list(advise.KEY) == before
