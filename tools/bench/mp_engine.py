"""Match engine under MicroPython: heap of the engine and of a whole game, time per event
entered through the public calls, loads() (replay), undo/redo, dumps(), a simulated game."""

import gc

from cribbage import score  # noqa: F401  (the core, measured by mp_core.py: before the delta)

gc.collect()
_before = gc.mem_alloc()
from cribbage import events, match  # noqa: E402

gc.collect()
_engine_heap = gc.mem_alloc() - _before

from dealer import autoplay  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from benchlib import row, per_call_us  # noqa: E402


def whole_game(players, seed):
    m = Match(players=players)
    autoplay.play_game(m, autoplay.seeded(seed), [autoplay.RANDOM] * players)
    return m


def journal(m):
    """The game's committed events, each as bytes (the engine's journal, read here: a board
    never asks, so the engine keeps no code for it)."""
    log = m.log
    out = []
    i = 0
    while i < log.end:
        k = events.size(log.j, i, m.players)
        out.append(bytes(log.j[i:i + k]))
        i += k
    return out


def calls(m):
    """The game's journal as (code, args) for the public calls that made it."""
    out = []
    for ev in journal(m):
        k = ev[0]
        if k < 52:
            out.append((0, k))
        elif k == match.E_GO:
            out.append((1, None))
        elif k & 0xF0 == match.E_DEAL:
            out.append((2, k & 15))
        elif k == match.E_STARTER:
            out.append((3, ev[1]))
        elif k & 0xF0 == match.E_SHOW:
            hand = list(ev[1:5]) if k & 1 else None
            out.append((4, (hand, ev[-1] if k & 2 else -1)))
        elif k == match.E_CUT:
            out.append((5, list(ev[1:])))
        else:
            raise ValueError("bench: event %d not expected" % k)
    return out


def enter(players, todo):
    m = Match(players=players)
    for code, a in todo:
        if code == 0:
            m.play(a)
        elif code == 1:
            m.go()
        elif code == 2:
            m.deal(a)
        elif code == 3:
            m.starter(-1 if a == match.NO_CARD else a)
        elif code == 4:
            m.show(a[0], a[1])
        else:
            m.cut(a)
    return m


# heap a finished game holds: the Match, its state and its journal
gc.collect()
_b = gc.mem_alloc()
game = whole_game(2, 1)
gc.collect()
game_heap = gc.mem_alloc() - _b
data = game.dumps()
n = game.events
todo = calls(game)
assert enter(2, todo).state() == game.state()

per_event = per_call_us(lambda: enter(2, todo), 1, 5) / n
gc.collect()
gc.disable()
_b = gc.mem_alloc()
enter(2, todo)
alloc_event = (gc.mem_alloc() - _b) / n
gc.enable()
load_us = per_call_us(lambda: loads(data), 1, 5)
dumps_us = per_call_us(game.dumps, 50)


def undo_redo():
    game.undo()
    game.redo()


undo_us = per_call_us(undo_redo, 20)
sim_us = per_call_us(lambda: whole_game(2, 2), 1, 3)

gc.collect()
_b = gc.mem_alloc()
big = whole_game(6, 3)
gc.collect()
big_heap = gc.mem_alloc() - _b

row("engine: heap of the engine modules", _engine_heap, "bytes",
    note="match, events, pegging, journal (the core's cards/score/tables not included)")
row("engine: heap a finished 2p game holds", game_heap, "bytes",
    note="Match object, state and journal; %d events" % n)
row("engine: heap a finished 6p game holds", big_heap, "bytes",
    note="%d events, %d deals" % (big.events, big.deals))
row("engine: saved 2p game (dumps) size", len(data), "bytes",
    note="%d events, %d deals" % (n, game.deals))
row("engine: an event entered (public call)", per_event, "us",
    note="mean over a whole 2-player game with cards: deal, starter, play, go, show")
row("engine: heap allocated per event entered", alloc_event, "bytes")
row("engine: an event replayed by loads()", load_us / n, "us", ref=per_event,
    ratio=load_us / n / per_event, note="ref = per event entered")
row("engine: loads() of a whole 2p game", load_us, "us")
row("engine: dumps() of a whole 2p game", dumps_us, "us")
row("engine: undo()+redo() at the end of a game", undo_us, "us", ref=per_event,
    ratio=undo_us / per_event, note="undo replays at most the current deal")
row("engine: a whole simulated 2p game", sim_us, "us",
    note="random players, dealing and strategy included")
