"""The engine's one table of the "why" words (events.why) and its one reader of a show
event's layout outside its handlers (events.shown): what the display and the live page say."""

import gc

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()
from cribbage import events  # noqa: E402
from cribbage import match  # noqa: E402
from matchkit import C, plays, two  # noqa: E402


def test_every_why_has_its_word_and_none_has_none():
    assert [events.why(k) for k in (match.WHY_PLAY, match.WHY_GO, match.WHY_HEELS,
                                     match.WHY_HAND, match.WHY_CRIB, match.WHY_PEG,
                                     match.WHY_PENALTY, match.WHY_MUGGINS)] == [
        "play", "go", "heels", "hand", "crib", "peg", "penalty", "muggins"]
    assert events.why(9) == "last"  # five-card cribbage's three for last
    assert events.why(0) == "" and events.why(10) == "" and events.why(-1) == ""


def test_a_games_last_why_is_said():
    m = two(starter="JC")  # his heels: two to the dealer
    assert events.why(m.last_why) == "heels"
    m.peg(0, 3)
    assert events.why(m.last_why) == "peg"


def shows(m):
    """shown() of each show event of m's journal, in order."""
    e = m.committed()
    out = []
    i = 0
    while i < len(e):
        if e[i] & 0xF0 == events.E_SHOW:
            out.append(events.shown(e, i))
        i += events.size(e, i, m.players)
    return out


def test_a_show_of_cards_gives_its_cards_one_of_points_none():
    m = two(starter="5C")
    plays(m, "5H JC 5D 10H go go 5S 10S 4C 9H")
    m.show(C("5H 5D 5S 4C"))  # pone: four cards
    m.show(None, 8)  # the dealer: his points only
    m.show(C("2H 3H 6D 7S"))  # the crib
    assert shows(m) == [bytes(C("5H 5D 5S 4C")), None, bytes(C("2H 3H 6D 7S"))]
