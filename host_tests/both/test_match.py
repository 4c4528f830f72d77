"""The match engine against the rule sheets: the play with go and last card, heels, the show
order, pegging out in any phase, skunks, variants. test_match_show.py has the rest."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from check import raises  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from cribbage import match  # noqa: E402
from cribbage.match import Match  # noqa: E402
from matchkit import plays, two, unchanged  # noqa: E402


def test_sheet_004_example_1():
    # A (pone, seat 0): 10 10 9 6; B (dealer): 7 6 5 4. A 9, B 6 fifteen two, A 6 pair, B 5
    # (26); A go; B 4 run of three, and one for last; A 10, B 7, A 10 one for last.
    m = two()
    assert m.turn == 0 and m.pone() == 0
    assert plays(m, "9H 6H 6D 5D") == [0, 2, 2, 0]
    assert m.count == 26
    assert plays(m, "go") == [0] and m.turn == 1  # B plays on
    assert plays(m, "4D") == [3] and m.count == 30 and m.turn == 1
    assert plays(m, "go") == [1]  # B cannot play his 7 either: one for the go
    assert m.count == 0 and len(m.pile) == 0 and m.turn == 0  # A leads again
    assert plays(m, "10H 7D 10S") == [0, 0, 1]  # one for last
    assert m.score == [3, 6]
    assert m.phase == match.SHOW and m.turn == 0 and m.played[0] == m.played[1] == 4


def test_sheet_004_example_2():
    # A: 10 8 7 5; B: 7 6 5 4. A 8, B 7 fifteen two, A 7 pair, B 6 (28): nobody can play, B
    # one for last; A leads 5 again: no run with the 7 and 6 of the old series.
    m = two()
    assert plays(m, "8H 7D 7H 6D") == [0, 2, 2, 0]
    assert plays(m, "go go") == [0, 1]
    assert m.turn == 0 and m.count == 0
    assert plays(m, "5H") == [0]
    assert plays(m, "5D 10H 4D") == [2, 0, 1]
    assert m.score == [2, 6]


def test_thirty_one_for_two_never_with_last():
    m = two()
    # 10 10 | 5 6 : 10 + 10 + 5 + 6 = 31 on the 4th card, then a new series
    pts = plays(m, "10H 10D 5H 6D")
    assert pts == [0, 2, 0, 2] and m.count == 0 and m.turn == 0
    # the last card of the play making 31 scores 2, not 3
    assert plays(m, "KH KD 5C 6C") == [0, 2, 0, 2]
    assert m.phase == match.SHOW and m.score == [0, 8]


def test_last_card_making_fifteen_is_three():
    # sheet 002: "If the last card can be played makes 15, the player scores three points"
    m = two(starter="QS")
    assert plays(m, "10H 10D 5S 6D") == [0, 2, 0, 2]
    assert plays(m, "4S 6C 2H 3C") == [0, 0, 0, 3]
    assert m.score == [0, 7] and m.last_why == match.WHY_PLAY


def test_count_never_passes_31():
    m = two()
    plays(m, "10H 10D 5S")
    msg = unchanged(m, m.play, parse("7D"))
    assert "over 31" in msg and "32" in msg
    assert m.count == 25
    plays(m, "6D")  # 31 is fine
    assert m.count == 0


def test_go_and_play_refusals():
    m = Match()
    assert "deal first" in unchanged(m, m.play, parse("5H"))
    m.deal(0)
    assert "starter" in unchanged(m, m.play, parse("5H"))
    m.starter(parse("KC"))
    assert "count of 0" in unchanged(m, m.go)
    assert "starter" in unchanged(m, m.play, parse("KC"))
    plays(m, "5H")
    assert "already played" in unchanged(m, m.play, parse("5H"))
    unchanged(m, m.play, 52)
    unchanged(m, m.play, -1)
    unchanged(m, m.play, "5H")


def test_heels_before_the_dealer_plays():
    m = Match()
    m.deal(1)
    assert m.starter(parse("JD")) == 2
    assert m.score == [0, 2] and m.last_side == 1 and m.last_why == match.WHY_HEELS
    assert m.phase == match.PLAY and m.turn == 0
    # not entered, but it was a jack
    m = Match()
    m.deal(0)
    assert m.starter(jack=True) == 2 and m.score == [2, 0] and m.starter_card == -1
    m = Match()
    m.deal(0)
    assert m.starter() == 0 and m.score == [0, 0]
    m = Match()
    m.deal(0)
    assert "not a jack" in unchanged(m, m.starter, parse("QD"), True)
    # only once, only before the play
    m.starter(parse("JH"))
    assert "starter" in unchanged(m, m.starter, parse("JS"))


def peg_to(m, side, score):
    while m.score[side] < score:
        m.peg(side, min(15, score - m.score[side]))


def test_heels_can_win_the_game():
    m = Match()
    peg_to(m, 1, 119)
    m.deal(1)
    assert m.starter(parse("JC")) == 2
    assert m.phase == match.OVER and m.winner == 1 and m.score == [0, 121]
    assert m.result == match.DOUBLE_SKUNK and m.games == [0, 3]
    assert "over" in unchanged(m, m.play, parse("5H"))
    unchanged(m, m.peg, 0, 2)
    unchanged(m, m.deal)


def test_pegging_out_mid_play_ends_the_game_at_once():
    m = Match()
    peg_to(m, 0, 100)
    peg_to(m, 1, 119)
    m.deal(1)
    m.starter(parse("KC"))
    assert plays(m, "10H 5D") == [0, 2]
    assert m.phase == match.OVER and m.winner == 1 and m.score == [100, 121]
    assert m.back == [90, 119]
    assert m.result == match.WIN and m.games == [0, 1] and m.turn == -1
    unchanged(m, m.play, parse("5C"))
    unchanged(m, m.go)


def test_pegging_out_mid_show_ends_the_game_at_once():
    m = Match()
    peg_to(m, 0, 119)
    peg_to(m, 1, 80)
    m.deal(1)
    m.starter(parse("KC"))
    assert m.show(points=2) == 2  # pone shows first and pegs out: the dealer never counts
    assert m.phase == match.OVER and m.winner == 0 and m.result == match.SKUNK
    assert m.games == [2, 0]
    unchanged(m, m.show, None, 29)


def test_skunk_lines_and_lurch():
    for other, result, games in ((91, match.WIN, 1), (90, match.SKUNK, 2),
                                 (60, match.DOUBLE_SKUNK, 3), (61, match.SKUNK, 2)):
        m = Match()
        peg_to(m, 1, other)
        peg_to(m, 0, 121)
        assert m.result == result and m.games == [games, 0], (other, m.result)
    m = Match(target=61)
    peg_to(m, 1, 30)
    peg_to(m, 0, 61)
    assert m.result == match.LURCH and m.games == [2, 0]
    m = Match(target=61)
    peg_to(m, 1, 31)
    peg_to(m, 0, 61)
    assert m.result == match.WIN and m.games == [1, 0]
    m = Match(skunk_line=0, double_line=0)
    peg_to(m, 0, 121)
    assert m.result == match.WIN
    m = Match(skunk_line=100, skunk_games=4, double_line=50, double_games=5)
    peg_to(m, 1, 49)
    peg_to(m, 0, 130)  # pegs past the end: the score is kept, the game is won
    assert m.score[0] == 130
    assert m.result == match.DOUBLE_SKUNK and m.games == [5, 0]


def test_settings_are_checked():
    for kw in ({"players": 1}, {"players": 7}, {"target": 100}, {"skunk_line": 130},
               {"double_line": 95}, {"skunk_games": 0}, {"double_games": 10}):
        raises(ValueError, Match, **kw)
    for p, sides in ((2, 2), (3, 3), (4, 2), (5, 5), (6, 2)):
        m = Match(players=p)
        assert m.sides == sides and len(m.score) == sides and len(m.played) == p
    m = Match(players=6)  # sheet 002: two teams of three, alternate seats
    assert [m.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    m = Match(players=4)
    assert [m.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_three_players_go_and_last():
    m = Match(players=3)
    m.deal(2)
    m.starter(parse("KC"))
    assert m.turn == 0
    assert plays(m, "10H 10D 9S") == [0, 2, 0]
    assert plays(m, "go go") == [0, 0]
    assert m.turn == 2  # seats 0 and 1 said go: seat 2 plays on alone
    assert plays(m, "2C") == [2] and m.count == 0 and m.turn == 0  # 31 for two
    assert plays(m, "6H 6D 6S 6C") == [0, 2, 6, 12]
    assert plays(m, "go go") == [0, 0] and m.turn == 0  # at 24: an ace or less would fit
    # seat 0 plays his last card; nobody else can go on: one for the go, seat 1 leads
    assert plays(m, "AH") == [1] and m.count == 0 and m.turn == 1
    assert plays(m, "3H 4H") == [0, 0]
    assert m.turn == 1  # seats 0 and 2 have no cards
    assert plays(m, "8H") == [3]  # fifteen two and one for last
    assert m.score == [13, 7, 8] and m.phase == match.SHOW and m.turn == 0


def test_no_go_while_any_card_fits():
    # at 21 or less every card fits under 31, and the seat to play still holds one
    m = Match()
    m.deal(0)
    m.starter(parse("KC"))
    plays(m, "5H 10D 6C")
    before = m.dumps()
    e = raises(ValueError, m.go)
    assert str(e) == "no go on a count of 21: every card fits (go at 22 or more)"
    assert m.dumps() == before and m.turn == 0
    assert plays(m, "AS go") == [0, 0] and m.count == 22 and m.turn == 0  # 22: a go


def test_partners_peg_one_lane():
    m = Match(players=4)
    m.deal(3)
    m.starter(parse("KC"))
    assert plays(m, "5H 10H 10D 6C") == [0, 2, 2, 2]
    assert m.score == [2, 4] and m.turn == 0  # seat 3 made 31: seat 0 leads
    # a go goes round the table: seats 3 and 0 say go, seat 1 plays on, seat 2 says go, seat 1
    # cannot go on either: one for the go to seat 1's side, and seat 2 (left of him) leads
    m = Match(players=4)
    m.deal(3)
    m.starter(parse("KC"))
    assert plays(m, "KH QH 9S go go AC") == [0] * 6 and m.turn == 2
    assert plays(m, "go go") == [0, 1] and m.score == [0, 1] and m.count == 0 and m.turn == 2


def test_five_and_six_handed_sides_and_leads():
    m = Match(players=6)  # sheet 002: two teams, seats 0+2+4 and 1+3+5
    m.deal(5)
    m.starter(parse("KC"))
    assert plays(m, "10H 10D 10S AC") == [0, 2, 6, 2] and m.score == [6, 4]
    assert m.count == 0 and m.turn == 4  # seat 3 made 31: the seat left of him leads
    m = Match(players=5)  # every seat its own lane
    m.deal(4)
    m.starter(parse("KC"))
    assert plays(m, "5H 5D 5S 5C") == [0, 2, 8, 12] and m.score == [0, 2, 8, 12, 0]
    assert m.turn == 4


def test_show_order_then_crib_then_next_dealer():
    m = Match(players=3)
    m.deal(1)
    m.starter()
    # play not entered: pegs by hand, then the show
    m.peg(2, 3)
    assert m.phase == match.PLAY
    assert m.show(points=4) == 4 and m.phase == match.SHOW
    assert m.score == [0, 0, 7] and m.turn == 0
    assert m.show(points=0) == 0 and m.turn == 1 and not m.crib_next
    assert m.show(points=29) == 29 and m.turn == 1 and m.crib_next
    assert m.show(points=8) == 8 and m.last_why == match.WHY_CRIB
    assert m.phase == match.DEAL and m.turn == -1 and m.score == [0, 37, 7]
    assert m.next_dealer == 2
    m.deal()
    assert m.dealer == 2 and m.pone() == 0 and m.deals == 2


def test_refusals_read_as_written():
    # The messages live one a line in a string per module (events.say): the first, a middle
    # and the last line of each table, with their arguments, read exactly as meant.
    from cribbage.events import say

    assert say("a %d\nb\nc %s", 0, (7,)) == "a 7"
    assert say("a %d\nb\nc %s", 1) == "b"
    assert say("a %d\nb\nc %s", 2, ("x",)) == "c x"
    m = Match(players=2)
    assert unchanged(m, m.play, 5) == "no play now: deal first"  # pegging, by phase
    assert unchanged(m, m.go) == "no go now: not in the play"
    assert unchanged(m, m.cut, [17, 17]) == "5D is cut twice"  # events
    assert unchanged(m, m.peg, 0, 16) == "peg 1 to 15 points, not 16 (one card never makes more)"
    assert unchanged(m, m.peg, 5, 1) == "no side 5: sides are 0 to 1"  # match, last line
    e = raises(ValueError, Match, players=7)  # match, first line
    assert str(e) == "players must be 2 to 6, not 7"
    m.deal(0)
    assert unchanged(m, m.play, 5) == "no play now: turn the starter first"
    m.starter(parse("KC"))
    assert unchanged(m, m.play, parse("KC")) == "KC is the starter"
    m = two(muggins=True)
    assert unchanged(m, m.muggins, 1) == "no overlooked points to take: muggins right after " \
                                         "a short count"
    assert str(raises(ValueError, match.loads, b"")) == "saved game truncated: 0 bytes"
    bad = bytearray(Match().dumps())
    bad[0] = 9
    assert str(raises(ValueError, match.loads, bytes(bad))) == \
        "saved game version 9, this board reads 2"
