"""Match.check_card: a card the board is typing into the next hand (or the crib) of the show is
checked against the deal as it is typed, worded as show() words its refusal (issue 22.7)."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()
from dealer.cardtext import parse  # noqa: E402
from cribbage import match  # noqa: E402
from matchkit import C, plays, two  # noqa: E402


def refusal(m, card):
    """check_card's refusal of card (text), or None; the game is left as it was."""
    before = m.dumps()
    try:
        m.check_card(parse(card))
        said = None
    except ValueError as e:
        said = str(e)
    assert m.dumps() == before
    return said


def test_each_hand_takes_its_own_played_cards_and_no_one_else_s():
    m = two(starter="5C")  # seat 1 deals: seat 0 (5H 5D 5S 4C) shows first, then seat 1
    plays(m, "5H JC 5D 10H go go 5S 10S 4C 9H")
    assert m.phase == match.SHOW and m.turn == 0
    assert refusal(m, "5H") is None and refusal(m, "2C") is None
    assert refusal(m, "JC") == "JC was played by seat 1"
    assert refusal(m, "5C") == "5C is the starter"
    m.show(C("5H 5D 5S 4C"))
    assert m.turn == 1 and refusal(m, "JC") is None
    assert refusal(m, "5H") == "5H is in seat 0's hand"
    m.show(C("JC 10H 10S 9H"))
    assert m.crib_next
    assert refusal(m, "JC") == "JC is in seat 1's hand"
    assert refusal(m, "2C") is None


def test_the_crib_takes_no_played_card():
    m = two(starter="5C")
    plays(m, "5H JC 5D 10H go go 5S 10S 4C 9H")
    m.show(None, 20)  # both hands by points: their cards are not known to be shown
    m.show(None, 4)
    assert m.crib_next
    assert refusal(m, "5H") == "5H was played by seat 0"
    assert refusal(m, "9H") == "9H was played by seat 1"
    assert refusal(m, "AS") is None


def test_counted_before_any_card_is_played_only_the_starter_is_refused():
    m = two(starter="KC")
    assert m.phase == match.PLAY
    assert refusal(m, "KC") == "KC is the starter" and refusal(m, "5H") is None
