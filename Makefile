# Cribbage board: host tooling. Everything installs into .venv from pyproject.toml.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The heap the core's tests get under real MicroPython: below what an ESP32 without PSRAM
# offers (it grows to ~112 KB), and the unix port's 64-bit objects are twice the size.
MP_HEAP ?= 96k
MP := MICROPYPATH=firmware:host_tests/both:host_tests $(BIN)/micropython -X heapsize=$(MP_HEAP)

.PHONY: help venv test test-py test-mp bench score clean

help:
	@echo "make test    - pytest under CPython, then the core tests under real MicroPython"
	@echo "make bench   - speed and memory, MicroPython vs references, as ratios"
	@echo "make score CARDS='5H 5C 5S JD 5D'  - score a hand"

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q '.[dev]'
	touch $@

test: test-py test-mp

test-py: $(STAMP)
	$(BIN)/python -m pytest

test-mp: $(STAMP)
	$(MP) host_tests/mp_runner.py

bench: $(STAMP)
	$(BIN)/python tools/bench.py

score: $(STAMP)
	$(BIN)/python tools/score.py $(CARDS)

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
