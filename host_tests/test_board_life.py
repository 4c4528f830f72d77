"""The board over its life (issue 9): the frame before the save, a key handled the moment the
scan queues it, power-up that shows the game at once, the history of finished games (bounded,
recorded once across a power cut), a save that fails, and the undo into the finished game."""

import asyncio

from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from board.app import App
from board import history
from board.record import Record
from board.keypad import DOWN, UP
from cribbage import match as M
from boardkit import board, play_game
from test_history import KEEP, MAX_BYTES


class Order(RamFs):
    """A RamFs that notes when a game is saved, against the strip's writes."""

    def __init__(self, strip_writes):
        RamFs.__init__(self)
        self.strip_writes = strip_writes
        self.saved_after = []  # strip writes seen when each game save began

    def open(self, path, mode):
        if "w" in mode and path.endswith("/game.tmp"):
            self.saved_after.append(self.strip_writes())
        return RamFs.open(self, path, mode)


def test_the_frame_for_an_entry_is_on_the_wire_before_the_save():
    hw = build("/data", display=False, fs=None)
    strip = hw["strip"]
    fs = Order(lambda: strip.writes)
    hw["fs"] = fs
    app = App(hw)
    app.step(hw["clock"]())
    before = strip.writes
    k = app.keys.names.index("3")
    app.keys.put(DOWN | k)
    app.keys.put(UP | k)
    app.keys.put(DOWN | app.keys.names.index("#"))
    app.keys.put(UP | app.keys.names.index("#"))
    hw["clock"].advance(20)
    app.step(hw["clock"]())  # typed 3, OK: a peg of 3 for side 1
    assert app.m.score[0] == 3
    assert fs.saved_after and fs.saved_after[-1] > before  # the save came after the frame
    assert M.loads(fs.files["/data/game"]).score == [3, 0]  # and it is on flash


def test_a_key_is_handled_when_the_scan_queues_it_not_at_the_next_frame():
    hw = build("/data", display=False, fs=RamFs())
    app = App(hw)
    clock = hw["clock"]
    woken = []

    def wake():
        woken.append(clock())
        app.step(clock())

    async def scan_for(ms):
        task = asyncio.create_task(app.keys.run(clock, wake))
        for _ in range(ms // 10):
            clock.advance(10)
            await asyncio.sleep(0.012)  # the scan task sleeps its 10 ms for real
        task.cancel()

    hw["fake_matrix"].press("5")
    asyncio.run(scan_for(80))
    assert woken  # the scan called the app itself once the press was debounced
    assert app.err is None and app.view.preview_side == 0  # 5 typed, previewed at once


def test_power_up_draws_the_saved_game_before_any_self_test_wait():
    hw, app, f = board()
    f.press("7#")
    strip = hw["strip"]
    strip.buf[:] = bytes(len(strip.buf))  # power off: the LEDs are dark
    again = App(hw)
    t0 = hw["clock"]()
    w = strip.writes
    assert not again.boot()  # no key held: no self-test
    assert strip.writes == w + 1  # the first frame, at once
    assert hw["clock"]() == t0  # and no wait for a held key
    assert again.m.score == [7, 0]


def kept(store):
    """The good records of store's history file."""
    out = []
    f = store.open("history")
    history.walk(Keep(out), f)
    f.close()
    return out


class Keep:
    def __init__(self, out):
        self.write = out.append


def test_finished_games_go_to_a_bounded_history_once_each():
    hw, app, f = board()
    fs = hw["fs"]
    for g in range(3):
        play_game(hw, app, f, seed=g + 1)
        assert app.m.phase == M.OVER
        f.press("#")  # OK: the next game; the finished one is recorded first
        assert app.m.phase == M.DEAL and app.m.score == [0, 0]
    recs = kept(app.store)
    assert len(recs) == 3
    recs = [Record(r) for r in recs]  # (read by name: board/record.py)
    serials = [g.serial for g in recs]
    assert serials == sorted(serials) and serials[-1] == sum(app.m.games)
    for g in recs:
        assert g.version == 2 and (g.players, g.sides, g.target) == (2, 2, 121)
        assert g.winner in (0, 1)
        assert g.summary  # the game's summary is in it
        assert max(g.score(0), g.score(1)) >= 121
    # a power cut after the record, before the game's save: the same game is offered again,
    # and recorded once
    m = app.m
    m.undo()  # back to the finished game's end
    assert m.phase == M.OVER
    assert not history.add(app.store, m)
    assert len(kept(app.store)) == 3
    # bounded: the oldest go first
    for _ in range(KEEP + 5):
        m.games[0] += 1  # a new serial: another game
        assert history.add(app.store, m)
    data = fs.files["/data/history"]
    assert len(data) <= MAX_BYTES
    assert len(kept(app.store)) == KEEP


def test_undo_after_the_next_game_shows_the_finished_game_and_redo_comes_back():
    hw, app, f = board()
    play_game(hw, app, f, seed=5)
    won = (list(app.m.score), list(app.m.games), app.m.winner)
    f.press("#")
    f.hold("*")  # undo: the finished game's end
    assert (app.m.score, app.m.games, app.m.winner) == (won[0], won[1], won[2])
    assert App(hw).m.score == won[0]  # saved as shown
    f.hold("#")  # redo: the new game again
    assert app.m.score == [0, 0] and app.m.games == won[1]


class FullFs(RamFs):
    """The flash is full: every write fails."""

    def open(self, path, mode):
        if "w" in mode:
            raise OSError(28)
        return RamFs.open(self, path, mode)


def test_a_full_flash_is_said_and_the_game_goes_on_in_memory():
    hw = build("/data", display=True, fs=FullFs())
    app = App(hw)
    app.key("5")
    app.key("#")
    assert app.m.score == [5, 0]
    assert app.err and "not saved" in app.err and "28" in app.err
    app.key("4")
    app.key("#")
    assert app.m.score == [9, 0]
    assert any("not saved" in line for line in app.lines())
