"""A game's summary (cribbage/summary.py): its journal replayed deal by deal, each side's
points by why, checked against a game counted by hand. Runs under pytest and under
MicroPython (host_tests/run_mp.py)."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (each compile's garbage gone before the next: a 96 KB heap, from source)
from check import raises  # noqa: E402
from cribbage.cardtext import parse  # noqa: E402
from cribbage.match import Match, FAIL_TO_PLAY, OVER, WIN  # noqa: E402
gc.collect()
from cribbage import summary as S  # noqa: E402
gc.collect()
from matchkit import C, plays  # noqa: E402

RED = 0
BLUE = 1


def known_game():
    """A 61 game with muggins, three deals, counted by hand like a rule sheet's example.

    Deal 1, Red (seat 0) deals, starter 5D. Blue holds 4C 6D 6H 9S, Red 10C JH QS KD, the
    crib 2C 3H 7S 8D. The play: 4C 10C (14) 6D (20) JH (30), go, go: Red 1 for the go;
    6H QS (16) 9S (25), Red goes, Blue has no card: Blue 1 for the go; KD, the last card: Red
    1. Blue's hand: fifteens 8 (6+9 twice, 4+5+6 twice), a pair 2, a double run of three 6 =
    16. Red's: fifteens 8 (each ten card with the 5), a run of four 4 = 12. The crib:
    fifteens 6 (7+8, 2+5+8, 3+5+7) = 6. Red 2 + 12 + 6 = 20, Blue 1 + 16 = 17.

    Deal 2, Blue deals, the starter JS: his heels, Blue 2. The play is pegged by hand, Red 3,
    Blue 2, and Blue fails to play: two to Red. Red shows 5H 5C 5S 10D, claims 18 of its 20
    (fifteens 14, a pair royal 6): Blue takes muggins 2. Blue's hand 8, his crib 2. Red 20 + 3
    + 2 + 18 = 43, Blue 17 + 2 + 2 + 2 + 8 + 2 = 33.

    Deal 3, Red deals, the starter not entered; Blue pegs 4 in the play, shows 12; Red shows
    28 and goes out: 71 to 49 (no lurch: Blue is past 31)."""
    m = Match(players=2, target=61, muggins=True)
    m.deal(0)
    m.starter(parse("5D"))
    assert plays(m, "4C 10C 6D JH go go 6H QS 9S go KD") == [0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1]
    assert m.show(C("4C 6D 6H 9S")) == 16
    assert m.show(C("10C JH QS KD")) == 12
    assert m.show(C("2C 3H 7S 8D")) == 6
    assert m.score == [20, 17]
    m.deal()
    assert m.starter(parse("JS")) == 2
    m.peg(RED, 3)
    m.peg(BLUE, 2)
    assert m.penalty(RED, FAIL_TO_PLAY) == 2
    assert m.show(C("5H 5C 5S 10D"), 18) == 18
    assert m.muggins(BLUE) == 2
    m.show(None, 8)
    m.show(None, 2)
    assert m.score == [43, 33]
    m.deal()
    m.starter()
    m.peg(BLUE, 4)
    m.show(None, 12)
    m.show(None, 28)
    assert (m.phase, m.winner, m.result, m.score) == (OVER, RED, WIN, [71, 49])
    return m


def test_a_known_game_deal_by_deal():
    m = known_game()
    s = S.summarise(m)
    assert s.deals == 3 and list(s.dealer) == [0, 1, 0]
    fields = (S.HAND, S.CRIB, S.PLAY, S.HEELS, S.PEG, S.PENALTY, S.MUGGINS)
    N = S.NONE
    # per deal, per side: hand, crib, play, heels, pegged by hand, penalties, muggins taken
    want = [((12, 6, 2, 0, 0, 0, 0), (16, N, 1, 0, 0, 0, 0)),
            ((18, N, 0, 0, 3, 2, 0), (8, 2, 0, 2, 2, 0, 2)),
            ((28, N, 0, 0, 0, 0, 0), (12, N, 0, 0, 4, 0, 0))]
    got = [tuple(tuple(s.get(d, k, f) for f in fields) for k in (RED, BLUE)) for d in range(3)]
    assert got == want
    assert [s.total(RED, f) for f in fields] == [58, 6, 2, 0, 3, 2, 0]
    assert [s.total(BLUE, f) for f in fields] == [36, 2, 1, 2, 6, 0, 2]
    for k in (RED, BLUE):  # every point is accounted for
        assert sum(s.total(k, f) for f in fields) == m.score[k]
    assert list(s.hands) == [3, 3] and list(s.cribs) == [1, 1]
    assert list(s.best) == [28, 16]  # as claimed: Red's 18 of 20 is not his best
    assert list(s.n28) == [1, 0] and list(s.n29) == [0, 0]


def test_its_bytes_read_back():
    m = known_game()
    s = S.summarise(m)
    b = s.dumps(40)
    assert b[0] == 3  # deals
    t = 1 + S.TOTALS * RED
    assert (b[t + S.T_HANDS], b[t + S.T_HAND], b[t + S.T_CRIBS], b[t + S.T_CRIB],
            b[t + S.T_PLAY], b[t + S.T_PEG], b[t + S.T_PENALTY], b[t + S.T_BEST],
            b[t + S.T_2829]) == (3, 58, 1, 6, 2, 3, 2, 28, 1)
    t = 1 + S.TOTALS * BLUE
    assert (b[t + S.T_HEELS], b[t + S.T_MUGGINS], b[t + S.T_PEG]) == (2, 2, 6)
    rows = S.rows(b, 0, 2)
    # (dealer, heels, crib, hands, plays, pegged, penalties, muggins)
    assert rows[0] == (0, 0, 6, bytes((12, 16)), bytes((2, 1)), bytes(2), bytes(2), bytes(2))
    assert rows[1] == (1, 2, 2, bytes((18, 8)), bytes(2), bytes((3, 2)), bytes((2, 0)),
                       bytes((0, 2)))
    assert rows[2] == (0, 0, S.NONE, bytes((28, 12)), bytes(2), bytes((0, 4)), bytes(2),
                       bytes(2))
    assert len(S.dumps(known_game(), 2)) == len(b) - 8  # (the third deal: 2 + 3 a side)
    assert S.rows(S.summarise(m).dumps(2), 0, 2) == rows[:2]


def test_the_game_itself_is_left_as_it_was():
    m = known_game()
    before = (m.state(), m.dumps())
    S.summarise(m)
    assert (m.state(), m.dumps()) == before


def test_a_finished_game_shown_by_undo_has_no_journal_to_replay():
    m = known_game()
    m.next_game()
    m.undo()  # the finished game's end again: its scores, not its events
    assert m.phase == OVER and m.score == [71, 49]
    raises(ValueError, S.summarise, m)


def test_a_failure_to_play_made_dead_in_the_play_pegs_the_go_and_the_penalty():
    from cribbage import events

    if not hasattr(events, "E_DEAD"):  # (an engine without dead cards: nothing to test)
        return
    m = Match(players=2)
    m.deal(0)
    m.starter(parse("2D"))
    # Blue 4S 6S 8S AS, Red 5H 7H KH QH: 6S makes 15 and a run of three (5), 7H a run of four,
    # 8S a run of five; Red cannot go on at 30, Blue holds AS and does not play it: his card
    # is dead, the go is his 8S's (1) and the two are Red's; KH QH, the last card 1.
    assert plays(m, "4S 5H 6S 7H 8S go") == [0, 0, 5, 4, 5, 0]
    assert m.penalty(RED, FAIL_TO_PLAY, BLUE) == 2
    assert plays(m, "KH QH") == [0, 1]
    assert m.score == [4 + 2 + 1, 5 + 5 + 1]
    s = S.summarise(m)
    assert (s.get(0, RED, S.PLAY), s.get(0, RED, S.PENALTY)) == (5, 2)
    assert (s.get(0, BLUE, S.PLAY), s.get(0, BLUE, S.PENALTY)) == (11, 0)


def test_a_false_go_penalty_is_in_the_summary():
    """The false go's penalty (journalled with its own flag) replays as the engine journalled
    it: the two go to the opponent, the play's points stay the play's."""
    from cribbage import match

    if not hasattr(match, "FALSE_GO"):
        return
    m = Match(players=2)
    m.deal(1)
    m.starter(parse("KC"))
    plays(m, "10H 8D 9H go go 6D 3C")  # A's 3C fitted at his go at 27: the go was false
    assert m.false_go() == 0
    assert m.penalty(BLUE, match.FALSE_GO) == 2
    s = S.summarise(m)
    assert (s.get(0, BLUE, S.PENALTY), s.get(0, RED, S.PENALTY)) == (2, 0)
    assert s.get(0, RED, S.PLAY) == m.score[RED] and m.score[BLUE] == 2 + s.get(0, BLUE, S.PLAY)
