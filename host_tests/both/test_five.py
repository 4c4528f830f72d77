"""Five-card cribbage (issue 22.18) in the engine, rule by rule from the published source:
Hoyle's Games, "Mode of playing five-card cribbage" (pp. 249-252), with the Encyclopaedia
Britannica (9th ed., vol. 6, p. 576) and Enquire Within Upon Everything (sec. 81-83).

Two players, five cards each, two each to the crib, 61 holes; the pone of the first deal
takes three for last; one series of play ("such cards as remain after this are not to be
played"); a hand is three cards and the starter (a flush: 3, 4 with the starter); the crib
four and the starter (a flush only with the starter: 5); his heels 2, his nobs 1."""

import gc

from cribbage.score import score_hand, hand  # (first: the scorer's 6 KB table)
gc.collect()
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from check import raises, no_alloc  # noqa: E402
from matchkit import C, plays, unchanged  # noqa: E402


def five(dealer=1, starter="KC"):
    """A five-card game dealt by seat `dealer`, starter turned."""
    m = Match(players=2, target=61, cards=5)
    m.deal(dealer)
    if starter:
        m.starter(parse(starter))
    return m


def three(text):
    """'5H 5C 5S + JD' -> the three-card hand's points with that starter."""
    h, s = text.split("+")
    return hand(C(h), parse(s))


# --- the show: three cards and the starter --------------------------------------------------

def test_a_three_card_hand_counts_fifteens_pairs_runs_as_any_hand():
    assert three("5H 5C 5S + 5D") == 20  # four fifteens (8) and a double pair royal (12)
    assert three("5H 5C JS + 5D") == 14  # J5 three times, 555: 8; pair royal 6
    assert three("6C 7D 8H + 8S") == 12  # two runs of three, two fifteens, a pair
    assert three("9C 10D JH + QS") == 4  # a run of four
    assert three("AC 2D 9H + KS") == 0
    assert three("4C 4D 6H + 5S") == 4 + 2 + 6  # 4-5-6 twice: two fifteens, two runs; a pair


def test_a_three_card_flush_is_three_and_four_with_the_starter():
    # Hoyle: "three cards of the same suit in hand ... that number as a flush, and also one
    # more when the turn-up card happens to be of the same suit"
    assert three("2H 4H 8H + KS") == 3
    assert three("2H 4H 8H + KH") == 4
    assert three("2H 4H 8S + KH") == 0  # two hand cards and the starter: none


def test_his_nobs_in_a_three_card_hand():
    assert three("JD 2C 4H + 8D") == 1
    assert three("JD 2C 4H + 8C") == 0


def test_the_crib_flush_counts_only_with_the_starter():
    # Hoyle: "among professed gamesters it is not customary to allow flushes in crib, unless
    # all the cards, including that turned up, are of the same suit" (Enquire Within: "For a
    # flush in the crib, the turned-up card must be of the same suit")
    crib = C("2H 4H 9H QH")
    assert score_hand(crib, parse("KS"), True) == 2  # (2+4+9: fifteen two)
    assert score_hand(crib, parse("KH"), True) == 2 + 5


def test_a_three_card_hand_is_refused_when_it_is_not_one():
    assert "4 cards, not 2" in str(raises(ValueError, hand, C("2H 4H"), parse("KS")))
    assert "duplicate" in str(raises(ValueError, hand, C("2H 4H 2H"), parse("KS")))
    assert "duplicate" in str(raises(ValueError, hand, C("2H 4H 5C"), parse("5C")))
    assert "not a card" in str(raises(ValueError, hand, [1, 2, 52], 5))
    # three cards as a crib are not one: a crib is four (score_hand says so)
    assert "4 cards, not 3" in str(raises(ValueError, hand, C("2H 4H 9C"), parse("KS"), True))
    # four cards: score_hand's count, the crib's too
    assert hand(C("5H 5C 5S JD"), parse("5D")) == 29 == score_hand(C("5H 5C 5S JD"), parse("5D"))
    assert hand(C("2H 4H 9H QH"), parse("KS"), True) == 2


def test_scoring_a_three_card_hand_allocates_nothing():
    h = C("5H 5C JS")
    s = parse("5S")
    assert hand(h, s) == 15  # (the first three-card hand loads its count: score5.py)
    assert no_alloc(lambda: hand(h, s)) == 15


# --- the game -------------------------------------------------------------------------------

def test_five_card_cribbage_is_a_two_player_game_to_61():
    assert "2 players to 61" in str(raises(ValueError, Match, players=3, target=61, cards=5))
    assert "the cards are 6, or 5" in str(raises(ValueError, Match, players=2, target=61, cards=4))
    assert "2 players to 61" in str(raises(ValueError, Match, players=2, target=121,
                                           cards=5))
    assert Match(players=2, target=61, cards=5).cards() == 5
    assert Match(players=2, target=61).cards() == 6


def test_the_pone_takes_three_for_last_at_the_first_deal_only():
    # Hoyle: "The non-dealer at the commencement of the game in five-card cribbage scores 3
    # points, called taking three for last"
    m = Match(players=2, target=61, cards=5)
    assert m.deal(1) == 3 and m.score == [3, 0]
    assert m.last_why == 9 and m.last_side == 0  # (events: three for last)
    m.undo()
    assert m.score == [0, 0]
    assert m.deal(0) == 3 and m.score == [0, 3]  # the other dealer: the other pone
    m.starter(parse("2C"))
    m.show(points=0)
    m.show(points=0)
    m.show(points=0)
    assert m.deal() == 0 and m.score == [0, 3]  # the second deal: nothing


def test_six_card_cribbage_takes_no_three_for_last():
    m = Match(players=2, target=61)
    assert m.deal(1) == 0 and m.score == [0, 0]


def test_his_heels_two_to_the_dealer():
    m = five(dealer=1, starter=None)
    assert m.starter(parse("JS")) == 2 and m.score == [3, 2]


def test_the_play_ends_at_the_first_go_the_cards_left_are_not_played():
    # Britannica: "At the two-handed five-card game, when neither can come in the play is at
    # an end"; Hoyle: "Such cards as remain after this, are not to be played"
    m = five()  # pone seat 0 holds 10H 9H 3C; dealer seat 1 holds KD QD 5S
    assert plays(m, "10H KD 9H") == [0, 0, 0] and m.count == 29 and m.turn == 1
    assert plays(m, "go") == [0] and m.turn == 0  # dealer: QD, 5S do not come in
    assert plays(m, "go") == [1]  # pone cannot either (3C makes 32): one for the go, 29
    assert m.phase == match.SHOW and m.score == [4, 0] and m.turn == 0
    # the show: three cards each, the unplayed ones too
    assert m.show(C("10H 9H 3C")) == 0 and m.score == [4, 0]
    assert m.show(C("KD QD 5S")) == 2 + 6 and m.score == [4, 8]  # KD-KC, three 15s
    assert m.crib_next


def test_the_go_point_goes_to_the_player_who_plays_on_then_the_play_ends():
    # Hoyle: "he then says, Go, to his antagonist, who thereupon is entitled to score 1, and
    # must play any card or cards he has that will come in; and if he can make exactly 31,
    # then he is to take 2 points"
    m = five()
    assert plays(m, "10H KD 8H go") == [0, 0, 0, 0] and m.turn == 0 and m.count == 28
    assert plays(m, "2C") == [1] and m.phase == match.SHOW  # 30: one for the go
    assert m.score == [4, 0]
    m = five()
    assert plays(m, "10H KD 8H go") == [0, 0, 0, 0]
    assert plays(m, "3C") == [2] and m.phase == match.SHOW  # exactly 31: two, not three
    assert m.score == [5, 0]


def test_thirty_one_ends_the_play():
    m = five()
    assert plays(m, "10H KD AC") == [0, 0, 0] and m.count == 21
    assert plays(m, "QD") == [2] and m.count == 0 and m.phase == match.SHOW  # 31 for two
    assert m.score == [3, 2]  # seat 0: his three for last; the third cards were not played
    assert "no play now" in unchanged(m, m.play, parse("2C"))


def test_all_six_cards_under_31_the_last_card_scores_one():
    m = five()
    assert plays(m, "AC AD 2C 3C 2D") == [0, 2, 0, 3, 0] and m.count == 9
    assert plays(m, "QS") == [1] and m.phase == match.SHOW  # 19: one for the last card
    assert m.score == [3 + 0, 2 + 3 + 1]


def test_a_hand_is_shown_as_three_cards_and_the_crib_as_four():
    m = five(starter="KC")
    m.show(points=0)
    assert "3 cards" in unchanged(m, m.show, C("AC 2C 3C 4C"))
    assert m.show(C("AD 2D 9H")) == 0
    assert "4 cards" in unchanged(m, m.show, C("3S 4S 9S"))
    assert m.show(C("3S 4S 8S 10S")) == 2  # 3+4+8; four spades but the starter a club


def test_points_a_three_card_hand_cannot_make_are_refused():
    m = five()
    m.show(points=0)  # the play's cards not entered: the pone's hand by its points
    for p in (16, 17, 18, 19, 21, 29):
        assert "no hand or crib counts %d" % p in unchanged(m, m.show, None, p)
    assert m.show(points=20) == 20  # the dealer's
    assert "no hand or crib counts 19" in unchanged(m, m.show, None, 19)  # the crib as ever
    assert m.show(points=29) == 29 and m.score == [3, 49]


def test_the_pone_shows_first_and_may_win_before_the_dealer_counts():
    # Cassell's: "the first show is very important at the end of the game, as a player may
    # just get sixty-one points and win"
    m = five()
    m.peg(0, 15)
    m.peg(0, 15)
    m.peg(0, 15)
    m.peg(1, 15)
    m.show(points=13)
    assert m.score == [61, 15] and m.phase == match.OVER and m.winner == 0
    assert m.result == match.LURCH  # the loser under 31: a lurch, two games
    assert m.games == [2, 0]


def test_a_five_card_game_is_saved_and_loads_as_five_card():
    m = five()
    plays(m, "10H KD 9H go go")
    m.show(C("10H 9H 3C"))
    b = m.dumps()
    assert b[3] & 128  # the settings' flags byte: five-card
    n = loads(b)
    assert n.cards() == 5 and n.state() == m.state() and n.score == [4, 0]
    six = Match(players=2, target=61)
    assert not six.dumps()[3] & 128 and loads(six.dumps()).cards() == 6


# --- the advisor: two of five to the crib ------------------------------------------------------

def test_the_advisor_throws_two_of_five_and_allocates_nothing():
    from cribbage import advise5

    dealt = C("5H KD 5C QS 5S")
    assert advise5.rank(dealt, False) == 10  # (compiled, buffers made)
    assert no_alloc(lambda: advise5.rank(dealt, False)) == 10
    best = advise5.best_discards(dealt, False, 3)
    assert best[0][1] == (1, 3)  # keep the three fives, the king and queen to his crib
    assert best[0][0] > best[1][0]
    assert "5 cards" in str(raises(ValueError, advise5.rank, C("5H KD 5C QS"), True))
