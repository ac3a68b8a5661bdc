"""The build backend: setuptools' own, plus mypy as a build requirement when the compiled
build is asked for (`OTEL_GROUNDING_COMPILE=1`: `setup.py`), so that a plain `pip install`
or `pip wheel` of the source builds it in pip's isolated environment."""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the backend's whole interface)

#: The environment variable that asks for the compiled build.
COMPILE_ENV = "OTEL_GROUNDING_COMPILE"
#: The compiler: mypyc ships with mypy (the version `make lint` pins).
MYPYC_REQUIREMENT = "mypy==2.4.1"
#: The extras whose modules the compiled modules import when they are installed.
IMPORTED_EXTRAS = ("fast-json", "prometheus")


def _compiling() -> list[str]:
    """What the compiled build needs: mypyc, and what the compiled modules import, directly or
    not (mypyc type checks them with the types of what they import): the package's
    dependencies and the extras those modules use when installed. (Python 3.11+: `setup.py`;
    the pure build, on 3.10 too, never reads this.)"""
    import tomllib

    with open("pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    extras = project["optional-dependencies"]
    return [MYPYC_REQUIREMENT, *project["dependencies"],
            *(r for extra in IMPORTED_EXTRAS for r in extras[extra])]


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    # Compiling, `setup.py` needs mypyc to run at all: asking setuptools (which runs it) would
    # fail before mypy is installed. The package has no other build requirement of its own.
    if os.environ.get(COMPILE_ENV) == "1":
        return _compiling()
    return build_meta.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    if os.environ.get(COMPILE_ENV) == "1":
        return _compiling()
    return build_meta.get_requires_for_build_editable(config_settings)
