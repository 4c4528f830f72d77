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
from board import export
from board.export import GAME_COLUMNS, SIDE_COLUMNS, decode  # noqa: F401  (tests use them)

SIM_FOLDER = os.path.join(ROOT, ".sim")
BOARD_FILE = "/data/history"  # where the board keeps it (board/boot.py's /data)
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


def games(data):
    """Every good record of the file's bytes, decoded, oldest first (numbered from 1)."""
    return [decode(r, i + 1) for i, r in enumerate(records(data))]


def csv_rows(gs):
    """The CSV: a header, then a row per game and side (board/export.py's, as the page's)."""
    out = [list(GAME_COLUMNS) + list(SIDE_COLUMNS)]
    for g in gs:
        out.extend(export.csv_rows(g))
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
