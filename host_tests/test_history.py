"""Game history and statistics (issue 11): the history file of finished games (board/history.py)
with each game's summary (cribbage/summary.py), its bound, its corrupt and old records, the
statistics per side (board/stats.py), tools/player/history.py on a simulator folder, and a finished
game recorded by the board app on the real MicroPython binary (its heap: tools/budgets.py)."""

import csv
import io
import json
import os
import subprocess
import sys


import history as tool  # tools/player/history.py
from hostenv import ROOT, venv_program
from fakeboard.fake import build as fake_board
from webkit import sim
from fakeboard.ramfs import RamFs
from board import history, stats
from board.record import Record, TOTALS
from board.app import App
from board.storage import Storage
from cribbage import summary as S
from dealer.autoplay import play_game as autoplay, seeded, RANDOM
from cribbage.match import Match, SKUNK, LURCH, OVER
from boardkit import board, next_game, play_game
from boardkit import board as board_kit
from test_summary import known_game, RED, BLUE

MICROPYTHON = venv_program("micropython")
# board/history.py's bounds, as it documents them (its constants are private: its names are
# interned for good when it loads, at a game's end): the newest 64 records, 8 KB in all, the
# first 40 deals of a game detailed
KEEP = 64
MAX_BYTES = 8192
DETAIL = 40


def kept(store):
    """The good records of store's history file, oldest first."""
    return tool.records(store.read("history") or b"")


def finished(players=2, seed=1, target=121):
    """A game the computer players played to its end through the engine."""
    m = Match(players=players, target=target)
    autoplay(m, seeded(seed), [RANDOM] * players)
    return m


def test_a_record_holds_the_result_the_scores_and_the_summary():
    m = known_game()
    st = Storage("/data", RamFs())
    assert history.add(st, m, S.dumps(m, DETAIL))
    (r,) = kept(st)
    g = tool.decode(r, 1)
    assert (g["version"], g["players"], g["sides"], g["target"], g["result"], g["winner"],
            g["deals"], g["muggins"], g["summary"]) == (2, 2, 2, 61, "win", RED, 3, True, True)
    red, blue = g["by_side"]
    assert (red["score"], red["hands"], red["hand"], red["cribs"], red["crib"], red["play"],
            red["pegged"], red["penalties"], red["best"], red["n28"]) == (
        71, 3, 58, 1, 6, 2, 3, 2, 28, 1)
    assert (blue["score"], blue["hand"], blue["heels"], blue["pegged"], blue["muggins_taken"],
            blue["best"]) == (49, 36, 2, 6, 2, 16)
    assert [(d["dealer"], d["heels"], d["crib"]) for d in g["by_deal"]] == [
        (0, 0, 6), (1, 2, 2), (0, 0, None)]
    assert [[s["hand"] for s in d["by_side"]] for d in g["by_deal"]] == [[12, 16], [18, 8],
                                                                          [28, 12]]
    assert g["by_deal"][1]["by_side"][BLUE]["muggins_taken"] == 2
    assert g["by_deal"][1]["by_side"][RED]["penalties"] == 2


def test_the_file_stays_bounded_and_the_oldest_go_first():
    st = Storage("/data", RamFs())
    fs = st.fs
    m = finished()
    body = S.dumps(m, DETAIL)
    for _ in range(KEEP + 10):  # KEEP + 10 games: the count bounds it
        m.games[0] += 1  # another game (a new serial)
        assert history.add(st, m, body)
    recs = kept(st)
    assert len(recs) == KEEP
    serials = [tool.decode(r, 0)["serial"] for r in recs]
    assert serials == list(range(serials[0], serials[0] + KEEP))
    assert serials[-1] == sum(m.games)  # the newest kept, the oldest gone
    assert len(fs.files["/data/history"]) == KEEP * len(recs[0]) <= MAX_BYTES
    # five players to 121 with every deal: bigger records, the bytes bound them
    big = finished(players=5, seed=3)
    body = S.dumps(big, DETAIL)
    for _ in range(KEEP + 10):
        big.games[0] += 1
        assert history.add(st, big, body)
    data = fs.files["/data/history"]
    recs = kept(st)
    size = len(recs[-1])  # every one a five-player game now
    assert MAX_BYTES - size < len(data) <= MAX_BYTES
    assert len(recs) == len(data) // size < KEEP
    assert tool.decode(recs[-1], 0)["serial"] == sum(big.games)


def test_a_game_offered_again_after_a_power_cut_is_recorded_once():
    st = Storage("/data", RamFs())
    m = known_game()
    assert history.add(st, m, S.dumps(m, DETAIL))
    assert not history.add(st, m, S.dumps(m, DETAIL))
    assert not history.add(st, m)  # the same game without its summary (an undo shows it)
    assert len(kept(st)) == 1


def test_a_corrupt_record_is_skipped_and_left_out_at_the_next_write():
    st = Storage("/data", RamFs())
    fs = st.fs
    m = finished()
    body = S.dumps(m, DETAIL)
    serials = []
    for _ in range(5):
        m.games[0] += 1
        serials.append(sum(m.games))
        history.add(st, m, body)
    data = bytearray(fs.files["/data/history"])
    n = len(data) // 5
    data[2 * n + 20] ^= 0x40  # one bit of the third record
    fs.files["/data/history"] = bytes(data)

    def read():
        return [tool.decode(r, 0)["serial"] for r in kept(st)]

    assert read() == serials[:2] + serials[3:]
    # a bad length, and a tail cut short: the next good record is found, the tail skipped
    data[n + 1] = 0xFF
    fs.files["/data/history"] = bytes(data[:-7])
    assert read() == [serials[0], serials[3]]
    m.games[0] += 1
    assert history.add(st, m, body)  # rewritten from the good records only
    assert len(fs.files["/data/history"]) == 3 * n
    assert read() == [serials[0], serials[3], sum(m.games)]


def v1_record(players, target, result, winner, deals, scores, serial):
    """A record as the firmware before this one wrote it (16 bytes, version 1)."""
    r = bytearray(16)
    r[0:6] = bytes((1, players, target, result, winner, deals))
    r[6:6 + len(scores)] = bytes(scores)
    r[12] = serial & 255
    r[13] = serial >> 8
    r[15] = sum(r) & 255
    return bytes(r)


def test_version_1_records_still_read_and_stay_until_they_are_the_oldest():
    st = Storage("/data", RamFs())
    fs = st.fs
    old = [v1_record(2, 121, 1, 0, 9, (121, 100), 1), v1_record(2, 121, SKUNK, 1, 8, (80, 122), 3),
           v1_record(3, 61, 1, 2, 5, (40, 50, 61), 4)]
    fs.files["/data/history"] = b"".join(old)
    m = known_game()
    assert history.add(st, m, S.dumps(m, DETAIL))
    recs = kept(st)
    assert recs[:3] == old and len(recs) == 4
    gs = [tool.decode(r, i + 1) for i, r in enumerate(recs)]
    assert [(g["version"], g["sides"], g["result"], g["summary"]) for g in gs] == [
        (1, 2, "win", False), (1, 2, "skunk", False), (1, 3, "win", False), (2, 2, "win", True)]
    assert [s["score"] for s in gs[2]["by_side"]] == [40, 50, 61]
    for _ in range(KEEP):  # they go first, like any oldest record
        m.games[0] += 1
        history.add(st, m)
    assert all(Record(r).version == 2 for r in kept(st))


def test_one_record_reader_reads_record_after_record_by_name():
    """board/record.py's Record, as the statistics use it: one reader, record after record
    (a version 2 one with its summary, then a version 1 one: no totals, muggins unknown)."""
    st = Storage("/data", RamFs())
    m = known_game()
    history.add(st, m, S.dumps(m, DETAIL))
    (new,) = kept(st)
    old = v1_record(3, 61, SKUNK, 2, 5, (40, 30, 61), 4)
    g = Record()
    assert g.read(new) is g
    assert (g.version, g.players, g.sides, g.target, g.winner, g.deals, g.muggins,
            g.summary) == (2, 2, 2, 61, RED, 3, True, True)
    assert (g.score(RED), g.score(BLUE)) == (71, 49)
    assert g.side(RED) and (g.hands, g.hand, g.cribs, g.crib, g.best, g.n28) == (
        3, 58, 1, 6, 28, 1)
    assert g.side(BLUE) and (g.hand, g.heels, g.pegged, g.muggins_taken) == (36, 2, 6, 2)
    assert [d[:3] for d in g.rows()] == [(0, 0, 6), (1, 2, 2), (0, 0, None)]
    g.read(old)
    assert (g.version, g.players, g.sides, g.target, g.result, g.winner, g.deals, g.serial,
            g.muggins, g.summary) == (1, 3, 3, 61, SKUNK, 2, 5, 4, None, False)
    assert [g.score(k) for k in range(3)] == [40, 30, 61]
    assert not g.side(BLUE) and g.hand is None and g.n29 is None and g.rows() == []


def test_statistics_per_side_from_known_records():
    st = Storage("/data", RamFs())
    fs = st.fs
    fs.files["/data/history"] = (v1_record(2, 121, 1, 0, 9, (121, 100), 1)
                                 + v1_record(2, 121, SKUNK, 1, 8, (80, 122), 3))
    m = known_game()  # Red wins 71-49: hands 12 18 28, crib 6, play 2 + 3 pegged in 3 deals
    history.add(st, m, S.dumps(m, DETAIL))
    s = Match(players=2, target=61)  # Blue wins by a lurch, pegging by hand: no hands shown
    s.deal(0)
    s.peg(RED, 1)
    for _ in range(5):
        s.peg(BLUE, 13)
    assert (s.winner, s.result, s.score) == (BLUE, LURCH, [1, 65])
    history.add(st, s, S.dumps(s, DETAIL))
    t = stats.tally(st)
    assert len(t) == 2
    red, blue = t
    assert (red[stats.GAMES], red[stats.WINS], red[stats.SKUNKS]) == (4, 2, 0)
    assert (blue[stats.GAMES], blue[stats.WINS], blue[stats.SKUNKS]) == (4, 2, 2)
    assert (red[stats.HANDS], red[stats.HAND], red[stats.CRIBS], red[stats.CRIB]) == (3, 58, 1, 6)
    assert (red[stats.DEALS], red[stats.PLAY], red[stats.BEST], red[stats.N28]) == (4, 2, 28, 1)
    assert red[stats.PEGGED] == 4  # ("play" is the play's points: those pegged by hand apart)
    assert (blue[stats.HANDS], blue[stats.HAND], blue[stats.DEALS], blue[stats.PLAY]) == (
        3, 36, 4, 1)
    assert blue[stats.PEGGED] == 6 + 65  # (pegged by hand: not the play's, issue 35 item 14)
    assert stats.lines(t, RED) == ["Red won 2/4", "skunk 0 best 28", "hand avg 19.3",
                                   "crib avg 6.0", "play+peg 1.5", "28s 1 29s 0"]
    assert stats.lines(t, BLUE) == ["Blue won 2/4", "skunk 2 best 16", "hand avg 12.0",
                                    "crib avg 2.0", "play avg 0.3", "pegged avg 17.8"]
    assert stats.lines(t, 2) == ["Green: no games"]
    assert stats.lines(stats.tally(Storage("/empty", RamFs())), RED) == ["Red: no games"]
    for side in range(6):  # the display's width, whatever the numbers (six-card, five-card)
        t = [[64, 64, 64, 1, 29, 1, 29, 1, 121, 29, 64, 64, 121] * 2] * 6  # (64 games at most)
        assert all(len(line) <= 16 for line in stats.lines(t, side))
        for cards in (6, 5):  # a display page each: 6 lines at most under its header
            assert 5 <= len(stats.lines(t, side, cards)) <= 6
            assert all(len(line) <= 16 for line in stats.lines(t, side, cards))


def test_the_board_records_each_finished_game_with_its_summary():
    hw, app, f = board()
    play_game(hw, app, f, seed=4)
    m = app.m
    want = b"".join(S.dumps(m, DETAIL))
    scores, deals = list(m.score), m.deals
    next_game(f, app)
    (r,) = kept(app.store)
    g = tool.decode(r, 1)
    assert g["summary"] and [s["score"] for s in g["by_side"]] == scores
    for k, s in enumerate(g["by_side"]):
        t = dict(zip(TOTALS, S.totals(want, 0, m.sides, k)))  # (in its order)
        assert (s["hand"], s["crib"]) == (t["hand"], t["crib"]) and s["hands"] + s["cribs"] > 0
        rec = Record(r)  # the same, read by name
        assert rec.side(k) and (rec.hand, rec.crib, rec.best) == (t["hand"], t["crib"], t["best"])
        assert s["hand"] + s["crib"] + s["play"] + s["heels"] + s["pegged"] == scores[k]
    assert len(g["by_deal"]) == deals == g["deals"]


def _summary_short(monkeypatch):
    """The game's summary (cribbage/summary.py) runs out of memory half way through its
    replay, the game not put back."""
    def short(m, limit):
        m.start((0,) * 6, -1)
        raise MemoryError

    def sliced(m, limit, rest):  # (the summary a deal at a time: App.step's, board/history.py)
        yield short(m, limit)

    monkeypatch.setitem(sys.modules, "cribbage.summary", S)  # (history forgets it after)
    # (and as the package's attribute, which `from cribbage import summary` reads first: an
    # earlier test's loader may have let S go and a later import made another module)
    monkeypatch.setattr(sys.modules["cribbage"], "summary", S, raising=False)
    monkeypatch.setattr(S, "dumps", short)
    monkeypatch.setattr(S, "replay", sliced)


def test_when_the_summary_cannot_be_made_the_result_is_still_recorded(monkeypatch):
    _summary_short(monkeypatch)
    hw, app, f = board()
    play_game(hw, app, f, seed=2)
    scores = list(app.m.score)
    next_game(f, app)
    (r,) = kept(app.store)
    g = tool.decode(r, 1)
    assert not g["summary"] and [s["score"] for s in g["by_side"]] == scores
    assert app.err is None and app.m.score == [0, 0]  # the next game, and nothing to say


def test_a_summary_that_cannot_put_the_game_back_is_a_fault_and_ok_again_goes_on(monkeypatch):
    """Out of memory in the replay and in its restore at the game's end (here: undone past
    it, then redone): a fault (the game kept, as the app's fault handler restores it), not
    recorded; the next OK records the game and starts the next."""
    from cribbage.match import Match

    restore = Match.restore

    def restore_fails(self):
        monkeypatch.setattr(Match, "restore", restore)  # (once)
        raise MemoryError

    _summary_short(monkeypatch)
    hw, app, f = board()
    play_game(hw, app, f, seed=2)
    end = (app.m.state(), app.m.dumps())
    f.hold("*")  # undone past the end: its record flagged undone, no longer counted
    assert app.m.phase != OVER and kept(app.store) == []
    monkeypatch.setattr(Match, "restore", restore_fails)
    f.hold("#")  # redone: the summary fails at the end, and so does its restore
    assert app.err and app.err.startswith("fault") and (app.m.state(), app.m.dumps()) == end
    assert kept(app.store) == []
    next_game(f, app)  # OK again: recorded without its summary, the next game
    (r,) = kept(app.store)
    assert not tool.decode(r, 1)["summary"] and app.m.score == [0, 0] and app.err is None


def test_a_full_flash_says_history_not_saved_and_the_game_goes_on():
    class Full(RamFs):
        full = False

        def open(self, path, mode):
            if "w" in mode and "history" in path and self.full:
                raise OSError(28)
            return RamFs.open(self, path, mode)

    fs = Full()
    hw = fake_board("/data", display=False, fs=fs)
    app = App(hw)
    from boardkit import Fingers

    f = Fingers(hw, app)
    play_game(hw, app, f, seed=3)  # (recorded at its end: undone past it, the flash full,
    f.hold("*")  # and the end again)
    fs.full = True
    f.hold("#")
    assert app.m.phase == OVER and app.err and "history not saved" in app.err  # at the end
    next_game(f, app)  # and at the OK, tried again
    assert app.err and "history not saved" in app.err
    assert app.m.score == [0, 0] and app.m.phase == 0  # the next game started all the same


# --- tools/player/history.py -------------------------------------------------------------------

def test_the_tool_reads_a_simulator_folder_and_writes_csv_and_json(tmp_path):
    folder = str(tmp_path / "sim")
    sim(folder, "--autoplay", "1")  # a whole game on the simulated board, to its end
    sim(folder, "--keys", "#")  # OK: the game goes to the history
    out_csv, out_json = str(tmp_path / "h.csv"), str(tmp_path / "h.json")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "player", "history.py"),
                        "--storage", folder, "--csv", out_csv, "--json", out_json],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("1 games (") and "won" in p.stdout
    # issue 22 #17: it says where it wrote each file, and what its printed line holds
    assert "wrote 1 game to %s (CSV" % os.path.abspath(out_csv) in p.stdout
    assert "wrote 1 game to %s (JSON" % os.path.abspath(out_json) in p.stdout
    assert "(hand/crib/play)" in p.stdout.splitlines()[1]
    with open(out_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(tool.GAME_COLUMNS + tool.SIDE_COLUMNS + ("cards",))
    assert len(rows) == 2 and [r["name"] for r in rows] == ["Red", "Blue"]
    assert {r["cards"] for r in rows} == {"6"}  # six-card (five: 5)
    assert {r["won"] for r in rows} == {"True", "False"}
    for r in rows:  # every point is in the summary
        parts = ("hand", "crib", "play", "heels", "pegged", "penalties", "muggins_taken")
        assert sum(int(r[c]) for c in parts) == int(r["score"])
    assert max(int(r["score"]) for r in rows) >= 121
    with open(out_json) as fh:
        (g,) = json.load(fh)
    assert set(tool.GAME_COLUMNS) <= set(g) and g["summary"] is True
    assert len(g["by_deal"]) == g["deals"] and g["target"] == 121
    assert [s["score"] for s in g["by_side"]] == [int(r["score"]) for r in rows]


def test_the_tool_on_a_copied_file_and_on_nothing(tmp_path):
    st = Storage(str(tmp_path), None)
    m = known_game()
    history.add(st, m, S.dumps(m, DETAIL))
    out = io.StringIO()
    sys.stdout, old = out, sys.stdout
    try:
        assert tool.main(["--file", str(tmp_path / "history"), "--csv", "-"]) == 0
    finally:
        sys.stdout = old
    rows = list(csv.reader(io.StringIO(out.getvalue())))  # the CSV alone: nothing said
    assert rows[0] == list(tool.CSV_COLUMNS) and len(rows) == 3
    assert rows[1][:8] == ["1", "2", "2", "2", "61", "win", "0", "3"]
    assert tool.main(["--storage", str(tmp_path / "none")]) == 1


def test_the_tool_has_a_legend_for_every_column(tmp_path, capsys):
    """Issue 22 #17: every column of the CSV and key of the JSON board/export.py makes has a
    line in the legend (--legend, and --help), and nothing else has one."""
    st = Storage(str(tmp_path), None)
    m = known_game()
    history.add(st, m, S.dumps(m, DETAIL))
    path = str(tmp_path / "history")
    with open(path, "rb") as f:
        (g,) = tool.games(f.read())
    keys = set(g) | set(g["by_side"][0])
    named = [c for c, _t in tool.LEGEND]
    assert len(named) == len(set(named))
    assert set(named) == set(tool.CSV_COLUMNS) | keys
    assert all(t for _c, t in tool.LEGEND)
    assert tool.main(["--legend"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == named
    assert "muggins_taken  points it took from another side's short count" in "\n".join(out)


# --- on the real MicroPython binary, from .mpy, in its heap of tools/budgets.py -------------



def test_a_game_recorded_on_micropython_with_the_history_full(mpy_tree, tmp_path):
    folder = tmp_path / "flash"
    folder.mkdir()
    st = Storage(str(folder), None)
    m = finished(seed=9)
    body = S.dumps(m, DETAIL)
    for _ in range(KEEP):  # full (by its bytes): the new record pushes the oldest out
        m.games[0] += 1
        history.add(st, m, body)
    before = kept(st)
    assert os.path.getsize(folder / "history") > MAX_BYTES - 2 * len(before[0])
    env = dict(os.environ, MICROPYPATH=".:" + os.path.join(ROOT, "tools", "bench"))
    import budgets  # tools/budgets.py

    p = subprocess.run([MICROPYTHON, "-X", "heapsize=" + budgets.heap("history"),
                        os.path.join(ROOT, "host_tests", "mp_history.py"), str(folder)],
                       cwd=mpy_tree, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    line = [x for x in p.stdout.splitlines() if x.startswith("HISTORY ")]
    assert line, p.stdout + p.stderr
    w = line[0].split()
    assert w[2] == "None" and w[4] == "0" and w[6:8] == ["0", "0"], line  # the next game
    recs = kept(st)
    assert len(before) - 2 <= len(recs) - 1 < len(before)  # the oldest went, the rest stayed
    assert recs[:-1] == before[len(before) - len(recs) + 1:]
    assert os.path.getsize(folder / "history") <= MAX_BYTES
    g = tool.decode(recs[-1], 0)
    assert g["summary"], "the summary did not fit (%s bytes free)" % w[-1]
    assert max(s["score"] for s in g["by_side"]) >= 121 and len(g["by_deal"]) == g["deals"]
    for s in g["by_side"]:
        assert s["hand"] + s["crib"] + s["play"] + s["heels"] + s["pegged"] == s["score"]


def test_the_summary_leaves_the_heap_unless_something_else_holds_it():
    """board/history.py forgets cribbage.summary after a game's end when it loaded it (on a
    board nothing else needs it), and keeps it when it was there before (the live page's
    /deals holds it: forgetting it would load a second copy at its next use)."""
    sys.modules.pop("cribbage.summary", None)
    hw, app, f = board()
    play_game(hw, app, f, seed=2)
    next_game(f, app)
    assert "cribbage.summary" not in sys.modules and len(kept(app.store)) == 1
    import cribbage.summary as held  # as board/web.py's deal_rows

    play_game(hw, app, f, seed=3)
    next_game(f, app)
    assert sys.modules.get("cribbage.summary") is held and len(kept(app.store)) == 2


def test_the_history_module_leaves_the_heap_after_recording_unless_held(monkeypatch):
    """App.save() forgets board.history once the finished game is recorded (kept, it was 3.3
    KB of the 64-bit heap in every game after the first: issue 34); one that holds the module
    (the page's request, the menu) keeps its own reference, and the next game loads it again."""
    import board

    monkeypatch.setitem(sys.modules, "board.history", history)  # (put back after the test)
    monkeypatch.setattr(board, "history", history, raising=False)
    del sys.modules["board.history"]
    delattr(board, "history")
    hw, app, f = board_kit()
    play_game(hw, app, f, seed=2)
    next_game(f, app)
    assert "board.history" not in sys.modules and len(kept(app.store)) == 1
    import board.history as held

    play_game(hw, app, f, seed=3)
    next_game(f, app)
    assert "board.history" not in sys.modules and len(kept(app.store)) == 2
    assert callable(held.record_game)  # (the holder's module is still whole)
    board.history = held  # (as the monkeypatch's undo expects to find it)


# --- a history bigger than the bound (issue 23, item 8) --------------------------------------


class Watched(RamFs):
    """RamFs that notes how far into the history file any read reached."""

    def __init__(self):
        super().__init__()
        self.reach = 0
        self.reads = 0

    def open(self, path, mode):
        f = super().open(path, mode)
        if "r" in mode and path.endswith("/history"):
            real = f.read
            fs = self

            def read(n=-1):
                b = real(n)
                fs.reads += 1
                fs.reach = max(fs.reach, f.pos)
                return b

            f.read = read
        return f


def history_of(records, size, fs=None):
    """A history file of `records` (the parts of good ones, from the start), padded with bytes
    that are no record (each 0x02 with a bad length) to `size`, and past the bound the same
    records again."""
    fs = fs or Watched()
    st = Storage("/data", fs)
    m = finished()
    body = S.dumps(m, DETAIL)
    for _ in range(records):
        m.games[0] += 1
        assert history.add(st, m, body)
    good = fs.files.get("/data/history", b"")
    pad = bytes((2, 0xFF, 0xFF)) * (size // 3 + 1)
    data = (good + pad[:max(0, MAX_BYTES - len(good))] + good + pad)[:size]
    fs.files["/data/history"] = data
    return st, m, good


def test_an_oversized_history_is_set_aside_unread_and_a_new_one_started():
    """A history of more than 8 KB (no board writes one: a tool's, a corrupt copy) used to be
    scanned byte by byte at the game's end (1 MB: minutes on a Pico, past the watchdog). It
    is set aside as history.bad without a byte read, the game is recorded in a new file, and
    the display says so."""
    for size in (MAX_BYTES + 1, 64 * 1024, 1024 * 1024):
        st, m, good = history_of(3, size)
        fs = st.fs
        old = fs.files["/data/history"]
        fs.reads = 0
        m.games[0] += 1
        said = history.add(st, m, None)
        assert said == "history too big: kept as history.bad"
        assert fs.reads == 0 and fs.files["/data/history.bad"] == old
        (r,) = kept(st)
        assert tool.decode(r, 0)["serial"] == sum(m.games)
    # the bound itself is a history this board may write: it is read and kept
    st, m, good = history_of(3, MAX_BYTES)
    m.games[0] += 1
    assert history.add(st, m, None) is True
    assert "/data/history.bad" not in st.fs.files and len(kept(st)) == 4


def test_no_reader_reads_a_history_past_its_bound():
    """walk() (the history's rewrite), board/stats.py and board/export.py over a file of 1 MB:
    the good records within the first 8 KB are read, nothing past the bound (no record starts
    there; the longest reaches 1,400 bytes beyond)."""
    from board import export

    st, m, good = history_of(3, 1024 * 1024)
    fs = st.fs
    f = st.open("history")
    rec, k, t = history.walk(None, f)
    f.close()
    assert (k, t) == (3, len(good)) and fs.reach <= MAX_BYTES + 1400
    fs.reach = 0
    f = st.open("history")
    assert len(list(export.records(f))) == 3
    f.close()
    assert stats.tally(st)[0][0] == 3  # the first side's games
    assert MAX_BYTES < fs.reach <= MAX_BYTES + 1400


def test_the_board_says_an_oversized_history_was_set_aside():
    hw, app, f = board(display=True)
    st, m, good = history_of(2, 64 * 1024)
    play_game(hw, app, f, seed=4)  # (recorded at its end: undone past it, the history
    f.hold("*")  # put in, then the end again, recorded)
    hw["fs"].files["/data/history"] = st.fs.files["/data/history"]
    f.hold("#")
    assert app.err == "history too big: kept as history.bad"
    assert hw["fs"].files["/data/history.bad"] == st.fs.files["/data/history"]
    assert len(kept(app.store)) == 1
    next_game(f, app)
    assert len(kept(app.store)) == 1
