"""The show scorer: every example the rule sheets print, errors, and zero allocation."""

from check import raises, no_alloc
from dealer.cardtext import parse, parse_many
from cribbage import score
from cribbage import spoken
import reference


def hand(text, crib=False):
    """'5H 5C 5S JD + 5D' -> score of the hand with that starter."""
    h, s = text.split("+")
    return score.score_hand(parse_many(h), parse(s), crib)


def test_perfect_29():
    # sheet 002/003/004 facts: 555J with the starter 5 of the jack's suit
    assert hand("5H 5C 5S JD + 5D") == 29
    assert hand("5H 5C 5S JD + 5D", crib=True) == 29
    # the same cards without nobs: 28 (any ten-card with all four 5s)
    assert hand("5H 5C 5S 5D + JD") == 28
    assert hand("5H 5C 5S 5D + KS") == 28


def test_sheet_000_examples():
    # "two 10s and two 5s would give eight for fifteen plus four for pairs = 12"
    assert hand("10H 10C 5S 5D + 2C") == 12
    # "4,4,5,6,6 scores 8 for fifteen, 4 for pairs and 12 for sequences: 24"
    assert hand("4H 4C 5S 6D + 6C") == 24
    assert hand("4H 6C 5S 6D + 4C") == 24  # the starter's place does not matter


def test_sheet_002_examples():
    # "king, jack, five, five would count 8 points (four fifteens) ... two for the pair: 10"
    assert hand("KH JD 5S 5C + 2S") == 10
    # "6-7-8 contains two runs of 3 (as well as two fifteens and a pair): 12"
    assert hand("6C 7D 8H 8S + KC") == 12
    # "a run of four cards, such as 9-10-J-Q, scores 4"
    assert hand("9C 10D JH QS + 2C") == 4
    # "7 8 8 K and the start card is a 9: fifteen 2, fifteen 4, a pair is 6, a run is 9,
    #  and a run is 12"
    assert hand("7H 8C 8S KD + 9D") == 12
    items = spoken.breakdown(parse_many("7H 8C 8S KD"), parse("9D"))
    assert spoken.spoken(items) == ("fifteen two, fifteen four, a pair is six, "
                                   "a run of three is nine, and a run of three is twelve")


def test_flush_rules():
    # four in hand of one suit: 4; with the starter: 5; three in hand + starter: nothing
    assert hand("2H 4H 6H 8H + QC") == 4  # no fifteen in 2 4 6 8 Q
    assert hand("2H 4H 6H 8H + QH") == 5
    assert hand("2H 4H 6H 8C + QH") == 0
    # the crib counts only a five-card flush (every sheet agrees)
    assert hand("2H 4H 6H 8H + QC", crib=True) == 0
    assert hand("2H 4H 6H 8H + QH", crib=True) == 5


def test_nobs_not_heels():
    # one for his nobs: a jack in hand of the starter's suit
    assert hand("JH 2C 4D 6S + 8H") == 1
    assert hand("JH 2C 4D 6S + 8C") == 0
    # a jack starter is heels (the engine's two to the dealer), never nobs in the show
    assert hand("2C 4D 6S 8H + JH") == 0


def test_nineteen_hand():
    # nothing at all: a "nineteen"
    assert hand("2C 4D 6S 8H + QC") == 0
    assert spoken.spoken(spoken.breakdown(parse_many("2C 4D 6S 8H"), parse("QC"))) \
        == "nineteen (nothing)"


def test_runs_with_multiplicity():
    # 3-3-3-4-5: pair royal 6, triple run of three 9, fifteens 3+3+4+5 (3 ways) 6 = 21
    assert hand("3C 3D 3H 4S + 5C") == 21
    # A-A-2-3-3: quadruple run of three 12 + two pairs 4 + fifteens none = 16
    assert hand("AC AD 2H 3S + 3C") == 16
    # 7-7-8-8-9 (dealer's favourite): four runs 12, two pairs 4, 7+8 four ways 8 = 24
    assert hand("7C 7D 8H 8S + 9C") == 24


def test_breakdown_items_sum_and_order():
    h, s = parse_many("5H 5C 5S JD"), parse("5D")
    items = spoken.breakdown(h, s)
    kinds = [i[0] for i in items]
    assert kinds == ["fifteen"] * 8 + ["double pair royal", "nobs"]
    assert sum(i[2] for i in items) == 29
    for kind, cards, pts in items:
        if kind == "fifteen":
            assert sum(min(c // 4 + 1, 10) for c in cards) == 15 and pts == 2
    assert spoken.spoken(items).endswith("and one for his nobs is twenty-nine")


def test_breakdown_matches_reference_on_a_spread():
    # every 7th starter against a fixed ladder of hands: the itemised count is the count
    for h in ("AC 2D 3H 4S", "5C 5D 10H JS", "6H 7H 8H 9H", "JC QC KC 10C", "4D 4S 6D 6S"):
        cards = parse_many(h)
        for s in range(0, 52, 7):
            if s in cards:
                continue
            for crib in (False, True):
                items = spoken.breakdown(cards, s, crib)
                total = sum(i[2] for i in items)
                assert total == score.score_hand(cards, s, crib) == reference.hand(cards, s, crib)


def test_bad_hands_are_refused():
    e = raises(ValueError, score.score_hand, parse_many("5H 5C 5S"), parse("5D"))
    assert "4 cards" in str(e)
    raises(ValueError, score.score_hand, parse_many("5H 5C 5S JD 2C"), parse("5D"))
    e = raises(ValueError, score.score_hand, parse_many("5H 5C 5S 5H"), parse("5D"))
    assert "duplicate" in str(e)
    e = raises(ValueError, score.score_hand, parse_many("5H 5C 5S JD"), parse("5H"))
    assert "duplicate" in str(e) and "5H" in str(e)
    raises(ValueError, score.score_hand, [1, 2, 3, 52], 4)
    raises(ValueError, score.score_hand, [1, 2, 3, -1], 4)
    raises(ValueError, spoken.breakdown, [1, 2, 3, 3], 4)


def test_scoring_allocates_nothing():
    h = parse_many("5H 5C 5S JD")
    s = parse("5D")
    flush = bytes(parse_many("2H 4H 6H 8H"))  # bytes work as a hand too

    def run():
        return (score.score_hand(h, s) + score.score_hand(h, s, True)
                + score.score_hand(flush, s) * 100 + score.score_hand(flush, s, crib=True) * 1000)

    flush_hand = reference.hand(flush, s)  # 2 4 6 8 + 5: fifteens and a run, plus the flush
    flush_crib = reference.hand(flush, s, True)
    assert flush_hand == flush_crib + 4
    assert no_alloc(run) == 29 + 29 + flush_hand * 100 + flush_crib * 1000


def test_show_index_is_dense():
    from cribbage import advise  # (the ranks' table and its index: the advisor's)

    # the combinatorial index maps the 6,188 rank multisets onto 0..6187 one to one
    seen = bytearray(6188)
    n = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        i = advise.show_index(a, b, c, d, e)
                        assert seen[i] == 0
                        seen[i] = 1
                        n += 1
    assert n == 6188 and len(advise.SHOW) == 6188


def test_the_count_agrees_with_the_ranks_table():
    # score_hand counts at run time (issue 34: no 6 KB table on a board's heap); the
    # advisor's table, built from spoken.rank_items, says the same of every rank multiset
    from cribbage import advise

    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        if a == e:
                            continue  # five of a kind
                        hand = [a * 4, b * 4 + 1, c * 4 + 2, d * 4 + 3]  # no flush
                        suit = 0
                        while e * 4 + suit in hand:
                            suit += 1
                        want = advise.SHOW[advise.show_index(a, b, c, d, e)] - advise.SHOW_BIAS
                        want += 10 * 4 + suit in hand  # his nobs
                        assert score.score_hand(hand, e * 4 + suit) == want, (hand, e, suit)
