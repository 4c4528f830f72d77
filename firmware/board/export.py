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
# the summary's totals, by SIDE_COLUMNS' name
TOTALS = (("hands", S.T_HANDS), ("hand", S.T_HAND), ("cribs", S.T_CRIBS), ("crib", S.T_CRIB),
          ("play", S.T_PLAY), ("heels", S.T_HEELS), ("pegged", S.T_PEG),
          ("penalties", S.T_PENALTY), ("muggins_taken", S.T_MUGGINS), ("best", S.T_BEST))


def decode(r, number):
    """One record as a dict: GAME_COLUMNS, "by_side" (a dict of SIDE_COLUMNS each) and
    "by_deal" (with the summary: dealer, heels, crib and per side hand, play, pegged,
    penalties, muggins_taken; hand and crib None when not shown)."""
    if r[0] == 1:  # version 1: 0 version, 1 players, 2 target, 3 result, 4 winner, 5 deals,
        p = r[1]   # 6-11 scores, 12-13 serial
        n = 2 if p == 4 else 3 if p == 6 else p
        game = {"version": 1, "players": p, "sides": n, "target": r[2], "result": r[3],
                "winner": r[4], "deals": r[5], "serial": r[12] | r[13] << 8,
                "muggins": None, "summary": False}
        scores = r[6:6 + n]
    else:
        n = r[4]
        game = {"version": 2, "players": r[3], "sides": n, "target": r[5], "result": r[6],
                "winner": r[7], "deals": r[8], "serial": r[9] | r[10] << 8,
                "muggins": bool(r[11] & H.MUGGINS_ON), "summary": bool(r[11] & H.SUMMARY)}
        scores = r[H.HEAD:H.HEAD + n]
    game["game"] = number
    res = game["result"]
    game["result"] = RESULTS[res] if 1 <= res < len(RESULTS) else res
    body = H.HEAD + n  # the summary: deals detailed, per side totals, the deals
    sides = []
    for k in range(n):
        side = {"side": k, "name": SIDE_NAMES[k], "score": scores[k],
                "won": game["winner"] == k}
        for col in SIDE_COLUMNS[4:]:
            side[col] = None
        if game["summary"]:
            t = body + 1 + S.TOTALS * k
            for col, f in TOTALS:
                side[col] = r[t + f]
            side["n28"] = r[t + S.T_2829] & 15
            side["n29"] = r[t + S.T_2829] >> 4
        sides.append(side)
    game["by_side"] = sides
    deals = game["by_deal"] = []
    if game["summary"]:
        for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(r, body, n):
            each = []
            for k in range(n):
                each.append({"hand": None if hands[k] == S.NONE else hands[k],
                             "play": plays[k], "pegged": pegs[k], "penalties": pens[k],
                             "muggins_taken": mugs[k]})
            deals.append({"dealer": dealer, "heels": heels,
                          "crib": None if crib == S.NONE else crib, "by_side": each})
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
