"""A league of clubs (issue 36), every part real: a club's Mosquitto (clubkit.Broker, the
club's config) bridged by the config `python -m club league-bridge` writes to a league's
Mosquitto (its password file and ACL from league.py) on 127.0.0.1 at free ports; the club
service and the league service (service.connect, as `python -m club` and `python -m club
league serve` run it) in this process; boards publishing signed games (clubkit.Board).

The bridge dropped (the league's broker killed) while games are played, and the club's own
broker restarted while it holds them for the league: when the link is back every game reaches
the league, none lost and none doubled; a board's resend of every game counts for nothing at
either; each game is counted once at the club and once at the league, and the league's
standings and ratings equal the club's. Mosquitto missing: skipped, saying why."""

import os
import pwd
import signal
import subprocess

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Board, Broker, Mosquitto, until
from webkit import free_port
from club import cli, league, season
from club.service import Club, connect

pytestmark = [pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED)]


class LeagueBroker(Mosquitto):
    """The league's Mosquitto: no anonymous clients, the league's files, persistence."""

    def __init__(self, folder, lg):
        self.folder = str(folder)
        os.makedirs(self.folder, exist_ok=True)
        passwd, acl = lg.files()
        self.port = free_port()
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write("\n".join([
                "listener %d 127.0.0.1" % self.port, "allow_anonymous false",
                "password_file " + passwd, "acl_file " + acl, "persistence true",
                "persistence_location %s/" % self.folder, "autosave_on_changes true",
                "autosave_interval 1", "max_queued_messages 0",
                "user " + pwd.getpwuid(os.getuid()).pw_name, ""]))
        self.start()


def test_a_clubs_games_reach_the_league_once_through_drops_and_restarts(tmp_path):
    lg = league.League(str(tmp_path / "league"))
    cb = Broker(tmp_path / "north" / "broker")
    board = Board(cb, "t1", ["Ann", "Bob"], seed=4)
    board2 = Board(cb, "t2", ["Cy", "Di"], seed=5)
    lg.add_club("north", league.club_keys(cb.registry))
    lb = LeagueBroker(tmp_path / "league-broker", lg)
    assert cli.main(["--broker-dir", cb.folder, "league-bridge", "--club", "north",
                     "--league", "127.0.0.1:%d" % lb.port,
                     "--password", lg.bridge_password("north")]) == 0
    with open(os.path.join(cb.folder, "conf.d", "league-bridge.conf")) as f:
        text = f.read()
    assert "cleansession false" in text and "topic +/game out 1 cribbage/ league/north/" \
        in text
    cb.restart(signal.SIGTERM)  # a bridge is read at the broker's start
    club = Club(os.path.join(str(tmp_path / "north"), "club.sqlite"))
    clients = [connect(club, "127.0.0.1", cb.port, "club", "club",
                       club.registry.account("club")),
               connect(lg, "127.0.0.1", lb.port, "league", league.SERVICE,
                       lg.service_password())]
    north = lg.clubs["north"]
    sent = []
    try:
        def play(n):
            for _ in range(n):
                for b in (board, board2):
                    sent.append(b.play())
            for b in (board, board2):
                b.flush()
            until("the club to have %d games" % len(sent),
                  lambda: club.store.count() == len(sent))

        def league_has(n):
            until("the league to have %d games" % n, lambda: north.store.count() == n)

        play(2)
        league_has(4)
        # the bridge dropped: the league's broker killed; the club plays on
        lb.kill()
        play(2)
        assert north.store.count() == 4
        # the club's broker restarted while it holds the games for the league
        cb.restart(signal.SIGTERM)
        play(1)
        lb.start()
        league_has(10)
        # every game again from the boards: nothing changes at either
        for b in (board, board2):
            b.resend_all()
        until("the club to see the resends", lambda: club.duplicates >= 10)
        until("the league to see the resends", lambda: north.duplicates >= 10)
        assert club.store.count() == north.store.count() == 10
        ids = sorted(g["id"] for g in sent)
        assert sorted(g["id"] for g in club.store.games()) == ids
        assert sorted(g["id"] for g in lg.games()) == ids
        for g in lg.games():
            assert g["club"] == "north" and {k: g[k] for k in ("id", "seats", "game")} == \
                {k: v for k, v in club.store.game(g["id"]).items()
                 if k in ("id", "seats", "game")}
        # the league's players are the club's, qualified by the club (league.who())
        assert lg.ratings()[0] == {n + "@north": v for n, v in club.ratings()[0].items()}
        year = lg.tally.seasons()[0]
        assert lg.standings(year) == season.standings(
            [dict(g, seats=[dict(s, name=s["name"] and s["name"] + "@north")
                            for s in g["seats"]]) for g in club.store.games()])
        assert lg.standings(year) == season.standings(lg.counted())  # == from scratch
        assert lg.dropped == 0 and north.dropped == 0
        # the league's page shows them
        page = league.make_app(lg).test_client().get("/").get_data(as_text=True)
        assert "north 10 games" in page and "Ann@north" in page and "Ratings" in page
    finally:
        for c in clients:
            c.disconnect()
            c.loop_stop()
        for b in (board, board2):
            b.close()
        lb.close()
        cb.close()


def test_the_league_refuses_what_no_club_of_its_signed(tmp_path):
    lg = league.League(str(tmp_path / "league"))
    assert lg.handle("league/south/t1/game", b"{}") == "dropped" and lg.dropped == 1
    lg.add_club("north", [])
    assert lg.handle("league/north/t1/game", b"{}") == "dropped"  # no such board there
    assert lg.clubs["north"].dropped == 1
    with pytest.raises(ValueError):
        lg.add_club("no/slash", [])
    with pytest.raises(ValueError):
        league.bridge_conf("a b", "h", 1, "u", "p")
    _, acl = lg.files()
    with open(acl) as f:
        text = f.read()
    assert "user north\ntopic write league/north/+/game" in text
    assert "topic read league/+/+/game" in text


@pytest.mark.slow
def test_make_league_demo_runs_a_league_and_shows_standings_after_every_game(tmp_path):
    """The README's recipe (make league-demo: tools/clubnet/league_demo.py): brokers, bridges,
    boards and the league service; after each game the league's standings.json has it (the
    demo polls until it does and prints the top rows); Ann, one player at two clubs."""
    import sys

    from hostenv import ROOT
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "clubnet", "league_demo.py"),
                        "--games", "6", "--pace", "0", "--clubs", "2", "--boards", "1",
                        "--http", "0", "--exit", "--folder", str(tmp_path / "demo")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr + p.stdout
    out = p.stdout
    assert out.startswith("league page: http://127.0.0.1:")
    assert out.count("in the league's standings after") == 6
    assert "not counted yet" not in out and out.count("  standings: 1. ") == 6
    lg = league.League(str(tmp_path / "demo" / "league"))
    assert lg.tally.count() == 6 and lg.players == {"Ann@north": "Ann Lee",
                                                    "Ann@south": "Ann Lee"}
    assert lg.standings(lg.tally.seasons()[0]) == season.standings(lg.counted())
    # the same folder again (the README's --folder): its boards go on with their keys and
    # counters, so their new games count (they were refused as replays, and the demo said
    # "in the league's standings" of the first run's count)
    for c in lg.clubs.values():
        c.store.close()
        c.registry.close()
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "clubnet", "league_demo.py"),
                        "--games", "3", "--pace", "0", "--clubs", "2", "--boards", "1",
                        "--http", "0", "--exit", "--folder", str(tmp_path / "demo")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr + p.stdout
    assert p.stdout.count("in the league's standings after") == 3
    assert "not counted yet" not in p.stdout
    lg = league.League(str(tmp_path / "demo" / "league"))
    assert lg.tally.count() == 9 and sum(c.store.count() for c in lg.clubs.values()) == 9
    with open(tmp_path / "demo" / "league.log") as f:
        log = f.read()
    assert "dropped" not in log
    # the first run's service saved its tally when it stopped; the second started from it
    assert "the tally: 6 games from the checkpoint, 0 read from the stores" in log
