# Two commands for a newcomer: `make run` and `make test`.
# `make run` needs only Python: `capsa serve` fronts gunicorn with nginx where it is installed
# (Debian: nginx-light), else with the embedded front (waitress); it starts and stops them.
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

# Test processes (pytest-xdist): one more than the cores by default, since about a quarter of
# the suite waits (served stacks starting, subprocesses, the browser) and a third process on
# two cores fills those waits (4 min 36 s against 5 min 8 s; four processes are no faster);
# PYTEST_WORKERS=0 runs in this process.
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")

test: install
	$(PY) -m ruff check .
	$(PY) -m mypy
	# compile and cache every kernel once, so parallel test processes only load them
	$(PY) -c "from solver.warmup import warm_up; warm_up()"
	# one BLAS thread a process: the parallelism is the test processes (BLAS threads on these
	# small products only wait on each other, several times slower on a busy machine)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal

bench: install
	for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
