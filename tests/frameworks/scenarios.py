"""Real agent frameworks, offline: a fake model, one tool, and the framework's own instrumentation.

Run one scenario per process (instrumentations patch globally):

    python tests/frameworks/scenarios.py SCENARIO [--raw]

It runs the agent twice (a grounded and a hallucinating final answer) through a real
TracerProvider whose processor is `GroundingSpanProcessor(SimpleSpanProcessor(InMemorySpanExporter()),
min_claim_grounding_rate=0.7)`, and prints `{"grounded": [spans], "hallucinated": [spans]}` as
JSON on stdout. `--raw` leaves the grounding processor out: what the captures under
`captures/` were made with. Content-capture switches come from the environment (the tests set
them). Nothing reaches the network: models are fake, API keys are dummies.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    AGENT_NAME,
    ANSWERS,
    QUESTION,
    dumps,
    get_weather,
    offline_env,
    to_json,
)

offline_env()

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

THRESHOLD = 0.7


def conventions() -> tuple[Any, ...]:
    """The registration order proposed for DEFAULT_CONVENTIONS (asserted in test_conventions)."""
    from otel_grounding.conventions.genai import GenAIConvention
    from otel_grounding.conventions.langfuse import LangfuseConvention
    from otel_grounding.conventions.native import NativeConvention
    from otel_grounding.conventions.openinference import OpenInferenceConvention
    from otel_grounding.conventions.openllmetry import OpenLLMetryConvention

    return (
        NativeConvention(),
        OpenInferenceConvention(),
        OpenLLMetryConvention(),
        LangfuseConvention(),
        GenAIConvention(),
    )


def make_provider(raw: bool) -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-service"}))
    if raw:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    else:
        from otel_grounding import GroundingSpanProcessor

        provider.add_span_processor(
            GroundingSpanProcessor(
                SimpleSpanProcessor(exporter),
                min_claim_grounding_rate=THRESHOLD,
                conventions=conventions(),
            )
        )
    return provider, exporter


# --------------------------------------------------------------------------- pydantic-ai
def pydantic_ai(provider: TracerProvider, include_content: bool = True) -> Callable[[str], Any]:
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import Instrumentation
    from pydantic_ai.messages import (
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.models.instrumented import InstrumentationSettings

    def run(answer: str) -> Any:
        def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
            if any(isinstance(part, ToolReturnPart) for part in messages[-1].parts):
                return ModelResponse(parts=[TextPart(answer)])
            return ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Paris"})])

        settings = InstrumentationSettings(
            tracer_provider=provider, include_content=include_content
        )
        agent = Agent(
            FunctionModel(model),
            name=AGENT_NAME,
            tools=[get_weather],
            capabilities=[Instrumentation(settings=settings)],
        )
        return agent.run_sync(QUESTION).output

    return run


# --------------------------------------------------------------------------- LangChain
def _langchain_agent(callbacks: list[Any] | None = None) -> Callable[[str], Any]:
    from langchain.agents import create_agent
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class FakeToolChatModel(BaseChatModel):
        """Calls get_weather first, then answers with the scripted text."""

        answer: str

        @property
        def _llm_type(self) -> str:
            return "fake-tool-chat"

        def bind_tools(self, tools: Any, **kwargs: Any) -> FakeToolChatModel:
            return self

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
            if isinstance(messages[-1], ToolMessage):
                message = AIMessage(content=self.answer)
            else:
                call = {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}
                message = AIMessage(content="", tool_calls=[{**call, "type": "tool_call"}])
            return ChatResult(generations=[ChatGeneration(message=message)])

    def run(answer: str) -> Any:
        agent = create_agent(FakeToolChatModel(answer=answer), tools=[get_weather], name=AGENT_NAME)
        config = {"callbacks": callbacks} if callbacks else None
        result = agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, config=config)
        return result["messages"][-1].content

    return run


def langchain_openinference(provider: TracerProvider) -> Callable[[str], Any]:
    from openinference.instrumentation.langchain import LangChainInstrumentor

    LangChainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_genai(provider: TracerProvider) -> Callable[[str], Any]:
    from opentelemetry.instrumentation.genai.langchain import LangChainInstrumentor

    LangChainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_openllmetry(provider: TracerProvider) -> Callable[[str], Any]:
    from opentelemetry.instrumentation.langchain import LangchainInstrumentor

    LangchainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_langfuse(provider: TracerProvider) -> Callable[[str], Any]:
    from langfuse import Langfuse
    from langfuse.langchain import CallbackHandler

    # Langfuse's own exporter goes to memory: only our provider's processor sees the spans.
    client = Langfuse(tracer_provider=provider, span_exporter=InMemorySpanExporter())
    inner = _langchain_agent([CallbackHandler()])

    def run(answer: str) -> Any:
        result = inner(answer)
        client.flush()
        return result

    return run


# --------------------------------------------------------------------------- OpenAI Agents SDK
def openai_agents_openinference(provider: TracerProvider) -> Callable[[str], Any]:
    from agents import Agent, ModelResponse, Runner, Usage, function_tool
    from agents.models.interface import Model
    from agents.tracing import generation_span, set_trace_processors
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )
    from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor

    set_trace_processors([])  # never the SDK's default exporter to the OpenAI backend
    OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)

    class FakeModel(Model):
        """Calls get_weather, then answers; records a generation span as real models do."""

        def __init__(self, answer: str) -> None:
            self.answer = answer

        async def get_response(
            self,
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            **kwargs,
        ):
            items = input if isinstance(input, list) else []
            done = any(
                (i.get("type") if isinstance(i, dict) else getattr(i, "type", None))
                == "function_call_output"
                for i in items
            )
            if done:
                output: list[Any] = [
                    ResponseOutputMessage(
                        id="msg_1",
                        type="message",
                        role="assistant",
                        status="completed",
                        content=[
                            ResponseOutputText(type="output_text", text=self.answer, annotations=[])
                        ],
                    )
                ]
                traced = [{"role": "assistant", "content": self.answer}]
            else:
                output = [
                    ResponseFunctionToolCall(
                        id="fc_1",
                        call_id="call_1",
                        type="function_call",
                        name="get_weather",
                        arguments='{"city": "Paris"}',
                        status="completed",
                    )
                ]
                call = {"name": "get_weather", "arguments": '{"city": "Paris"}'}
                traced = [
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
                    }
                ]
            with generation_span(
                input=[
                    {"role": "system", "content": system_instructions or ""},
                    {"role": "user", "content": QUESTION},
                ],
                output=traced,
                model="fake-model",
                disabled=tracing.is_disabled(),
            ):
                pass
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    def run(answer: str) -> Any:
        agent = Agent(
            name=AGENT_NAME,
            instructions="Answer with the weather.",
            model=FakeModel(answer),
            tools=[function_tool(get_weather)],
        )
        return asyncio.run(Runner.run(agent, QUESTION)).final_output

    return run


SCENARIOS: dict[str, Callable[..., Callable[[str], Any]]] = {
    "pydantic-ai": pydantic_ai,
    "pydantic-ai-no-content": lambda provider: pydantic_ai(provider, include_content=False),
    "langchain-openinference": langchain_openinference,
    "langchain-genai": langchain_genai,
    "langchain-openllmetry": langchain_openllmetry,
    "langchain-langfuse": langchain_langfuse,
    "openai-agents-openinference": openai_agents_openinference,
}


def main(argv: list[str]) -> int:
    name = argv[0]
    raw = "--raw" in argv[1:]
    provider, exporter = make_provider(raw)
    run = SCENARIOS[name](provider)
    result: dict[str, Any] = {}
    for label, answer in ANSWERS.items():
        exporter.clear()
        final = run(answer)
        provider.force_flush()
        if final != answer:
            raise SystemExit(f"{name}: the agent answered {final!r}, not the scripted answer")
        result[label] = dumps(exporter.get_finished_spans())
    provider.shutdown()
    sys.stdout.write(to_json(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
