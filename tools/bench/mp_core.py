"""Rules core under MicroPython: the scorer vs the plain brute-force reference (the ranks' table,
the advisor's, measured beside it)."""

import gc

gc.collect()
_before = gc.mem_alloc()
from cribbage import tables  # noqa: E402

gc.collect()
_tables_heap = gc.mem_alloc() - _before
from cribbage import score  # noqa: E402
from dealer import cardtext  # noqa: E402

gc.collect()
_core_heap = gc.mem_alloc() - _before

import reference  # noqa: E402
from benchlib import row, per_call_us, alloc_per_call  # noqa: E402

# a fixed spread of hands: every 13th five-card slice of a scrambled deck
_deck = [(i * 29 + 7) % 52 for i in range(52)]
HANDS = [(_deck[i:i + 4], _deck[i + 4]) for i in range(0, 47, 3)]
PILE = cardtext.parse_many("AH 2C 5D 4S 3H 6C")


def ours_hands():
    sh = score.score_hand
    for h, s in HANDS:
        sh(h, s)


def ref_hands():
    rh = reference.hand
    for h, s in HANDS:
        rh(h, s)


def ours_play():
    score.score_play(PILE)


def ref_play():
    reference.play(PILE)


n = len(HANDS)
ours = per_call_us(ours_hands, 200) / n
ref = per_call_us(ref_hands, 3) / n
row("show: us per hand", ours, "us", ref=ref, ratio=ref / ours,
    note="ratio = plain reference / ours")
ours_p = per_call_us(ours_play, 2000)
ref_p = per_call_us(ref_play, 100)
row("play: us per card (6-card series)", ours_p, "us", ref=ref_p, ratio=ref_p / ours_p)
row("show: heap bytes allocated per hand", alloc_per_call(ours_hands) / n, "bytes")
row("play: heap bytes allocated per card", alloc_per_call(ours_play), "bytes")
row("tables: heap bytes (tables.py imported)", _tables_heap, "bytes",
    note="SHOW is %d bytes of bytes data" % len(tables.SHOW))
row("core: heap bytes (cards + score + tables)", _core_heap, "bytes")
