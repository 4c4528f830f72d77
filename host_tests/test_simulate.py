"""tools/sim/simulate.py: reproducible, sensible statistics, and clear argument errors."""

import json
import subprocess
import sys

import pytest

from sim import simulate


def run_json(*args):
    out = subprocess.run([sys.executable, "tools/sim/simulate.py", "--json", *args],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_same_seed_same_numbers_other_seed_other_numbers():
    a = run_json("--games", "30", "--players", "2", "--seed", "5")
    assert a == run_json("--games", "30", "--players", "2", "--seed", "5")
    b = run_json("--games", "30", "--players", "2", "--seed", "6")
    assert a["points per hand"] != b["points per hand"]
    assert a["games"] == 30 and a["strategy"] == "greedy,greedy"


def test_random_players_match_known_averages():
    # A random four-card hand with a random starter averages 4.77 points; a jack is the
    # starter one deal in 13; a two-player game lasts about a dozen random deals.
    s = simulate.summary(simulate.run(300, 2, 3, [0, 0]), 2)
    assert 4.4 < s["points per hand"] < 5.1
    assert 4.3 < s["points per crib"] < 5.2
    assert 0.05 < s["heels per deal"] < 0.11
    assert 10 < s["deals per game"] < 15
    assert 0.4 < s["first dealer's side wins"] < 0.7
    assert sum(s["results"].values()) == 300


def test_greedy_beats_random():
    greedy = simulate.summary(simulate.run(200, 2, 4, [2, 2]), 2)
    rnd = simulate.summary(simulate.run(200, 2, 4, [0, 0]), 2)
    assert greedy["points per hand"] > rnd["points per hand"] + 2
    assert greedy["play points per player per deal"] > rnd["play points per player per deal"]
    assert greedy["deals per game"] < rnd["deals per game"]
    # greedy against random, seat by seat: the greedy seat wins most games
    wins = simulate.summary(simulate.run(200, 2, 5, [2, 0]), 2)["wins by side"]
    assert wins[0] > 2 * wins[1] and sum(wins) == 200


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_variant_runs(players):
    s = run_json("--games", "10", "--players", str(players), "--strategy", "random")
    assert s["games"] == 10 and s["players"] == players
    assert s["deals per game min/median/max"][0] >= 3


def test_text_output_and_61_game():
    out = subprocess.run([sys.executable, "tools/sim/simulate.py", "--games", "20", "--target",
                          "61"], capture_output=True, text=True, check=True).stdout
    assert "first dealer's side wins" in out and "points per crib" in out
    s = run_json("--games", "40", "--target", "61", "--strategy", "random")
    assert set(s["results"]) <= {"win", "lurch"}


def test_five_card_games_match_known_averages():
    # --cards 5: a random three-card hand with a random starter averages 2.592 points (all
    # 1,082,900 of them counted: 2,807,256 points); the crib is four cards and the starter,
    # as a six-card hand (4.77; a little less: its flush only of five). Two players to 61:
    # a win or a lurch.
    s = simulate.summary(simulate.run(300, 2, 3, [0, 0], 61, cards=5), 2)
    assert 2.45 < s["points per hand"] < 2.75
    assert 4.3 < s["points per crib"] < 5.2
    assert 0.05 < s["heels per deal"] < 0.11
    assert set(s["results"]) <= {"win", "lurch"} and sum(s["results"].values()) == 300
    greedy = run_json("--games", "100", "--cards", "5")  # the advisor's throw of two of five
    assert greedy["points per hand"] > s["points per hand"] + 1.5
    assert (greedy["cards"], greedy["target"], greedy["players"]) == (5, 61, 2)
    assert "cards" not in run_json("--games", "5")  # six-card: the output as before


@pytest.mark.parametrize("args", [["--players", "7"], ["--strategy", "clever"],
                                  ["--strategy", "greedy,random,random"], ["--games", "0"],
                                  ["--cards", "5", "--players", "3"],
                                  ["--cards", "5", "--target", "121"], ["--cards", "4"]])
def test_bad_arguments(args):
    r = subprocess.run([sys.executable, "tools/sim/simulate.py", *args], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "error" in r.stderr
