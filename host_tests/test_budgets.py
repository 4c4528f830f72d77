"""tools/budgets.py: the budgets are the issue's, per board, on the 32-bit figures; every test
heap keeps its margin over what its run was measured to need; the Makefile and the runners
take their heaps from it (one place)."""

import os
import subprocess

import pytest

import budgets
from hostenv import ROOT


def test_the_budgets_per_board():
    # 70 % of the Pico W's heap (205.2 thousand bytes), in KB of 1024 bytes
    assert pytest.approx(0.70 * 205_200 / 1024) == budgets.PICO_W_PAGE
    assert budgets.ESP32_GAME == 96 and budgets.FROZEN_PAGE == 64 and budgets.CLIENTS == 3
    assert budgets.ESP32_GAME < budgets.ESP32_HEAP  # room for Wi-Fi and ESP-IDF beside it


def test_one_unit_every_kb_is_1024_bytes():
    """Issue 34: the boards' heaps were bytes / 1000 (RPI_PICO's 245,904 B written 245.9)
    beside figures in KB of 1024: the Pico W's budget read 143.6 KB, not 140.3."""
    assert budgets.KB == 1024
    assert round(budgets.PICO_HEAP * budgets.KB) == 245_904  # 240.1 KB
    assert round(budgets.PICO_W_HEAP * budgets.KB) == 205_200
    assert round(budgets.PICO_W_PAGE, 1) == 140.3
    assert "1024" in budgets.table().splitlines()[0]  # the table says its unit


def test_the_ratios_give_back_the_measured_32_bit_figures():
    """Each conversion applied to the measured 64-bit figure gives the measured 32-bit one."""
    live, heap, live32, heap32 = budgets.MEASURED["game + page + 1 client from .mpy"]
    assert budgets.pico_w_page_live(live * 1024) == pytest.approx(live32)
    live, heap, live32, heap32 = budgets.MEASURED["game from .mpy"]
    assert budgets.esp32_game_heap(live * 1024) == pytest.approx(heap32)
    live, heap, live32, heap32 = budgets.MEASURED["game + page + 1 client from ROMFS"]
    frozen = budgets.frozen_page_live(live * 1024)
    assert frozen == pytest.approx(live32 * budgets.FROZEN_PER_ROMFS)
    assert 0.6 < budgets.FROZEN_PER_ROMFS < 0.8
    for route in budgets.MEASURED:  # 32-bit objects are smaller, bytecode is not
        assert 0.55 < budgets.live_ratio(route) < 0.75, route
        assert 0.55 < budgets.heap_ratio(route) < 0.75, route


@pytest.mark.parametrize("name", sorted(budgets.HEAPS))
def test_every_test_heap_has_its_margin(name, monkeypatch):
    monkeypatch.delenv("HEAP_" + name.upper(), raising=False)
    need, from_budget, _what = budgets.HEAPS[name]
    kb = budgets.heap_kb(name)
    assert kb >= budgets.MARGIN * need and kb >= from_budget
    assert budgets.heap(name) == "%dk" % kb
    monkeypatch.setenv("HEAP_" + name.upper(), "999k")  # (how the needs are measured)
    assert budgets.heap(name) == "999k"


def test_the_boards_heaps_are_the_tests_where_a_budget_sets_them():
    """The Pico W's whole heap on this port is the page's test heap; the ESP32's 96 KB on
    this port is the game's (or more, for the margin)."""
    assert budgets.heap_kb("pico_w_page") >= budgets.PICO_W_HEAP / 0.72
    assert budgets.heap_kb("esp32_game") >= budgets.ESP32_GAME / 0.71


def test_make_and_the_runners_take_their_heaps_from_it():
    env = {k: v for k, v in os.environ.items() if k not in ("MP_HEAP", "SOAK_HEAP")}
    r = subprocess.run(["make", "-n", "test-mp", "soak"], cwd=ROOT, capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "MP_HEAP=%s " % budgets.heap("core") in r.stdout, r.stdout
    assert "-X heapsize=%s " % budgets.heap("soak") in r.stdout, r.stdout
    r = subprocess.run(["python3", os.path.join(ROOT, "tools", "budgets.py")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Pico W" in r.stdout and "soak" in r.stdout
