"""Penalties entered on the board (rule sheet 000: a misdeal noticed after the play started,
or a failure to play after a go, gives two to the other side): D, B to the menu's last item
"penalty", OK; A whose two, B misdeal, C failed to play; OK pegs, journalled as a penalty
(the fake board's keypad, app, engine, display and storage; CPython)."""

import pytest

from boardkit import board, marked, new_game, peg_out, shown
from fakeboard.fake import build
from board.app import App
from board.menu import MENU_ITEMS
from cribbage import match as M
from dealer.autoplay import seeded
from cribbage.cards import PIP
from cribbage.score import score_hand
from matchkit import card_keys, journal
from test_board_prefill import deal_cards


def open_penalty(f, app):
    L = f.hw["layout"]
    f.press("DB")  # the menu, then back from "new game" to its last item
    assert marked(app) == [L.hole(0, 1 + MENU_ITEMS.index("penalty"))]  # the item's hole
    f.press("#")
    assert marked(app) == [L.hole(0, 1)]  # the penalty entry: hole 1 white, a misdeal


def test_a_misdeal_gives_the_non_dealer_two_journalled_as_a_penalty():
    hw, app, f = board(display=True)
    f.press("#5C#")  # Red deals, starter 5H: the play has started
    before = journal(app.m)
    open_penalty(f, app)
    text = shown(hw)
    assert "PENALTY\nmisdeal\n+2 to Blue" in text  # the non-dealer is proposed
    assert app.view.preview_side == 1 and app.view.preview_score == 2  # the blinking hole
    assert app.m.score == [0, 0]  # nothing pegged before OK
    f.press("#")
    assert app.m.score == [0, 2] and marked(app) == [] and app.err is None  # entry closed
    assert journal(app.m) == before + [bytes((M.E_PENALTY | M.MISDEAL << 3 | 1,))]
    assert app.m.last_why == M.WHY_PENALTY
    assert "Blue +2 penalty" in shown(hw)
    assert app.view.preview_side == -1
    # saved: the board powers up with it
    again = App(build("/data", display=False, fs=hw["fs"]))
    assert journal(again.m) == journal(app.m) and again.m.score == [0, 2]
    f.hold("*")  # undone like any entry, and the undo is saved
    assert app.m.score == [0, 0] and journal(app.m) == before
    assert App(build("/data", display=False, fs=hw["fs"])).m.score == [0, 0]
    f.hold("#")
    assert app.m.score == [0, 2] and app.m.last_why == M.WHY_PENALTY


def test_failed_to_play_to_the_player_chosen_with_a():
    hw, app, f = board(display=True)
    f.press("#5C#")
    open_penalty(f, app)
    f.press("C")
    assert "failed to play\n+2 to Blue" in shown(hw)
    f.press("A")  # Blue failed to play his cards after Red's go: the two are Red's
    assert "+2 to Red" in shown(hw)
    assert app.view.preview_side == 0 and app.view.preview_score == 2
    f.press("#")
    assert app.m.score == [2, 0] and marked(app) == []
    assert journal(app.m)[-1] == bytes((M.E_PENALTY | M.FAIL_TO_PLAY << 3 | 0,))


def test_leaving_or_a_wrong_key_changes_nothing():
    hw, app, f = board(display=True)
    f.press("#5C#")
    before = app.m.dumps()
    open_penalty(f, app)
    f.press("7")  # a number means nothing here: says the keys
    assert app.err == "A-D, OK or *" and "! A-D, OK or *" in shown(hw)
    assert "A who B misdeal" in shown(hw)  # the keys are still listed
    assert "PENALTY" in hw["display"].shown and app.m.dumps() == before  # still open
    f.press("*")
    assert marked(app) == [] and app.m.dumps() == before and app.view.preview_side == -1
    assert "PENALTY" not in hw["display"].shown
    open_penalty(f, app)
    f.hold("*")  # hold * (undo) also just leaves the entry
    assert marked(app) == [] and app.m.dumps() == before


def test_after_the_win_a_penalty_is_refused():
    hw, app, f = board(display=True)
    peg_out(f)
    assert app.m.phase == M.OVER
    before = app.m.dumps()
    open_penalty(f, app)
    assert app.view.preview_side == -1  # nothing to peg: no preview
    f.press("#")
    assert app.err and app.m.dumps() == before


def test_without_a_display_the_leds_show_whose_two_and_which_penalty():
    hw, app, f = board(display=False)
    f.press("#5C#")
    L = hw["layout"]
    open_penalty(f, app)
    assert app.view.marks[0] == L.hole(0, 1)  # hole 1 white: a misdeal
    assert app.view.preview_side == 1 and app.view.preview_score == 2
    f.press("C")
    assert app.view.marks[0] == L.hole(0, 2)  # hole 2: failed to play
    f.press("B")
    assert app.view.marks[0] == L.hole(0, 1)
    f.press("#")
    assert app.m.score == [0, 2] and marked(app) == []
    assert journal(app.m)[-1] == bytes((M.E_PENALTY | M.MISDEAL << 3 | 1,))


def test_partners_the_two_go_to_the_chosen_players_side():
    hw, app, f = board(display=True)
    assert MENU_ITEMS.index("players") == 1
    f.press("DA4#")  # the menu, players: four (two partnerships)
    f.press("B#")  # back to new game, OK
    assert app.m.players == 4
    f.press("#5C#")  # seat 0 deals
    open_penalty(f, app)
    assert "+2 to Blue1" in shown(hw)  # the non-dealer: the pone, seat 1
    f.press("AA")  # seat 3: Blue2, the same side
    assert "+2 to Blue2" in shown(hw)
    f.press("A")  # seat 0: Red1
    f.press("#")
    assert app.m.score == [2, 0]


def test_a_false_go_is_proved_proposed_and_taken_or_declined():
    """Sheet 000: Red says go at 25 while holding the 5S; when Red later plays it (25 + 5
    fits), the board proposes the penalty: two to Blue, Red's card back and the rest of his
    hand dead. OK takes it; * declines it and the play goes on as entered."""
    for take in (True, False):
        hw, app, f = board(display=True)
        f.press("#")  # Red deals, Blue leads
        f.press("13C")  # the starter KH
        for k in ("0A", "0B", "5C"):  # Blue 10C, Red 10D (a pair: Red 2), Blue 5H: 25
            f.press(k)
        f.press("B")  # Red: go at 25, holding the 5S (a false go, not yet known)
        f.press("1A2A")  # Blue AC 26, 2C 28: Blue is out, nobody goes on: one for the go
        before = list(app.m.score)
        f.press("5D")  # Red leads the 5S: it would have fitted at 25: the go was false
        text = shown(hw)
        assert "PENALTY" in text and "false go" in text and "+2 to Blue" in text
        assert app.m.false_go() == 0
        if take:
            f.press("#")
            assert app.err is None, app.err
            assert app.m.score[1] == before[1] + 2  # two to Blue
            assert app.m.dead() & 1  # Red's cards that fitted at 25 are dead (6 or less)
            assert app.m.phase == M.PLAY and app.m.turn == 0 and "PENALTY" not in shown(hw)
            f.press("5D")  # the 5S is dead
            assert "5S is dead: it fitted at 25" in app.err
            f.press("*B")  # Red's other cards are dead too: a go, even at 0, ends the play
            assert app.m.phase == M.SHOW and app.err is None, app.err
            f.hold("*")  # undo the go, then the penalty: back to the card played, the false
            f.hold("*")  # go proved again
            assert app.m.score[1] == before[1] and not app.m.dead() & 1
        else:
            f.press("*")  # declined: the play goes on as entered
            assert "PENALTY" not in shown(hw) and app.m.dead() == 0
            assert app.m.count == 5 and app.m.phase == M.PLAY


# --- naming who failed to play, with three players or more (sheet 000: his cards are dead) ---

def first_fit(m, left):
    """The first card of the seat to play's cards left that fits the count and is not dead
    (a failure to play: those that fitted at his go, 31 - g or fewer pips), or -1."""
    s = m.turn
    g = m._where[52 + s] if m.dead() >> s & 1 else 0
    for c in left[s]:
        if m.count + PIP[c] <= 31 and not (g and g + PIP[c] <= 31):
            return c
    return -1


def play_on(f, app, left, until):
    """Play (each seat its first card that fits, or go) while until(m) is false."""
    m = app.m
    while m.phase == M.PLAY and not until(m):
        c = first_fit(m, left)
        if c >= 0:
            left[m.turn].remove(c)
            f.press(card_keys(c))
        else:
            f.press("B")
        assert app.err is None, app.err


@pytest.mark.parametrize("players,display", [(3, True), (4, True), (6, True), (4, False)])
def test_failed_to_play_names_the_offender_whose_cards_are_dead(players, display):
    """C, then D picks who failed (a seat of another side with cards left; first one that
    said go in this series), shown as "by Blue2" (no display: hole 6 + seat of lane 1), OK:
    two to the chosen side, his cards that fitted at his go dead: the play goes on without
    them (he says go with only dead cards left), they count in the show. Undone with hold *,
    and saved."""
    hw, app, f = board(display=display)
    new_game(f, app, {"players": players})
    m = app.m
    hands, crib, starter = deal_cards(players, 0, seeded(5))
    left = [list(h) for h in hands]
    f.press("#" + card_keys(starter))  # Red (seat 0) deals; the starter
    play_on(f, app, left, lambda m: m.gone)  # until a go is said
    assert m.phase == M.PLAY and m.gone
    open_penalty(f, app)
    f.press("C")
    to = app.e.seat  # the pone (seat 1): the two go to his side
    assert to == 1
    can = [s for s in range(players)
           if s % m.sides != to % m.sides and m.played[s] < 4]
    assert len(can) >= 2
    named = [app.e.off]
    if any(m.gone >> s & 1 for s in can):
        assert m.gone >> named[0] & 1  # who said go in this series comes first
    for _ in can:  # D cycles through the seats that can be named, and back
        f.press("D")
        named.append(app.e.off)
    assert sorted(named[:-1]) == can and named[-1] == named[0]
    off = can[-1]
    while app.e.off != off:
        f.press("D")
    L = hw["layout"]
    if display:
        text = shown(hw)
        assert "failed to play\n+2 to %s\nby %s\n" % (name(app, to), name(app, off)) in text
        assert all(len(line) <= 16 for line in hw["display"].shown)
        assert len(hw["display"].shown) <= 8
    assert marked(app) == [L.hole(0, 2), L.hole(0, 6 + off)]  # the kind, and who failed
    assert app.view.preview_side == to % m.sides and app.view.preview_score == \
        m.score[to % m.sides] + 2
    before = list(m.score)
    events = journal(m)
    f.press("#")
    assert app.err is None, app.err
    assert m.dead() == 1 << off and marked(app) == []
    assert m.score[to % m.sides] == before[to % m.sides] + 2
    assert len(journal(m)) == len(events) + 1
    # saved: a board powered up on it has the same dead cards
    again = App(build("/data", display=False, fs=hw["fs"]))
    assert journal(again.m) == journal(m) and again.m.dead() == 1 << off
    f.hold("*")  # undone: nothing dead, the score as before (and saved so)
    assert m.dead() == 0 and m.score == before and journal(m) == events
    assert App(build("/data", display=False, fs=hw["fs"])).m.dead() == 0
    f.hold("#")  # redone
    assert m.dead() == 1 << off
    # the play goes on without his dead cards
    play_on(f, app, left, lambda m: False)
    assert m.phase == M.SHOW
    # the show: his hand is the cards he played, filled in, and the rest typed: they count
    while m.phase == M.SHOW and not m.crib_next:
        seat = m.turn
        side = seat % m.sides
        had = m.score[side]
        if seat == off and left[off]:
            for c in left[off]:
                f.press(card_keys(c))
        f.press("#")
        assert app.err is None, app.err
        assert m.score[side] == min(had + score_hand(hands[seat], starter), m.target)
    if m.phase == M.SHOW:
        for c in crib:
            f.press(card_keys(c))  # the crib's fourth card puts it in
        assert app.err is None and m.phase in (M.DEAL, M.OVER), app.err
    again = App(build("/data", display=False, fs=hw["fs"]))
    assert journal(again.m) == journal(m) and again.m.score == m.score


def test_failed_to_play_a_leaves_the_offender_on_another_side():
    hw, app, f = board(display=True)
    new_game(f, app, {"players": 3})
    hands, crib, starter = deal_cards(3, 0, seeded(8))
    left = [list(h) for h in hands]
    f.press("#" + card_keys(starter))
    play_on(f, app, left, lambda m: sum(m.played) >= 2)
    open_penalty(f, app)
    f.press("C")
    assert app.e.seat == 1 and app.e.off in (0, 2)
    f.press("D")
    f.press("A")  # the two to the next seat
    assert app.e.seat == 2 and app.e.off != 2 and app.e.off >= 0
    f.press("AA")  # round to seat 1: the offender named stays
    assert app.e.seat == 1 and app.e.off in (0, 2)
    f.press("B")  # a misdeal: nobody named; D means nothing for it
    assert app.e.off == -1 and "by " not in shown(hw)
    f.press("D")
    assert app.err == "D: who failed, after C"


def test_two_players_a_failure_to_play_names_the_other_player():
    hw, app, f = board(display=True)
    hands, crib, starter = deal_cards(2, 0, seeded(3))
    left = [list(h) for h in hands]
    f.press("#" + card_keys(starter))
    play_on(f, app, left, lambda m: sum(m.played) >= 2)
    m = app.m
    open_penalty(f, app)
    f.press("C")
    assert app.e.off == 0 and "+2 to Blue\nby Red" in shown(hw)
    f.press("D")  # the only one
    assert app.e.off == 0
    f.press("#")
    assert app.err is None and m.dead() == 1 and m.score[1] >= 2


def name(app, seat):
    """The display's name for seat (board/text.py)."""
    from board.text import seat_name
    return seat_name(app.m, seat)


def issue_22_to_the_winning_card(hw, app, f):
    """Issue 22's deal on the board: Blue (seat 1) deals, Red on 116 (pegged by hand), the
    starter KC; Red KH, Blue 8D, Red 8S (26: a pair), Blue go, Red go though his 5C fitted
    (31), Blue 10D, Red 5C: 15 takes him to 121, and the 5C proves his false go."""
    from dealer.cardtext import parse

    f.press("A#A")  # Blue deals; the pegs are Red's
    for _ in range(7):
        f.press("15#")
    f.press("11#")
    f.press(card_keys(parse("KC")) + "#")
    for t in ("KH", "8D", "8S", "go", "go", "10D"):
        f.press("B" if t == "go" else card_keys(parse(t)))
    assert app.m.score == [119, 0] and app.err is None
    f.press(card_keys(parse("5C")))


def test_a_card_proving_a_false_go_wins_only_once_the_false_go_is_let_go():
    """Sheet 000: a dead card wins nothing. The board asks about the false go as the card goes
    in, before its points end the game: no win on the LEDs while it asks; OK takes the
    penalty (the card back, Red on 119, Blue's two, the play goes on), * lets it go: the win
    stands and the next OK starts the next game. One key either way, as for any false go."""
    for take in (True, False):
        hw, app, f = board(display=True)
        issue_22_to_the_winning_card(hw, app, f)
        text = shown(hw)
        assert "PENALTY" in text and "false go" in text and "+2 to Blue" in text
        assert app.m.false_go() == 0 and app.view.winner == -1  # no win shown while it asks
        assert app.view.preview_side == 1 and app.view.preview_score == 2
        if take:
            f.press("#")
            assert app.err is None and app.m.score == [119, 2] and app.m.phase == M.PLAY
            assert app.m.games == [0, 0] and app.view.winner == -1
            assert "PENALTY" not in shown(hw)
        else:
            f.press("*")
            assert app.m.phase == M.OVER and app.view.winner == 0 and app.m.score == [121, 0]
            f.press("#")  # the next game: the OK is not thrown away
            assert app.m.phase != M.OVER and app.m.games == [3, 0]
