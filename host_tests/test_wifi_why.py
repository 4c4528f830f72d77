"""A Wi-Fi file that cannot be used is said, naming the field (issue 35.2): on the board's
console (hw/wifi.py, in words from hw/wifiwhy.py, loaded only then), by `make flash`
(tools/maker/flash.py's check) and by the simulator before it starts (tools/sim --web)."""

import asyncio
import json
import os
import subprocess
import sys
import types

import pytest
from hostenv import ROOT

import flash  # tools/maker/flash.py
from hw import wifi, wifiwhy

# broker entries: (the entry, what the line must name)
BAD_BROKERS = [
    ({"host": "h", "board": "table/1"}, '"board"'),
    ({"host": "h", "port": "1883"}, '"port"'),
    ({"host": "h", "port": 0}, '"port"'),
    ({"host": "h", "port": True}, '"port"'),
    ({"host": "h", "prefix": "a+b"}, '"prefix"'),
    ({"host": "h", "board": "x" * 17}, '"board"'),
    ({"port": 1883}, '"host" is missing'),
    ({"host": ""}, '"host"'),
    (["h"], '"broker" is {"host"'),
    (5, '"broker" is {"host"'),
]


def write(tmp_path, cfg):
    f = tmp_path / "wifi.json"
    f.write_text(cfg if isinstance(cfg, str) else json.dumps(cfg))
    return f


@pytest.mark.parametrize("entry, names", BAD_BROKERS)
def test_a_bad_broker_entry_is_said_on_the_console(tmp_path, capsys, entry, names):
    f = write(tmp_path, {"ssid": "club", "broker": entry})
    assert wifi.broker(str(f), b"\x01") is None  # (as before: nothing published)
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("club: %s: " % f), out
    assert names in out[0] and "publishes nothing" in out[0]


def test_the_values_are_shown_as_the_file_writes_them(tmp_path, capsys):
    wifi.broker(str(write(tmp_path, {"ssid": "c", "broker": {"host": "h", "port": "1883"}})))
    assert 'not "1883" (text: leave out the quotes)' in capsys.readouterr().out
    wifi.broker(str(write(tmp_path, {"ssid": "c", "broker": {"host": "h", "board": "table/1"}})))
    assert 'not "table/1"' in capsys.readouterr().out


def test_a_good_or_absent_broker_says_nothing(tmp_path, capsys):
    for cfg in ({"ssid": "c", "broker": "pi.local"}, {"ssid": "c"},
                {"ssid": "c", "broker": {"host": "h", "port": 1884, "board": "t_1",
                                         "prefix": "club-7"}},
                {"ssid": "c", "broker": {"host": "h", "board": ""}}):  # "": the uid's id
        f = write(tmp_path, cfg)
        assert (wifi.broker(str(f), b"\x01") is None) == ("broker" not in cfg)
        assert wifiwhy.broker(json.loads(f.read_text())) == ""
    assert wifi.broker(str(tmp_path / "none.json")) is None
    assert capsys.readouterr().out == ""


def test_the_explanation_and_the_board_agree(tmp_path):
    """wifiwhy finds a fault exactly where wifi.broker() refuses the entry."""
    entries = [e for e, _n in BAD_BROKERS] + [
        "h", {"host": "h"}, {"host": "h", "port": 65535}, {"host": "h", "port": 65536},
        {"host": "h", "board": None}, {"host": "h", "prefix": None}, {"host": "h", "prefix": ""},
        {"host": 5}, {"host": "h", "port": 1.5}, {"host": "h", "board": "a-b_C9"}, None, ""]
    for entry in entries:
        cfg = {"ssid": "c", "broker": entry}
        f = write(tmp_path, cfg)
        assert (wifi.broker(str(f), b"\x01") is None) == bool(wifiwhy.broker(cfg)), entry


class NoWLAN:
    def __init__(self, iface):
        raise AssertionError("the radio is not turned on without credentials")


@pytest.mark.parametrize("text, says", [
    ("{not json", "is not JSON"), ('{"password": "x"}', '"ssid" (the network\'s name) is missing'),
    ('{"ssid": 5}', '"ssid" (the network\'s name) is not a name: 5'),
    ('{"ssid": "home", "password": 5}', '"password" is text, not 5'),
    (None, "cannot be read (no such file)")])
def test_a_wifi_file_that_does_not_parse_is_said(tmp_path, monkeypatch, capsys, text, says):
    """A file copied with mpremote cp that the board cannot use: no Wi-Fi, and a line says
    why (it used to say nothing)."""
    net = types.SimpleNamespace(WLAN=NoWLAN, STA_IF=0, hostname=lambda n: None)
    monkeypatch.setitem(sys.modules, "network", net)
    f = tmp_path / "wifi.json"
    if text is not None:
        f.write_text(text)
    assert asyncio.run(wifi.joiner(str(f))()) is None
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("wifi: %s" % f), out
    assert says in out[0] and "plays without its page" in out[0]


def test_under_micropython_too(tmp_path):
    f = write(tmp_path, {"ssid": "club", "broker": {"host": "h", "port": "1883"}})
    from sim.runner import micropython

    r = subprocess.run([micropython(), "-c", "import sys\nfrom hw import wifi\n"
                        "print(wifi.broker(%r, b'x'), 'hw.wifiwhy' in sys.modules)" % str(f)],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware")))
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0, r.stderr
    assert '"port" is a whole number 1 to 65535, like 1883, not "1883"' in lines[0]
    assert lines[1] == "None False"


@pytest.mark.parametrize("entry, names", BAD_BROKERS)
def test_make_flash_names_the_field(tmp_path, entry, names):
    f = write(tmp_path, {"ssid": "club", "broker": entry})
    with pytest.raises(flash.FlashError) as e:
        flash.read_wifi(str(f))
    assert names in str(e.value) and str(f) in str(e.value)


def test_make_flash_refuses_a_bad_broker_before_anything_changes(tmp_path, fake):
    board, env, calls = fake
    f = write(tmp_path, {"ssid": "club", "broker": {"host": "h", "board": "table/1"}})
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "maker", "flash.py"), "flash",
                        "--board", "pico_w", "--build", str(tmp_path), "--wifi", str(f)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and calls() == []
    assert '"broker": "board" is this board\'s id' in r.stderr and 'not "table/1"' in r.stderr


@pytest.mark.parametrize("text, says", [
    ("{bad", "is not JSON"),
    (json.dumps({"ssid": "sim", "broker": {"host": "127.0.0.1", "port": "1883"}}), '"port"')])
def test_the_simulator_says_a_bad_wifi_file_before_it_starts(tmp_path, text, says):
    store = tmp_path / "s"
    store.mkdir()
    (store / "wifi.json").write_text(text)
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim"), "--storage",
                        str(store), "--web", str(port)], capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert r.stderr.startswith("sim: ") and "wifi.json" in r.stderr and says in r.stderr
    assert "Traceback" not in r.stderr


def test_the_fault_for_the_pages_status(tmp_path):
    """wifi.fault(): what the page's club status can say (one line naming the file and the
    field), "" when the broker entry is good or absent."""
    f = write(tmp_path, {"ssid": "c", "broker": {"host": "h", "board": "table/1"}})
    said = wifi.fault(str(f))
    assert said.startswith(str(f) + ': "broker": "board"') and "\n" not in said
    assert wifi.fault(str(write(tmp_path, "{bad"))).startswith(str(f) + " is not JSON")
    for cfg in ({"ssid": "c"}, {"ssid": "c", "broker": "h"}):
        assert wifi.fault(str(write(tmp_path, cfg))) == ""
    assert wifi.fault(str(tmp_path / "none.json")) == ""  # no file: no broker, nothing wrong
    assert "no such file" in wifi.fault(str(tmp_path / "none.json"), "credentials")
