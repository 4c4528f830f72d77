"""The league's start and its seasons (issue 36): the tally saved (League.checkpoint) and read
back at a start with the games changed since (League.load) is equal, record for record, to
the tally counted again from every stored game (League.rebuild), also after games of the
open season withdrawn and revised since the checkpoint; a checkpoint of another players'
table, calendar or format, or one that cannot be read, is not used. The league's seasons by
its calendar (a season across the year's end) on its page, its data and its CSV."""

import json
import os
import random
import subprocess
import sys

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED
from hostenv import ROOT
from club import league, ratings, season
from club.simboard import payload
from test_club_league_season import TOPIC, make, on, step

CAL = {"first": "2025-09-01", "weeks": 36}  # 2025-26: 2025-09-01..2026-05-10


def state(lg):
    """Everything the tally keeps (what two tallies must share to be equal)."""
    t = lg.tally
    return {"games": t.games, "order": t.order, "ids": t.ids, "nights": t.nights,
            "rows": t.rows, "specials": t.specials, "r": t.r, "hist": t.hist}


def equal_to_a_recompute(lg):
    full = league.League.__new__(league.League)
    full.__dict__.update({k: v for k, v in lg.__dict__.items()
                          if k not in ("tally", "versions")})
    full.rebuild()  # every stored game counted again, from scratch
    assert state(lg) == state(full)
    assert lg.versions == full.versions
    games = lg.counted()
    assert lg.ratings() == ratings.rate(games)
    for s in league.league_seasons(games, lg.calendar):
        assert lg.standings(s["name"]) == season.standings(season.of_season(s, games))
    return games


def play(lg, boards, rnd, field, n, sent, withdraw=0.2):
    """n steps: a game, or one of sent withdrawn or revised (seats swapped)."""
    for _ in range(n):
        step(lg, boards, rnd, field, sent, withdraw)


def test_a_start_from_the_checkpoint_equals_a_full_recompute(tmp_path, caplog):
    lg, boards = make(tmp_path)
    lg.set_calendar(CAL["first"], CAL["weeks"])
    rnd = random.Random(8)
    field = ["Ann", "Bob", "Cy", "Di", "Ed"]
    sent = []
    for n in ("2025-12-29", "2026-01-05"):  # the season across the year's end
        on(lg, "north", n)
        on(lg, "south", n)
        play(lg, boards, rnd, field, 14, sent)
    saved = lg.checkpoint()
    assert saved == lg.tally.count() == len(sent)
    equal_to_a_recompute(lg)
    # since the checkpoint: checkpointed games of the open season withdrawn and revised,
    # new games (one filed on a summer night, in no season: rated, in no standings)
    c, bd, msg = sent.pop(0)
    assert lg.handle(TOPIC % (c, bd.name), bd.withdrawal(msg["id"])) == "withdrawn"
    c, bd, msg = sent.pop(0)
    fixed = json.loads(payload(msg))
    fixed["seats"].reverse()
    assert lg.handle(TOPIC % (c, bd.name), bd.signed(fixed)) == "revised"
    sent.append((c, bd, fixed))
    on(lg, "north", "2026-01-12")
    on(lg, "south", "2026-01-12")
    play(lg, boards, rnd, field, 8, sent, withdraw=0.3)
    on(lg, "north", "2026-06-01")
    b = boards["north"][0]
    b.seat(["Ann", "Zed"])
    assert lg.handle(TOPIC % ("north", b.name), b.signed(b.play())) == "new"
    assert "Zed@north" in lg.ratings()[0]
    assert "Zed@north" not in {r["name"] for r in lg.standings("2025-26")}
    assert lg.tally.seasons() == ["2025-26"]
    games = equal_to_a_recompute(lg)
    # a start: the checkpoint's games unchanged since, the rest read from the stores
    again = league.League(lg.folder)
    assert state(again) == state(lg) and again.versions == lg.versions
    with open(os.path.join(lg.folder, league.CHECKPOINT)) as f:
        kept = json.load(f)["games"]
    unchanged = sum(1 for key, _, counter in kept if lg.versions.get(key, -1) == counter)
    assert again.started["checkpoint"] == unchanged
    assert again.started["read"] == len(games) - unchanged
    assert 0 < again.started["read"] < len(games) // 2
    equal_to_a_recompute(again)
    # a checkpoint taken now: a start reads every game from it, and the same again
    again.checkpoint()
    third = league.League(lg.folder)
    assert third.started == dict(third.started, checkpoint=len(games), read=0)
    assert state(third) == state(lg)
    # another players' table, another calendar, a broken file: every game counted again
    lg.player("Ann@south", "Ann")  # (the league's director: players.json)
    fourth = league.League(lg.folder)
    assert fourth.started["checkpoint"] == 0 and fourth.started["read"] == len(games)
    equal_to_a_recompute(fourth)
    fourth.checkpoint()
    path = os.path.join(lg.folder, league.CHECKPOINT)
    with open(path) as f:
        good = json.load(f)
    for bad in ([1, 2], [[0, "north", "x"], "2026-01-05", [["Ann", "won", 2, 0]], [], 2, 0,
                         [["Ann", 0]]]):  # a record of another shape: not used, no crash
        broken = dict(good, games=[[good["games"][0][0], bad, good["games"][0][2]]]
                      + good["games"][1:])
        with open(path, "w") as f:
            json.dump(broken, f)
        caplog.clear()
        again = league.League(lg.folder)
        assert again.started["checkpoint"] == 0 and "checkpoint is not used" in caplog.text
        assert state(again) == state(fourth)
    with open(path, "w") as f:
        json.dump(good, f)
    assert league.League(lg.folder).started["checkpoint"] == len(games)
    fourth.set_calendar(None)
    assert league.League(lg.folder).started["checkpoint"] == 0
    with open(os.path.join(lg.folder, league.CHECKPOINT), "w") as f:
        f.write('{"format": 1, "players": {}, "calendar": null, "games": [["x"')
    fifth = league.League(lg.folder)
    assert fifth.started["checkpoint"] == 0 and "checkpoint is not used" in caplog.text
    equal_to_a_recompute(fifth)


def test_the_leagues_calendar_seasons_on_its_page_data_and_csv(tmp_path, capsys):
    from club import cli
    lg, boards = make(tmp_path)
    assert cli.main(["league", "--folder", lg.folder, "calendar", "2025-09-01",
                     "--weeks", "36"]) == 0
    assert cli.main(["league", "--folder", lg.folder, "calendar", "2025-09-01",
                     "--weeks", "99"]) == 1
    lg = league.League(lg.folder)
    assert lg.calendar == CAL
    b = boards["north"][0]
    b.seat(["Ann", "Bob"])
    for n in ("2025-09-01", "2025-12-29", "2026-01-05", "2026-05-10", "2026-05-11",
              "2026-09-07"):
        on(lg, "north", n)
        for _ in range(2):
            assert lg.handle(TOPIC % ("north", b.name), b.signed(b.play())) == "new"
    assert lg.tally.seasons() == ["2026-27", "2025-26"]
    games = equal_to_a_recompute(lg)
    s = lg.season("2025-26")
    assert (s["first"], s["last"]) == ("2025-09-01", "2026-05-10")
    assert sum(r["games"] for r in lg.standings("2025-26")) == 2 * 8  # 8 games, 2 players
    assert lg.season("2026") is None and lg.season("2025-27") is None
    c = league.make_app(lg).test_client()
    js = c.get("/standings.json?season=2025-26").get_json()
    assert js["season"] == s and js["standings"] == lg.standings("2025-26")
    js = c.get("/standings.json").get_json()  # the newest
    assert js["season"]["name"] == "2026-27" and js["season"]["first"] == "2026-09-07"
    assert js["standings"] == season.standings(
        season.of_season(js["season"], games))
    csv = c.get("/season.csv?season=2025-26").get_data(as_text=True).splitlines()
    assert csv[0] == ",".join(season.COLUMNS) and len(csv) == 3
    page = c.get("/").get_data(as_text=True)
    assert "2026-27" in page and "2025-26" in page
    assert cli.main(["league", "--folder", lg.folder, "checkpoint"]) == 0
    assert "saved the tally of 12 games" in capsys.readouterr().err


@pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED)
def test_a_season_at_scale_runs_small(tmp_path):
    """tools/clubnet/league_season.py (docs/club.md's season at scale) run small: 2 clubs, 4 boards,
    3 weekly nights of 2 games, the last through bridged brokers: every game counted, the
    start from its checkpoint and the full count both equal to the running tally (it
    asserts so), and the figures the docs quote all there."""
    out = tmp_path / "season.json"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "clubnet", "league_season.py"),
                        "--clubs", "2", "--boards", "4", "--weeks", "3", "--games", "2",
                        "--pool", "10", "--bridged", "1", "--rate", "200", "--tmp",
                        str(tmp_path), "--json", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    got = json.loads(out.read_text())["summary"]
    assert got["games"] == 2 * 2 * 4  # 2 nights in the process, 2 games, 4 boards a night
    assert got["bridged"]["games"] == got["bridged"]["arrived"] == 2 * 4
    # saved before the last night in the process (the late club's first night not in yet)
    assert got["checkpoint"]["games"] == 4
    assert got["start_checkpoint_games"] == 4 and got["start_read_games"] == 16 + 8 - 4
    for k in ("counted_median_ms", "counted_worst_ms", "rss_kb", "db_bytes",
              "start_checkpoint_s", "start_full_s"):
        assert got[k] is not None and got[k] >= 0
    for k in ("median_ms", "worst_ms", "rss_kb", "db_bytes"):
        assert got["bridged"][k] > 0
