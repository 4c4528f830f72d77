"""Differential test against the PyPI package cribbage-scorer on a large random sample."""

import random

import pytest

cribbage_scorer = pytest.importorskip("cribbage_scorer.cribbage_scorer")
from cribbage.score import score_hand, score_play  # noqa: E402

SUITS = "CDHS"


def theirs(c):
    return (c // 4 + 1, SUITS[c % 4])


def test_show_agrees_on_100k_random_hands():
    rng = random.Random(20261125)
    disagreements = []
    for _ in range(100_000):
        five = rng.sample(range(52), 5)
        hand, starter = five[:4], five[4]
        crib = rng.random() < 0.5
        ours = score_hand(hand, starter, crib)
        their, _ = cribbage_scorer.show_calc_score(theirs(starter), [theirs(c) for c in hand], crib)
        if ours != their:
            disagreements.append((hand, starter, crib, ours, their))
    assert disagreements == []


def test_play_agrees_on_random_series():
    rng = random.Random(7)
    checked = 0
    for _ in range(20_000):
        deck = rng.sample(range(52), 12)
        pile = []
        total = 0
        for c in deck:
            pip = min(c // 4 + 1, 10)
            if total + pip > 31:
                break
            pile.append(c)
            total += pip
            _, their, _ = cribbage_scorer.play_score_ongoing([theirs(x) for x in pile], False)
            assert score_play(pile) == their, pile
            checked += 1
    assert checked > 50_000
