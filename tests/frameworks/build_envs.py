"""Build the framework environments that are not cached yet (stdlib only; `make fw-envs`).

    python3 tests/frameworks/build_envs.py [ENV ...]      # default: every env

Each env is a virtual environment at `catalog.env_dir(ENV)`, i.e.
${XDG_CACHE_HOME:-~/.cache}/otel-grounding/fw-ENV-<hash of its requirements.txt>/, with exactly
the pinned requirements (pip's own download cache is shared). An env whose `.installed` stamp
exists is left alone, so a machine that has them cached pays nothing; a changed pin names a new
folder and builds it, and the env's older folders are removed. One env at a time: the machine
is small. The project itself is not installed into them (one cached env serves every checkout):
the tests put the checkout's `src/` on PYTHONPATH.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalog import cache_root, env_dir, env_names, requirements

STAMP = ".installed"


def build(env: str) -> None:
    target = env_dir(env)
    if (target / STAMP).is_file():
        return
    shutil.rmtree(target, ignore_errors=True)  # a half-built env from an interrupted run
    started = time.monotonic()
    print(f"fw-envs: building {target.name} (first run only) ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(target)], check=True)
    python = str(target / "bin" / "python")
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run([*pip, "install", "--quiet", "-r", str(requirements(env))], check=True)
    subprocess.run([*pip, "check"], check=True, stdout=subprocess.DEVNULL)
    (target / STAMP).write_text(f"{requirements(env).read_text()}", encoding="utf-8")
    print(f"fw-envs: {target.name} built in {time.monotonic() - started:.0f} s", flush=True)
    for old in cache_root().glob(f"fw-{env}-*"):
        if old != target and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)


def main(argv: list[str]) -> int:
    for env in argv or env_names():
        build(env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
