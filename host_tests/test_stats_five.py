"""The statistics keep five-card games apart from six-card ones (board/stats.py): a history
that mixes the two kinds gives, for each kind, what a history of that kind's games alone
gives; records of earlier firmware (version 1, and version 2 without the five-card flag) are
six-card games. A hypothesis property over mixed histories, known games, an old file."""

import io

from hypothesis import given, settings, strategies as hs

from board import history, stats
from board.record import Record
from board.storage import Storage
from fakeboard.ramfs import RamFs
from cribbage import summary as S
from dealer.autoplay import play_game, seeded, GREEDY, RANDOM
from cribbage.match import Match, LURCH
from test_history import DETAIL, MAX_BYTES, kept, v1_record
from test_summary import known_game, RED, BLUE

KIND = 13  # the counters of one kind (six-card at 0, five-card at 13: board/stats.py)
N = 2 * KIND


class _File:
    """A Storage stand-in over a history file's bytes."""

    def __init__(self, data):
        self.data = data

    def open(self, name):
        return io.BytesIO(self.data) if name == "history" and self.data else None

    def read(self, name):
        return self.data


def record(m, summary=True):
    """The record history.add() writes for m's finished game (with its summary or not)."""
    st = Storage("/data", RamFs())
    assert history.add(st, m, S.dumps(m, DETAIL) if summary else None)
    (r,) = kept(st)
    return r


def _games():
    """Finished games of both kinds (engine-played, a few pegged by hand, one without its
    summary), as (record, cards)."""
    out = []
    for seed in range(1, 7):
        m = Match(players=2, target=61, cards=5)
        play_game(m, seeded(seed), [GREEDY if seed % 2 else RANDOM] * 2)
        out.append(m)
    for players, target, seed in ((2, 121, 1), (3, 121, 2), (2, 61, 3), (4, 121, 4),
                                  (2, 121, 5)):
        m = Match(players=players, target=target)
        play_game(m, seeded(seed), [RANDOM] * players)
        out.append(m)
    lurch = Match(players=2, target=61, cards=5)  # pegged by hand: no hands shown
    lurch.deal(0)  # Blue, the pone: three for last
    for _ in range(5):
        lurch.peg(RED, 13)
    assert (lurch.score, lurch.result, lurch.winner) == ([65, 3], LURCH, RED)
    out.append(lurch)
    recs = [(record(m), m.cards()) for m in out]
    recs.append((record(out[1], summary=False), 5))  # memory was short: result and scores
    recs.append((record(out[7], summary=False), 6))
    return recs


GAMES = _games()


def _plus(a, b):
    """Two tallies added counter by counter (BEST: the larger)."""
    out = []
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else [0] * N
        y = b[k] if k < len(b) else [0] * N
        out.append([max(p, q) if i % KIND == stats.BEST else p + q
                    for i, (p, q) in enumerate(zip(x, y))])
    return out


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.integers(0, len(GAMES) - 1), min_size=1, max_size=24))
def test_each_kind_counts_as_if_the_other_were_not_there(picks):
    recs = [GAMES[i] for i in picks]
    assert sum(len(r) for r, _ in recs) < MAX_BYTES  # (one file, within the bound)
    mixed = stats.tally(_File(b"".join(r for r, _ in recs)))
    six = stats.tally(_File(b"".join(r for r, c in recs if c == 6)))
    five = stats.tally(_File(b"".join(r for r, c in recs if c == 5)))
    assert all(not any(c[KIND:]) for c in six)  # a kind's games touch only its counters
    assert all(not any(c[:KIND]) for c in five)
    assert mixed == _plus(six, five)
    for side in range(len(mixed)):
        assert stats.lines(mixed, side, 6) == (stats.lines(six, side, 6)
                                               if side < len(six) else [])
        assert stats.lines(mixed, side, 5) == (stats.lines(five, side, 5)
                                               if side < len(five) else [])
        assert stats.lines(mixed, side) == (stats.lines(mixed, side, 6)
                                            + stats.lines(mixed, side, 5))
    # games and wins of each kind, straight from the records
    for cards, t in ((6, six), (5, five)):
        for side in range(len(t)):
            games = wins = 0
            for r, c in recs:
                g = Record(r)
                if c == cards and side < g.sides:
                    games += 1
                    wins += g.winner == side
            at = 0 if cards == 6 else KIND
            assert (t[side][at + stats.GAMES], t[side][at + stats.WINS]) == (games, wins)


def test_a_side_that_played_both_kinds_gets_each_kind_apart():
    six = known_game()  # six-card, Red wins 71-49: hands 12 18 28, crib 6, play 2 + 3 pegged
    five = Match(players=2, target=61, cards=5)  # Red wins by a lurch, pegged by hand
    five.deal(0)
    for _ in range(5):
        five.peg(RED, 13)
    st = Storage("/data", RamFs())
    history.add(st, six, S.dumps(six, DETAIL))
    history.add(st, five, S.dumps(five, DETAIL))
    assert [history.cards(r) for r in kept(st)] == [6, 5]
    t = stats.tally(st)
    assert stats.lines(t, RED, 6) == ["Red won 1/1", "skunk 0 best 28", "hand avg 19.3",
                                      "crib avg 6.0", "play+peg 1.7", "28s 1 29s 0"]
    # the five-card game: no hands shown (pegged by hand), one deal: 65 pegged
    assert stats.lines(t, RED, 5) == ["Red 5-card", "won 1/1", "lurch 1 best 0",
                                      "hand avg -", "crib avg -", "play+peg 65.0"]
    assert stats.lines(t, BLUE, 5) == ["Blue 5-card", "won 0/1", "lurch 0 best 0",
                                       "hand avg -", "crib avg -", "play+peg 3.0"]  # three
    assert stats.lines(t, RED) == stats.lines(t, RED, 6) + stats.lines(t, RED, 5)  # for last
    st = Storage("/data", RamFs())  # five-card games only: no six-card lines at all
    history.add(st, five, S.dumps(five, DETAIL))
    t = stats.tally(st)
    assert stats.lines(t, RED, 6) == [] and stats.lines(t, RED) == stats.lines(t, RED, 5)
    assert stats.lines(t, 2) == ["Green: no games"]


def test_a_history_of_earlier_firmware_is_six_card_games():
    """Version 1 records and version 2 ones without the five-card flag (all earlier firmware
    wrote) load as six-card games: the six-card lines are those they always were."""
    m = known_game()
    r = record(m)
    assert r[0] == 2 and not r[11] & 4  # the flags byte: what earlier firmware wrote
    old = (v1_record(2, 121, 1, 0, 9, (121, 100), 1) + v1_record(2, 121, 2, 1, 8, (80, 122), 3)
           + r)
    t = stats.tally(_File(old))
    assert [history.cards(x) for x in kept(_File(old))] == [6, 6, 6]
    assert all(not any(c[KIND:]) for c in t)
    assert stats.lines(t, RED) == ["Red won 2/3", "skunk 0 best 28", "hand avg 19.3",
                                   "crib avg 6.0", "play+peg 1.7", "28s 1 29s 0"]
    assert stats.lines(t, BLUE) == ["Blue won 1/3", "skunk 1 best 16", "hand avg 12.0",
                                    "crib avg 2.0", "play avg 0.3", "pegged avg 2.0"]


def test_the_csv_says_which_game_each_row_is_in_its_last_column():
    """The page's CSV (and tools/player/history.py's) ends each row with the cards dealt: 6, or 5
    for five-card cribbage; the columns before it keep the places earlier firmware gave
    them (GAME_COLUMNS, SIDE_COLUMNS, as the club's CSV has them)."""
    import csv
    from board import export
    import history as tool  # tools/player/history.py

    st = Storage("/data", RamFs())
    for r, _c in (GAMES[0], GAMES[6], GAMES[1]):  # five-card, six-card, five-card
        st.fs.files["/data/history"] = (st.read("history") or b"") + r
    text = "".join(export.csv_lines(st))
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(export.GAME_COLUMNS + export.SIDE_COLUMNS) + ["cards"]
    assert [(r[0], r[-1]) for r in rows[1:]] == [("1", "5"), ("1", "5"), ("2", "6"),
                                                 ("2", "6"), ("3", "5"), ("3", "5")]
    games = tool.games(st.read("history"))
    assert [g.get("cards") for g in games] == [5, None, 5]  # the JSON: as before
    plain = [row for g in games for row in export.csv_rows(g)]  # the club's rows
    assert [r[:-1] for r in rows[1:]] == [[str(x) for x in r] for r in plain]
    assert rows == [[str(x) for x in r] for r in tool.csv_rows(games)]


def test_the_page_gives_each_side_its_lines_of_both_kinds():
    """/stats: a side's six-card lines then its five-card lines (what tools/player/history.py
    prints); /history.csv ends each row with the cards dealt."""
    import json
    import history as tool  # tools/player/history.py
    from webkit import Page

    page = Page()
    try:
        data = b"".join(r for r, _c in (GAMES[6], GAMES[0], GAMES[7]))  # six, five, six
        page.app.store.fs.files[page.app.store.path("history")] = data
        st = json.loads(page.get("/stats")[1])
        assert [s["name"] for s in st] == ["Red", "Blue", "Green"]
        assert [line for s in st for line in s["lines"]] == tool.stats_lines(data)
        red = st[0]["lines"]
        assert red[0].startswith("Red won ") and red[5] == "Red 5-card"
        assert st[2]["lines"][0].startswith("Green won ") and len(st[2]["lines"]) <= 6
        body = page.get("/history.csv")[1].decode()
        assert body.splitlines()[0].endswith(",cards")
        assert [line.rsplit(",", 1)[1] for line in body.splitlines()[1:]] == ["6"] * 2 + [
            "5"] * 2 + ["6"] * 3
    finally:
        page.close()
