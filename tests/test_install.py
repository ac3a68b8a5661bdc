"""Installing outside the checkout, as README.md's "Install" section writes it.

The wheel `make wheel` builds is installed into a new virtualenv (dependencies from pip's cache
or PyPI), its command runs the demo there, and once the package is installed an extra is added
by its name, the way the README and the command's own messages write it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
VERSION = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"),
                    re.M)[1]  # type: ignore[index]
WHEEL = f"otel_grounding-{VERSION}-py3-none-any.whl"
TIMEOUT = 900.0

pytestmark = pytest.mark.needs_build  # `make check` leaves it out: it installs from PyPI


def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False,
                          **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{argv}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                 "-w", str(out), str(REPO)])
    assert "deprecat" not in (built.stdout + built.stderr).lower(), built.stderr
    return out / WHEEL


def test_the_readme_names_the_wheel_make_wheel_builds(wheel: Path) -> None:
    assert wheel.is_file(), sorted(p.name for p in wheel.parent.iterdir())
    assert f"dist/{WHEEL}" in README
    assert re.search(r"^wheel:", (REPO / "Makefile").read_text(), re.M)


def test_the_wheel_declares_its_licence_the_current_way(wheel: Path) -> None:
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(f"otel_grounding-{VERSION}.dist-info/METADATA").decode()
    assert "License-Expression: Apache-2.0" in metadata
    assert f"otel_grounding-{VERSION}.dist-info/licenses/LICENSE" in names
    assert not [n for n in names if n.startswith(("tests/", "otel_grounding/testing"))]


def test_installed_from_the_wheel_the_demo_runs_and_an_extra_is_added_by_name(
        wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    run([*pip, "install", "--quiet", str(wheel)])

    demo = run([str(venv / "bin" / "otel-grounding"), "demo"], cwd=tmp_path)
    rows = [line.split()[0] for line in demo.stdout.splitlines() if line.startswith("demo-run-")]
    assert rows == ["demo-run-1-grounded", "demo-run-2-hallucinated", "demo-run-3-no-claims"]

    extra = run([*pip, "install", "--dry-run", "otel-grounding[regex]"], cwd=tmp_path)
    assert "Would install google-re2" in extra.stdout, extra.stdout[-2000:]
