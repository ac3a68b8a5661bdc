"""Real framework traces, replayed through the pipeline, and the evidence policy they need.

The captures under tests/frameworks/captures/real/ are raw span dumps (no grounding processor)
of real frameworks run offline with a scripted model and one tool, `get_weather`, returning
"Paris: 18 degrees Celsius, light rain": `<scenario>-grounded.json` answers from the tool,
`<scenario>-hallucinated.json` adds an unsupported sentence. Spans are listed in the order
they ended. Frameworks and instrumentations (as named by the scenario):

- `adk-builtin`: Google ADK 2.x built-in tracing (with the Google GenAI instrumentation and
  `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY`; `-default`: without it;
  `-legacy`: `ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1`); `adk-openinference`.
- `autogen-builtin` (AgentChat alone), `autogen-genai` (+ openai-v2), `autogen-openinference`.
- `crewai-openinference` (`-hidden`: `OPENINFERENCE_HIDE_OUTPUTS=true`), `crewai-openllmetry`.
- `llamaindex-openinference` (`FunctionAgent`, no AGENT span: an implicit run),
  `llamaindex-openllmetry`.
- `openai-loop-genai`, `openai-loop-openinference`: a hand-rolled loop on the `openai` client,
  the app creating only the `invoke_agent` span (`-tool-span`: and an `execute_tool` span;
  `-no-content`: without the content switch).
- `strands-default`, `strands-latest` (`OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`),
  `strands-latest-span-attributes` (`...,gen_ai_span_attributes_only`).
- `litellm-*`: a hand-rolled loop on LiteLLM 1.110.2 with its otel callback, the app creating
  only the `invoke_agent` span: `-default` (LiteLLM writes each call onto that span),
  `-request-span` (`USE_OTEL_LITELLM_REQUEST_SPAN=true`: a `litellm_request` span per call;
  `-latest`: with `gen_ai_latest_experimental`), `-async` (`acompletion`), `-stream` (streamed
  calls), and `litellm-default-async-unlogged`: the run span ended before LiteLLM logged the
  last call (its async logging runs after the call returns), so it holds only the first call.
- `pydantic-ai-reasoned-output`: pydantic-ai (the `frameworks` extra's version) with an output
  type `{reasoning, answer}`, its function model answering through the `final_result` output
  tool; the reasoning mentions a flood warning the tool never gave.
- `langgraph-node-agent-openinference`, `langgraph-node-agent-langfuse`: a hand-built LangGraph
  `StateGraph` (nodes `research_agent` -> `tools` -> `research_agent`, a fake chat model) under
  openinference-instrumentation-langchain and Langfuse's `CallbackHandler` (the `frameworks`
  extra's versions): both label the `research_agent` node an agent because of its name.
  These three are recorded in process (tests/frameworks/shape_scenarios.py) with
  `python tests/frameworks/scenarios.py NAME --raw`, the `litellm-*` ones in their env with
  `tests/frameworks/run_in_env.py NAME --raw`; each mode's spans are one file here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.conventions import DEFAULT_CONVENTIONS, payloads, read_span
from otel_grounding.conventions.base import LLM, RUN, TOOL
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.relay.unordered import UnorderedStore
from otel_grounding.spanview import SpanView

from sdk_harness import Pipeline
from span_dumps import view, view_of

REAL = Path(__file__).parent / "frameworks" / "captures" / "real"
WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
EVIDENCE_UNAVAILABLE = attr.REASON_EVIDENCE_UNAVAILABLE
OUTPUT_UNAVAILABLE = attr.REASON_OUTPUT_UNAVAILABLE


def capture(scenario: str, mode: str) -> list[SpanView]:
    return [view_of(s) for s in json.loads((REAL / f"{scenario}-{mode}.json").read_text())]


def replay(spans: Sequence[SpanView], **options: Any) -> dict[str, Mapping[str, Any]]:
    """The attributes written on each enriched span, by span name (spans in the given order)."""
    pipeline = GroundingPipeline.configure(min_claim_grounding_rate=0.7, **options)
    out: dict[str, Mapping[str, Any]] = {}
    for span in spans:
        enrichment = pipeline.process(span)
        if enrichment is not None and enrichment.attributes:
            assert span.name not in out, f"{span.name} enriched twice"
            out[span.name] = enrichment.attributes
    return out


def outcome(attributes: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        attributes.get(attr.RATE),
        attributes[attr.GRADE],
        attributes[attr.BELOW_THRESHOLD],
        attributes.get(attr.COVERAGE_REASON),
    )


# ------------------------------------------------------------------------------ scored right
SCORED = [
    ("adk-builtin", "invoke_agent weather_agent"),
    ("adk-builtin-legacy", "invoke_agent weather_agent"),
    ("adk-openinference", "agent_run [weather_agent]"),
    ("autogen-genai", "invoke_agent weather_agent"),
    ("crewai-openinference", "weather_agent._execute_core"),
    ("llamaindex-openinference", "FunctionAgent.run"),
    ("openai-loop-genai", "invoke_agent weather_agent"),
    ("openai-loop-genai-tool-span", "invoke_agent weather_agent"),
    ("openai-loop-openinference", "invoke_agent weather_agent"),
    ("openai-loop-openinference-tool-span", "invoke_agent weather_agent"),
    ("strands-default", "invoke_agent weather_agent"),
    ("strands-latest", "invoke_agent weather_agent"),
    ("strands-latest-span-attributes", "invoke_agent weather_agent"),
    ("litellm-default", "invoke_agent weather_agent"),
    ("litellm-default-async", "invoke_agent weather_agent"),
    ("litellm-request-span", "invoke_agent weather_agent"),
    ("litellm-request-span-latest", "invoke_agent weather_agent"),
    ("litellm-request-span-async", "invoke_agent weather_agent"),
    # class 4: `final_result` is `{"reasoning": ..., "answer": ...}`; the reasoning invents
    # a flood warning, the answer is graded
    ("pydantic-ai-reasoned-output", "invoke_agent weather_agent"),
    # class 5: the graph is the run; its `research_agent` node (visited twice) is a step
    ("langgraph-node-agent-openinference", "LangGraph"),
    ("langgraph-node-agent-langfuse", "LangGraph"),
]


@pytest.mark.parametrize(("scenario", "run"), SCORED)
def test_real_trace_is_scored_once_and_right(scenario: str, run: str) -> None:
    grounded = replay(capture(scenario, "grounded"))
    assert list(grounded) == [run]
    assert outcome(grounded[run]) == (1.0, "full", False, None)
    assert grounded[run][attr.EVIDENCE_SOURCES] == 1  # one tool result, however often recorded
    hallucinated = replay(capture(scenario, "hallucinated"))
    assert list(hallucinated) == [run]
    assert outcome(hallucinated[run]) == (0.5, "full", True, None)


@pytest.mark.parametrize("scenario", ["openai-loop-genai", "openai-loop-openinference"])
def test_tool_result_seen_only_in_an_llm_input_is_the_evidence(scenario: str) -> None:
    spans = capture(scenario, "grounded")
    found = [read_span(s, DEFAULT_CONVENTIONS) for s in spans]
    assert not any(r is not None and r.role == TOOL for r in found)  # no tool span at all
    llms = [r for r in found if r is not None and r.role == LLM]
    assert [r.tool_calls for r in llms] == [("call_1",), ()]
    assert [r.input_tool_results for r in llms] == [
        (),
        (payloads.ToolResult("call_1", WEATHER),),
    ]


def test_adk_openinference_reads_the_adk_event() -> None:
    spans = capture("adk-openinference", "grounded")
    (agent,) = [s for s in spans if s.name == "agent_run [weather_agent]"]
    reading = read_span(agent, DEFAULT_CONVENTIONS)
    assert reading is not None and reading.role == RUN
    assert reading.text == GROUNDED  # the Event's content.parts[].text, not its JSON


def test_llamaindex_openinference_is_an_implicit_run() -> None:
    spans = capture("llamaindex-openinference", "grounded")
    root = spans[-1]
    assert root.name == "FunctionAgent.run" and root.local_root
    assert read_span(root, DEFAULT_CONVENTIONS) is None  # a CHAIN no adapter reads as a run
    assert root.attributes["output.value"].startswith("StopEvent(result=AgentOutput(")
    (tool,) = [s for s in spans if s.name == "FunctionTool.acall"]
    tool_reading = read_span(tool, DEFAULT_CONVENTIONS)
    assert tool_reading is not None and tool_reading.text == WEATHER  # ToolOutput blocks


def test_implicit_run_is_in_process_only() -> None:
    """The relay (which sees spans in any order) holds only spans read as runs."""
    pipeline = GroundingPipeline.configure(min_claim_grounding_rate=0.7)
    relay = GroundingPipeline(
        pipeline.settings, store=UnorderedStore.from_settings(pipeline.settings, 60)
    )
    written = [relay.process(span) for span in capture("llamaindex-openinference", "grounded")]
    assert all(e is None or attr.GRADE not in e.attributes for e in written)


# ------------------------------------------------------------------------------ honest when blind
@pytest.mark.parametrize(
    "scenario",
    ["adk-builtin-default", "crewai-openinference-hidden", "openai-loop-genai-no-content"],
)
def test_content_off_writes_no_rate_and_never_flags(scenario: str) -> None:
    for mode in ("grounded", "hallucinated"):
        enriched = replay(capture(scenario, mode))
        assert [outcome(a) for a in enriched.values()] == [
            (None, "partial", False, f"{OUTPUT_UNAVAILABLE},{EVIDENCE_UNAVAILABLE}")
        ]


def test_autogen_alone_writes_no_rate_over_tool_steps_without_results() -> None:
    """AutoGen's execute_tool spans never carry the result and nothing else shows it."""
    for mode in ("grounded", "hallucinated"):
        enriched = replay(capture("autogen-builtin", mode))
        assert {name: outcome(a) for name, a in enriched.items()} == {
            "invoke_agent weather_agent": (
                None,
                "partial",
                False,
                f"{OUTPUT_UNAVAILABLE},{EVIDENCE_UNAVAILABLE}",
            )
        }


def test_crewai_openllmetry_never_rates_or_flags_a_trace_without_tool_steps() -> None:
    """CrewAI under OpenLLMetry: tools declared on the agent, no tool or LLM span at all."""
    for mode in ("grounded", "hallucinated"):
        enriched = replay(capture("crewai-openllmetry", mode))
        assert enriched  # the agent run is graded (its wrappers are the lifecycle's business)
        assert "What is the weather in Paris?.task" not in enriched  # a task is never a run
        for attributes in enriched.values():
            assert attr.RATE not in attributes
            assert attributes[attr.GRADE] == "partial"
            assert attributes[attr.BELOW_THRESHOLD] is False
            assert EVIDENCE_UNAVAILABLE in attributes[attr.COVERAGE_REASON].split(",")


def test_autogen_openinference_agent_span_reads_every_form_of_the_result() -> None:
    """The AGENT span ends after its local root (a lifecycle matter); when it ends before, its
    subtree's evidence is complete: a result-less execute_tool, a TOOL span with the output and
    AutoGen's function message in the LLM input are one call."""
    expected_by_mode = {
        "grounded": (1.0, "full", False, None),
        "hallucinated": (0.5, "full", True, None),
    }
    for mode, expected in expected_by_mode.items():
        spans = capture("autogen-openinference", mode)
        root = next(s for s in spans if s.local_root and s.name.startswith("invoke_agent"))
        enriched = replay([s for s in spans if s is not root])
        agent = enriched["weather_agent.on_messages_stream"]
        assert outcome(agent) == expected
        assert agent[attr.EVIDENCE_SOURCES] == 1


def test_llamaindex_openllmetry_reads_task_spans_by_their_output() -> None:
    spans = capture("llamaindex-openllmetry", "grounded")
    found = [(s.name, read_span(s, DEFAULT_CONVENTIONS)) for s in spans]
    tools = [(name, r.text, r.call_id) for name, r in found if r is not None and r.role == TOOL]
    assert tools == [
        ("FunctionTool.task", WEATHER, None),  # ToolOutput
        ("BaseWorkflowAgent.task", WEATHER, "call_1"),  # ToolCallResult
    ]
    answers = [r.text for _, r in found if r is not None and r.role == LLM]
    assert answers == [GROUNDED]  # the last step's {"result": AgentOutput}
    # The workflow span ends before its last steps start: replayed without the processor's
    # wait for an answer (tests/test_lifecycle.py), it finds nothing and says so.
    (enriched,) = replay(spans).values()
    assert outcome(enriched) == (None, "partial", False, OUTPUT_UNAVAILABLE)


# ------------------------------------------------------------------------------ framework-free
HALLUCINATED = GROUNDED + " Tomorrow a violent thunderstorm will flood the Louvre museum basement."


def span(
    span_id: int, parent_id: int | None, attributes: Mapping[str, Any], *, name: str = "span"
) -> SpanView:
    return view(
        attributes, name=name, span_id=span_id, parent_id=parent_id, local_root=parent_id is None
    )


def genai_run(answer: str, **extra: Any) -> SpanView:
    messages = [{"role": "assistant", "parts": [{"type": "text", "content": answer}]}]
    return span(
        1,
        None,
        {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "a",
            "gen_ai.output.messages": json.dumps(messages),
            **extra,
        },
        name="run",
    )


def chat(span_id: int, *, calls: Sequence[str] = (), results: Mapping[str, str] = {}) -> SpanView:
    """A GenAI chat span asking for `calls`, having received `results` (call id -> text)."""
    inputs: list[dict[str, Any]] = [{"role": "user", "parts": [{"type": "text", "content": "q"}]}]
    for call, text in results.items():
        inputs.append(
            {
                "role": "tool",
                "parts": [{"type": "tool_call_response", "id": call, "response": text}],
            }
        )
    parts: list[dict[str, Any]] = [
        {"type": "tool_call", "id": call, "name": "get_weather"} for call in calls
    ] or [{"type": "text", "content": "thinking"}]
    return span(
        span_id,
        1,
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.input.messages": json.dumps(inputs),
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": parts}]),
        },
        name=f"chat {span_id}",
    )


def tool_span(span_id: int, call: str | None, result: str | None) -> SpanView:
    attributes: dict[str, Any] = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t"}
    if call is not None:
        attributes["gen_ai.tool.call.id"] = call
    if result is not None:
        attributes["gen_ai.tool.call.result"] = result
    return span(span_id, 1, attributes, name=f"tool {span_id}")


def test_tools_ran_and_no_output_readable_writes_no_rate_and_never_flags() -> None:
    enriched = replay([chat(2, calls=["c1"]), tool_span(3, "c1", None), genai_run(HALLUCINATED)])
    assert outcome(enriched["run"]) == (None, "partial", False, EVIDENCE_UNAVAILABLE)
    assert enriched["run"][attr.CLAIMS_TOTAL] == 0


def test_calls_in_llm_outputs_alone_are_tool_activity() -> None:
    enriched = replay([chat(2, calls=["c1"]), chat(3), genai_run(GROUNDED)])
    assert outcome(enriched["run"]) == (None, "partial", False, EVIDENCE_UNAVAILABLE)


def test_some_outputs_missing_rates_what_was_read() -> None:
    spans = [chat(2, calls=["c1", "c2"]), chat(3, results={"c1": WEATHER}), genai_run(HALLUCINATED)]
    enriched = replay(spans)
    assert outcome(enriched["run"]) == (0.5, "partial", True, EVIDENCE_UNAVAILABLE)


def test_result_resent_in_every_later_input_is_one_source_and_one_call() -> None:
    spans = [
        chat(2, calls=["c1"]),
        chat(3, calls=["c2"], results={"c1": WEATHER}),
        chat(4, results={"c1": WEATHER, "c2": "Lyon: 20 degrees Celsius, sunny"}),
        genai_run(GROUNDED),
    ]
    enriched = replay(spans)
    assert outcome(enriched["run"]) == (1.0, "full", False, None)
    assert enriched["run"][attr.EVIDENCE_SOURCES] == 2


def test_tool_span_and_input_result_of_one_call_are_one_source() -> None:
    spans = [chat(2, calls=["c1"]), tool_span(3, "c1", WEATHER), chat(4, results={"c1": WEATHER})]
    enriched = replay([*spans, genai_run(GROUNDED)])
    assert outcome(enriched["run"]) == (1.0, "full", False, None)
    assert enriched["run"][attr.EVIDENCE_SOURCES] == 1


def test_tool_span_without_result_is_covered_by_the_llm_input() -> None:
    spans = [chat(2, calls=["c1"]), tool_span(3, "c1", None), chat(4, results={"c1": WEATHER})]
    enriched = replay([*spans, genai_run(HALLUCINATED)])
    assert outcome(enriched["run"]) == (0.5, "full", True, None)


def test_legacy_prompt_attributes_carry_tool_results_without_ids() -> None:
    def legacy_chat(span_id: int, with_result: bool) -> SpanView:
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.prompt.0.role": "user",
            "gen_ai.prompt.0.content": "What is the weather?",
            "gen_ai.completion.0.role": "assistant",
            "gen_ai.completion.0.content": "thinking",
        }
        if with_result:
            attributes["gen_ai.prompt.1.role"] = "tool"
            attributes["gen_ai.prompt.1.content"] = WEATHER
        return span(span_id, 1, attributes, name=f"chat {span_id}")

    enriched = replay([legacy_chat(2, True), legacy_chat(3, True), genai_run(HALLUCINATED)])
    assert outcome(enriched["run"]) == (0.5, "full", True, None)
    assert enriched["run"][attr.EVIDENCE_SOURCES] == 1  # resent, not a second source


def test_system_user_and_assistant_messages_are_never_evidence() -> None:
    inputs = [
        {"role": "system", "parts": [{"type": "text", "content": WEATHER}]},
        {"role": "user", "parts": [{"type": "text", "content": WEATHER}]},
        {"role": "assistant", "parts": [{"type": "text", "content": WEATHER}]},
    ]
    attributes = {"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps(inputs)}
    step = span(2, 1, attributes)
    reading = read_span(step, DEFAULT_CONVENTIONS)
    assert reading is not None and reading.input_tool_results == ()
    enriched = replay([step, genai_run(GROUNDED)])
    assert outcome(enriched["run"]) == (0.0, "full", True, None)


def test_tools_declared_but_no_step_traced_writes_no_rate() -> None:
    tools = json.dumps([{"name": "get_weather", "description": "weather"}])
    agent = span(
        1,
        None,
        {
            "traceloop.span.kind": "agent",
            "traceloop.entity.name": "a",
            "traceloop.entity.output": json.dumps(HALLUCINATED),
            "crewai.agent.tools": tools,
        },
        name="a.agent",
    )
    assert outcome(replay([agent])["a.agent"]) == (None, "partial", False, EVIDENCE_UNAVAILABLE)
    no_tools = span(1, None, {**agent.attributes, "crewai.agent.tools": "[]"}, name="a.agent")
    assert outcome(replay([no_tools])["a.agent"]) == (0.0, "full", True, None)


def test_no_tool_call_where_it_would_be_visible_pages() -> None:
    """Tools were available, the LLM steps were read, none asked for a tool: it used none."""
    definitions = json.dumps([{"name": "get_weather", "type": "function"}])
    run = genai_run(GROUNDED, **{"gen_ai.tool.definitions": definitions})
    enriched = replay([chat(2), run])
    assert outcome(enriched["run"]) == (0.0, "full", True, None)


def test_native_declared_tool_steps_without_any_output_write_no_rate() -> None:
    run = span(
        1,
        None,
        {"ferrumdeck.run.output": HALLUCINATED, "ferrumdeck.run.tool_steps": 2},
        name="native",
    )
    assert outcome(replay([run])["native"]) == (
        None,
        "partial",
        False,
        f"{EVIDENCE_UNAVAILABLE},{attr.REASON_TOOL_STEPS_MISSING}",
    )
    step = span(
        2, 1, {"ferrumdeck.step.type": "tool", "ferrumdeck.step.output": WEATHER}, name="step"
    )
    assert outcome(replay([step, run])["native"]) == (
        0.5,
        "partial",
        True,
        attr.REASON_TOOL_STEPS_MISSING,
    )


# ------------------------------------------------------------------------------ implicit runs
def chain(span_id: int, parent_id: int | None, output: str | None = None) -> SpanView:
    attributes: dict[str, Any] = {"openinference.span.kind": "CHAIN"}
    if output is not None:
        attributes["output.value"] = output
    return span(span_id, parent_id, attributes, name=f"chain {span_id}")


def oi_llm(span_id: int, parent_id: int, answer: str, tools: bool = True) -> SpanView:
    attributes: dict[str, Any] = {
        "openinference.span.kind": "LLM",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": answer,
    }
    if tools:
        attributes["llm.tools.0.tool.json_schema"] = '{"name": "get_weather"}'
    return span(span_id, parent_id, attributes, name=f"llm {span_id}")


def oi_tool(span_id: int, parent_id: int) -> SpanView:
    attributes = {"openinference.span.kind": "TOOL", "output.value": WEATHER}
    return span(span_id, parent_id, attributes, name=f"tool {span_id}")


def test_chain_rooted_trace_is_one_implicit_run() -> None:
    spans = [oi_tool(3, 2), oi_llm(4, 2, HALLUCINATED), chain(2, 1), chain(1, None)]
    enriched = replay(spans)
    assert list(enriched) == ["chain 1"]  # the local root, once
    assert outcome(enriched["chain 1"]) == (0.5, "full", True, None)
    assert enriched["chain 1"][attr.CONVENTION] == "openinference"


def test_implicit_run_takes_its_own_output_when_it_is_text() -> None:
    spans = [oi_tool(3, 1), oi_llm(4, 1, "Done."), chain(1, None, output=HALLUCINATED)]
    assert outcome(replay(spans)["chain 1"]) == (0.5, "full", True, None)
    for not_text in (
        "StopEvent(result=AgentOutput(response=ChatMessage(...",  # a Python repr
        json.dumps({"query": "weather", "steps": 2}),  # JSON holding no message
    ):
        spans = [oi_tool(3, 1), oi_llm(4, 1, GROUNDED), chain(1, None, output=not_text)]
        assert outcome(replay(spans)["chain 1"]) == (1.0, "full", False, None)  # last LLM answer


def test_trace_with_a_run_has_no_implicit_run() -> None:
    agent = span(2, 1, {"openinference.span.kind": "AGENT", "agent.name": "a"}, name="agent")
    spans = [oi_tool(3, 2), oi_llm(4, 2, GROUNDED), agent, chain(1, None)]
    assert list(replay(spans)) == ["agent"]


def test_llm_steps_without_tools_are_no_implicit_run() -> None:
    """A plain chat or RAG chain: no tool step, no tool call, no tool declared."""
    assert replay([oi_llm(2, 1, GROUNDED, tools=False), chain(1, None)]) == {}
    bare_llm = span(1, None, dict(oi_llm(1, 1, GROUNDED).attributes), name="llm")
    assert replay([bare_llm]) == {}  # a root that is itself an LLM step is not a run


# ------------------------------------------------------------------------------ payload shapes
ADK_EVENT = {
    "content": {"parts": [{"text": GROUNDED}], "role": "model"},
    "author": "weather_agent",
    "invocation_id": "e-1",
}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(
            {"role": "model", "parts": [{"text": GROUNDED}]}, GROUNDED, id="genai-content"
        ),
        pytest.param(ADK_EVENT, GROUNDED, id="adk-event"),
        pytest.param(
            {"role": "model", "parts": [{"text": "hmm", "thought": True}, {"text": GROUNDED}]},
            GROUNDED,
            id="thought-part-skipped",
        ),
        pytest.param(
            {"content": {"role": "model", "parts": [{"function_call": {"name": "g"}}]}},
            None,
            id="adk-event-function-call",
        ),
        pytest.param(
            {"raw": GROUNDED, "output_format": "raw", "messages": [], "agent": "a"},
            GROUNDED,
            id="crewai-taskoutput",
        ),
        pytest.param(
            {"role": "assistant", "blocks": [{"block_type": "text", "text": GROUNDED}]},
            GROUNDED,
            id="llamaindex-chatmessage",
        ),
        pytest.param(
            {"result": {"response": {"role": "assistant", "blocks": [{"text": GROUNDED}]}}},
            GROUNDED,
            id="llamaindex-agentoutput-result",
        ),
        pytest.param([{"text": GROUNDED}], GROUNDED, id="strands-blocks"),
        pytest.param([{"toolUse": {"toolUseId": "t", "name": "g"}}], None, id="strands-tool-use"),
        pytest.param("AgentOutput(response=ChatMessage(role='assistant'", None, id="python-repr"),
    ],
)
def test_answer_shapes(payload: Any, expected: str | None) -> None:
    value = payload if isinstance(payload, str) else json.dumps(payload)
    assert payloads.answer_text(value) == expected


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(
            {"blocks": [{"text": WEATHER}], "tool_name": "g", "raw_output": "x", "is_error": False},
            WEATHER,
            id="llamaindex-tooloutput",
        ),
        pytest.param(
            {
                "tool_name": "g",
                "tool_id": "c",
                "tool_output": {"tool_name": "g", "raw_output": WEATHER},
            },
            WEATHER,
            id="llamaindex-toolcallresult",
        ),
        pytest.param([{"text": WEATHER}], WEATHER, id="strands-blocks"),
        pytest.param(f"status='success' result='{WEATHER}' error=None", WEATHER, id="agno-repr"),
        pytest.param(
            json.dumps(f"status='success' result='{WEATHER}' error=None"),
            WEATHER,
            id="agno-repr-json-quoted",
        ),
        pytest.param("ToolOutput(content='x', tool_name='g')", None, id="python-repr-unreadable"),
        pytest.param("x=5 is all it said", "x=5 is all it said", id="prose-with-equals"),
    ],
)
def test_tool_result_shapes(payload: Any, expected: str | None) -> None:
    value = payload if isinstance(payload, str) else json.dumps(payload)
    assert payloads.tool_text(value) == expected


def test_adk_legacy_schema_is_read() -> None:
    """`ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1`: `call_llm` spans carry no operation name."""
    request = {
        "model": "m",
        "contents": [
            {"role": "user", "parts": [{"text": "What is the weather?"}]},
            {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "get_weather"}}]},
            {
                "role": "user",
                "parts": [
                    {
                        "function_response": {
                            "id": "c1",
                            "name": "g",
                            "response": {"result": WEATHER},
                        }
                    }
                ],
            },
        ],
    }
    llm = span(
        2,
        1,
        {
            "gen_ai.system": "gcp.vertex.agent",
            "gcp.vertex.agent.llm_request": json.dumps(request),
            "gcp.vertex.agent.llm_response": json.dumps(ADK_EVENT),
        },
        name="call_llm",
    )
    reading = read_span(llm, DEFAULT_CONVENTIONS)
    assert reading is not None and reading.role == LLM and reading.text == GROUNDED
    assert reading.input_tool_results == (
        payloads.ToolResult("c1", json.dumps({"result": WEATHER})),
    )
    tool = span(
        3,
        1,
        {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "get_weather",
            "gen_ai.tool.call.id": "c1",
            "gcp.vertex.agent.tool_response": json.dumps({"result": WEATHER}),
            "gcp.vertex.agent.llm_response": "{}",
        },
    )
    tool_reading = read_span(tool, DEFAULT_CONVENTIONS)
    assert tool_reading is not None and tool_reading.role == TOOL
    assert tool_reading.text == json.dumps({"result": WEATHER}) and tool_reading.call_id == "c1"
    off = span(2, 1, {"gcp.vertex.agent.llm_request": "{}", "gcp.vertex.agent.llm_response": "{}"})
    off_reading = read_span(off, DEFAULT_CONVENTIONS)
    assert off_reading is not None and off_reading.text is None  # content off: not captured
    hidden = span(3, 1, {**tool.attributes, "gcp.vertex.agent.tool_response": "{}"})
    hidden_reading = read_span(hidden, DEFAULT_CONVENTIONS)
    assert hidden_reading is not None and hidden_reading.text is None


@pytest.mark.parametrize(
    ("counter", "expected"),
    [
        pytest.param({"run_tool_call_count": {"get_weather": 2, "other": 1}}, 3, id="by-tool"),
        pytest.param({"tool_call_counts": {"get_weather": 1}}, 1, id="tool_call_counts"),
        pytest.param({"tool_call_count": 4}, 4, id="a-count"),
        pytest.param({"messages": []}, None, id="no-counter"),
    ],
)
def test_framework_tool_call_counters(counter: Mapping[str, Any], expected: int | None) -> None:
    assert payloads.tool_call_count(json.dumps(counter)) == expected


def test_framework_counter_without_any_output_writes_no_rate() -> None:
    state = {
        "messages": [{"type": "ai", "data": {"content": HALLUCINATED}}],
        "run_tool_call_count": {"get_weather": 1},
    }
    agent = span(
        1, None, {"openinference.span.kind": "AGENT", "output.value": json.dumps(state)}, name="a"
    )
    enriched = replay([agent])["a"]
    assert outcome(enriched) == (
        None,
        "partial",
        False,
        f"{EVIDENCE_UNAVAILABLE},{attr.REASON_TOOL_STEPS_MISSING}",
    )


# ------------------------------------------------------------------------------ through the SDK
def sdk_replay(spans: Sequence[SpanView]) -> dict[str, Mapping[str, Any]]:
    """Re-emit a capture's span tree through a real TracerProvider and GroundingSpanProcessor
    (children end before their parents, siblings in the order they ended) and return the
    exported spans' attributes of the graded ones, by name."""
    pipeline = Pipeline(min_claim_grounding_rate=0.7)
    children: dict[int | None, list[SpanView]] = {}
    ids = {s.span_id for s in spans}
    for s in spans:
        children.setdefault(s.parent_id if s.parent_id in ids else None, []).append(s)

    def emit(node: SpanView) -> None:
        with pipeline.tracer.start_as_current_span(node.name, attributes=node.attributes) as live:
            for event in node.events:
                live.add_event(event.name, attributes=dict(event.attributes or {}))
            for child in children.get(node.span_id, []):
                emit(child)

    for root in children.get(None, []):
        emit(root)
    return {
        s.name: s.attributes
        for s in pipeline.spans()
        if s.attributes is not None and attr.GRADE in s.attributes
    }


@pytest.mark.parametrize(("scenario", "run"), SCORED)
def test_real_trace_through_the_sdk(scenario: str, run: str) -> None:
    grounded = sdk_replay(capture(scenario, "grounded"))
    assert list(grounded) == [run]
    assert outcome(grounded[run]) == (1.0, "full", False, None)
    hallucinated = sdk_replay(capture(scenario, "hallucinated"))
    assert list(hallucinated) == [run]
    assert outcome(hallucinated[run]) == (0.5, "full", True, None)


@pytest.mark.parametrize(
    ("messages", "results", "calls"),
    [
        pytest.param(
            [
                {"role": "model", "parts": [{"function_call": {"id": "a", "name": "g"}}]},
                {
                    "role": "user",
                    "parts": [{"function_response": {"id": "a", "response": WEATHER}}],
                },
            ],
            [payloads.ToolResult("a", WEATHER)],
            ["a"],
            id="google-genai-contents",
        ),
        pytest.param(
            [
                {"role": "assistant", "parts": [{"type": "tool_call", "id": "b", "name": "g"}]},
                {
                    "role": "tool",
                    "parts": [{"type": "tool_call_response", "id": "b", "response": WEATHER}],
                },
            ],
            [payloads.ToolResult("b", WEATHER)],
            ["b"],
            id="genai-messages",
        ),
        pytest.param(
            {
                "messages": [
                    {
                        "role": "tool",
                        "tool_call_id": "c",
                        "content": [{"type": "text", "text": WEATHER}],
                    }
                ]
            },
            [payloads.ToolResult("c", WEATHER)],
            [],
            id="openai-tool-message-content-blocks",
        ),
    ],
)
def test_tool_traffic_shapes(messages: Any, results: list[Any], calls: list[Any]) -> None:
    assert payloads.tool_results(json.dumps(messages)) == results
    assert payloads.tool_calls(json.dumps(messages)) == calls


# ------------------------------------------------------------------------------ LiteLLM
RUN_SPAN = "invoke_agent weather_agent"


def _reading(scenario: str, name: str, index: int = -1) -> Any:
    spans = [s for s in capture(scenario, "grounded") if s.name == name]
    return read_span(spans[index], DEFAULT_CONVENTIONS)


@pytest.mark.parametrize("scenario", ["litellm-default", "litellm-default-async"])
def test_litellm_call_written_onto_the_app_span_is_still_the_run(scenario: str) -> None:
    """Class 3: LiteLLM's default overwrites the run span's operation name (`chat`,
    `acompletion`) and puts the last call there: the span is still the run, its answer the
    call's output, its evidence the tool result in the call's input."""
    (span,) = [s for s in capture(scenario, "grounded") if s.name == RUN_SPAN]
    assert span.attributes["gen_ai.operation.name"] in ("chat", "acompletion")
    reading = read_span(span, DEFAULT_CONVENTIONS)
    assert reading is not None and reading.role == RUN
    assert (reading.agent, reading.text) == ("weather_agent", GROUNDED)
    assert reading.attached_sources == (WEATHER,)


@pytest.mark.parametrize(
    "scenario", ["litellm-request-span", "litellm-request-span-async", "litellm-request-span-latest"]
)
def test_litellm_request_spans_show_the_call_and_its_result(scenario: str) -> None:
    """Classes 1 and 2: the first call's output has `parts: []` and `finish_reason:
    tool_calls` (plus the legacy `function_call.*`): one call, unnamed; the second call's input
    holds the result as a `text` part of a `tool` message, the call id on the message."""
    spans = capture(scenario, "grounded")
    llms = [r for r in (read_span(s, DEFAULT_CONVENTIONS) for s in spans) if r and r.role == LLM]
    assert [r.tool_calls for r in llms] == [(None,), ()]
    assert [r.input_tool_results for r in llms] == [(), (payloads.ToolResult("call_1", WEATHER),)]


def test_litellm_tool_call_with_its_result_dropped_is_never_answered_with_no_tools() -> None:
    """Class 2: the run showed a tool call and no result can be read anywhere: no rate, never
    the "answered with no tools" 0.0 `full` flagged."""
    for mode in ("grounded", "hallucinated"):
        spans = []
        for span in capture("litellm-request-span", mode):
            value = span.attributes.get("gen_ai.input.messages")
            if isinstance(value, str) and '"tool"' in value:
                messages = [m for m in json.loads(value) if m["role"] != "tool"]
                attributes = {**span.attributes, "gen_ai.input.messages": json.dumps(messages)}
                span = span._replace(attributes=attributes)
            spans.append(span)
        enriched = replay(spans)
        assert outcome(enriched[RUN_SPAN]) == (None, "partial", False, EVIDENCE_UNAVAILABLE)


def test_litellm_run_span_that_ended_before_the_last_call_was_logged() -> None:
    """Async: the run span ended before LiteLLM logged the last call, so it holds the first
    call alone (a tool call, no answer, no result): no rate, no flag, both reasons named."""
    for mode in ("grounded", "hallucinated"):
        enriched = replay(capture("litellm-default-async-unlogged", mode))
        assert {name: outcome(a) for name, a in enriched.items()} == {
            RUN_SPAN: (None, "partial", False, f"{OUTPUT_UNAVAILABLE},{EVIDENCE_UNAVAILABLE}")
        }


def test_litellm_streamed_calls_are_traces_of_their_own() -> None:
    """Streaming: LiteLLM logs each call as the root of a trace of its own (context lost).
    The run span holds nothing (no rate, no flag); the calls' traces are not runs."""
    for mode in ("grounded", "hallucinated"):
        spans = capture("litellm-stream", mode)
        requests = [s for s in spans if s.name == "litellm_request"]
        assert len(requests) == 2 and all(s.parent_id is None for s in requests)
        (run,) = [s for s in spans if s.name == RUN_SPAN]
        assert all(s.trace_id != run.trace_id for s in requests)
        enriched = replay(spans)
        assert {name: outcome(a) for name, a in enriched.items()} == {
            RUN_SPAN: (None, "partial", False, OUTPUT_UNAVAILABLE)
        }


@pytest.mark.parametrize("instrumentation", ["openinference", "langfuse"])
def test_graph_node_named_agent_is_a_step_of_the_graph_run(instrumentation: str) -> None:
    """Class 5: LangChain labels a graph node AGENT (Langfuse: `agent`) because its name holds
    "agent"; it carries the graph's `langgraph_node` and no agent identity of its own: a step
    of the graph's run, not a run per node visit. One request, one graded run."""
    spans = capture(f"langgraph-node-agent-{instrumentation}", "grounded")
    nodes = [s for s in spans if s.name == "research_agent"]
    assert len(nodes) == 2  # the node ran twice: the tool call, then the answer
    kind = nodes[0].attributes.get(
        "openinference.span.kind", nodes[0].attributes.get("langfuse.observation.type")
    )
    assert kind in ("AGENT", "agent")
    assert all(read_span(node, DEFAULT_CONVENTIONS) is None for node in nodes)
