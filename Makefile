VENV := .venv
PYTHON := $(VENV)/bin/python
BIN := $(VENV)/bin

.PHONY: run test lint fmt bench
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
# docker/nginx.conf in Debian's nginx.
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM) $(NGINX) &:
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium nginx

run: $(VENV)/.installed
	$(PYTHON) manage.py migrate_as_owner
	$(PYTHON) manage.py seed_demo
	$(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port 8000 --lifespan on \
		--ws-per-message-deflate false

test: lint $(CHROMIUM) $(NGINX)
	$(BIN)/pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

fmt: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed
	$(PYTHON) -m bench.rules
