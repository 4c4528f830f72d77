"""Fixtures more than one test module uses."""

import gc
import os

import pytest

import build  # tools/maker/build.py
from hostenv import ROOT


# The long sweeps: `make test` (and CI) runs them all; `make quick` leaves them out while you
# work (pytest -m "not slow"). A module's every test, or one test by name; each of these runs
# for tens of seconds to minutes (the soak's 500 games, a power cut at every block write, all
# 13 million hands, the heap squeezes, the per-board budgets' whole games, the PCB's KiCad runs,
# the page's flood and idle connections, six simulators at once on a busy machine, every
# corruption of a saved file).
SLOW_MODULES = ("test_endurance", "test_board_powercut", "test_exhaustive", "test_board_starve",
                "test_board_mp", "test_pcb")
SLOW_TESTS = ("test_the_page_sheds_a_flood_and_comes_back",
              "test_idle_connections_never_keep_the_page_away",
              "test_scripted_runs_are_the_same_however_busy_the_machine",
              "test_every_corrupt_game_file_is_kept_aside_and_the_board_starts_afresh",
              "test_every_corrupt_settings_file_is_kept_aside_and_defaults_used")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long sweep (make test runs it, make quick not)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rpartition(".")[2] if item.module else ""
        if module in SLOW_MODULES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="module")
def _earlier_modules_objects_left_out_of_collections():
    """The board's code calls gc.collect() often (MicroPython's heap wants it); on CPython a
    full collection walks every object alive in the process, and the tables, engines and
    hypothesis data earlier test modules keep made the same sweep two to four times slower
    late in a run than alone. What is alive when a module starts is frozen (gc.freeze: left
    out of collections) for the module's tests, and let go again after it."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The esp32 tree as `make build` makes it, with the host-only modules for the fake board
    (build.build(host=True); built once a run; the tests run the MicroPython binary in it and
    must not write into it)."""
    out = tmp_path_factory.mktemp("mpy")
    build.build("esp32", os.path.join(ROOT, "firmware"), str(out), host=True)
    return str(out / "esp32")


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A fake board (folder) behind a fake mpremote (host_tests/test_flash.py's FAKE_MPREMOTE):
    (board folder, env, the calls it had, read from its log). For `make flash`'s tests."""
    import json
    import sys

    from test_flash import FAKE_MPREMOTE, MICROPYTHON

    board = tmp_path / "board"
    board.mkdir()
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "mpremote"
    exe.write_text(FAKE_MPREMOTE % {"python": sys.executable, "micropython": MICROPYTHON})
    exe.chmod(0o755)
    log = tmp_path / "mpremote.log"
    env = dict(os.environ, MPREMOTE=str(exe), FAKE_BOARD=str(board), FAKE_LOG=str(log))
    for k, v in env.items():
        if k.startswith(("MPREMOTE", "FAKE_")):
            monkeypatch.setenv(k, v)

    def calls():
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    return board, env, calls


@pytest.fixture
def parts():
    """parts(Kind, *args): a part of a test's rig made (a broker, a service, a board), and
    closed (its close()) at the test's end, newest first, each even when one before failed."""
    made = []

    def make(kind, *args, **kw):
        x = kind(*args, **kw)
        made.append(x)
        return x

    yield make
    for x in reversed(made):
        try:
            x.close()
        except Exception:  # noqa: BLE001, S110  (the rest still closed)
            pass
