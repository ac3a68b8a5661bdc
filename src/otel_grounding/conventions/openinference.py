"""OpenInference (Arize): `openinference.span.kind` says what a span is.

- `AGENT` is a run. Its agent is `agent.name` (OpenAI Agents), else LangChain's
  `metadata.lc_agent_name`; an AGENT span with neither (the OpenAI Agents trace root, "Agent
  workflow") is a run with no agent name: a wrapper around the agent runs inside it. A
  LangGraph node with neither (`metadata.langgraph_node`: LangChain says AGENT because the
  node's name holds "agent") is a step of the graph's run, not read.
- `CHAIN` is a run only where LangChain puts its agent graph: the root of a `create_agent` graph
  (`metadata.ls_integration == "langchain_create_agent"` and no `langgraph_node`; LangChain only
  says AGENT when the agent's name contains "agent"), or a local-root chain whose output is a
  LangGraph messages state. Every other CHAIN (graph nodes, LCEL steps) is not read.
- `TOOL` is a tool step (handoffs are not; pseudo-tools carrying the answer are LLM steps).
- `LLM` is an LLM step: `llm.output_messages.{i}.message.content` (or `.contents.{j}`), else the
  assistant message in `output.value`.

Content is `output.value` (`output.mime_type` `text/plain` or `application/json`; JSON is framework
state, unwrapped by `payloads`). `OPENINFERENCE_HIDE_OUTPUTS=true` writes `__REDACTED__`:
read as redacted, not as text.
"""

from __future__ import annotations

import json
from typing import Any

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading, reading_of, value_cut
from otel_grounding.conventions.genai import pseudo_tool, str_attr
from otel_grounding.spanview import SpanView

SPAN_KIND = "openinference.span.kind"
OUTPUT_VALUE = "output.value"
OUTPUT_MIME_TYPE = "output.mime_type"
AGENT_NAME = "agent.name"
TOOL_NAME = "tool.name"
METADATA = "metadata"
OUTPUT_MESSAGES = "llm.output_messages."
INPUT_MESSAGES = "llm.input_messages."
#: The call a TOOL span's result answers (corresponding to `tool_call.id`).
TOOL_ID = "tool.id"
#: Tools available on an LLM request: `llm.tools.{i}.tool.json_schema`.
LLM_TOOLS = "llm.tools."
PROJECT_ID = "ferrumdeck.project.id"
LANGCHAIN_AGENT_GRAPH = "langchain_create_agent"

CONTENT_KEYS = (OUTPUT_VALUE, "input.value")
CONTENT_PREFIXES = ("llm.input_messages.", OUTPUT_MESSAGES, "llm.prompts.")


def _content_keys(span: SpanView) -> tuple[str, ...]:
    attrs = span.attributes
    return payloads.present(attrs, CONTENT_KEYS) + payloads.present_prefixed(
        attrs, CONTENT_PREFIXES
    )


def _metadata(span: SpanView) -> dict[str, Any]:
    raw = span.attributes.get(METADATA)
    if not isinstance(raw, str) or ("lc_agent_name" not in raw and "ls_integration" not in raw):
        return {}
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _is_json(span: SpanView, value: str) -> bool:
    mime = span.attributes.get(OUTPUT_MIME_TYPE)
    return mime == "application/json" or (mime is None and payloads.looks_like_json(value))


class OpenInferenceConvention:
    """OpenInference spans (Arize Phoenix and every `openinference-instrumentation-*`)."""

    name = "openinference"
    markers = frozenset({SPAN_KIND})

    def read(self, span: SpanView) -> SpanReading | None:
        kind = span.attributes.get(SPAN_KIND)
        if kind is None:
            return None
        if kind == "AGENT":
            meta = _metadata(span)
            agent = str_attr(span, AGENT_NAME) or _str(meta.get("lc_agent_name"))
            if agent is None and "langgraph_node" in meta:
                # A graph node LangChain labels AGENT only because its name holds "agent":
                # a step of the graph's run, not a run of its own (one request, one grade).
                return None
            return self._run(span, agent)
        if kind == "CHAIN":
            return self._chain(span)
        if kind == "TOOL":
            return self._tool(span)
        if kind == "LLM":
            return self._llm(span)
        return None

    def _chain(self, span: SpanView) -> SpanReading | None:
        meta = _metadata(span)
        if meta.get("ls_integration") == LANGCHAIN_AGENT_GRAPH and "langgraph_node" not in meta:
            return self._run(span, _str(meta.get("lc_agent_name")))
        if span.parent_id is None or span.local_root:
            value = span.attributes.get(OUTPUT_VALUE)
            if isinstance(value, str) and '"messages"' in value and _is_json(span, value):
                ok, parsed = payloads.parse_json(value)
                if ok and isinstance(parsed, dict) and isinstance(parsed.get("messages"), list):
                    return self._run(span, None)
        return None

    def _output(
        self, span: SpanView, tool: bool, strict: bool = False
    ) -> tuple[str | None, bool, bool]:
        """`output.value` as a tool result or an answer; `strict`: JSON holding no message is
        no answer (an LLM step's output is a message or nothing)."""
        value = span.attributes.get(OUTPUT_VALUE)
        if value is None:
            return None, False, False
        if payloads.is_redacted(value):
            return None, True, False
        cut = value_cut(span, value)
        if isinstance(value, str) and not _is_json(span, value):
            is_repr, text = payloads.python_repr(value)  # `str(obj)` is never prose
            return (text if is_repr else value), False, cut
        if tool:
            return payloads.tool_text(value), False, cut
        if strict:
            return payloads.message_answer(value), False, cut
        return payloads.answer_text(value, structured=True, cut=cut), False, cut

    def _run(self, span: SpanView, agent: str | None) -> SpanReading:
        return reading_of(
            RUN,
            self.name,
            self._output(span, tool=False),
            agent=agent,
            project=str_attr(span, PROJECT_ID),
            content_keys=_content_keys(span),
            declared_tool_steps=payloads.tool_call_count(span.attributes.get(OUTPUT_VALUE)),
        )

    def _tool(self, span: SpanView) -> SpanReading | None:
        name = span.attributes.get(TOOL_NAME, span.name)
        if payloads.tool_kind(name) != "tool":
            return pseudo_tool(
                self.name, span, name, span.attributes.get(OUTPUT_VALUE), _content_keys(span), None
            )
        return reading_of(
            TOOL,
            self.name,
            self._output(span, tool=True),
            content_keys=_content_keys(span),
            call_id=str_attr(span, TOOL_ID),
        )

    def _llm(self, span: SpanView) -> SpanReading:
        messages = payloads.indexed_messages(span.attributes, OUTPUT_MESSAGES)
        text = payloads.last_assistant_text(messages) if messages else None
        redacted = payloads.is_redacted(text)
        cut = value_cut(span, text)
        if redacted:
            text, cut = None, False
        elif text is None and not messages:  # messages without text: a tool call, no answer
            text, redacted, cut = self._output(span, tool=False, strict=True)
        attrs = span.attributes
        results, _ = payloads.indexed_tool_traffic(attrs, INPUT_MESSAGES)
        _, calls = payloads.indexed_tool_traffic(attrs, OUTPUT_MESSAGES)
        return SpanReading(
            role=LLM,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            content_keys=_content_keys(span),
            input_tool_results=tuple(results),
            tool_calls=tuple(calls),
            tools_declared=any(key.startswith(LLM_TOOLS) for key in attrs),
        )

    def read_output(self, span: SpanView) -> tuple[str | None, bool, bool]:
        """The span's own answer whatever its kind (for a local root read as an implicit run)."""
        return self._output(span, tool=False, strict=True)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
