"""The keypad scanner driven by fake pins and a fake clock: debounce, long press, repeat; and
scanned by a timer (fakeboard/fake_timer.py's, on the virtual clock) while nothing drains its
events, as on a board whose loop the page or a save holds (issue 23.5)."""

from check import no_alloc, raises
from board.keypad import Keypad, DOWN, UP, LONG, REPEAT, KIND, KEY, KEYS_4X4
from fakeboard.fake import Button, Clock, Matrix
from board.keytimer import TimedKeypad, WAKE
from fakeboard.fake_timer import TimedClock, Watch


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


def test_a_full_ring_keeps_its_events_and_counts_the_rest():
    kp = Keypad(size=4)  # (one slot stays free: head == tail is empty)
    for k in range(6):
        kp.put(DOWN | k)
    assert [kp.get() & KEY for _ in range(3)] == [0, 1, 2] and kp.get() == -1
    assert kp.overflow == 3
    kp.put(DOWN | 9)  # room again
    assert kp.get() == DOWN | 9 and kp.overflow == 3


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


# --- scanned by a timer (fakeboard/fake_timer.py's, on the virtual clock), the loop held -------

def timed(size=64, buttons=()):
    """(clock, matrix, keypad) with the keypad's timer started on the clock."""
    clock = TimedClock()
    m = Matrix()
    kp = TimedKeypad(m.rows, m.cols, buttons, clock.every, size=size)
    assert kp.start(clock)
    assert clock.timers[0][1:] == [5, kp]  # keypad(t) every 5 ms
    return clock, m, kp


def tap(clock, press, release, name, down_ms=40, gap_ms=40):
    press(name)
    clock.advance(down_ms)
    release(name)
    clock.advance(gap_ms)


def test_taps_while_nothing_drains_are_all_kept_in_order():
    # 24 taps of 40 ms (debounce 30) over 1.9 s in which nothing reads the ring: the loop
    # held by the page's flood or a save. The timer scans them all; the order is kept.
    clock, m, kp = timed()
    keys = "123A456B789C*0#D12345678"
    for name in keys:
        tap(clock, m.press, m.release, name)
    assert clock() == 80 * len(keys)
    got = events(kp)
    want = []
    for name in keys:
        want += [(DOWN, name), (UP, name)]
    assert got == want and kp.overflow == 0


def test_a_keypad_without_its_timer_sees_no_tap_the_loop_held():
    # the same taps with the scan in the loop's task (no timer) and the loop held: lost,
    # which is what the timer is for
    clock = Clock()
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    assert not kp.start(clock)
    for name in "123":
        tap(clock, m.press, m.release, name)
    assert events(kp) == []


def test_the_timer_debounces_as_the_scan_always_has():
    # a pseudo-random schedule of presses, releases and bounces: the timer's keypad queues
    # exactly what update() every 5 ms queues on the same schedule (long presses too)
    clock, m, kp = timed(size=128)
    ref_m = Matrix()
    ref = Keypad(ref_m.rows, ref_m.cols, size=128)
    x = 12345
    t = 0
    got = []
    want = []
    for i in range(400):
        if i % 10 == 0:  # drained now and then (the ring holds 128)
            got += events(kp)
            want += events(ref)
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        name = "1590#*"[x % 6]
        if x >> 8 & 1:
            m.press(name)
            ref_m.press(name)
        else:
            m.release(name)
            ref_m.release(name)
        step = 5 * (1 + (x >> 12) % 24)  # 5-120 ms: bounces, taps, holds
        clock.advance(step)
        for _ in range(step // 5):
            t += 5
            ref.update(t)
    got += events(kp)
    want += events(ref)
    assert len(got) > 40 and any(k == LONG for k, _ in got)
    assert got == want and kp.overflow == ref.overflow == 0


def test_a_full_ring_under_the_timer_counts_what_it_lost():
    clock, m, kp = timed(size=8)
    for name in "1234567890":
        tap(clock, m.press, m.release, name)
    got = events(kp)
    assert got == [(DOWN, "1"), (UP, "1"), (DOWN, "2"), (UP, "2"), (DOWN, "3"), (UP, "3"),
                   (DOWN, "4")]  # the first ones, in order
    assert len(got) + kp.overflow == 20  # nothing lost without a count
    tap(clock, m.press, m.release, "5")  # drained: room again
    assert events(kp) == [(DOWN, "5"), (UP, "5")] and kp.overflow == 13


def test_buttons_and_a_wrapping_ring_under_the_timer():
    b = [Button(), Button()]
    clock, m, kp = timed(size=5, buttons=b)

    def press(name):
        b["ab".index(name)].pressed = True

    def release(name):
        b["ab".index(name)].pressed = False

    for i in range(30):  # each tap drained before the next: the ring wraps 12 times
        tap(clock, press, release, "ab"[i % 2])
        assert events(kp) == [(DOWN, "ab"[i % 2]), (UP, "ab"[i % 2])]
    assert kp.overflow == 0


def test_the_timer_callback_and_the_drain_allocate_nothing():
    clock, m, kp = timed(buttons=[Button()])
    held = m.held

    def scan():  # 600 scans through presses, holds (LONG, REPEAT) and releases
        n = 0
        for i in range(600):
            held[4] = 1 if (i // 180) % 2 else 0
            held[9] = 1 if (i // 14) % 2 else 0
            clock.t += 5
            kp(clock)  # the timer's callback
            while kp.get() >= 0:
                n += 1
        return n

    assert no_alloc(scan) > 40
    assert no_alloc(lambda: clock.advance(500)) is None  # (the fake's own timer too)
    assert kp.overflow == 0


def test_a_tap_of_debounce_plus_one_timer_period_is_seen_at_any_phase():
    # 35 ms taps (debounce 30 + timer_ms 5) starting at every ms between two scans: each one
    # seen, however the tap falls against the scans (a 40 ms tap keeps 5 ms for jitter)
    clock, m, kp = timed()
    d = kp.debounce_ms + 5
    for phase in range(5):
        clock.advance(phase)
        tap(clock, m.press, m.release, "5", down_ms=d, gap_ms=d + 5 - phase)
        assert events(kp) == [(DOWN, "5"), (UP, "5")], phase


# --- parked while no key is down (issue 34): the timer off, the columns' edge starts it -----

def parked(buttons=(), dead=False):
    """(clock, matrix, keypad, watch): the timer's keypad with a fake falling-edge interrupt
    on its columns and buttons (fakeboard/fake_timer.py's Watch; dead: it never fires)."""
    clock = TimedClock()
    m = Matrix()
    w = Watch(list(m.cols) + list(buttons), clock, dead)
    kp = TimedKeypad(m.rows, m.cols, buttons, clock.every, watch=w)
    assert kp.start(clock)
    return clock, m, kp, w


def running(clock):
    return any(tm[1] for tm in clock.timers)


def test_with_no_key_down_the_timer_stops_and_a_key_starts_it():
    clock, m, kp, w = parked()
    clock.advance(40)  # nothing down for the debounce time: parked, the timer off
    assert kp.parked and not running(clock) and w.handler is not None
    at = kp.scanned_at
    clock.advance(60000)  # a minute with no key: not one scan
    assert kp.scanned_at == at and kp.parked
    for name in "5#*":
        tap(clock, m.press, m.release, name)
        assert events(kp) == [(DOWN, name), (UP, name)]
        assert kp.parked and not running(clock)
    assert w.fired == 3 and w.arms == 4  # one edge per tap, parked again after each


def test_parked_a_tap_of_debounce_plus_one_timer_period_is_seen_at_any_phase():
    # the edge scans at once, then every 5 ms: the same taps as the timer alone sees
    clock, m, kp, w = parked()
    d = kp.debounce_ms + 5
    for phase in range(5):
        clock.advance(phase + 40)
        assert kp.parked
        tap(clock, m.press, m.release, "5", down_ms=d, gap_ms=d + 5 - phase)
        assert events(kp) == [(DOWN, "5"), (UP, "5")], phase


def test_parked_long_press_repeat_and_buttons_as_before():
    b = [Button()]
    clock, m, kp, w = parked(buttons=b)
    clock.advance(40)
    b[0].pressed = True
    clock.advance(1000)  # LONG at 700 (+ the debounce), REPEAT every 180 ms after
    assert not kp.parked
    b[0].pressed = False
    clock.advance(40)
    got = events(kp)
    assert got[0] == (DOWN, "a") and got[1] == (LONG, "a") and got[-1] == (UP, "a")
    assert (REPEAT, "a") in got and kp.parked


def test_an_edge_the_interrupt_missed_is_found_by_the_task_s_check():
    # an interrupt that never comes (a sleep that does not latch the edge): the key held
    # is found by the keypad's task's check (start(), once a second while parked), and the
    # watchdog's scanned_at is kept fresh by that check
    clock, m, kp, w = parked(dead=True)
    clock.advance(40)
    assert kp.parked
    m.press("7")
    clock.advance(500)
    assert kp.parked and events(kp) == []
    assert kp.start(clock) and not kp.parked and kp.scanned_at == clock()
    clock.advance(40)
    m.release("7")
    clock.advance(40)
    assert events(kp) == [(DOWN, "7"), (UP, "7")] and kp.parked


def test_a_key_down_as_the_keypad_parks_keeps_it_scanning():
    # a key that went down before the edge was armed (no edge will come): park() looks
    clock, m, kp, w = parked(dead=True)
    clock.advance(40)
    m.press("9")
    kp.park()  # (as the parking scan would, a moment after the press)
    assert not kp.parked and running(clock)
    clock.advance(40)
    assert events(kp) == [(DOWN, "9")]


def test_asleep_the_key_that_wakes_only_wakes():
    clock, m, kp, w = parked()
    clock.advance(40)
    for held in (3, 40, 2000):  # a tap shorter than one scan, a tap, a long hold
        kp.sleeping = True
        m.press("#")
        clock.advance(held)
        m.release("#")
        clock.advance(40)
        assert events(kp) == [(WAKE, "1")], held  # WAKE only: no DOWN, LONG, REPEAT, UP
        assert kp.parked and not kp.hush and not kp.sleeping
        tap(clock, m.press, m.release, "5")  # awake: the next key is the game's
        assert events(kp) == [(DOWN, "5"), (UP, "5")]


def test_asleep_a_bouncing_waking_key_is_hushed_until_all_keys_are_up():
    clock, m, kp, w = parked()
    clock.advance(40)
    kp.sleeping = True
    m.press("4")
    clock.advance(2)
    m.release("4")  # a bounce: open for a moment
    clock.advance(3)
    m.press("4")
    m.press("6")  # a second key while the first is held
    clock.advance(100)
    m.release("4")
    clock.advance(20)
    m.release("6")
    clock.advance(40)
    assert events(kp) == [(WAKE, "1")] and kp.parked


def test_parking_waking_and_the_scans_allocate_nothing():
    clock, m, kp, w = parked()
    held = m.held

    def cycle():  # presses, a wake, holds and releases: parked and started again each time
        n = 0
        for i in range(40):
            kp.sleeping = i % 4 == 0
            held[i % 16] = 1
            clock.advance(50 + (i % 3) * 400)
            held[i % 16] = 0
            clock.advance(45)
            while kp.get() >= 0:
                n += 1
        return n

    cycle()  # (once first: the fake's timer entry made)
    assert no_alloc(cycle) > 40 and kp.parked


# --- scans that come late (issue 34: a tap lost under the page's flood) ------------------------

def late_scans(kp, m, press_at, scans, name="5", down_ms=40):
    """Scan at each time of scans (ms), the key down from press_at for down_ms; then every
    5 ms for 80 ms more (the release debounced); the events queued."""
    t = 0
    for t in scans:
        if press_at <= t < press_at + down_ms:
            m.press(name)
        else:
            m.release(name)
        kp.update(t)
    m.release(name)
    for after in range(t + 5, t + 85, 5):
        kp.update(after)
    return events(kp)


def test_a_tap_whose_scans_came_late_is_seen():
    # the scans keyflood.py traced under the page's flood (tools/bench/keyflood.py --trace), each
    # of which lost its 40 ms tap: none of them scanned it 30 ms after its first scan
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    cases = (
        (8, 16, 24, 32, 37, 45),  # the timer's thread 3 ms late each time ("hard")
        (5, 10, 15, 20, 25, 30, 42),  # one scan 12 ms late, across the release ("soft")
        (9, 17, 22, 27, 32, 37, 49),  # one 12 ms late
        (3, 53),  # one scan in the tap, then none for 50 ms
    )
    t = 1000
    for scans in cases:
        got = late_scans(kp, m, t, [t - 5] + [t + s for s in scans])
        assert got == [(DOWN, "5"), (UP, "5")], scans
        t += 1000


def test_a_tap_scanned_in_its_first_10_ms_is_seen_however_late_the_scans_after():
    # a 40 ms tap (debounce 30) under a timer held off once for 6-90 ms, from before the
    # press to after the release, at every phase: seen whenever a scan found it down in its
    # first 10 ms (40 - debounce: what no scan can tell from a bounce, no debounce can),
    # never twice, never more than its DOWN and UP
    m = Matrix()
    kp = Keypad(m.rows, m.cols)
    t = 1000
    seen = late = 0
    for phase in range(0, 5, 2):
        for start in range(-20, 45, 3):  # the hold begins this long after the press
            for hold in range(6, 90, 6):
                press_at = t + phase
                scans = [s for s in range(t - 30, t + 130, 5)
                         if not press_at + start < s < press_at + start + hold]
                scans.append(press_at + start + hold)  # (a soft timer's queued scan)
                scans.sort()
                got = late_scans(kp, m, press_at, scans)
                assert got in ([], [(DOWN, "5"), (UP, "5")]), (phase, start, hold, got)
                first = [s for s in scans if press_at <= s < press_at + 40]
                if first and first[0] < press_at + 10:
                    assert got, (phase, start, hold, scans)
                    seen += 1
                    if not [s for s in first if s >= first[0] + 30]:
                        late += 1  # (no scan 30 ms after its first: lost before issue 34)
                t += 300
    assert seen > 500 and late > 100


def test_the_timer_held_off_loses_no_tap():
    # the timer's scans held off now and then (a soft timer's callbacks wait while a
    # collection or a flash write runs), as under the flood: 60 taps of 40 ms, each with
    # one hold of 8-19 ms after its first scan, some across its release; the timer's keypad
    # queues them all
    clock, m, kp = timed(size=256)
    for i in range(60):
        m.press("5")
        clock.advance(6 + i % 20)  # (scanned once at least)
        clock.timers[0][0] = clock.t + 8 + i % 12  # (the next scan held off)
        clock.advance(34 - i % 20)
        m.release("5")
        clock.advance(60)
    assert events(kp) == [(DOWN, "5"), (UP, "5")] * 60 and kp.overflow == 0


def test_parked_the_keypad_s_task_waits_for_an_edge_not_every_scan():
    # issue 34: parked, the task's loop wakes on the edge (or once a second to look), not
    # every scan_ms; the edge (irq()) brings it back at once. MicroPython's asyncio only
    # (ThreadSafeFlag): CPython's task looks every scan_ms as before.
    import asyncio

    if not hasattr(asyncio, "ThreadSafeFlag"):
        return
    clock, m, kp, w = parked()
    clock.advance(40)
    assert kp.parked
    looks = [0]

    def counted():  # the task reads the clock once a loop (its stall check)
        looks[0] += 1
        return clock()

    async def main():
        task = asyncio.create_task(kp.run(counted))
        await asyncio.sleep_ms(300)  # 30 loops of scan_ms before
        idle = looks[0]
        m.press("5")  # the columns' edge, as the pin's interrupt calls it
        kp.irq()
        for _ in range(5):
            await asyncio.sleep_ms(10)
        woke = looks[0] - idle
        task.cancel()
        return idle, woke

    idle, woke = asyncio.run(main())
    assert idle <= 2, idle  # one loop, then the wait (a slow machine only loops less)
    assert woke >= 1 and not kp.parked  # the edge ended the wait: scanning again
