"""The show starts from the play (issue 10): when a hand's turn to count comes, the cards its
seat played are already typed (the display lists them, the LEDs preview the count): OK pegs
them, * clears them, a card typed starts the hand afresh, undo brings them back. The crib
is typed (nobody saw it) and every card is checked against the deal. Also the key presses a
deal takes with cards, before and after. (The fake board's keypad, display and LEDs; CPython.)
"""

import pytest

from boardkit import Fingers, board, new_game, shown
from cribbage import match as M
from dealer.autoplay import seeded
from cribbage.cards import PIP, fmt
from dealer.deal import dealt, deal_hands, new_deck, shuffle
from cribbage.score import score_hand
from matchkit import card_keys


class Counting(Fingers):
    """Fingers that count the keys pressed (a long press counts one)."""

    def __init__(self, hw, app):
        super().__init__(hw, app)
        self.presses = 0

    def press(self, keys, hold=60):
        self.presses += len(keys)
        super().press(keys, hold)


def deal_cards(players, dealer, rand):
    """A shuffled deal: (hands of four, crib of four, starter)."""
    deck = new_deck()
    shuffle(deck, rand)
    hands, crib, rest = deal_hands(players, dealer, deck)
    for s in range(players):
        for _ in range(dealt(players, dealer, s)[1]):
            crib.append(hands[s].pop())
    return hands, crib, rest[0]


def play(f, app, hands, ok="", short=False):
    """Enter the play on the keys: each seat plays its first card that fits, or says go. ok:
    "#" after each as the board took them before (no OK is needed: a card goes in when its
    suit is typed, go with B); after the last card it is counted, not pressed (here that OK
    would count the first hand, filled in)."""
    m = app.m
    left = [list(h) for h in hands]
    while m.phase == M.PLAY:
        s = m.turn
        fits = [c for c in left[s] if m.count + PIP[c] <= 31]
        if fits:
            left[s].remove(fits[0])
            if ok and sum(m.played) == 4 * m.players - 1:
                f.presses += len(ok)
                f.press(card_keys(fits[0], short))
                continue
            f.press(card_keys(fits[0], short) + ok)
        else:
            f.press("B" + ok)
        assert app.err is None, app.err


def entry_line(hw):
    """The display's entry line: what is typed (the cards, a number)."""
    for line in hw["display"].shown:
        if line.startswith(">"):
            return line[1:].split()
    return None


def start(players, seed, muggins=0):
    hw, app, f = board(display=True)
    f = Counting(hw, app)
    if players != 2 or muggins:
        new_game(f, app, {"players": players, "muggins": muggins})
    rand = seeded(seed)
    hands, crib, starter = deal_cards(players, 0, rand)
    f.press("#")  # Red (seat 0) deals
    f.press(card_keys(starter) + "#")
    assert app.err is None and app.m.phase == M.PLAY, app.err
    return hw, app, f, hands, crib, starter


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_hand_is_filled_in_from_the_play_and_one_ok_counts_it(players):
    """With two players that OK counts the dealer's hand too (both filled in; the display
    shows both counts before it); the crib goes in with its fourth card typed."""
    hw, app, f, hands, crib, starter = start(players, seed=players)
    m = app.m
    play(f, app, hands)
    for k in range(players):
        if m.phase != M.SHOW or m.crib_next:
            break  # someone pegged out in the show, or one OK counted two hands
        seat = m.turn
        assert seat == (k + 1) % players  # pone first, the dealer last
        assert sorted(entry_line(hw)) == sorted(fmt(c) for c in hands[seat])
        pts = score_hand(hands[seat], starter)
        side = seat % m.sides
        before = list(m.score)
        if pts:
            assert app.view.preview_side == side
            assert app.view.preview_score == min(before[side] + pts, m.target)
        then = score_hand(hands[0], starter)  # the dealer's (seat 0)
        assert ("then Red = %d" % then in shown(hw)) == (players == 2)
        f.press("#")
        assert app.err is None, app.err
        assert m.score[side] == min(before[side] + pts, m.target)
        if players == 2 and m.phase == M.SHOW:  # the dealer's with it
            assert m.crib_next and m.score[0] == before[0] + then
            assert "Red +%d hand" % then in shown(hw) or not then
    if m.phase == M.SHOW:  # the crib: nothing is known, nothing is filled in
        assert m.crib_next and entry_line(hw) == []
        deals = m.deals
        for c in crib:
            f.press(card_keys(c))  # the fourth card puts it in: no OK
        assert app.err is None and m.phase in (M.DEAL, M.OVER), app.err
        total = score_hand(crib, starter, True)
        assert ("Red +%d crib" % total in shown(hw)) == (total > 0)  # the count, after
        f.press("#")  # an OK out of habit right after: nothing (no deal)
        assert app.err is None and m.phase in (M.DEAL, M.OVER) and m.deals == deals


def test_one_ok_counts_the_pone_and_not_the_dealer_once_the_pone_has_won():
    hw, app, f, hands, crib, starter = start(2, seed=4)
    play(f, app, hands)
    short = app.m.target - score_hand(hands[1], starter) - app.m.score[1]  # Blue's, played
    hw, app, f, hands, crib, starter = start(2, seed=4)  # again, Blue pegged that first
    m = app.m
    f.press("A")  # the plain pegs are Blue's
    while short > 0:
        f.press("%d#" % min(short, 15))
        short -= 15
    play(f, app, hands)
    assert app.err is None and m.phase == M.SHOW and m.turn == 1
    before = m.events
    f.press("#")  # Blue's hand wins: Red's is not counted
    assert m.phase == M.OVER and m.winner == 1 and m.events == before + 1
    f.hold("*")  # undone: both filled in again
    assert m.phase == M.SHOW and m.turn == 1 and "then Red" in shown(hw)


def test_star_clears_the_filled_in_cards_and_a_typed_hand_counts():
    hw, app, f, hands, crib, starter = start(2, seed=7)
    m = app.m
    play(f, app, hands)
    assert len(entry_line(hw)) == 4
    f.press("*")
    assert entry_line(hw) == [] and app.err is None
    f.press("#")
    assert app.err is not None and m.phase == M.SHOW  # nothing typed: nothing pegged
    for c in hands[1]:
        f.press(card_keys(c))
    before = m.score[1]
    f.press("#")
    assert app.err is None and m.score[1] == before + score_hand(hands[1], starter)


def test_a_card_typed_starts_the_hand_afresh():
    hw, app, f, hands, crib, starter = start(2, seed=11)
    m = app.m
    play(f, app, hands)
    hand = list(reversed(hands[1]))
    f.press(card_keys(hand[0]))
    assert entry_line(hw) == [fmt(hand[0])]  # the filled-in cards gave way
    for c in hand[1:]:
        f.press(card_keys(c))
    before = m.score[1]
    f.press("#")
    assert app.err is None and m.score[1] == before + score_hand(hand, starter)


def test_a_card_of_the_crib_played_by_another_seat_is_refused_by_name():
    hw, app, f, hands, crib, starter = start(2, seed=3)
    m = app.m
    play(f, app, hands)
    saved = m.dumps()
    f.press("#")  # both hands, as played
    assert m.phase == M.SHOW and m.crib_next and m.events == M.loads(saved).events + 2
    bad = hands[1][0]
    saved = m.dumps()
    f.press(card_keys(bad))  # a card of Blue's hand, typed into the crib: refused at once
    assert "%s is in Blue's hand" % fmt(bad) in shown(hw).replace("\n", " ")
    assert m.dumps() == saved and entry_line(hw) == []  # nothing of it stays typed
    for c in crib:  # typed right, the crib goes in with its fourth card
        f.press(card_keys(c))
    assert app.err is None and m.phase in (M.DEAL, M.OVER), app.err


def test_undo_brings_the_hand_back_filled_in():
    hw, app, f, hands, crib, starter = start(2, seed=5)
    m = app.m
    play(f, app, hands)
    f.press("#")  # Blue's hand and Red's
    after = list(m.score)
    assert m.crib_next
    f.hold("*")  # Red's hand undone: filled in again, OK counts it alone
    assert m.phase == M.SHOW and m.turn == 0 and not m.crib_next
    assert sorted(entry_line(hw)) == sorted(fmt(c) for c in hands[0])
    assert "then" not in shown(hw)
    f.hold("*")  # Blue's too: both filled in again
    assert m.phase == M.SHOW and m.turn == 1
    assert sorted(entry_line(hw)) == sorted(fmt(c) for c in hands[1])
    f.press("#")
    assert m.score == after and m.crib_next


def test_muggins_the_count_is_typed_after_the_filled_in_cards():
    hw, app, f, hands, crib, starter = start(2, seed=9, muggins=1)
    m = app.m
    play(f, app, hands)
    pts = score_hand(hands[1], starter)
    assert sorted(entry_line(hw)) == sorted(fmt(c) for c in hands[1])
    assert app.view.preview_side == -1  # the player counts it himself
    before = m.score[1]
    f.press(str(pts) + "#")
    assert app.err is None and m.score[1] == before + pts


def presses_per_deal(seed, today):
    """Key presses per deal for one seeded two-player game entered with cards, the fewest the
    board takes (typing the starter deals). today: as the board took them before it filled
    in the hands: OK after every card and go, every hand typed in full (it still takes those
    keys; the OK after the crib, which its fourth card now puts in, is counted). Else: no OK
    after a card or go, one OK on the pone's hand as filled in (it counts the dealer's too),
    the crib typed (no OK), a ten typed as 0."""
    hw, app, f = board(display=True)
    f = Counting(hw, app)
    m = app.m
    rand = seeded(seed)
    ok = "#" if today else ""
    f.press("#")  # the first deal: Red deals (after it, typing the starter deals)
    while m.phase != M.OVER:
        dealer = m.dealer if m.phase != M.DEAL else m.next_dealer
        hands, crib, starter = deal_cards(2, dealer, rand)
        f.press(card_keys(starter, not today) + ok)
        assert app.err is None, app.err
        play(f, app, hands, ok, not today)
        while m.phase == M.SHOW:
            if m.crib_next:  # typed: its fourth card puts it in (before, it took an OK)
                for c in crib:
                    f.press(card_keys(c, not today))
                f.presses += 1 if today else 0
            else:
                if today:
                    for c in hands[m.turn]:
                        f.press(card_keys(c, False))
                f.press("#")  # now: the pone's hand as filled in, the dealer's with it
            assert app.err is None, app.err
    return f.presses / m.deals


def test_a_deal_takes_half_the_presses_it_took():
    today = presses_per_deal(1, today=True)
    now = presses_per_deal(1, today=False)
    print("presses per deal: as before %.1f, now %.1f" % (today, now))
    assert 55 <= today <= 70  # the README's figure before: about 60
    assert now <= 0.5 * today  # half (the README says what stands in the way of fewer)
