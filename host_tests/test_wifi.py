"""hw/wifi.py: a board with Wi-Fi joins the network in /wifi.json, and without it (no
file, a bad file, a network not found, a port without Wi-Fi) the board plays without its page;
the password is never printed."""

import asyncio
import json
import sys
import types

import pytest

from hw import wifi


class FakeWLAN:
    joins_after = 2  # isconnected() polls before the network is joined (None: never)
    made = []

    def __init__(self, iface):
        self.polls = 0
        self.on = False
        self.joined = None
        FakeWLAN.made.append(self)

    def active(self, on):
        self.on = on

    def connect(self, ssid, password):
        self.joined = (ssid, password)

    def isconnected(self):
        self.polls += 1
        return self.joins_after is not None and self.polls > self.joins_after

    def ifconfig(self):
        return ("192.168.1.42", "255.255.255.0", "192.168.1.1", "192.168.1.1")


class Light:
    """The board's light (its LED): the level last set, None before."""

    def __init__(self):
        self.level = None

    def value(self, v):
        self.level = v


@pytest.fixture
def network(monkeypatch):
    net = types.SimpleNamespace(WLAN=FakeWLAN, STA_IF=0, names=[])
    net.hostname = net.names.append
    monkeypatch.setitem(sys.modules, "network", net)
    monkeypatch.setattr(wifi, "_JOIN_MS", 1000)
    FakeWLAN.made = []
    FakeWLAN.joins_after = 2
    return net


def test_it_joins_the_network_in_the_file(tmp_path, network, capsys):
    f = tmp_path / "wifi.json"
    f.write_text(json.dumps({"ssid": "home", "password": "s3cret-pass"}))
    assert asyncio.run(wifi.joiner(str(f))()) == "192.168.1.42"
    assert FakeWLAN.made[0].joined == ("home", "s3cret-pass") and network.names == ["cribbage"]
    assert "s3cret" not in capsys.readouterr().out


def test_without_a_network_it_rests_and_tries_again(tmp_path, network, capsys, monkeypatch):
    f = tmp_path / "wifi.json"
    f.write_text(json.dumps({"ssid": "home", "password": "s3cret-pass"}))
    FakeWLAN.joins_after = None  # not there at first (a router still starting)
    monkeypatch.setattr(wifi, "_JOIN_MS", 500)
    monkeypatch.setattr(wifi, "_RETRY_MS", 300)

    async def later():
        task = asyncio.ensure_future(wifi.joiner(str(f))())
        await asyncio.sleep(0.65)  # one try (0.5 s), then resting
        assert not task.done() and FakeWLAN.made[0].on is False  # the radio rests
        FakeWLAN.joins_after = 0  # the network is up now
        FakeWLAN.made[0].polls = 0
        return await asyncio.wait_for(task, 2)

    assert asyncio.run(later()) == "192.168.1.42"
    out = capsys.readouterr().out
    assert "home not joined" in out and "tries again" in out and "s3cret" not in out


@pytest.mark.parametrize("text", [None, "", "{not json", "[]", '{"password": "x"}',
                                  '{"ssid": 5}'])
def test_no_or_bad_credentials_mean_no_page(tmp_path, network, text):
    f = tmp_path / "wifi.json"
    if text is not None:
        f.write_text(text)
    assert asyncio.run(wifi.joiner(str(f))()) is None
    assert FakeWLAN.made == []  # the radio was never turned on


def test_a_port_without_wifi_has_no_net(monkeypatch):
    monkeypatch.setitem(sys.modules, "network", None)  # import network fails (a plain Pico)
    assert wifi.joiner() is None


def test_without_a_network_the_server_is_never_loaded(monkeypatch, capsys):
    """board/tasks.py's web task joins first: a board with Wi-Fi but no credentials (or no
    network) never loads the page (page/), nor microdot, which it no longer uses."""
    from boardkit import board as fake_board
    from board import tasks

    hw, app, _f = fake_board()

    async def no_network():
        return None

    app.hw["net"] = no_network
    for name in ("page.routes", "page.server", "microdot"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    asyncio.run(tasks.web(app))
    assert "page.routes" not in sys.modules and "page.server" not in sys.modules
    assert "no network: the board plays without its page" in capsys.readouterr().out


def test_the_boards_own_radio_setup_light_and_country(tmp_path, network, monkeypatch, capsys):
    """hw/pico_w.py: setup(wlan) runs once joined (the Pico W's power saving off), the
    light (its LED) is lit then and not before; a country in the file sets the radio's
    regulatory domain first; a country the port refuses is said and the board joins anyway."""
    from hw import pico_w

    class Radio(FakeWLAN):
        def __init__(self, iface):
            FakeWLAN.__init__(self, iface)
            self.pm = None

        def config(self, pm):
            assert self.isconnected()  # after the join
            self.pm = pm

    network.WLAN = Radio
    countries = []
    network.country = countries.append
    f = tmp_path / "wifi.json"
    f.write_text(json.dumps({"ssid": "home", "password": "pw", "country": "GB"}))

    light = Light()

    async def watch():
        task = asyncio.ensure_future(wifi.joiner(str(f), pico_w._setup, light)())
        await asyncio.sleep(0)
        assert light.level is None and countries == ["GB"]  # not lit while joining
        return await asyncio.wait_for(task, 2)

    assert asyncio.run(watch()) == "192.168.1.42"
    assert light.level == 1 and FakeWLAN.made[0].pm == 0xA11140

    def refuse(code):
        raise ValueError(code)

    network.country = refuse
    light = Light()
    assert asyncio.run(wifi.joiner(str(f), None, light)()) == "192.168.1.42"
    assert light.level == 1 and "country 'GB' not set" in capsys.readouterr().out


def test_the_radio_is_off_while_the_board_sleeps_and_joins_again_at_wake(tmp_path, network):
    """board/power.py's sleep turns the radio off (WLAN.active(False), then deinit(): on the
    Pico W the CYW43 powered down); the wake turns it on and joins again in its own task (the
    page's server kept its socket; the club's link reconnects by itself), its light lit again
    once joined. Before the board has joined, sleep() and wake() do nothing."""

    class Radio(FakeWLAN):
        def __init__(self, iface):
            FakeWLAN.__init__(self, iface)
            self.deinits = 0

        def active(self, on):
            FakeWLAN.active(self, on)
            if on:
                self.deinits = 0  # (powered again)

        def deinit(self):
            assert not self.on  # after active(False)
            self.deinits += 1

    network.WLAN = Radio
    f = tmp_path / "wifi.json"
    f.write_text(json.dumps({"ssid": "home", "password": "pw"}))
    light = Light()
    net = wifi.joiner(str(f), None, light)
    net.sleep()  # not joined yet: nothing to turn off
    assert FakeWLAN.made == []

    async def night():
        assert await net() == "192.168.1.42"
        w = FakeWLAN.made[0]
        assert w.on and light.level == 1
        net.sleep()
        assert not w.on and w.deinits == 1 and net.asleep
        net.sleep()  # (twice: once off)
        assert w.deinits == 1
        light.level = None
        w.polls = 0
        net.wake()
        for _ in range(40):
            await asyncio.sleep(0.05)
            if light.level == 1:
                break
        assert FakeWLAN.made[-1].on and FakeWLAN.made[-1].joined == ("home", "pw")
        assert light.level == 1 and not net.asleep

    asyncio.run(night())
