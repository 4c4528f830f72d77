"""A game counts when it ends (issue 30): every part real, as test_club_night.py has them:
Mosquitto on 127.0.0.1 with the club's config (clubkit.Broker), the club service as its own
process (clubkit.Service: python -m club, its SQLite file), and a board running the real
firmware in the MicroPython unix port (webkit.Board) with its identity (it logs in and signs).

The board's game is at its end (mqttkit.over: the last points pegged, put on its flash):
  - it counts at the club with no key pressed (the last game of a night);
  - an undo past its end (hold *) withdraws it at the club (it leaves the standings);
  - the end again (hold #: the winning entry redone) counts once more, as a revision of the
    same id (the club's intake says "revised": one game, never two);
  - the OK that starts the next game sends nothing more.
And a game undone past its end while the board cannot reach the broker is never sent: its
corrected end goes out alone, once, as a new game. Mosquitto missing: skipped, saying why."""

import json
import os
import sqlite3

import pytest

from board import export, history, stats
from board.storage import Storage
from board.undo import undo
from boardkit import board, next_game, play_game
from fakeboard.ramfs import RamFs
from club import schema
from cribbage import match as M
from publish import link as L, outbox as O, packets as P
import history as tool  # tools/player/history.py
from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Broker, Service, until
from mqttkit import history_records, over, record, wifi
from webkit import Board, free_port


# --- the board's side on its own: the history and the outbox --------------------------------

class _Undone:
    phase = 0  # (a game not at its end)


def flag(st, head):
    """board/undo.py's undo() of the game whose record's head is head (the game undone)."""
    return undo(st, head, _Undone())


A, B, C = record(1, 121, 90), record(2, 100, 121), record(3, 121, 60)


def store_with(*recs):
    st = Storage("/d", RamFs())
    if recs:
        st.save("history", b"".join(recs))
    return st


def raw(st):
    """Every good record of st's history, undone ones too."""
    out = []
    history.walk(type("Out", (), {"write": lambda self, r: out.append(bytes(r))})(),
                 st.open("history"))
    return out


class Pub:
    """What the outbox's functions use of publish/task.py's Publisher."""

    phase = 0

    def __init__(self, st, box):
        self.app = self.m = self
        self.store = st
        self.cfg = {"board": "t1", "prefix": "cribbage"}
        self.box = box
        self.names = [None] * 6
        self.sent = self.waiting = 0


def message(p, r, monkeypatch):
    """The message Publisher p sends for r (a record, or a withdrawal: after()'s), as JSON
    bytes (its packet not made)."""
    got = []
    monkeypatch.setattr(P, "packet", lambda pub, what, args: got.append(args))
    P.game(p, r)
    return b"".join(got[0][1].parts)


def test_an_undone_record_keeps_its_mark_and_is_counted_nowhere():
    st = store_with(A, B)
    flag(st, B[:14])
    a, b = raw(st)
    assert a == A and b != B and history.undone(b) and not history.undone(B)
    assert O.mark(b) == O.mark(B)  # (the outbox finds it: it withdraws it)
    assert list(export.records(st.open("history"))) == [A]
    assert [s[0] for s in stats.tally(st)] == [1, 1]  # (one game a side: A's)
    assert tool.records(st.read("history")) == [A]
    flag(st, A[:14])  # not the last record: nothing changes
    assert raw(st) == [A, b]


def looks(monkeypatch, where):
    """The polls at which publish/task.py's run() looks at the history (its _LOOK bit), for a
    game that is at where[i] = (events, phase) at its i-th poll; no connection (no other
    work), the polls' sleeps virtual."""
    import asyncio

    import board.keypad
    from publish import task

    class Stop(Exception):
        pass

    m = type("M", (), {})()
    app = type("App", (), {"m": m, "changes": 0, "clock": lambda self: 0})()
    at = iter(where)
    got = []
    polls = [0]

    def call(what, pub, *w, mod="publish.link"):
        if what == "start":
            pub.cfg = {}
            pub.phase = pub.ask = -1
            pub.out = []
            pub.skip = pub.t = 0
            pub.sock = None
            pub.wait = 1 << 30  # (never connects)
            return True
        if what == "look" or (w and w[0] & 1):  # (_LOOK: publish/outbox.py's look(), in a
            got.append(polls[0])  # call of its own; or a tick's bit)
        return None

    async def sleep_ms(ms):
        try:
            m.events, m.phase = next(at)
        except StopIteration:
            raise Stop from None
        polls[0] += 1

    monkeypatch.setattr(task, "_call", call)
    monkeypatch.setattr(board.keypad, "sleep_ms", sleep_ms)
    with pytest.raises(Stop):
        asyncio.run(task.Publisher(app).run())
    return got


def test_the_publisher_looks_at_a_games_end_and_at_the_next_game_however_quick_the_ok(
        monkeypatch):
    from cribbage.events import DEAL, OVER, PLAY, SHOW, STARTER

    # a game played on: a look at the start, none at each deal's phases
    deals = [(1, DEAL), (2, STARTER), (9, PLAY), (12, SHOW), (13, DEAL), (14, STARTER)]
    assert looks(monkeypatch, deals) == [1]
    # its end seen by a poll, then the OK: a look at each
    assert looks(monkeypatch, deals + [(40, PLAY), (41, OVER), (0, DEAL), (1, STARTER)]) == \
        [1, 8, 9]
    # the OK within a poll of the end (never seen at OVER): a look at the next game's start
    # (the game recorded at its end is sent now, not at the next game's end)
    assert looks(monkeypatch, deals + [(40, PLAY), (0, DEAL), (1, STARTER)]) == [1, 8]
    assert looks(monkeypatch, deals + [(40, SHOW), (2, STARTER)]) == [1, 8]
    # an undo (fewer events): looked at (an undo past a game's end withdraws it)
    assert looks(monkeypatch, deals + [(13, DEAL)]) == [1, 7]


def test_a_game_sent_then_undone_is_withdrawn_and_its_end_again_is_a_revision(monkeypatch):
    st = store_with(A, B)
    p = Pub(st, [3, O.mark(B)])  # A went out as t1-1, B as t1-2
    assert L.waiting(p) is None
    flag(st, B[:14])  # B undone past its end
    w = L.waiting(p)
    assert w == O.mark(A) and p.box == [3, O.mark(B)]
    msg = message(p, w, monkeypatch)
    assert schema.is_withdrawal(msg)
    assert schema.withdrawal("t1", msg) == {"id": "t1-2", "board": "t1", "withdraw": True}
    L.sent(p, w)
    assert p.box == [2, O.mark(A)] and O.saved(st) == [2, O.mark(A)] and p.sent == 0
    assert L.waiting(p) is None  # (withdrawn: nothing more)
    st.save("history", st.read("history") + C)  # its corrected end
    assert L.waiting(p) == C and p.box == [2, O.mark(A)]
    assert json.loads(message(p, C, monkeypatch))["id"] == "t1-2"  # the same id: a revision
    L.sent(p, C)
    assert p.box == [3, O.mark(C)] and L.waiting(p) is None


def test_a_game_undone_while_it_awaits_its_puback_is_withdrawn_after_it(monkeypatch):
    """The broker has the game (its PUBACK on the way) when it is undone: the outbox moves
    past it as sent (the mark leaves the flag out), and the next look withdraws it."""
    st = store_with(A, B)
    p = Pub(st, [2, O.mark(A)])
    r = L.waiting(p)
    assert r == B and json.loads(message(p, r, monkeypatch))["id"] == "t1-2"
    flag(st, B[:14])  # undone while the PUBLISH awaits its PUBACK
    L.sent(p, r)  # the PUBACK
    assert p.box == [3, O.mark(B)]
    w = L.waiting(p)
    assert w == O.mark(A)
    assert json.loads(message(p, w, monkeypatch)) == {"id": "t1-2", "board": "t1",
                                                      "withdraw": True}


def test_the_end_again_before_the_withdrawal_went_out_is_the_revision(monkeypatch):
    st = store_with(A, B)
    flag(st, B[:14])
    st.save("history", st.read("history") + C)  # undone and ended again, the board offline
    p = Pub(st, [3, O.mark(B)])
    assert L.waiting(p) == C and p.waiting == 1 and p.box == [2, O.mark(A)]
    assert json.loads(message(p, C, monkeypatch))["id"] == "t1-2"
    L.sent(p, C)
    assert p.box == [3, O.mark(C)] and L.waiting(p) is None


def test_a_game_undone_before_it_went_out_is_never_sent(monkeypatch):
    st = store_with(A, B)
    p = Pub(st, [2, O.mark(A)])  # B waits
    flag(st, B[:14])
    assert L.waiting(p) is None and p.waiting == 0
    st.save("history", st.read("history") + C)
    assert L.waiting(p) == C and p.box == [2, O.mark(A)]
    assert json.loads(message(p, C, monkeypatch))["id"] == "t1-2"  # new: B never went out
    L.sent(p, C)
    assert p.box == [3, O.mark(C)]


def test_the_first_game_sent_then_undone(monkeypatch):
    st = store_with(B)
    p = Pub(st, [2, O.mark(B)])
    flag(st, B[:14])
    w = L.waiting(p)
    assert w == ""  # (no record before it)
    assert json.loads(message(p, w, monkeypatch))["id"] == "t1-1"
    L.sent(p, w)
    assert p.box == [1, ""] and L.waiting(p) is None  # (the undone record is never sent)


def test_a_game_at_its_end_when_publishing_starts_is_the_clubs():
    st = store_with(A, B)
    assert O.outbox(st, True) == [1, O.mark(A)]  # B, at its end, goes out
    assert O.outbox(store_with(A, B)) == [1, O.mark(B)]  # (as before: none of them)
    assert O.outbox(store_with(B), True) == [1, ""]


def test_the_board_records_the_game_at_its_end_an_undo_flags_it_the_end_again_records_it():
    hw, app, f = board()
    play_game(hw, app, f, 3)
    assert app.m.phase == M.OVER
    (r,) = raw(app.store)  # recorded at its end: no OK
    f.hold("*")  # undone past the end
    assert app.m.phase != M.OVER
    (u,) = raw(app.store)
    assert history.undone(u) and O.mark(u) == O.mark(r)
    assert tool.records(app.store.read("history")) == []
    f.hold("#")  # the end again: recorded again, after the undone one
    assert app.m.phase == M.OVER
    assert raw(app.store) == [u, r] and tool.records(app.store.read("history")) == [r]
    next_game(f, app)  # the OK: nothing more recorded
    assert app.m.phase != M.OVER and raw(app.store) == [u, r]


def test_the_next_game_undone_and_redone_leaves_the_finished_game_counted():
    """OK, then undo (the finished game's end again: recorded already), then redo (the next
    game again): the finished game stays counted, once."""
    hw, app, f = board()
    play_game(hw, app, f, 3)
    (r,) = raw(app.store)
    next_game(f, app)
    f.hold("*")
    assert app.m.phase == M.OVER and raw(app.store) == [r]
    f.hold("#")
    assert app.m.phase != M.OVER and raw(app.store) == [r]


def test_undone_and_ended_again_and_again_the_history_stays_bounded():
    hw, app, f = board()
    play_game(hw, app, f, 3)
    for _ in range(70):
        f.hold("*")
        f.hold("#")
    assert app.m.phase == M.OVER
    got = raw(app.store)
    assert len(got) == 64 and len(app.store.read("history")) <= 8192
    assert [history.undone(r) for r in got] == [True] * 63 + [False]
    assert len(tool.records(app.store.read("history"))) == 1


# --- with Mosquitto, the club service and the real firmware ----------------------------------


def rows(svc):
    """The club's stored games and the counters it took from t1: ([(id, counter,
    withdrawn)], [counter, ...]), read from its SQLite file."""
    db = sqlite3.connect("file:%s?mode=ro" % svc.db, uri=True)
    try:
        games = db.execute("SELECT id, counter, withdrawn FROM games ORDER BY id").fetchall()
        seen = [r[0] for r in db.execute("SELECT counter FROM seen WHERE board = 't1' "
                                         "ORDER BY counter")]
    finally:
        db.close()
    return games, seen


def said(svc, what):
    """How many times the club's log says a game of t1's was `what` (new, revised, ...)."""
    with open(svc.log) as f:
        return f.read().count("game on cribbage/t1/game: %s" % what)


def phase(b):
    status, body = b.get("/state")
    assert status == 200
    return json.loads(body)["phase"]


def counted(svc):
    return [g["id"] for g in svc.get("/games.json?night=all")]


@pytest.fixture
def club(tmp_path):
    if not HAVE_MOSQUITTO:
        pytest.skip(WHY_SKIPPED)
    broker = Broker(tmp_path / "broker")
    svc = None
    try:
        key = broker.add_board("t1")
        svc = Service(tmp_path, broker)  # (its SQLite file: the registry the broker reads)
        yield broker, svc, key
    finally:
        if svc is not None:
            svc.close()
        broker.close()


def test_the_last_game_counts_at_its_end_an_undo_withdraws_it_its_end_again_revises_it(
        club, tmp_path):
    broker, svc, key = club
    storage = str(tmp_path / "board")
    wifi(storage, broker.port, secret=key.hex())
    over(storage, 3)  # the night's last game, won: nobody presses OK
    b = Board(storage)
    try:
        until("the game at the club, no key pressed", lambda: counted(svc) == ["t1-1"])
        assert phase(b) == "over" and history_records(storage) == 1
        assert said(svc, "new") == 1
        games, seen = rows(svc)
        assert games == [("t1-1", seen[0], 0)] and len(seen) == 1
        won = svc.get("/standings.json?night=all")["games"]
        assert won == 1

        b.keys("~*")  # undone past its end: the club takes it out
        until("the game withdrawn at the club", lambda: said(svc, "withdrawn") == 1)
        assert phase(b) != "over" and counted(svc) == []
        assert svc.get("/standings.json?night=all")["games"] == 0
        assert history_records(storage) == 0  # (kept flagged undone: not counted)
        games, seen = rows(svc)
        assert games == [("t1-1", seen[1], 1)] and len(seen) == 2

        b.keys("~#")  # the winning entry again: the game's end, a revision of t1-1
        until("the game revised at the club", lambda: said(svc, "revised") == 1)
        assert phase(b) == "over" and counted(svc) == ["t1-1"]
        assert svc.get("/standings.json?night=all")["games"] == 1
        assert history_records(storage) == 1
        games, seen = rows(svc)
        assert games == [("t1-1", seen[2], 0)] and len(seen) == 3
        assert said(svc, "new") == 1 and svc.health()["duplicates"] == 0

        b.keys("#")  # OK: the next game; nothing more goes out for this one
        until("the next game", lambda: phase(b) != "over")
        until("the board's outbox empty", lambda: json.loads(b.get("/club")[1])["waiting"]
              == 0)
        assert rows(svc)[1] == seen and counted(svc) == ["t1-1"]
        assert history_records(storage) == 1
    finally:
        b.close()


def test_a_game_undone_past_its_end_before_it_went_out_is_never_sent(club, tmp_path):
    broker, svc, key = club
    storage = str(tmp_path / "board")
    port = free_port()  # no broker there: the board cannot send
    wifi(storage, port, secret=key.hex())
    over(storage, 3)
    b = Board(storage)
    try:
        until("the game in the history", lambda: history_records(storage) == 1)
        b.keys("~*")
        until("the game undone", lambda: phase(b) != "over")
        assert history_records(storage) == 0
        b.keys("~#")  # its end again
        until("the game's end again", lambda: phase(b) == "over")
        until("recorded again", lambda: history_records(storage) == 1)
    finally:
        b.close()
    wifi(storage, broker.port, secret=key.hex())  # the club's broker in reach now
    b = Board(storage)
    try:
        until("the game at the club", lambda: counted(svc) == ["t1-1"])
        until("the board's outbox empty", lambda: json.loads(b.get("/club")[1])["waiting"]
              == 0)
        games, seen = rows(svc)
        assert games == [("t1-1", seen[0], 0)] and len(seen) == 1  # once, no withdrawal
        assert said(svc, "new") == 1 and said(svc, "withdrawn") == 0
        with open(os.path.join(storage, "outbox")) as f:
            assert json.load(f)[0] == 2  # the next game is t1-2
    finally:
        b.close()
