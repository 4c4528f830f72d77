"""Property tests (hypothesis) of the discard advisor against plain brute force. CPython only."""

from hypothesis import given, settings, strategies as st

from cribbage import advise
from cribbage.score import score_hand

deals = st.lists(st.integers(0, 51), min_size=5, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(deals, st.booleans())
def test_every_hand_total_is_score_hand_over_every_unseen_starter(dealt, dealer):
    m = advise.rank(dealt, dealer)
    throws = advise.THROWS6 if len(dealt) == 6 else advise.THROWS5
    unseen = [s for s in range(52) if s not in dealt]
    for k in range(m):
        keep = [dealt[i] for i in range(len(dealt)) if i not in throws[k]]
        assert advise.HAND[k] == sum(score_hand(keep, s) for s in unseen)


@settings(max_examples=200, deadline=None)
@given(deals, st.booleans())
def test_best_discards_is_the_top_of_the_full_ranking(dealt, dealer):
    full = advise.details(dealt, dealer)
    best = advise.best_discards(dealt, dealer, 3)
    assert [t for _, t in best] == [t for _, t, _, _ in full[:3]]
    pts = [p for p, _, _, _ in full]
    assert pts == sorted(pts, reverse=True)
    # points are the hand average plus (your crib) or minus (theirs) the crib value
    for p, _, hand, crib in full:
        assert abs(p - (hand + crib)) < 1e-9
        assert (crib > 0) == bool(dealer)
