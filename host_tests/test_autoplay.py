"""The computer players' strategies: what each throws."""

import random

from cribbage import advise
from dealer import autoplay
from cribbage.score import score_hand


def avg_hand(keep, dealt):
    """Exact average of a kept hand over every starter not dealt to the player."""
    starters = [s for s in range(52) if s not in dealt]
    return sum(score_hand(keep, s) for s in starters) / len(starters)


def test_show_player_keeps_the_best_average_hand_and_advisor_counts_the_crib():
    rng = random.Random(11)
    differ = 0
    for _ in range(60):
        dealt = rng.sample(range(52), 6)
        hand = list(dealt)
        thrown = autoplay._throw(hand, 2, autoplay.SHOW, False, rng.randrange)
        assert len(hand) == 4 and sorted(hand + thrown) == sorted(dealt)
        best = max(avg_hand([c for c in dealt if c not in t], dealt)
                   for t in ([dealt[i] for i in pair] for pair in advise.THROWS6))
        assert abs(avg_hand(hand, dealt) - best) < 1e-9
        hand2 = list(dealt)
        autoplay._throw(hand2, 2, autoplay.DISCARD, False, rng.randrange)
        differ += sorted(hand2) != sorted(hand)
    assert differ > 0  # the crib changes some choices: the two strategies are not the same


def test_strategy_names():
    assert autoplay.NAMES[autoplay.SHOW] == "show"
    assert autoplay.NAMES[autoplay.GREEDY] == "greedy"


def test_five_card_show_player_keeps_the_best_average_three():
    """Five-card cribbage (--cards 5 in tools/sim and tools/sim/simulate.py): every strategy
    throws two of the five dealt; SHOW keeps the three with the best exact average over the
    47 starters it cannot see (score.hand: three cards and the starter)."""
    from itertools import combinations
    from cribbage.score import hand as count

    rng = random.Random(5)
    for _ in range(40):
        dealt = rng.sample(range(52), 5)
        starters = [s for s in range(52) if s not in dealt]
        best = max(sum(count(list(k), s) for s in starters) / 47
                   for k in combinations(dealt, 3))
        hand = list(dealt)
        thrown = autoplay._throw_five(hand, autoplay.SHOW, False, rng.randrange)
        assert len(hand) == 3 and sorted(hand + thrown) == sorted(dealt)
        assert abs(sum(count(hand, s) for s in starters) / 47 - best) < 1e-9
        for strategy in (autoplay.RANDOM, autoplay.DISCARD, autoplay.GREEDY):
            hand = list(dealt)
            thrown = autoplay._throw_five(hand, strategy, True, rng.randrange)
            assert len(hand) == 3 and sorted(hand + thrown) == sorted(dealt)
