# cardlab: two commands set everything up.
#   make lab   create .venv, install cardlab with the teaching stack, write student copies (no outputs, no
#              solutions) of the notebooks that are missing into workspace/ (never over a copy you edited),
#              start JupyterLab at the repository root on
#              workspace/00_start_here.ipynb and print its address (token included) last
#   make test  create or refresh .venv, install everything (nbgrader too: the teach extra), run ruff, mypy, pytest
#              (nbgrader releases every lesson, and each release runs with blank answers) and the notebooks (nbval)
#   make class  start the class server (cardlab class): students guess on their phones, the stepper asks
#   make binder  install binder/requirements.txt as Binder does (a venv cached outside the clone) and serve the
#              start notebook from it; CI runs it after make test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_LAB := $(VENV)/.stamp-lab
STAMP_TEST := $(VENV)/.stamp-test
PORT ?= 8888
# Jupyter refuses to run as root without this flag (CI and some containers run as root).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# `make test TIMED=1` prints each stage's wall-clock time (GNU time), as recorded in docs/performance.md
TIMER := $(if $(TIMED),/usr/bin/time -f "[stage] %e s wall (%U s user) %C",)

CLASS_PORT ?= 8765

.PHONY: class lab test binder app lint typecheck unit notebooks browser bench clean

$(BIN)/python:
	$(TIMER) $(PYTHON) -m venv $(VENV)
	$(TIMER) $(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_LAB): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab,fast,class]'
	$(BIN)/cardlab compile
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(TIMER) $(BIN)/python -m pip install --quiet -e '.[lab,test,scale,fast,teach,class,arenas]'
	$(TIMER) $(BIN)/cardlab compile
	touch $(STAMP_LAB) $@

lab: $(STAMP_LAB)
	@$(BIN)/python notebooks/lab.py --port=$(PORT)

# the class server: prints the teacher's address, the students' join page and code, and a QR code (store: the
# SQLite file CLASS_STORE; started again on it, the session carries on)
CLASS_STORE ?= cardlab-class.sqlite3
class: $(STAMP_LAB)
	$(BIN)/cardlab class --port $(CLASS_PORT) --store $(CLASS_STORE)

app: $(STAMP_LAB)
	$(BIN)/voila --port=$(PORT) --VoilaExecutor.timeout=240 notebooks/app.ipynb

lint: $(STAMP_TEST)
	$(BIN)/ruff check cardlab tests benchmarks

typecheck: $(STAMP_TEST)
	$(BIN)/mypy cardlab

unit: $(STAMP_TEST)
	CARDLAB_REQUIRE_TEACH=1 $(BIN)/pytest tests -n 2 --ignore=tests/browser --ignore=tests/test_binder.py

browser: $(STAMP_TEST)
	$(BIN)/pytest tests/browser

notebooks: $(STAMP_TEST)
	$(BIN)/pytest --nbval notebooks --nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider

# every test: lint, types, unit tests (two workers), the real-browser tests, then the notebooks under nbval.
# The Binder install check is its own target (`make binder`, run by CI after this one): on a machine that has
# never built Binder's venv it installs the whole pinned stack, minutes that do not belong in every test run.
test: $(STAMP_TEST)
	$(TIMER) $(BIN)/ruff check cardlab tests benchmarks notebooks
	$(TIMER) $(BIN)/mypy cardlab
	CARDLAB_REQUIRE_TEACH=1 $(TIMER) $(BIN)/pytest tests -n 2 --ignore=tests/browser --ignore=tests/test_binder.py
	$(TIMER) $(BIN)/pytest tests/browser
	$(TIMER) $(BIN)/pytest --nbval notebooks --nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider

# Binder's requirements install (venv cached in ~/.cache/cardlab, see tests/test_binder.py) and serve the notebook
binder: $(STAMP_TEST)
	$(TIMER) $(BIN)/pytest tests/test_binder.py

bench: $(STAMP_TEST)
	for f in benchmarks/*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
