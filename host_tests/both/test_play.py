"""The play scorer: the rule sheets' play sequences card by card, errors, zero allocation."""

from check import raises, no_alloc
from dealer.cardtext import parse_many
from cribbage.score import score_play
from cribbage.cards import PIP
import reference


def count(pile):
    """The running count of a pile (the board's own is the engine's m.count: a count of a
    pile alone is the tests' only, so not on a board's heap, issue 34)."""
    total = 0
    for c in pile:
        total += PIP[c]
    return total


def points_per_card(text):
    """Points each card makes as the series '4H 2C 3D' is played, one card at a time."""
    pile = parse_many(text)
    return [score_play(pile[:i + 1]) for i in range(len(pile))]


def test_pairs_fifteen_for_eight():
    # sheets 000/001: 5 then 5 "ten for a pair" 2; the third 5 "fifteen for eight"
    assert points_per_card("5H 5C 5S") == [0, 2, 8]
    # pair royal, double pair royal (sheet 002: queens; twos)
    assert points_per_card("QH QC QS") == [0, 2, 6]
    assert points_per_card("2H 2D 2C 2S") == [0, 2, 6, 12]
    # 10 and K do not pair
    assert points_per_card("10H KH") == [0, 0]


def test_run_in_any_order_sheet_000():
    # "ace, 2, 5, 4, 3: the player of the 3 counts a run of five ... a 6, a run of six"
    # (the 3 also makes the count fifteen: 5 + 2)
    assert points_per_card("AH 2C 5D 4S 3H 6C") == [0, 0, 0, 0, 5 + 2, 6]


def test_runs_sheet_004():
    # "4-2-3-5-6: the player of the 3 scores 3, of the 5 scores 4, of the 6 scores 5"
    assert points_per_card("4H 2C 3D 5S 6H") == [0, 0, 3, 4, 5]
    # "4-2-3-4-3: the first 3 scores 3, the second 4 scores 3 (2-3-4), the second 3 nothing"
    assert points_per_card("4H 2C 3D 4S 3H") == [0, 0, 3, 3, 0]


def test_duplicate_breaks_the_run_sheet_002():
    # "5-4-3-3: the 5-4-3 is a sequence of three, but the second 3 is not" (it pairs, and
    # makes fifteen)
    assert points_per_card("5H 4C 3D 3S") == [0, 0, 3, 2 + 2]


def test_worked_examples_sheet_004():
    # Example 1: A plays 9, B 6 (fifteen two), A 6 (pair), B 5 (26), A go, B 4 (run of three
    # 6-5-4 and, by the engine, one for last); then 10, 7, 10: one for last only.
    assert points_per_card("9C 6H 6S 5D 4C") == [0, 2, 2, 0, 3]
    assert count(parse_many("9C 6H 6S 5D 4C")) == 30
    assert points_per_card("10C 7H 10D") == [0, 0, 0]
    # Example 2: 8, 7 (fifteen two), 7 (pair), 6 (28, no run: 7 repeats); B one for last.
    assert points_per_card("8C 7H 7S 6D") == [0, 2, 2, 0]
    # a fresh series: A's 5 does not run with the 7 and 6 of the series before
    assert score_play(parse_many("5C")) == 0


def test_thirty_one_for_two():
    assert points_per_card("10H JC 5D 6S") == [0, 0, 0, 2]    # 25 -> 31: 31 for two
    assert points_per_card("10H 10C 5D 6S") == [0, 2, 0, 2]   # a pair on the way
    assert points_per_card("KH QH JH AS") == [0, 0, 3, 2]     # K-Q-J runs; the ace makes 31
    assert points_per_card("KH QH JH") == [0, 0, 3]


def test_fifteen_for_fifteen():
    # the most one card can peg: a double pair royal making fifteen (the engine adds one
    # for last): 7, then four 2s
    assert points_per_card("7H 2C 2D 2H 2S") == [0, 0, 2, 6, 12 + 2]


def test_ace_is_low():
    assert points_per_card("QH KC AD") == [0, 0, 0]
    assert points_per_card("AH 2C 3D") == [0, 0, 3]


def test_bad_piles_are_refused():
    assert score_play([]) == 0
    e = raises(ValueError, score_play, parse_many("10H 10C 10D 5S"))
    assert "31" in str(e)
    e = raises(ValueError, score_play, parse_many("5H 4C 5H"))
    assert "duplicate" in str(e)
    e = raises(ValueError, score_play, parse_many("JS 4C JS"))  # a high card twice
    assert "duplicate" in str(e)
    raises(ValueError, score_play, [1, 52])


def test_play_allocates_nothing():
    pile = parse_many("AH 2C 5D 4S 3H 6C")
    pair = bytearray(parse_many("7H 2C 2D 2H 2S"))

    def run():
        return score_play(pile) * 100 + score_play(pair)

    assert no_alloc(run) == 6 * 100 + 14


def test_against_reference_every_two_and_three_card_series_from_one_suit_each():
    # every series of up to three ranks (suits rotated): the fast scorer matches the plain one
    for a in range(13):
        for b in range(13):
            pile2 = [a * 4, b * 4 + 1]
            assert score_play(pile2) == reference.play(pile2)
            for c in range(13):
                pile3 = [a * 4, b * 4 + 1, c * 4 + 2]
                if count(pile3) <= 31:
                    assert score_play(pile3) == reference.play(pile3)


def test_what_a_card_made_read_through_the_scorer_and_said():
    """score.play_cards reads the cards back out of play_parts()'s bits (the newest card's
    rank at the end of the pile: 1, or 2-4; the run it ends: 0, or 3-7): the one reader of
    that layout besides play_points, and spoken.play_why says them through it."""
    from cribbage.score import play_parts, play_points, play_cards, PLAY_LAST, PLAY_GO
    from cribbage.spoken import play_why

    def made(text, extra=0):
        return play_parts(parse_many(text)) | extra

    assert play_cards(made("9H")) == (1, 0)
    assert play_cards(made("9H 9C")) == (2, 0)
    assert play_cards(made("9H 9C 9S")) == (3, 0)
    assert play_cards(made("2H 2D 2C 2S")) == (4, 0)
    assert play_cards(made("3C 5D 4H")) == (1, 3)  # a run in any order
    assert play_cards(made("AC 2D 3H 4S 5C 6D 7H")) == (1, 7)
    assert play_cards(made("5C 4D 3H 3S")) == (2, 0)  # a repeat breaks the run
    assert play_cards(made("9H 9C", PLAY_LAST | PLAY_GO)) == (2, 0)  # (the flags apart)
    # in words, with the points play_points counts (sheet 000: "fifteen for eight")
    assert play_why(made("7C 8D")) == "15 for 2"
    assert play_why(made("9H 9C")) == "pair 2"
    assert play_why(made("5H 5C 5S")) == "15 and pair royal, 8"
    assert play_why(made("2H 2D 2C 2S")) == "double pair royal 12"
    assert play_why(made("3C 5D 4H")) == "run of 3"
    assert play_why(made("10C JD 5H 6S")) == "31 for 2"
    assert play_why(made("9H 8C", PLAY_LAST)) == "last card 1"
    assert play_why(made("KH 10C 5D", PLAY_GO)) == "go 1"
    assert play_why(made("AC 2D 3H 4S 5C", PLAY_LAST)) == "15, run of 5 and last card, 8"
    assert play_points(made("AC 2D 3H 4S 5C", PLAY_LAST)) == 8
