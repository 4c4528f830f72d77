"""Rules core on CPython: hands per second, ours vs the PyPI package cribbage-scorer."""

import random

from cribbage.score import score_hand
from benchlib import row, per_call_us

try:
    from cribbage_scorer.cribbage_scorer import show_calc_score
except ImportError:
    show_calc_score = None

rng = random.Random(1)
HANDS = [rng.sample(range(52), 5) for _ in range(500)]
THEIRS = [((f[4] // 4 + 1, "CDHS"[f[4] % 4]), [(c // 4 + 1, "CDHS"[c % 4]) for c in f[:4]])
          for f in HANDS]


def ours():
    for f in HANDS:
        score_hand(f[:4], f[4])


def theirs():
    for s, h in THEIRS:
        show_calc_score(s, h)


us = per_call_us(ours, 20) / len(HANDS)
if show_calc_score:
    ref = per_call_us(theirs, 2) / len(HANDS)
    row("CPython show: hands/s", 1e6 / us, "hands/s", ref=1e6 / ref, ratio=ref / us,
        note="ratio = ours / cribbage-scorer 0.2.5")
else:
    row("CPython show: hands/s", 1e6 / us, "hands/s", note="cribbage-scorer not installed")
