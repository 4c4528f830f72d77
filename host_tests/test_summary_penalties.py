"""Issue 22: a game's summary (cribbage/summary.py) accounts for every point, whatever the
penalties. Thousands of games of 2-6 players, dealt with real cards by sloppy players: now and
then a misdeal, a failure to play claimed against the seat to play, a go said while a card
fitted (a false go, the penalty taken when the engine proves it, or let go), a short count in
the show taken by muggins. At each game's end every side's totals, and its deal rows added up,
equal its final score."""

import pytest

from cribbage import match, summary as S
from dealer import autoplay
from cribbage.cards import PIP
from dealer.deal import new_deck, shuffle
from cribbage.match import Match, loads
from cribbage.score import score_hand
from test_match_many import discard_at_random


def try_play(m, s, left, rand):
    """Seat s plays a card of left[s] that fits (a random one the engine takes: a dead card is
    refused); True if one went in."""
    fits = [c for c in left[s] if m.count + PIP[c] <= 31]
    while fits:
        c = fits.pop(rand(len(fits)))
        try:
            m.play(c)
        except ValueError:
            m.error = None
            continue
        left[s].remove(c)
        return c
    return -1


def sloppy_deal(m, rand, seen):
    """One deal with sloppy players (see the module's text), or until a side pegs out."""
    deck = new_deck()
    shuffle(deck, rand)
    m.deal()
    d = m.dealer
    if rand(10) == 0:  # a misdeal found: two to a side that did not deal
        other = (m.side_of(d) + 1 + rand(m.sides - 1)) % m.sides
        m.penalty(other, match.MISDEAL)
        seen["misdeal"] += 1
        if m.phase == match.OVER:
            return
    hands, crib, rest = discard_at_random(m, deck, rand)
    left = [list(h) for h in hands]
    m.starter(rest[0])
    while m.phase == match.PLAY:
        s = m.turn
        other = (m.side_of(s) + 1 + rand(m.sides - 1)) % m.sides
        if m.count and rand(14) == 0 and not m.dead() >> s & 1:  # a failure to play claimed
            m.penalty(other, match.FAIL_TO_PLAY, s)
            seen["fail"] += 1
            continue
        if m.count >= 22 and rand(3) == 0:
            try:
                m.go()  # (a false go when a card fitted)
                continue
            except ValueError:
                m.error = None
        c = try_play(m, s, left, rand)
        if c < 0:
            m.go()  # nothing he may play: a go (a dead hand's, at any count)
            continue
        if m.false_go() == s:
            seen["proved"] += 1
            if rand(2):
                m.penalty(other, match.FALSE_GO)
                left[s].append(c)  # back in his hand, dead
                seen["taken"] += 1
    while m.phase == match.SHOW:
        cards = crib if m.crib_next else hands[m.turn]
        pts = score_hand(bytes(cards), rest[0], m.crib_next)
        if m.muggins_on and pts and rand(4) == 0:  # a short count, taken
            claim = pts - 1
            while not match.show_points_ok(claim):
                claim -= 1
            side = m.side_of(d if m.crib_next else m.turn)
            m.show(cards, claim)
            if m.phase != match.OVER and m.overlooked():
                m.muggins((side + 1 + rand(m.sides - 1)) % m.sides)
                seen["muggins"] += 1
        else:
            m.show(cards)


def accounted(m):
    """Every side's totals, and its deal rows added up, are its score."""
    b = b"".join(S.dumps(m, 255))
    rows = S.rows(b, 0, m.sides)
    assert len(rows) == m.deals
    for k in range(m.sides):
        t = dict(zip(S.TOTALS, S.totals(b, 0, m.sides, k)))  # (by name)
        assert (t["hand"] + t["crib"] + t["play"] + t["heels"] + t["pegged"] + t["penalties"]
                + t["muggins_taken"]) == m.score[k], (k, t, m.score)
        by_rows = 0
        for dealer, heels, crib, hands, plays, pegged, pens, mugs in rows:
            mine = m.side_of(dealer) == k
            by_rows += (heels + (crib or 0) if mine else 0) + (hands[k] or 0) + plays[k] \
                + pegged[k] + pens[k] + mugs[k]
        assert by_rows == m.score[k], (k, rows, m.score)


def race(m):
    """The page's race (page/rows.py deal_rows: all each side pegged, deal by deal) climbs to
    each side's score: his heels, penalties and muggins included."""
    from page import rows as web

    rows = web.deal_rows(m)
    assert len(rows) == m.deals
    for k in range(m.sides):
        assert sum(d[2][k] for d in rows) == m.score[k], (k, rows, m.score)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_side_totals_its_score_whatever_the_penalties(players):
    seen = {"misdeal": 0, "fail": 0, "proved": 0, "taken": 0, "muggins": 0}
    games = {2: 1000, 3: 500, 4: 500, 5: 400, 6: 400}[players]
    for g in range(games):
        rand = autoplay.seeded(7000 + 1000 * players + g)
        m = Match(players=players, target=61 if g % 4 == 3 else 121, muggins=g % 2 == 0)
        autoplay.cut_for_deal(m, rand)
        while m.phase != match.OVER:
            sloppy_deal(m, rand, seen)
        accounted(m)
        if g % 50 == 0:
            assert loads(m.dumps()).state() == m.state()
            race(m)
    assert min(seen.values()) > 20, seen
