"""The project's own build scripts, run for real against an empty cache, as on a new machine.

A first run on a machine with nothing cached must exit 0 and print the path it built; a
second run is a cache hit; an interrupted build leaves nothing that looks complete. Each build
goes to a temporary `OTEL_GROUNDING_CACHE`; Go's module and build caches and pip's download
cache are the machine's own (warm after `make test`'s own builds), so a rebuild costs a link
or a local install, not the network.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OTEL_BINARIES = REPO / ".ci" / "otel-binaries"
SYSTEM_DEPS = REPO / ".ci" / "install-system-deps"
BUILD_ENVS = REPO / "tests" / "frameworks" / "build_envs.py"
BUILD_TIMEOUT = 1800.0

pytestmark = pytest.mark.needs_build  # `make check` leaves it out


def cache_env(cache: Path) -> dict[str, str]:
    return {**os.environ, "OTEL_GROUNDING_CACHE": str(cache)}


def run(argv: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, env=cache_env(cache), capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT, check=False)


def leftovers(cache: Path) -> list[str]:
    """Scratch directories a build should have removed."""
    return sorted(p.name for p in cache.glob(".build-*"))


def check_builds_then_hits_the_cache(component: str, cache: Path) -> Path:
    """Build `component` into `cache`: exit 0, the path printed last, no scratch left; then a
    second run that builds nothing. Returns the binary's path."""
    expected = run([str(OTEL_BINARIES), "path", component], cache).stdout.strip()
    assert expected.startswith(str(cache)), expected

    first = run([str(OTEL_BINARIES), component], cache)
    assert first.returncode == 0, first.stderr[-4000:]
    assert first.stdout.strip().splitlines()[-1] == expected
    assert os.access(expected, os.X_OK), expected
    assert leftovers(cache) == []

    again = run([str(OTEL_BINARIES), component], cache)
    assert again.returncode == 0, again.stderr[-4000:]
    assert again.stdout.strip() == expected
    assert again.stderr == "", "a cache hit builds nothing"
    return Path(expected)


@pytest.mark.parametrize("component", ["collector", "jaeger"])
def test_first_build_into_an_empty_cache_exits_0_and_prints_the_path(
        component: str, tmp_path: Path) -> None:
    binary = check_builds_then_hits_the_cache(component, tmp_path / "cache")
    version = subprocess.run([str(binary), "--version" if component == "collector" else "version"],
                             capture_output=True, text=True, timeout=60, check=False)
    assert version.returncode == 0, version.stderr


def test_phoenix_installs_over_a_half_installed_one(tmp_path: Path) -> None:
    """A virtualenv cannot be moved into place whole, so completeness is a stamp written last:
    a script left by an install killed half-way is not taken for a built Phoenix."""
    cache = tmp_path / "cache"
    planted = Path(run([str(OTEL_BINARIES), "path", "phoenix"], cache).stdout.strip())
    planted.parent.mkdir(parents=True)
    planted.write_text("#!/bin/sh\nexit 0\n")
    planted.chmod(0o755)
    binary = check_builds_then_hits_the_cache("phoenix", cache)
    assert (binary.parent.parent / ".complete").is_file()
    probe = subprocess.run([str(binary.parent / "python"), "-c", "import phoenix"],
                           capture_output=True, text=True, timeout=300, check=False)
    assert probe.returncode == 0, probe.stderr[-2000:]


def as_from_a_terminal() -> None:
    """SIGINT at its default, as in a terminal's foreground job: a test run started in the
    background of a non-interactive shell (as CI may start it) inherits it ignored, and a
    shell cannot trap a signal ignored when it started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupted_build_leaves_nothing_that_looks_complete(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    build = subprocess.Popen([str(OTEL_BINARIES), "collector"], env=cache_env(cache),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + 120
        while not leftovers(cache) and time.monotonic() < deadline and build.poll() is None:
            time.sleep(0.05)
        assert leftovers(cache), "the build never started its scratch directory"
        time.sleep(1.0)  # inside the build's first step
        os.killpg(build.pid, signal.SIGINT)  # what Ctrl-C sends to the foreground group
        build.wait(timeout=120)
    finally:
        if build.poll() is None:
            os.killpg(build.pid, signal.SIGKILL)
            build.wait()
    assert build.returncode != 0
    assert leftovers(cache) == []
    assert list(cache.glob("otelcol-*")) == [], "an interrupted build left a cache entry"


def test_a_framework_environment_builds_into_an_empty_cache(tmp_path: Path) -> None:
    """`make fw-envs`'s script: the smallest env, built, stamped, then a cache hit."""
    cache = tmp_path / "cache"
    first = run([sys.executable, str(BUILD_ENVS), "sdk-oldest"], cache)
    assert first.returncode == 0, first.stderr[-4000:]
    built = list(cache.glob("fw-sdk-oldest-*"))
    assert len(built) == 1 and (built[0] / ".installed").is_file(), built
    python = built[0] / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import opentelemetry.sdk.trace"],
                           capture_output=True, text=True, timeout=60, check=False)
    assert probe.returncode == 0, probe.stderr
    again = run([sys.executable, str(BUILD_ENVS), "sdk-oldest"], cache)
    assert again.returncode == 0 and again.stdout == "", again.stdout


def test_system_deps_are_idempotent_and_refuse_an_unknown_group(tmp_path: Path) -> None:
    """`make test` installed them: a second run installs nothing and exits 0."""
    for group in ([], ["lint"]):
        done = run([str(SYSTEM_DEPS), *group], tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "" and done.stderr == ""
    wrong = run([str(SYSTEM_DEPS), "everything"], tmp_path)
    assert wrong.returncode == 2 and "usage" in wrong.stderr
