"""Real framework traces, replayed through the pipeline, and the evidence policy they need.

The captures under tests/frameworks/captures/real/ are raw span dumps (no grounding processor)
of real frameworks run offline with a scripted model and one tool, `get_weather`, returning
"Paris: 18 degrees Celsius, light rain": `<scenario>-grounded.json` answers from the tool,
`<scenario>-hallucinated.json` adds an unsupported sentence. Spans are listed in the order
they ended. Frameworks and instrumentations (as named by the scenario):

- `adk-builtin`: Google ADK 2.x built-in tracing (with the Google GenAI instrumentation and
  `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY`); `adk-openinference`.
- `autogen-builtin` (AgentChat alone), `autogen-genai` (+ openai-v2), `autogen-openinference`.
- `crewai-openinference`, `crewai-openllmetry`.
- `llamaindex-openinference` (`FunctionAgent`, no AGENT span: an implicit run),
  `llamaindex-openllmetry`.
- `openai-loop-genai`, `openai-loop-openinference`: a hand-rolled loop on the `openai` client,
  the app creating only the `invoke_agent` span (`-tool-span`: and an `execute_tool` span).
- `strands-default`, `strands-latest` (`OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`),
  `strands-latest-span-attributes` (`...,gen_ai_span_attributes_only`).
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
from otel_grounding.spanview import SpanView

REAL = Path(__file__).parent / "frameworks" / "captures" / "real"
WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
EVIDENCE_UNAVAILABLE = attr.REASON_EVIDENCE_UNAVAILABLE
OUTPUT_UNAVAILABLE = attr.REASON_OUTPUT_UNAVAILABLE


class Event:
    def __init__(self, name: str, attributes: Mapping[str, Any]) -> None:
        self.name = name
        self.attributes = attributes


def capture(scenario: str, mode: str) -> list[SpanView]:
    spans = json.loads((REAL / f"{scenario}-{mode}.json").read_text())
    return [
        SpanView(
            trace_id=int(s["trace_id"], 16),
            span_id=int(s["span_id"], 16),
            parent_id=int(s["parent_id"], 16) if s["parent_id"] else None,
            name=s["name"],
            attributes=s["attributes"],
            events=tuple(Event(e["name"], e["attributes"]) for e in s["events"]),
            resource=s["resource"],
            local_root=s["parent_id"] is None,
        )
        for s in spans
    ]


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
    relay = GroundingPipeline(pipeline.settings, link_all=True, trace_retention=60)
    written = [relay.process(span) for span in capture("llamaindex-openinference", "grounded")]
    assert all(e is None or attr.GRADE not in e.attributes for e in written)


# ------------------------------------------------------------------------------ honest when blind
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
    for mode, expected in (("grounded", (1.0, "full", False, None)), ("hallucinated", (0.5, "full", True, None))):
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
    # The workflow span ends before its steps: in process it finds nothing and says so.
    (enriched,) = replay(spans).values()
    assert outcome(enriched) == (None, "partial", False, OUTPUT_UNAVAILABLE)
