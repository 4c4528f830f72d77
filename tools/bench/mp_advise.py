"""Discard advisor under MicroPython: ranking every discard of six cards, against scoring one
hand and against the plain way (score_hand on each of the 46 starters for each of 15 keeps)."""

import gc

from cribbage import score  # the core (measured by mp_core.py), before the delta

gc.collect()
_before = gc.mem_alloc()
from cribbage import advise  # noqa: E402

gc.collect()
_advise_heap = gc.mem_alloc() - _before

from benchlib import row, per_call_us, alloc_per_call  # noqa: E402

# a fixed spread of deals: six-card slices of a scrambled deck
_deck = [(i * 29 + 7) % 52 for i in range(52)]
SIXES = [_deck[i:i + 6] for i in range(0, 46, 6)]
FIVES = [_deck[i:i + 5] for i in range(0, 47, 5)]
HAND = SIXES[0][:4]
STARTER = SIXES[0][4]
_keep = [0, 0, 0, 0]


def one_hand():
    score.score_hand(HAND, STARTER)


def rank_sixes():
    for d in SIXES:
        advise.rank(d, True)


def best_sixes():
    for d in SIXES:
        advise.best_discards(d, False)


def rank_fives():
    for d in FIVES:
        advise.rank(d, True)


def plain_sixes():
    """The plain ranking's hand part: every keep scored against every unseen starter."""
    sh = score.score_hand
    keep = _keep
    for d in SIXES:
        for t in advise.THROWS6:
            n = 0
            for i in range(6):
                if i != t[0] and i != t[1]:
                    keep[n] = d[i]
                    n += 1
            total = 0
            for s in range(52):
                if s != d[0] and s != d[1] and s != d[2] and s != d[3] and s != d[4] \
                        and s != d[5]:
                    total += sh(keep, s)


hand_us = per_call_us(one_hand, 2000)
ours = per_call_us(rank_sixes, 20) / len(SIXES)
best = per_call_us(best_sixes, 20) / len(SIXES)
plain = per_call_us(plain_sixes, 2) / len(SIXES)
fives = per_call_us(rank_fives, 20) / len(FIVES)
row("advise: us to rank all 15 discards of 6 cards", ours, "us", ref=hand_us,
    ratio=ours / hand_us, note="ref = one score_hand; ratio = ranking / one hand scored")
row("advise: best_discards(6 cards, n=3) incl. result list", best, "us", ref=hand_us,
    ratio=best / hand_us)
row("advise: plain ranking (690 score_hand calls), hand part only", plain, "us", ref=ours,
    ratio=plain / ours, note="ratio = plain / advisor")
row("advise: us to rank all 5 discards of 5 cards", fives, "us", ref=hand_us,
    ratio=fives / hand_us)
row("advise: heap bytes allocated per rank()", alloc_per_call(rank_sixes, 20) / len(SIXES),
    "bytes")
row("advise: heap bytes allocated per best_discards()",
    alloc_per_call(best_sixes, 20) / len(SIXES), "bytes", note="the returned list of 3")
row("advise: heap bytes (advise + cribtable imported)", _advise_heap, "bytes",
    note="crib tables %d bytes of bytes data" % (len(advise.CRIB2) + len(advise.CRIB1)))
