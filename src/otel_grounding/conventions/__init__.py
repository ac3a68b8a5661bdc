"""Telemetry conventions: one small adapter per dialect, all behind `Convention.read`."""

from otel_grounding.conventions.base import (
    LLM,
    RUN,
    TOOL,
    Convention,
    SpanReading,
    read_span,
)
from otel_grounding.conventions.native import NativeConvention

#: Tried in order; the first adapter that recognises a span reads it.
DEFAULT_CONVENTIONS: tuple[Convention, ...] = (NativeConvention(),)

__all__ = [
    "DEFAULT_CONVENTIONS",
    "LLM",
    "RUN",
    "TOOL",
    "Convention",
    "NativeConvention",
    "SpanReading",
    "read_span",
]
