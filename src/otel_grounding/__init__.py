"""otel-grounding: how much of an AI agent's answer its tool outputs support, on the run's span."""

from otel_grounding.config import ConfigError, GroundingSettings, ScoringOptions, load_settings
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
from otel_grounding.processor import GroundingSpanProcessor
from otel_grounding.scoring import ClaimVerdict, GroundingResult, score_run, score_texts

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
    "coverage_grade",
    "load_settings",
    "score_run",
    "score_texts",
]
