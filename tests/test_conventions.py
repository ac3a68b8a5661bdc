"""Convention adapters: real captured traces and hand-written shapes, read through `SpanView`.

The captures under tests/frameworks/captures/ were recorded from the real frameworks offline
(`python tests/frameworks/scenarios.py NAME --raw`, versions pinned in the `frameworks` extra).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.conventions import payloads
from otel_grounding.conventions.base import LLM, OTHER, RUN, TOOL, SpanReading, read_span
from otel_grounding.conventions.genai import GenAIConvention
from otel_grounding.conventions.langfuse import LangfuseConvention
from otel_grounding.conventions.native import NativeConvention
from otel_grounding.conventions.openinference import OpenInferenceConvention
from otel_grounding.conventions.openllmetry import OpenLLMetryConvention
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.spanview import SpanView

from span_dumps import view, view_of

CAPTURES = Path(__file__).parent / "frameworks" / "captures"
WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
HALLUCINATED = (
    "The weather in Paris is 18 degrees Celsius with light rain. "
    "Tomorrow a violent thunderstorm will flood the Louvre museum basement."
)

GENAI = GenAIConvention()
OPENINFERENCE = OpenInferenceConvention()
OPENLLMETRY = OpenLLMetryConvention()
LANGFUSE = LangfuseConvention()
#: The proposed DEFAULT_CONVENTIONS: explicit native first, dialects with their own marker next,
#: the generic gen_ai.* last (OpenLLMetry and others also write gen_ai.* beside their own).
ORDER = (NativeConvention(), OPENINFERENCE, OPENLLMETRY, LANGFUSE, GENAI)


def captured(name: str, label: str = "grounded") -> list[SpanView]:
    data = json.loads((CAPTURES / f"{name}.json").read_text())
    return [view_of(s) for s in data[label]]


def readings(spans: list[SpanView]) -> list[tuple[str, SpanReading]]:
    found = []
    for span in spans:
        reading = read_span(span, ORDER)
        if reading is not None:
            found.append((span.name, reading))
    return found


def of_role(spans: list[SpanView], role: str) -> list[tuple[str, SpanReading]]:
    return [(name, r) for name, r in readings(spans) if r.role == role]


# ------------------------------------------------------------------------------ captures
def test_pydantic_ai_capture() -> None:
    spans = captured("pydantic-ai")
    (run,) = of_role(spans, RUN)
    assert run[0] == "invoke_agent weather_agent"
    assert run[1].convention == "genai" and run[1].agent == "weather_agent"
    assert run[1].text == GROUNDED  # final_result
    assert run[1].run_id  # gen_ai.agent.call.id ties the steps to the run
    (tool,) = of_role(spans, TOOL)
    assert tool[1].text == WEATHER and tool[1].run_id == run[1].run_id
    llm_texts = [r.text for _, r in of_role(spans, LLM)]
    assert llm_texts == [None, GROUNDED]  # the first chat only called the tool
    assert "final_result" in run[1].content_keys


def test_pydantic_ai_without_content_is_not_captured() -> None:
    spans = captured("pydantic-ai-no-content")
    (run,) = of_role(spans, RUN)
    # pydantic_ai.all_messages is there, its text parts carry no content: not an answer.
    assert run[1].text is None and not run[1].redacted
    (tool,) = of_role(spans, TOOL)
    assert tool[1].text is None
    assert all(r.text is None for _, r in of_role(spans, LLM))


@pytest.mark.parametrize("label", ["grounded", "hallucinated"])
def test_langchain_openinference_capture(label: str) -> None:
    spans = captured("langchain-openinference", label)
    (run,) = of_role(spans, RUN)
    assert run[0] == "weather_agent"
    assert run[1].convention == "openinference" and run[1].agent == "weather_agent"
    # output.value is the whole LangGraph state: human, ai(tool call), tool, ai(answer).
    assert run[1].text == (GROUNDED if label == "grounded" else HALLUCINATED)
    (tool,) = of_role(spans, TOOL)
    assert tool[0] == "get_weather" and tool[1].text == WEATHER
    assert [r.text for _, r in of_role(spans, LLM)][-1] == run[1].text
    # graph nodes (CHAIN "model", "tools") are neither runs nor steps
    assert {name for name, _ in readings(spans)} == {
        "weather_agent",
        "get_weather",
        "FakeToolChatModel",
    }


def test_langchain_openinference_hidden_outputs_are_redacted() -> None:
    spans = captured("langchain-openinference-hidden")
    for _, reading in readings(spans):
        assert reading.redacted and reading.text is None


def test_langchain_genai_capture() -> None:
    spans = captured("langchain-genai")
    (run,) = of_role(spans, RUN)
    assert run[1].convention == "genai" and run[1].agent == "weather_agent"
    assert run[1].text == GROUNDED
    (tool,) = of_role(spans, TOOL)
    assert tool[1].text == WEATHER


def test_langchain_genai_without_capture_switch() -> None:
    spans = captured("langchain-genai-no-content")
    (run,) = of_role(spans, RUN)
    (tool,) = of_role(spans, TOOL)
    assert run[1].text is None and tool[1].text is None


def test_langchain_openllmetry_capture_double_invoke_agent() -> None:
    spans = captured("langchain-openllmetry")
    runs = of_role(spans, RUN)
    # OpenLLMetry writes two runs for one LangGraph run, both of the same agent: the outer
    # GenAI invoke_agent without content and the inner workflow span with the state.
    assert [(name, r.convention, r.agent, r.text) for name, r in runs] == [
        ("weather_agent.workflow", "openllmetry", "weather_agent", GROUNDED),
        ("invoke_agent weather_agent", "genai", "weather_agent", None),
    ]
    (tool,) = of_role(spans, TOOL)
    # traceloop.entity.output is {"output": <serialised ToolMessage>, "kwargs": {...}}
    assert tool[1].convention == "openllmetry" and tool[1].text == WEATHER
    # the chat spans, and the graph's model node: a task whose output is an assistant message
    assert [(name, r.text) for name, r in of_role(spans, LLM)] == [
        ("FakeToolChatModel.chat", None),
        ("FakeToolChatModel.chat", GROUNDED),
        ("execute_task model", GROUNDED),
    ]
    # create_agent spans and the other graph nodes (tasks) are not read
    assert not any(
        name.startswith("create_agent") or name == "execute_task tools"
        for name, _ in readings(spans)
    )


def test_langchain_openllmetry_without_content() -> None:
    spans = captured("langchain-openllmetry-no-content")
    assert all(r.text is None for _, r in readings(spans))


def test_openai_agents_openinference_capture() -> None:
    spans = captured("openai-agents-openinference")
    runs = of_role(spans, RUN)
    # the trace root (AGENT "Agent workflow", no agent name) wraps the agent's own AGENT span;
    # neither carries output: the answer is the last LLM step's text.
    assert [(name, r.agent, r.text) for name, r in runs] == [
        ("weather_agent", "weather_agent", None),
        ("Agent workflow", None, None),
    ]
    (tool,) = of_role(spans, TOOL)
    assert tool[1].text == WEATHER
    assert [r.text for _, r in of_role(spans, LLM)] == [None, GROUNDED]


def test_langchain_langfuse_capture() -> None:
    spans = captured("langchain-langfuse")
    (run,) = of_role(spans, RUN)
    assert run[1].convention == "langfuse" and run[1].agent == "weather_agent"
    assert run[1].text == GROUNDED
    (tool,) = of_role(spans, TOOL)
    assert tool[1].text == WEATHER
    assert [r.text for _, r in of_role(spans, LLM)] == [None, GROUNDED]


REPLAYS = [
    ("pydantic-ai", "invoke_agent weather_agent"),
    ("langchain-openinference", "weather_agent"),
    ("langchain-genai", "invoke_agent weather_agent"),
    ("langchain-openllmetry", "weather_agent.workflow"),
    ("langchain-langfuse", "weather_agent"),
    ("openai-agents-openinference", "weather_agent"),
]


def replay(name: str, label: str) -> dict[str, Mapping[str, Any]]:
    """Every enriched span's new attributes, by span name, after replaying a capture in order."""
    pipeline = GroundingPipeline.configure(min_claim_grounding_rate=0.7, conventions=ORDER)
    out: dict[str, Mapping[str, Any]] = {}
    for span in captured(name, label):
        enrichment = pipeline.process(span)
        if enrichment is not None and enrichment.attributes:
            assert span.name not in out
            out[span.name] = enrichment.attributes
    return out


@pytest.mark.parametrize(("name", "run_span"), REPLAYS)
def test_replayed_capture_scores_the_run_once(name: str, run_span: str) -> None:
    grounded = replay(name, "grounded")
    assert list(grounded) == [run_span]  # nested runs of the same agent: scored once
    assert grounded[run_span][attr.RATE] == 1.0
    assert grounded[run_span][attr.GRADE] == "full"
    assert grounded[run_span][attr.BELOW_THRESHOLD] is False
    hallucinated = replay(name, "hallucinated")[run_span]
    assert hallucinated[attr.RATE] == 0.5
    assert hallucinated[attr.BELOW_THRESHOLD] is True


@pytest.mark.parametrize(
    "name",
    ["pydantic-ai-no-content", "langchain-genai-no-content", "langchain-openinference-hidden"],
)
def test_replayed_capture_without_content_writes_no_rate(name: str) -> None:
    (enriched,) = replay(name, "grounded").values()
    assert attr.RATE not in enriched
    assert enriched[attr.GRADE] == "partial"
    assert enriched[attr.COVERAGE_REASON].split(",")[0] == attr.REASON_OUTPUT_UNAVAILABLE


# ------------------------------------------------------------------------------ payload shapes
GENAI_MESSAGES = json.dumps(
    [
        {"role": "user", "parts": [{"type": "text", "content": "What is the weather?"}]},
        {
            "role": "assistant",
            "parts": [
                {"type": "text", "content": "Let me check."},
                {"type": "tool_call", "id": "1", "name": "get_weather", "arguments": {"c": 1}},
            ],
        },
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "1", "response": WEATHER}]},
        {"role": "assistant", "parts": [{"type": "text", "content": GROUNDED}]},
    ]
)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(GENAI_MESSAGES, GROUNDED, id="genai-messages"),
        pytest.param(
            json.dumps(
                [
                    {
                        "role": "assistant",
                        "parts": [
                            {"type": "text", "content": "One."},
                            {"type": "text", "content": "Two."},
                        ],
                    }
                ]
            ),
            "One.\nTwo.",
            id="genai-several-text-parts",
        ),
        pytest.param(
            json.dumps([{"role": "assistant", "parts": [{"type": "tool_call", "name": "x"}]}]),
            None,
            id="genai-tool-call-only",
        ),
        pytest.param(
            json.dumps([{"role": "assistant", "parts": [{"type": "text"}]}]),
            None,
            id="genai-content-not-captured",
        ),
        pytest.param(
            json.dumps(
                [{"role": "user", "content": "hi"}, {"role": "assistant", "content": GROUNDED}]
            ),
            GROUNDED,
            id="openai-chat",
        ),
        pytest.param(
            json.dumps({"choices": [{"message": {"role": "assistant", "content": GROUNDED}}]}),
            GROUNDED,
            id="openai-chat-completion",
        ),
        pytest.param(
            json.dumps(
                {
                    "object": "response",
                    "output": [
                        {"type": "function_call", "name": "get_weather", "arguments": "{}"},
                        {
                            "type": "message",
                            "role": "assistant",
                            "content": [
                                {"type": "output_text", "text": GROUNDED, "annotations": []}
                            ],
                        },
                    ],
                }
            ),
            GROUNDED,
            id="openai-responses",
        ),
        pytest.param(
            json.dumps(
                {
                    "messages": [
                        {
                            "type": "human",
                            "data": {"content": "What is the weather?", "type": "human"},
                        },
                        {
                            "type": "ai",
                            "data": {"content": "", "tool_calls": [{"name": "get_weather"}]},
                        },
                        {"type": "tool", "data": {"content": WEATHER, "type": "tool"}},
                        {"type": "ai", "data": {"content": GROUNDED, "type": "ai"}},
                    ]
                }
            ),
            GROUNDED,
            id="langgraph-state-message-to-dict",
        ),
        pytest.param(
            json.dumps(
                [
                    {
                        "graph": None,
                        "update": {"messages": [{"type": "ai", "data": {"content": GROUNDED}}]},
                        "resume": None,
                        "goto": [],
                    }
                ]
            ),
            GROUNDED,
            id="langgraph-command-update",
        ),
        pytest.param(
            json.dumps(
                {
                    "outputs": {
                        "messages": [
                            {
                                "lc": 1,
                                "type": "constructor",
                                "id": ["langchain", "schema", "messages", "HumanMessage"],
                                "kwargs": {"content": "What is the weather?", "type": "human"},
                            },
                            {
                                "lc": 1,
                                "type": "constructor",
                                "id": ["langchain", "schema", "messages", "ToolMessage"],
                                "kwargs": {"content": WEATHER, "type": "tool"},
                            },
                            {
                                "lc": 1,
                                "type": "constructor",
                                "id": ["langchain", "schema", "messages", "AIMessage"],
                                "kwargs": {"content": GROUNDED, "type": "ai"},
                            },
                        ]
                    },
                    "kwargs": {"tags": []},
                }
            ),
            GROUNDED,
            id="openllmetry-outputs-dumpd",
        ),
        pytest.param(
            json.dumps(
                {
                    "generations": [
                        [
                            {
                                "text": GROUNDED,
                                "type": "ChatGeneration",
                                "message": {
                                    "lc": 1,
                                    "type": "constructor",
                                    "id": ["langchain", "schema", "messages", "AIMessage"],
                                    "kwargs": {"content": GROUNDED},
                                },
                            }
                        ]
                    ],
                    "llm_output": None,
                }
            ),
            GROUNDED,
            id="langchain-llmresult",
        ),
        pytest.param(
            json.dumps(
                {
                    "messages": [
                        {"content": "hi", "type": "human"},
                        {"content": [{"type": "text", "text": GROUNDED}], "type": "ai"},
                    ]
                }
            ),
            GROUNDED,
            id="langfuse-model-dump-content-blocks",
        ),
        pytest.param(json.dumps(GROUNDED), GROUNDED, id="json-quoted-string"),
        pytest.param(json.dumps({"input": "q", "output": GROUNDED}), GROUNDED, id="agentexecutor"),
        pytest.param(GROUNDED, GROUNDED, id="plain-text"),
        pytest.param("[1] is a footnote, not JSON", "[1] is a footnote, not JSON", id="not-json"),
        pytest.param(
            '{"city": "Paris", "temp": 18}',
            '{"city": "Paris", "temp": 18}',
            id="structured-output-stays-json",
        ),
        pytest.param(
            json.dumps(
                [
                    {"role": "user", "content": "What is the weather?"},
                    {"role": "tool", "content": WEATHER},
                ]
            ),
            None,
            id="envelope-without-assistant-is-no-answer",
        ),
        pytest.param({"summary": GROUNDED}, '{"summary": "' + GROUNDED + '"}', id="non-string"),
    ],
)
def test_answer_text_shapes(payload: Any, expected: str | None) -> None:
    assert payloads.answer_text(payload) == expected


def test_answer_never_includes_user_or_tool_messages() -> None:
    text = payloads.answer_text(GENAI_MESSAGES)
    assert text is not None
    assert "What" not in text and "Celsius," not in text and "get_weather" not in text


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(WEATHER, WEATHER, id="plain"),
        pytest.param(json.dumps(WEATHER), WEATHER, id="json-quoted"),
        pytest.param(
            json.dumps({"type": "tool", "data": {"content": WEATHER, "tool_call_id": "1"}}),
            WEATHER,
            id="openinference-tool-message",
        ),
        pytest.param(
            json.dumps(
                {
                    "output": {
                        "lc": 1,
                        "type": "constructor",
                        "id": ["langchain", "schema", "messages", "ToolMessage"],
                        "kwargs": {"content": WEATHER, "type": "tool"},
                    },
                    "kwargs": {"tags": ["seq:step:1"], "name": "get_weather"},
                }
            ),
            WEATHER,
            id="openllmetry-envelope",
        ),
        pytest.param(
            json.dumps(
                {"content": WEATHER, "type": "tool", "tool_call_id": "1", "status": "success"}
            ),
            WEATHER,
            id="langfuse-model-dump",
        ),
        pytest.param(
            json.dumps({"type": "tool", "data": {"content": [{"type": "text", "text": WEATHER}]}}),
            WEATHER,
            id="content-blocks",
        ),
        pytest.param(
            '{"temp": 18, "sky": "rain"}',
            '{"temp": 18, "sky": "rain"}',
            id="structured-result-stays-json",
        ),
        pytest.param(
            '{"output": 1, "other": 2}', '{"output": 1, "other": 2}', id="not-an-envelope"
        ),
        pytest.param({"temp": 18}, '{"temp": 18}', id="non-string-is-sorted-json"),
        pytest.param(["a", "b"], '["a", "b"]', id="sequence"),
    ],
)
def test_tool_text_shapes(payload: Any, expected: str) -> None:
    assert payloads.tool_text(payload) == expected


@pytest.mark.parametrize(
    "hostile",
    [
        "{not json",
        "[" * 100_000,
        '"\\ud800 lone surrogate"',
        float("nan"),
        12,
        b"bytes",
        ("a", 1, None),
        json.dumps({"messages": [{"type": "ai"}]}),
        json.dumps({"lc": 1, "kwargs": "x"}),
        json.dumps([{"role": 5, "content": {"x": 1}}]),
    ],
)
def test_payloads_never_raise(hostile: Any) -> None:
    payloads.answer_text(hostile)
    payloads.tool_text(hostile)
    for convention in ORDER:
        for key in (
            "output.value",
            "gen_ai.output.messages",
            "traceloop.entity.output",
            "langfuse.observation.output",
            "gen_ai.tool.call.result",
        ):
            for marker in (
                {"openinference.span.kind": "AGENT"},
                {"openinference.span.kind": "LLM"},
                {"gen_ai.operation.name": "invoke_agent"},
                {"gen_ai.operation.name": "execute_tool"},
                {"traceloop.span.kind": "workflow"},
                {"langfuse.observation.type": "agent"},
            ):
                convention.read(view({**marker, key: hostile, "metadata": hostile}))


# ------------------------------------------------------------------------------ adapters
def test_genai_roles() -> None:
    run = GENAI.read(
        view(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "a",
                "gen_ai.output.messages": GENAI_MESSAGES,
                "ferrumdeck.project.id": "p1",
            }
        )
    )
    assert run is not None and run.role == RUN and run.agent == "a" and run.text == GROUNDED
    assert run.project == "p1"
    assert run.content_keys == ("gen_ai.output.messages",)
    workflow = GENAI.read(
        view({"gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "Agent workflow"})
    )
    assert workflow is not None and workflow.role == RUN and workflow.agent is None
    tool = GENAI.read(
        view(
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "w",
                "gen_ai.tool.call.result": WEATHER,
            }
        )
    )
    assert tool is not None and tool.role == TOOL and tool.text == WEATHER
    llm = GENAI.read(
        view({"gen_ai.operation.name": "chat", "gen_ai.output.messages": GENAI_MESSAGES})
    )
    assert llm is not None and llm.role == LLM and llm.text == GROUNDED
    for other in ("create_agent", "embeddings", "execute_task", "retrieval", "unknown"):
        assert GENAI.read(view({"gen_ai.operation.name": other})) is None


def test_genai_legacy_completion_attributes() -> None:
    llm = GENAI.read(
        view(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": GROUNDED,
                "gen_ai.prompt.0.content": "What is the weather?",
            }
        )
    )
    assert llm is not None and llm.text == GROUNDED
    assert set(llm.content_keys) == {
        "gen_ai.completion.0.content",
        "gen_ai.completion.0.role",
        "gen_ai.prompt.0.content",
    }


def test_openinference_llm_message_contents() -> None:
    llm = OPENINFERENCE.read(
        view(
            {
                "openinference.span.kind": "LLM",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.contents.0.message_content.type": "text",
                "llm.output_messages.0.message.contents.0.message_content.text": "One.",
                "llm.output_messages.0.message.contents.1.message_content.text": "Two.",
            }
        )
    )
    assert llm is not None and llm.role == LLM and llm.text == "One.\nTwo."


def test_openinference_plain_text_output_is_not_parsed() -> None:
    text = '{"this": "looks like JSON"}'
    run = OPENINFERENCE.read(
        view(
            {
                "openinference.span.kind": "AGENT",
                "output.value": text,
                "output.mime_type": "text/plain",
            }
        )
    )
    assert run is not None and run.text == text


def test_openinference_langchain_chain_roots() -> None:
    meta = json.dumps({"ls_integration": "langchain_create_agent", "lc_agent_name": "weather"})
    root = OPENINFERENCE.read(
        view(
            {
                "openinference.span.kind": "CHAIN",
                "metadata": meta,
                "output.value": json.dumps({"messages": []}),
                "output.mime_type": "application/json",
            }
        )
    )
    assert root is not None and root.role == RUN and root.agent == "weather"
    node = json.dumps({"ls_integration": "langchain_create_agent", "langgraph_node": "model"})
    assert OPENINFERENCE.read(view({"openinference.span.kind": "CHAIN", "metadata": node})) is None
    state = json.dumps({"messages": [{"type": "ai", "data": {"content": GROUNDED}}]})
    graph = {
        "openinference.span.kind": "CHAIN",
        "output.value": state,
        "output.mime_type": "application/json",
    }
    hand_built = OPENINFERENCE.read(view(graph, parent_id=None))
    assert hand_built is not None and hand_built.role == RUN and hand_built.text == GROUNDED
    assert OPENINFERENCE.read(view(graph, parent_id=7)) is None  # not a local root
    assert OPENINFERENCE.read(view(graph, parent_id=7, local_root=True)) is not None
    plain_chain = {"openinference.span.kind": "CHAIN", "output.value": GROUNDED}
    assert OPENINFERENCE.read(view(plain_chain, parent_id=None)) is None


def test_redaction_marker_means_redacted_not_text() -> None:
    for convention, attrs in (
        (OPENINFERENCE, {"openinference.span.kind": "AGENT", "output.value": "__REDACTED__"}),
        (OPENINFERENCE, {"openinference.span.kind": "TOOL", "output.value": "__REDACTED__"}),
        (
            OPENINFERENCE,
            {
                "openinference.span.kind": "LLM",
                "llm.output_messages.0.message.content": "__REDACTED__",
            },
        ),
        (
            GENAI,
            {"gen_ai.operation.name": "invoke_agent", "gen_ai.output.messages": "__REDACTED__"},
        ),
        (
            GENAI,
            {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": "__REDACTED__"},
        ),
        (
            OPENLLMETRY,
            {"traceloop.span.kind": "workflow", "traceloop.entity.output": "__REDACTED__"},
        ),
        (
            LANGFUSE,
            {"langfuse.observation.type": "agent", "langfuse.observation.output": "__REDACTED__"},
        ),
    ):
        reading = convention.read(view(attrs))
        assert reading is not None and reading.redacted and reading.text is None, attrs


def test_truncated_values_are_reported() -> None:
    text = "x" * 64
    reading = GENAI.read(
        view(
            {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": text},
            value_limit=64,
        )
    )
    assert reading is not None and reading.truncated
    reading = OPENINFERENCE.read(
        view({"openinference.span.kind": "AGENT", "output.value": text}, value_limit=64)
    )
    assert reading is not None and reading.truncated


@pytest.mark.parametrize("name", ["final_answer", "FinalAnswerTool", "final_result"])
def test_answer_pseudo_tools_are_llm_steps_not_evidence(name: str) -> None:
    for convention, attrs in (
        (
            GENAI,
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.call.result": GROUNDED,
            },
        ),
        (
            OPENINFERENCE,
            {"openinference.span.kind": "TOOL", "tool.name": name, "output.value": GROUNDED},
        ),
        (
            OPENLLMETRY,
            {
                "traceloop.span.kind": "tool",
                "traceloop.entity.name": name,
                "traceloop.entity.output": json.dumps(GROUNDED),
            },
        ),
    ):
        reading = convention.read(view(attrs, name=name))
        assert reading is not None and reading.role == LLM and reading.text == GROUNDED
    reading = LANGFUSE.read(
        view(
            {"langfuse.observation.type": "tool", "langfuse.observation.output": GROUNDED},
            name=name,
        )
    )
    assert reading is not None and reading.role == LLM


def test_handoffs_are_not_tool_steps() -> None:
    assert (
        OPENINFERENCE.read(
            view(
                {"openinference.span.kind": "TOOL", "input.value": "a", "output.value": "b"},
                name="handoff to b",
            )
        )
        is None
    )
    assert (
        GENAI.read(
            view(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "transfer_to_billing_agent",
                    "gen_ai.tool.call.result": "Transferred",
                }
            )
        )
        is None
    )


def test_openllmetry_roles() -> None:
    agent = OPENLLMETRY.read(
        view(
            {
                "traceloop.span.kind": "agent",
                "traceloop.entity.name": "planner",
                "traceloop.entity.output": json.dumps(GROUNDED),
            }
        )
    )
    assert agent is not None and agent.role == RUN and agent.agent == "planner"
    assert agent.text == GROUNDED
    workflow = OPENLLMETRY.read(
        view({"traceloop.span.kind": "workflow", "traceloop.entity.name": "pipeline"})
    )
    assert workflow is not None and workflow.agent is None and workflow.text is None
    task = {"traceloop.span.kind": "task", "gen_ai.operation.name": "invoke_agent"}
    assert OPENLLMETRY.read(view(task)).role == OTHER  # type: ignore[union-attr]
    assert read_span(view(task), ORDER) is None  # CrewAI's task: no other adapter reads it
    tool = OPENLLMETRY.read(
        view({"traceloop.span.kind": "tool", "traceloop.entity.output": '{"temp": 18}'})
    )
    assert tool is not None and tool.role == TOOL and tool.text == '{"temp": 18}'


def test_langfuse_roles() -> None:
    assert (
        LANGFUSE.read(
            view({"langfuse.observation.type": "span", "langfuse.observation.output": GROUNDED})
        )
        is None
    )
    assert LANGFUSE.read(view({"langfuse.observation.type": "chain"})) is None
    gen = LANGFUSE.read(
        view(
            {
                "langfuse.observation.type": "generation",
                "langfuse.observation.output": json.dumps(
                    {"role": "assistant", "content": GROUNDED}
                ),
            }
        )
    )
    assert gen is not None and gen.role == LLM and gen.text == GROUNDED
    agent = LANGFUSE.read(
        view(
            {"langfuse.observation.type": "agent", "langfuse.observation.output": GROUNDED},
            name="my-agent",
        )
    )
    assert agent is not None and agent.agent == "my-agent" and agent.text == GROUNDED


class MarkerOnly(Mapping[str, Any]):
    """Attributes an adapter may only look up by key: iterating them means it paid too much."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data
        self.lookups = 0

    def __getitem__(self, key: str) -> Any:
        self.lookups += 1
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        self.lookups += 1
        return key in self._data

    def get(self, key: str, default: Any = None) -> Any:
        self.lookups += 1
        return self._data.get(key, default)

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("an adapter iterated the attributes of a span of no interest")

    def __len__(self) -> int:
        raise AssertionError("an adapter sized the attributes of a span of no interest")


def test_non_agent_spans_cost_a_few_lookups() -> None:
    attrs = MarkerOnly({f"http.attr.{i}": "x" * 100 for i in range(200)})
    assert read_span(view(attrs, name="GET /"), ORDER) is None
    assert attrs.lookups <= 8


def test_default_conventions_registration_order() -> None:
    from otel_grounding.conventions import DEFAULT_CONVENTIONS

    assert [c.name for c in DEFAULT_CONVENTIONS] == [c.name for c in ORDER]


def test_cut_json_envelope_is_no_answer_not_the_envelope() -> None:
    state = json.dumps(
        {
            "messages": [
                {"type": "human", "data": {"content": "What is the weather in Paris?"}},
                {"type": "tool", "data": {"content": WEATHER}},
                {"type": "ai", "data": {"content": GROUNDED}},
            ]
        }
    )
    limit = len(state) // 2
    cut = state[:limit]
    run = OPENINFERENCE.read(
        view({"openinference.span.kind": "AGENT", "output.value": cut}, value_limit=limit)
    )
    assert run is not None and run.text is None and run.truncated
    # the same for a convention whose attribute is always JSON, even with no known limit
    run = GENAI.read(view({"gen_ai.operation.name": "invoke_agent", "gen_ai.output.messages": cut}))
    assert run is not None and run.text is None
    run = OPENLLMETRY.read(view({"traceloop.span.kind": "agent", "traceloop.entity.output": cut}))
    assert run is not None and run.text is None
    # Langfuse writes strings as they are: unparsable JSON-looking text not cut is text
    text = "{not json, just braces}"
    run = LANGFUSE.read(
        view({"langfuse.observation.type": "agent", "langfuse.observation.output": text})
    )
    assert run is not None and run.text == text
    run = LANGFUSE.read(
        view(
            {"langfuse.observation.type": "agent", "langfuse.observation.output": cut},
            value_limit=limit,
        )
    )
    assert run is not None and run.text is None and run.truncated


# --------------------------------------------------------------------------- issue 23's shapes
def test_tool_message_is_a_tool_result_whatever_its_parts() -> None:
    """Class 1: LiteLLM sends the tool's output as a `text` part of a `tool` message (the call
    id on the message); a `tool_call_response` part carries it under `result` (the GenAI
    conventions' schema) as well as the older `response`."""
    litellm = [
        {"role": "user", "parts": [{"type": "text", "content": "What is the weather in Paris?"}]},
        {"role": "assistant", "parts": [{"type": "text", "content": ""}], "tool_calls": [
            {"function": {"arguments": '{"city": "Paris"}', "name": "get_weather"},
             "id": "call_1", "type": "function"}]},
        {"role": "tool", "parts": [{"type": "text", "content": WEATHER}], "tool_call_id": "call_1"},
    ]
    assert payloads.tool_results(json.dumps(litellm)) == [payloads.ToolResult("call_1", WEATHER)]
    schema = [{"role": "tool", "parts": [
        {"type": "tool_call_response", "id": "call_2", "result": {"temperature": 18}}]}]
    assert payloads.tool_results(json.dumps(schema)) == [
        payloads.ToolResult("call_2", '{"temperature": 18}')
    ]
    # a tool message whose content was not captured is a result that could not be read
    hidden = [{"role": "tool", "parts": [{"type": "text"}], "tool_call_id": "call_3"}]
    assert payloads.tool_results(json.dumps(hidden)) == [payloads.ToolResult("call_3", None)]
    # nothing else of a prompt: user and assistant text are never results
    assert payloads.tool_results(json.dumps(litellm[:2])) == []


def test_a_response_that_stopped_for_tools_is_a_call() -> None:
    """Class 2: LiteLLM's first response has `parts: []` and `finish_reason: tool_calls`, plus
    the legacy `gen_ai.completion.0.function_call.*`: one call, unnamed, counted once."""
    span = view(
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": json.dumps(
                [{"role": "assistant", "parts": [], "finish_reason": "tool_calls"}]
            ),
            "gen_ai.completion.0.function_call.name": "get_weather",
            "gen_ai.completion.0.function_call.arguments": '{"city": "Paris"}',
            "gen_ai.response.finish_reasons": '["tool_calls"]',
        },
        name="litellm_request",
    )
    reading = read_span(span, [GENAI])
    assert reading is not None and reading.role == LLM
    assert (reading.text, reading.tool_calls) == (None, (None,))
    # the finish reasons alone say it too; a named call is not doubled by them
    for reasons in (["tool_calls"], '["tool_calls"]', "['tool_calls']"):  # OpenLIT: a repr
        alone = view({"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": reasons})
        assert GENAI.read(alone).tool_calls == (None,)  # type: ignore[union-attr]
    stop = view({"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": "['stop']"})
    assert GENAI.read(stop).tool_calls == ()  # type: ignore[union-attr]
    named = [{"role": "assistant", "finish_reason": "tool_calls",
              "parts": [{"type": "tool_call", "id": "call_1", "name": "get_weather"}]}]
    both = view({"gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(named),
                 "gen_ai.response.finish_reasons": ["tool_calls"]})
    assert GENAI.read(both).tool_calls == ("call_1",)  # type: ignore[union-attr]


def test_answer_pseudo_tool_call_is_not_a_tool_that_ran() -> None:
    """pydantic-ai's structured output is a call of its `final_result` output tool: the answer,
    not a tool whose result is missing."""
    calls = [{"role": "assistant", "parts": [
        {"type": "tool_call", "id": "pyd_ai_1", "name": "final_result", "arguments": {}}]}]
    assert payloads.tool_calls(json.dumps(calls)) == []


@pytest.mark.parametrize("operation", ["chat", "acompletion", "completion", "text_completion"])
def test_agent_span_with_an_llm_operation_is_still_the_run(operation: str) -> None:
    """Class 3: LiteLLM's default writes its call, operation name included, onto the span
    that is current: the app's `invoke_agent {agent}` span stays the run."""
    attributes = {
        "gen_ai.operation.name": operation,
        "gen_ai.agent.name": "weather_agent",
        "gen_ai.input.messages": json.dumps(
            [{"role": "tool", "parts": [{"type": "text", "content": WEATHER}],
              "tool_call_id": "call_1"}]
        ),
        "gen_ai.output.messages": json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": GROUNDED}],
              "finish_reason": "stop"}]
        ),
    }
    run = read_span(view(attributes, name="invoke_agent weather_agent"), [GENAI])
    assert run is not None and run.role == RUN
    assert (run.agent, run.text, run.attached_sources) == ("weather_agent", GROUNDED, (WEATHER,))
    # the local root carrying an agent's name, whatever its span name
    root = read_span(view(attributes, name="my agent", parent_id=None, local_root=True), [GENAI])
    assert root is not None and root.role == RUN
    # an LLM span under a run, or a root without an agent's name, is an LLM step as before
    for span in (
        view(attributes, name=f"{operation} gpt-4o-mini"),
        view({k: v for k, v in attributes.items() if k != "gen_ai.agent.name"},
             name=f"{operation} gpt-4o-mini", parent_id=None, local_root=True),
    ):
        step = read_span(span, [GENAI])
        assert step is not None and step.role == LLM


def test_run_span_showing_a_call_and_no_result_has_an_unread_output() -> None:
    """Class 2 on the run span itself: the first call's tool request (a stale legacy
    `function_call.*`) and no result anywhere: a tool output that could not be read."""
    run = read_span(
        view(
            {
                "gen_ai.operation.name": "acompletion",
                "gen_ai.agent.name": "weather_agent",
                "gen_ai.output.messages": json.dumps(
                    [{"role": "assistant", "parts": [], "finish_reason": "tool_calls"}]
                ),
                "gen_ai.completion.0.function_call.name": "get_weather",
            },
            name="invoke_agent weather_agent",
        ),
        [GENAI],
    )
    assert run is not None and run.role == RUN
    assert (run.text, run.attached_sources) == (None, (None,))


@pytest.mark.parametrize(
    ("output", "answer"),
    [
        ({"reasoning": "It rains, so warn of floods.", "answer": GROUNDED}, GROUNDED),
        ({"trajectory": {"thought_0": "call the tool"}, "output": GROUNDED}, GROUNDED),
        ({"rationale": "Floods everywhere.", "answer": {"temperature": 18}}, '{"temperature": 18}'),
        # no reasoning beside it: structured data is scored whole, as before
        ({"answer": GROUNDED, "sources": ["get_weather"]}, None),
    ],
)
def test_structured_output_with_reasoning_is_graded_on_its_answer(
    output: dict[str, Any], answer: str | None
) -> None:
    """Class 4: the answer field is what is graded; reasoning is not a claim to the user."""
    text = payloads.answer_text(json.dumps(output))
    assert text == (answer if answer is not None else json.dumps(output))
