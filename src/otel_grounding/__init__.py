"""otel-grounding: how much of an AI agent's answer its tool outputs support, on the run's span.

The public names are loaded on first use (PEP 562): importing the pure core
(`otel_grounding.scoring`, `.grade`, `.anchors`) loads neither the OpenTelemetry SDK nor the
settings machinery, and `from otel_grounding import GroundingSpanProcessor` loads what it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from otel_grounding.config import GroundingSettings, SettingOptions, load_settings
    from otel_grounding.exporter import GroundingOTLPSpanExporter, GroundingSpanExporter
    from otel_grounding.grade import (
        COVERAGE_CAPPED,
        CRITICAL_UNCOVERED,
        FULL,
        GRADES,
        JUDGE_DECLINED,
        JUDGE_FAILED,
        PARTIAL,
        VACUOUS,
        GradeMeta,
        coverage_grade,
    )
    from otel_grounding.options import ConfigError
    from otel_grounding.processor import GroundingSpanProcessor
    from otel_grounding.scoring import (
        ClaimVerdict,
        GroundingResult,
        ScoringOptions,
        score_run,
        score_texts,
    )

#: The module that defines each public name.
_HOMES: dict[str, tuple[str, ...]] = {
    "otel_grounding.config": ("GroundingSettings", "SettingOptions", "load_settings"),
    "otel_grounding.exporter": ("GroundingOTLPSpanExporter", "GroundingSpanExporter"),
    "otel_grounding.grade": (
        "COVERAGE_CAPPED",
        "CRITICAL_UNCOVERED",
        "FULL",
        "GRADES",
        "JUDGE_DECLINED",
        "JUDGE_FAILED",
        "PARTIAL",
        "VACUOUS",
        "GradeMeta",
        "coverage_grade",
    ),
    "otel_grounding.options": ("ConfigError",),
    "otel_grounding.processor": ("GroundingSpanProcessor",),
    "otel_grounding.scoring": (
        "ClaimVerdict",
        "GroundingResult",
        "ScoringOptions",
        "score_run",
        "score_texts",
    ),
}
_HOME: dict[str, str] = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "COVERAGE_CAPPED",
    "CRITICAL_UNCOVERED",
    "FULL",
    "GRADES",
    "JUDGE_DECLINED",
    "JUDGE_FAILED",
    "PARTIAL",
    "VACUOUS",
    "ClaimVerdict",
    "ConfigError",
    "GradeMeta",
    "GroundingOTLPSpanExporter",
    "GroundingResult",
    "GroundingSettings",
    "GroundingSpanExporter",
    "GroundingSpanProcessor",
    "ScoringOptions",
    "SettingOptions",
    "coverage_grade",
    "load_settings",
    "score_run",
    "score_texts",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept here after."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
