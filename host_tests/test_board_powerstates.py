"""The power states (board/power.py) on the whole fake board: the real App, keypad scan,
renderer, display text and storage, the clock virtual. Dim, rail off and sleep, the wake
on a key (the game as it was, the key not acted on), the light, the battery's warning and
its save-and-stop, no warning on the mains, and a power cut in every state."""

from boardkit import Fingers
from fakeboard.fake import build as fake_build
from fakeboard.fakepower import pieces
from fakeboard.ramfs import RamFs
from board.app import App
from board import power as P
from board.snapshot import snapshot


def volts(mv, divider=2):
    """The supply ADC's read_u16 for a battery at mv."""
    return (mv * 65535 + 3300 * divider - 1) // (3300 * divider)


def build(storage_dir, display=True, fs=None):
    """The fake board with the power states' fakes (fakeboard/fakepower.py)."""
    hw = fake_build(storage_dir, display=display, fs=fs)
    hw["power"] = pieces(hw["display"])
    return hw


def board(fs=None, display=True):
    hw = build("/data", display=display, fs=fs or RamFs())
    app = App(hw)
    app.boot()
    return hw, app, Fingers(hw, app)


def start(hw, app):
    app.powered(P.Power(app, **hw["power"]))
    return app.power


def run(f, p, ms):
    """The board's loop for ms: scans and frames every 10 ms, the power task every 250."""
    for _ in range(ms // 250):
        f.run(250)
        p.tick(f.clock())


def idle(f, p, ms):
    """Time passes with no key (fast: the power task's ticks, a frame now and then)."""
    for _ in range(ms // 1000):
        f.clock.advance(1000)
        t = f.clock()
        f.app.keys.update(t)
        f.app.step(t)
        p.tick(t)


def played(f):
    """A few entries: a deal, a starter, a peg typed and not yet confirmed."""
    f.press("#")  # deal
    f.press("#")  # no starter entered
    f.press("5")  # typed, not confirmed


def test_the_rail_is_off_at_power_up_until_the_first_frame():
    hw, app, f = board()
    rail = hw["power"]["rail"]
    assert rail() == 0 and hw["strip"].writes >= 1  # the first frame drawn, the rail still off
    writes = hw["strip"].writes
    start(hw, app)
    assert rail() == 1 and rail.ons == 1
    assert hw["strip"].writes == writes + 1  # the first frame written again, now lit


def test_no_key_dims_then_turns_the_rail_off_and_a_key_wakes_the_game_as_it_was():
    hw, app, f = board()
    p = start(hw, app)
    played(f)
    top = app.cfg.get("bright")
    assert app.renderer.brightness == top and p.state == P.ON
    idle(f, p, P.DIM_MS - 2000)
    assert p.state == P.ON
    idle(f, p, 3000)
    assert p.state == P.DIM and p.state_name() == "dim"
    assert app.renderer.brightness == top // 4
    f.press("*")  # a key while dim is a key: it acts, and the LEDs come back
    f.press("5")
    run(f, p, 500)
    assert p.state == P.ON and app.renderer.brightness == top
    typed = (app.e.num, app.e.ndig)
    dump = app.m.dumps()
    lines = hw["display"].shown[:]
    idle(f, p, P.OFF_MS + 1000)
    assert p.state == P.OFF and p.state_name() == "off"
    assert hw["power"]["rail"]() == 0 and not hw["display"].on
    strip = hw["strip"]
    written = []
    strip.write = lambda: written.append(bytes(strip.buf))
    run(f, p, 5000)
    assert not written  # nothing written while the rail is off
    for key in ("7", "#", "*"):  # any key wakes it, and is not acted on (# and *: on release)
        buf = bytes(strip.buf)
        del written[:]
        f.press(key)
        assert p.state == P.ON and hw["power"]["rail"]() == 1 and hw["display"].on
        assert written[0] == buf  # the frame as it was, first
        assert app.m.dumps() == dump and (app.e.num, app.e.ndig) == typed and app.err is None
        assert hw["display"].shown == lines
        idle(f, p, P.OFF_MS + 1000)
        assert p.state == P.OFF
    f.press("7")  # wakes (the 7 not typed)
    f.press("#")  # the next key is the game's: the 5 typed before the sleep pegged
    assert app.m.score[0] + app.m.score[1] == 5 and app.err is None


def test_a_key_held_through_the_wake_is_dropped_until_it_is_let_go():
    hw, app, f = board()
    p = start(hw, app)
    idle(f, p, P.OFF_MS + 1000)
    assert p.state == P.OFF
    f.press("#", hold=2000)  # held long: its LONG (redo) is dropped too
    assert p.state == P.ON and app.err is None and not p.waking
    f.press("#")  # then the game's: deal
    assert app.m.deals == 1


def test_the_brightness_follows_the_room_under_the_menus_setting():
    hw, app, f = board()
    p = start(hw, app)
    light = hw["power"]["light"]
    top = app.cfg.get("bright")
    light.value = 0  # a dark room
    run(f, p, 5000)
    assert app.renderer.brightness == top * 48 // 256
    light.value = 32768
    run(f, p, 5000)
    assert top * 48 // 256 < app.renderer.brightness < top
    light.value = 65535
    run(f, p, 5000)
    assert app.renderer.brightness == top
    app.cfg.set("bright", 200)  # the menu's setting is the top
    run(f, p, 500)
    assert app.renderer.brightness == 200


def test_on_the_mains_there_is_no_battery_and_no_warning():
    hw, app, f = board()
    p = start(hw, app)
    for raw in (0, 100, volts(1000)):  # 0 V: no battery, on the 5 V supply
        hw["power"]["supply"].value = raw
        run(f, p, 2000)
        assert p.mv == 0 and not p.low and p.state == P.ON
        assert not any("batt" in s for s in app.lines())
        assert snapshot(app)["supply_mv"] == 0 and snapshot(app)["power"] == "on"


def test_the_battery_is_shown_warned_when_low_and_saved_and_stopped_when_empty():
    hw, app, f = board()
    p = start(hw, app)
    supply = hw["power"]["supply"]
    supply.value = volts(3900)
    played(f)
    run(f, p, 3000)
    assert 3880 <= p.mv <= 3910 and not p.low
    assert "batt 3.9" in app.lines()[-1] and 3880 <= snapshot(app)["supply_mv"] <= 3910
    supply.value = volts(3450)
    run(f, p, 5000)
    assert p.low and p.state_name() == "low" and p.state == P.ON
    assert app.lines()[1].startswith("LOW batt 3.4"), app.lines()
    assert hw["display"].shown[1].startswith("LOW batt 3.4")  # drawn, not only built
    supply.value = volts(3550)  # within the hysteresis: still warned
    run(f, p, 5000)
    assert p.low
    f.press("#")  # 5 pegged
    dump = app.m.dumps()
    supply.value = volts(3200)
    run(f, p, 5000)
    assert p.state == P.EMPTY and p.state_name() == "empty"
    assert hw["power"]["rail"]() == 0
    assert App(build("/data", fs=hw["fs"])).m.dumps() == dump  # on flash
    assert hw["display"].shown[:3] == ["battery empty", "game saved:", "charge the board"]
    writes = hw["strip"].writes
    f.press("5")  # keys do nothing now
    f.press("#")
    assert app.m.dumps() == dump and hw["strip"].writes == writes
    supply.value = volts(3700)  # charging
    run(f, p, 5000)
    assert p.state == P.ON and hw["power"]["rail"]() == 1 and not p.low
    assert app.m.dumps() == dump


def test_a_power_cut_in_every_state_comes_back_with_its_game_rail_off_until_the_first_frame():
    for state in ("on", "dim", "off", "low", "empty"):
        fs = RamFs()
        hw, app, f = board(fs)
        p = start(hw, app)
        f.press("#")
        f.press("#")
        f.press("5")
        f.press("#")  # 5 pegged: saved
        supply = hw["power"]["supply"]
        supply.value = volts(3450 if state == "low" else 3100 if state == "empty" else 3900)
        run(f, p, 2000)
        if state == "dim":
            idle(f, p, P.DIM_MS + 1000)
        elif state == "off":
            idle(f, p, P.OFF_MS + 1000)
        assert p.state_name() == state, (state, p.state_name())
        dump = app.m.dumps()
        # the cut: a fresh board on what the flash holds
        hw2 = build("/data", display=True, fs=fs)
        app2 = App(hw2)
        app2.boot()
        assert app2.m.dumps() == dump, state
        assert hw2["power"]["rail"]() == 0  # until the first frame, drawn: then on
        writes = hw2["strip"].writes
        start(hw2, app2)
        assert hw2["power"]["rail"]() == 1 and hw2["strip"].writes == writes + 1
        assert app2.renderer.brightness == app2.cfg.get("bright")  # not dim: the room's, full


def test_the_simulator_shows_the_states_in_virtual_time(tmp_path):
    """tools/sim (the fake board, asyncio on virtual time): board/tasks.py starts the power
    task; 2 min idle dims, 10 min turns the rail off, a key wakes it and is not acted on."""
    from sim.runner import Sim

    s = Sim(str(tmp_path / "store"))
    for c in ("key #", "key #", "key 5", "wait 1000", "state", "wait 125000", "state",
              "wait 480000", "state", "key 7", "wait 1000", "state", "key #", "state"):
        s.send(c)
    st = s.run([])
    on, dim, off, woke = s.states[:4]
    assert on["power"] == "on" and on["rail"] == 1 and on["supply_mv"] == 0
    assert dim["power"] == "dim" and dim["rail"] == 1
    assert off["power"] == "off" and off["rail"] == 0
    assert woke["power"] == "on" and woke["rail"] == 1
    assert woke["lines"] == on["lines"] and woke["scores"] == on["scores"]  # the 7 dropped
    assert sum(p for _, p in st["scores"]) == 5 and not st["refused"]  # the 5 typed: pegged


class Radio:
    """hw["net"] with the radio's switch (hw/wifi.py's Net: sleep(), wake())."""

    def __init__(self):
        self.asleep = False
        self.sleeps = 0
        self.wakes = 0

    async def __call__(self):
        return None

    def sleep(self):
        self.asleep = True
        self.sleeps += 1

    def wake(self):
        self.asleep = False
        self.wakes += 1


def timed_board():
    """The fake board with the timer's keypad parked on a falling-edge interrupt (as
    hw/common.py wires a board: fakeboard/fake_timer.py), the power states, a radio."""
    from fakeboard.fake_timer import timed

    hw = timed(build("/data", fs=RamFs()))
    hw["net"] = Radio()
    app = App(hw)
    app.boot()
    clock = hw["clock"]
    app.keys.start(clock)
    p = P.Power(app, net=hw["net"], **hw["power"])
    app.powered(p)

    def loop(ms):  # the loop's turns every 10 ms (the keys are the timer's, not the loop's)
        while ms > 0:
            clock.advance(min(ms, 10))
            app.step(clock())
            ms -= 10

    def press(name, hold=60):
        hw["fake_matrix"].press(name)
        loop(hold)
        hw["fake_matrix"].release(name)
        loop(50)

    def asleep():
        for _ in range((P.OFF_MS + 2000) // 1000):
            clock.advance(1000)
            app.step(clock())
            p.tick(clock())
        assert p.state == P.OFF and app.keys.parked and app.keys.sleeping

    return hw, app, p, press, loop, asleep


def test_asleep_a_tap_shorter_than_a_scan_wakes_the_board_and_only_wakes_it():
    # the keys are not polled while the board sleeps: the column's edge (Pin.irq) wakes it,
    # however short the tap; the waking key is not acted on, the next is the game's
    hw, app, p, press, loop, asleep = timed_board()
    press("#")  # deal
    press("#")  # no starter entered
    press("5")  # typed, not confirmed
    dump = app.m.dumps()
    typed = (app.e.num, app.e.ndig)
    radio = hw["net"]
    for key, hold in (("7", 3), ("#", 40), ("*", 2000), ("#", 2000)):
        asleep()
        assert radio.asleep and radio.sleeps >= 1 and hw["power"]["rail"]() == 0
        at = app.keys.scanned_at
        loop(3000)  # asleep: no scan (parked), nothing drawn
        assert app.keys.scanned_at == at and p.state == P.OFF
        press(key, hold)  # a tap, or a hold whose LONG would undo or redo
        assert p.state == P.ON and hw["power"]["rail"]() == 1 and not radio.asleep
        assert app.m.dumps() == dump and (app.e.num, app.e.ndig) == typed and app.err is None
        assert app.keys.parked and not app.keys.hush
    assert radio.wakes == 4
    press("#")  # the next key is the game's: the 5 typed before the sleeps pegged
    assert app.m.score[0] + app.m.score[1] == 5 and app.err is None


def test_the_radio_is_off_only_while_the_board_sleeps_or_is_empty():
    hw, app, p, press, loop, asleep = timed_board()
    radio = hw["net"]
    assert not radio.asleep
    clock = hw["clock"]
    for _ in range((P.DIM_MS + 2000) // 1000):  # dim: the radio stays on (the page follows)
        clock.advance(1000)
        p.tick(clock())
    assert p.state == P.DIM and not radio.asleep
    asleep()
    assert radio.asleep
    press("1")
    assert not radio.asleep
    hw["power"]["supply"].value = volts(3100)  # empty: saved, the rail and the radio off
    for _ in range(8):
        p.tick(clock())
    assert p.state == P.EMPTY and radio.asleep
    hw["power"]["supply"].value = volts(4100)  # charging: back, the radio on
    for _ in range(8):
        p.tick(clock())
    assert p.state == P.ON and not radio.asleep


def test_the_menu_turns_autodim_off_and_the_room_no_longer_sets_the_brightness():
    hw, app, f = board()
    p = start(hw, app)
    hw["power"]["light"].value = 0  # a dark room: the LEDs follow it down
    run(f, p, 5000)
    top = app.cfg.get("bright")
    assert app.renderer.brightness == top * 48 // 256
    f.press("D" + "A" * 11)  # the menu's "auto-dimming" item
    shown = hw["display"].shown
    assert "auto-dimming" in shown and "= 1" in shown and "room light 0/1" in shown
    f.press("#*")  # OK steps it to 0, * leaves
    assert app.cfg.get("auto-dimming") == 0
    run(f, p, 1000)
    assert app.renderer.brightness == top  # the brightness as set, whatever the room
    hw2 = build("/data", fs=app.hw["fs"])  # saved: after a power cut still off
    app2 = App(hw2)
    assert app2.cfg.get("auto-dimming") == 0
