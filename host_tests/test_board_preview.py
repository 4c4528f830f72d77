"""Points typed show at once (issue 34): the preview's blink starts lit when it appears, so a
digit pegged by hand is on the LEDs in the key's own frame, whatever the time (before, the
blink's phase was the clock's: a digit typed in its dark half showed up to 200 ms later)."""

from board.keypad import DOWN, UP
from boardkit import board


def test_a_digit_typed_at_any_time_is_on_the_leds_at_once():
    for k in range(0, 400, 10):  # every phase of the 400 ms blink
        hw, app, f = board()
        f.press("#")  # deal: Red pegs by hand
        f.run(k)
        L = app.layout
        hole = L.peg(0, app.m.score[0] + 5, app.m.target)
        five = app.keys.names.index("5")
        app.keys.put(DOWN | five)  # the key's event, as the scan queues it
        app.step(hw["clock"]())
        assert app.view.preview_side == 0, k
        buf = hw["strip"].buf
        assert any(buf[3 * hole:3 * hole + 3]), k  # lit in the key's frame
        app.keys.put(UP | five)
        f.run(200)  # then it blinks: dark for the next 200 ms
        assert not any(buf[3 * hole:3 * hole + 3]), k
