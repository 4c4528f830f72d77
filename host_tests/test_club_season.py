"""A season at the club (issue 36): games signed by simulated boards over several nights,
kept apart (each night's standings) and together (the season's Grass Roots standings), the
director's seasons and the yearly default, a player's season page, the secretary's CSV.
The season's standings are checked against ones computed here from the boards' own records
(a win 2, a skunk 3 when the loser is under target - 30; a night of 12 or more game points
earns GRPs: one for 12 and one for each point above), not with the club's night.py."""

import csv
import io

from club import cli, season, web
from club.service import Club
from club.simboard import SimBoard

GAME = "cribbage/%s/game"
PLAYERS = ["Ann", "Bob", "-Al", "Di"]  # "-Al": a name a spreadsheet would run as a formula
NIGHTS = ["2025-12-29", "2026-01-05", "2026-01-12"]
# 9 rounds a night: who sits at t1 and t2
ROUNDS = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]] * 3


def play_season(tmp_path, nights=NIGHTS):
    club = Club(str(tmp_path / "club.sqlite"))
    boards = {}
    for i, t in enumerate(("t1", "t2")):
        boards[t] = SimBoard(t, seed=11 + i, secret=club.registry.add(t))
    played = []  # (night, message) as the boards sent them
    for n in nights:
        club.night = lambda n=n: n
        for pairs in ROUNDS:
            for t, (a, b) in zip(("t1", "t2"), pairs):
                bd = boards[t]
                bd.seat([PLAYERS[a], PLAYERS[b]])
                msg = bd.play()
                assert club.handle(GAME % t, bd.signed(msg)) == "new"
                played.append((n, msg))
    return club, played


def points_of(msg):
    """Each named player's game points from the board's record: {name: points}."""
    g = msg["game"]
    sides = g["by_side"]
    win = g["winner"]
    loser = min(s["score"] for s in sides if s["side"] != win)
    pts = 3 if loser < g["target"] - 30 else 2
    return {s["name"]: (pts if s["side"] == win else 0) for s in msg["seats"]}


def expected(played, nights):
    per = {}  # name -> [grp, nights qualified, points]
    for n in nights:
        night_pts = {}
        for gn, msg in played:
            if gn == n:
                for name, p in points_of(msg).items():
                    night_pts[name] = night_pts.get(name, 0) + p
        for name, p in night_pts.items():
            row = per.setdefault(name, [0, 0, 0])
            row[0] += p - 11 if p >= 12 else 0
            row[1] += p >= 12
            row[2] += p
    return per


def test_season_standings_are_the_boards_records_by_grass_roots_points(tmp_path):
    club, played = play_season(tmp_path)
    # no season set: one a year
    assert [s["name"] for s in season.seasons(club.store)] == ["2026", "2025"]
    s26 = season.find(club.store, "2026")
    games = season.of_season(s26, club.games("all"))
    assert len(games) == 36 and {g["night"] for g in games} == set(NIGHTS[1:])
    rows = season.standings(games)
    want = expected(played, NIGHTS[1:])
    assert {r["name"]: [r["grp"], r["qualified"], r["points"]] for r in rows} == want
    assert all(r["games"] == 18 and r["nights"] == 2 for r in rows)
    assert [r["grp"] for r in rows] == sorted((r["grp"] for r in rows), reverse=True)
    assert sum(r["grp"] for r in rows) > 0  # someone qualified (the seeds say so)
    # the director's season: the nights chosen, across the new year
    club.store.set_season("winter", nights=[NIGHTS[0], NIGHTS[2]])
    assert [s["name"] for s in season.seasons(club.store)] == ["winter"]
    win = season.of_season(season.find(club.store, "winter"), club.games("all"))
    assert {g["night"] for g in win} == {NIGHTS[0], NIGHTS[2]}
    assert {r["name"]: [r["grp"], r["qualified"], r["points"]]
            for r in season.standings(win)} == expected(played, [NIGHTS[0], NIGHTS[2]])
    # a range
    club.store.set_season("all", "2025-12-01", "2026-01-31")
    every = season.of_season(season.find(club.store, "all"), club.games("all"))
    assert {r["name"]: r["grp"] for r in season.standings(every)} == \
        {k: v[0] for k, v in expected(played, NIGHTS).items()}


def test_the_season_page_csv_and_a_players_season(tmp_path):
    club, played = play_season(tmp_path)
    c = web.make_app(club).test_client()
    r = c.get("/season?name=2026")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    for name in PLAYERS:
        assert name in page
    assert c.get("/season?name=nope").status_code == 404
    r = c.get("/season.csv?name=2026")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    got = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert got[0] == list(season.COLUMNS)
    names = [row[1] for row in got[1:]]
    assert "'-Al" in names and "-Al" not in names  # safe from formulas
    want = expected(played, NIGHTS[1:])
    for row in got[1:]:
        assert int(row[2]) == want[row[1].lstrip("'")][0]
    js = c.get("/season.json?name=2026").get_json()
    assert js["games"] == 36 and js["nights"] == NIGHTS[1:]
    # a player's season: night by night, each game with its race chart
    r = c.get("/player?name=Ann&season=2026")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    mine = [m for n, m in played if n in NIGHTS[1:] and "Ann" in
            [s["name"] for s in m["seats"]]]
    assert len(mine) == 18
    for m in mine:
        assert "/race.svg?id=%s" % m["id"] in page
    for n in NIGHTS[1:]:
        assert n in page
    assert NIGHTS[0] not in page.split("<h2>", 1)[1]  # last year's night is not this season's
    assert c.get("/race.svg?id=%s" % mine[0]["id"]).status_code == 200
    assert c.get("/player?name=Ann&season=nope").status_code == 404


def test_the_season_command_sets_lists_and_removes(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert cli.main(["--db", db, "season", "add", "fall", "--first", "2026-09-01",
                     "--last", "2026-12-31"]) == 0
    assert cli.main(["--db", db, "season", "add", "odd", "--nights",
                     "2026-09-07,2026-09-21"]) == 0
    assert cli.main(["--db", db, "season", "add", "bad", "--first", "2026-13"]) == 1
    assert cli.main(["--db", db, "season", "add", "bad", "--first", "2026-12-01",
                     "--last", "2026-01-01"]) == 1
    capsys.readouterr()
    assert cli.main(["--db", db, "season", "list"]) == 0
    out = capsys.readouterr().out
    assert "fall" in out and "odd" in out and "2 nights chosen" in out and "bad" not in out
    assert cli.main(["--db", db, "season", "remove", "odd"]) == 0
    assert cli.main(["--db", db, "season", "remove", "odd"]) == 1


def test_python_m_club_runs_the_season_and_league_commands(tmp_path):
    import os
    import subprocess
    import sys

    from hostenv import ROOT
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))
    db = str(tmp_path / "club.sqlite")
    for args in (["season", "add", "s", "--first", "2026-01-01", "--last", "2026-02-01"],
                 ["season", "list"], ["league-keys"],
                 ["league", "--folder", str(tmp_path / "lg"), "files"]):
        p = subprocess.run([sys.executable, "-m", "club", "--db", db, *args], env=env,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
    p = subprocess.run([sys.executable, "-m", "club", "--db", db, "season", "list"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert "2026-01-01..2026-02-01" in p.stdout
    assert os.path.exists(tmp_path / "lg" / "league.acl")


# A club's calendar: 36-week seasons from Monday 2026-09-07 (its 36th night 2027-05-10, its
# last day Sunday 2027-05-16), the next from the Monday on or after 2027-09-07: 2027-09-13.
CAL_NIGHTS = ["2026-09-06",   # the Sunday before: last season's summer, in no season
              "2026-09-07",   # the first night of 2026-27 (its boundary)
              "2026-12-28",   # the year's end crossed: 2026-27 still
              "2027-01-04",
              "2027-05-16",   # the last day of 2026-27 (its boundary)
              "2027-05-17",   # the day after: the summer, in no season
              "2027-09-13"]   # the first night of 2027-28


def test_a_calendar_season_crosses_the_years_end_and_keeps_its_boundaries():
    cal = {"first": "2026-09-07", "weeks": 36}
    assert season.last_of("2026-09-07", 36) == "2027-05-16"
    of = season.season_of(cal)
    assert [of(n) for n in CAL_NIGHTS] == [None, "2026-27", "2026-27", "2026-27", "2026-27",
                                           None, "2027-28"]
    s = season.calendar_season(cal, "2027-01-04")
    assert (s["first"], s["last"]) == ("2026-09-07", "2027-05-16")
    assert season.calendar_season(cal, "2027-09-12") is None  # the Sunday before 2027-28
    assert season.calendar_season(cal, "2028-05-21")["name"] == "2027-28"  # its last day
    assert season.calendar_season(cal, "2028-05-22") is None
    # a season within one year is named by it; 29 February's anniversary is the 28th (a
    # Wednesday in 2029: the Tuesday after)
    assert season.calendar_season({"first": "2026-01-05", "weeks": 10},
                                  "2026-03-15")["name"] == "2026"
    leap = {"first": "2028-02-29", "weeks": 4}  # a Tuesday
    assert season.calendar_season(leap, "2029-03-06")["first"] == "2029-03-06"
    assert season.calendar_season(leap, "2029-02-27") is None
    assert season.season_of(None)("2026-09-07") == "2026"  # no calendar: years
    for bad in (0, 53, "36"):
        try:
            season.last_of("2026-09-07", bad)
        except ValueError:
            continue
        raise AssertionError("a season of %r weeks taken" % (bad,))


def test_the_clubs_calendar_gives_its_standings_player_pages_and_csv_per_season(tmp_path):
    club, played = play_season(tmp_path, CAL_NIGHTS)
    club.store.set_calendar("2026-09-07", 36)
    assert [s["name"] for s in season.seasons(club.store)] == ["2027-28", "2026-27"]
    inside = CAL_NIGHTS[1:5]
    s = season.find(club.store, "2026-27")
    assert (s["first"], s["last"]) == ("2026-09-07", "2027-05-16")
    games = season.of_season(s, club.games("all"))
    assert sorted({g["night"] for g in games}) == inside
    assert {r["name"]: [r["grp"], r["qualified"], r["points"]]
            for r in season.standings(games)} == expected(played, inside)
    c = web.make_app(club).test_client()
    js = c.get("/season.json?name=2026-27").get_json()
    assert js["nights"] == inside and js["games"] == 4 * 18
    got = list(csv.reader(io.StringIO(c.get("/season.csv?name=2026-27")
                                      .get_data(as_text=True))))
    want = expected(played, inside)
    assert {row[1].lstrip("'"): int(row[2]) for row in got[1:]} == \
        {n: v[0] for n, v in want.items()}
    page = c.get("/player?name=Ann&season=2026-27").get_data(as_text=True)
    body = page.split("<h2>", 1)[1]
    for n in inside:
        assert n in body
    for n in ("2026-09-06", "2027-05-17", "2027-09-13"):
        assert n not in body
    js = c.get("/season.json?name=2027-28").get_json()
    assert js["nights"] == ["2027-09-13"]
    # the director's own season beside the calendar's; the calendar off: years again
    club.store.set_season("playoffs", nights=["2027-05-17"])
    assert [s["name"] for s in season.seasons(club.store)] == ["2027-28", "playoffs",
                                                               "2026-27"]
    club.store.set_calendar(None)
    assert [s["name"] for s in season.seasons(club.store)] == ["playoffs"]
    club.store.remove_season("playoffs")
    assert [s["name"] for s in season.seasons(club.store)] == ["2027", "2026"]


def test_the_calendar_command(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert cli.main(["--db", db, "season", "calendar", "2026-09-07", "--weeks", "36"]) == 0
    assert cli.main(["--db", db, "season", "calendar", "2026-09-31"]) == 1
    assert cli.main(["--db", db, "season", "calendar", "2026-09-07", "--weeks", "60"]) == 1
    assert cli.main(["--db", db, "season", "calendar"]) == 1
    assert cli.main(["--db", db, "season", "add", "short", "--first", "2026-09-07",
                     "--weeks", "2"]) == 0
    capsys.readouterr()
    assert cli.main(["--db", db, "season", "list"]) == 0
    out = capsys.readouterr().out
    assert "calendar: 36 weeks from 2026-09-07" in out
    assert "short" in out and "2026-09-07..2026-09-20" in out
    assert cli.main(["--db", db, "season", "calendar", "--off"]) == 0
    capsys.readouterr()
    cli.main(["--db", db, "season", "list"])
    assert "calendar" not in capsys.readouterr().out


def test_the_club_command_says_what_it_refuses_in_a_line(tmp_path, capsys):
    """Whatever a command's input the club refuses (a date, a season with no nights, a league
    club's keys file that is no JSON), it says so on stderr and exits 1: no traceback. (The
    commands share one place that says it: cli.main.)"""
    db = str(tmp_path / "club.sqlite")
    keys = tmp_path / "keys.json"
    keys.write_text("{not JSON")
    for args, said in (
            (["--db", db, "season", "calendar"], "a calendar needs its first night"),
            (["league", "--folder", str(tmp_path / "lg"), "calendar"],
             "a calendar needs its first night"),
            (["--db", db, "season", "add", "s"], "a season needs --first"),
            (["league", "--folder", str(tmp_path / "lg"), "add-club", "north", str(keys)],
             "Expecting property name"),
            (["league-bridge", "--club", "north", "--league", "h:x", "--password", "p"],
             "invalid literal for int()")):
        capsys.readouterr()
        assert cli.main(args) == 1, args
        err = capsys.readouterr().err
        assert err.startswith(said) and err.count("\n") == 1, (args, err)
