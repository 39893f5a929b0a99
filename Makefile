# The two commands a newcomer needs: `make run` and `make test`.
# Everything else here is what those two stand on.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
PYTEST_ARGS ?=
# The tests run in parallel, one pytest-xdist worker a core, each with its own test
# database; TEST_WORKERS=0 runs them in this one process. TEST_MARKS chooses by mark.
TEST_WORKERS ?= auto
TEST_MARKS ?=
PYTEST = $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal
DEV_ENV := DEBUG=1

.PHONY: run release serve test test-fast test-thorough install install-dev lock migrate demo messages lint typecheck check-deploy load soak clean

# Two locked sets (make lock compiles both from pyproject.toml, with hashes): the runtime
# set (requirements.txt, what the site and the production image need) for run and serve,
# the dev set (requirements-dev.txt: that and the tests, browser, types, lint and load
# tools) for test, lint, typecheck and load.
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

install: $(VENV)/.runtime

install-dev: $(VENV)/.dev

## Compile the locks from pyproject.toml after changing its dependencies (keeps the other
## pins; `make lock LOCK_ARGS=--upgrade` moves everything to the newest allowed versions)
LOCK_ARGS ?=
UV_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" --quiet $(LOCK_ARGS)
lock: install-dev
	$(UV_COMPILE) -o requirements.txt
	$(UV_COMPILE) --extra dev -o requirements-dev.txt

# Two processes in one: the task worker in the background, the server in front. Ctrl-C
# reaches both (one process group); the trap stops the worker when the server ends otherwise.
# The worker waits out a database outage by itself; if it stops for any other reason (a
# bug, killed) it is started again 2 s later, as systemd's Restart=always would
# (docs/operating.md, "The task worker"). It runs at a lower CPU priority (WORKER_NICE):
# on a shared machine the pages come first, a PDF or a re-rate a moment later.
WORKER_NICE ?= 10
WITH_WORKER = trap 'kill $$worker 2>/dev/null' EXIT; \
	( trap 'kill $$task_worker 2>/dev/null; exit 0' INT TERM; while :; do \
		nice -n $(WORKER_NICE) $(PY) manage.py db_worker --no-startup-delay & task_worker=$$!; \
		wait $$task_worker; echo "The task worker stopped (status $$?): starting it again in 2 s" >&2; \
		sleep 2; done ) & worker=$$!;

## Serve the site with demo data on SQLite at http://127.0.0.1:$(PORT), its task worker beside it
run: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py seed_demo --base-url http://127.0.0.1:$(PORT)
	@echo "Serving on http://127.0.0.1:$(PORT)/ with a task worker (Ctrl-C stops both)"
	@export $(DEV_ENV); $(WITH_WORKER) $(PY) manage.py runserver 127.0.0.1:$(PORT)

## The release step, once per release before the site starts (`make serve` runs it first;
## the Docker image's `release` is the same): the static files collected for WhiteNoise
## (skipped when they are from these sources already), the database migrated, the
## database cache's table made (ops/management/commands/release.py)
release: install
	$(PY) manage.py release

## The production processes on one machine, after the release step: gunicorn and the task
## worker (settings from the environment: DATABASE_URL, SECRET_KEY, ALLOWED_HOSTS...;
## docs/operating.md). gunicorn refuses to start without SECRET_KEY (gunicorn.conf.py).
## Its workers are ASGI (uvicorn's): a game's event stream holds a connection, not a
## worker; each request borrows a database connection from its worker's pool
## (DATABASE_POOL, 10 unless set; persistent connections leak under ASGI).
serve: release
	@export DATABASE_POOL=$${DATABASE_POOL:-10}; $(WITH_WORKER) $(VENV)/bin/gunicorn \
		config.asgi:application -k uvicorn_worker.UvicornWorker --bind 0.0.0.0:$(PORT) \
		--workers $${WEB_CONCURRENCY:-$$((2 * $$(nproc) + 1))}

## Run the whole test suite in parallel, browser and `slow` tests included
## (DATABASE_URL picks the database; SQLite by default; TEST_MARKS="..." selects by mark)
test: install-dev
	$(PYTEST) $(if $(TEST_MARKS),-m "$(TEST_MARKS)") $(PYTEST_ARGS)

## The edit-test loop: no browser and no slow tests, in parallel
test-fast: install-dev
	$(PYTEST) -m "not browser and not slow" $(PYTEST_ARGS)

## Everything, the slow tests too, each property with 1,000 examples (HYPOTHESIS_PROFILE)
test-thorough: install-dev
	HYPOTHESIS_PROFILE=thorough $(PYTEST) $(PYTEST_ARGS)

migrate: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput

demo: migrate
	$(DEV_ENV) $(PY) manage.py seed_demo

## Update the translation catalogues, then compile them (needs GNU gettext)
messages: install
	$(DEV_ENV) $(PY) manage.py makemessages -l sv -l en --ignore=.venv --ignore=staticfiles
	$(DEV_ENV) $(PY) manage.py compilemessages -l sv -l en --ignore=.venv

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

typecheck: install-dev
	$(VENV)/bin/mypy

check-deploy: install
	SECRET_KEY=check-deploy-$$(date +%s)-a-long-random-enough-string-for-django ALLOWED_HOSTS=club.example.se \
		$(PY) manage.py check --deploy --fail-level WARNING

## Load test a championship venue (gunicorn + locust); figures to docs/benchmarks.md.
## PostgreSQL when DATABASE_URL names a server (a database of its own is made), else SQLite.
load: install-dev
	$(PY) -m benchmarks.load

## A championship day of MINUTES against `make serve` on a PostgreSQL 15 and a Redis of its
## own while the task worker is killed and the servers stopped at random; checks that
## nothing was lost and writes the figures to docs/benchmarks.md (SOAK_ARGS=--no-docs: not)
MINUTES ?= 30
SOAK_ARGS ?=
soak: install-dev
	$(PY) -m benchmarks.soak --minutes $(MINUTES) $(SOAK_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
