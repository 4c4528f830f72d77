"""A board that lasts (issue 9): hundreds of games in a row on the board app, in the real
MicroPython binary, with tools/bench/mp_soak.py (how it drives the games is in its header).

The firmware runs from .mpy files as `make build` makes them (tools/build.build, with the fake
board: host=True, as test_board_mp.py does), imported from the tree's root as a board imports
them, in the heap of tools/budgets.py ("soak": 15 % over the smallest heap 500 games ran in,
from two checkout paths). Below that the heap, fragmented by hundreds of games, sooner or
later cannot give a block of 600-1300 bytes (the match's attribute table, the save's pieces):
at 120k before the first game ends, at 124k by game 90, at 128k by game 205 (mp_soak.py's
header says more). SOAK_HEAP in the environment overrides it.

GAMES games, in blocks of 50 at 2, 3, 4, 5, 6, ... players (set through the board's menu; the
last block at 2 players like game 1), every deal entered by cards, +1 buttons or numbers.
The run must end with its SOAK line (no MemoryError, no crash, no refused key), and:

* save:  the saved game after the last game <= SAVE_RATIO x after game 1 + SAVE_SLACK bytes
  (games differ by a hundred bytes or so; a journal of every game grew ~175 bytes a game);
* load:  not timed here (the SOAK line reports loads() and boot times, for `make soak` and
  `make bench`): a timing fails on a busy machine (with the load average at 9, a boot took
  7.7 ms at game 500 against 0.6 ms at game 1, by the scheduler alone), and what makes
  loading slower is a save that grows, which "save" bounds;
* heap:  the live heap (gc.mem_alloc() after gc.collect()) after the last game <= after game 1
  + HEAP_SLACK bytes;
* the same bounds between the checkpoints with the same number of players (every 50 games);
* every replay check true: after each game the saved file is m.dumps() and
  loads(saved).state() == m.state(); each reboot's state equals the running one's; each undo
  then redo gives back the same state.
"""

import os
import subprocess

import pytest

import budgets  # tools/budgets.py
import build  # tools/maker/build.py
from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")
SOAK = os.path.join(ROOT, "tools", "bench", "mp_soak.py")
HEAP = os.environ.get("SOAK_HEAP") or budgets.heap("soak")
GAMES = 500  # ~15 s here
EVERY = 50
SAVE_RATIO, SAVE_SLACK = 1.5, 200  # bytes
HEAP_SLACK = 2048  # bytes


def kib(heap):
    """ "120k" -> 120, "2m" -> 2048."""
    return int(heap[:-1]) * (1024 if heap[-1] in "mM" else 1)


def pairs(line):
    """ "NAME k1 v1 k2 v2 ..." -> {k1: v1, ...} (ints where they are)."""
    w = line.split()[1:]
    return {k: int(v) if v.lstrip("-").isdigit() else v for k, v in zip(w[::2], w[1::2])}


def soak(tree, games, every, heap):
    env = dict(os.environ, MICROPYPATH=".", SOAK_CHILD="test")  # no re-run in another heap
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap, SOAK,
                        str(games), str(every)],
                       capture_output=True, text=True, env=env, cwd=tree, timeout=600)
    lines = p.stdout.splitlines()
    return {"rc": p.returncode, "out": p.stdout + p.stderr,
            "checks": [pairs(x) for x in lines if x.startswith("CHECK ")],
            "soak": [pairs(x) for x in lines if x.startswith("SOAK ")],
            "bad": [x for x in lines if x.startswith(("BAD", "SOAK_FAIL"))]}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("soak")
    build.build("esp32", os.path.join(ROOT, "firmware"), str(out), host=True)  # + fake
    return soak(str(out / "esp32"), GAMES, EVERY, HEAP)


def closing(run):
    assert run["rc"] == 0 and len(run["soak"]) == 1, run["out"][-3000:]
    return run["soak"][0]


def test_hundreds_of_games_without_a_crash(run):
    s = closing(run)
    assert s["games"] == GAMES
    assert s["deals"] > 7 * GAMES  # real games to 121, not stubs
    assert s["heap_size"] <= kib(HEAP) * 1024  # it did run in the heap it was given
    assert {c["players"] for c in run["checks"]} == {2, 3, 4, 5, 6}


def test_every_replay_check_holds(run):
    s = closing(run)
    assert not run["bad"], run["bad"]
    assert s["ok"] == "True"
    assert all(c["bad"] == 0 for c in run["checks"])


def test_the_save_does_not_grow(run):
    s = closing(run)
    assert s["save_last"] <= SAVE_RATIO * s["save_first"] + SAVE_SLACK, s


def test_the_live_heap_does_not_grow(run):
    s = closing(run)
    assert s["heap_last"] <= s["heap_first"] + HEAP_SLACK, s


def test_same_players_same_bounds(run):
    """The checkpoints (every 50 games) with the same number of players, first against last."""
    closing(run)
    by = {}
    for c in run["checks"]:
        by.setdefault(c["players"], []).append(c)
    for p, cs in by.items():
        a, b = cs[0], cs[-1]
        assert b["save"] <= SAVE_RATIO * a["save"] + SAVE_SLACK, (p, a, b)
        assert b["heap"] <= a["heap"] + HEAP_SLACK, (p, a, b)
