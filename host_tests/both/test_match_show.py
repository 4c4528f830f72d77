"""The match engine, continued: the show (cards and points), muggins, pegs and penalties, the
cut, undo/redo without limit, saved games and their corruption checks. (Two modules so that
each compiles within MicroPython's 96 KB test heap.)"""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from check import raises, no_alloc  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from matchkit import C, plays, two, unchanged, DEAL_ROTATE, can_undo, can_redo  # noqa: E402


def peg_to(m, side, score):
    while m.score[side] < score:
        m.peg(side, min(15, score - m.score[side]))


def test_show_points_are_checked():
    m = two()
    for bad in (19, 25, 26, 27, 30, 255):
        assert "counts" in unchanged(m, m.show, None, bad)
    assert match.show_points_ok(28) and match.show_points_ok(0)
    assert not match.show_points_ok(-1)
    unchanged(m, m.show, None, 300)
    unchanged(m, m.show)


def test_show_cards_scored_and_checked():
    m = two(starter="5C")
    assert plays(m, "5H JC 5D 10H go go 5S 10S 4C 9H") == [0, 2, 0, 0, 0, 1, 0, 2, 0, 1]
    assert m.phase == match.SHOW
    assert "must hold" in unchanged(m, m.show, C("5H 5D 5S 2C"))
    assert "played by seat 1" in unchanged(m, m.show, C("5H 5D 5S JC"))
    assert "starter" in unchanged(m, m.show, C("5H 5D 5S 5C"))
    assert "twice" in unchanged(m, m.show, C("5H 5D 5D 4C"))
    assert m.show(C("5H 5D 5S 4C")) == 20  # 5 5 5 5 4: 4 fifteens 8 + 12 pairs
    # J 10 10 9 + 5: three fifteens 6, pair 2, two runs of three 6, nobs (JC, starter 5C) 1
    assert m.show(C("JC 10H 10S 9H")) == 15 and m.crib_next
    assert "in seat 1's hand" in unchanged(m, m.show, C("JC 2D 3D 4D"))
    # crib 2 3 4 6 + 5: run of five 5, fifteens 4+5+6 and 2+3+4+6 4; four diamonds: no flush
    assert m.show(C("2D 3D 4D 6D")) == 9 and m.last_why == match.WHY_CRIB
    assert m.score == [20, 6 + 15 + 9] and m.phase == match.DEAL


def test_a_claim_with_the_cards_is_a_count_a_hand_can_make():
    # 5 5 5 J + 5 (nobs) counts 29: a claim under it must still be a possible count
    m = two(starter="5C", muggins=True)
    m.show(None, 0)
    for bad in (19, 25, 26, 27):
        assert "counts %d" % bad in unchanged(m, m.show, C("5H 5D 5S JC"), bad)
    assert m.show(C("5H 5D 5S JC"), 28) == 28 and m.overlooked() == 1


def test_scoring_cards_needs_the_starter():
    m = Match()
    m.deal(0)
    m.starter()
    assert "starter" in unchanged(m, m.show, C("5H 5D 5S JC"))


def test_play_not_finished_blocks_the_show():
    m = two()
    plays(m, "5H")
    assert "not over" in unchanged(m, m.show, None, 4)


def test_muggins():
    m = two(starter="5C", muggins=True)
    m.show(None, 0)  # skip the play (not entered); pone shows nothing
    assert m.overlooked() == 0
    assert m.show(C("5H 5D 5S JC"), 20) == 20  # claims 20 of 29
    assert m.overlooked() == 9
    assert "own" in unchanged(m, m.muggins, 1)
    assert m.muggins() == 9 and m.score == [9, 20] and m.last_why == match.WHY_MUGGINS
    assert "no overlooked" in unchanged(m, m.muggins)
    assert "claimed" in unchanged(m, m.show, C("2D 3D 4D 6D"), 10)  # over the true count 9
    m.show(C("2D 3D 4D 6D"), 6)
    assert m.overlooked() == 3
    m.peg(0, 1)
    assert m.overlooked() == 0
    assert "no overlooked" in unchanged(m, m.muggins)  # too late
    # muggins off: the claim stands and nobody can take the rest
    m = two(starter="5C")
    m.show(None, 0)
    assert m.show(C("5H 5D 5S JC"), 20) == 20
    assert m.overlooked() == 0
    assert "off" in unchanged(m, m.muggins)


def test_muggins_with_three_sides_names_the_caller():
    m = Match(players=3, muggins=True)
    m.deal(2)
    m.starter(parse("5C"))
    m.show(C("5H 5D 5S JC"), 28)
    assert "which side" in unchanged(m, m.muggins)
    assert m.muggins(2) == 1 and m.score == [28, 0, 1]


def test_peg_and_penalty():
    m = Match()
    for bad in (0, 16, -1, "3"):
        assert "peg" in unchanged(m, m.peg, 0, bad)
    unchanged(m, m.peg, 2, 1)
    assert "first deal" in unchanged(m, m.penalty, 0)  # sheet 000: errors of a deal
    m.deal(1)
    m.starter()
    assert m.peg(1, 15) == 15 and m.score == [0, 15] and m.last_why == match.WHY_PEG
    assert m.penalty(0) == 2 and m.score == [2, 15] and m.last_why == match.WHY_PENALTY
    assert m.penalty(1, match.FAIL_TO_PLAY) == 2 and m.back == [0, 15] and m.score[1] == 17
    unchanged(m, m.penalty, 0, 5)
    unchanged(m, m.penalty, 3)


def test_cut_for_deal():
    m = Match(players=3)
    assert m.cut(C("KH 3D 9C")) == 1 and m.next_dealer == 1
    m = Match(players=3)
    assert "tie" in unchanged(m, m.cut, C("3H 3D 9C"))
    assert "one card per seat" in unchanged(m, m.cut, C("3H 4D"))
    assert "who deals" in unchanged(m, m.deal)
    m.cut(C("AH 3D 9C"))
    m.deal()
    assert m.dealer == 0 and m.pone() == 1
    assert "first deal" in unchanged(m, m.cut, C("AH 3D 9C"))


def test_undo_redo_unlimited_and_after_a_win():
    m = two()
    states = [m.state()]
    for e in ("9H", "6H", "6D", "5D", "go", "4D", "go"):
        plays(m, e)
        states.append(m.state())
    peg_to(m, 0, 121)
    won = m.state()
    assert m.phase == match.OVER
    assert m.undo() and m.phase == match.PLAY and m.winner == -1 and m.games == [0, 0]
    assert m.redo() and m.state() == won
    while m.state() != states[-1]:
        assert m.undo()
    for k in range(len(states) - 1, 0, -1):
        assert m.state() == states[k]
        assert m.undo()
    assert m.state() == states[0]
    while m.undo():
        pass
    assert m.state() == Match().state() and not can_undo(m) and can_redo(m)
    while m.redo():
        pass
    assert m.state() == won and not can_redo(m)


def test_a_new_event_drops_the_redo_events():
    m = two()
    plays(m, "9H 6H")
    m.undo()
    assert can_redo(m)
    plays(m, "5H")
    assert not can_redo(m) and list(m.pile) == [parse("9H"), parse("5H")]


def test_next_game_keeps_games_won():
    m = Match(deal=DEAL_ROTATE)  # (the deal goes on round the table: seat 1 next)
    m.deal(0)
    raises(ValueError, m.next_game)
    peg_to(m, 1, 121)
    assert m.games == [0, 3]
    m.next_game()
    started = m.events
    assert m.score == [0, 0] and m.games == [0, 3] and m.phase == match.DEAL
    assert m.winner == -1 and m.deals == 0 and m.next_dealer == 1
    peg_to(m, 0, 121)
    assert m.games == [3, 3]
    assert started == 0  # a new game starts a new journal
    m2 = loads(m.dumps())
    assert m2.state() == m.state()
    won = m.state()
    while m.events:  # back through the second game to its start
        assert m.undo()
    assert m.phase == match.DEAL and m.games == [0, 3] and m.score == [0, 0]
    assert m.undo()  # one more: the first game's end, as it was won
    assert m.phase == match.OVER and m.games == [0, 3] and m.winner == 1
    assert m.score[1] == 121 and not can_undo(m) and not m.undo()
    assert loads(m.dumps()).state() == m.state()  # saved as it shows
    assert m.redo() and m.phase == match.DEAL and m.games == [0, 3]
    while m.redo():
        pass
    assert m.state() == won


def test_saved_games_round_trip_and_corruption_is_caught():
    m = Match(players=3, target=61, muggins=True)
    m.cut(C("KH 3D 9C"))
    m.deal()
    m.starter(parse("JD"))
    plays(m, "5H 5D")
    m.undo()
    data = m.dumps()
    assert data[0] == match.VERSION
    m2 = loads(data)
    assert m2.state() == m.state() and m2.settings() == m.settings()
    assert can_redo(m2) and m2.redo() and m2.score == [2, 2, 0]
    assert m2.muggins_on and m2.target == 61 and m2.players == 3
    for i in range(len(data)):  # every single flipped bit is caught
        bad = bytearray(data)
        bad[i] ^= 1 << (i % 8)
        raises(ValueError, loads, bytes(bad))
    for n in range(len(data)):
        raises(ValueError, loads, data[:n])
    raises(ValueError, loads, data + b"\x00")
    raises(ValueError, loads, b"")


def test_queries_do_not_allocate():
    m = two()
    plays(m, "9H 6H")

    def read():
        return m.score[0] + m.back[1] + m.count + m.turn + m.phase + m.side_of(1) + m.pone()

    assert no_alloc(read) == 0 + 0 + 15 + 0 + match.PLAY + 1 + 0


def test_a_deal_waits_for_the_crib():
    # the board deals only between deals: deal() before the crib is shown is refused with
    # nothing changed (a misdeal noticed during the deal: undo the deal, deal again)
    m = two()
    plays(m, "9H 6H")
    for d in (-1, 0, 1):
        assert "crib first" in unchanged(m, m.deal, d)
    assert m.penalty(0) == 2  # sheet 000, a misdeal after the play started: two to the pone
    assert "crib first" in unchanged(m, m.deal, 1)
    while m.deals:
        m.undo()
    assert m.phase == match.DEAL and m.deal(1) == 0 and m.deals == 1  # dealt again


def test_a_journal_that_does_not_replay_is_refused_even_with_a_good_checksum():
    import binascii

    m = two()
    plays(m, "9H 6H")
    data = bytearray(m.dumps())
    data[-5] = parse("9H")  # the 6H entry becomes a second 9H: a valid byte, an illegal event
    crc = binascii.crc32(bytes(data[:-4])) & 0xFFFFFFFF
    for i in range(4):
        data[len(data) - 4 + i] = crc >> (8 * i) & 255
    assert "replay" in str(raises(ValueError, loads, bytes(data)))
    data = bytearray(m.dumps())
    data[1] = 9  # nine players
    crc = binascii.crc32(bytes(data[:-4])) & 0xFFFFFFFF
    for i in range(4):
        data[len(data) - 4 + i] = crc >> (8 * i) & 255
    raises(ValueError, loads, bytes(data))
