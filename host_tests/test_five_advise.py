"""The five-card advisor (cribbage/advise5.py) against plain brute force: every throw's
expected points are the reference count of the kept three over every unseen starter, plus or
minus the generated crib table's value of the thrown two, looked up by cribgen's own cells.
CPython only (hypothesis)."""

from hypothesis import given, settings, strategies as st

import cribgen  # tools/tables/cribgen.py
from cribbage import advise5
from cribbage.cribtable import CRIB2
from test_five_exhaustive import reference

deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
CELLS = cribgen.cells()


def plain_hand(keep, starter):
    return reference([c // 4 for c in keep], starter // 4, [c % 4 for c in keep] + [starter % 4])


def plain_crib(x, y):
    """Hundredths of a point: the crib table's value of throwing x and y."""
    rx, ry = x // 4, y // 4
    key = (min(rx, ry), max(rx, ry), rx != ry and x % 4 == y % 4)
    i = CELLS.index(key)
    return CRIB2[2 * i] * 256 + CRIB2[2 * i + 1]


@settings(max_examples=150, deadline=None)
@given(deals, st.booleans())
def test_every_throw_is_the_plain_average_plus_or_minus_the_crib(dealt, dealer):
    best = advise5.best_discards(dealt, dealer, 10)
    assert len(best) == 10 and sorted(t for _, t in best) == sorted(advise5.THROWS)
    unseen = [s for s in range(52) if s not in dealt]
    assert len(unseen) == 47
    want = {}
    for i in range(5):
        for j in range(i + 1, 5):
            keep = [dealt[k] for k in range(5) if k not in (i, j)]
            hand = sum(plain_hand(keep, s) for s in unseen) / 47
            crib = plain_crib(dealt[i], dealt[j]) / 100
            want[(i, j)] = hand + (crib if dealer else -crib)
    for pts, throw in best:
        assert abs(pts - want[throw]) < 1e-9
    pts = [p for p, _ in best]
    assert pts == sorted(pts, reverse=True)


def test_the_obvious_throws():
    from dealer.cardtext import parse_many

    # the pone keeps his pair royal of fives (6, and 14 with any ten-card starter) and gives
    # the dealer's crib the king and queen, not a five
    dealt = parse_many("5H KD 5C QS 5S")
    assert advise5.best_discards(dealt, False, 1)[0][1] == (1, 3)
    # a run of three kept whoever's crib it is: the king and queen go
    dealt = parse_many("AC 2D 3H KS QS")
    assert advise5.best_discards(dealt, True, 1)[0][1] == (3, 4)
    assert advise5.best_discards(dealt, False, 1)[0][1] == (3, 4)
