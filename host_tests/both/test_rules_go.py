"""Rule sheet 000's failure to play after a go, in the engine: "If after 'Go' is called a player
fails to play his additional cards, he may not subsequently play those cards and his opponent
scores two points." The engine proves a false go as soon as the card that would have fitted is
played (false_go()); penalty(side, FALSE_GO) takes that card back and makes it dead with every
card of his that fitted at his go ("those cards"; the rest he plays later as they fit);
penalty(side, FAIL_TO_PLAY, seat) does it for a failure the players saw (their word is taken).
Dead cards are out of the play (he says go at any count once only they are left) and count in
the show. A game saved by earlier firmware kills all his cards left, as it was played."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from matchkit import C, plays, two, unchanged, old_rules, journal  # noqa: E402

# Seat 0 (pone, A): 10H 9H 3C KS; seat 1 (dealer, B): 8D 6D 10D 7S; starter KC.
# A 10H, B 8D, A 9H (27: a run of three, 3 to A); B says go (6D, 10D, 7S are all over 31);
# A says go too though his 3C fitted (30): the engine cannot know, A pegs one for the go.
FALSE = "10H 8D 9H go go"


def test_a_false_go_is_proved_by_the_card_that_fitted():
    m = two()
    assert plays(m, FALSE) == [0, 0, 3, 0, 1] and m.score == [4, 0]
    assert m.false_go() == -1  # a go at 27 is allowed: nothing is proved yet
    assert plays(m, "6D") == [0] and m.false_go() == -1  # B leads the next series
    assert plays(m, "3C") == [0] and m.count == 9
    assert m.false_go() == 0  # the 3C fitted at A's go at 27: 30
    # a refused entry changes nothing, the proof included
    unchanged(m, m.play, parse("3C"))
    assert m.false_go() == 0


def test_the_false_go_penalty_kills_the_cards_that_fitted_two_to_the_opponent():
    """Issue 22: "those cards" are the ones that fitted when he said go. A said go at 27
    holding 3C (30) and KS (37): the 3C is dead, the KS is not and is played when it fits."""
    m = two()
    plays(m, FALSE + " 6D 3C")
    proved = m.state()
    assert m.penalty(1, match.FALSE_GO) == 2
    # the 3C is taken back: the count is B's 6D alone, A's 3C is dead, B's two
    assert m.score == [4, 2] and m.last_why == match.WHY_PENALTY and m.last_side == 1
    assert m.count == 6 and list(m.pile) == C("6D") and m.played[0] == 2
    assert m.dead() == 1 and m.false_go() == -1
    assert m.turn == 0  # A still plays: his KS did not fit at 27
    assert "3C is dead: it fitted at 27" in unchanged(m, m.play, parse("3C"))
    assert plays(m, "KS 10D") == [0, 0] and m.count == 26 and m.turn == 0
    # A: only his dead 3C left: a go (at 26 as at any count); B's 7S makes 33: B's go, 1
    assert plays(m, "go go") == [0, 1] and m.turn == 0 and m.count == 0
    assert plays(m, "go") == [0] and m.turn == 1  # at 0 too: his cards left are dead
    assert plays(m, "7S") == [1] and m.score == [4, 4]  # B's 7S: one for last
    assert m.phase == match.SHOW and m.turn == 0
    # the dead cards count in the show: A's hand is his four cards, the 3C with them
    assert "must hold" in unchanged(m, m.show, C("3C KS 2D 4D"))
    assert m.show(C("10H 9H 3C KS")) == 2 and m.score == [6, 4]  # KS KC pair
    # journalled: the card stays in the journal, the penalty after it; saved; undone
    j = journal(m)
    assert j[-9] == bytes((parse("3C"),)) and j[-8] == bytes((match.E_DEAD | 8 | 1, 0))
    assert loads(m.dumps()).state() == m.state()
    for _ in range(8):
        m.undo()
    assert m.state() == proved and m.false_go() == 0  # undo brings the card back, proved
    assert m.redo() and m.score == [4, 2] and m.dead() == 1


def test_a_false_go_declined_is_forgotten():
    m = two()
    assert "no false go" in unchanged(m, m.penalty, 1, match.FALSE_GO)
    plays(m, FALSE + " 6D 3C")
    assert "own side" in unchanged(m, m.penalty, 0, match.FALSE_GO)
    plays(m, "10D")  # B plays on: the players let it go
    assert m.false_go() == -1
    assert "no false go" in unchanged(m, m.penalty, 1, match.FALSE_GO)


def test_a_card_that_did_not_fit_at_the_go_proves_nothing():
    m = two()
    # A holds 5C instead of the 3C: at 27 it would make 32, the go was true
    plays(m, FALSE + " 6D")
    assert plays(m, "5C") == [0] and m.false_go() == -1


def test_any_earlier_go_of_the_deal_proves_it():
    # A: KH QH 5C 9C; B: 2D JD 10D KD. A says go at 22 holding 9C (31: a false go), later a
    # true go at 25 (9C: 34); when he plays the 9C, the go at 22 proves the false go.
    m = two()
    assert plays(m, "KH 2D QH go go") == [0, 0, 0, 0, 1]  # 22: B's go true, A's false
    assert plays(m, "JD 5C 10D go go") == [0, 2, 0, 0, 1]  # 25: both true
    assert m.turn == 0 and m.false_go() == -1
    assert plays(m, "9C") == [0] and m.false_go() == 0


def test_failure_to_play_after_a_go_two_players_offender_implied():
    # B said go at 27; A failed to play his 3C and said go; B leads 6D; B claims the penalty:
    # A's 3C is dead (it fitted at 27), his KS (37) is not: A plays it
    m = two()
    plays(m, FALSE + " 6D")
    assert m.turn == 0
    assert m.penalty(1, match.FAIL_TO_PLAY) == 2  # two players: A is the offender
    assert journal(m)[-1] == bytes((match.E_DEAD | 1, 0))
    assert m.dead() == 1 and m.turn == 0 and m.score == [4, 2]
    assert "cards are dead" in unchanged(m, m.penalty, 1, match.FAIL_TO_PLAY)
    assert "is dead" in unchanged(m, m.play, parse("3C"))
    assert plays(m, "KS 10D go go go 7S") == [0, 0, 0, 1, 0, 1]
    assert m.phase == match.SHOW and m.score == [4, 4]


def test_dead_cards_end_the_series_when_nobody_else_can_play():
    # B said go at 27; A, to play on, holds 3C but says go: B takes the penalty instead of the
    # go being entered. A said no go: his cards that fit at 27 now are dead (the 3C), the KS
    # does not fit: he cannot go on. B has said go: nobody can play on, A pegs the go for his
    # 9H, the count resets and B leads; A plays his KS in the next series.
    m = two()
    plays(m, "10H 8D 9H go")
    assert m.turn == 0
    assert m.penalty(1, match.FAIL_TO_PLAY) == 2
    assert m.score == [4, 2] and m.count == 0 and m.turn == 1 and m.last_why == match.WHY_PENALTY
    assert plays(m, "6D KS 10D go go go 7S") == [0, 0, 0, 0, 1, 0, 1]
    assert m.phase == match.SHOW


def test_dead_cards_end_the_play():
    # A: 10H 5C 3C KS; B: 10D 3D 2D AD. A goes at 28 (holding 3C: a failure); B plays out to
    # 31. A would lead, but B claims the penalty: A's 3C is dead, his KS not: he leads it,
    # then says go with only the dead card left: the play is over, the KS the last card.
    m = two()
    assert plays(m, "10H 10D 5C 3D go 2D AD") == [0, 2, 0, 0, 0, 0, 5]
    assert m.turn == 0 and m.count == 0 and m.played[1] == 4
    assert m.penalty(1, match.FAIL_TO_PLAY) == 2
    assert m.phase == match.PLAY and m.turn == 0 and m.score == [0, 9]
    assert plays(m, "KS go") == [0, 1] and m.phase == match.SHOW and m.score == [1, 9]
    assert m.show(C("10H 5C 3C KS")) == 8  # three 15s, KS KC: the dead cards count


def test_dead_cards_that_end_the_play_give_the_last_card_its_point():
    # A: 10H 5C 3H KS; B: 8D AD 2D 10D. A says go at 24 holding the 3H (27): a failure. B's
    # 10D is his last card; A is to play at 19 when B claims it: the 3H is dead, and the KS
    # (it did not fit at 24) is dead too in a game saved by earlier firmware, which kills
    # every card left: the play is over, B's 10D was the last card ("one for the last"),
    # then B's two. By the sheet the KS is not dead: A plays it (29), the last card.
    old = old_rules(Match(players=2))
    old.deal(1)
    old.starter(parse("KC"))
    for m in (old, two()):
        assert plays(m, "10H 8D 5C AD go 2D go") == [0, 0, 0, 0, 0, 0, 1]
        assert plays(m, "3H 10D") == [0, 0] and m.turn == 0 and m.count == 13
        assert m.penalty(1, match.FAIL_TO_PLAY) == 2
        if m is old:
            assert m.phase == match.SHOW and m.score == [0, 4]
            assert m.last_why == match.WHY_PENALTY
        else:
            assert plays(m, "KS") == [1] and m.phase == match.SHOW and m.score == [1, 3]
        assert loads(m.dumps()).state() == m.state()


def test_outside_the_play_a_failure_to_play_is_two_points():
    m = two()
    m.show(points=0)  # the play was not entered
    assert m.penalty(1, match.FAIL_TO_PLAY) == 2 and m.dead() == 0
    assert journal(m)[-1] == bytes((match.E_PENALTY | match.FAIL_TO_PLAY << 3 | 1,))


def test_three_players_name_the_offender_and_who_gets_the_two():
    # seats 0, 1, 2; dealer 2. Seat 0 says go at 25 holding a 4; seat 0 leads it later.
    m = Match(players=3)
    m.deal(2)
    m.starter(parse("KC"))
    assert plays(m, "10H 10D 5S go go") == [0, 2, 0, 0, 0]  # 25: seats 0 and 1 say go
    assert m.turn == 2
    assert plays(m, "go") == [1] and m.turn == 0  # seat 2 cannot either: one for the go
    assert plays(m, "4H") == [0] and m.false_go() == 0  # 29 at the go's 25
    assert "own side" in unchanged(m, m.penalty, 0, match.FALSE_GO)
    assert m.penalty(2, match.FALSE_GO) == 2 and m.score == [0, 2, 3]
    assert m.dead() == 1 and m.turn == 0 and m.count == 0  # (cards over 6 he still leads)
    # a failure the players saw: the seat must be named with three sides
    assert "seat 5 cannot" in unchanged(m, m.penalty, 1, match.FAIL_TO_PLAY, 5)
    plays(m, "KH 6H")
    assert m.penalty(1, match.FAIL_TO_PLAY, 2) == 2 and m.dead() == 5 and m.turn == 2
    assert m.score == [0, 4, 3]


def test_six_handed_teams_false_go():
    # sheet 002: two teams; seat 3's false go gives the two to the other team (seats 0, 2, 4)
    m = Match(players=6)
    m.deal(5)
    m.starter(parse("KC"))
    assert plays(m, "10H 10D 3S go go go go go go") == [0, 2, 0, 0, 0, 0, 0, 0, 1]
    # 23: seats 3, 4, 5, 0, 1, 2 say go; seat 2's 3S was the last card: one for the go
    assert m.score == [1, 2] and m.turn == 3
    assert plays(m, "8H") == [0] and m.false_go() == 3  # 8 fitted at seat 3's go at 23
    assert m.penalty(0, match.FALSE_GO) == 2 and m.score == [3, 2] and m.dead() == 8
    assert m.turn == 3 and loads(m.dumps()).state() == m.state()  # (his 9s and 10s play)
    assert "8H is dead" in unchanged(m, m.play, parse("8H"))


def issue_deal(a_score=0):
    """Issue 22's deal: seat 1 deals, starter KC; A (seat 0) holds KH 8S 5C QS, B 8D 9D 7D
    10D. KH, 8D, 8S (26, a pair: 2 to A), B says go, A says go though his 5C fitted (31): 1
    to A; B leads 10D and A plays the 5C (15: 2 to A), proving the false go."""
    m = Match(players=2)
    while a_score:
        m.peg(0, min(a_score, 15))  # (A's points so far)
        a_score -= min(a_score, 15)
    m.deal(1)
    m.starter(parse("KC"))
    return m


def test_a_dead_card_wins_nothing_the_false_go_is_still_called():
    """Sheet 000: he "may not subsequently play those cards and his opponent scores two
    points". A on 116: the 5C's 15 takes him to 121, but that card proves his false go: the
    engine still takes the penalty, and with it the card and its win."""
    m = issue_deal(116)
    assert plays(m, "KH 8D 8S go go 10D") == [0, 0, 2, 0, 1, 0] and m.score == [119, 0]
    before = m.state()
    assert m.play(parse("5C")) == 2
    assert m.phase == match.OVER and m.winner == 0 and m.games == [3, 0]  # (for now)
    assert m.false_go() == 0  # ... the win waits: the players may still call the false go
    won = m.state()
    assert "own side" in unchanged(m, m.penalty, 0, match.FALSE_GO)
    assert m.penalty(1, match.FALSE_GO) == 2
    assert m.phase == match.PLAY and m.winner == -1 and m.games == [0, 0]
    assert m.score == [119, 2] and m.count == 10 and m.false_go() == -1
    assert loads(m.dumps()).state() == m.state()
    # the 5C is dead (it fitted at 26), the QS not: A plays it, then goes with the 5C alone
    assert "5C is dead" in unchanged(m, m.play, parse("5C"))
    assert plays(m, "QS 9D go go go 7D") == [0, 0, 0, 1, 0, 1]
    assert m.phase == match.SHOW and m.score == [119, 4]
    for _ in range(6):
        m.undo()
    assert m.undo() and m.state() == won and m.false_go() == 0  # undo: the win again
    assert m.undo() and m.state() == before
    assert m.redo() and m.redo() and m.score == [119, 2]


def test_a_win_by_a_proving_card_stands_once_let_go():
    m = issue_deal(116)
    plays(m, "KH 8D 8S go go 10D 5C")
    assert m.phase == match.OVER and m.false_go() == 0
    m.next_game()  # the players let it go: the win stands
    assert m.games == [3, 0] and m.false_go() == -1
    m.undo()  # the finished game's end, shown: no penalty to take there
    assert m.phase == match.OVER and m.false_go() == -1
    assert "game is over" in unchanged(m, m.penalty, 1, match.FALSE_GO)


def test_a_card_that_wins_without_proving_a_false_go_ends_the_game():
    m = issue_deal(117)
    plays(m, "KH 8D 8S go")  # (A on 119)
    assert m.false_go() == -1 and m.play(parse("5C")) == 2  # 31 at once: no go was false
    assert m.phase == match.OVER and m.false_go() == -1
    assert "game is over" in unchanged(m, m.penalty, 1, match.FALSE_GO)


# A save of the firmware before issue 22 (every card of the offender dead): the deal of FALSE,
# B leads 6D, A's 3C proves the false go, B takes the penalty, B plays 10D (16).
OLD_DEAD = "020279005b023d030d000d0000ff00000000516030261d2240401508d90025ba8eef80"


def test_a_save_of_earlier_firmware_replays_its_dead_cards_as_they_were_played():
    from binascii import unhexlify

    m = loads(unhexlify(OLD_DEAD))
    assert m.settings()[2] & 64 == 0 and m.dumps() == unhexlify(OLD_DEAD)  # saved the same
    assert m.score == [4, 2] and m.dead() == 1 and m.count == 16
    assert m.turn == 1  # A's KS is dead with the rest, as it was: B plays on alone
    assert plays(m, "7S") == [1] and m.phase == match.SHOW and m.score == [4, 3]
    new = two()
    assert new.settings()[2] & 64  # a new game says its dead cards are only those that fitted
    plays(new, FALSE + " 6D 3C")
    new.penalty(1, match.FALSE_GO)
    assert new.turn == 0 and new.count == 6  # A plays on: his KS is not dead


# --- issue 35 item 18: a second false go by the same seat in one deal ------------------------
# Sheet 000 sets no limit ("If after 'Go' is called a player fails to play his additional
# cards, he may not subsequently play those cards and his opponent scores two points"): every
# false go is its own penalty, and the cards that fitted at the second go die too.
# Three players, seat 2 deals, starter KC. Seat 0: 10S QS KS JS; seat 1: 8H 3C 6C 5C; seat 2:
# 9D 7D AD KD. Seat 1 says go at 27 holding the 3C (30), proved when he plays it (penalty one:
# the 3C dead, cards of 4 or less); at 23 he says go holding the 5C, live (28): a second.
SECOND = "10S 8H 9D go go go QS 3C"


def second_go():
    m = Match(players=3)
    m.deal(2)
    m.starter(parse("KC"))
    assert plays(m, SECOND) == [0, 0, 3, 0, 0, 1, 0, 0] and m.false_go() == 1
    assert m.penalty(0, match.FALSE_GO) == 2 and m.score == [2, 0, 4] and m.dead() == 2
    assert m.turn == 1 and m.count == 10  # (his 6C and 5C did not fit at 27: he plays on)
    assert plays(m, "6C 7D go go AD go") == [0, 0, 0, 0, 0, 1]  # seat 1's go at 23: 5C fits
    assert m.score == [2, 0, 5] and m.turn == 0 and m.count == 0
    return m


def test_a_second_false_go_by_the_same_seat_is_proved_and_paid_again():
    m = second_go()
    assert plays(m, "KS 5C") == [0, 2] and m.false_go() == 1  # 5C fitted at his go at 23
    assert "own side" in unchanged(m, m.penalty, 1, match.FALSE_GO)
    assert m.penalty(2, match.FALSE_GO) == 2 and m.score == [2, 0, 7]  # the 15 taken back
    assert m.dead() == 2 and m.turn == 1 and m.count == 10 and m.false_go() == -1
    assert "5C is dead: it fitted at 23" in unchanged(m, m.play, parse("5C"))
    assert "3C is dead" in unchanged(m, m.play, parse("3C"))
    assert loads(m.dumps()).state() == m.state()
    # only dead cards left: his go at 10 takes him out; the others play out the deal
    assert plays(m, "go KD JS") == [0, 2, 1] and m.phase == match.SHOW
    assert m.score == [3, 0, 9]
    m.show(points=0)  # (seat 0, the pone, first)
    assert m.show(C("8H 6C 3C 5C")) == 2  # the dead cards count in the show (5C KC: 15)


def test_a_second_failure_to_play_by_a_dead_seat_is_paid_too():
    m = second_go()  # seat 1 said go at 23 holding the 5C: the players saw it
    assert m.penalty(2, match.FAIL_TO_PLAY, 1) == 2 and m.score == [2, 0, 7]
    assert plays(m, "KS") == [0] and m.turn == 1
    assert "5C is dead: it fitted at 23" in unchanged(m, m.play, parse("5C"))
    assert "cards are dead" in unchanged(m, m.penalty, 0, match.FAIL_TO_PLAY, 1)  # no go since
    assert loads(m.dumps()).state() == m.state()


# --- issue 35 item 19: the false go's two and the last card's point together ----------------
# A (seat 0): 10H 9H KS 3C; B (seat 1, the dealer): 5D 4D 2D AD; starter KC. A says go at 28
# holding the 3C (31); B plays out to 31. A leads KS, then his last card, the 3C (13, one for
# last), proving the false go. The 3C taken back and dead, A has no card left: the KS was the
# last card. Its point is pegged first, then B's two (rules.md: the play as it would have
# been without the dead card, then the penalty called on the card; the first to 121 wins).
LAST = "10H 5D 9H 4D go 2D AD KS 3C"
DEAD_LAST = 16  # E_DEAD's seat byte | 16: the card taken back was his last (events.py)


def last_card(a, b):
    m = Match(players=2)
    for side, pts in ((0, a), (1, b)):
        while pts:
            m.peg(side, min(pts, 15))
            pts -= min(pts, 15)
    m.deal(1)
    m.starter(parse("KC"))
    assert plays(m, LAST) == [0, 2, 0, 0, 0, 0, 2, 0, 1] and m.false_go() == 0
    return m


def test_the_last_cards_point_before_the_false_gos_two_wins_the_game():
    m = last_card(120, 115)  # A on 120 after the KS, B on 119
    assert m.phase == match.OVER and m.winner == 0  # (the 3C's point: for now)
    m.penalty(1, match.FALSE_GO)  # the KS's one for last: A out, no two
    assert m.phase == match.OVER and m.winner == 0 and m.score == [121, 119]
    assert m.last_why == match.WHY_GO and m.last_side == 0 and m.dead() == 1
    assert loads(m.dumps()).state() == m.state()


def test_the_false_gos_two_wins_when_the_last_cards_point_does_not():
    m = last_card(119, 115)  # A on 119, B on 119
    assert m.penalty(1, match.FALSE_GO) == 2
    assert m.phase == match.OVER and m.winner == 1 and m.score == [120, 121]
    assert m.back == [119, 119] and m.last_why == match.WHY_PENALTY
    assert loads(m.dumps()).state() == m.state()


def test_the_false_gos_card_that_was_his_last_ends_the_play_without_his_go():
    m = last_card(0, 0)
    assert m.penalty(1, match.FALSE_GO) == 2 and m.score == [1, 6]  # A's 1 for last, B's 2
    assert m.phase == match.SHOW and m.turn == 0  # no go asked of A: the board knows
    assert journal(m)[-1] == bytes((match.E_DEAD | 8 | 1, 0 | DEAD_LAST))
    m.undo()
    assert m.false_go() == 0 and m.phase == match.SHOW  # (the 3C again, proving it)


def test_a_save_of_earlier_firmware_keeps_its_order_the_two_then_the_go():
    # earlier firmware journalled the same penalty without DEAD_LAST: A still to play, the two
    # first (B out at 121 here), as it was played
    m = last_card(120, 115)
    m.enter(bytes((match.E_DEAD | 8 | 1, 0)), 0, 2)  # (the event as earlier firmware put it)
    assert m.phase == match.OVER and m.winner == 1 and m.score == [120, 121]
    assert loads(m.dumps()).state() == m.state()
    m = last_card(0, 0)
    m.enter(bytes((match.E_DEAD | 8 | 1, 0)), 0, 2)
    assert m.phase == match.PLAY and m.turn == 0 and m.score == [0, 6]
    assert plays(m, "go") == [1] and m.phase == match.SHOW and m.score == [1, 6]
    assert loads(m.dumps()).state() == m.state()
    assert "cannot pay" in unchanged(m, m.enter, bytes((match.E_DEAD | 1, 0 | DEAD_LAST)),
                                     0, 2)
