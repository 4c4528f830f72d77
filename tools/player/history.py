"""The board's history of finished games: read it, print it, write it as CSV or JSON.

    python tools/player/history.py                      # the simulator's (.sim/history)
    python tools/player/history.py --storage DIR   # a simulator folder (tools/sim --storage)
    python tools/player/history.py --file FILE          # a copy of the file
    python tools/player/history.py --board [--port P]  # from a board, by mpremote (/data/history)
    ... --csv games.csv --json games.json        # also write them ("-": standard output)
    python tools/player/history.py --legend             # what every CSV and JSON column means

Prints one line a game (oldest first: result, final scores, and each side's hand, crib and
play points, as its legend line says) and the statistics of each side (board/stats.py, as the
board's menu shows them), then where it wrote each file. The CSV has a row per game and side
(CSV_COLUMNS: GAME_COLUMNS, SIDE_COLUMNS, then cards); the JSON a list of games, each with
GAME_COLUMNS (and cards: 5 for a five-card game), its sides (by_side) and, with the game's
summary, its deals (by_deal): LEGEND says what each column means. The file's format is
board/history.py's (records) and cribbage/summary.py's (the summary in them).
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT  # (firmware/ on sys.path)
from board import history as H
from board import stats
from board import export
from board.export import (GAME_COLUMNS, SIDE_COLUMNS, CSV_COLUMNS,  # noqa: F401  (tests
                          decode)  # use them)
from board.screen import RESULTS, SIDE_NAMES

SIM_FOLDER = os.path.join(ROOT, ".sim")
BOARD_FILE = "/data/history"  # where the board keeps it (board/boot.py's /data)

_SIDES = ", ".join("%d %s" % (k, n) for k, n in enumerate(SIDE_NAMES))
# What each column of the CSV (and key of the JSON) means: GAME_COLUMNS, then SIDE_COLUMNS
# (a test checks that board/export.py has no column without a line here), then cards (the
# CSV's last), then the JSON's own.
LEGEND = (
    ("game", "the game's number in the file, oldest first, from 1"),
    ("version", "the record's format: 2, or 1 (earlier firmware: result and scores only)"),
    ("players", "players, 2 to 6"),
    ("sides", "sides that peg (partners share one: 4 players make 2)"),
    ("target", "the game's length in holes: 121 or 61"),
    ("result", "how it was won: " + ", ".join(r for r in RESULTS if r)),
    ("winner", "the winning side's number (%s)" % _SIDES),
    ("deals", "deals played"),
    ("serial", "games won by all sides after this game (low 16 bits): tells games apart"),
    ("muggins", "muggins was on (empty: a version 1 record does not say)"),
    ("summary", "the record holds the game's points by why (the columns from hands on; "
     "without it they are empty)"),
    ("side", "the side's number (%s)" % _SIDES),
    ("name", "the side's colour, as the board names it"),
    ("score", "its final score"),
    ("won", "True for the winner"),
    ("hands", "hands it showed"),
    ("hand", "points from its hands"),
    ("cribs", "cribs it showed"),
    ("crib", "points from its cribs"),
    ("play", "points in the play (pairs, runs, 15s, 31s, go, last card)"),
    ("heels", "points for his heels (the dealer's jack turned as starter)"),
    ("pegged", "points pegged by hand (a number typed, or a +1 button), not from cards"),
    ("penalties", "points it was given for another side's penalty"),
    ("muggins_taken", "points it took from another side's short count (muggins)"),
    ("best", "its best hand or crib, in points (as claimed)"),
    ("n28", "hands or cribs of 28 it showed"),
    ("n29", "hands or cribs of 29 it showed"),
    ("cards", "cards dealt each player: 6, or 5 for five-card cribbage (the CSV's last "
     "column; the JSON has it for five-card games only)"),
    ("by_side", "(JSON) a game's sides, each with the side columns"),
    ("by_deal", "(JSON, with the summary) its deals, the first 40: dealer (seat), heels, "
     "crib, and by_side each side's hand, play, pegged, penalties, muggins_taken (hand and "
     "crib null when not shown)"),
)
TABLE_LEGEND = ("a game a line: number, players, game, result, deals, then each side's "
                "final score (* the winner) and (hand/crib/play) points, +N pegged: "
                "points pegged by hand")


def legend_lines():
    """LEGEND as aligned lines: column, what it means."""
    w = max(len(c) for c, _t in LEGEND)
    return ["%-*s  %s" % (w, c, t) for c, t in LEGEND]


class _Keep:
    """What history.walk() writes each record to: keeps them."""

    def __init__(self):
        self.records = []

    def write(self, r):
        if not H.undone(r):  # (a game undone past its end: not counted)
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
    out = [list(CSV_COLUMNS)]
    for g in gs:
        out.extend(export.csv_rows(g, True))
    return out


def table(gs):
    """The printed lines: a game a line, each side as name score (hand/crib/play), and
    +N pegged: the points it pegged by hand (not the play's: "play" as the CSV and the club
    mean it)."""
    out = []
    for g in gs:
        parts = []
        for s in g["by_side"]:
            detail = (" (%d/%d/%d%s)" % (s["hand"], s["crib"], s["play"],
                                          " +%d pegged" % s["pegged"] if s["pegged"] else "")
                      if g["summary"] else "")
            parts.append("%s %d%s%s" % (s["name"], s["score"], "*" if s["won"] else "", detail))
        out.append("%3d  %d players to %d%s, %s in %d deals: %s" % (
            g["game"], g["players"], g["target"], " five-card" if g.get("cards") == 5 else "",
            g["result"], g["deals"], ", ".join(parts)))
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
    """Write text to the file path ("-": standard output); the line that says where it went
    (None for standard output)."""
    if path == "-":
        sys.stdout.write(text)
        return None
    with open(path, "w", newline="") as f:
        f.write(text)
    return os.path.abspath(path)


def main(argv):
    ap = argparse.ArgumentParser(prog="history.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="the CSV's and the JSON's columns:\n  "
                                 + "\n  ".join(legend_lines()))
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--storage", metavar="DIR", help="a simulator folder (default .sim/)")
    where.add_argument("--file", metavar="FILE", help="a copy of the history file")
    where.add_argument("--board", action="store_true", help="read it from a board (mpremote)")
    ap.add_argument("--port", help="the board's serial port (default: mpremote's auto)")
    ap.add_argument("--csv", metavar="FILE", help="write a row per game and side ('-': stdout)")
    ap.add_argument("--json", metavar="FILE", help="write the games as JSON ('-': stdout)")
    ap.add_argument("--legend", action="store_true",
                    help="print what every CSV and JSON column means, and stop")
    a = ap.parse_args(argv)
    if a.legend:
        print("\n".join(legend_lines()))
        return 0
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
    wrote = []
    if a.csv:
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(csv_rows(gs))
        wrote.append(("CSV, a row per game and side", write_to(a.csv, text.getvalue())))
    if a.json:
        wrote.append(("JSON", write_to(a.json, json.dumps(gs, indent=1) + "\n")))
    said = sys.stdout
    if "-" in (a.csv, a.json):
        said = sys.stderr  # standard output carries the data
    else:
        print("%d games (%d bytes)" % (len(gs), len(data)))
        for line in ["(%s)" % TABLE_LEGEND] + table(gs) + [""] + stats_lines(data):
            print(line)
    for what, path in wrote:
        if path:
            said.write("wrote %d game%s to %s (%s; --legend: its columns)\n"
                       % (len(gs), "" if len(gs) == 1 else "s", path, what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
