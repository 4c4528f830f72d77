"""A game's end (issue 34): its frame first, then the rest.

At the winning entry, the win's frame and the game's save come first, then the finished
game's summary (cribbage/summary.py's replay, the slow part) and its record to the history
(issue 30: the club's outbox sends it without another key); at the OK that starts the next
game, the next game's frame comes first, then the new game's save, and nothing of the finished
game (recorded already). A record that could not be written at the end is written at the OK,
after the next game's frame, before the new game's save (a power cut before it offers the
finished game again: recorded once). Checked with the strip's writes, the files' saves and the
summary logged in order."""

import sys

from board import history
from board.record import Record
from boardkit import board, next_game, play_game
from cribbage import match as M


def logged(monkeypatch, hw, app):
    log = []
    strip = hw["strip"]
    write = strip.write
    save = app.store.save
    dumps = history.dumps

    def w():  # (a win blinks: frames of the finished game until the OK's)
        log.append("frame" if app.m.phase == M.OVER else "next frame")
        write()

    def s(name, *a):
        log.append("save " + name)
        return save(name, *a)

    def d(m):
        log.append("summary")
        return dumps(m)

    monkeypatch.setattr(strip, "write", w)
    monkeypatch.setattr(app.store, "save", s)
    monkeypatch.setattr(history, "dumps", d)
    # (the module the app imports: App.save forgets it after each record, so put it back)
    monkeypatch.setitem(sys.modules, "board.history", history)
    return log


def records(app):
    got = []
    f = app.store.open("history")
    history.walk(type("Out", (), {"write": lambda self, r: got.append(bytes(r))})(), f)
    f.close()
    return got


def test_the_winning_frame_then_the_save_then_the_summary(monkeypatch):
    hw, app, f = board()
    f.press("#")  # deal; Red pegs 120 by hand, then 1 more wins (boardkit's peg_out)
    for _ in range(8):
        f.press("15#")
    f.press("1")
    log = logged(monkeypatch, hw, app)
    f.press("#")
    assert app.m.phase == M.OVER
    assert log[:5] == ["frame", "save game", "save frame", "summary", "save history"], log
    assert log.count("summary") == 1  # once, however long the board waits for the OK
    f.run(200)
    assert log.count("summary") == 1 and log.count("save history") == 1
    assert len(records(app)) == 1 and Record(records(app)[0]).summary


def test_the_next_games_frame_then_its_save_and_the_game_recorded_once(monkeypatch):
    hw, app, f = board()
    play_game(hw, app, f, 3)
    f.run(200)
    m = app.m
    want = history.record(m, history.dumps(m))  # the record as it was made at the end
    log = logged(monkeypatch, hw, app)
    next_game(f, app)
    assert app.m.phase != M.OVER
    assert "summary" not in log and "save history" not in log, log  # made at the end
    k = log.index("save game")
    assert log[k - 1] == "next frame" and set(log[:k - 1]) <= {"frame"}, log
    assert log[k + 1] == "save frame", log
    got = records(app)
    assert got == [b"".join(want)] and Record(got[0]).summary  # the whole record, once


def test_a_record_not_written_at_the_end_the_next_games_frame_then_it_then_its_save(
        monkeypatch):
    hw, app, f = board()
    play_game(hw, app, f, 3)
    f.run(200)
    m = app.m
    want = history.record(m, history.dumps(m))  # the record as it is made at the OK
    app.store.delete("history")  # (as if its write had failed at the end)
    app.record = (m.events, None)
    log = logged(monkeypatch, hw, app)
    next_game(f, app)
    assert app.m.phase != M.OVER
    k = log.index("save history")  # (its summary made again at the OK: the fallback)
    assert log[k - 1] == "next frame" and set(log[:k - 1]) <= {"frame", "summary"}, log
    assert log[k + 1:k + 3] == ["save game", "save frame"], log
    got = records(app)
    assert got == [b"".join(want)] and Record(got[0]).summary  # the whole record, once
    app.store.save = history.add  # (any further save would fail the test)


def test_a_summary_made_for_another_state_is_made_again(monkeypatch):
    """Undone and entered again (or any event after the summary): the record's summary is
    the game's as it ended, made again at the OK."""
    hw, app, f = board()
    play_game(hw, app, f, 3)
    f.run(200)
    m = app.m
    want = b"".join(history.record(m, history.dumps(m)))
    app.record = (m.events - 1, bytes(history.record(m)[0]))  # made for an earlier state
    log = logged(monkeypatch, hw, app)
    next_game(f, app)
    assert log.count("summary") == 1 and log.index("summary") < log.index("next frame")
    assert records(app) == [want]
