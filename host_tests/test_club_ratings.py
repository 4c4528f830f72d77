"""Players' ratings (issue 36): Elo after every counted game in the order stored, equal to an
Elo computed here from the boards' own records; a withdrawn game leaves the ratings exactly as
if it had never been sent, a revised one as if it had been sent so; the history drawn on the
player's page."""

import json

import pytest

from club import ratings, web
from club.service import Club
from club.simboard import SimBoard, payload
from test_club_season import GAME, NIGHTS, play_season


def elo(played):
    """Two-player Elo from the games as the boards recorded them: 1500, K 32, 400."""
    r = {}
    for msg in played:
        names = {s["side"]: s["name"] for s in msg["seats"]}
        w = msg["game"]["winner"]
        win, lose = names[w], names[1 - w]
        rw, rl = r.get(win, 1500.0), r.get(lose, 1500.0)
        d = 32 * (1 - 1 / (1 + 10 ** ((rl - rw) / 400)))
        r[win], r[lose] = rw + d, rl - d
    return r


def test_ratings_are_elo_over_the_boards_records_in_order(tmp_path):
    club, played = play_season(tmp_path)
    r, hist = club.ratings()
    want = elo([m for _, m in played])
    assert r.keys() == want.keys()
    for name in want:
        assert r[name] == pytest.approx(want[name], abs=1e-9)
        assert len(hist[name]) == 27
    assert sum(r.values()) == pytest.approx(1500 * 4)  # Elo moves points, never makes them
    assert len({round(v, 6) for v in r.values()}) > 1


def test_a_withdrawn_game_changes_the_ratings_back_exactly_and_a_revision_counts_as_sent(
        tmp_path):
    (tmp_path / "a").mkdir()
    club, played = play_season(tmp_path / "a", nights=NIGHTS[:1])
    gone = played[4][1]  # a game early in the night: every later game's ratings depend on it
    board = SimBoard(gone["board"], secret=club.registry.secret(gone["board"]))
    board.counter = 10 ** 6  # past every counter the board used
    before = club.ratings()
    assert club.handle(GAME % gone["board"], board.withdrawal(gone["id"])) == "withdrawn"
    after = club.ratings()
    assert after != before
    without = [m for _, m in played if m["id"] != gone["id"]]
    other = Club(str(tmp_path / "b.sqlite"))  # the same games, never that one
    for m in without:
        other.store.add_game(m, NIGHTS[0])
    assert after == other.ratings()  # exactly: the same games in the same order
    want = elo(without)
    for name, v in want.items():
        assert after[0][name] == pytest.approx(v, abs=1e-9)
    # ended again with the seats the other way round: counts in its place, as revised
    fixed = json.loads(payload(gone))
    fixed["seats"][0]["name"], fixed["seats"][1]["name"] = \
        fixed["seats"][1]["name"], fixed["seats"][0]["name"]
    assert club.handle(GAME % gone["board"], board.signed(fixed)) == "revised"
    want = elo([fixed if m["id"] == gone["id"] else m for _, m in played])
    r, _ = club.ratings()
    for name, v in want.items():
        assert r[name] == pytest.approx(v, abs=1e-9)


def test_three_sides_and_partners_are_rated_as_documented():
    def game(gid, sides, seats, winner):
        return {"id": gid, "board": "t", "seats": seats,
                "game": {"sides": sides, "winner": winner}}
    three = game("t-1", 3, [{"name": n, "side": i} for i, n in enumerate(("A", "B", "C"))], 0)
    r, _ = ratings.rate([three])
    # the winner beats each of two sides with K/2: +8 each at equal ratings; losers -8
    assert r == {"A": 1516.0, "B": 1492.0, "C": 1492.0}
    four = game("t-2", 2, [{"name": "A", "side": 0}, {"name": "B", "side": 1},
                           {"name": "C", "side": 0}, {"name": None, "side": 1}], 1)
    r, hist = ratings.rate([four], {"A": 1600.0, "C": 1400.0})
    # side 0 rated 1500 (the mean), side 1 1500 (B new, the unnamed seat START): 16 each way
    assert r == {"A": 1584.0, "C": 1384.0, "B": 1516.0}
    assert hist["B"] == [("t-2", 1516.0)]


def test_the_players_page_draws_the_history_and_ratings_json_lists_them(tmp_path):
    club, played = play_season(tmp_path, nights=NIGHTS[:1])
    c = web.make_app(club).test_client()
    page = c.get("/player?name=Ann").get_data(as_text=True)
    assert "<svg" in page and "class=\"rating\"" in page and "9 games" in page
    js = c.get("/ratings.json").get_json()
    assert js["k"] == 32 and js["start"] == 1500
    want = elo([m for _, m in played])
    assert [r["name"] for r in js["ratings"]] == sorted(want, key=lambda n: -want[n])
    assert [r["games"] for r in js["ratings"]] == [9] * 4
    assert "Ratings" in c.get("/season").get_data(as_text=True)
