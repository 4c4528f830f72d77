"""Property tests: the fast scorers against the plain reference in host_tests/both/."""

from hypothesis import given, settings, strategies as st

import reference
from cribbage.score import score_hand, score_play
from cribbage.spoken import breakdown
from cribbage.cards import PIP

distinct_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(distinct_cards, st.booleans())
@settings(max_examples=3000)
def test_show_matches_reference(five, crib):
    assert score_hand(five[:4], five[4], crib) == reference.hand(five[:4], five[4], crib)


@given(distinct_cards, st.booleans())
@settings(max_examples=500)
def test_breakdown_sums_to_score(five, crib):
    items = breakdown(five[:4], five[4], crib)
    assert sum(i[2] for i in items) == score_hand(five[:4], five[4], crib)
    for _, cards, _ in items:
        assert set(cards) <= set(five)


@st.composite
def series(draw):
    """A legal series of the play: distinct cards whose count stays within 31."""
    cards = draw(st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True))
    pile = []
    total = 0
    for c in cards:
        if total + PIP[c] > 31:
            break
        pile.append(c)
        total += PIP[c]
    return pile


# Runs and pairs hide in low ranks: bias a second strategy to them.
low_series = st.lists(st.integers(0, 27), min_size=1, max_size=13, unique=True).map(
    lambda cs: [c for i, c in enumerate(cs) if sum(PIP[x] for x in cs[:i + 1]) <= 31])


@given(st.one_of(series(), low_series))
@settings(max_examples=4000)
def test_play_matches_reference(pile):
    if pile:
        assert score_play(pile) == reference.play(pile)


@given(series())
def test_play_points_are_possible(pile):
    # the most one card can peg (go and last aside) is 14: double pair royal and 15/31
    assert 0 <= score_play(pile) <= 14
