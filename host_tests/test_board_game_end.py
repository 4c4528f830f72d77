"""A game's end (issue 34): its frame first, then the rest.

At the winning entry, the win's frame and the game's save come first, then the finished
game's summary (cribbage/summary.py's replay, the slow part) and its record to the history
(issue 30: the club's outbox sends it without another key); at the OK that starts the next
game, the next game's frame comes first, then the new game's save, and nothing of the finished
game (recorded already). A record that could not be written at the end is written at the OK,
after the next game's frame, before the new game's save (a power cut before it offers the
finished game again: recorded once). Checked with the strip's writes, the files' saves and the
summary logged in order. A key that comes during the summary (made a deal at a time until a
key waits) is handled and drawn first, then the rest; the record is the same, once, whatever
the key (the next game and an undo finish it first), and a power cut then loses nothing."""

import sys

from board import history, modes
from board.record import Record
from boardkit import board, next_game, play_game
from cribbage import match as M


def logged(monkeypatch, hw, app):
    log = []
    strip = hw["strip"]
    write = strip.write
    save = app.store.save
    dumps = history.dumps
    rest = history.rest

    def w():  # (a win blinks: frames of the finished game until the OK's)
        log.append("menu frame" if app.mode == modes.MENU else
                   "frame" if app.m.phase == M.OVER else "next frame")
        write()

    def s(name, *a):
        log.append("save " + name)
        return save(name, *a)

    def d(m):
        log.append("summary")
        return dumps(m)

    def begun(m, store, r, keys=None):  # (App.step's: the summary begun, in slices)
        if not (r and len(r) > 3 and r[0] == m.events and r[3] is m):
            log.append("summary")
        return rest(m, store, r, keys)

    monkeypatch.setattr(strip, "write", w)
    monkeypatch.setattr(app.store, "save", s)
    monkeypatch.setattr(history, "dumps", d)
    monkeypatch.setattr(history, "rest", begun)
    # (the module the app imports: App.save forgets it after each record, so put it back)
    monkeypatch.setitem(sys.modules, "board.history", history)
    return log


def records(app):
    got = []
    f = app.store.open("history")
    history.walk(type("Out", (), {"write": lambda self, r: got.append(bytes(r))})(), f)
    if f:  # (None: no history yet)
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


# --- a key while the game's end work goes on (issue 34: no key waits for it) --------------
# On a board the keypad's timer queues a key whenever it is pressed, also in the middle of
# App.step's work. Here the summary's replay queues it, as that timer would, after its first
# deal: the app then stops at once (the game put back as it ended), and the next turn of
# the loop handles the key and draws its frame before the rest of the work.


_DUMPS = history.dumps


def _key_during_the_summary(monkeypatch, app, log, *events, cut=None):
    """The summary, when the app makes it a deal at a time (history.rest), has events
    (kind, key name) queued after its first deal, once, as the keypad's timer would (and
    cut(app) called then: the power cut there)."""
    from cribbage import summary as S

    replay = S.replay
    keys = app.keys

    def replay_with_a_key(m, limit, rest):
        g = replay(m, limit, rest)
        b = next(g)
        queued = False
        while b is None:
            if rest and not queued:
                queued = True
                for kind, name in events:
                    keys.put(kind | keys.names.find(name))
                log.append("key queued")
                if cut is not None:
                    cut(app)
            sent = yield None
            b = g.send(sent) if sent else next(g)
        yield b

    monkeypatch.setitem(sys.modules, "cribbage.summary", S)
    monkeypatch.setattr(sys.modules["cribbage"], "summary", S, raising=False)
    monkeypatch.setattr(S, "replay", replay_with_a_key)


def _won(seed, monkeypatch=None, *events, cut=None):
    """A board with game seed played to its end (play_game), events queued during its
    summary if given; (hw, app, f, log from the winning entry on, the history's records of
    the same game played on another board without a key during its end)."""
    hw0, app0, f0 = board()
    play_game(hw0, app0, f0, seed)
    ref = records(app0)
    hw, app, f = board()
    log = []
    if events:
        log = logged(monkeypatch, hw, app)
        _key_during_the_summary(monkeypatch, app, log, *events, cut=cut)
    try:
        play_game(hw, app, f, seed)
    except AssertionError:  # (the keys queued went in during its last press: the next game
        if app.m.phase == M.OVER or not events:  # or an undo, before it looked)
            raise
    return hw, app, f, log, ref


def test_a_key_during_the_end_work_gets_its_frame_before_the_rest_of_it(monkeypatch):
    from board.keypad import DOWN, UP
    from board import modes

    hw, app, f, log, ref = _won(3, monkeypatch, (DOWN, "D"), (UP, "D"))  # (D: the menu)
    assert app.m.phase == M.OVER
    k = log.index("key queued")
    assert log[k - 1] == "summary" and "save history" in log[k:], log
    assert app.mode == modes.MENU  # the key handled (its own turn of the loop), then the rest
    menu = [i for i, w in enumerate(log) if w == "menu frame"]
    assert menu and k < menu[0] < log.index("save history"), log
    assert log.count("summary") == 1 and log.count("save history") == 1, log
    assert records(app) == ref and Record(ref[0]).summary  # as made without a key


def test_a_new_game_during_the_end_work_records_the_game_once_as_it_ended(monkeypatch):
    from board.keypad import DOWN, UP

    oks = ((DOWN, "#"), (UP, "#"), (DOWN, "#"), (UP, "#"))  # (a first OK may be the habit)
    hw, app, f, log, ref = _won(3, monkeypatch, *oks)
    f.run(100)
    assert app.m.phase != M.OVER and sum(app.m.games) == 1  # the next game begun
    k = log.index("key queued")  # the OK: its summary finished, the next game's frame, then
    n = log.index("next frame", k)  # the record written, then the new game saved
    assert n < log.index("save history") < log.index("save game", n), log
    assert records(app) == ref and log.count("save history") == 1, log
    f.run(500)
    assert records(app) == ref  # once


def test_an_ok_during_the_end_work_does_not_load_the_history_again(monkeypatch):
    """The OK that came during the end work: its summary finished (App.rest lets the history's
    module go with the parts made), then the next game's frame with no load of board.history
    by commands.record before it (it takes the parts as they are: the OK's frame is not held
    by an import, nor faulted by one short of memory); the record written after it."""
    from board import fault
    from board.keypad import DOWN, UP

    load = fault.load
    held = []  # _won's log, once made: the imports go into it, in order with the frames
    here = sys.modules[__name__]
    log_of = here.logged

    def logged_too(*args):
        held.append(log_of(*args))
        return held[0]

    def logged_load(name):  # (the host keeps the module: each load by commands.record)
        if name == "board.history" and held and sys._getframe(1).f_code.co_name == "record":
            held[0].append("load history")
        return load(name)

    monkeypatch.setattr(here, "logged", logged_too)
    monkeypatch.setattr(fault, "load", logged_load)
    oks = ((DOWN, "#"), (UP, "#"), (DOWN, "#"), (UP, "#"))
    hw, app, f, got, ref = _won(3, monkeypatch, *oks)
    f.run(100)
    assert app.m.phase != M.OVER and sum(app.m.games) == 1  # the next game begun
    assert records(app) == ref and got.count("save history") == 1, got
    k = got.index("key queued")
    n = got.index("next frame", k)
    assert got.index("save history") > n
    assert "load history" not in got[k:n], got[k:n]


def test_an_undo_during_the_end_work_flags_the_record_as_it_would_have(monkeypatch):
    from board.keypad import LONG, UP

    hw0, app0, f0 = board()  # (uninterrupted: recorded at the end, then undone)
    play_game(hw0, app0, f0, 3)
    f0.hold("*")
    want = app0.store.read("history")
    hw, app, f, log, ref = _won(3, monkeypatch, (LONG, "*"), (UP, "*"))
    f.run(100)
    assert app.m.phase != M.OVER and app0.m.phase != M.OVER
    assert app.store.read("history") == want  # written, then flagged undone: byte for byte
    got = []
    f2 = app.store.open("history")
    history.walk(type("Out", (), {"write": lambda self, r: got.append(bytes(r))})(), f2)
    f2.close()
    assert len(got) == 1 and history.undone(got[0])


def test_a_power_cut_during_the_end_work_loses_no_game(monkeypatch):
    from board.app import App
    from board.keypad import DOWN, UP
    from fakeboard.fake import build
    from fakeboard.ramfs import RamFs

    flash = RamFs()

    def cut(app):  # the flash as it is in the middle of the work (the game saved at its end)
        flash.files = dict(app.hw["fs"].files)

    hw, app, f, log, ref = _won(3, monkeypatch, (DOWN, "D"), (UP, "D"), cut=cut)
    assert flash.files and records(app) == ref  # (the uncut board went on and wrote it)
    again = App(build("/data", display=False, fs=flash))  # power back on the cut flash
    assert again.m.phase == M.OVER and records(again) == []  # (not written when cut)
    again.step(hw["clock"]())  # its first turn: the game recorded, as at its end
    assert records(again) == ref
    again.step(hw["clock"]() + 20)
    assert records(again) == ref  # once


def test_a_command_after_end_work_that_faulted_unrestored_waits_for_the_game(monkeypatch):
    """The OK that came during the end work finishes it first (commands.run); if that faults
    and the game cannot be put back either (out of memory: App.broken), neither that OK nor
    one after it in the same turn is run on the game as the fault left it: the fault is said
    and the game stays won. Once memory is
    back, the next turn puts the game back, and an OK starts the next game with the finished
    one recorded once, as it ended."""
    from board import fault
    from board.keypad import DOWN, UP

    short = [False]
    rest, restore = history.rest, fault.restore

    def rest_short(m, store, r, keys=None):
        if short[0] and keys is None:  # (commands.run's: the rest before the OK)
            raise MemoryError
        return rest(m, store, r, keys)

    def restore_short(m, store):
        if short[0]:
            raise MemoryError
        return restore(m, store)

    def cut(app):  # when the OK is queued: memory runs short until the test says
        short[0] = True
        monkeypatch.setattr(history, "rest", rest_short)
        monkeypatch.setattr(fault, "restore", restore_short)

    hw0, app0, f0 = board()
    play_game(hw0, app0, f0, 3)
    ref = records(app0)  # (the same game, no key during its end work)
    hw, app, f = board()
    _key_during_the_summary(monkeypatch, app, logged(monkeypatch, hw, app), (DOWN, "#"),
                            (UP, "#"), (DOWN, "#"), (UP, "#"), cut=cut)  # (two OKs)
    try:
        play_game(hw, app, f, 3)
    except AssertionError:  # (the fault said at its last press: play_game wants none)
        if not app.broken:
            raise
    f.run(20)
    assert app.broken and app.err and "fault" in app.err, app.err
    assert app.m.phase == M.OVER  # neither OK run: the game still won, no next game
    short[0] = False
    f.run(20)  # the next turn puts the game back
    assert not app.broken and app.m.phase == M.OVER
    f.press("#")
    f.run(100)
    assert app.m.phase != M.OVER and sum(app.m.games) == 1  # the next game begun
    assert records(app) == ref  # the finished game recorded once, as it ended
