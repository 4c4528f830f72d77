"""Thousands of simulated games through the match engine, every event checked (the Checker
of both/test_match_sim.py), plus random entry sequences from hypothesis: refused entries change
nothing, and every state saves, loads and undoes back to the start."""

import pytest
from hypothesis import given, settings, strategies as st

from cribbage import autoplay, match
from cribbage.match import Match, loads
from test_match_sim import checked_game

STRATEGIES = (autoplay.RANDOM, autoplay.DISCARD, autoplay.GREEDY)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_thousands_of_games(players):
    # 2,000 games in all: invariants after every event; every fourth game also undone to the
    # start and redone; the saved form loaded and compared every 40 events.
    games = {2: 800, 3: 400, 4: 400, 5: 200, 6: 200}[players]
    won = [0] * Match(players=players).sides
    for g in range(games):
        m = checked_game(players, 1000 * players + g, STRATEGIES[g % 3],
                         target=61 if g % 5 == 4 else 121, roundtrip=40, walk=g % 4 == 0)
        won[m.winner] += 1
        assert loads(m.dumps()).state() == m.state()
    assert sum(won) == games and min(won) > 0  # every side wins some


def test_every_event_round_trips():
    for g in range(30):
        checked_game(2 + g % 5, 77 + g, STRATEGIES[g % 3], roundtrip=1, walk=g % 2 == 0)


# --- random entries, legal or not -----------------------------------------------------

ENTRY = st.one_of(
    st.tuples(st.just("deal"), st.integers(-1, 6)),
    st.tuples(st.just("starter"), st.integers(-1, 52)),
    st.tuples(st.just("play"), st.integers(0, 51)),
    st.tuples(st.just("go"), st.just(0)),
    st.tuples(st.just("show"), st.integers(0, 31)),
    st.tuples(st.just("showcards"), st.lists(st.integers(0, 51), min_size=4, max_size=4)),
    st.tuples(st.just("peg"), st.tuples(st.integers(0, 5), st.integers(0, 16))),
    st.tuples(st.just("penalty"), st.integers(0, 5)),
    st.tuples(st.just("muggins"), st.integers(-1, 5)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
    st.tuples(st.just("next"), st.just(0)),
    st.tuples(st.just("cut"), st.lists(st.integers(0, 51), min_size=2, max_size=6)),
)


def enter(m, kind, arg):
    if kind == "deal":
        return m.deal(arg)
    if kind == "starter":
        return m.starter(arg if arg < 52 else -1, jack=arg == 52)
    if kind == "play":
        return m.play(arg)
    if kind == "go":
        return m.go()
    if kind == "show":
        return m.show(points=arg)
    if kind == "showcards":
        return m.show(arg)
    if kind == "peg":
        return m.peg(*arg)
    if kind == "penalty":
        return m.penalty(arg)
    if kind == "muggins":
        return m.muggins(arg)
    if kind == "undo":
        return m.undo()
    if kind == "redo":
        return m.redo()
    if kind == "next":
        return m.next_game()
    return m.cut(arg)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 6), st.booleans(), st.lists(ENTRY, max_size=80))
def test_random_entries(players, muggins, entries):
    m = Match(players=players, muggins=muggins)
    start = m.state()
    history = [start]
    for kind, arg in entries:
        before, saved = m.state(), m.dumps()
        try:
            enter(m, kind, arg)
        except ValueError as e:
            assert m.state() == before and m.dumps() == saved, (kind, arg)
            assert m.error == str(e)
            continue
        assert m.error is None
        assert m.count <= 31
        assert (m.phase == match.OVER) == (max(m.score) >= m.target)
        assert loads(m.dumps()).state() == m.state()
        if kind not in ("undo", "redo"):
            history.append(m.state())
    while m.undo():
        pass
    if not m._prev:
        assert m.state() == start
    else:  # a game was won and the next started: undo ends at the won game's end
        assert m.phase == match.OVER and m.winner >= 0 and not m.can_undo()
