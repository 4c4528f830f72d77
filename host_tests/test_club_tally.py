"""Incremental standings and ratings (issue 36, tools/club/tally.py): after every step of
random sequences of games counted, revised (in their place, or with another night), counted
late (a place before others) and withdrawn, the tally's season standings and ratings equal,
exactly (floats by ==), season.standings() and ratings.rate() recomputed from scratch over
the games then counted. Games are real games of the core (simboard.py) of two, three and
four players, re-seated with names drawn from a small field (some seats unnamed)."""

import copy
import random

import pytest

from club import ratings, season
from club.simboard import SimBoard
from club.tally import Tally

FIELD = ["Ann", "Bob", "Cy", "Di", "Ed", "ann", None]
NIGHTS = ["2025-12-29", "2026-01-05", "2026-01-12", "2026-01-19"]


@pytest.fixture(scope="module")
def pool():
    out = []
    for players, n in ((2, 8), (3, 3), (4, 3)):
        b = SimBoard("p%d" % players, seed=40 + players, players=players)
        for _ in range(n):
            out.append(b.play())
    return out


def seated(rnd, pool, gid):
    msg = copy.deepcopy(rnd.choice(pool))
    names = rnd.sample(FIELD, len(msg["seats"]))
    for seat, name in zip(msg["seats"], names):
        seat["name"] = name
    msg["id"] = gid
    return msg


def scratch(live):
    """The standings of every season and the ratings, from scratch (pos order)."""
    games = []
    for _, (_, n, msg) in sorted(live.items(), key=lambda kv: kv[1][0]):
        games.append(dict(msg, night=n))
    out = {}
    for y in sorted({g["night"][:4] for g in games}):
        s = {"name": y, "first": y + "-01-01", "last": y + "-12-31", "nights": None}
        out[y] = season.standings(season.of_season(s, games))
    return out, ratings.rate(games)


def check(t, live):
    want, (r, hist) = scratch(live)
    assert t.seasons() == sorted(want, reverse=True)
    for y, rows in want.items():
        assert t.standings(y) == rows, y
    got_r, got_hist = t.ratings()
    assert got_r == r  # exactly: the same operations in the same order
    assert got_hist == hist
    assert t.table() == ratings.table_of(r, hist)
    assert t.count() == len(live)


@pytest.mark.parametrize("seed", range(6))
def test_incremental_equals_from_scratch_over_random_sequences(pool, seed):
    rnd = random.Random(seed)
    t = Tally()
    live = {}  # gid -> (pos, night, msg)
    pos = 0
    for step in range(120):
        op = rnd.random()
        if op < 0.55 or not live:  # a new game, at the end (or, one in ten, counted late)
            pos += 1
            gid = "b-%d" % step
            p = pos if rnd.random() > 0.1 else rnd.uniform(0, pos)
            n = rnd.choice(NIGHTS)
            msg = seated(rnd, pool, gid)
            t.put(gid, p, n, msg)
            live[gid] = (p, n, msg)
        elif op < 0.75:  # revised: in its place, other seats, sometimes another night
            gid = rnd.choice(sorted(live))
            p, n, _ = live[gid]
            if rnd.random() < 0.3:
                n = rnd.choice(NIGHTS)
            msg = seated(rnd, pool, gid)
            t.put(gid, p, n, msg)
            live[gid] = (p, n, msg)
        elif op < 0.97:  # withdrawn: the newest mostly (an undo), else any
            gid = max(live, key=lambda g: live[g][0]) if rnd.random() < 0.5 \
                else rnd.choice(sorted(live))
            assert t.remove(gid)
            del live[gid]
        else:
            assert not t.remove("nope-1")
        check(t, live)
    while live:  # every game withdrawn: nothing left, nothing drifted
        gid = rnd.choice(sorted(live))
        t.remove(gid)
        del live[gid]
        check(t, live)
    assert t.r == {} and t.hist == {} and t.rows == {} and t.nights == {} \
        and t.specials == {}


def test_a_late_game_reorders_the_ratings_and_a_night_moves_its_points(pool):
    t = Tally()
    a = seated(random.Random(1), pool[:1], "x-1")
    a["seats"][0]["name"], a["seats"][1]["name"] = "Ann", "Bob"
    b = copy.deepcopy(a)
    b["id"] = "x-2"
    t.put("x-2", 2.0, NIGHTS[1], b)
    before = t.ratings()[0]
    t.put("x-1", 1.0, NIGHTS[1], a)  # counted late, placed first: x-2 rated after it
    assert t.ratings()[1]["Ann"][0][0] == "x-1" and t.ratings()[0] != before
    check(t, {"x-1": (1.0, NIGHTS[1], a), "x-2": (2.0, NIGHTS[1], b)})
    t.put("x-1", 1.0, NIGHTS[0], a)  # its night mended: last year's season
    assert t.seasons() == ["2026", "2025"]
    check(t, {"x-1": (1.0, NIGHTS[0], a), "x-2": (2.0, NIGHTS[1], b)})


def test_a_tally_loaded_from_its_records_is_the_same_tally(pool):
    """Tally.load (a start from a checkpoint: League.load) of records() through JSON, in
    their order, equals the tally that counted them one by one; out of order or twice:
    refused, saying which."""
    import json

    from club.tally import from_json
    rnd = random.Random(4)
    t = Tally()
    live = {}
    for i in range(40):
        gid = "b-%d" % i
        p = rnd.uniform(0, 100)  # counted in any order, placed by pos
        n = rnd.choice(NIGHTS)
        msg = seated(rnd, pool, gid)
        t.put(gid, p, n, msg)
        live[gid] = (p, n, msg)
    for gid in sorted(live)[:5]:
        t.remove(gid)
        del live[gid]
    recs = [(gid, from_json(rec)) for gid, rec in json.loads(json.dumps(t.records()))]
    u = Tally()
    u.load(recs)
    for k in ("games", "order", "ids", "nights", "rows", "specials", "r", "hist"):
        assert getattr(u, k) == getattr(t, k), k
    check(u, live)
    for bad in (recs[1:2] + recs[:1], recs[:1] + recs[:1]):
        with pytest.raises(ValueError, match="once, in its order"):
            Tally().load(bad)
