"""Match modes: single games, best of 3 or 5, and ACC tournament game points (2 for a win, 3
for a skunk, 0 for a loss; no double skunk), the match's end and a new match, saves, and the
ACC muggins rule (none on his heels or on penalties)."""

from binascii import unhexlify

from check import raises
from cribbage import match
from dealer.cardtext import parse
from cribbage.match import Match, loads
from matchkit import unchanged, DEAL_ROTATE, DEAL_CUT, DEAL_LOSER

# A save of the firmware before match modes (games [2, 0] after a skunk, muggins on, the
# next game dealt and Blue +5): its settings byte 2 has no mode bits.
OLD_SAVE = unhexlify("020279015b023d0303000300010102000000000200010600010100100000007950784b0"
                     "200000051810596153047")


def peg_to(m, side, score):
    while m.score[side] < score:
        m.peg(side, min(15, score - m.score[side]))


def game(m, loser_score, winner=0):
    """Deal, the loser pegs to loser_score, the winner pegs out."""
    m.deal(0)
    peg_to(m, 1 - winner, loser_score)
    peg_to(m, winner, m.target)


def test_acc_points_a_win_2_a_skunk_3_a_loss_0():
    for other, result, points in ((91, match.WIN, 2), (90, match.SKUNK, 3),
                                  (60, match.SKUNK, 3), (0, match.SKUNK, 3)):
        m = Match(mode=match.ACC)
        game(m, other)
        assert m.result == result and m.games == [points, 0], (other, m.result, m.games)
        assert m.match_won() == -1  # a session has no end
    m = Match(mode=match.ACC)
    assert (m.skunk_games, m.double_line, m.skunk_line) == (3, 0, 91)  # no double skunk
    m = Match(mode=match.ACC, target=61)  # the 61 game: a lurch is the skunk
    game(m, 30)
    assert m.result == match.LURCH and m.games == [3, 0]
    m = Match(mode=match.ACC, skunk_line=0, double_line=0)  # skunks off: every win is 2
    game(m, 10)
    assert m.result == match.WIN and m.games == [2, 0]


def test_acc_points_run_on_over_games():
    m = Match(mode=match.ACC)
    totals = []
    for other, winner in ((100, 0), (50, 1), (95, 1), (30, 0)):
        game(m, other, winner)
        totals.append(tuple(m.games))
        m.next_game()
        assert m.games == list(totals[-1]) and m.score == [0, 0]
    assert totals == [(2, 0), (2, 3), (2, 5), (5, 5)]


def test_acc_the_loser_deals_the_next_game():
    # ACC rule 1.5: the loser of a game deals the next. With more than two sides the deal
    # goes on round the table to the first seat that lost, whoever the settings say deals
    # the next game; single games (deal=DEAL_ROTATE here) keep the rotation.
    for players in (2, 3, 4, 5, 6):
        for mode in (match.ACC, match.SINGLE):
            sides = Match(players=players).sides
            for winner in range(sides):
                for first in range(players):
                    deal = (first + winner) % 3 if mode == match.ACC else DEAL_ROTATE
                    m = Match(players=players, mode=mode, deal=deal)
                    m.deal(first)
                    peg_to(m, winner, m.target)
                    turn = m.next_dealer  # the rotation's next dealer
                    m.next_game()
                    m.undo()  # the finished game's end, then back: the same first dealer
                    m.redo()
                    m = loads(m.dumps())  # and across a save
                    m.deal()
                    d = m.dealer
                    if mode == match.SINGLE:
                        assert d == turn, (players, winner, first, d)
                        continue
                    assert d % sides != winner, (players, winner, first, d)
                    k = turn  # no losing seat is skipped on the way round
                    while k != d:
                        assert k % sides == winner, (players, winner, first, k, d)
                        k = (k + 1) % players


def test_best_of_3_ends_at_2_games_then_a_new_match():
    m = Match(mode=match.BEST_OF_3, skunk_line=0, double_line=0)
    game(m, 100)
    assert m.games == [1, 0] and m.match_won() == -1
    m.next_game()
    game(m, 100, winner=1)
    assert m.games == [1, 1] and m.match_won() == -1
    m.next_game()
    game(m, 100, winner=1)
    assert m.games == [1, 2] and m.match_won() == 1
    end = m.state()
    assert m.next_game() == 0
    assert m.games == [0, 0] and m.score == [0, 0] and m.match_won() == -1  # a new match
    # undo across the match's end shows it again, with its games; redo: the new match
    assert m.undo() and m.state() == end and m.match_won() == 1
    assert m.redo() and m.games == [0, 0] and m.phase == match.DEAL
    # OK again while the end is shown: the new match, once
    assert m.undo()
    m.next_game()
    assert m.games == [0, 0] and m.phase == match.DEAL
    game(m, 100)
    assert m.games == [1, 0]


def test_a_skunk_counts_its_games_in_best_of_modes():
    m = Match(mode=match.BEST_OF_3)
    game(m, 80)  # a skunk: two games, the match at once
    assert m.result == match.SKUNK and m.games == [2, 0] and m.match_won() == 0
    m = Match(mode=match.BEST_OF_5)
    game(m, 80)
    assert m.games == [2, 0] and m.match_won() == -1
    m.next_game()
    game(m, 100, winner=1)
    assert m.games == [2, 1] and m.match_won() == -1
    m.next_game()
    game(m, 100)
    assert m.games == [3, 1] and m.match_won() == 0
    m.next_game()
    assert m.games == [0, 0]
    m = Match(mode=match.BEST_OF_5)
    game(m, 40)  # a double skunk: three games, best of 5 won
    assert m.result == match.DOUBLE_SKUNK and m.games == [3, 0] and m.match_won() == 0


def test_single_games_never_end_a_match():
    m = Match()
    assert m.mode == match.SINGLE
    for _ in range(3):
        game(m, 40)
        assert m.match_won() == -1
        m.next_game()
    assert m.games == [9, 0]


def test_modes_are_checked():
    for bad in (-1, 4, 7):
        raises(ValueError, Match, mode=bad)


def test_saves_keep_the_mode_and_the_totals():
    for mode in (match.SINGLE, match.BEST_OF_3, match.BEST_OF_5, match.ACC):
        m = Match(mode=mode, muggins=True)
        assert m.settings()[2] == 1 | mode << 2 | DEAL_CUT << 4 | 64
        game(m, 80)
        m2 = loads(m.dumps())
        assert m2.mode == mode and m2.state() == m.state() and m2.dumps() == m.dumps()
        assert m2.match_won() == m.match_won()
        m.next_game()
        m.deal(1)
        m.peg(1, 7)
        m2 = loads(m.dumps())
        assert m2.state() == m.state() and m2.games == m.games
        assert m2.undo() and m2.undo() and m2.undo()  # back over the game's end
        assert m2.phase == match.OVER and m2.games == ([3, 0] if mode == match.ACC else [2, 0])
        m3 = loads(m2.dumps())  # saved while the end is shown
        assert m3.state() == m2.state() and m3.match_won() == m2.match_won()
        assert m3.redo() and m3.games == ([0, 0] if mode == match.BEST_OF_3 else m.games)
        m4 = loads(m2.dumps())  # OK while the loaded end is shown: the next game (or match)
        m4.next_game()
        assert m4.phase == match.DEAL and m4.games == m3.games and m4.events == 0
        m4.restore()
        assert m4.state() == loads(m4.dumps()).state()


def test_a_save_of_earlier_firmware_loads_as_single_games():
    m = loads(OLD_SAVE)
    assert m.mode == match.SINGLE and m.muggins_on
    assert m.games == [2, 0] and m.score == [0, 5] and m.skunk_games == 2
    assert m.dumps() == OLD_SAVE  # saved again the same
    assert m.undo() and m.undo() and m.undo()  # the peg, the deal, the game's end
    assert m.phase == match.OVER and m.match_won() == -1 and m.games == [2, 0]


def test_acc_muggins_never_on_heels_or_penalties():
    # ACC rule 10.3: no muggins on his heels, on a penalty, or on a muggins score. The board
    # pegs heels and penalties itself, in full: nothing is overlooked to take.
    m = Match(mode=match.ACC, muggins=True)
    m.deal(0)
    assert m.starter(parse("JH")) == 2 and m.last_why == match.WHY_HEELS
    assert m.overlooked() == 0
    assert "muggins" in unchanged(m, m.muggins)
    m.penalty(0)  # a misdeal: two to Red
    assert m.last_why == match.WHY_PENALTY and m.overlooked() == 0
    unchanged(m, m.muggins)
    # a hand counted short is mugged as in every mode (rule 10.2); the muggins is not
    m.show(hand=[parse(c) for c in ("5H", "5D", "10S", "KC")], points=4)  # pone: counts 14
    assert m.overlooked() == 10 and m.overlooked_side() == 1
    assert m.muggins() == 10 and m.last_why == match.WHY_MUGGINS and m.score == [14, 4]
    assert m.overlooked() == 0
    unchanged(m, m.muggins)


# --- who deals the next game (issue 22): cut (the sheets), the loser, or round the table ---


def test_by_default_the_players_cut_for_the_next_games_deal():
    """Sheet 000: "Players cut for deal": every game, not only the first. After next_game()
    nobody is named to deal: deal() asks who deals until a cut or a named dealer says."""
    m = Match()
    game(m, 100)
    m.next_game()
    assert m.next_dealer == -1 and m.phase == match.DEAL
    assert "who deals" in unchanged(m, m.deal)
    m = loads(m.dumps())  # and across a save
    assert m.next_dealer == -1
    assert m.cut([parse("9H"), parse("3C")]) == 1  # Blue cut low: Blue deals
    m.deal()
    assert m.dealer == 1
    m = Match(players=3)
    m.deal(2)
    peg_to(m, 0, 121)
    m.next_game()
    assert m.deal(0) == 0 and m.dealer == 0  # or the dealer is named (the board's A, OK)


def test_the_loser_deals_or_the_deal_goes_on_round_the_table():
    for players in (2, 3, 4, 5, 6):
        sides = Match(players=players).sides
        for winner in range(sides):
            for first in range(players):
                for rule in (DEAL_LOSER, DEAL_ROTATE):
                    m = Match(players=players, deal=rule)
                    m.deal(first)
                    peg_to(m, winner, m.target)
                    m.next_game()
                    m = loads(m.dumps())
                    d = m.next_dealer
                    turn = (first + 1) % players
                    if rule == DEAL_ROTATE:
                        assert d == turn
                        continue
                    assert d % sides != winner  # the first losing seat from the next in turn
                    k = turn
                    while k != d:
                        assert k % sides == winner
                        k = (k + 1) % players


def test_who_deals_the_next_game_is_a_setting_saved_with_the_game():
    for rule in (DEAL_ROTATE, DEAL_CUT, DEAL_LOSER):
        m = Match(deal=rule)
        assert m.settings()[2] >> 4 & 3 == rule
        assert loads(m.dumps()).settings() == m.settings()
    raises(ValueError, Match, deal=3)
    # a save of earlier firmware has none: its games go on round the table, as they did
    m = loads(OLD_SAVE)
    assert m.settings()[2] >> 4 & 3 == DEAL_ROTATE and m.dumps() == OLD_SAVE
    peg_to(m, 0, 121)
    m.next_game()
    assert m.next_dealer == 0  # (its game was dealt by Blue: Red next)
