"""Rule sheet 002's six-handed game as two teams of three, and the calls the board never makes
out of phase, refused with nothing changed (issue 10)."""

import gc
import binascii

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from dealer.deal import dealt  # noqa: E402
from matchkit import C, plays, two, unchanged  # noqa: E402


def test_six_handed_is_two_teams_of_alternate_seats_sheet_002():
    # "Six handed cribbage is played with three partners. Each alternate player is a
    # partner. Just two people can peg."
    m = Match(players=6)
    assert m.sides == 2 and len(m.score) == 2 and len(m.games) == 2
    assert [m.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    m.deal(5)
    assert m.starter(parse("JC")) == 2 and m.score == [0, 2]  # heels: the dealer's team
    # 5 5 5 5 round the table: seat 1 pair 2, seat 2 fifteen and pair royal 8, seat 3 twelve
    assert plays(m, "5H 5D 5S 5C") == [0, 2, 8, 12] and m.score == [8, 16]
    # "Five cards are dealt to the first four players. The dealer and the one to his right
    # receive only four cards. The players dealt 5 cards, discard one in the crib."
    assert [dealt(6, 5, s) for s in range(6)] == [(5, 1)] * 4 + [(4, 0)] * 2


def test_six_handed_muggins_the_other_team_calls_it():
    m = Match(players=6, muggins=True)
    m.deal(0)
    m.starter(parse("5C"))
    assert m.show(C("5H 5D 5S JC"), 20) == 20 and m.overlooked() == 9  # seat 1: 29
    assert m.muggins() == 9 and m.score == [9, 20]  # two sides: no caller to name


# A six-player save of the firmware before the teams (three partnerships, seats 0+3, 1+4,
# 2+5; muggins on): dealt by seat 5, starter KC, 10H 10D 10S AC played, 3 pegged for side 2.
OLD_SIX = binascii.unhexlify("020679015b023d030900090000ff000000000000556030262527008203866b8e1d")


def test_a_six_handed_game_saved_as_three_pairs_loads_as_it_was_played():
    m = loads(OLD_SIX)
    assert m.players == 6 and m.sides == 3 and m.score == [2, 2, 9] and m.muggins_on
    assert [m.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert m.dumps() == OLD_SIX  # saved again as it was
    assert m.peg(2, 1) == 1 and loads(m.dumps()).sides == 3
    new = Match(players=6, muggins=True)
    # a new game says it is played in teams (and, 16 | 64, that the players cut for the next
    # game's deal and only the cards that fitted go dead: issue 22)
    assert new.settings()[2] == 1 | 2 | 16 | 64
    assert loads(new.dumps()).sides == 2
    assert Match(players=4).settings()[2] == 16 | 64  # (other games: no teams bit)


def test_deal_waits_until_the_crib_is_shown():
    m = two()
    for phase_entries in ("", "5H", "6D"):  # STARTER is covered below; PLAY, mid-play
        plays(m, phase_entries)
        assert "crib first" in unchanged(m, m.deal)
        assert "crib first" in unchanged(m, m.deal, 0)
    m = Match()
    m.deal(0)
    assert m.phase == match.STARTER and "crib first" in unchanged(m, m.deal)
    m.starter()
    m.show(points=4)
    assert m.phase == match.SHOW and "crib first" in unchanged(m, m.deal)
    m.show(points=6)
    assert m.crib_next and "crib first" in unchanged(m, m.deal)
    m.show(points=2)
    assert m.phase == match.DEAL and m.deal() == 0 and m.dealer == 1


def test_penalties_out_of_phase_are_refused():
    m = Match()
    assert "first deal" in unchanged(m, m.penalty, 1)
    assert "first deal" in unchanged(m, m.penalty, 1, match.FAIL_TO_PLAY)
    assert "no penalty kind" in unchanged(m, m.penalty, 1, 3)
    m.deal(0)
    m.starter(parse("KC"))
    assert "no false go" in unchanged(m, m.penalty, 1, match.FALSE_GO)
    plays(m, "5H")
    assert "seat 2 cannot" in unchanged(m, m.penalty, 0, match.FAIL_TO_PLAY, 2)  # no seat 2
    assert "own side" in unchanged(m, m.penalty, 0, match.FAIL_TO_PLAY, 0)
    assert m.penalty(1) == 2  # a misdeal once the play started


def test_the_journal_refuses_dead_cards_out_of_place():
    # what a corrupt save could hold: each refused, nothing changed
    m = two()

    def event(*b):
        return m.enter(bytes(b), 0, len(b))

    assert "not in the play" in unchanged(m, event, match.E_DEAD | 1, 0)  # no card played
    plays(m, "5H")
    assert "cannot pay" in unchanged(m, event, match.E_DEAD | 0, 0)  # his own side
    assert "cannot pay" in unchanged(m, event, match.E_DEAD | 1, 7)
    assert "no false go" in unchanged(m, event, match.E_DEAD | 8 | 1, 0)
    assert event(match.E_DEAD | 1, 0) == 2 and m.dead() == 1
    assert "cards are dead" in unchanged(m, event, match.E_DEAD | 1, 0)
