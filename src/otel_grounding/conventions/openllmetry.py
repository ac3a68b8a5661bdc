"""OpenLLMetry (Traceloop): `traceloop.span.kind` says what a span is.

- `workflow` and `agent` are runs. The agent is `gen_ai.agent.name`, else (kind `agent`)
  `traceloop.entity.name`; a workflow that names no agent is a wrapper run with no agent name.
  Newer versions also emit a GenAI `invoke_agent` span around a LangGraph workflow span of the
  same agent: that one is read by the GenAI adapter, and the nested-run policy scores the pair
  once.
- `tool` is a tool step (pseudo-tools carrying the answer are LLM steps, handoffs not read).
- `task` (graph nodes, CrewAI tasks) is not read, and no other adapter reads it either (CrewAI's
  task spans also say `gen_ai.operation.name = invoke_agent`) — except a task whose output is
  a tool's output (LlamaIndex `ToolOutput` / `ToolCallResult`): a tool step.
  LLM spans carry no `traceloop.span.kind`: the GenAI adapter reads them
  (`gen_ai.output.messages` or the legacy `gen_ai.completion.{i}.content`).
- Tools available: `crewai.agent.tools` / `crewai.task.tools` (a JSON list) on CrewAI spans.

Content is `traceloop.entity.output`, JSON text: a string return value arrives JSON-quoted,
LangChain payloads are `{"outputs": ...}` / `{"output": ...}` envelopes around serialised objects
(content under `kwargs.content`). Falls back to `gen_ai.output.messages` /
`gen_ai.tool.call.result`. `TRACELOOP_TRACE_CONTENT=false` removes content: not captured.
"""

from __future__ import annotations

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import (
    LLM,
    OTHER,
    RUN,
    TOOL,
    SpanReading,
    reading_of,
    value_cut,
)
from otel_grounding.conventions.genai import (
    OUTPUT_MESSAGES,
    TOOL_RESULT,
    pseudo_tool,
    read_answer,
    read_tool_result,
    str_attr,
    tools_declared,
)
from otel_grounding.spanview import SpanView

SPAN_KIND = "traceloop.span.kind"
ENTITY_NAME = "traceloop.entity.name"
ENTITY_OUTPUT = "traceloop.entity.output"
AGENT_NAME = "gen_ai.agent.name"
TOOL_NAME = "gen_ai.tool.name"
PROJECT_ID = "ferrumdeck.project.id"
CREWAI_TOOLS = ("crewai.agent.tools", "crewai.task.tools")

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
            return reading_of(
                RUN,
                self.name,
                read_answer(span, (ENTITY_OUTPUT, OUTPUT_MESSAGES)),
                agent=agent,
                project=str_attr(span, PROJECT_ID),
                content_keys=payloads.present(span.attributes, CONTENT_KEYS),
                tools_declared=_tools_declared(span),
                declared_tool_steps=payloads.tool_call_count(span.attributes.get(ENTITY_OUTPUT)),
            )
        if kind == "task":
            return self._task(span)
        if kind == "tool":
            name = span.attributes.get(TOOL_NAME) or span.attributes.get(ENTITY_NAME)
            value = span.attributes.get(ENTITY_OUTPUT)
            if value is None:
                value = span.attributes.get(TOOL_RESULT)
            keys = payloads.present(span.attributes, CONTENT_KEYS)
            if payloads.tool_kind(name) != "tool":
                return pseudo_tool(self.name, span, name, value, keys, None)
            return reading_of(
                TOOL,
                self.name,
                read_tool_result(span, value),
                content_keys=keys,
            )
        return None

    def read_output(self, span: SpanView) -> tuple[str | None, bool, bool]:
        """The span's own answer whatever its kind (for a local root read as an implicit run)."""
        return read_answer(span, (ENTITY_OUTPUT, OUTPUT_MESSAGES), strict=True)

    def _task(self, span: SpanView) -> SpanReading:
        """A task is not read, unless its output is a tool's output (a tool step) or an
        assistant message (an LLM step: LlamaIndex's last workflow step carries the answer)."""
        value = span.attributes.get(ENTITY_OUTPUT)
        keys = payloads.present(span.attributes, CONTENT_KEYS)
        if not isinstance(value, str) or payloads.is_redacted(value):
            return SpanReading(role=OTHER, convention=self.name)
        ok, parsed = payloads.parse_json(value)
        if ok and payloads.is_tool_output(parsed):
            return reading_of(
                TOOL,
                self.name,
                read_tool_result(span, value),
                content_keys=keys,
                call_id=payloads.str_field(parsed, "tool_id"),
            )
        answer = payloads.message_answer(parsed) if ok else None
        if answer is not None:
            return SpanReading(
                role=LLM, convention=self.name, text=answer, truncated=value_cut(span, value),
                content_keys=keys,
            )
        return SpanReading(role=OTHER, convention=self.name)


def _tools_declared(span: SpanView) -> bool:
    attrs = span.attributes
    return tools_declared(span) or any(payloads.non_empty(attrs.get(key)) for key in CREWAI_TOOLS)
