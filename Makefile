VENV := .venv
PYTHON := $(VENV)/bin/python
BIN := $(VENV)/bin

.PHONY: run serve test lint fmt bench
# A recipe that fails halfway must not leave a stamp or a half-made venv behind.
.DELETE_ON_ERROR:

$(PYTHON):
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install --quiet -e ".[dev]"
	touch $@

# The page tests drive Debian's chromium with Playwright; the front's test runs
# docker/nginx.conf in Debian's nginx; the translations' test gathers the marked
# strings with Django's makemessages, which runs GNU gettext.
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
GETTEXT := /usr/bin/msgattrib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM) $(NGINX) $(GETTEXT) &:
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium nginx gettext

run: $(VENV)/.installed
	$(PYTHON) manage.py migrate_as_owner
	$(PYTHON) manage.py seed_demo
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port 8000 --lifespan on \
		--ws-per-message-deflate false

# Production mode serves static files by hashed names from STATIC_ROOT (whitenoise's
# manifest), so the pages under test need them collected, as `make serve` does.
test: lint $(CHROMIUM) $(NGINX) $(GETTEXT)
	$(PYTHON) manage.py collectstatic --noinput --verbosity 0
	$(BIN)/pytest

# The production site on one machine, against DATABASE_URL and REDIS_URL (SECRET_KEY
# set): the Procfile's two servers, Celery worker and beat, and the nginx front on
# HOST:PORT, the servers on the next two ports of 127.0.0.1. docs/deployment.md.
HOST ?= 127.0.0.1
PORT ?= 8000
WEB1_PORT ?= $(shell expr $(PORT) + 1)
WEB2_PORT ?= $(shell expr $(PORT) + 2)

serve: $(VENV)/.installed $(NGINX)
	$(PYTHON) manage.py migrate_as_owner
	$(PYTHON) manage.py collectstatic --noinput
	PATH="$(abspath $(BIN)):$$PATH" ATU_BIND=127.0.0.1 ATU_FRONT=$(HOST):$(PORT) \
		ATU_WEB1_PORT=$(WEB1_PORT) ATU_WEB2_PORT=$(WEB2_PORT) \
		ATU_UPSTREAMS="127.0.0.1:$(WEB1_PORT) 127.0.0.1:$(WEB2_PORT)" \
		$(BIN)/honcho start --procfile Procfile --no-colour

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

fmt: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed
	$(PYTHON) -m bench.rules
