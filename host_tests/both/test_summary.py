"""A game's summary (cribbage/summary.py): its journal replayed deal by deal, each side's
points by why, checked against a game counted by hand. Runs under pytest and under
MicroPython (host_tests/run_mp.py)."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (each compile's garbage gone before the next: a 96 KB heap, from source)
from check import raises  # noqa: E402
from dealer.cardtext import parse  # noqa: E402
from cribbage.match import Match, FAIL_TO_PLAY, FALSE_GO, OVER, WIN  # noqa: E402
gc.collect()
from cribbage import summary as S  # noqa: E402
gc.collect()
from matchkit import C, plays  # noqa: E402

RED = 0
BLUE = 1


def summary(m, limit=40):
    """The game's summary as the record keeps it: dumps()'s parts, one after the other."""
    return b"".join(S.dumps(m, limit))


def named(b, k, sides=2, i=0):
    """Side k's totals in summary bytes b[i:], by their names (summary.TOTALS, as a record's
    reader, board/record.py, reads them)."""
    return dict(zip(S.TOTALS, S.totals(b, i, sides, k)))


def pegged_in_all(t):
    """Every point a side's totals account for: its score."""
    return (t["hand"] + t["crib"] + t["play"] + t["heels"] + t["pegged"] + t["penalties"]
            + t["muggins_taken"])


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
    b = summary(m)
    assert len(S.rows(b, 0, 2)) == 3  # deals
    # (dealer's seat, heels, crib, hands, plays, pegged by hand, penalties, muggins taken)
    assert S.rows(b, 0, 2) == [(0, 0, 6, (12, 16), (2, 1), (0, 0), (0, 0), (0, 0)),
                               (1, 2, 2, (18, 8), (0, 0), (3, 2), (2, 0), (0, 2)),
                               (0, 0, None, (28, 12), (0, 0), (0, 4), (0, 0), (0, 0))]
    # best: the best show as claimed (Red's 18 of 20 is not his best)
    assert named(b, RED) == {"hands": 3, "hand": 58, "cribs": 1, "crib": 6, "play": 2,
                             "heels": 0, "pegged": 3, "penalties": 2, "muggins_taken": 0,
                             "best": 28, "n28": 1, "n29": 0}
    assert named(b, BLUE) == {"hands": 3, "hand": 36, "cribs": 1, "crib": 2, "play": 1,
                              "heels": 2, "pegged": 6, "penalties": 0, "muggins_taken": 2,
                              "best": 16, "n28": 0, "n29": 0}
    for k in (RED, BLUE):  # every point is accounted for
        assert pegged_in_all(named(b, k)) == m.score[k]


def test_the_first_deals_only_and_read_at_an_offset():
    m = known_game()
    b = summary(m)
    two = summary(m, 2)
    assert len(S.rows(two, 0, 2)) == 2 and len(two) == len(b) - 8  # (the third deal: 2 + 3
    # bytes a side)
    assert S.rows(two, 0, 2) == S.rows(b, 0, 2)[:2]
    assert named(two, BLUE) == named(b, BLUE)  # (the game's, all deals)
    rec = b"head" + b  # as in a history record
    assert S.rows(rec, 4, 2) == S.rows(b, 0, 2)
    assert named(rec, RED, i=4) == named(b, RED)


def test_the_game_itself_is_left_as_it_was():
    m = known_game()
    before = (m.state(), m.dumps(), m.last_play)
    summary(m)
    assert (m.state(), m.dumps(), m.last_play) == before
    m.undo()
    m.redo()  # (rebuilt from the deal's record: no last card played)
    before = (m.state(), m.dumps(), m.last_play)
    summary(m)
    assert (m.state(), m.dumps(), m.last_play) == before


def test_points_pegged_before_any_deal():
    """A game pegged by hand only has no deals to detail, and no totals; pegs before the first
    deal of a game dealt after are that deal's."""
    m = Match(players=2, target=61)
    for _ in range(5):
        m.peg(BLUE, 13)
    assert m.phase == OVER and m.deals == 0
    b = summary(m)
    assert b == bytes(len(b)) and len(b) == 1 + 11 * 2  # (0 deals, each side's totals 0)
    m = Match(players=2, target=61)
    m.peg(RED, 3)
    m.deal(0)
    m.peg(RED, 2)
    b = summary(m)
    assert S.rows(b, 0, 2) == [(0, 0, None, (None, None), (0, 0), (5, 0), (0, 0), (0, 0))]
    assert named(b, RED)["pegged"] == 5  # pegged by hand: both


def test_a_finished_game_shown_by_undo_has_no_journal_to_replay():
    m = known_game()
    m.next_game()
    m.undo()  # the finished game's end again: its scores, not its events
    assert m.phase == OVER and m.score == [71, 49]
    raises(ValueError, S.dumps, m, 40)


def test_a_failure_to_play_made_dead_in_the_play_pegs_the_go_and_the_penalty():
    from cribbage import events

    if not hasattr(events, "E_DEAD"):  # (an engine without dead cards: nothing to test)
        return
    m = Match(players=2)
    m.deal(0)
    m.starter(parse("2D"))
    # Blue 4S 6S 8S AS, Red 5H 7H KH QH: 6S makes 15 and a run of three (5), 7H a run of four,
    # 8S a run of five; Red cannot go on at 30, Blue holds AS and does not play it: his card
    # is dead, the go is his 8S's (1) and the two are Red's; KH, Blue's go (only his dead
    # card left), QH, the last card 1.
    assert plays(m, "4S 5H 6S 7H 8S go") == [0, 0, 5, 4, 5, 0]
    assert m.penalty(RED, FAIL_TO_PLAY, BLUE) == 2
    assert plays(m, "KH go QH") == [0, 0, 1]
    assert m.score == [4 + 2 + 1, 5 + 5 + 1]
    (_dealer, _heels, _crib, _hands, play, _pegged, penalties,
     _muggins), = S.rows(summary(m), 0, 2)
    assert (play, penalties) == ((5, 11), (2, 0))  # Red, Blue


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
    (_dealer, _heels, _crib, _hands, play, _pegged, penalties,
     _muggins), = S.rows(summary(m), 0, 2)
    assert penalties == (0, 2)  # Red, Blue
    assert play[RED] == m.score[RED] and m.score[BLUE] == 2 + play[BLUE]


def autoplayed(players, seed, target=121):
    from dealer.autoplay import play_game, seeded, RANDOM

    gc.collect()
    m = Match(players=players, target=target)
    play_game(m, seeded(seed), [RANDOM] * players)
    return m


def test_every_size_of_table_every_point_once_and_the_game_left_as_it_was():
    for players in (2, 3, 4, 5, 6):
        for seed in (1, 2):
            m = autoplayed(players, seed)
            before = (m.state(), m.dumps())
            b = summary(m)
            assert (m.state(), m.dumps()) == before
            rows = S.rows(b, 0, m.sides)
            assert len(rows) == min(m.deals, 40)
            for k in range(m.sides):
                t = named(b, k, m.sides)
                assert pegged_in_all(t) == m.score[k], (players, seed, k)
                assert t["hands"] + t["cribs"] >= len(rows) // m.sides  # (each side shows
                # each round)
                assert sum(hands[k] or 0 for _d, _h, _c, hands, _p, _g, _n, _u in rows) \
                    == t["hand"]  # (all deals detailed here)
            assert [dealer for dealer, _h, _c, _s, _p, _g, _n, _u in rows] == [
                (seat + m.dealer - m.deals + 1) % players for seat in range(m.deals)]  # (the
            # deal goes round)
            del m, before, b, rows  # (a 96 KB heap under MicroPython)


def test_a_failure_half_way_leaves_the_game_as_it_was():
    """MemoryError at any event of the replay (m replays its own journal): m.restore() puts
    the game back, as after a failed entry, and the failure is raised."""
    m = autoplayed(3, 5, target=61)
    before = (m.state(), m.dumps())
    apply = m.apply
    seen = [0, 0]  # events applied, the one that fails

    def failing(j, i, at):  # (once: m.restore() replays through it too)
        seen[0] += 1
        if seen[0] == seen[1]:
            raise MemoryError
        return apply(j, i, at)

    for at in range(0, m.events, 7):
        seen[0] = 0
        seen[1] = at + 1
        m.apply = failing
        raises(MemoryError, S.dumps, m, 40)
        m.apply = apply
        assert (m.state(), m.dumps()) == before, at
    del m.apply


def test_mid_game_the_summary_so_far_and_undone_events_still_redo():
    """The live page asks mid-game (board/web.py): the committed events are replayed, the
    events an undo removed stay for redo."""
    m = autoplayed(2, 3)
    end = (m.state(), m.dumps())
    for _ in range(4):
        m.undo()
    mid = (m.state(), m.dumps())
    b = summary(m, 255)
    assert (m.state(), m.dumps()) == mid
    for k in range(2):
        assert pegged_in_all(named(b, k)) == m.score[k]
    for _ in range(4):
        assert m.redo()
    assert (m.state(), m.dumps()) == end


def test_a_false_go_taken_takes_the_proving_cards_play_off_the_summary():
    """Issue 22: seat 1 deals, starter KC; A (seat 0) holds KH 8S 5C QS, B 8D 9D 7D 10D. KH, 8D,
    8S (18, a pair: 2 to A), B says go, A says go though his 5C fitted (23): 1 to A; B 10D, A
    5C (15: 2 to A), and A is caught: the penalty takes his 5C back (5 to 3) and gives B two.
    A's play is 3, not 5: every side's parts add up to its score."""
    m = Match(players=2)
    m.deal(1)
    m.starter(parse("KC"))
    assert plays(m, "KH 8D 8S go go 10D 5C") == [0, 0, 2, 0, 1, 0, 2]
    assert m.score == [5, 0] and m.false_go() == 0
    assert m.penalty(BLUE, FALSE_GO) == 2 and m.score == [3, 2]
    b = summary(m)
    assert S.rows(b, 0, 2) == [(1, 0, None, (None, None), (3, 0), (0, 0), (0, 2), (0, 0))]
    assert named(b, RED)["play"] == 3 and named(b, BLUE)["penalties"] == 2
    for k in (RED, BLUE):
        assert pegged_in_all(named(b, k)) == m.score[k]


def test_the_bytes_are_the_ones_boards_already_keep():
    # history files on boards hold these bytes: a CRC-32 of the summaries of 15 games (2-6
    # players, 121 and 61, all deals and the first 3, and after two undos), as the firmware
    # before journal.replay made them
    import binascii
    from dealer.autoplay import play_game, seeded, RANDOM

    c = 0
    for players in (2, 3, 4, 5, 6):
        for seed in (1, 2, 3):
            gc.collect()
            m = Match(players=players, target=121 if seed < 3 else 61)
            play_game(m, seeded(seed), [RANDOM] * players)
            for part in S.dumps(m, 40 if seed < 3 else 3):
                c = binascii.crc32(part, c)
            if seed == 2:
                m.undo()
                m.undo()
                for part in S.dumps(m, 40):
                    c = binascii.crc32(part, c)
            del m
    assert c & 0xFFFFFFFF == 0xD391AAB6


def _in_slices(m, limit, leave):
    """dumps()'s parts made a deal at a time (replay(), as board/history.py's rest() makes a
    won game's between keys): after each deal k for which leave(k) holds, the game put back
    (send) and checked to be as it was at its end; (the parts, the deals, those left at)."""
    end = (m.state(), m.last_play)
    g = S.replay(m, limit, True)
    k = left = 0
    while True:
        b = next(g)
        if b is not None:
            assert (m.state(), m.last_play) == end  # (and at the end)
            return b, k, left
        k += 1
        if leave(k):
            assert g.send(1) is None
            assert (m.state(), m.last_play) == end, k  # the game as it ended, between deals
            left += 1


def test_made_a_deal_at_a_time_the_bytes_are_the_same_and_the_game_as_it_was_between():
    from dealer.autoplay import play_game, seeded, RANDOM

    for players in (2, 3, 4, 5, 6):
        for seed in (1, 2, 3):
            gc.collect()
            m = Match(players=players, target=121 if seed < 3 else 61)
            play_game(m, seeded(seed), [RANDOM] * players)
            limit = 40 if seed < 3 else 3
            want = summary(m, limit)
            for every in (1, 2, 0):  # put back after every deal, every other one, none
                b, k, left = _in_slices(m, limit, lambda k, n=every: n and k % n == 0)
                assert b"".join(b) == want, (players, seed, every)
                assert k == m.deals and left == (k // every if every else 0), (k, left)
            del m
    m = known_game()  # muggins, a false go, penalties: the same bytes in slices
    b, k, left = _in_slices(m, 40, lambda k: True)
    assert b"".join(b) == summary(m) and k == left == m.deals


def test_a_game_changed_between_deals_is_refused_and_left_as_changed():
    from dealer.autoplay import play_game, seeded, RANDOM

    m = Match(players=2)
    play_game(m, seeded(1), [RANDOM] * 2)
    g = S.replay(m, 40, True)
    assert next(g) is None and g.send(1) is None
    m.undo()  # (another event, an undo, the next game: no longer the game it began on)
    was = m.state()
    raises(ValueError, next, g)
    assert m.state() == was and m.phase != OVER
