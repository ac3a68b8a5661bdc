# Every target does its own set-up: a fresh clone needs nothing but python3 (>= 3.10).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/otel-grounding demo

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
