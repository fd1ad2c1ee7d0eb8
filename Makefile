# Set-up, main job and tests. `make run` and `make test` set up on first use.
# constraints.txt pins every package of the environment (pip freeze), so that a build is reproducible.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.sick-setup-done

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]" -c constraints.txt
	$(PY) -m pipeline.common.resources
	touch $(STAMP)

# build -> crowd tasks -> synthetic judgments -> gold -> report, so a newcomer sees gold come out
run: $(STAMP)
	$(VENV)/bin/sick build --out build/default
	$(VENV)/bin/sick tasks export --corpus build/default/corpus.tsv --platform csv --out build/default/tasks
	$(VENV)/bin/sick simulate-judgments --corpus build/default/corpus.tsv --controls annotations/controls.yaml \
		--out build/default/judgments.synthetic.csv
	$(VENV)/bin/sick aggregate --judgments build/default/judgments.synthetic.csv --corpus build/default/corpus.tsv \
		--out build/default/gold
	$(VENV)/bin/sick report --corpus build/default/gold/gold.tsv --out build/default/report

test: $(STAMP)
	$(PY) -m pytest -q

# ruff (lint and import order) and mypy, configured in pyproject.toml
lint: $(STAMP)
	$(VENV)/bin/ruff check pipeline tests
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) tests/bench_build.py
	$(PY) tests/bench_aggregate.py
	$(PY) tests/bench_report.py
	$(PY) tests/bench_pyramid.py

clean:
	rm -rf build .pytest_cache
