"""tools/bench/publish_lag.py, the measurement of what the club's publisher costs the game (a key to
its frame), still runs: it is no test of speed (real time), but a tool nothing else runs broke
once unnoticed (the app's run() it called had become board/tasks.py's tasks())."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.slow  # (~60 s: seven cases, each its board's page up first)


def test_publish_lag_runs_every_case_and_times_every_key():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "publish_lag.py"),
                        "2"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {}
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) == 5 and w[0] in ("off", "up", "down", "hole", "slow", "midgame", "waiting"):
            rows[w[0]] = w
    cases = {"off", "down", "hole", "midgame", "waiting"} | (
        {"up", "slow"} if "no Mosquitto" not in r.stdout else set())
    assert set(rows) == cases, r.stdout
    for w in rows.values():  # median <= p95 <= max, each a key's time in ms
        assert 0 < float(w[1]) <= float(w[2]) <= float(w[3]), r.stdout
    assert rows["off"][4] == "off"  # no broker named: no publisher
    # an update ordered mid-game waits for the game's end through every key (issue 31)
    assert rows["midgame"][4] == "none" and rows["waiting"][4] == "waiting"
