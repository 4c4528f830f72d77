"""tools/player/score.py end to end, as a user runs it."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "player", "score.py"),
                           *args], capture_output=True, text=True)


def test_perfect_hand():
    r = run("5H", "5C", "5S", "JD", "5D")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("total 29")
    assert "one for his nobs is twenty-nine" in r.stdout
    assert r.stdout.count("fifteen") >= 8


def test_crib_flag_drops_four_card_flush():
    assert run("2H", "4H", "6H", "8H", "QC").stdout.strip().endswith("total 4")
    assert run("2H", "4H", "6H", "8H", "QC", "--crib").stdout.strip().endswith("total 0")


def test_bad_card_is_one_line_and_status_2():
    r = run("5H", "5X", "5S", "JD", "5D")
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "'5X'" in r.stderr


def test_wrong_count_and_duplicates():
    r = run("5H", "5C", "5S")  # (four are a five-card game's hand: below)
    assert r.returncode == 2 and "got 3 cards" in r.stderr
    r = run("5H", "5C", "5S", "JD", "5D", "AS")
    assert r.returncode == 2 and "got 6 cards" in r.stderr
    r = run("5H", "5C", "5S", "JD", "5H")
    assert r.returncode == 2 and "duplicate" in r.stderr


def test_help_says_what_it_takes():
    r = run("--help")
    assert r.returncode == 0 and r.stderr == ""
    assert "--crib" in r.stdout and "five-card" in r.stdout and "starter" in r.stdout


def test_a_five_card_games_hand_is_three_cards_and_the_starter():
    """Issue 35.17: three hand cards and the starter, scored as the core scores a hand of
    five-card cribbage (score.hand): the flush of three, his nobs, the 20 of four fives."""
    r = run("5H", "5C", "5S", "5D")
    assert r.returncode == 0, r.stderr
    assert "five-card" in r.stdout and r.stdout.strip().endswith("total 20")
    r = run("JH", "4H", "6H", "5S")  # 15 two, 15 four, a run of 3, a flush of 3 (no nobs)
    assert r.stdout.strip().endswith("total 10"), r.stdout
    r = run("JS", "4H", "6H", "5S")  # his nobs, no flush
    assert "nobs" in r.stdout and r.stdout.strip().endswith("total 8"), r.stdout


def test_three_card_totals_are_the_cores(tmp_path):
    import random

    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from cribbage import cards, score

    rng = random.Random(35)
    for _ in range(12):
        dealt = rng.sample(range(52), 4)
        r = run(*(cards.fmt(c) for c in dealt))
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip().endswith("total %d" % score.hand(dealt[:3], dealt[3]))


def test_a_crib_is_four_cards_and_the_starter():
    r = run("5H", "5C", "5S", "5D", "--crib")
    assert r.returncode == 2 and "a crib is 4 cards" in r.stderr
