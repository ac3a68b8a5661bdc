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

import ast
from typing import Any

from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading, reading_of, value_cut
from otel_grounding.spanview import SpanView

OPERATION = "gen_ai.operation.name"
AGENT_NAME = "gen_ai.agent.name"
#: pydantic-ai's per-run id (also propagated as baggage onto the run's steps).
AGENT_CALL_ID = "gen_ai.agent.call.id"
OUTPUT_MESSAGES = "gen_ai.output.messages"
INPUT_MESSAGES = "gen_ai.input.messages"
TOOL_NAME = "gen_ai.tool.name"
TOOL_RESULT = "gen_ai.tool.call.result"
TOOL_CALL_ID = "gen_ai.tool.call.id"
TOOL_DEFINITIONS = "gen_ai.tool.definitions"
LEGACY_COMPLETION = "gen_ai.completion."
LEGACY_PROMPT = "gen_ai.prompt."
#: Strands: the tool names on its agent span.
AGENT_TOOLS = "gen_ai.agent.tools"
#: OpenLLMetry's legacy request attributes: `llm.request.functions.{i}.name`.
LEGACY_FUNCTIONS = "llm.request.functions."
#: CrewAI under OpenLLMetry: `str(CrewOutput)` on the `crewai.workflow` span.
CREWAI_CREW_RESULT = "crewai.crew.result"
#: The event holding content when it is not on the span (GenAI latest conventions, Strands).
DETAILS_EVENT = "gen_ai.client.inference.operation.details"
#: Strands' default (legacy) events: the output (`message`), and each tool result sent.
CHOICE_EVENT = "gen_ai.choice"
CHOICE_MESSAGE = "message"
TOOL_MESSAGE_EVENT = "gen_ai.tool.message"
TOOL_MESSAGE_CONTENT = "content"
#: Google ADK's legacy schema (`ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1`): `call_llm` spans carry
#: no operation name, only these; "{}" is what ADK writes when content is off.
ADK_LLM_REQUEST = "gcp.vertex.agent.llm_request"
ADK_LLM_RESPONSE = "gcp.vertex.agent.llm_response"
ADK_TOOL_RESPONSE = "gcp.vertex.agent.tool_response"
ADK_EMPTY = "{}"
PYDANTIC_FINAL_RESULT = "final_result"
PYDANTIC_ALL_MESSAGES = "pydantic_ai.all_messages"
PROJECT_ID = "ferrumdeck.project.id"

RUN_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow"})
TOOL_OPERATIONS = frozenset({"execute_tool"})
#: LLM calls: the conventions' names, and LiteLLM's call types (`acompletion`, ...), which it
#: writes as the operation name outside the latest conventions.
LLM_OPERATIONS = frozenset(
    {
        "chat",
        "text_completion",
        "generate_content",
        "completion",
        "acompletion",
        "atext_completion",
        "responses",
        "aresponses",
    }
)
#: How an application names its agent's span (`invoke_agent {agent}`): such a span is the run
#: whatever operation name a library wrote over it.
RUN_SPAN_PREFIXES = ("invoke_agent", "invoke_workflow")
#: The response's finish reasons (`["tool_calls"]`): the model stopped to call tools.
FINISH_REASONS = "gen_ai.response.finish_reasons"

#: Attributes holding raw content (removed after scoring when the user asks for it).
CONTENT_KEYS = (
    INPUT_MESSAGES,
    OUTPUT_MESSAGES,
    "gen_ai.system_instructions",
    "gen_ai.tool.call.arguments",
    TOOL_RESULT,
    PYDANTIC_FINAL_RESULT,
    PYDANTIC_ALL_MESSAGES,
    CREWAI_CREW_RESULT,
    ADK_LLM_REQUEST,
    ADK_LLM_RESPONSE,
    ADK_TOOL_RESPONSE,
    "gcp.vertex.agent.tool_call_args",
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
        ADK_LLM_RESPONSE,
    }
)


def detail(span: SpanView, key: str) -> Any:
    """A content attribute, from the span or else from the last operation-details event that
    carries it (where the GenAI latest conventions and Strands put content by default)."""
    value = span.attributes.get(key)
    if value is not None:
        return value
    return event_value(span, DETAILS_EVENT, key)


def event_value(span: SpanView, name: str, key: str) -> Any:
    """The attribute `key` of the last event called `name` that carries it; None without one."""
    for event in reversed(span.events):
        if event.name == name:
            value = (event.attributes or {}).get(key)
            if value is not None:
                return value
    return None


def _adk(span: SpanView, key: str) -> Any:
    value = span.attributes.get(key)
    return None if value == ADK_EMPTY else value


def tools_declared(span: SpanView) -> bool:
    """Whether the span lists tools available to the agent (definitions, names)."""
    attrs = span.attributes
    for key in (TOOL_DEFINITIONS, AGENT_TOOLS):
        if payloads.non_empty(detail(span, key)):
            return True
    return any(key.startswith(LEGACY_FUNCTIONS) for key in attrs)


def llm_tool_traffic(
    span: SpanView,
) -> tuple[tuple[payloads.ToolResult, ...], tuple[str | None, ...]]:
    """(tool results in the LLM step's input, tool calls in its output), in every GenAI form:
    the messages attributes or events, the legacy indexed attributes, Strands' legacy events,
    ADK's legacy request and response."""
    attrs = span.attributes
    results = payloads.tool_results(detail(span, INPUT_MESSAGES))
    legacy_results, legacy_calls = payloads.indexed_tool_traffic(attrs, LEGACY_PROMPT)
    results += legacy_results
    _, completion_calls = payloads.indexed_tool_traffic(attrs, LEGACY_COMPLETION)
    sources = [payloads.tool_calls(detail(span, OUTPUT_MESSAGES)), legacy_calls + completion_calls]
    for event in span.events:
        if event.name == TOOL_MESSAGE_EVENT:
            results += payloads.tool_results((event.attributes or {}).get(TOOL_MESSAGE_CONTENT))
    if not any(sources):
        sources.append(payloads.tool_calls(event_value(span, CHOICE_EVENT, CHOICE_MESSAGE)))
    results += payloads.tool_results(_adk(span, ADK_LLM_REQUEST))
    sources.append(payloads.tool_calls(_adk(span, ADK_LLM_RESPONSE)))
    if not any(sources) and _stopped_for_tools(span):
        sources.append([None])  # the model asked for tools; the calls were not recorded
    return tuple(results), _one_response(sources)


def _one_response(sources: list[list[str | None]]) -> tuple[str | None, ...]:
    """The calls of one response recorded in several forms (LiteLLM: the output message's
    finish reason and the legacy `function_call.*`): every named call, and as many unnamed
    ones as the form that shows the most (unnamed calls of two forms are the same calls)."""
    named = [call for calls in sources for call in calls if call is not None]
    unnamed = max((sum(1 for call in calls if call is None) for calls in sources), default=0)
    return tuple(named) + (None,) * unnamed


def _stopped_for_tools(span: SpanView) -> bool:
    """Whether the response's finish reasons say the model stopped to call tools: a list, its
    JSON text, or the Python repr of a list (OpenLIT writes `"['tool_calls']"`)."""
    value = span.attributes.get(FINISH_REASONS)
    if isinstance(value, str):
        ok, parsed = payloads.parse_json(value)
        value = parsed if ok else _repr_list(value)
    if not isinstance(value, (list, tuple)):
        return False
    return any(reason in payloads.TOOL_FINISH_REASONS for reason in value)


#: A finish-reasons value longer than this is not parsed as a Python literal.
_MAX_REPR_CHARS = 200


def _repr_list(value: str) -> list[Any]:
    """The strings of a short Python list repr (`"['tool_calls']"`); else the value alone."""
    stripped = value.strip()
    if stripped.startswith("[") and len(stripped) <= _MAX_REPR_CHARS:
        try:
            parsed = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return [value]
        if isinstance(parsed, list):
            return parsed
    return [value]


def is_agent_span(span: SpanView) -> bool:
    """Whether an LLM-operation span is in fact the application's agent span: named
    `invoke_agent {agent}` (LiteLLM's callback writes its call, operation name included, onto
    the span that is current), or the local root carrying an agent's name."""
    if span.name.startswith(RUN_SPAN_PREFIXES):
        return True
    root = span.local_root or span.parent_id is None
    return root and str_attr(span, AGENT_NAME) is not None


def read_answer(
    span: SpanView, keys: tuple[str, ...], *, strict: bool = False
) -> tuple[str | None, bool, bool]:
    """(text, redacted, truncated) from the first of `keys` that yields an answer; `strict`:
    JSON that holds no message structure is no answer (not even as sorted JSON)."""
    truncated = False
    for key in keys:
        value = detail(span, key)
        if value is None or (value == ADK_EMPTY and key == ADK_LLM_RESPONSE):
            continue
        if payloads.is_redacted(value):
            return None, True, False
        cut = value_cut(span, value)
        if strict and (not isinstance(value, str) or payloads.looks_like_json(value)):
            text = payloads.message_answer(value)
        else:
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
    return reading_of(
        LLM,
        convention,
        read_tool_result(span, value),
        run_id=run_id,
        content_keys=keys,
    )


class GenAIConvention:
    """OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name` says what a span is."""

    name = "genai"
    markers = frozenset({OPERATION, ADK_LLM_RESPONSE})

    def read(self, span: SpanView) -> SpanReading | None:
        operation = span.attributes.get(OPERATION)
        if operation is None:
            return self._llm(span) if ADK_LLM_RESPONSE in span.attributes else None
        if operation in RUN_OPERATIONS:
            return self._run(span, operation)
        if operation in TOOL_OPERATIONS:
            return self._tool(span)
        if operation in LLM_OPERATIONS:
            step = self._llm(span)
            return _as_run(span, step) if is_agent_span(span) else step
        return None

    def read_output(self, span: SpanView) -> tuple[str | None, bool, bool]:
        """The span's own answer whatever its kind (for a local root read as an implicit run)."""
        return read_answer(span, RUN_ANSWER_KEYS, strict=True)

    def _run(self, span: SpanView, operation: str) -> SpanReading:
        text, redacted, cut = read_answer(span, RUN_ANSWER_KEYS)
        if text is None and not redacted:  # Strands' default: the answer in a span event
            value = event_value(span, CHOICE_EVENT, CHOICE_MESSAGE)
            if value is not None:
                redacted = payloads.is_redacted(value)
                text = None if redacted else payloads.answer_text(value)
                cut = value_cut(span, value)
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
            tools_declared=tools_declared(span),
        )

    def _tool(self, span: SpanView) -> SpanReading | None:
        name = span.attributes.get(TOOL_NAME)
        value = _tool_value(span)
        run_id = str_attr(span, AGENT_CALL_ID)
        if payloads.tool_kind(name) != "tool":
            return pseudo_tool(self.name, span, name, value, content_keys(span), run_id)
        return reading_of(
            TOOL,
            self.name,
            read_tool_result(span, value),
            run_id=run_id,
            content_keys=content_keys(span),
            call_id=str_attr(span, TOOL_CALL_ID),
        )

    def _llm(self, span: SpanView) -> SpanReading:
        text, redacted, cut = read_answer(span, (OUTPUT_MESSAGES, ADK_LLM_RESPONSE))
        if text is None and not redacted:
            legacy = payloads.indexed_messages(span.attributes, LEGACY_COMPLETION)
            text = payloads.last_assistant_text(legacy)
            if text is None:  # Strands' default: the output in a span event
                value = event_value(span, CHOICE_EVENT, CHOICE_MESSAGE)
                text = None if value is None else payloads.answer_text(value, structured=True)
            if text is not None:
                redacted = payloads.is_redacted(text)
                text = None if redacted else text
        results, calls = llm_tool_traffic(span)
        return SpanReading(
            role=LLM,
            convention=self.name,
            text=text,
            redacted=redacted,
            truncated=cut,
            run_id=str_attr(span, AGENT_CALL_ID),
            content_keys=content_keys(span),
            input_tool_results=results,
            tool_calls=calls,
            tools_declared=tools_declared(span),
        )


def _as_run(span: SpanView, step: SpanReading) -> SpanReading:
    """The application's agent span with an LLM call written onto it, read as the run.

    Its answer is the call's output; the tool results the call received in its input (the
    whole conversation, so every result of the run) are the run's own tool outputs. A call
    the span shows (its output, or a stale legacy `function_call.*` from an earlier call)
    whose result is nowhere on it is a tool output that could not be read.
    """
    sources = tuple(result.text for result in step.input_tool_results)
    if not sources and step.tool_calls:
        sources = (None,)
    agent = str_attr(span, AGENT_NAME)
    if agent is None and span.name.startswith("invoke_agent "):
        agent = span.name[len("invoke_agent ") :].strip() or None
    return SpanReading(
        role=RUN,
        convention=step.convention,
        text=step.text,
        redacted=step.redacted,
        truncated=step.truncated,
        run_id=step.run_id,
        agent=agent,
        project=str_attr(span, PROJECT_ID),
        attached_sources=sources,
        content_keys=step.content_keys,
        tools_declared=step.tools_declared,
    )


#: Where a run's (or any span's) own answer is, in order.
RUN_ANSWER_KEYS = (
    OUTPUT_MESSAGES,
    PYDANTIC_FINAL_RESULT,
    PYDANTIC_ALL_MESSAGES,
    CREWAI_CREW_RESULT,
)


def _tool_value(span: SpanView) -> Any:
    """A tool step's raw result: the GenAI attribute, ADK's legacy one, or Strands' events
    (the latest conventions' `tool_call_response` output message, or the legacy choice)."""
    value = span.attributes.get(TOOL_RESULT)
    if value is None:
        value = _adk(span, ADK_TOOL_RESPONSE)
    if value is None:
        output = detail(span, OUTPUT_MESSAGES)
        if output is not None:
            results = payloads.tool_results(output)
            if results:
                return results[-1].text
    if value is None:
        value = event_value(span, CHOICE_EVENT, CHOICE_MESSAGE)
    return value
