"""The league's season without brokers (issue 36): games signed by simulated boards of two
clubs handed to the league's door (League.handle, as the league service does for each bridged
message). The standings and ratings are kept incrementally (tally.py) and equal, after every
game counted, revised or withdrawn and after a restart, season.standings() and ratings.rate()
from scratch; a player is NAME@CLUB until the league's director names them one player across
clubs; a game carrying its night counts in it however late it arrives (a club offline for a
week), and a game without one in the night it arrives on."""

import json
import random

import pytest

from club import cli, league, night, ratings, season
from club.simboard import SimBoard, payload

TOPIC = "league/%s/%s/game"


def make(tmp_path):
    lg = league.League(str(tmp_path / "league"))
    boards = {}
    for i, club in enumerate(("north", "south")):
        bs = [SimBoard("t%d" % j, seed=60 + 10 * i + j) for j in (1, 2)]  # t1, t2 at each
        lg.add_club(club, [{"name": b.name, "secret": b.secret.hex()} for b in bs])
        boards[club] = bs
    return lg, boards


def on(lg, club, n):
    lg.clubs[club].night = lambda: n


def step(lg, boards, rnd, field, sent, withdraw, night=None):
    """One step of a league's life: a game at a random board of a random club (on night, if
    given), or, by the chance withdraw, one of sent (club, board, message) withdrawn or revised
    (seats swapped). The handled messages are kept in sent."""
    club = rnd.choice(("north", "south"))
    if night is not None:
        on(lg, club, night)
    b = rnd.choice(boards[club])
    if sent and rnd.random() < withdraw:
        c, bd, msg = sent.pop(rnd.randrange(len(sent)))
        if rnd.random() < 0.5:
            assert lg.handle(TOPIC % (c, bd.name), bd.withdrawal(msg["id"])) == "withdrawn"
        else:
            fixed = json.loads(payload(msg))
            fixed["seats"].reverse()
            assert lg.handle(TOPIC % (c, bd.name), bd.signed(fixed)) == "revised"
            sent.append((c, bd, fixed))
    else:
        b.seat(rnd.sample(field, 2))
        msg = b.play()
        assert lg.handle(TOPIC % (club, b.name), b.signed(msg)) == "new"
        sent.append((club, b, msg))


def scratch_equal(lg):
    games = lg.counted()
    r, hist = ratings.rate(games)
    assert lg.ratings() == (r, hist)
    years = sorted({g["night"][:4] for g in games}, reverse=True)
    assert lg.tally.seasons() == years
    for y in years:
        s = {"name": y, "first": y + "-01-01", "last": y + "-12-31", "nights": None}
        assert lg.standings(y) == season.standings(season.of_season(s, games))
    return games


def test_league_standings_and_ratings_stay_equal_to_a_recompute_through_withdrawals(
        tmp_path):
    lg, boards = make(tmp_path)
    rnd = random.Random(3)
    field = ["Ann", "Bob", "Cy", "Di", "Ed"]
    sent = []  # (club, board, message)
    nights = ["2025-12-29", "2026-01-05"]
    for i in range(36):
        step(lg, boards, rnd, field, sent, 0.25, nights[i * 2 // 36])
        scratch_equal(lg)
    # a board's resend changes nothing; a restart loads the same tally
    c, bd, msg = sent[-1]
    bd.counter -= 1
    assert lg.handle(TOPIC % (c, bd.name), bd.signed(msg)) == "duplicate"
    games = scratch_equal(lg)
    assert len(games) == len(sent) == lg.tally.count()
    again = league.League(lg.folder)
    assert again.ratings() == lg.ratings()
    for y in lg.tally.seasons():
        assert again.standings(y) == lg.standings(y)
    # the page and its data show the tally
    c = league.make_app(lg).test_client()
    js = c.get("/standings.json?season=2026").get_json()
    assert js["standings"] == lg.standings("2026") and js["games"] == len(sent)
    assert js["ratings"] == ratings.table_of(*lg.ratings())
    csv = c.get("/season.csv?season=2025").get_data(as_text=True)
    assert csv.splitlines()[0] == ",".join(season.COLUMNS)
    assert len(csv.splitlines()) == 1 + len(lg.standings("2025"))


def test_a_player_at_two_clubs_is_one_player_once_the_league_says_so(tmp_path, capsys):
    lg, boards = make(tmp_path)
    on(lg, "north", "2026-01-05")
    on(lg, "south", "2026-01-05")
    for club, names in (("north", ["Ann", "Bob"]), ("south", ["Ann", "Cy"])):
        b = boards[club][0]
        for _ in range(2):
            b.seat(names)
            assert lg.handle(TOPIC % (club, b.name), b.signed(b.play())) == "new"
    # by default two clubs' Anns are two players
    r, _ = lg.ratings()
    assert {"Ann@north", "Ann@south", "Bob@north", "Cy@south"} == set(r)
    assert {row["name"] for row in lg.standings("2026")} == set(r)
    # the league's director: the same Ann (a league-wide name), at the command line
    folder = lg.folder
    for at in ("Ann@north", "Ann@south"):
        assert cli.main(["league", "--folder", folder, "player", at, "Ann Lee (ACC 123)"]) == 0
    assert cli.main(["league", "--folder", folder, "player", "Ann@nowhere/x", "A"]) == 1
    capsys.readouterr()
    assert cli.main(["league", "--folder", folder, "players"]) == 0
    assert "Ann@south\tAnn Lee (ACC 123)" in capsys.readouterr().out
    lg2 = league.League(folder)  # (the service reads players.json at its start)
    r, hist = lg2.ratings()
    assert set(r) == {"Ann Lee (ACC 123)", "Bob@north", "Cy@south"}
    assert len(hist["Ann Lee (ACC 123)"]) == 4  # her games at both clubs, one rating
    rows = {row["name"]: row for row in lg2.standings("2026")}
    assert rows["Ann Lee (ACC 123)"]["games"] == 4
    scratch_equal(lg2)
    # unmapped again: two players again, exactly as before
    lg2.player("Ann@south")
    assert set(lg2.ratings()[0]) == {"Ann Lee (ACC 123)", "Ann@south", "Bob@north", "Cy@south"}
    scratch_equal(lg2)
    with pytest.raises(ValueError):
        lg2.player("Ann", "x")  # no club


def test_a_club_offline_for_a_week_counts_its_games_in_their_own_night(tmp_path):
    lg, boards = make(tmp_path)
    b = boards["north"][0]
    played = "2026-01-05"
    on(lg, "north", "2026-01-12")  # the games reach the league a week late
    b.seat(["Ann", "Bob"])
    late = []
    for _ in range(3):
        msg = b.play()
        msg["night"] = played  # the night it was played, signed with the game
        late.append(msg)
        assert lg.handle(TOPIC % ("north", b.name), b.signed(msg)) == "new"
    plain = b.play()  # no night carried: filed on the night it arrives
    assert lg.handle(TOPIC % ("north", b.name), b.signed(plain)) == "new"
    st = lg.clubs["north"].store
    assert [g["night"] for g in st.games()] == [played] * 3 + ["2026-01-12"]
    games = scratch_equal(lg)
    assert season.by_night(games).keys() == {played, "2026-01-12"}
    # a revision carrying its night stays there; a withdrawal takes it out of it
    fixed = json.loads(payload(late[0]))
    fixed["seats"].reverse()
    assert lg.handle(TOPIC % ("north", b.name), b.signed(fixed)) == "revised"
    assert st.game(late[0]["id"])["night"] == played
    assert lg.handle(TOPIC % ("north", b.name), b.withdrawal(late[1]["id"])) == "withdrawn"
    scratch_equal(lg)
    # a night no board could have played it in is refused at the door, saying why
    for bad in ("2026-01-14", "2024-11-01", "2026-02-30"):
        msg = b.play()
        msg["night"] = bad
        assert lg.handle(TOPIC % ("north", b.name), b.signed(msg)) == "dropped"
        assert "night" in st.rejects(1)[0]["reason"]
    assert night.carried({"night": "2026-01-13"}, "2026-01-12") == "2026-01-13"
    assert night.carried({}, "2026-01-12") == "2026-01-12"


def test_a_failing_listener_never_turns_a_kept_game_into_a_refused_one(tmp_path, caplog):
    lg, boards = make(tmp_path)
    club = lg.clubs["north"]
    club.store.listeners.append(lambda gid: 1 / 0)
    b = boards["north"][0]
    b.seat(["Ann", "Bob"])
    msg = b.play()
    assert lg.handle(TOPIC % ("north", b.name), b.signed(msg)) == "new"
    assert club.store.count() == 1 and lg.tally.count() == 1 and club.dropped == 0
    assert "a listener failed on game %s" % msg["id"] in caplog.text
