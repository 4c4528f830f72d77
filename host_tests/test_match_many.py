"""Thousands of simulated games through the match engine, every event checked (the Checker
of both/test_match_sim.py), plus random entry sequences from hypothesis: refused entries change
nothing, and every state saves, loads and undoes back to the start. Sloppy players (false goes,
failures to play: rule sheet 000) play whole games too, their penalties taken or let go."""

import pytest
from hypothesis import given, settings, strategies as st

from cribbage import match
from dealer import autoplay
from cribbage.cards import PIP
from dealer.deal import new_deck, shuffle, deal_hands, dealt
from cribbage.match import Match, loads
from test_match_sim import checked_game
from matchkit import can_undo

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
    st.tuples(st.just("fail"), st.tuples(st.integers(0, 5), st.integers(-1, 6))),
    st.tuples(st.just("falsego"), st.integers(0, 5)),
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
    if kind == "fail":
        return m.penalty(arg[0], match.FAIL_TO_PLAY, arg[1])
    if kind == "falsego":
        return m.penalty(arg, match.FALSE_GO)
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
    if not m.log.won:
        assert m.state() == start
    else:  # a game was won and the next started: undo ends at the won game's end
        assert m.phase == match.OVER and m.winner >= 0 and not can_undo(m)


# --- sloppy players: false goes and failures to play (rule sheet 000) --------------------


def discard_at_random(m, deck, rand):
    """The deal's hands from deck, each seat's cards for the crib thrown at random: (hands,
    crib, rest of the deck)."""
    n, d = m.players, m.dealer
    hands, crib, rest = deal_hands(n, d, deck)
    for s in range(n):
        for _ in range(dealt(n, d, s)[1]):
            crib.append(hands[s].pop(rand(len(hands[s]))))
    return hands, crib, rest


def sloppy_deal(m, rand, states, seen):
    """One deal where a player with a card that fits sometimes says go all the same; when the
    engine proves the false go (false_go()), the penalty is taken half the time; now and then
    a failure to play is claimed against the seat to play. Every state is kept in states."""
    n = m.players
    deck = new_deck()
    shuffle(deck, rand)
    m.deal()
    states.append(m.state())
    hands, crib, rest = discard_at_random(m, deck, rand)
    left = [list(h) for h in hands]
    m.starter(rest[0])
    states.append(m.state())
    while m.phase == match.PLAY:
        s = m.turn
        dead = m.dead() >> s & 1
        g = m._where[52 + s]  # (a dead seat: his cards of pips up to 31 - g are dead)
        assert left[s] and (not dead or g)  # a seat whose cards are all dead has no turn
        fits = [c for c in left[s] if m.count + PIP[c] <= 31 and not (dead and g + PIP[c] <= 31)]
        other = (m.side_of(s) + 1) % m.sides
        if m.count and rand(12) == 0 and not dead:  # a failure to play claimed against him
            m.penalty(other, match.FAIL_TO_PLAY, s)
            seen["dead"] += 1
        elif (m.count >= 22 or dead) and (not fits or rand(3) == 0):
            m.go()  # (a false go when a card fitted; a dead seat's at any count)
        else:
            c = fits[rand(len(fits))]
            m.play(c)
            left[s].remove(c)
            if m.false_go() == s:
                seen["proved"] += 1
                if rand(2):
                    states.append(m.state())
                    assert m.penalty(other, match.FALSE_GO) in (1, 2)  # (1: the go won)
                    left[s].append(c)  # back in his hand, dead
                    seen["taken"] += 1
        assert m.count <= 31 and m.error is None
        assert loads(m.dumps()).state() == m.state()
        states.append(m.state())
    if m.phase == match.SHOW:
        assert all(not left[s] or m.dead() >> s & 1 for s in range(n))  # played or dead
    while m.phase == match.SHOW:
        m.show(crib if m.crib_next else hands[m.turn])  # dead cards are shown with the hand
        states.append(m.state())


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_sloppy_games_with_penalties_replay_and_undo(players):
    seen = {"proved": 0, "taken": 0, "dead": 0}
    for g in range(12):
        rand = autoplay.seeded(500 + 10 * players + g)
        m = Match(players=players, target=61 if g % 2 else 121)
        states = [m.state()]
        autoplay.cut_for_deal(m, rand)
        states.append(m.state())
        while m.phase != match.OVER:
            sloppy_deal(m, rand, states, seen)
        assert loads(m.dumps()).state() == m.state()
        # undo walks back through the states (a state seen twice: the proved card, then its
        # penalty's undo lands on it again), redo forward to the end
        k = len(states) - 1
        while m.undo():
            while states[k] != m.state():
                k -= 1
                assert k >= 0
        assert m.state() == states[0]
        while m.redo():
            pass
        assert m.state() == states[-1]
    assert seen["proved"] > 5 and seen["taken"] > 2 and seen["dead"] > 5, seen
