"""Langfuse SDK (v3 and later, OpenTelemetry based): `langfuse.observation.type`.

- `agent` is a run; the agent is LangChain's `metadata.lc_agent_name`, else the span name. A
  LangGraph node (`metadata.langgraph_node`) without `lc_agent_name` is a step of the graph's
  run (the handler says `agent` because the node's name holds "agent"): not read.
  A `chain` is a run only at the root of a LangChain `create_agent` graph (Langfuse's LangChain
  handler says `agent` only when the name contains "agent") or at a LangChain root whose output
  is a LangGraph messages state.
- `tool` is a tool step (pseudo-tools carrying the answer are LLM steps, handoffs not read).
- `generation` is an LLM step.
- `span`, `event`, `chain`, `retriever`, `embedding`, `evaluator`, `guardrail` are not read:
  mark an agent function with `@observe(as_type="agent")` and its tools with `as_type="tool"`.

Content is `langfuse.observation.output`: a string as it was returned, anything else JSON
(LangChain messages as `model_dump` dicts, unwrapped by `payloads`). Metadata values are
JSON-encoded strings.
"""

from __future__ import annotations

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading, reading_of
from otel_grounding.conventions.genai import (
    pseudo_tool,
    read_answer,
    read_tool_result,
    str_attr,
)
from otel_grounding.spanview import SpanView

OBSERVATION_TYPE = "langfuse.observation.type"
OUTPUT = "langfuse.observation.output"
META = "langfuse.observation.metadata."
AGENT_META = META + "lc_agent_name"
INTEGRATION_META = META + "ls_integration"
NODE_META = META + "langgraph_node"
LANGCHAIN_ROOT_META = META + "is_langchain_root"
PROJECT_ID = "ferrumdeck.project.id"
LANGCHAIN_AGENT_GRAPH = "langchain_create_agent"

CONTENT_KEYS = ("langfuse.observation.input", OUTPUT)


class LangfuseConvention:
    """Spans written by the Langfuse SDK (decorators, context managers, LangChain handler)."""

    name = "langfuse"
    markers = frozenset({OBSERVATION_TYPE})

    def read(self, span: SpanView) -> SpanReading | None:
        kind = span.attributes.get(OBSERVATION_TYPE)
        if kind is None:
            return None
        if kind == "agent":
            attrs = span.attributes
            if NODE_META in attrs and payloads.decoded_str(attrs.get(AGENT_META)) is None:
                # A graph node Langfuse's LangChain handler calls an agent only because its
                # name holds "agent": a step of the graph's run, not a run of its own.
                return None
            return self._run(span)
        if kind == "chain":
            return self._run(span) if self._agent_graph(span) else None
        if kind == "tool":
            return self._tool(span)
        if kind == "generation":
            return reading_of(
                LLM,
                self.name,
                read_answer(span, (OUTPUT,)),
                content_keys=payloads.present(span.attributes, CONTENT_KEYS),
            )
        return None

    @staticmethod
    def _agent_graph(span: SpanView) -> bool:
        attrs = span.attributes
        if NODE_META in attrs:
            return False
        if payloads.decoded_str(attrs.get(INTEGRATION_META)) == LANGCHAIN_AGENT_GRAPH:
            return True
        if attrs.get(LANGCHAIN_ROOT_META) not in (True, "true"):
            return False
        value = attrs.get(OUTPUT)
        if not isinstance(value, str) or '"messages"' not in value:
            return False
        ok, parsed = payloads.parse_json(value)
        return ok and isinstance(parsed, dict) and isinstance(parsed.get("messages"), list)

    def _run(self, span: SpanView) -> SpanReading:
        text, redacted, cut = read_answer(span, (OUTPUT,))
        agent = payloads.decoded_str(span.attributes.get(AGENT_META)) or span.name or None
        return SpanReading(
            role=RUN,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            agent=agent,
            project=str_attr(span, PROJECT_ID),
            content_keys=payloads.present(span.attributes, CONTENT_KEYS),
            declared_tool_steps=payloads.tool_call_count(span.attributes.get(OUTPUT)),
        )

    def _tool(self, span: SpanView) -> SpanReading | None:
        value = span.attributes.get(OUTPUT)
        keys = payloads.present(span.attributes, CONTENT_KEYS)
        if payloads.tool_kind(span.name) != "tool":
            return pseudo_tool(self.name, span, span.name, value, keys, None)
        return reading_of(
            TOOL,
            self.name,
            read_tool_result(span, value),
            content_keys=keys,
        )

    def read_output(self, span: SpanView) -> tuple[str | None, bool, bool]:
        """The span's own answer whatever its kind (for a local root read as an implicit run)."""
        return read_answer(span, (OUTPUT,), strict=True)
