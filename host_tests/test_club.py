"""The club's side of club night (issue 24, tools/club) without a broker: the contract's
checks, the SQLite store (every id once, kept across a reopen), standings by ACC game points
from real games (the core plays them, board/history.py records them, board/export.py reads
them back), the race of a game, the rotation draw and the knock-out bracket, the pages."""

import csv
import io
import json

import pytest

from club import contract, night, page, tournament
from club.contract import BadMessage
from club.service import Club, games_csv
from club.simboard import SimBoard, payload
from club.store import Store

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def club_games(n_boards=2, games=6, players=2, seed=1):
    """Real games on n_boards simulated boards, the seats named from PLAYERS in turn."""
    out = []
    for b in range(n_boards):
        board = SimBoard("t%d" % (b + 1), seed=seed + b, players=players)
        for g in range(games):
            names = [PLAYERS[(b + g + i) % len(PLAYERS)] for i in range(players)]
            board.seat(names)
            out.append(board.play())
    return out


def test_standings_equal_the_games_played():
    games = club_games()
    rows = night.standings(games)
    by = {r["name"]: r for r in rows}
    # each player's games, wins and game points counted from the records themselves
    for name in PLAYERS:
        mine = [g for g in games if any(s["name"] == name for s in g["seats"])]
        side = [next(s["side"] for s in g["seats"] if s["name"] == name) for g in mine]
        won = [g["game"]["winner"] == k for g, k in zip(mine, side)]
        points = sum((2 if g["game"]["result"] == "win" else 3)
                     for g, w in zip(mine, won) if w)
        assert (by[name]["games"], by[name]["won"], by[name]["points"]) == (
            len(mine), sum(won), points)
    assert sum(r["games"] for r in rows) == 2 * len(games)
    assert sum(r["won"] for r in rows) == len(games)
    assert sum(r["spread"] for r in rows) == 0  # two-handed: one's margin is the other's
    # best first: game points, then games won, then spread
    keys = [(r["points"], r["won"], r["spread"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert any(g["game"]["result"] != "win" for g in games)  # a skunk is among them


def test_a_skunk_is_three_game_points_and_the_spread_stops_at_the_target():
    games = club_games(games=12)
    skunk = next(g for g in games if g["game"]["result"] == "skunk")
    res = {r["side"]: r for r in night.results(skunk)}
    w = skunk["game"]["winner"]
    loser = skunk["game"]["by_side"][1 - w]["score"]
    assert res[w]["points"] == 3 and res[1 - w]["points"] == 0
    assert res[w]["spread"] == 121 - loser == -res[1 - w]["spread"]
    assert loser < 91


def test_ties_go_to_games_won_then_spread():
    def game(gid, a, b, winner, score_b, result="win"):
        sides = [{"side": 0, "name": "Red", "score": 121 if winner == 0 else score_b,
                  "won": winner == 0},
                 {"side": 1, "name": "Blue", "score": 121 if winner == 1 else score_b,
                  "won": winner == 1}]
        return {"id": gid, "board": "t", "seats": [{"name": a, "side": 0},
                                                   {"name": b, "side": 1}],
                "game": {"sides": 2, "players": 2, "target": 121, "winner": winner,
                         "result": result, "by_side": sides}}
    # X: a skunk and a loss (3 points, 1 won); Y: a skunk (3, 1); Z: ... by spread
    games = [game("1", "X", "P", 0, 80, "skunk"), game("2", "X", "Q", 1, 100),
             game("3", "Y", "R", 0, 85, "skunk"), game("4", "Y", "S", 1, 120)]
    rows = night.standings(games)
    order = [r["name"] for r in rows[:2]]
    # X: spread 41 - 21 = 20; Y: 36 - 1 = 35: Y first
    assert order == ["Y", "X"]
    assert [r["place"] for r in rows[:2]] == [1, 2]


def test_partners_share_their_side_and_an_unnamed_seat_counts_for_nobody():
    board = SimBoard("t4", seed=7, players=4)
    board.seat(["Ann", "Bob", None, "Di"])
    g = board.play()
    res = night.results(g)
    assert [r["name"] for r in res] == ["Ann", "Bob", "Di"]
    assert res[0]["side"] == 0 and res[2]["side"] == 1 == res[1]["side"]
    assert res[1]["points"] == res[2]["points"]  # partners


def test_the_race_ends_at_each_final_score():
    for players in (2, 3, 4, 5, 6):
        board = SimBoard("r", seed=players, players=players)
        for _ in range(8):
            g = board.play()
            runs = night.race(g)
            assert [r[-1] for r in runs] == [s["score"] for s in g["game"]["by_side"]]
            # a point per deal and one at the start: nothing added past the summary
            assert all(len(r) == g["game"]["deals"] + 1 for r in runs)
            assert all(a <= b for r in runs for a, b in zip(r, r[1:]))


def test_special_hands_come_from_the_summaries():
    g = club_games(n_boards=1, games=1)[0]
    g["game"]["by_side"][1]["n29"] = 1
    g["game"]["by_side"][0]["n28"] = 2
    sp = night.special_hands([g])
    assert [(s["names"], s["n28"], s["n29"]) for s in sp] == [
        ([g["seats"][0]["name"]], 2, 0), ([g["seats"][1]["name"]], 0, 1)]


def test_the_contract_refuses_malformed_messages():
    g = club_games(n_boards=1, games=1)[0]
    ok = payload(g)
    assert contract.check_game("t1", ok)["id"] == "t1-1"
    bad = [b"", b"{not json", b"[1, 2]", b"\xff\xfe", b"x" * (contract.MAX_PAYLOAD + 1)]
    for change in (lambda m: m.pop("id"), lambda m: m.update(board="t9"),
                   lambda m: m["game"].update(winner=5), lambda m: m.update(seats=[]),
                   lambda m: m["game"]["by_side"].pop(),
                   lambda m: m["game"]["by_side"][0].update(score="lots"),
                   lambda m: m["seats"][0].update(name="x" * 99),
                   lambda m: m["seats"][1].update(side=7)):
        m = json.loads(ok)
        change(m)
        bad.append(payload(m))
    for b in bad:
        with pytest.raises(BadMessage):
            contract.check_game("t1", b)
    with pytest.raises(BadMessage):
        contract.check_game("t2", ok)  # t1's game on t2's topic
    with pytest.raises(BadMessage):
        contract.split("cribbage/t1/other")
    assert contract.split("cribbage/t1/game") == ("t1", "game")
    assert contract.split("club/x/t1/state", "club/x") == ("t1", "state")


def test_the_store_keeps_each_id_once_across_a_reopen(tmp_path):
    path = str(tmp_path / "club.sqlite")
    games = club_games(n_boards=1, games=3)
    st = Store(path)
    assert [st.add_game(g, "2026-11-27") for g in games] == [True, True, True]
    assert not st.add_game(games[1], "2026-11-27")  # a resend
    st.close()
    st = Store(path)
    assert st.count() == 3
    assert [g["id"] for g in st.games()] == ["t1-1", "t1-2", "t1-3"]
    assert st.games(night="2026-11-28") == []
    st.close()


def test_a_club_handles_every_kind_of_message(tmp_path):
    club = Club(str(tmp_path / "c.sqlite"))
    club.registry.add("t1", unsigned=True)  # (its plain games: test_club_trust.py signs)
    board = SimBoard("t1", seed=2)
    board.seat(["Ann", "Bob"])
    g = board.play()
    assert club.handle("cribbage/t1/game", payload(g)) == "new"
    assert club.handle("cribbage/t1/game", payload(g)) == "duplicate"
    other = board.play()  # another game under the first one's id: the first is kept
    assert club.handle("cribbage/t1/game", payload(dict(other, id=g["id"]))) == "duplicate"
    assert club.store.game(g["id"])["game"] == g["game"] != other["game"]
    assert club.handle("cribbage/t1/game", b"{]") == "dropped"
    assert club.handle("cribbage/t1/state", payload(board.state())) == "state"
    assert club.handle("cribbage/t1/status", b"online") == "status"
    assert club.handle("cribbage/t1/status", b"maybe") == "dropped"
    assert club.handle("elsewhere/t1/game", payload(g)) == "dropped"
    assert (club.store.count(), club.dropped, club.duplicates) == (1, 3, 2)
    assert club.live()[0]["t1"]["names"] == ["Ann", "Bob"]


def test_the_rotation_gives_nine_different_opponents():
    for n in (10, 11, 12, 17, 24):
        players = ["P%d" % i for i in range(n)]
        rounds = tournament.rotation(players, 9)
        met = {p: [] for p in players}
        for pairs in rounds:
            seen = [p for pair in pairs for p in pair if p]
            assert sorted(seen) == sorted(players)  # everyone once a round
            for a, b in pairs:
                if b:
                    met[a].append(b)
                    met[b].append(a)
        for p in players:
            assert len(met[p]) == len(set(met[p]))  # never the same opponent twice
            assert len(met[p]) >= 9 - (n % 2)  # an odd field: at most one bye
    # the tables: as many pairs as tables, the rest play next; the bye sits out
    t = tournament.tables(tournament.rotation(["A", "B", "C", "D", "E"], 1)[0], 1)
    assert [x[0] for x in t] == [1, None, None] and t[-1][2] is None


def test_played_rounds_follow_the_games_and_the_bracket_seeds_the_top_quarter():
    players = ["P%d" % i for i in range(8)]
    rounds = tournament.rotation(players, 3)
    # the first round played, on a board, with real games
    board = SimBoard("t1", seed=3)
    games = []
    for a, b in rounds[0]:
        board.seat([a, b])
        games.append(board.play())
    done = tournament.played_rounds(rounds, games)
    assert all(done[0]) and not any(done[1])
    assert tournament.next_round(rounds, done) == 1
    rows = night.standings(games)
    br = tournament.bracket(rows, [])
    assert len(br) == 1 and (br[0][0]["a"], br[0][0]["b"]) == (rows[0]["name"], rows[1]["name"])
    rows12 = [{"name": "S%d" % i} for i in range(1, 13)]  # 12 players: top 3, a bye for 1
    br = tournament.bracket(rows12, [])
    assert [(m["a"], m["b"], m["winner"]) for m in br[0]] == [
        ("S1", None, "S1"), ("S2", "S3", None)]
    assert tournament.seeding(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_the_pages_and_the_exports(tmp_path):
    games = club_games(n_boards=2, games=3)
    for g in games:
        g["received"], g["night"] = 0.0, "2026-11-27"
    board = SimBoard("t1", seed=1)
    board.seat(["Ann", "Bob"])
    board.deal()
    html = page.club_page("2026-11-27", ["2026-11-27"], games, {"t1": board.state()},
                          {"t1": "online"}, None, 0)
    for name in PLAYERS:
        assert name in html
    assert "<svg" in html and games[-1]["id"] in html
    svg = page.race_svg(games[0])
    assert svg.count("<polyline") == 2
    rows = list(csv.reader(io.StringIO(games_csv(games))))
    assert len(rows) == 1 + 2 * len(games)
    assert rows[1][:2] == ["t1-1", "t1"] and rows[1][5] == games[0]["seats"][0]["name"]
    t = {"players": PLAYERS, "games": 3, "tables": 2, "started": 0.0}
    html = page.club_page("2026-11-27", [], games, {}, {}, t, 2)
    info = page.tournament_info(t, games)
    assert info["next"] == 1  # these games played round 1's pairs (Ann v Bob, Cy v Di)
    assert "Game 2 of 3" in html
    for table, a, b in tournament.tables(info["rounds"][1], 2):
        assert "<td>%d</td><td>%s v %s</td>" % (table, a, b) in html
    assert "2 malformed messages" in html
    assert "Tournament" in page.projector_page("2026-11-27", games, t)
