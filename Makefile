# Cribbage board: host tooling. Everything installs into .venv from pyproject.toml.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The heap the core's tests get under real MicroPython (64-bit unix port): tools/budgets.py's,
# 15 % over what the biggest module needs (still under an ESP32's on this port's objects).
MP_HEAP ?= $(shell $(PY) tools/budgets.py core)

.PHONY: help venv test quick test-py test-mp bench score clean
.PHONY: lint typecheck stubs build flash dev repl micropython sim soak hardware pcb club club-pictures
.PHONY: power release update
.PHONY: broker club-board league-demo

help:
	@echo "make test    - pytest under CPython, then the core tests under real MicroPython"
	@echo "make quick   - lint and pytest without the long sweeps (soak, power cuts, budgets...)"
	@echo "make bench   - speed and memory, MicroPython vs references, as ratios"
	@echo "make power   - battery life from the firmware's own frames (docs/power.md)"
	@echo "make score CARDS='5H 5C 5S JD 5D'  - score a hand"
	@echo "make sim     - the board in the terminal: real firmware, real MicroPython, fake hardware"
	@echo "               (WEB=8080: and its live page at http://127.0.0.1:8080/)"
	@echo "make lint / typecheck - ruff; pyright over firmware/ with the rp2 and esp32 stubs"
	@echo "make build   - mpy-cross firmware/ into build/rp2040 (the Pico: no page, no club),"
	@echo "               build/rp2040w (the Pico W) and build/esp32 (each with its"
	@echo "               board_config.py) and build/<target>.romfs (the same as a ROMFS image),"
	@echo "               keep the OLED driver in build/lib for offline flashing"
	@echo "make flash BOARD=pico|pico_w|esp32 [PORT=/dev/ttyACM0] [DRY_RUN=1 [BOARD_FILES=f]]"
	@echo "           [WIFI=wifi.json]  - also put the Wi-Fi credentials on the board (live page)"
	@echo "           [ROMFS=1]  - the code into the board's ROMFS partition: run from flash"
	@echo "             - make the board's files exactly the build (its saved games kept), check"
	@echo "               them, print what changed and the version before/after"
	@echo "make release BOARD=pico|pico_w|esp32 [PACK=image|flat] - an update bundle of the build for that kind"
	@echo "               (build/release/; tools/maker/release.py sign --wifi F signs it per board)"
	@echo "make update WIFI=wifi.json BOARD=pico_w [USB=1] - one board at home over Wi-Fi: the"
	@echo "               release signed for it, served for it to fetch (docs/updates.md)"
	@echo "make micropython BOARD=pico|pico_w|esp32 FIRMWARE=file [PORT=...] [DRIVE=...] [DRY_RUN=1]"
	@echo "             - put official MicroPython (micropython.org/download) on the board"
	@echo "make dev / repl [PORT=...]  - run firmware/ from source on a board (Ctrl-C stops) / its REPL"
	@echo "make club [BROKER=host:1883] [CLUB_ARGS=...] - the club service: boards' games through"
	@echo "               the MQTT broker into club.sqlite, the club page on :8124 (docs/club.md)"
	@echo "make broker  - the club's Mosquitto in club-broker/ (its password file and ACL from club.sqlite)"
	@echo "make club-board NAME=t1 [WIFI=wifi.json] [HOST=192.168.1.20] [UNSIGNED=1] - a board for the"
	@echo "               club: its key; with WIFI, writes wifi-t1.json for make flash (docs/club.md)"
	@echo "make club-pictures - docs/club-*.png: the club's pages in Chromium (a simulated night)"
	@echo "make league-demo [DEMO_ARGS=...] - a league of simulated clubs: brokers bridged to the"
	@echo "               league's, boards, the league service; standings after every game (docs/club.md)"
	@echo "make hardware - regenerate hardware/: drill templates, BOMs, chain table, wiring, key-map card"
	@echo "make pcb     - regenerate hardware/pcb/: the track as a KiCad board, Gerbers, BOM, CPL,"
	@echo "               picture, and check them (needs KiCad 6: apt-get install kicad kicad-footprints)"

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q '.[dev]'
	$(BIN)/python tools/hostenv.py --fetch  # board packages pip cannot install (pyproject.toml)
	touch $@

test: lint typecheck test-py test-mp

# While you work: the same, less the long sweeps (host_tests/conftest.py's SLOW_*). Not for CI.
quick: lint $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

test-py: $(STAMP)
	$(BIN)/python -m pytest --durations=15

test-mp: $(STAMP)
	MP_HEAP=$(MP_HEAP) $(BIN)/python host_tests/run_mp.py

bench: $(STAMP)
	$(BIN)/python tools/bench/bench.py

power: $(STAMP)
	$(BIN)/python tools/maker/power_model.py

score: $(STAMP)
	$(BIN)/python tools/player/score.py $(CARDS)

# --- static checks, build, flash, simulator (tools/sim, tools/maker/build.py, tools/maker/flash.py) ---
# MicroPython stubs per port: they conflict in one environment, so each gets its own folder.
STUBS := $(VENV)/stubs
STUB_PINS := rp2=micropython-rp2-stubs==1.29.0.post1 esp32=micropython-esp32-stubs==1.29.0.post1
BOARD ?= pico
PORT ?=

lint: $(STAMP)
	$(BIN)/ruff check firmware tools host_tests

$(STUBS)/.installed: Makefile $(STAMP)
	for pin in $(STUB_PINS); do \
	  d=$(STUBS)/$${pin%%=*}; rm -rf $$d; \
	  $(BIN)/python -m pip install -q --target $$d "$${pin#*=}" || exit 1; \
	done
	touch $@

stubs: $(STUBS)/.installed

typecheck: $(STUBS)/.installed
	$(BIN)/python tools/hostenv.py  # .venv/mp-lib: the board's packages (umqtt), for pyright
	$(BIN)/pyright -p tools/typecheck/rp2.json
	$(BIN)/pyright -p tools/typecheck/esp32.json
	$(BIN)/pyright -p tools/typecheck/club.json  # tools/club (CPython)

build: $(STAMP)
	$(BIN)/python tools/maker/build.py --package-json --fetch-libs

flash: build
	$(BIN)/python tools/maker/flash.py flash --board $(BOARD) $(if $(PORT),--port $(PORT)) \
	  $(if $(DRY_RUN),--dry-run) $(if $(BOARD_FILES),--board-files '$(BOARD_FILES)') \
	  $(if $(WIFI),--wifi '$(WIFI)') $(if $(filter 1 yes,$(ROMFS)),--romfs)

# An update over the air (issue 31): the board kind's .mpy tree and its manifest, one bundle
release: $(STAMP)
	$(BIN)/python tools/maker/release.py build --board $(BOARD) $(if $(PACK),--pack $(PACK))

# One board at home, over Wi-Fi: the release signed for it, served for it to fetch
# (tools/maker/update.py; USB=1: told over USB by mpremote)
update: $(STAMP)
	$(BIN)/python tools/maker/update.py --wifi '$(WIFI)' --board $(BOARD) $(if $(filter 1 yes,$(USB)),--usb)

dev: $(STAMP)
	$(BIN)/python tools/maker/flash.py dev --board $(BOARD) $(if $(PORT),--port $(PORT)) \
	  $(if $(DRY_RUN),--dry-run)

# Official MicroPython onto a board (tools/maker/micropython_fw.py): FIRMWARE is the downloaded file.
micropython: $(STAMP)
	$(BIN)/python tools/maker/micropython_fw.py --board $(BOARD) --firmware '$(FIRMWARE)' \
	  $(if $(PORT),--port $(PORT)) $(if $(DRIVE),--drive '$(DRIVE)') $(if $(DRY_RUN),--dry-run)

repl: $(STAMP)
	$(BIN)/python tools/maker/flash.py repl $(if $(PORT),--port $(PORT))

sim: $(STAMP)
	$(BIN)/python tools/sim $(if $(WEB),--web $(WEB)) $(SIM_ARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis

# --- endurance (issue 9): not part of `make test` (host_tests/test_endurance.py runs 500 games) ---
# SOAK_GAMES games in a row on the board app under real MicroPython, from .mpy files (built
# into build/soak) in SOAK_HEAP, a CHECK line every 50 games: the test's run, longer
# (~30 ms a game here: 3000 games take ~1.5 min). tools/bench/mp_soak.py says how.
SOAK_GAMES ?= 3000
# = host_tests/test_endurance.py's heap (tools/budgets.py: 15 % over what 500 games need)
SOAK_HEAP ?= $(shell $(PY) tools/budgets.py soak)
soak: $(STAMP)
	$(BIN)/python tools/maker/build.py --target esp32 --out build/soak --quiet --host
	cd build/soak/esp32 && MICROPYPATH=. SOAK_CHILD=make $(CURDIR)/$(BIN)/micropython \
	  -X heapsize=$(SOAK_HEAP) $(CURDIR)/tools/bench/mp_soak.py $(SOAK_GAMES) 50

# --- hardware/ (generated from the layout and the key map; tests check the committed copies) ---
hardware: $(STAMP)
	$(BIN)/python tools/maker/drill_template.py --all
	$(BIN)/python tools/maker/wiring_diagram.py
	$(BIN)/python tools/maker/keymap_card.py

# --- hardware/pcb/ (issue 25): KiCad 6's pcbnew lives in the system python3, not in .venv:
# tools/pcb/check.py runs the generator (tools/pcb/generate.py) under it, then checks in .venv.
KICAD_PY ?= /usr/bin/python3
pcb: $(STAMP)
	KICAD_PY=$(KICAD_PY) PYTHONPATH=tools $(BIN)/python -m pcb.check --generate

# --- club night (issue 24): the club service (tools/club; docs/club.md says how to run a night) ---
BROKER ?= 127.0.0.1:1883
club: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m club --broker $(BROKER) $(CLUB_ARGS)

# the broker (issue 30): its password file, ACL and the service's account written from the
# club's boards (club.sqlite) first, then Mosquitto run in club-broker/ (its pid kept there:
# make club-board has it read its files again)
broker: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m club broker-files
	cd club-broker && sh -c 'echo $$$$ > mosquitto.pid && exec mosquitto -c ../tools/club/mosquitto.conf'

club-board: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m club boards add $(NAME) $(if $(HOST),--host $(HOST)) \
		$(if $(WIFI),--wifi $(WIFI)) $(if $(UNSIGNED),--unsigned)

club-pictures: $(STAMP)  # docs/club-*.png: the club's pages in Chromium (tools/club/screenshots.py)
	PYTHONPATH=tools $(BIN)/python -m club.screenshots docs

# a league of simulated clubs (issue 36): Mosquittos bridged to the league's, signed games of
# simulated boards, the league service on :8125; Ctrl-C stops it all (tools/clubnet/league_demo.py)
league-demo: $(STAMP)
	$(BIN)/python tools/clubnet/league_demo.py $(DEMO_ARGS)
