# Two commands for a newcomer: `make run` and `make test`.
# `make run` serves through nginx (Debian: nginx-light), which `capsa serve` starts and stops.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Further `capsa serve` options, e.g. SERVE_ARGS='--deadline 10 --compute-workers 1'
SERVE_ARGS ?=

.PHONY: run test install bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(VENV)/bin/capsa serve --host $(HOST) --port $(PORT) $(SERVE_ARGS)

test: install
	$(PY) -m mypy
	$(PY) -m pytest

bench: install
	for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
