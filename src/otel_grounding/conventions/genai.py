"""The OpenTelemetry GenAI semantic conventions (`gen_ai.*`).

Written by the official `opentelemetry-instrumentation-genai-*` packages, pydantic-ai's
instrumentation and OpenLLMetry's newer spans. One marker, `gen_ai.operation.name`:

- `invoke_agent` is a run (agent `gen_ai.agent.name`); its answer is `gen_ai.output.messages`,
  else pydantic-ai's `final_result`, else the last assistant message of `pydantic_ai.all_messages`;
  none of them: not captured (the pipeline then falls back to the last LLM step's text).
  `invoke_workflow` is a run with no agent name (a wrapper around agent runs).
- `execute_tool` is a tool step; its result is `gen_ai.tool.call.result` (pseudo-tools whose
  output is the answer are read as LLM steps, handoffs not at all).
- `chat`, `text_completion`, `generate_content` are LLM steps: the assistant text of
  `gen_ai.output.messages`, or the legacy `gen_ai.completion.{i}.content` attributes.
- Everything else (`create_agent`, `embeddings`, `execute_task`, `retrieval`, ...) is ignored.

Content is only there when the instrumentation captures it (official packages:
`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY` or `SPAN_AND_EVENT`).
"""

from __future__ import annotations

from typing import Any

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading, value_cut
from otel_grounding.spanview import SpanView

OPERATION = "gen_ai.operation.name"
AGENT_NAME = "gen_ai.agent.name"
#: pydantic-ai's per-run id (also propagated as baggage onto the run's steps).
AGENT_CALL_ID = "gen_ai.agent.call.id"
OUTPUT_MESSAGES = "gen_ai.output.messages"
TOOL_NAME = "gen_ai.tool.name"
TOOL_RESULT = "gen_ai.tool.call.result"
LEGACY_COMPLETION = "gen_ai.completion."
PYDANTIC_FINAL_RESULT = "final_result"
PYDANTIC_ALL_MESSAGES = "pydantic_ai.all_messages"
PROJECT_ID = "ferrumdeck.project.id"

RUN_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow"})
TOOL_OPERATIONS = frozenset({"execute_tool"})
LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})

#: Attributes holding raw content (removed after scoring when the user asks for it).
CONTENT_KEYS = (
    "gen_ai.input.messages",
    OUTPUT_MESSAGES,
    "gen_ai.system_instructions",
    "gen_ai.tool.call.arguments",
    TOOL_RESULT,
    PYDANTIC_FINAL_RESULT,
    PYDANTIC_ALL_MESSAGES,
)
LEGACY_CONTENT_PREFIXES = ("gen_ai.prompt.", LEGACY_COMPLETION)


def str_attr(span: SpanView, key: str) -> str | None:
    value = span.attributes.get(key)
    return value if isinstance(value, str) and value else None


def content_keys(span: SpanView) -> tuple[str, ...]:
    attrs = span.attributes
    return payloads.present(attrs, CONTENT_KEYS) + payloads.present_prefixed(
        attrs, LEGACY_CONTENT_PREFIXES
    )


#: Attributes that always hold JSON: a value that does not parse is broken, not plain text.
JSON_KEYS = frozenset(
    {
        OUTPUT_MESSAGES,
        PYDANTIC_ALL_MESSAGES,
        "traceloop.entity.output",
    }
)


def read_answer(span: SpanView, keys: tuple[str, ...]) -> tuple[str | None, bool, bool]:
    """(text, redacted, truncated) from the first of `keys` that yields an answer."""
    truncated = False
    for key in keys:
        value = span.attributes.get(key)
        if value is None:
            continue
        if payloads.is_redacted(value):
            return None, True, False
        cut = value_cut(span, value)
        text = payloads.answer_text(value, structured=key in JSON_KEYS, cut=cut)
        if text is not None:
            return text, False, cut
        truncated = truncated or cut
    return None, False, truncated


def read_tool_result(span: SpanView, value: Any) -> tuple[str | None, bool, bool]:
    if value is None:
        return None, False, False
    if payloads.is_redacted(value):
        return None, True, False
    return payloads.tool_text(value), False, value_cut(span, value)


def pseudo_tool(
    convention: str,
    span: SpanView,
    name: Any,
    value: Any,
    keys: tuple[str, ...],
    run_id: str | None,
) -> SpanReading | None:
    """A tool span that is no evidence: the answer itself (an LLM reading) or a handoff (None)."""
    kind = payloads.tool_kind(name)
    if kind == "handoff":
        return None
    text, redacted, cut = read_tool_result(span, value)
    return SpanReading(
        role=LLM,
        convention=convention,
        text=text,
        redacted=redacted,
        truncated=cut,
        run_id=run_id,
        content_keys=keys,
    )


class GenAIConvention:
    """OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name` says what a span is."""

    name = "genai"
    markers = frozenset({OPERATION})

    def read(self, span: SpanView) -> SpanReading | None:
        operation = span.attributes.get(OPERATION)
        if operation is None:
            return None
        if operation in RUN_OPERATIONS:
            return self._run(span, operation)
        if operation in TOOL_OPERATIONS:
            return self._tool(span)
        if operation in LLM_OPERATIONS:
            return self._llm(span)
        return None

    def _run(self, span: SpanView, operation: str) -> SpanReading:
        text, redacted, cut = read_answer(
            span, (OUTPUT_MESSAGES, PYDANTIC_FINAL_RESULT, PYDANTIC_ALL_MESSAGES)
        )
        return SpanReading(
            role=RUN,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            run_id=str_attr(span, AGENT_CALL_ID),
            agent=str_attr(span, AGENT_NAME) if operation == "invoke_agent" else None,
            project=str_attr(span, PROJECT_ID),
            content_keys=content_keys(span),
        )

    def _tool(self, span: SpanView) -> SpanReading | None:
        name = span.attributes.get(TOOL_NAME)
        value = span.attributes.get(TOOL_RESULT)
        run_id = str_attr(span, AGENT_CALL_ID)
        if payloads.tool_kind(name) != "tool":
            return pseudo_tool(self.name, span, name, value, content_keys(span), run_id)
        text, redacted, cut = read_tool_result(span, value)
        return SpanReading(
            role=TOOL,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            run_id=run_id,
            content_keys=content_keys(span),
        )

    def _llm(self, span: SpanView) -> SpanReading:
        text, redacted, cut = read_answer(span, (OUTPUT_MESSAGES,))
        if text is None and not redacted:
            legacy = payloads.indexed_messages(span.attributes, LEGACY_COMPLETION)
            text = payloads.last_assistant_text(legacy)
            if text is not None:
                redacted = payloads.is_redacted(text)
                text = None if redacted else text
        return SpanReading(
            role=LLM,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            run_id=str_attr(span, AGENT_CALL_ID),
            content_keys=content_keys(span),
        )
