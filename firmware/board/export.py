"""The history of finished games (board/history.py records) as CSV rows and JSON games: what
the live page offers for download (page/routes.py, streamed a game at a time) and what
tools/player/history.py writes on a computer.

    decode(r, number)       # one record as a dict: GAME_COLUMNS, "by_side" (SIDE_COLUMNS each),
                            # "by_deal" (with the summary); read by name: board/record.py
    csv_lines(store)        # the CSV's lines: a header (CSV_COLUMNS), then a row per game and
                            # side
    json_chunks(store)      # a JSON list of the decoded games, a game at a time
"""

import json

from board import history as H
from board.record import Record, TOTALS
from board.screen import RESULTS, SIDE_NAMES

GAME_COLUMNS = ("game", "version", "players", "sides", "target", "result", "winner", "deals",
                "serial", "muggins", "summary")
SIDE_COLUMNS = ("side", "name", "score", "won") + TOTALS
# The CSV's: the game's, the side's, then the cards dealt each player (6, or 5: five-card
# cribbage; last, so that the columns of earlier firmware's CSV keep their places)
CSV_COLUMNS = GAME_COLUMNS + SIDE_COLUMNS + ("cards",)


def decode(r, number):
    """One record as a dict: GAME_COLUMNS, "by_side" (a dict of SIDE_COLUMNS each) and
    "by_deal" (with the summary: dealer, heels, crib and per side hand, play, pegged,
    penalties, muggins_taken; hand and crib None when not shown)."""
    g = Record(r)
    game = {"game": number}
    for c in GAME_COLUMNS[1:]:
        game[c] = getattr(g, c)
    if g.cards == 5:  # five-card cribbage (six-card games: no key, as before)
        game["cards"] = 5
    res = g.result
    game["result"] = RESULTS[res] if 1 <= res < len(RESULTS) else res
    n = g.sides
    sides = []
    for k in range(n):
        side = {"side": k, "name": SIDE_NAMES[k], "score": g.score(k), "won": g.winner == k}
        g.side(k)
        for c in TOTALS:
            side[c] = getattr(g, c)
        sides.append(side)
    game["by_side"] = sides
    deals = game["by_deal"] = []
    for dealer, heels, crib, hands, plays, pegs, pens, mugs in g.rows():
        each = []
        for k in range(n):
            each.append({"hand": hands[k], "play": plays[k], "pegged": pegs[k],
                         "penalties": pens[k], "muggins_taken": mugs[k]})
        deals.append({"dealer": dealer, "heels": heels, "crib": crib, "by_side": each})
    return game


def records(f):
    """Each good record of the open history file f (None: no file), oldest first, read one
    at a time as board/history.py's walk() reads them; a game undone past its end (H.undone)
    is left out."""
    at = [0]
    rec = None
    while f:
        rec = H.read(f, at, rec)
        if rec is None:
            return
        if not H.undone(rec):
            yield rec


def csv_rows(game, cards=False):
    """A decoded game's CSV rows (lists of cells): one per side, GAME_COLUMNS and
    SIDE_COLUMNS (cards: and the cards dealt, CSV_COLUMNS)."""
    head = []
    for c in GAME_COLUMNS:
        head.append(game[c])
    out = []
    for s in game["by_side"]:
        row = list(head)
        for c in SIDE_COLUMNS:
            row.append("" if s[c] is None else s[c])
        if cards:
            row.append(game.get("cards", 6))
        out.append(row)
    return out


def _cell(v):
    if v is True or v is False:
        return "True" if v else "False"
    v = str(v)
    if "," in v or '"' in v:
        return '"%s"' % v.replace('"', '""')
    return v


def csv_lines(store):
    """The history as CSV text, a line at a time (a header, then a row per game and side)."""
    yield ",".join(CSV_COLUMNS) + "\r\n"
    f = store.open("history")
    try:
        for k, r in enumerate(records(f), 1):
            for row in csv_rows(decode(r, k), True):
                cells = []
                for v in row:
                    cells.append(_cell(v))
                yield ",".join(cells) + "\r\n"
    finally:
        if f:
            f.close()


def json_chunks(store):
    """The history as a JSON list of decoded games, a game at a time."""
    yield "["
    f = store.open("history")
    try:
        for k, r in enumerate(records(f), 1):
            yield ("," if k > 1 else "") + json.dumps(decode(r, k))
    finally:
        if f:
            f.close()
    yield "]"
