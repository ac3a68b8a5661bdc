"""The compiled build (README, "The compiled build") of this checkout, unpacked, for the tests
and the benchmarks to put on PYTHONPATH; prints its folder.

    python scripts/compiled_build.py

`pip wheel` with `OTEL_GROUNDING_COMPILE=1` (mypyc in pip's isolated build environment), the
wheel unpacked into ${XDG_CACHE_HOME:-~/.cache}/otel-grounding/compiled-<hash>/, where the hash
is of every file the build reads (the package's source, pyproject.toml, setup.py, the build
backend): a checkout already built pays nothing, a changed source builds again (about 60 s on a
2-core machine), and other builds untouched for an hour are removed (not sooner: another
checkout's tests may be reading one).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: What the build reads: a change to any of them is another build.
INPUTS = ("pyproject.toml", "setup.py", "build_backend", "src/otel_grounding")
#: What a wheel is built from: the inputs and the files pyproject.toml names (the readme, the
#: licence), copied to a folder of their own (a checkout's `build/` may hold an older build's
#: extensions, which setuptools would put in the wheel).
SOURCES = (*INPUTS, "README.md", "LICENSE")
PREFIX = "compiled-"
STAMP = ".built"
#: How long another build is kept unused before a new build removes it.
STALE_SECONDS = 3600


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
        (target / STAMP).touch()  # in use: not stale for another checkout's build
        return target
    with tempfile.TemporaryDirectory() as work:
        source, wheels = Path(work) / "source", Path(work) / "wheels"
        for name in SOURCES:
            if (REPO / name).is_dir():
                shutil.copytree(REPO / name, source / name,
                                ignore=shutil.ignore_patterns("__pycache__", "*.so"))
            else:
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, source / name)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
             "--no-deps", "-w", str(wheels), str(source)],
            env={**os.environ, "OTEL_GROUNDING_COMPILE": "1"}, check=True,
        )
        (wheel,) = wheels.glob("*.whl")
        unpacked = cache / f".{target.name}-{os.getpid()}"  # renamed into place whole
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(unpacked)
        (unpacked / STAMP).touch()
        shutil.rmtree(target, ignore_errors=True)  # a build cut short (no stamp)
        try:
            unpacked.rename(target)
        except OSError:  # another process put the same build in place meanwhile
            shutil.rmtree(unpacked, ignore_errors=True)
    for older in cache.glob(f"{PREFIX}*"):
        stamp = older / STAMP
        used = stamp.stat().st_mtime if stamp.exists() else older.stat().st_mtime
        if older != target and time.time() - used > STALE_SECONDS:
            shutil.rmtree(older, ignore_errors=True)
    return target


if __name__ == "__main__":
    print(compiled_build())
