"""board/power.py alone, under CPython and MicroPython: each transition on a fake clock with
a stand-in app (the whole board's: host_tests/test_board_power.py), and the app's hook and the
task's tick allocate nothing."""

from check import no_alloc
from board import power as P
from board.keypad import DOWN, UP, LONG
from board.modes import SAY
from fakeboard.fake import Clock, Display, Strip
from fakeboard.fakepower import pieces


class Keys:
    def __init__(self):
        self.q = []

    def get(self):
        return self.q.pop(0) if self.q else -1


class Cfg:
    def __init__(self):
        self.bright = 64
        self.autodim = 1

    def get(self, name):
        return self.autodim if name == "auto-dimming" else self.bright


class Renderer:
    brightness = 64


class View:
    dirty = False


class App:
    """What board/power.py reads and writes of board/app.py's App."""

    def __init__(self):
        self.changes = 0
        self.clock = Clock()
        self.keys = Keys()
        self.strip = Strip(4)
        self.display = Display()
        self.view = View()
        self.renderer = Renderer()
        self.cfg = Cfg()
        self.msg = None
        self.saves = 0

    def save(self):
        self.saves += 1

    def powered(self, power):
        self.power = power
        self.view.dirty = True

    def apply(self, call):
        assert call[0] == SAY  # (what only changes what is shown)
        self.changes += 1
        self.view.dirty = True

    def lines(self):
        return self.power.lines(["0 0"])


def make():
    app = App()
    hw = pieces(app.display)
    rail, light, supply = hw["rail"], hw["light"], hw["supply"]
    p = P.Power(app, rail, light, supply, hw["sleep"], 2)
    app.power = p
    return app, p, rail, light, supply


def mv(v):
    return (v * 65535 + 6599) // 6600


def test_on_dim_off_and_a_key_wakes_it_without_being_acted_on():
    app, p, rail, light, supply = make()
    assert rail() == 1 and app.strip.writes == 1  # the first frame lit
    t = app.clock
    t.advance(P.DIM_MS - 1)
    p.tick(t())
    assert p.state == P.ON and app.renderer.brightness == 64
    t.advance(1)
    p.tick(t())
    assert p.state == P.DIM and app.renderer.brightness == 16 and app.view.dirty
    app.changes += 1  # a key
    p.tick(t())
    assert p.state == P.ON and app.renderer.brightness == 64
    t.advance(P.OFF_MS)
    p.tick(t())
    assert p.state == P.OFF and rail() == 0 and not app.display.on
    assert p.step(app, t()) is True  # no key: the app neither handles keys nor draws
    app.keys.q = [UP | 3]  # a key let go while off: nothing
    assert p.step(app, t()) is True and p.state == P.OFF
    app.keys.q = [DOWN | 5, LONG | 5]
    writes = app.strip.writes
    assert p.step(app, t()) is False  # woken: the frame now, the key's events dropped
    assert p.state == P.ON and rail() == 1 and app.display.on and app.strip.writes == writes + 1
    assert app.keys.q == [] and p.waking
    app.keys.q = [UP | 5, DOWN | 6]
    assert p.step(app, t()) is False and app.keys.q == [DOWN | 6] and not p.waking  # the game's


def test_the_hook_and_the_tick_allocate_nothing():
    app, p, rail, light, supply = make()
    supply.value = mv(3900)
    t = app.clock()
    p.tick(t)
    p.tick(t)
    no_alloc(lambda: p.step(app, t))
    no_alloc(lambda: p.tick(t))
    p.off()
    no_alloc(lambda: p.step(app, t))


def test_the_light_sets_the_brightness_under_the_setting():
    app, p, rail, light, supply = make()
    light.value = 0
    for _ in range(20):
        p.tick(0)
    assert app.renderer.brightness == 64 * 48 // 256
    app.cfg.bright = 255
    light.value = 65535
    for _ in range(20):
        p.tick(0)
    assert app.renderer.brightness == 255


def test_no_battery_no_warning_a_low_one_warns_an_empty_one_saves_and_stops():
    app, p, rail, light, supply = make()
    p.tick(0)
    assert p.mv == 0 and not p.low and app.lines() == ["0 0"]
    supply.value = mv(3400)
    p.tick(0)
    assert p.low and p.state == P.ON and app.lines()[1].startswith("LOW batt 3.")
    supply.value = mv(3200)
    for _ in range(8):
        p.tick(0)
    assert p.state == P.EMPTY and rail() == 0 and app.saves == 1
    assert app.display.shown[:3] == ["battery empty", "game saved:", "charge the board"]
    app.keys.q = [DOWN | 1, UP | 1]
    assert p.step(app, 0) is True and app.keys.q == []  # keys do nothing
    supply.value = 0  # on the mains again
    p.tick(0)
    assert p.state == P.ON and rail() == 1 and not p.low


class Net:
    """hw["net"]'s radio switch (hw/wifi.py's Net)."""

    def __init__(self):
        self.calls = []

    def sleep(self):
        self.calls.append("off")

    def wake(self):
        self.calls.append("on")


def test_off_turns_the_radio_off_and_tells_the_keypad_a_wake_event_wakes_it():
    from board.keytimer import WAKE

    app = App()
    app.keys.sleeping = False  # (board/keytimer.py's flag: an edge then queues WAKE)
    hw = pieces(app.display)
    net = Net()
    p = P.Power(app, hw["rail"], hw["light"], hw["supply"], hw["sleep"], 2, net=net)
    app.power = p
    t = app.clock
    t.advance(P.OFF_MS)
    p.tick(t())
    assert p.state == P.OFF and net.calls == ["off"] and app.keys.sleeping
    app.keys.q = [WAKE, DOWN | 6]  # the keypad's WAKE (it hushes the waking key itself)
    assert p.step(app, t()) is False and p.state == P.ON and not p.waking
    assert net.calls == ["off", "on"] and not app.keys.sleeping
    assert app.keys.q == [DOWN | 6]  # the next key is the game's
    assert P.Power(app, hw["rail"], net=lambda: None).net is None  # (a net without a radio)


def test_autodim_off_keeps_the_menus_brightness_whatever_the_room():
    app, p, rail, light, supply = make()
    light.value = 0  # a dark room
    for _ in range(20):
        p.tick(0)
    assert app.renderer.brightness == 64 * 48 // 256
    app.cfg.autodim = 0  # the menu's "auto-dimming" off: the brightness as set
    p.tick(0)
    assert app.renderer.brightness == 64
    for _ in range(5):
        p.tick(0)
    assert app.renderer.brightness == 64
    t = app.clock
    t.advance(P.DIM_MS)
    p.tick(t())
    assert p.state == P.DIM and app.renderer.brightness == 16  # (dim still dims)
    app.changes += 1
    app.cfg.autodim = 1  # on again: from the full setting down to the room's
    p.tick(t())
    assert 64 * 48 // 256 < app.renderer.brightness < 64
    for _ in range(20):
        p.tick(t())
    assert app.renderer.brightness == 64 * 48 // 256
