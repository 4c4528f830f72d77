"""Season standings and ratings kept as games come and go (issue 36): what season.standings()
and ratings.rate() compute from every stored game, updated by one game at a time, so the
league's standings are ready the moment a game is counted instead of recomputed from scratch
at every request.

    t = Tally()
    t.put(gid, pos, night, msg)   # a counted game, new or revised (pos: its place in the
                                  # rating order, e.g. (received, club, gid); a revision
                                  # keeps its place)
    t.remove(gid)                 # a withdrawn game: every figure back as if never sent
    t.standings(season_key)       # season.standings() of the season's games (rows, copies)
    t.ratings()                   # ratings.rate() of every game in pos order: (r, hist)

Standings: each game's contribution (its players' game points, wins, spread, its special
hands) is kept with it, per night and per player; a season's row is the sum over its nights
of what each night gives (grp() is not linear in a night's points, so a night's row is taken
out of the season's row and put back in whenever it changes). All integers: exact.

Ratings: Elo depends on the order, so a game counted at the end moves only its players; a
game taken out or put in at position i takes every game from i on back (newest first: each
player's rating is the one before their last history entry, popped; no arithmetic undone,
so nothing drifts) and plays them again. A withdrawal right after its game (an undo on the
board) costs the games since; a revision of an old game costs the games after it.

Memory: a game keeps its players' contributions, not its message (a stored message parsed is
~25 KB in Python; this is under 1 KB a game with its rating history).
"""

import bisect
import sys
import threading

from . import night, ratings, season


def record(pos, night_name, msg):
    """What the tally keeps of a counted game (and a checkpoint saves): (pos, night, results
    (name, won, points, spread), specials (name, 28s and 29s), sides, winner, seats (name,
    side)), all tuples of str, int and float (from_json() gives the same back)."""
    intern = sys.intern
    res = tuple((intern(r["name"]), r["won"], r["points"], r["spread"])
                for r in night.results(msg))
    spec = tuple((intern(name), s["n28"] + s["n29"]) for s in night.special_hands([msg])
                 for name in s["names"])
    g = msg["game"]
    seats = tuple((intern(s["name"]) if s["name"] else None, s["side"])
                  for s in msg["seats"])
    return (pos, intern(night_name), res, spec, g["sides"], g["winner"], seats)


def from_json(rec):
    """A record() as JSON read it back (lists for tuples): the record() itself."""
    intern = sys.intern
    pos, n, res, spec, sides, winner, seats = rec
    return (tuple(pos) if isinstance(pos, list) else pos, intern(n),
            tuple((intern(a), b, c, d) for a, b, c, d in res),
            tuple((intern(a), b) for a, b in spec), sides, winner,
            tuple((intern(a) if a is not None else None, b) for a, b in seats))


def year(n):
    """The league's season of a night: its year (league.league_seasons)."""
    return n[:4]


class Tally:
    def __init__(self, season_of=year):
        self.season_of = season_of
        self.lock = threading.Lock()
        self.games = {}  # gid -> (pos, night, results, specials, sides, winner, seat names)
        self.order = []  # the counted games' positions, sorted
        self.ids = []  # their gids, in that order
        self.nights = {}  # night -> {name: [games, won, points, spread]}
        self.rows = {}  # season -> {name: [grp, qualified, nights, games, won, points, spread]}
        self.specials = {}  # season -> {name: 28s and 29s}
        self.r = {}
        self.hist = {}
        self.version = 0  # grows at every change (what a page's cache keys on)
        self._ranked = {}  # season -> (version of that season, rows ranked)
        self._changed = {}  # season -> version it last changed at

    # --- a game in, a game out ------------------------------------------------------------

    def put(self, gid, pos, night_name, msg):
        """A counted game (new, or a revision of one counted: it replaces it)."""
        self.put_record(gid, record(pos, night_name, msg))

    def load(self, recs):
        """An empty tally given every game's (gid, record()) in the rating order (pos
        ascending: a checkpoint's, League.load): each rated after the last, as put() does
        for a game counted at the end, without looking for its place."""
        with self.lock:
            assert not self.games, "a tally loads into an empty one"
            last = None
            for gid, rec in recs:
                if gid in self.games or (last is not None and not last < rec[0]):
                    raise ValueError("a tally loads each game once, in its order: %s" % gid)
                last = rec[0]
                self.games[gid] = rec
                self._standing(rec, +1)
                self.order.append(rec[0])
                self.ids.append(gid)
                self._rate(gid, rec)
            self.version += 1

    def put_record(self, gid, rec):
        """put() of a game's record() (a checkpoint's: the message is not read again)."""
        with self.lock:
            old = self.games.get(gid)
            if old is not None:
                self._standing(old, -1)
            self.games[gid] = rec
            self._standing(rec, +1)
            self._rerate(gid, old, rec)
            self.version += 1

    def remove(self, gid):
        """A game withdrawn (or no longer sound): False if it was not counted."""
        with self.lock:
            old = self.games.pop(gid, None)
            if old is None:
                return False
            self._standing(old, -1)
            self._rerate(gid, old, None)
            self.version += 1
            return True

    # --- standings ------------------------------------------------------------------------

    def _standing(self, rec, sign):
        _, n, res, spec, _, _, _ = rec
        key = self.season_of(n)
        if key is None:  # a night in no season (a calendar's summer): rated, not standing
            return
        rows = self.rows.setdefault(key, {})
        per = self.nights.setdefault(n, {})
        for name, won, points, spread in res:
            row = rows.get(name)
            nr = per.get(name)
            if nr is not None:  # the night's old contribution out of the season's row
                _add(row, nr, -1)
            else:
                nr = per[name] = [0, 0, 0, 0]
                if row is None:
                    row = rows[name] = [0] * 7
            nr[0] += sign
            nr[1] += sign * won
            nr[2] += sign * points
            nr[3] += sign * spread
            if nr[0]:
                _add(row, nr, +1)
            else:
                del per[name]
                if not row[2]:
                    del rows[name]
        if not per:
            del self.nights[n]
        sp = self.specials.setdefault(key, {})
        for name, k in spec:
            v = sp.get(name, 0) + sign * k
            if v:
                sp[name] = v
            else:
                sp.pop(name, None)
        if not rows:
            del self.rows[key]
        if not sp:
            del self.specials[key]
        self._changed[key] = self.version + 1

    def seasons(self):
        """The seasons with games, newest first."""
        with self.lock:
            return sorted(self.rows, reverse=True)

    def standings(self, key):
        """season.standings() of season key's games: a list of fresh dicts, best first."""
        with self.lock:
            return self._standings(key)

    def _standings(self, key):
        at = self._changed.get(key, 0)
        got = self._ranked.get(key)
        if got is None or got[0] != at:
            sp = self.specials.get(key, {})
            rows = [{"name": name, "grp": v[0], "qualified": v[1], "nights": v[2],
                     "games": v[3], "won": v[4], "points": v[5], "spread": v[6],
                     "specials": sp.get(name, 0)}
                    for name, v in self.rows.get(key, {}).items()]
            got = self._ranked[key] = (at, season.rank(rows))
        return [dict(r) for r in got[1]]

    def view(self, key=None):
        """At one moment: {"seasons", "season" (key, default the newest), "games" (counted),
        "standings" (the season's), "ratings" (table())}: a page's data, never a count of
        one moment beside standings of another."""
        with self.lock:
            seasons = sorted(self.rows, reverse=True)
            if key not in seasons:
                key = seasons[0] if seasons else None
            return {"seasons": seasons, "season": key, "games": len(self.games),
                    "standings": self._standings(key) if key else [],
                    "ratings": self._table()}

    def count(self):
        with self.lock:
            return len(self.games)

    def records(self):
        """Every counted game's (gid, record()), in the rating order: what a checkpoint keeps
        (the records are tuples, never changed: a copy of the list is a snapshot)."""
        with self.lock:
            return [(gid, self.games[gid]) for gid in self.ids]

    # --- ratings --------------------------------------------------------------------------

    def _rerate(self, gid, old, new):
        """The rating order with old's place taken out and new's put in, the games from the
        first place touched on played again."""
        order, ids = self.order, self.ids
        at = len(order)
        if old is not None:
            at = bisect.bisect_left(order, old[0])
            while ids[at] != gid:
                at += 1
        if new is not None and (old is None or new[0] != old[0]):
            at = min(at, bisect.bisect_right(order, new[0]))
        for i in range(len(order) - 1, at - 1, -1):
            self._unrate(self.games.get(ids[i]) if ids[i] != gid else old)
        if old is not None:
            j = bisect.bisect_left(order, old[0], at)
            while ids[j] != gid:
                j += 1
            del order[j], ids[j]
        if new is not None:
            j = bisect.bisect_right(order, new[0])
            order.insert(j, new[0])
            ids.insert(j, gid)
        for i in range(at, len(order)):
            self._rate(ids[i], self.games[ids[i]])

    def _rate(self, gid, rec):
        """ratings.rate() for one game: its one step (ratings.step), so the tally is exact."""
        _, _, _, _, sides, win, seats = rec
        names = [[] for _ in range(sides)]
        for name, side in seats:
            names[side].append(name)
        ratings.step(self.r, self.hist, gid, sides, win, names)

    def _unrate(self, rec):
        """Take back the last game rated (rec): each of its players' last history entry."""
        names = [[] for _ in range(rec[4])]
        for name, side in rec[6]:
            names[side].append(name)
        for ns in reversed(names):
            for n in reversed(ns):
                if n:
                    h = self.hist[n]
                    h.pop()
                    if h:
                        self.r[n] = h[-1][1]
                    else:
                        del self.hist[n]
                        del self.r[n]

    def ratings(self):
        """(ratings, history) as ratings.rate() gives them (copies)."""
        with self.lock:
            return dict(self.r), {n: list(h) for n, h in self.hist.items()}

    def table(self):
        """ratings.table_of() of the ratings, without copying the history."""
        with self.lock:
            return self._table()

    def _table(self):
        return [{"name": n, "rating": round(v, 1), "games": len(self.hist[n])}
                for n, v in sorted(self.r.items(), key=lambda kv: (-kv[1], kv[0].lower(),
                                                                  kv[0]))]


def _add(row, nr, sign):
    """A night's row (games, won, points, spread) into (or out of) a season's row."""
    g = season.grp(nr[2])
    row[0] += sign * g
    row[1] += sign * (g > 0)
    row[2] += sign
    row[3] += sign * nr[0]
    row[4] += sign * nr[1]
    row[5] += sign * nr[2]
    row[6] += sign * nr[3]
