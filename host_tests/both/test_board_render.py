"""The renderer: pegs leapfrog, preview blinks, win/skunk, current limit, no allocation."""

from check import no_alloc
from board.layout import Layout
from board.render import Renderer, View, ERROR_MS
from board.selftest import selftest
from fakeboard.fake import Strip


def setup(brightness=255, limit=100000):
    L = Layout()
    s = Strip(L.count)
    return L, s, Renderer(L, s, brightness, limit), View()


def test_front_and_back_pegs_by_colour_and_brightness():
    L, s, R, v = setup()
    v.front[0] = 12
    v.back[0] = 5
    v.front[1] = 9
    v.back[1] = 0
    assert R.frame(v, 0)
    # side 1's back peg still sits in its start hole, as on a wooden board
    assert sorted(s.lit()) == sorted([L.hole(0, 12), L.hole(0, 5), L.hole(1, 9), L.hole(1, 0)])
    r, _g, b = s.rgb(L.hole(0, 12))
    assert r > 200 and b == 0  # side 0 red, front peg full
    assert sum(s.rgb(L.hole(0, 5))) * 3 < r  # back peg much dimmer
    assert s.rgb(L.hole(1, 9))[2] > 200  # side 1 blue
    # nothing changed: no write needed
    assert not R.frame(v, 1)
    # leapfrog: the back peg jumps over the front
    v.back[0] = 12
    v.front[0] = 20
    assert R.frame(v, 2)
    assert L.hole(0, 5) not in s.lit() and L.hole(0, 20) in s.lit()
    assert sum(s.rgb(L.hole(0, 12))) < 100


def test_preview_blinks_until_confirmed():
    L, s, R, v = setup()
    v.front[0] = 10
    v.back[0] = 4
    v.preview_side = 0
    v.preview_score = 16
    on = []
    for t in range(0, 1000, 100):
        R.frame(v, t)
        on.append(L.hole(0, 16) in s.lit())
        assert L.hole(0, 10) in s.lit() and L.hole(0, 4) in s.lit()  # the pegs stay
    assert True in on and False in on
    v.preview_side = -1
    R.frame(v, 200)
    assert L.hole(0, 16) not in s.lit()


def test_three_sides_on_two_lanes_shared_lane_blinks():
    L, s, R, v = setup()
    v.sides = 3
    v.front[0], v.front[1], v.front[2] = 30, 40, 50
    seen = set()
    for t in range(0, 2400, 100):
        R.frame(v, t)
        lit = s.lit()
        assert L.hole(0, 30) in lit and L.hole(1, 40) in lit  # first sides steady
        seen.add(L.hole(0, 50) in lit)
    assert seen == {True, False}  # the third side, sharing lane 0, blinks
    R.frame(v, 700)  # slow phase on
    assert s.rgb(L.hole(0, 50))[1] > 200  # green


def test_win_lights_the_lane_and_skunk_line_blinks():
    L, s, R, v = setup()
    v.front[0], v.back[0] = 121, 115
    v.front[1] = 80
    v.winner = 0
    v.skunk = 1
    v.won = 2
    v.games[0] = 2
    R.frame(v, 200)  # fast phase on
    lit = s.lit()
    assert all(L.hole(0, h) in lit for h in range(1, 122))
    assert L.hole(1, 91) in lit and s.rgb(L.hole(1, 91))[0] > 200
    assert L.hole(1, 61) not in lit  # only a single skunk
    assert L.games_led(0, 0) in lit
    R.frame(v, 0)  # off phase: the skunk line and this game's games are off
    assert L.hole(1, 91) not in s.lit() and L.games_led(0, 0) not in s.lit()


def test_error_flash_and_marks():
    L, s, R, v = setup()
    v.error_at = 1000
    R.frame(v, 1100)
    assert L.turn_led(0) in s.lit() and L.hole(1, 0) in s.lit()
    R.frame(v, 1000 + ERROR_MS + 200)
    assert s.lit() == []
    v.marks[0] = L.hole(0, 3)
    R.frame(v, 200)
    assert s.lit() == [L.hole(0, 3)]


def test_current_limit_scales_the_frame():
    L, s, R, v = setup(255, 100000)
    v.front[0], v.winner = 121, 0
    R.frame(v, 0)
    big = R.last_ma
    bright = sum(s.rgb(L.hole(0, 50)))
    _, s2, R2, v2 = setup(255, 300)
    v2.front[0], v2.winner = 121, 0
    R2.frame(v2, 0)
    assert R2.last_ma <= 300 < big
    assert sum(s2.rgb(L.hole(0, 50))) < bright
    # brightness scales too
    _, s3, R3, v3 = setup(32, 100000)
    v3.front[0] = 7
    R3.frame(v3, 0)
    assert 0 < s3.rgb(L.hole(0, 7))[0] <= 33


def test_selftest_walks_every_led():
    L, s, R, _ = setup()
    step = 0
    hit = set()
    while selftest(R, step):
        hit.update(s.lit())
        step += 1
    assert len(hit) == L.count and s.lit() == []


def frames(R, v):
    """R draws v for 2 s at 50 ms a step (a test's no_alloc runs it): the frames it drew."""
    n = 0
    for t in range(0, 2000, 50):
        if R.frame(v, t):
            n += 1
    return n


def test_frame_allocates_nothing():
    _, _, R, v = setup(128, 1500)
    v.sides = 3
    v.front[0], v.back[0], v.front[1], v.front[2] = 121, 100, 70, 30
    v.winner, v.skunk, v.won, v.games[0] = 0, 2, 3, 3
    v.preview_side, v.preview_score, v.turn, v.crib = 1, 75, 1, 0
    v.error_at = 5
    v.marks[1] = 3
    R.frame(v, 0)

    def run():
        return frames(R, v)

    assert no_alloc(run) > 0
    v.games[0], v.won = 7, 2  # ACC points past the games-won LEDs (lit again, bright)
    v.games[1] = 4
    assert no_alloc(run) > 0


def test_three_lane_61_hole_build_plays_a_121_game():
    L = Layout(lanes=3, holes=60, row=30, shared_finish=False)
    s = Strip(L.count)
    R = Renderer(L, s, 255, 100000)
    v = View(3, 121)
    v.front[0], v.back[0] = 70, 64  # second time round the 60 holes
    v.front[1] = 12
    v.front[2], v.winner = 121, 2
    R.frame(v, 0)
    lit = s.lit()
    assert L.hole(0, 10) in lit and L.hole(0, 4) in lit
    assert L.hole(0, 0) in lit  # the start hole says "second lap"
    assert L.hole(1, 0) in lit and L.hole(1, 12) in lit  # back peg still in the start hole
    assert L.hole(2, 61) in lit  # lane 3's own finish hole
    assert all(L.hole(2, h) in lit for h in range(1, 61))  # the winner's lane


def test_the_colour_blind_palette_is_a_setting_of_the_renderer_and_allocates_nothing():
    """Issue 35.22: colours=1 draws the sides in PALETTE's second half, the colour-blind
    palette (board/render.py), the same places and levels; the self-test's pure channels stay
    the usual palette's; a frame allocates nothing."""
    from board.render import PALETTE

    safe = PALETTE[24:]
    L = Layout()
    s = Strip(L.count)
    R = Renderer(L, s, 255, 100000, 1)
    assert R.colours == 1 and len(PALETTE) == 48 and safe[:18] != PALETTE[:18]
    v = View()
    v.front[0], v.back[0], v.front[1] = 12, 5, 9
    R.frame(v, 0)
    full = 256 * 255  # (the front peg's level times the brightness)
    assert s.rgb(L.hole(0, 12)) == (safe[0] * full >> 16, safe[1] * full >> 16,
                                    safe[2] * full >> 16)
    assert s.rgb(L.hole(1, 9)) == (safe[3] * full >> 16, safe[4] * full >> 16,
                                   safe[5] * full >> 16)
    assert sum(s.rgb(L.hole(0, 5))) * 3 < sum(s.rgb(L.hole(0, 12)))  # the back peg dimmer
    R.lone(3, 2)  # the self-test's green: PALETTE's pure channel, not the second green
    assert s.rgb(3) == (0, PALETTE[7] * full >> 16, PALETTE[8] * full >> 16)
    assert R.colours == 1
    v.sides = 3
    v.front[2], v.turn, v.crib = 30, 1, 0

    def run():
        return frames(R, v)

    assert no_alloc(run) > 0


def test_the_saved_frame_draws_the_same_frame_for_its_game_only():
    """board/render.py's dumps()/loads(): the View's LEDs and the renderer's brightness and
    limit, drawn again at power-up (board/boot.py) pixel for pixel; refused for another
    game's bytes (its CRC) or a byte changed."""
    from board.render import dumps
    from board.boot import loads  # (the power-up's: its code leaves the heap after it)

    L, s, R, v = setup(brightness=90, limit=1500)
    v.sides, v.target = 3, 61
    v.front[0], v.back[0], v.front[1], v.front[2], v.back[2] = 40, 33, 60, 12, 9
    v.games[0], v.games[2], v.turn, v.crib = 2, 1, 1, 0
    v.winner, v.skunk, v.won, v.skunk_line, v.double_line = 1, 2, 3, 31, 0
    v.preview_side, v.preview_score = 2, 20
    v.marks[0], v.marks[3] = L.hole(0, 4), 300
    R.frame(v, 1234)
    crc = b"\x01\x02\x03\x04"
    b = dumps(v, R, crc)
    L2, s2, R2, _ = setup(brightness=1, limit=1)
    got = loads(b, crc)
    assert got is not None and got[1:] == (90, 1500, 0)
    v2 = got[0]
    R2.brightness, R2.limit_ma = got[1:3]
    R2.frame(v2, 1234)
    assert bytes(s2.buf) == bytes(s.buf) and s2.lit()
    for k in range(len(v.marks)):
        assert v2.marks[k] == v.marks[k]
    assert loads(b, b"\x01\x02\x03\x05") is None  # another game's
    for i in (0, 5, 20, len(b) - 1):
        bad = bytearray(b)
        bad[i] ^= 1
        assert loads(bad, crc) is None, i
    assert loads(b[:-1], crc) is None and loads(None, crc) is None
    R.colours = 1  # the colour-blind palette: drawn at power-up in it too
    R.limit_ma = 9000
    assert loads(dumps(v, R, crc), crc)[1:] == (90, 9000, 1)
