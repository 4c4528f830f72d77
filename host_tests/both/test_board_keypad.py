"""The keypad scanner driven by fake pins and a fake clock: debounce, long press, repeat."""

from check import no_alloc, raises
from board.keypad import Keypad, DOWN, UP, LONG, REPEAT, KIND, KEY, KEYS_4X4
from boards.fake import Button, Matrix


def events(kp):
    out = []
    while True:
        ev = kp.get()
        if ev < 0:
            return out
        out.append((ev & KIND, kp.name(ev)))


def run(kp, t0, t1, step=10):
    for t in range(t0, t1, step):
        kp.update(t)


def test_every_key_maps_to_its_name():
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    t = 0
    for name in KEYS_4X4:
        m.press(name)
        run(kp, t, t + 60)
        m.release(name)
        run(kp, t + 60, t + 120)
        t += 120
        assert events(kp) == [(DOWN, name), (UP, name)]


def test_bounce_is_ignored_until_it_settles():
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    for t in range(0, 100, 10):  # contact bounce: down/up every scan
        if t % 20 == 0:
            m.press("5")
        else:
            m.release("5")
        kp.update(t)
    assert events(kp) == []
    m.press("5")
    run(kp, 100, 125)
    assert events(kp) == []  # not yet held for debounce_ms
    run(kp, 125, 150)
    assert events(kp) == [(DOWN, "5")]


def test_long_press_then_repeat_then_up():
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    m.press("*")
    run(kp, 0, 40)
    assert events(kp) == [(DOWN, "*")]
    run(kp, 40, 40 + kp.long_ms)
    assert events(kp) == [(LONG, "*")]
    t = 40 + kp.long_ms + 3 * kp.repeat_ms
    run(kp, 40 + kp.long_ms, t)
    assert events(kp) == [(REPEAT, "*")] * 3
    m.release("*")
    run(kp, t, t + 50)
    assert events(kp) == [(UP, "*")]
    m.press("*")  # the next press is short again
    run(kp, 3000, 3050)
    m.release("*")
    run(kp, 3050, 3100)
    assert events(kp) == [(DOWN, "*"), (UP, "*")]


def test_two_keys_and_buttons():
    m = Matrix()
    b = [Button(), Button()]
    kp = Keypad(m.rows, m.cols, b)
    m.press("1")
    b[1].pressed = True
    run(kp, 0, 50)
    assert sorted(events(kp)) == [(DOWN, "1"), (DOWN, "b")]
    assert kp.held(17) and not kp.held(16)
    assert raises(ValueError, Keypad, m.rows, m.cols, [Button()] * 13)


def test_ring_drops_the_oldest_when_full():
    kp = Keypad(size=4)
    for k in range(6):
        kp.put(DOWN | k)
    assert [kp.get() & KEY for _ in range(3)] == [3, 4, 5] and kp.get() == -1


def test_ticks_wrap():
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    m.press("9")
    t0 = (1 << 30) - 20
    for t in range(t0, t0 + 60, 10):
        kp.update(t & 0x3FFFFFFF)
    assert events(kp) == [(DOWN, "9")]


def test_scan_allocates_nothing():
    m = Matrix()
    b = [Button()]
    kp = Keypad(m.rows, m.cols, b)
    m.press("7")
    b[0].pressed = True

    def scan():
        for t in range(0, 2000, 10):
            kp.update(t)
        return kp.get()

    assert no_alloc(scan) >= 0


def test_a_release_and_a_press_in_one_debounce_window_keep_their_order():
    # "#" (OK acts on its release) let go and "5" pressed 10 ms later, within the debounce:
    # the release goes first whatever the keys' numbers ("#" is key 14, "5" key 4)
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    m.press("#")
    run(kp, 0, 60)
    assert events(kp) == [(DOWN, "#")]
    m.release("#")
    m.press("5")
    run(kp, 60, 120)
    assert events(kp) == [(UP, "#"), (DOWN, "5")]
    m.release("5")
    m.press("1")
    run(kp, 120, 180)
    assert events(kp) == [(UP, "5"), (DOWN, "1")]
