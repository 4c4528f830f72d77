"""Whole games dealt with real cards through the engine, every event checked.

Checker follows a game (autoplay's seen callback) and asserts after every event, from its
own bookkeeping: each side's score is the sum of the points its events pegged; a played card
pegs score_play() of the series plus one only for the go or the last card; no count passes
31; every card is played exactly once per deal; a go is said only without a playable card,
and the go point only when nobody can play; hands and cribs peg score_hand(); the game ends
exactly when a side reaches the target; a saved game loads to the same state. At the end,
undo walks back through every state to the start and redo forward again.
pytest runs thousands of these games (test_match_many.py); MicroPython a few here.
"""

import gc
import binascii

from cribbage.score import score_play, score_hand  # first: the scorer's table is 6 KB in one
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from dealer import autoplay  # noqa: E402
from cribbage.cards import PIP, JACK  # noqa: E402
from check import ON_MICROPYTHON  # noqa: E402


def _digest(st):
    # MicroPython's tuple hash is nearly a sum of its items' hashes: use a CRC of the text
    return binascii.crc32(repr(st).encode()) & 0xFFFF


class Checker:
    def __init__(self, m, roundtrip=1):
        self.m = m
        self.roundtrip = roundtrip  # load(dumps()) every n-th event (0: never)
        self.pegged = [0] * m.sides
        # a hash per state: 16 bits in a bytearray on MicroPython (a list of ints is too big
        # for its heap), the whole hash on CPython
        self.states = bytearray() if ON_MICROPYTHON else []
        self.keep(m.state())
        self.deal_cards = None
        self.plays = 0

    def seen(self, m, what, seat, pts, cards):
        side = m.side_of(seat)
        if what == "cut":
            assert pts == 0 and m.next_dealer == seat
        elif what == "deal":
            assert pts == 0 and m.phase == match.STARTER and m.dealer == seat
            hands, crib, left = cards
            assert all(len(h) == 4 for h in hands) and len(crib) == 4
            everything = crib[:]
            for h in hands:
                everything.extend(h)
            assert len(set(everything)) == 4 * m.players + 4
            self.mine = [list(h) for h in left]
            self.pile = []
            self.count = 0
            self.played = []
            self.last = -1
        elif what == "starter":
            assert m.starter_card >= 0
            assert pts == (2 if m.starter_card >> 2 == JACK else 0)
            if pts:
                assert m.last_why == match.WHY_HEELS and m.last_side == m.side_of(m.dealer)
        elif what == "play":
            left = cards[2]
            gone = [c for c in self.mine[seat] if c not in left[seat]]
            assert len(gone) == 1
            c = gone[0]
            self.mine[seat].remove(c)
            self.pile.append(c)
            self.played.append(c)
            self.count += PIP[c]
            self.last = seat
            assert self.count <= 31
            base = score_play(self.pile)
            final = len(self.played) == 4 * m.players
            if self.count == 31:
                assert pts == base
                ended = True
            elif final:
                assert pts == base + 1 or (m.phase == match.OVER and pts == base + 1)
                ended = True
            else:
                assert pts == base or pts == base + 1
                ended = pts == base + 1
                if ended:  # a go point with the card: he is out, nobody else can play
                    assert not left[seat]
                    self.nobody_can_play(left)
            if final:
                assert sorted(self.played) == sorted(c for h in cards[0] for c in h)
            if ended:
                self.pile = []
                self.count = 0
            if m.phase != match.OVER:
                assert m.count == self.count and list(m.pile) == self.pile
        elif what == "go":
            left = cards[2]
            assert self.count > 0
            assert all(self.count + PIP[c] > 31 for c in left[seat])
            assert pts == 0 or pts == 1
            if pts:
                side = m.side_of(self.last)
                self.nobody_can_play(left)
                self.pile = []
                self.count = 0
            assert m.count == self.count
        elif what == "hand":
            assert pts == score_hand(cards[0][seat], m.starter_card)
        elif what == "crib":
            assert seat == m.dealer and pts == score_hand(cards[1], m.starter_card, True)
        if pts:
            self.pegged[side] += pts
            assert m.last_points == pts and m.last_side == side
        self.check()

    def nobody_can_play(self, left):
        for h in left:
            for c in h:
                assert self.count + PIP[c] > 31

    def check(self):
        m = self.m
        assert m.score == self.pegged, (m.score, self.pegged)
        assert m.count <= 31
        assert m.false_go() == -1 and m.dead() == 0  # the computer never says a false go
        top = max(m.score)
        if m.phase == match.OVER:
            assert m.score[m.winner] == top >= m.target
            assert sum(1 for s in m.score if s >= m.target) == 1
        else:
            assert top < m.target and m.winner == -1
        st = m.state()
        self.keep(st)
        if self.roundtrip and m.events % self.roundtrip == 0:
            assert loads(m.dumps()).state() == st

    def keep(self, st):
        if ON_MICROPYTHON:
            h = _digest(st)
            self.states.append(h & 255)
            self.states.append(h >> 8)
        else:
            self.states.append(hash(st))

    def state_at(self, k):
        if ON_MICROPYTHON:
            return self.states[2 * k] | self.states[2 * k + 1] << 8
        return self.states[k]

    def now(self):
        return _digest(self.m.state()) if ON_MICROPYTHON else hash(self.m.state())

    def walk_back_and_forth(self):
        """Undo every event back to the start, then redo them all, matching every state."""
        m = self.m
        end = len(self.states) // 2 - 1 if ON_MICROPYTHON else len(self.states) - 1
        k = end
        while m.undo():
            k -= 1
            assert self.now() == self.state_at(k)
        assert k == 0 and m.events == 0
        while m.redo():
            k += 1
            assert self.now() == self.state_at(k)
        assert k == end


def checked_game(players, seed, strategy, target=121, roundtrip=1, walk=True):
    m = Match(players=players, target=target)
    chk = Checker(m, roundtrip)
    rand = autoplay.seeded(seed)
    autoplay.play_game(m, rand, [strategy] * players, chk.seen)
    assert m.phase == match.OVER
    if walk:
        chk.walk_back_and_forth()
    return m


def test_two_players_random():
    m = checked_game(2, 1, autoplay.RANDOM)
    assert m.games[m.winner] >= 1


def test_two_players_61():
    checked_game(2, 2, autoplay.RANDOM, target=61)


def test_three_players():
    checked_game(3, 3, autoplay.RANDOM, roundtrip=3)


def test_four_players_partners():
    checked_game(4, 4, autoplay.RANDOM, roundtrip=3)


def test_five_and_six_players():
    checked_game(5, 5, autoplay.RANDOM, roundtrip=0)
    checked_game(6, 6, autoplay.RANDOM, roundtrip=0)


def test_same_seed_same_game():
    a = Match()
    autoplay.play_game(a, autoplay.seeded(7), [autoplay.RANDOM] * 2)
    b = Match()
    autoplay.play_game(b, autoplay.seeded(7), [autoplay.RANDOM] * 2)
    assert a.dumps() == b.dumps()
    c = Match()
    autoplay.play_game(c, autoplay.seeded(8), [autoplay.RANDOM] * 2)
    assert c.dumps() != a.dumps()
