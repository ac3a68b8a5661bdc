"""OpenLLMetry (Traceloop): `traceloop.span.kind` says what a span is.

- `workflow` and `agent` are runs. The agent is `gen_ai.agent.name`, else (kind `agent`)
  `traceloop.entity.name`; a workflow that names no agent is a wrapper run with no agent name.
  Newer versions also emit a GenAI `invoke_agent` span around a LangGraph workflow span of the
  same agent: that one is read by the GenAI adapter, and the nested-run policy scores the pair
  once.
- `tool` is a tool step (pseudo-tools carrying the answer are LLM steps, handoffs not read).
- `task` (graph nodes) is not read. LLM spans carry no `traceloop.span.kind`: the GenAI adapter
  reads them (`gen_ai.output.messages` or the legacy `gen_ai.completion.{i}.content`).

Content is `traceloop.entity.output`, JSON text: a string return value arrives JSON-quoted,
LangChain payloads are `{"outputs": ...}` / `{"output": ...}` envelopes around serialised objects
(content under `kwargs.content`). Falls back to `gen_ai.output.messages` /
`gen_ai.tool.call.result`. `TRACELOOP_TRACE_CONTENT=false` removes content: not captured.
"""

from __future__ import annotations

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import RUN, TOOL, SpanReading
from otel_grounding.conventions.genai import (
    OUTPUT_MESSAGES,
    TOOL_RESULT,
    pseudo_tool,
    read_answer,
    read_tool_result,
    str_attr,
)
from otel_grounding.spanview import SpanView

SPAN_KIND = "traceloop.span.kind"
ENTITY_NAME = "traceloop.entity.name"
ENTITY_OUTPUT = "traceloop.entity.output"
AGENT_NAME = "gen_ai.agent.name"
TOOL_NAME = "gen_ai.tool.name"
PROJECT_ID = "ferrumdeck.project.id"

CONTENT_KEYS = (
    "traceloop.entity.input",
    ENTITY_OUTPUT,
    "gen_ai.task.input",
    "gen_ai.task.output",
    "gen_ai.input.messages",
    OUTPUT_MESSAGES,
    "gen_ai.tool.call.arguments",
    TOOL_RESULT,
)


class OpenLLMetryConvention:
    """OpenLLMetry / Traceloop SDK spans."""

    name = "openllmetry"
    markers = frozenset({SPAN_KIND})

    def read(self, span: SpanView) -> SpanReading | None:
        kind = span.attributes.get(SPAN_KIND)
        if kind is None:
            return None
        if kind == "workflow" or kind == "agent":
            agent = str_attr(span, AGENT_NAME)
            if agent is None and kind == "agent":
                agent = str_attr(span, ENTITY_NAME)
            text, redacted, cut = read_answer(span, (ENTITY_OUTPUT, OUTPUT_MESSAGES))
            return SpanReading(
                role=RUN,
                convention=self.name,
                text=text,
                redacted=redacted,
                truncated=cut,
                agent=agent,
                project=str_attr(span, PROJECT_ID),
                content_keys=payloads.present(span.attributes, CONTENT_KEYS),
            )
        if kind == "tool":
            name = span.attributes.get(TOOL_NAME) or span.attributes.get(ENTITY_NAME)
            value = span.attributes.get(ENTITY_OUTPUT)
            if value is None:
                value = span.attributes.get(TOOL_RESULT)
            keys = payloads.present(span.attributes, CONTENT_KEYS)
            if payloads.tool_kind(name) != "tool":
                return pseudo_tool(self.name, span, name, value, keys, None)
            text, redacted, cut = read_tool_result(span, value)
            return SpanReading(
                role=TOOL,
                convention=self.name,
                text=text,
                redacted=redacted,
                truncated=cut,
                content_keys=keys,
            )
        return None
