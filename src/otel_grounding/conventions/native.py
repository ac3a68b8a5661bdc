"""The native `ferrumdeck.*` convention, as the reference gateway writes it."""

from __future__ import annotations

from typing import Any

from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading, value_cut
from otel_grounding.scoring import as_text
from otel_grounding.spanview import SpanView

RUN_OUTPUT = "ferrumdeck.run.output"
RUN_ID = "ferrumdeck.run.id"
PROJECT_ID = "ferrumdeck.project.id"
RUN_TOOL_STEPS = "ferrumdeck.run.tool_steps"
RUN_TOOL_OUTPUTS = "ferrumdeck.run.tool_outputs"
STEP_EVENT = "ferrumdeck.step"
STEP_TYPE = "ferrumdeck.step.type"
STEP_OUTPUT = "ferrumdeck.step.output"
STEP_TYPE_TOOL = "tool"
STEP_TYPE_LLM = "llm"


def _text(value: Any) -> str | None:
    return None if value is None else as_text(list(value) if isinstance(value, tuple) else value)


def _count(value: Any) -> int | None:
    """A declared count as what it says: 3, 3.0 and "3" are 3; None when it is no whole number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        digits = value.isascii() and value.isdigit() and len(value) <= 18
        return int(value) if digits else None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class NativeConvention:
    """Runs carry `ferrumdeck.run.output` (or a run id and no step type); steps carry a type."""

    name = "native"
    markers = frozenset({RUN_OUTPUT, RUN_ID, STEP_TYPE})

    def read(self, span: SpanView) -> SpanReading | None:
        attrs = span.attributes
        step_type = attrs.get(STEP_TYPE)
        if step_type is not None:
            if step_type not in (STEP_TYPE_TOOL, STEP_TYPE_LLM):
                return None
            output = attrs.get(STEP_OUTPUT)
            return SpanReading(
                role=TOOL if step_type == STEP_TYPE_TOOL else LLM,
                convention=self.name,
                text=_text(output),
                truncated=value_cut(span, output),
                run_id=_str_or_none(attrs.get(RUN_ID)),
                content_keys=(STEP_OUTPUT,),
            )
        if RUN_OUTPUT not in attrs and RUN_ID not in attrs:
            return None
        output = attrs.get(RUN_OUTPUT)
        declared = attrs.get(RUN_TOOL_STEPS)
        sources, cut = self._attached(span)
        return SpanReading(
            role=RUN,
            convention=self.name,
            text=_text(output),
            truncated=value_cut(span, output),
            run_id=_str_or_none(attrs.get(RUN_ID)),
            project=_str_or_none(attrs.get(PROJECT_ID)),
            declared_tool_steps=None if declared is None else _count(declared),
            declared_tool_steps_unreadable=declared is not None and _count(declared) is None,
            attached_sources=sources,
            attached_truncated=cut,
            content_keys=(RUN_OUTPUT, RUN_TOOL_OUTPUTS),
        )

    @staticmethod
    def _attached(span: SpanView) -> tuple[tuple[str | None, ...], bool]:
        """Tool outputs on the run span itself: the string-array attribute and step events."""
        sources: list[str | None] = []
        cut = False
        outputs = span.attributes.get(RUN_TOOL_OUTPUTS)
        if outputs is not None:
            items = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
            for item in items:
                sources.append(_text(item))
                cut = cut or value_cut(span, item)
        for event in span.events:
            if event.name != STEP_EVENT:
                continue
            attrs = event.attributes or {}
            if attrs.get(STEP_TYPE) != STEP_TYPE_TOOL:
                continue
            output = attrs.get(STEP_OUTPUT)
            sources.append(_text(output))
            cut = cut or value_cut(span, output)
        return tuple(sources), cut
