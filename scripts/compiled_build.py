"""The compiled build (README, "The compiled build") of this checkout, unpacked, for the tests
and the benchmarks to put on PYTHONPATH; prints its folder.

    python scripts/compiled_build.py

`pip wheel` with `OTEL_GROUNDING_COMPILE=1` (mypyc in pip's isolated build environment), the
wheel unpacked into ${XDG_CACHE_HOME:-~/.cache}/otel-grounding/compiled-<hash>/, where the hash
is of every file the build reads (the package's source, pyproject.toml, setup.py, the build
backend): a checkout already built pays nothing, a changed source builds again (about 35 s on a
2-core machine) and the older folders are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: What the build reads: a change to any of them is another build.
INPUTS = ("pyproject.toml", "setup.py", "build_backend", "src/otel_grounding")
PREFIX = "compiled-"
STAMP = ".built"


def _digest() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for name in INPUTS:
        path = REPO / name
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(file.relative_to(REPO).as_posix().encode() + b"\0")
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def compiled_build() -> Path:
    """The folder holding the compiled package (built now if this checkout's is not cached)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "otel-grounding"
    target = cache / f"{PREFIX}{_digest()}"
    if (target / STAMP).exists():
        return target
    with tempfile.TemporaryDirectory() as wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
             "--no-deps", "-w", wheels, str(REPO)],
            env={**os.environ, "OTEL_GROUNDING_COMPILE": "1"}, check=True,
        )
        (wheel,) = Path(wheels).glob("*.whl")
        shutil.rmtree(target, ignore_errors=True)
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(target)
    for older in cache.glob(f"{PREFIX}*"):
        if older != target:
            shutil.rmtree(older, ignore_errors=True)
    (target / STAMP).touch()
    return target


if __name__ == "__main__":
    print(compiled_build())
