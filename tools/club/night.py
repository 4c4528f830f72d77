"""A club night from its games (game messages, contract.py): each named player's results by
ACC game points, the standings, a player's games, the special hands and a game's race.

ACC game points (the rule sheets' README, /work/shared/rules): a win 2, a skunk 3 (the board
calls the result: a win by "skunk", "double skunk" or "lurch" is a skunk here), a loss 0. The
standings: game points, then games won, then the spread (points won by minus points lost by:
the winner's margin over the best other side, a loser's deficit to the winner; a score past
the game's end counts as the end, so a win is by at most target minus the loser's score).
Partners (four and six players) each get their side's result. A seat the board did not name
counts for nobody (the game is still kept and shown).
"""

import datetime
import time

import hostenv  # noqa: F401  (firmware/ on sys.path)
from publish.contract import NIGHT

from .contract import BadMessage

ENDS = 6  # a night's games go on past midnight: until this hour (local time) it is still
# the night before's (a club night of 19:00 to 01:00 is one night, not two)
WIN_POINTS = 2
SKUNK_POINTS = 3
LATE = 400  # days: the oldest night a game may carry, before the night it arrived on
EARLY = 1  # days: a night after the arrival's (another time zone, a clock a little ahead)


def tonight(t=None):
    """The club night at time t (seconds since the epoch; None: now), by the local clock: its
    date, the hours before ENDS counting for the night before. The night the club tells its
    boards (says.py) and files a game without one in."""
    t = time.time() if t is None else t
    return time.strftime("%Y-%m-%d", time.localtime(t - ENDS * 3600))


def carried(msg, arrived):
    """The night a game counts in: the one it carries (its NIGHT, firmware/publish/
    contract.py: the night it was played, signed with it), else the night it arrived on.
    A game that arrives a week late (its club offline) so counts in its own night. A carried
    night that is no date, or more than EARLY days after the arrival's or LATE before it,
    is refused (BadMessage): it would file the game in a season it was never played in."""
    n = msg.get(NIGHT)
    if n is None:
        return arrived
    try:
        d = datetime.date.fromisoformat(n)
        a = datetime.date.fromisoformat(arrived)
    except (TypeError, ValueError):
        raise BadMessage("night: %r is not a date (YYYY-MM-DD)" % (str(n)[:40],)) from None
    if not -LATE <= (d - a).days <= EARLY:
        raise BadMessage("night: %s is not within %d days before, or %d after, the night it "
                         "arrived on (%s)" % (n, LATE, EARLY, arrived))
    return n


def results(msg):
    """The named players' results in one game: a list of dicts name, side, score, won, points
    (game points), spread, opponents (the other sides' names), in seat order."""
    game = msg["game"]
    target = game["target"]
    sides = game["by_side"]
    capped = [min(s["score"], target) for s in sides]
    names = [[] for _ in sides]
    for seat in msg["seats"]:
        names[seat["side"]].append(seat["name"])
    out = []
    for seat in msg["seats"]:
        name = seat["name"]
        if name is None:
            continue
        k = seat["side"]
        won = game["winner"] == k
        best_other = max(c for j, c in enumerate(capped) if j != k)
        points = 0
        if won:
            points = WIN_POINTS if game["result"] == "win" else SKUNK_POINTS
        opponents = [n for j, ns in enumerate(names) if j != k for n in ns if n]
        out.append({"name": name, "side": k, "score": sides[k]["score"], "won": won,
                    "points": points, "spread": capped[k] - best_other,
                    "opponents": opponents, "result": game["result"]})
    return out


def standings(games):
    """The standings of these games: a list of rows (dicts) place, name, games, won, points,
    spread, best first (game points, games won, spread); tied rows share a place."""
    rows = {}
    for msg in games:
        for r in results(msg):
            row = rows.setdefault(r["name"], {"name": r["name"], "games": 0, "won": 0,
                                              "points": 0, "spread": 0})
            row["games"] += 1
            row["won"] += r["won"]
            row["points"] += r["points"]
            row["spread"] += r["spread"]
    order = sorted(rows.values(),
                   key=lambda r: (-r["points"], -r["won"], -r["spread"], r["name"].lower()))
    key = None
    place = 0
    for i, row in enumerate(order):
        k = (row["points"], row["won"], row["spread"])
        if k != key:
            place = i + 1
            key = k
        row["place"] = place
    return order


def player_games(games, name):
    """One player's games: (message, their result) pairs, oldest first."""
    out = []
    for msg in games:
        for r in results(msg):
            if r["name"] == name:
                out.append((msg, r))
    return out


def side_names(msg, k):
    """The names at side k's seats (unnamed seats as the board's colour and seat number)."""
    out = []
    for i, seat in enumerate(msg["seats"]):
        if seat["side"] == k:
            out.append(seat["name"] or "%s seat %d" % (msg["game"]["by_side"][k]["name"], i + 1))
    return out


def special_hands(games):
    """The 28s and 29s the boards saw (their summaries count them, hands and cribs): a list
    of dicts id, board, names (the side's), n28, n29, received."""
    out = []
    for msg in games:
        for s in msg["game"]["by_side"]:
            n28 = s.get("n28") or 0
            n29 = s.get("n29") or 0
            if n28 or n29:
                out.append({"id": msg["id"], "board": msg["board"],
                            "names": side_names(msg, s["side"]), "n28": n28, "n29": n29,
                            "received": msg.get("received")})
    return out


def race(msg):
    """Each side's score after each deal (the summary's deals: hand, play, pegged by hand,
    penalties and muggins taken of each side, the crib and his heels to the dealer's side),
    from 0: a list per side. The last point is the final score (deals past the summary's
    detail, and a game with no summary, go straight there)."""
    game = msg["game"]
    sides = game["sides"]
    side_of = [seat["side"] for seat in msg["seats"]]
    runs = [[0] for _ in range(sides)]
    for d in game.get("by_deal") or ():
        dealer = side_of[d["dealer"]] if 0 <= d["dealer"] < len(side_of) else -1
        for k in range(sides):
            s = d["by_side"][k]
            got = 0
            for col in ("hand", "play", "pegged", "penalties", "muggins_taken"):
                got += s.get(col) or 0
            if k == dealer:
                got += (d.get("crib") or 0) + (d.get("heels") or 0)
            runs[k].append(runs[k][-1] + got)
    for k in range(sides):
        final = game["by_side"][k]["score"]
        if runs[k][-1] != final:
            runs[k].append(final)
    n = max(len(r) for r in runs)
    for r in runs:
        while len(r) < n:
            r.append(r[-1])
    return runs
