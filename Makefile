# The two commands that matter: `make run` and `make test`. `make help` lists the rest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app wsgi
# `make run PORT=N`: the app reads HOST and PORT too, so its links point where it listens.
HOST ?= 127.0.0.1
PORT ?= 5000
export HOST PORT

.PHONY: help install run worker test coverage test-sqlite test-postgres lint lock clients bench bench-bulk clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

# Installs come from the lock files (exact versions with hashes); pyproject.toml declares the
# ranges and `make lock` turns them into new locks. The project itself adds nothing unlocked.
LOCK_RUNTIME := requirements/runtime.txt
LOCK_DEV := requirements/dev.txt
LOCK_PIP := requirements/pip.txt
PIP_INSTALL := $(BIN)/python -m pip install --quiet --require-hashes --only-binary :all:

# The venv's own pip (whatever `python3 -m venv` brought: 23.2.1 on Python 3.11.7, 23.0.1 on
# Debian's 3.11.2) first installs the locked pip: older pips misread a locked package that
# another one asks for with an extra (`coverage[toml]`) once a newer release of it exists.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.pip: $(LOCK_PIP) | $(BIN)/python
	$(PIP_INSTALL) -r $(LOCK_PIP)
	touch $@

$(VENV)/.installed: pyproject.toml $(LOCK_RUNTIME) $(VENV)/.pip
	$(PIP_INSTALL) -r $(LOCK_RUNTIME)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(LOCK_DEV) $(VENV)/.pip
	$(PIP_INSTALL) -r $(LOCK_DEV)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(VENV)/.installed

# pip-tools resolves against PyPI alone (a machine's own pip.conf indexes stay out of the lock);
# the runtime lock is constrained by the dev lock, so both pin the same versions.
PIP_COMPILE := env -u PIP_FIND_LINKS PIP_CONFIG_FILE=/dev/null $(BIN)/pip-compile --quiet \
	--generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links

lock: $(VENV)/.installed-dev  ## refresh requirements/*.txt from pyproject.toml (UPGRADE=1: newest allowed)
	$(PIP_COMPILE) $(if $(UPGRADE),--upgrade) --extra dev -o $(LOCK_DEV) pyproject.toml
	$(PIP_COMPILE) -c $(LOCK_DEV) -o $(LOCK_RUNTIME) pyproject.toml
	$(PIP_COMPILE) -c $(LOCK_DEV) -o $(LOCK_PIP) requirements/pip.in

install: $(VENV)/.installed  ## create .venv and install the service

run: $(VENV)/.installed  ## migrate, create the demo organization once, serve on http://127.0.0.1:5000
	$(FLASK) db upgrade
	$(FLASK) demo init
	$(FLASK) run --host $(HOST) --port $(PORT)

worker: $(VENV)/.installed  ## run an RQ worker with its scheduler (needs REDIS_URL)
	$(BIN)/python -m jobs.worker

# The PostgreSQL lane: the tests whose outcome can hang on the database engine: the API, the
# wallets' web services, webhooks and jobs, sign-ups, the services and the database layer.
# Pages (dashboard, holder, browser) reach the same services and run on SQLite only, as do
# the API's property tests and the webhook address forms, which check input, not queries.
PG_LANE := tests/api tests/apple tests/google tests/webhooks tests/jobs tests/signup \
	tests/services tests/db tests/test_monitoring.py \
	--ignore=tests/api/test_properties.py --ignore=tests/webhooks/test_url_forms.py

# Three test processes on two cores: a test spends about a quarter of its time waiting (a
# browser, a server it started, a worker), and a third process fills it (12% faster here).
XDIST := -n 3 --dist loadfile

test: $(VENV)/.installed-dev  ## the whole suite: SQLite, then the PostgreSQL lane
	$(BIN)/pytest -q $(XDIST)
	$(BIN)/pytest -q $(XDIST) --db postgres $(PG_LANE)

# Coverage's tracing slows the suite by about a third: `make test` (CI's command) runs without it.
coverage: $(VENV)/.installed-dev  ## the whole suite with coverage of both lanes
	$(BIN)/pytest -q $(XDIST) --cov --cov-report=
	$(BIN)/pytest -q $(XDIST) --db postgres $(PG_LANE) --cov --cov-append \
		--cov-report=term:skip-covered

test-sqlite: $(VENV)/.installed-dev  ## the suite on SQLite only
	$(BIN)/pytest -q $(XDIST)

test-postgres: $(VENV)/.installed-dev  ## the PostgreSQL lane on a throwaway cluster
	$(BIN)/pytest -q $(XDIST) --db postgres $(PG_LANE)

lint: $(VENV)/.installed-dev  ## ruff, the import-linter contracts of docs/architecture.md, mypy
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# The clients' generated halves come from the app's OpenAPI document (no server needed);
# tests/clients/test_generated.py fails while they are stale. The generators are pinned: the
# Python one in the dev lock, the TypeScript one in clients/typescript/package-lock.json.
clients: $(VENV)/.installed-dev  ## regenerate clients/python and clients/typescript from /v1/openapi.json
	cd clients/typescript && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	$(BIN)/python clients/generate.py

bench: $(VENV)/.installed-dev  ## run the benchmarks in bench/ and print their figures
	$(BIN)/python -m bench

bench-bulk: $(VENV)/.installed-dev  ## bulk jobs: 100,000 passes issued, updated, upgraded (SQLite, PostgreSQL)
	$(BIN)/python -m bench.bulk_jobs

clean:  ## remove the virtual environment and caches (keeps instance/)
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .coverage
