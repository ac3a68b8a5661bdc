# Every target does its own set-up: a fresh clone needs nothing but python3 (>= 3.10).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo bench clean system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,frameworks]'
	touch $(STAMP)

# Prometheus + promtool for the end-to-end tests (Debian's package; root or sudo).
system-deps:
	.ci/install-system-deps

test: $(STAMP) system-deps
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/otel-grounding demo

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
