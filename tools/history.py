"""The board's history of finished games: read it, print it, write it as CSV or JSON.

    python tools/history.py                      # the simulator's (.sim/history)
    python tools/history.py --storage DIR        # a simulator folder (tools/sim.py --storage)
    python tools/history.py --file FILE          # a copy of the file
    python tools/history.py --board [--port P]   # from a board, over mpremote (/data/history)
    ... --csv games.csv --json games.json        # also write them ("-": standard output)

Prints one line a game (oldest first: result, final scores, and each side's hand, crib and
play points) and the statistics of each side (board/stats.py, as the board's menu shows them).
The CSV has a row per game and side (GAME_COLUMNS then SIDE_COLUMNS); the JSON a list of
games, each with GAME_COLUMNS, its sides (by_side) and, with the game's summary, its deals
(by_deal). The file's format is board/history.py's (records) and cribbage/summary.py's (the
summary in them).
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

from hostenv import ROOT  # (firmware/ on sys.path)
from board import history as H
from board import stats
from board.screen import SIDE_NAMES
from cribbage import summary as S
from cribbage.events import WIN, SKUNK, DOUBLE_SKUNK, LURCH

SIM_FOLDER = os.path.join(ROOT, ".sim")
BOARD_FILE = "/data/history"  # where the board keeps it (board/boot.py's /data)
RESULTS = {WIN: "win", SKUNK: "skunk", DOUBLE_SKUNK: "double skunk", LURCH: "lurch"}
GAME_COLUMNS = ("game", "version", "players", "sides", "target", "result", "winner", "deals",
                "serial", "muggins", "summary")
SIDE_COLUMNS = ("side", "name", "score", "won", "hands", "hand", "cribs", "crib", "play",
                "heels", "pegged", "penalties", "muggins_taken", "best", "n28", "n29")
# the summary's totals, by SIDE_COLUMNS' name
TOTALS = {"hands": S.T_HANDS, "hand": S.T_HAND, "cribs": S.T_CRIBS, "crib": S.T_CRIB,
          "play": S.T_PLAY, "heels": S.T_HEELS, "pegged": S.T_PEG, "penalties": S.T_PENALTY,
          "muggins_taken": S.T_MUGGINS, "best": S.T_BEST}


class _Keep:
    """history.walk()'s out: keeps each record."""

    def __init__(self):
        self.records = []

    def write(self, r):
        self.records.append(bytes(r))


def records(data):
    """The good records of a history file's bytes, oldest first (bad ones skipped)."""
    keep = _Keep()
    H.walk(keep, io.BytesIO(data))
    return keep.records


def decode(r, number):
    """One record as a dict: GAME_COLUMNS, "by_side" (a dict of SIDE_COLUMNS each) and
    "by_deal" (with the summary: dealer, heels, crib and per side hand, play, pegged,
    penalties, muggins_taken; hand and crib None when not shown)."""
    if r[0] == 1:  # version 1: 0 version, 1 players, 2 target, 3 result, 4 winner, 5 deals,
        p = r[1]   # 6-11 scores, 12-13 serial
        game = dict(version=1, players=p, sides=2 if p == 4 else 3 if p == 6 else p,
                    target=r[2], result=r[3], winner=r[4], deals=r[5],
                    serial=r[12] | r[13] << 8, muggins=None, summary=False)
        scores = r[6:6 + game["sides"]]
    else:
        game = dict(version=2, players=r[3], sides=r[4], target=r[5], result=r[6],
                    winner=r[7], deals=r[8], serial=r[9] | r[10] << 8,
                    muggins=bool(r[11] & H.MUGGINS_ON), summary=bool(r[11] & H.SUMMARY))
        scores = r[H.HEAD:H.HEAD + r[4]]
    game = dict(game=number, **game)
    game["result"] = RESULTS.get(game["result"], game["result"])
    n = game["sides"]
    body = H.HEAD + n  # the summary: deals detailed, per side totals, the deals
    sides = []
    for k in range(n):
        side = dict(side=k, name=SIDE_NAMES[k], score=scores[k], won=game["winner"] == k)
        for col in SIDE_COLUMNS[4:]:
            side[col] = None
        if game["summary"]:
            t = body + 1 + S.TOTALS * k
            for col, f in TOTALS.items():
                side[col] = r[t + f]
            side["n28"] = r[t + S.T_2829] & 15
            side["n29"] = r[t + S.T_2829] >> 4
        sides.append(side)
    game["by_side"] = sides
    game["by_deal"] = []
    if game["summary"]:
        for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(r, body, n):
            game["by_deal"].append(dict(
                dealer=dealer, heels=heels, crib=None if crib == S.NONE else crib,
                by_side=[dict(hand=None if hands[k] == S.NONE else hands[k], play=plays[k],
                            pegged=pegs[k], penalties=pens[k], muggins_taken=mugs[k])
                       for k in range(n)]))
    return game


def games(data):
    """Every good record of the file's bytes, decoded, oldest first (numbered from 1)."""
    return [decode(r, i + 1) for i, r in enumerate(records(data))]


def csv_rows(gs):
    """The CSV: a header, then a row per game and side."""
    out = [list(GAME_COLUMNS) + list(SIDE_COLUMNS)]
    for g in gs:
        head = [g[c] for c in GAME_COLUMNS]
        for s in g["by_side"]:
            out.append(head + ["" if s[c] is None else s[c] for c in SIDE_COLUMNS])
    return out


def table(gs):
    """The printed lines: a game a line, each side as name score (hand/crib/play)."""
    out = []
    for g in gs:
        parts = []
        for s in g["by_side"]:
            detail = (" (%d/%d/%d)" % (s["hand"], s["crib"], s["play"] + s["pegged"])
                      if g["summary"] else "")
            parts.append("%s %d%s%s" % (s["name"], s["score"], "*" if s["won"] else "", detail))
        out.append("%3d  %d players to %d, %s in %d deals: %s" % (
            g["game"], g["players"], g["target"], g["result"], g["deals"], ", ".join(parts)))
    return out


class _Dir:
    """A board.storage.Storage stand-in over a history file's bytes (for board/stats.py)."""

    def __init__(self, data):
        self.data = data

    def open(self, name):
        return io.BytesIO(self.data) if name == "history" and self.data else None


def stats_lines(data):
    """The statistics, as the board's display shows them (board/stats.py), side by side."""
    t = stats.tally(_Dir(data))
    out = []
    for side in range(len(t)):
        out.extend(stats.lines(t, side))
    return out


def from_board(port):
    """The board's history file, copied over mpremote (b"" when the board has none)."""
    from flash import connect, mpremote, explain  # (the one place mpremote is called from)

    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, "history")
        r = subprocess.run([mpremote(), *connect(port), "fs", "cp", ":" + BOARD_FILE, local],
                           capture_output=True, text=True)
        if r.returncode:
            if "ENOENT" in r.stderr + r.stdout or "No such file" in r.stderr + r.stdout:
                return b""
            raise SystemExit("history.py: " + explain(port, r.stderr + r.stdout))
        with open(local, "rb") as f:
            return f.read()


def write_to(path, text):
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w", newline="") as f:
            f.write(text)


def main(argv):
    ap = argparse.ArgumentParser(prog="history.py", description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--storage", metavar="DIR", help="a simulator folder (default .sim/)")
    where.add_argument("--file", metavar="FILE", help="a copy of the history file")
    where.add_argument("--board", action="store_true", help="read it from a board (mpremote)")
    ap.add_argument("--port", help="the board's serial port (default: mpremote's auto)")
    ap.add_argument("--csv", metavar="FILE", help="write a row per game and side ('-': stdout)")
    ap.add_argument("--json", metavar="FILE", help="write the games as JSON ('-': stdout)")
    a = ap.parse_args(argv)
    if a.board:
        data = from_board(a.port)
    else:
        path = a.file or os.path.join(a.storage or SIM_FOLDER, "history")
        if not os.path.exists(path):
            sys.stderr.write("history.py: no history at %s (a game is recorded when OK starts "
                             "the next one)\n" % path)
            return 1
        with open(path, "rb") as f:
            data = f.read()
    gs = games(data)
    if a.csv:
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(csv_rows(gs))
        write_to(a.csv, text.getvalue())
    if a.json:
        write_to(a.json, json.dumps(gs, indent=1) + "\n")
    if "-" not in (a.csv, a.json):
        print("%d games (%d bytes)" % (len(gs), len(data)))
        for line in table(gs) + [""] + stats_lines(data):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
