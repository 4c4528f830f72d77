"""The LED self-test's last frames (board/selftest.py): the white frame and the firmware's
version on the track, both held until a key (issue 12: a board without a display tells its
version). Runs under CPython and real MicroPython."""

from board.layout import Layout
from board.render import Renderer
from board import selftest as T
from fakeboard.fake import Strip
from version import VERSION


def setup(layout=None, brightness=64, limit=2000):
    L = layout or Layout()
    s = Strip(L.count)
    return L, s, Renderer(L, s, brightness, limit)


def lines_of(L):
    """The top three track lines' holes from their left end, by the LEDs' positions
    (board/geometry.py), not by selftest's own arithmetic."""
    ys = []
    for p in range(L.first_track, L.first_finish):
        y = L.xy(p)[1]
        if y not in ys:
            ys.append(y)
    ys.sort()
    out = []
    for y in ys[:3]:
        line = []
        for p in range(L.first_track, L.first_finish):
            x, y2 = L.xy(p)
            if y2 == y:
                line.append((x, p))
        line.sort()
        out.append([p for _x, p in line])
    return out


def colour_of(rgb):
    """"red", "green", "blue" or "white": the strongest channel, or all three alike."""
    r, g, b = rgb
    if r == g == b:
        return "white"
    return ("red", "green", "blue")[[r, g, b].index(max(r, g, b))]


def shown(L, s):
    """What the version frame shows: per line from the top, (count of coloured holes from
    its left end, their colour, the right end's colour); asserts nothing else is lit."""
    lit = set(s.lit())
    seen = set()
    out = []
    for line in lines_of(L):
        k = 0
        while k < len(line) - 1 and line[k] in lit:
            k += 1
        colours = {colour_of(s.rgb(p)) for p in line[:k]}
        assert len(colours) <= 1, colours
        end = line[-1]
        out.append((k, colours.pop() if colours else None,
                    colour_of(s.rgb(end)) if end in lit else None))
        seen.update(line[:k])
        seen.add(end)
    assert lit == seen, sorted(lit - seen)
    return out


def test_version_numbers_from_the_version_string():
    assert T.numbers("0.2.0") == [0, 2, 0]
    assert T.numbers("1.10.3-rc1") == [1, 10, 3]
    assert T.numbers("2") == [2, 0, 0]
    assert T.numbers("") == [0, 0, 0]
    assert T.numbers("3.x.4") == [3, 0, 4]


def test_the_white_frame_then_the_version_hold_then_the_test_ends():
    L, s, R = setup()
    n = L.count
    assert T.selftest(R, 3 * n + 1) is True  # white, passing
    assert T.selftest(R, 3 * n + 2) == T.HOLD  # white, held (time to read a meter)
    assert len(s.lit()) == n
    assert T.selftest(R, 3 * n + 3) == T.HOLD  # the version, held
    major, minor, patch = T.numbers(VERSION)
    assert shown(L, s) == [(major, "red" if major else None, "white"),
                           (minor, "green" if minor else None, "white"),
                           (patch, "blue" if patch else None, "white")]
    assert T.selftest(R, 3 * n + 4) is False
    assert s.lit() == []


def test_a_version_reads_as_counts_from_the_left_of_the_top_three_lines():
    L, s, R = setup()
    T.blank(R)
    T.show_version(R, [3, 7, 12])
    assert shown(L, s) == [(3, "red", "white"), (7, "green", "white"), (12, "blue", "white")]
    # on the two-lane board: lane 1 and lane 2 of holes 1-30, then lane 1 of holes 31-60
    assert L.hole(0, 1) in s.lit() and L.hole(0, 3) in s.lit() and L.hole(0, 4) not in s.lit()
    assert L.hole(1, 7) in s.lit() and L.hole(1, 8) not in s.lit()
    assert L.hole(0, 60) in s.lit() and L.hole(0, 49) in s.lit()  # band 1 runs right to left
    assert L.hole(0, 31) in s.lit()  # its right end: the white hole
    assert L.hole(1, 31) not in s.lit()


def test_zero_and_a_number_too_big_for_a_line():
    L, s, R = setup()
    T.blank(R)
    T.show_version(R, [0, 45, 0])
    assert shown(L, s) == [(0, None, "white"), (L.row - 1, "green", "red"), (0, None, "white")]


def test_other_layouts_use_their_own_top_lines():
    L, s, R = setup(Layout(lanes=3, holes=60, row=30))  # a 61-hole three-lane board
    T.blank(R)
    T.show_version(R, [1, 2, 3])
    assert shown(L, s) == [(1, "red", "white"), (2, "green", "white"), (3, "blue", "white")]
    assert L.hole(2, 3) in s.lit()  # the third line is lane 3's
    L, s, R = setup(Layout(lanes=2, holes=40, row=10, group=5))
    T.blank(R)
    T.show_version(R, [4, 0, 9])
    assert shown(L, s) == [(4, "red", "white"), (0, None, "white"), (9, "blue", "white")]


def test_the_version_frame_stays_under_the_current_limit():
    L, s, R = setup(brightness=255, limit=400)
    T.blank(R)
    T.show_version(R, [29, 29, 29])
    assert 0 < R.last_ma <= 400
    assert len(s.lit()) == 90
    L, s, R = setup(brightness=255, limit=100000)
    T.blank(R)
    T.show_version(R, [29, 29, 29])
    assert R.last_ma > 400 and max(s.rgb(L.hole(0, 1))) > 200
