"""Play-testing the board as players at a table do: the slips they make and what the board
says back (the fake board's keypad, app, engine and display; CPython)."""

from hypothesis import given, strategies as st

from boardkit import board, marked, new_game, peg_out, shown
from board.menu import MENU_ITEMS
from cribbage.spoken import play_why
from cribbage import match as M


def test_new_game_from_the_menu_needs_a_second_ok_during_a_game():
    hw, app, f = board(display=True)
    f.press("#7#")  # deal, starter not entered, Red pegs 7
    assert app.m.score == [7, 0]
    f.press("D#")  # D is beside #: one stray OK must not wipe the game
    assert app.m.score == [7, 0] and app.err == "OK again ends this game"
    assert "OK again" in shown(hw)
    f.press("AB#")  # moving off the item forgets the question: asked again
    assert app.m.score == [7, 0] and app.err
    f.press("#")
    assert app.m.score == [0, 0] and app.m.events == 0
    assert "deal: Red" in hw["display"].shown  # the menu is closed: a new game waits


def test_new_game_during_a_game_without_a_display():
    hw, app, f = board(display=False)
    f.press("#7#")
    f.press("D#")  # a red flash: the second OK is asked for
    assert app.m.score == [7, 0] and app.err
    f.press("#")
    assert app.m.score == [0, 0] and marked(app) == []  # the menu (its item's hole) is closed


def test_new_game_on_a_fresh_board_is_one_ok():
    hw, app, f = board(display=True)
    f.press("D#")
    assert "deal: Red" in hw["display"].shown and app.err is None  # the menu is closed


def test_a_refused_go_leaves_no_go_waiting():
    hw, app, f = board(display=True)
    f.press("##")  # deal, starter not entered: the play, count 0
    f.press("B")  # go at 0 is refused (B says go at once: no OK)...
    assert "go" in app.err and "> " in hw["display"].shown  # nothing waits
    f.press("5C#")  # ...and the card the player then leads goes in
    assert app.err is None and app.m.count == 5


def test_typing_after_the_win_says_what_ok_does():
    hw, app, f = board(display=True)
    peg_out(f)
    assert app.m.winner == 0
    f.press("5")
    assert "> " in hw["display"].shown and "OK for the next" in app.err  # the 5 is not kept
    text = shown(hw)
    assert "Red wins:\ndouble skunk\ngames 3 0" in text  # not cut off at 16 characters
    f.press("#")
    assert app.m.score == [0, 0] and app.m.games[0] == 3


def test_long_lines_wrap_instead_of_being_cut():
    hw, app, f = board(display=True)
    f.press("#")
    text = shown(hw)
    assert "starter card?" in text and "Red dealt" in text
    f.press("5C#C")  # starter 5H, count the hands now (play not entered)
    for c in ("10A", "10B", "10D", "11C"):
        f.press(c)
    f.press("12")  # a count after four cards: "> 10C 10D 10S JH 12" is 19 characters
    assert "12" in shown(hw)
    for line in hw["display"].shown:
        assert len(line) <= 16


def split_wrap(text, width):
    """wrap()'s rule, written another way (split(), and a long word's whole lines cut at once):
    each paragraph's words filled into lines of at most width characters, a word longer than
    a line cut into lines of width, its rest a word."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            cut = (len(word) - 1) // width * width if len(word) > width else 0
            if cut:  # the line so far, then the word's whole lines
                out += [line] * bool(line) + [word[k:k + width] for k in range(0, cut, width)]
                line, word = "", word[cut:]
            if line and len(line) + len(word) < width:
                line += " " + word
            elif line:
                out.append(line)
                line = word
            else:
                line = word
        out.append(line)
    return out


@given(st.text(alphabet="ab \n", max_size=80), st.sampled_from((1, 2, 5, 16)))
def test_wrap_fills_lines_word_by_word(text, width):
    from board.screen import wrap

    lines = wrap(text, width)
    assert lines == split_wrap(text, width)
    assert all(len(line) <= width for line in lines)


def test_advisor_lines_fit_the_display():
    hw, app, f = board(display=True)
    f.press("D" + "A" * MENU_ITEMS.index("advisor"))
    f.press("#")
    assert "A my crib, B not" in hw["display"].shown
    for c in ("5A", "5B", "10C", "11D", "2A", "9B"):
        f.press(c)
    text = shown(hw)
    assert "2C 9D" in text  # the sixth card is on the display too
    for line in hw["display"].shown:
        assert len(line) <= 16


def test_a_typed_peg_says_whose_it_is():
    hw, app, f = board(display=True)
    f.press("##")  # the play, cards not entered
    f.press("A3")
    assert "> 3 to Blue" in hw["display"].shown
    f.press("#")
    assert app.m.score == [0, 3]


def test_go_while_a_card_fits_is_refused_and_the_player_plays_on():
    hw, app, f = board(display=True)
    f.press("##5A#")  # deal, starter not entered, Blue leads 5C
    f.press("B")  # Red says go at 5: any card fits
    assert "no go on a count of 5" in app.err
    assert app.m.turn == 0 and app.m.score == [0, 0]
    assert "! no go on a" in hw["display"].shown
    f.press("10A#")  # Red plays instead: fifteen two
    assert app.m.score == [2, 0]


def test_over_31_the_typed_card_gives_way_to_go_or_to_another_card():
    hw, app, f = board(display=True)
    f.press("##10A#10B#")  # the play: Blue 10C, Red 10D (fifteen? no: 20, a pair)
    f.press("10C#")  # Blue: 30, a pair royal
    assert app.m.count == 30 and app.m.score == [2, 6]
    f.press("5A#")  # Red's 5C: over 31, refused (the OK after it is a habit: the error stays)
    assert "over 31" in app.err and "> " in hw["display"].shown  # the 5C is not left typed
    f.press("B")  # B: go, said at once
    assert app.err is None and "> " in hw["display"].shown
    assert app.m.turn == 1 and app.m.count == 30 and app.m.score == [2, 6]
    f.hold("*")  # undo the go: Red to play at 30 again
    f.press("5A")  # the 5C again: over 31, refused
    assert "over 31" in app.err
    f.press("1D")  # another card goes in: 31
    assert app.err is None and app.m.score == [4, 6] and app.m.count == 0
    assert "Red 31 for 2" in hw["display"].shown


def test_refusals_name_the_player_not_a_seat_number():
    hw, app, f = board(display=True)
    f.press("#13C#")  # Red deals, starter KH
    for c in ("1A", "2A", "3A", "4A", "6B", "7B", "8B", "9B"):  # Blue leads, no go
        f.press(c)  # (each goes in with its suit)
    assert app.m.phase == 3 and app.m.turn == 1  # the show: Blue's hand first
    for c in ("1A", "3A", "6B", "2A"):  # 2C is Red's: refused at its suit key
        f.press(c)
    assert app.err == "2C was played by seat 0"
    assert "! 2C was played" in hw["display"].shown and "by Red" in hw["display"].shown
    assert "> AC 3C 6D" in hw["display"].shown  # the cards before it stay, and only they
    f.press("8B#")  # Blue's hand, then Red's without the cards Red played
    for c in ("5A", "5B", "5C", "5D"):
        f.press(c)
    f.press("#")
    assert "seat 0 played 4 cards" in app.err
    assert "! Red played 4" in hw["display"].shown


def test_count_now_is_refused_at_the_key_once_cards_were_played():
    hw, app, f = board(display=True)
    f.press("##5A#")  # Blue leads 5C
    f.press("C")
    assert app.err == "7 cards still to play: type them"
    # still the play (the prompt of the show would be "hand Blue")
    assert "play Blue" not in hw["display"].shown and "play Red 5" in hw["display"].shown
    f.press("10A#")  # the play goes on
    assert app.m.score == [2, 0]
    hw, app, f = board(display=True)
    f.press("##C")  # no card entered: the hands are counted now
    assert app.err is None and "hand Blue" in hw["display"].shown  # the show: Blue's hand


def test_without_a_display_a_red_flash_forgets_the_entry():
    hw, app, f = board(display=False)
    f.press("##5A#")  # Blue leads 5C
    f.press("5A#")  # 5C again: refused with a red flash
    assert "already played" in app.err and app.view.error_at >= 0
    assert marked(app) == []  # nothing invisible left typed: no white hole
    f.press("5B#")  # the player types the card afresh: it goes in (a pair)
    assert app.m.score == [2, 0]
    f.press("B")  # go at 10: refused on OK, and nothing waits
    f.press("#")
    assert app.err and marked(app) == []  # no go waits (it would blink a hole)
    f.press("10A#")  # ...so the next card is simply played (fifteen... 20: no)
    assert app.m.count == 20 and app.err is None


def test_a_refused_card_leaves_the_prompt_as_it_was():
    """Issue 22.8: "> 7C" stayed after "7C was already played", then "> 7C 8"."""
    hw, app, f = board(display=True)
    f.press("##5A#")
    f.press("5A")
    assert "already played" in app.err and "> " in hw["display"].shown  # not "> 5C"
    f.press("#")  # the habit's OK: nothing, the refusal stays said
    assert "already played" in app.err
    f.press("5")
    assert "> 5 to Red" in hw["display"].shown  # not "> 5C 5"
    f.press("B")
    assert app.m.score == [2, 0] and app.m.count == 10


def test_without_a_display_a_refusal_in_the_advisor_drops_the_lit_advice_too():
    hw, app, f = board(display=False)
    f.press("D" + "A" * MENU_ITEMS.index("advisor"))
    f.press("#")
    for c in ("5A", "5B", "10C", "11D", "2A", "9B"):
        f.press(c)
    assert len(marked(app)) == 6  # the typed cards
    f.press("B")
    assert len(marked(app)) == 2  # the advice: the two cards to throw
    f.press("#")  # means nothing here: the cards it marked are forgotten, so is the advice
    assert app.err and marked(app) == []


def test_three_players_green_turn_and_crib_show_on_the_shared_lane():
    hw, app, f = board(display=False)
    new_game(f, app, {"players": 3})
    assert app.m.sides == 3
    f.press("AA#")  # Green (side 2, on lane 0 with Red) deals: Green has the crib
    assert app.view.crib == 2
    L, strip = hw["layout"], hw["strip"]
    seen = set()
    for _ in range(150):  # 1.5 s: the slow blink goes on and off
        f.run(10)
        seen.add(strip.rgb(L.crib_led(0)))
    green = [c for c in seen if c != (0, 0, 0)]
    assert green and (0, 0, 0) in seen  # it blinks, as Green's pegs do
    assert all(c[1] > c[0] for c in green)  # and it is green, not Red's


def test_without_a_display_each_typed_card_blinks_a_hole():
    hw, app, f = board(display=False)
    L = hw["layout"]
    f.press("##C")  # the show, cards typed
    assert app.view.marks[0] < 0
    f.press("5")
    assert list(app.view.marks[:2]) == [L.hole(0, 1), -1]  # a key went in
    f.press("A2")
    assert list(app.view.marks[:3]) == [L.hole(0, 1), L.hole(0, 2), -1]  # 5C, then the 2
    f.press("*")
    assert list(app.view.marks[:2]) == [L.hole(0, 1), -1]
    f.press("*")
    assert app.view.marks[0] < 0
    hw, app, f = board(display=True)  # with a display the screen says it
    f.press("##C5A")
    assert app.view.marks[0] < 0


def test_the_play_shows_the_cards_of_the_series():
    hw, app, f = board(display=True)
    f.press("##5A#5B#")  # Blue 5C, Red 5D: a pair
    assert "5C 5D" in hw["display"].shown  # a mistyped card would show here
    f.press("10A#10B#1A#")  # 20, 30, Blue's AC makes 31
    assert app.m.count == 0 and "5C 5D" not in shown(hw)  # a new series


def test_the_message_says_why_points_were_pegged():
    hw, app, f = board(display=True)
    f.press("#11A#")  # the starter is JC: his heels
    assert "Red +2 heels" in hw["display"].shown
    f.press("5C")  # Blue leads 5H
    f.press("10A")  # Red: 15
    assert "Red 15 for 2" in hw["display"].shown
    f.press("10B")  # Blue: 25, a pair
    assert "Blue pair 2" in hw["display"].shown
    f.press("5A")  # Red: 30, fifteen? no: a 5 after two tens
    f.press("B")  # Blue cannot go on...
    f.press("B")  # ...nor Red: one for the go to Red (the last card)
    assert "Red go 1" in hw["display"].shown
    f.press("4A4B")  # Blue leads 4C, Red pairs it: a pair
    f.press("3A")  # Blue 3C: 11 (4 4 3: no run)
    f.press("2A")  # Red 2C, the eighth card: a run of three (4 3 2) and the last card
    assert app.m.phase == M.SHOW  # (the display has gone on to Blue's hand: its words)
    assert play_why(app.m.last_play) == "run of 3 and last card, 4"


def test_the_play_says_combinations_and_the_last_card():
    hw, app, f = board(display=True)
    f.press("##")  # starter not entered
    for k in ("5A", "5B", "5C"):  # Blue, Red, Blue: a pair royal and 15
        f.press(k)
    assert "Blue 15 and pair royal, 8" in shown(hw).replace("\n", " ")
    f.press("1A2A3A")  # Red AC: 16; Blue 2C: 18; Red 3C: 21, a run of three (A 2 3)
    assert "Red run of 3" in shown(hw).replace("\n", " ")
    f.press("4A")  # Blue 4C: 25, a run of five (5H A 2 3 4)
    assert "Blue run of 5" in shown(hw).replace("\n", " ")
    f.press("6A")  # Red 6C, the last card: 31 and a run of six (no extra for the last card)
    assert app.m.phase == M.SHOW
    assert play_why(app.m.last_play) == "31 and run of 6, 8"


def test_the_turn_led_shows_who_deals_next():
    hw, app, f = board(display=False)
    f.press("#")  # Red deals the first deal
    assert app.view.turn == 0
    f.press("#C1#2#3#")  # starter not entered, hands and crib as points
    assert app.m.phase == 0 and app.m.next_dealer == 1
    assert app.view.turn == 1  # Blue's deal: Blue's turn LED, not the A-chosen Red's
    L = hw["layout"]
    f.run(100)
    assert hw["strip"].rgb(L.turn_led(1)) != (0, 0, 0)
    assert hw["strip"].rgb(L.turn_led(0)) == (0, 0, 0)
    f.press("#")
    assert app.m.phase == 1 and app.view.turn == 1  # Blue dealt: Blue turns the starter
