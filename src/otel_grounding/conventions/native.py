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
_STEP_CONTENT_KEYS = (STEP_OUTPUT,)
_RUN_CONTENT_KEYS = (RUN_OUTPUT, RUN_TOOL_OUTPUTS)


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
            run_id = attrs.get(RUN_ID)
            # Positional (a reading is built for every step read; by keyword it costs half
            # again): the fields in `SpanReading`'s order, up to `content_keys`.
            return SpanReading(
                TOOL if step_type == STEP_TYPE_TOOL else LLM,  # role
                self.name,  # convention
                _text(output),  # text
                False,  # redacted
                value_cut(span, output),  # truncated
                run_id if isinstance(run_id, str) and run_id else None,  # run_id
                None,  # agent
                None,  # project
                None,  # declared_tool_steps
                False,  # declared_tool_steps_unreadable
                (),  # attached_sources
                False,  # attached_truncated
                _STEP_CONTENT_KEYS,  # content_keys
            )
        if RUN_OUTPUT not in attrs and RUN_ID not in attrs:
            return None
        output = attrs.get(RUN_OUTPUT)
        declared = attrs.get(RUN_TOOL_STEPS)
        count = None if declared is None else _count(declared)
        sources, cut = (
            self._attached(span) if span.events or RUN_TOOL_OUTPUTS in attrs else ((), False)
        )
        return SpanReading(  # positional, as a step's reading above
            RUN,  # role
            self.name,  # convention
            _text(output),  # text
            False,  # redacted
            value_cut(span, output),  # truncated
            _str_or_none(attrs.get(RUN_ID)),  # run_id
            None,  # agent
            _str_or_none(attrs.get(PROJECT_ID)),  # project
            count,  # declared_tool_steps
            declared is not None and count is None,  # declared_tool_steps_unreadable
            sources,  # attached_sources
            cut,  # attached_truncated
            _RUN_CONTENT_KEYS,  # content_keys
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
