# Two commands set up a fresh machine: `make run` and `make test` (README).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run club test setup install migrate demo worker lint bench messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0

demo: migrate
	$(PY) manage.py load_demo

# A real club's server runs `make setup`: never the demo (its organiser's password is published).
setup: migrate

# uvicorn (ASGI): the live pages' streams need it; Django's runserver cannot stream them.
run: setup demo
	$(VENV)/bin/uvicorn config.asgi:application --host 127.0.0.1 --port 8000 --lifespan off

# A club night: gunicorn with uvicorn workers for the phones on the club's wifi (README "A club
# night with phones").
# Options: make club CLUB_ARGS="--port 8000 --address 192.168.1.20 --workers 3"
club: install
	$(PY) manage.py serve_club $(CLUB_ARGS)

# The suite spread over every core (pytest-xdist; each worker has its own test database).
# One process: make test PYTEST_WORKERS=0
# Compiled modules, and pytest's test modules with their asserts rewritten, are kept between
# runs (__pycache__, ignored by git) even where the environment sets PYTHONDONTWRITEBYTECODE:
# otherwise every test process and every process a test starts compiles them again.
PYTEST_WORKERS ?= auto
test: setup
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

worker: setup
	$(VENV)/bin/celery -A config worker --loglevel=INFO

lint: install
	$(VENV)/bin/ruff check .

bench: setup
	@for script in $(filter-out bench/common.py,$(wildcard bench/*.py)); do \
		echo "== $$script"; $(PY) $$script || exit 1; done

messages: install
	$(PY) manage.py makemessages -l bg -l en --ignore='.venv/*' --ignore='var/*'
	$(PY) manage.py compilemessages --ignore='.venv/*'

clean:
	rm -rf $(VENV) var
