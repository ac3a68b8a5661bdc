"""The package's one build step beyond pyproject.toml: with `OTEL_GROUNDING_COMPILE=1`, the
modules listed under `[tool.otel-grounding] compiled-modules` are compiled to C extensions by
mypyc (the same source; README "The compiled build"). Without it the wheel is pure Python."""

from __future__ import annotations

import os
import sys

from setuptools import setup


def _extensions() -> list:
    if os.environ.get("OTEL_GROUNDING_COMPILE") != "1":
        return []
    if sys.version_info < (3, 11):
        sys.exit("OTEL_GROUNDING_COMPILE=1: the compiled build needs Python 3.11 or later")
    import tomllib
    from mypyc.build import mypycify

    with open("pyproject.toml", "rb") as handle:
        modules = tomllib.load(handle)["tool"]["otel-grounding"]["compiled-modules"]
    # [tool.mypy] names modules the compiled ones never import (the judges' optional ones)
    paths = [f"src/{name.replace('.', '/')}.py" for name in modules]
    return mypycify(["--no-warn-unused-configs", *paths], opt_level="3")


setup(ext_modules=_extensions())
