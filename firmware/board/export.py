"""The history of finished games (board/history.py records) as CSV rows and JSON games: what
the live page offers for download (board/web.py, streamed a game at a time) and what
tools/history.py writes on a computer.

    decode(r, number)       # one record as a dict: GAME_COLUMNS, "by_side" (SIDE_COLUMNS each),
                            # "by_deal" (with the summary)
    csv_lines(store)        # the CSV's lines: a header, then a row per game and side
    json_chunks(store)      # a JSON list of the decoded games, a game at a time
"""

import json

from cribbage import summary as S
from board import history as H
from board.screen import RESULTS, SIDE_NAMES

GAME_COLUMNS = ("game", "version", "players", "sides", "target", "result", "winner", "deals",
                "serial", "muggins", "summary")
SIDE_COLUMNS = ("side", "name", "score", "won", "hands", "hand", "cribs", "crib", "play",
                "heels", "pegged", "penalties", "muggins_taken", "best", "n28", "n29")


def decode(r, number):
    """One record as a dict: GAME_COLUMNS, "by_side" (a dict of SIDE_COLUMNS each) and
    "by_deal" (with the summary: dealer, heels, crib and per side hand, play, pegged,
    penalties, muggins_taken; hand and crib None when not shown)."""
    h = H.head(r)
    game = {"game": number}
    for k in range(1, 10):  # version .. muggins: head()'s order
        game[GAME_COLUMNS[k]] = h[k - 1]
    n = h[2]
    at = h[9]  # the scores
    body = h[10]  # the summary (0: none): deals detailed, per side totals, the deals
    game["summary"] = body > 0
    if H.cards(r) == 5:  # five-card cribbage (six-card games: no key, as before)
        game["cards"] = 5
    res = game["result"]
    game["result"] = RESULTS[res] if 1 <= res < len(RESULTS) else res
    sides = []
    for k in range(n):
        side = {"side": k, "name": SIDE_NAMES[k], "score": r[at + k],
                "won": game["winner"] == k}
        for col in SIDE_COLUMNS[4:]:
            side[col] = None
        if body:
            for col, v in zip(SIDE_COLUMNS[4:], S.totals(r, body, n, k)):
                side[col] = v
        sides.append(side)
    game["by_side"] = sides
    deals = game["by_deal"] = []
    if body:
        for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(r, body, n):
            each = []
            for k in range(n):
                each.append({"hand": hands[k], "play": plays[k], "pegged": pegs[k],
                             "penalties": pens[k], "muggins_taken": mugs[k]})
            deals.append({"dealer": dealer, "heels": heels, "crib": crib, "by_side": each})
    return game


def records(f):
    """Each good record of the open history file f (None: no file), oldest first, read one
    at a time as board/history.py's walk() reads them."""
    at = [0]
    rec = None
    while f:
        rec = H._next(f, at, rec)
        if rec is None:
            return
        yield rec


def csv_rows(game):
    """A decoded game's CSV rows (lists of cells): one per side."""
    head = []
    for c in GAME_COLUMNS:
        head.append(game[c])
    out = []
    for s in game["by_side"]:
        row = list(head)
        for c in SIDE_COLUMNS:
            row.append("" if s[c] is None else s[c])
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
    yield ",".join(GAME_COLUMNS + SIDE_COLUMNS) + "\r\n"
    f = store.open("history")
    try:
        for k, r in enumerate(records(f), 1):
            for row in csv_rows(decode(r, k)):
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
