"""Fixtures more than one test module uses."""

import os

import pytest

import build  # tools/build.py
from hostenv import ROOT


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The esp32 tree as `make build` makes it (built once a run; the tests run the MicroPython
    binary in it and must not write into it)."""
    out = tmp_path_factory.mktemp("mpy")
    build.build("esp32", os.path.join(ROOT, "firmware"), str(out))
    return str(out / "esp32")
