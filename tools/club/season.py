"""A season at the club (issue 36): nights kept apart and together, standings by the ACC's
Grass Roots way (docs/club.md, "A season"), a player's season, the secretary's CSV.

A season is a name and either a range of nights (first..last, YYYY-MM-DD, both kept) or a
list of nights the director chose (store.py's seasons table; `python -m club season add`).
With none set, each year is a season named by the year ("2026": every night of 2026).

A night's results are night.py's (ACC game points: 2 a win, 3 a skunk). A player whose game
points in one night reach QUALIFY earns Grass Roots points (GRPs) for that night: grp(points)
below, the one table to change if the club's charter says otherwise. The season's standings:
GRPs, then nights qualified, then game points, games won, spread.
"""

from . import night

QUALIFY = 12          # game points in one night that earn GRPs (ACC Grass Roots)
GAMES_A_NIGHT = 9     # a Grass Roots night's games (the page says when a player played more)


def grp(points):
    """Grass Roots points for a night's game points (assumed table, docs/club.md): nothing
    under QUALIFY, then one for QUALIFY and one more for each game point above it."""
    return 0 if points < QUALIFY else points - QUALIFY + 1


def default_seasons(nights):
    """A season per year of these nights: [{"name": "2026", "first": "2026-01-01", ...}]."""
    years = sorted({n[:4] for n in nights if len(n) >= 4 and n[:4].isdigit()}, reverse=True)
    return [{"name": y, "first": y + "-01-01", "last": y + "-12-31", "nights": None}
            for y in years]


def nights_of(season, nights):
    """The nights (of those given) that are in the season, oldest first."""
    if season.get("nights"):
        chosen = set(season["nights"])
        return sorted(n for n in nights if n in chosen)
    return sorted(n for n in nights if season["first"] <= n <= season["last"])


def of_season(season, games):
    """The games played on the season's nights (each game has its "night")."""
    keep = set(nights_of(season, {g["night"] for g in games}))
    return [g for g in games if g["night"] in keep]


def by_night(games):
    """{night: [games]} in the games' order."""
    out = {}
    for g in games:
        out.setdefault(g["night"], []).append(g)
    return out


def standings(games):
    """The season's standings from its games: rows (dicts) place, name, grp, qualified
    (nights with QUALIFY or more), nights, games, won, points, spread, specials (28s and
    29s), best first; tied rows share a place."""
    rows = {}
    for _, gs in sorted(by_night(games).items()):
        for r in night.standings(gs):
            row = rows.setdefault(r["name"], {"name": r["name"], "grp": 0, "qualified": 0,
                                              "nights": 0, "games": 0, "won": 0, "points": 0,
                                              "spread": 0, "specials": 0})
            row["nights"] += 1
            for k in ("games", "won", "points", "spread"):
                row[k] += r[k]
            g = grp(r["points"])
            row["grp"] += g
            row["qualified"] += g > 0
    for s in night.special_hands(games):
        for name in s["names"]:
            if name in rows:
                rows[name]["specials"] += s["n28"] + s["n29"]
    return rank(rows.values())


def rank(rows):
    """The season's rows (dicts) best first, each with its place (tied rows share one):
    GRPs, nights qualified, game points, games won, spread, then the name (tally.py ranks
    its rows here too)."""
    order = sorted(rows, key=lambda r: (-r["grp"], -r["qualified"], -r["points"], -r["won"],
                                        -r["spread"], r["name"].lower(), r["name"]))
    key = None
    place = 0
    for i, row in enumerate(order):
        k = (row["grp"], row["qualified"], row["points"], row["won"], row["spread"])
        if k != key:
            place, key = i + 1, k
        row["place"] = place
    return order


def player_nights(games, name):
    """One player's season night by night: dicts night, games, won, points, spread, grp,
    list (their (message, result) pairs that night), oldest night first."""
    out = []
    for n, gs in sorted(by_night(games).items()):
        mine = night.player_games(gs, name)
        if not mine:
            continue
        pts = sum(r["points"] for _, r in mine)
        out.append({"night": n, "games": len(mine), "won": sum(r["won"] for _, r in mine),
                    "points": pts, "spread": sum(r["spread"] for _, r in mine),
                    "grp": grp(pts), "list": mine})
    return out


COLUMNS = ("place", "name", "grp", "qualified", "nights", "games", "won", "points", "spread",
           "specials")


def seasons(store):
    """The director's seasons (store.py), or with none set, one a year."""
    return store.seasons() or default_seasons(store.nights())


def find(store, name):
    """The season called name ("" or None: the newest), or None."""
    all_ = seasons(store)
    if not name:
        return all_[0] if all_ else None
    for s in all_:
        if s["name"] == name:
            return s
    return None
