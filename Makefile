# The two commands that matter: `make run` and `make test`. `make help` lists the rest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app wsgi
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: help install run worker test test-sqlite test-postgres lint bench clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed  ## create .venv and install the service

run: $(VENV)/.installed  ## migrate, create the demo organization once, serve on http://127.0.0.1:5000
	$(FLASK) db upgrade
	$(FLASK) demo init
	$(FLASK) run --host $(HOST) --port $(PORT)

worker: $(VENV)/.installed  ## run an RQ worker with its scheduler (needs REDIS_URL)
	$(BIN)/python -m jobs.worker

# The PostgreSQL lane: every test that reaches the database through the app (browser and
# CLI tests run on SQLite only).
PG_LANE := tests/api tests/apple tests/google tests/webhooks tests/jobs tests/dashboard tests/holder \
	tests/services/test_sql.py

test: $(VENV)/.installed-dev  ## the whole suite: SQLite, then the PostgreSQL lane
	$(BIN)/pytest -q -n 2 --dist loadfile
	$(BIN)/pytest -q -n 2 --dist loadfile --db postgres $(PG_LANE)

test-sqlite: $(VENV)/.installed-dev  ## the suite on SQLite only
	$(BIN)/pytest -q -n 2 --dist loadfile

test-postgres: $(VENV)/.installed-dev  ## the PostgreSQL lane on a throwaway cluster
	$(BIN)/pytest -q -n 2 --dist loadfile --db postgres $(PG_LANE)

lint: $(VENV)/.installed-dev  ## ruff and the import-linter contracts of ARCHITECTURE.md
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: $(VENV)/.installed-dev  ## run the benchmarks in bench/ and print their figures
	$(BIN)/python -m bench

clean:  ## remove the virtual environment and caches (keeps instance/)
	rm -rf $(VENV) .pytest_cache .ruff_cache
