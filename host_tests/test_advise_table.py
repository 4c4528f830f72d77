"""The shipped crib table (cribtable.py) against its generator (cribgen.py), and the advisor's
command-line tool. CPython only (the sample enumeration takes about a second)."""

import os
import subprocess
import sys

import cribgen  # tools/tables/cribgen.py
from cribbage import cribtable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _shipped(table, i):
    return table[2 * i] << 8 | table[2 * i + 1]


def test_shipped_pair_table_matches_the_generator_on_a_sample():
    # 5-5 (the biggest), a suited and an offsuit jack pair, two low cards, and a king-ten
    for r1, r2, suited in ((4, 4, False), (10, 11, True), (11, 10, False), (0, 1, True),
                           (9, 12, False)):
        lo, hi = min(r1, r2), max(r1, r2)
        i = cribgen.cell(lo, hi) if suited else cribgen.cell(hi, lo)
        want = cribgen.hundredths(cribgen.pair_sum(lo, hi, suited), cribgen.N_CRIBS)
        assert _shipped(cribtable.CRIB2, i) == want, (r1, r2, suited)


def test_shipped_single_card_table_follows_from_the_pair_table():
    # CRIB1 comes from the exact sums; from the rounded pair values it agrees within 0.01
    for r in range(13):
        total = 3 * _shipped(cribtable.CRIB2, cribgen.cell(r, r))
        for q in range(13):
            if q != r:
                lo, hi = min(r, q), max(r, q)
                total += (_shipped(cribtable.CRIB2, cribgen.cell(lo, hi))
                          + 3 * _shipped(cribtable.CRIB2, cribgen.cell(hi, lo)))
        assert abs(total / 51 - _shipped(cribtable.CRIB1, r)) <= 1.0, r


def test_table_source_is_what_the_generator_writes():
    # the text of cribtable.py is a pure function of the sums: rebuild it from sums that
    # reproduce the shipped hundredths exactly and compare byte for byte
    sums = [_shipped(cribtable.CRIB2, i) * cribgen.N_CRIBS // 100 for i in range(169)]
    src = cribgen.table_source(sums)
    with open(os.path.join(ROOT, "firmware", "cribbage", "cribtable.py")) as f:
        shipped = f.read()
    # the pair part is identical; the single-card line can differ by the sums' rounding
    head = shipped.split("# %d" % _shipped(cribtable.CRIB1, 0))[0]
    assert src.startswith(head)


def test_crib_flush_and_suits_make_the_suited_cell_worth_more():
    # suited throws can make a five-card crib flush: slightly more than offsuit, never less
    for lo in range(13):
        for hi in range(lo + 1, 13):
            s = _shipped(cribtable.CRIB2, cribgen.cell(lo, hi))
            o = _shipped(cribtable.CRIB2, cribgen.cell(hi, lo))
            assert 0 <= s - o <= 10, (lo, hi, s, o)


def test_fives_are_the_best_crib_cards_and_ten_king_the_worst():
    pair = [_shipped(cribtable.CRIB2, cribgen.cell(r, r)) for r in range(13)]
    assert max(pair) == pair[4]  # 5-5
    single = [_shipped(cribtable.CRIB1, r) for r in range(13)]
    assert max(single) == single[4] and min(single) == single[12]


def test_advise_tool_prints_the_ranking():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "player", "advise.py"),
                          "5H", "5C", "JD", "6S", "4C", "KH", "--dealer"],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "5H 5C JD 6S 4C KH, your crib"
    assert lines[2].split()[:2] == ["JD", "KH"]
    assert len(lines) == 2 + 15 + 1
    assert lines[-1] == "throw JD KH (cards 3 and 6)"


def test_advise_tool_rejects_bad_cards():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "player", "advise.py"), "5H",
                        "ZZ"], capture_output=True, text=True)
    assert r.returncode == 2 and "bad card" in r.stderr
