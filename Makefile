# Set-up, main job and tests. `make run` and `make test` set up on first use.
# constraints.txt pins every package of the environment (pip freeze), so that a build is reproducible.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.sick-setup-done

.PHONY: setup run test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]" -c constraints.txt
	$(PY) -m pipeline.resources
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/sick build --out build/default

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) tests/bench_build.py
	$(PY) tests/bench_aggregate.py

clean:
	rm -rf build .pytest_cache
