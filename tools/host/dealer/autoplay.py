"""Computer players: whole deals and games played through a Match with real cards.

The host simulator, the tests and the benchmarks use it, and a board can run it as a demo.
Every card goes through the same Match calls a board makes (deal, starter, play, go, show), so
a simulated game exercises exactly the engine the players use. Randomness comes in as
rand(n) -> 0..n-1 (deal.shuffle's convention): a seeded generator replays a game exactly.

Strategies, per seat: RANDOM discards and plays at random among the legal cards; DISCARD
throws the advisor's best discard (expected show points, crib included) and plays at random;
GREEDY throws like DISCARD and plays the card that pegs most at once (ties: the highest).
SHOW keeps the four cards with the best average hand, ignoring the crib, and plays like GREEDY
(the "greedy show" player the advisor is measured against).
"""

from cribbage.cards import PIP
from .deal import new_deck, shuffle, deal_hands, dealt, deal_five
from cribbage.score import score_play
from cribbage import match as _m

RANDOM = 0
DISCARD = 1
GREEDY = 2
SHOW = 3
NAMES = ("random", "discard", "greedy", "show")


def _throw(hand, k, strategy, crib_mine, rand):
    """Remove k cards from hand (a list) and return them."""
    if k == 0:
        return []
    if strategy == RANDOM:
        out = []
        for _ in range(k):
            out.append(hand.pop(rand(len(hand))))
        return out
    from cribbage import advise  # only here: the advisor and its crib table are 13 KB of heap

    n = advise.rank(hand, crib_mine)
    best = advise.ORDER[0]
    if strategy == SHOW:  # the best kept hand alone
        for i in range(n):
            if advise.HAND[i] > advise.HAND[best]:
                best = i
    idx = advise.THROWS6[best] if len(hand) == 6 else advise.THROWS5[best]
    out = [hand[i] for i in idx]
    for c in out:
        hand.remove(c)
    return out


def _throw_five(hand, strategy, crib_mine, rand):
    """Remove two of the five cards of a five-card cribbage hand and return them (the
    advisor's throw: cribbage/advise5.py; SHOW: the best kept three alone)."""
    if strategy == RANDOM:
        return [hand.pop(rand(len(hand))), hand.pop(rand(len(hand)))]
    from cribbage import advise5

    advise5.rank(hand, crib_mine)
    best = advise5.ORDER[0]
    if strategy == SHOW:
        for i in range(10):
            if advise5.HAND[i] > advise5.HAND[best]:
                best = i
    out = [hand[i] for i in advise5.THROWS[best]]
    for c in out:
        hand.remove(c)
    return out


def _choose(left, pile, count, strategy, rand):
    """The card to play from left (a list), or -1 for go."""
    ok = [c for c in left if count + PIP[c] <= 31]
    if not ok:
        return -1
    if strategy != GREEDY and strategy != SHOW:
        return ok[rand(len(ok))]
    best = -1
    best_pts = -1
    for c in ok:
        pile.append(c)
        pts = score_play(pile)
        pile.pop()
        if pts > best_pts or (pts == best_pts and PIP[c] > PIP[best]):
            best, best_pts = c, pts
    return best


def cut_for_deal(m, rand):
    """Cut (a fresh shuffled deck per try) until one seat is lowest; returns the dealer."""
    while True:
        deck = new_deck()
        shuffle(deck, rand)
        try:
            return m.cut(deck[:m.players])
        except ValueError:  # a tie for low: cut again
            m.error = None


def play_deal(m, rand, strategies, seen=None):
    """Deal, discard, cut the starter, play and show one deal (or until a side pegs out).
    strategies: one per seat. seen(m, what, seat, points, cards) is called after every event,
    what being "deal" (after the discards), "starter", "play", "go", "hand" or "crib", cards
    being (hands kept, crib, cards each seat has left to play). Returns (hands, crib)."""
    n = m.players
    deck = new_deck()
    shuffle(deck, rand)
    m.deal()
    d = m.dealer
    if m.cards() == 5:  # five-card cribbage: five each, two each to the crib
        hands, crib, rest = deal_five(d, deck)
        for s in range(2):
            crib.extend(_throw_five(hands[s], strategies[s], s == d, rand))
    else:
        hands, crib, rest = deal_hands(n, d, deck)
        for s in range(n):
            k = dealt(n, d, s)[1]
            mine = m.side_of(s) == m.side_of(d)
            crib.extend(_throw(hands[s], k, strategies[s], mine, rand))
    left = [list(h) for h in hands]
    cards = (hands, crib, left)
    if seen:
        seen(m, "deal", d, 0, cards)
    pts = m.starter(rest[rand(len(rest))])
    if seen:
        seen(m, "starter", d, pts, cards)
    pile = []
    while m.phase == _m.PLAY:
        s = m.turn
        if m.count == 0:
            pile = []
        c = _choose(left[s], pile, m.count, strategies[s], rand)
        if c < 0:
            pts = m.go()
            if seen:
                seen(m, "go", s, pts, cards)
        else:
            left[s].remove(c)
            pile.append(c)
            pts = m.play(c)
            if seen:
                seen(m, "play", s, pts, cards)
    while m.phase == _m.SHOW:
        s = m.turn
        if m.crib_next:
            pts = m.show(crib)
            if seen:
                seen(m, "crib", s, pts, cards)
        else:
            pts = m.show(hands[s])
            if seen:
                seen(m, "hand", s, pts, cards)
    return hands, crib


def play_game(m, rand, strategies, seen=None, max_deals=100):
    """A whole game: cut for deal (unless a dealer is known), then deals until a side wins.
    Returns the number of deals."""
    if m.next_dealer < 0:
        d = cut_for_deal(m, rand)
        if seen:
            seen(m, "cut", d, 0, None)
    while m.phase != _m.OVER:
        if m.deals >= max_deals:
            raise RuntimeError("no winner after %d deals" % max_deals)
        play_deal(m, rand, strategies, seen)
    return m.deals


def seeded(seed):
    """A reproducible rand(n) -> 0..n-1 (xorshift32) for simulations and demos; the same
    numbers on CPython and MicroPython."""
    st = [(seed * 2654435761 + 12345) & 0xFFFFFFFF or 1]

    def rand(n):
        x = st[0]
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        st[0] = x
        return (x >> 3) % n

    return rand
