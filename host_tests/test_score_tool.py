"""tools/score.py end to end, as a user runs it."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score.py"), *args],
                          capture_output=True, text=True)


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
    r = run("5H", "5C", "5S", "JD")
    assert r.returncode == 2 and "got 4 cards" in r.stderr
    r = run("5H", "5C", "5S", "JD", "5H")
    assert r.returncode == 2 and "duplicate" in r.stderr
