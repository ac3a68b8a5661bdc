"""Telemetry conventions: one small adapter per dialect, all behind `Convention.read`."""

from otel_grounding.conventions.base import (
    LLM,
    RUN,
    TOOL,
    Convention,
    SpanReading,
    read_span,
)
from otel_grounding.conventions.genai import GenAIConvention
from otel_grounding.conventions.langfuse import LangfuseConvention
from otel_grounding.conventions.native import NativeConvention
from otel_grounding.conventions.openinference import OpenInferenceConvention
from otel_grounding.conventions.openllmetry import OpenLLMetryConvention

#: Tried in order; the first adapter that recognises a span reads it. Native first (written on
#: purpose), then dialects with a marker of their own, generic `gen_ai.*` last: OpenLLMetry and
#: others also write `gen_ai.*` but keep their content under their own keys.
DEFAULT_CONVENTIONS: tuple[Convention, ...] = (
    NativeConvention(),
    OpenInferenceConvention(),
    OpenLLMetryConvention(),
    LangfuseConvention(),
    GenAIConvention(),
)

__all__ = [
    "DEFAULT_CONVENTIONS",
    "LLM",
    "RUN",
    "TOOL",
    "Convention",
    "GenAIConvention",
    "LangfuseConvention",
    "NativeConvention",
    "OpenInferenceConvention",
    "OpenLLMetryConvention",
    "SpanReading",
    "read_span",
]
