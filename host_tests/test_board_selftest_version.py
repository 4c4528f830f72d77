"""The LED self-test ends with the firmware's version on the track (issue 12: a board without
a display tells which firmware it runs), through the app on the fake board: at power-up with
a key held, and from the menu; and hardware/README.md says how to read it."""

from board.menu import MENU_ITEMS
from board.selftest import hole_at, numbers
from boardkit import board, selftest_at_power_up
from drill_template import README
from version import VERSION


def version_holes(L):
    """The holes the version frame lights, as hardware/README.md tells a maker to read them:
    on each of the top three lines, the number's count from the left end, and the right end."""
    out = set()
    for i, k in enumerate(numbers(VERSION)):
        out.update(hole_at(L, i, col) for col in range(k))
        out.add(hole_at(L, i, L.row - 1))
    return out


def run_to_white(f, n):
    for _ in range(3 * n + 4):
        f.run(10)


def test_power_up_self_test_ends_with_the_version_held_until_a_key():
    hw, app, f = selftest_at_power_up()
    L = hw["layout"]
    strip = hw["strip"]
    run_to_white(f, L.count)
    assert len(strip.lit()) == L.count  # the white frame
    f.press("5")
    assert set(strip.lit()) == version_holes(L)  # the version...
    f.run(2000)
    assert set(strip.lit()) == version_holes(L)  # ...holds
    major, minor, patch = numbers(VERSION)
    if minor:  # (0.2.0: two green holes at the left end of the second line)
        r, g, b = strip.rgb(hole_at(L, 1, 0))
        assert g > r and g > b
    r, g, b = strip.rgb(hole_at(L, 0, L.row - 1))
    assert r == g == b > 0  # the white end of the line
    assert app.selftest_step >= 0
    f.press("5")  # a key: the game again, as on a board that skipped the test
    f.run(10)
    assert app.selftest_step < 0
    fresh, _app, f2 = board()
    f2.run(10)
    assert strip.lit() == fresh["strip"].lit()


def test_menu_led_test_shows_the_version_too():
    hw, app, f = board(display=True)
    L = hw["layout"]
    f.press("D" + "B" * (len(MENU_ITEMS) - MENU_ITEMS.index("LED test")) + "#")  # D, B, B, OK
    assert app.selftest_step >= 0  # (the press's release ran a frame or two of it)
    run_to_white(f, L.count)
    assert len(hw["strip"].lit()) == L.count
    f.press("#")
    assert set(hw["strip"].lit()) == version_holes(L)
    f.press("*")
    f.run(10)
    assert app.selftest_step < 0 and app.err is None


def test_a_held_frame_is_drawn_once_and_the_watchdog_stays_fed():
    """While the white frame or the version holds (as long as nobody presses a key), the
    strip is not written again and again, and the watchdog, if on, is fed all along: the test
    never resets a board."""
    fed = []

    class Wdt:
        def __init__(self, ms):
            pass

        def feed(self):
            fed.append(1)

    hw, app, f = board()
    hw["watchdog"] = Wdt
    app.watchdog(1)
    L = hw["layout"]
    f.press("D" + "B" * (len(MENU_ITEMS) - MENU_ITEMS.index("LED test")) + "#")
    for _ in range(3 * L.count + 4):  # every frame of the walk feeds it
        n = len(fed)
        f.run(10)
        assert len(fed) > n
    assert len(hw["strip"].lit()) == L.count  # the white frame, held
    writes = hw["strip"].writes
    n = len(fed)
    f.run(20000)  # 20 s, past the 8 s watchdog
    assert hw["strip"].writes == writes and len(hw["strip"].lit()) == L.count
    assert len(fed) - n > 100  # fed at every loop turn
    f.press("5")
    assert set(hw["strip"].lit()) == version_holes(L) and hw["strip"].writes > writes
    f.press("5")
    f.run(10)
    assert app.selftest_step < 0


def test_the_guide_says_how_to_read_the_version():
    with open(README) as fh:
        text = fh.read()
    part = text[text.index("### The LED self-test"):text.index("### What a failure looks like")]
    assert "version" in part and "firmware/version.py" in part
    for words in ("top three lines", "right end", "red", "green", "blue", "0.2.0",
                  "until you press a key"):
        assert words in part, words
