"""The LED layout: every hole has one pixel, the serpentine wiring, other builds by parameters."""

from check import raises, no_alloc
from board.layout import Layout
from board.geometry import HOLE, START, FINISH, GAMES, TURN, CRIB


def test_default_board_every_led_once():
    L = Layout()
    assert L.count == 2 * 5 + 2 + 240 + 1  # header, start holes, track, shared finish
    seen = bytearray(L.count)
    for lane in range(2):
        for s in range(0, 122):
            p = L.hole(lane, s)
            if s in (0, 121) and seen[p]:
                continue  # the shared finish
            assert not seen[p], (lane, s, p)
            seen[p] = 1
        seen[L.turn_led(lane)] += 1
        seen[L.crib_led(lane)] += 1
        for k in range(L.games):
            seen[L.games_led(lane, k)] += 1
    assert bytes(seen) == b"\x01" * L.count
    assert L.hole(0, 121) == L.hole(1, 121) == L.count - 1


def test_serpentine_wiring_and_positions():
    L = Layout()
    first = L.first_track
    # band 0, lane 0 runs left to right along the strip
    assert [L.hole(0, s) for s in (1, 2, 30)] == [first, first + 1, first + 29]
    # band 0, lane 1: holes still go left to right, but the strip comes back right to left
    assert L.hole(1, 1) == first + 59 and L.hole(1, 30) == first + 30
    # band 1 runs right to left: hole 31 sits above... below hole 30, at the right end
    x30, y30 = L.xy(L.hole(0, 30))
    x31, y31 = L.xy(L.hole(0, 31))
    assert x31 == x30 and y31 > y30
    # holes 5 and 6 are one group apart: pitch + group gap
    x5 = L.xy(L.hole(0, 5))[0]
    x6 = L.xy(L.hole(0, 6))[0]
    assert abs(x6 - x5 - (L.pitch + L.group_gap)) < 1e-6
    # lanes lie side by side, lane_pitch apart
    assert L.xy(L.hole(1, 7))[1] - L.xy(L.hole(0, 7))[1] == L.lane_pitch
    # neighbouring pixels on the strip are neighbouring LEDs (short wires), within a line
    for p in range(first, L.first_finish - 1):
        if (p - first) % 30 != 29:
            (xa, ya), (xb, yb) = L.xy(p), L.xy(p + 1)
            assert ya == yb and abs(xa - xb) <= L.pitch + L.group_gap + 1e-6
    assert L.what(L.hole(1, 77)) == (HOLE, 1, 77)
    assert L.what(L.hole(0, 0)) == (START, 0, 0)
    assert L.what(L.count - 1)[0] == FINISH
    assert L.what(L.games_led(1, 2)) == (GAMES, 1, 2)
    assert L.what(L.turn_led(1)) == (TURN, 1, 0) and L.what(L.crib_led(0)) == (CRIB, 0, 0)
    assert raises(ValueError, L.what, L.count)


def test_other_builds_are_parameters():
    L = Layout(lanes=3, holes=60, row=30, shared_finish=False, games=0)
    assert L.count == 3 * 2 + 3 + 180 + 3
    assert len({L.hole(lane, s) for lane in range(3) for s in range(62)}) == 3 * 62
    # a 121 game on a 61-hole board goes round twice
    assert L.peg(0, 61, 121) == L.peg(0, 1, 121) and L.lap(61, 121) == 1 and L.lap(60, 121) == 0
    assert L.peg(2, 121, 121) == L.hole(2, 61)
    # a 61 game on a 121 board: 61 is the finish
    D = Layout()
    assert D.peg(0, 61, 61) == D.hole(0, 121) and D.peg(0, 60, 61) == D.hole(0, 60)
    assert raises(ValueError, Layout, holes=100, row=30)
    assert raises(ValueError, Layout, lanes=0)


def test_lookups_allocate_nothing():
    L = Layout()

    def run():
        t = 0
        for s in range(122):
            t += L.peg(1, s, 121) + L.hole(0, s)
        return t + L.games_led(1, 1) + L.turn_led(0) + L.crib_led(1) + L.lap(5, 121)

    assert no_alloc(run) > 0
