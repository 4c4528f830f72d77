"""A season at the club (issue 36): nights kept apart and together, standings by the ACC's
Grass Roots way (docs/club.md, "A season"), a player's season, the secretary's CSV.

A season is a name and either a range of nights (first..last, YYYY-MM-DD, both kept) or a
list of nights the director chose (store.py's seasons table; `python -m club season add`).
A club's calendar (`python -m club season calendar FIRST --weeks 36`) makes its seasons
without naming each: a season of WEEKS weeks from FIRST, then one a year from the same
weekday on or after FIRST's anniversary ("2026-27": 2026-09-07..2027-05-16); nights between
two seasons (the summer) are in none. With neither set, each year is a season named by the
year ("2026": every night of 2026).

A night's results are night.py's (ACC game points: 2 a win, 3 a skunk). A player whose game
points in one night reach QUALIFY earns Grass Roots points (GRPs) for that night: grp(points)
below, the one table to change if the club's charter says otherwise. The season's standings:
GRPs, then nights qualified, then game points, games won, spread.
"""

import datetime

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


MAX_WEEKS = 52  # a calendar's season: at most a year (so a night is in one season at most)


def date_of(n):
    """A night (YYYY-MM-DD) as a date; ValueError saying which if it is none."""
    try:
        if len(n) != 10:
            raise ValueError
        return datetime.date.fromisoformat(n)
    except (TypeError, ValueError):
        raise ValueError("a night is YYYY-MM-DD: %r" % (n,)) from None


def last_of(first, weeks):
    """The last day of a season of weeks weeks from first (its last weekly night is
    first + weeks - 1 weeks; the days to the next week's night are still the season's)."""
    if not (isinstance(weeks, int) and 1 <= weeks <= MAX_WEEKS):
        raise ValueError("a season is 1 to %d weeks: %r" % (MAX_WEEKS, weeks))
    return (date_of(first) + datetime.timedelta(days=7 * weeks - 1)).isoformat()


def _start(first, year):
    """The calendar's season starting in year: the first day on or after first's anniversary
    in that year on first's weekday (a club meets on its own day of the week)."""
    try:
        d = first.replace(year=year)
    except ValueError:  # 29 February
        d = first.replace(year=year, day=28)
    return d + datetime.timedelta(days=(first.weekday() - d.weekday()) % 7)


def _named(start, last):
    name = str(start.year) if start.year == last.year else "%d-%02d" % (start.year,
                                                                         last.year % 100)
    return {"name": name, "first": start.isoformat(), "last": last.isoformat(),
            "nights": None}


def calendar_season(cal, n):
    """The season (a dict as seasons() gives) of the calendar cal ({"first", "weeks"}) that
    night n is in, or None (a night between two seasons)."""
    first = date_of(cal["first"])
    d = date_of(n)
    for y in (d.year, d.year - 1):
        start = _start(first, y)
        last = start + datetime.timedelta(days=7 * cal["weeks"] - 1)
        if start <= d <= last:
            return _named(start, last)
    return None


def calendar_seasons(cal, nights):
    """The calendar's seasons that hold any of these nights, newest first."""
    got = {}
    for n in nights:
        s = calendar_season(cal, n)
        if s is not None:
            got[s["first"]] = s
    return [got[k] for k in sorted(got, reverse=True)]


def season_of(cal):
    """A function night -> its season's name (None: in no season) for the calendar cal, or
    with none, the night's year (what the league's tally keys its standings by)."""
    if not cal:
        return lambda n: n[:4]
    memo = {}

    def of(n):
        if n not in memo:
            s = calendar_season(cal, n)
            memo[n] = s["name"] if s else None
        return memo[n]
    return of


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
    """The club's seasons, newest first: with a calendar set (store.calendar()), its seasons
    of the nights played and the director's own seasons beside them (a season of the
    director's takes the place of the calendar's of the same name); else the director's
    seasons, or with none set, one a year."""
    own = store.seasons()
    cal = store.calendar()
    if not cal:
        return own or default_seasons(store.nights())
    names = {s["name"] for s in own}
    both = own + [s for s in calendar_seasons(cal, store.nights()) if s["name"] not in names]
    return sorted(both, key=lambda s: (s["first"] or "", s["name"]), reverse=True)


def find(store, name):
    """The season called name ("" or None: the newest), or None."""
    all_ = seasons(store)
    if not name:
        return all_[0] if all_ else None
    for s in all_:
        if s["name"] == name:
            return s
    return None
