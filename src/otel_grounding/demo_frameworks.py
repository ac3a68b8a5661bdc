"""The framework demos of `otel-grounding demo --framework NAME`: real agent frameworks, offline
(a fake model, one tool, and the framework's own instrumentation).

This module belongs to the demo (the framework tests reuse its scenarios, see
tests/frameworks/scenarios.py). Each scenario takes a TracerProvider, instruments the framework
against it and returns `run(answer)`: one agent run in which the fake model calls `get_weather`
once and then answers with `answer`. Instrumentations patch globally, so run one scenario per
process.

The framework packages come from the `frameworks` extra and are imported inside the scenario
functions only: importing this module never needs them. A missing one raises `FrameworkMissing`
(see `missing_as`). Run a scenario inside `demo_environment()`: dummy API keys, no phoning home,
and (for the demo) content capture on, set before the instrumentations are imported (some read
their switches then) and restored when the demo ends. Nothing reaches the network.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

EXTRA = "frameworks"
INSTALL = f"pip install 'otel-grounding[{EXTRA}]'"

WEATHER = "Paris: 18 degrees Celsius, light rain"
QUESTION = "What is the weather in Paris?"
#: Every claim's tokens are in the tool output (the, weather, paris, degrees, celsius, light, rain).
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
#: The first claim is grounded, the second invented: rate 1/2, flagged at 0.7.
HALLUCINATED = (
    "The weather in Paris is 18 degrees Celsius with light rain. "
    "Tomorrow a violent thunderstorm will flood the Louvre museum basement."
)
ANSWERS = {"grounded": GROUNDED, "hallucinated": HALLUCINATED}
AGENT_NAME = "weather_agent"

#: The switches that make the instrumentations record content (the answer and the tool output);
#: the demo turns them all on, the tests choose per case.
CONTENT_CAPTURE = {
    # official opentelemetry-instrumentation-genai-*: off unless set; read at import time
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY",
    # OpenLLMetry
    "TRACELOOP_TRACE_CONTENT": "true",
    # OpenInference: "true" would write __REDACTED__
    "OPENINFERENCE_HIDE_OUTPUTS": "false",
    "OPENINFERENCE_HIDE_OUTPUT_MESSAGES": "false",
    "OPENINFERENCE_HIDE_OUTPUT_TEXT": "false",
}


class FrameworkMissing(Exception):
    """A framework package (or one of its dependencies) is not installed."""

    def __init__(self, framework: str, error: ImportError) -> None:
        if error.name:
            what = f"module {error.name!r} is not installed"
        else:
            what = " ".join(str(error).split())  # one line
        super().__init__(f"--framework {framework}: {what}; install the extra: {INSTALL}")
        self.framework = framework
        self.module = error.name


@contextmanager
def missing_as(framework: str) -> Iterator[None]:
    """Turn an ImportError raised inside into `FrameworkMissing` for `framework`."""
    try:
        yield
    except ImportError as exc:
        raise FrameworkMissing(framework, exc) from exc


#: Dummy keys and no phoning home: every model here is fake, nothing may leave the machine.
#: Keys marked `True` keep a value the environment already has.
OFFLINE_ENV: dict[str, tuple[str, bool]] = {
    "OPENAI_API_KEY": ("sk-offline-test", True),
    "TRACELOOP_TELEMETRY": ("false", False),
    "LANGSMITH_TRACING": ("false", False),
    "LANGCHAIN_TRACING_V2": ("false", False),
    "OPENAI_AGENTS_DISABLE_TRACING": ("0", False),
    "LANGFUSE_PUBLIC_KEY": ("pk-lf-offline", True),
    "LANGFUSE_SECRET_KEY": ("sk-lf-offline", True),
    # A closed loopback port: should anything try to reach Langfuse, it goes nowhere.
    "LANGFUSE_BASE_URL": ("http://127.0.0.1:9", False),
    "LANGFUSE_HOST": ("http://127.0.0.1:9", False),
}


def offline_variables(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The variables to set so that the scenarios stay offline, given the current `environ`."""
    return {
        name: value
        for name, (value, keep) in OFFLINE_ENV.items()
        if not (keep and name in environ)
    }


@contextmanager
def demo_environment(*, content: bool = True) -> Iterator[None]:
    """Offline variables (and, with `content`, every content-capture switch) set for the demo,
    the previous environment restored on exit."""
    changes = offline_variables()
    if content:
        changes.update(CONTENT_CAPTURE)
    before = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return WEATHER if "paris" in city.lower() else f"{city}: no data"


Run = Callable[[str], Any]


# --------------------------------------------------------------------------- pydantic-ai
def pydantic_ai(provider: TracerProvider, include_content: bool = True) -> Run:
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
def fake_tool_chat_model(answer: str) -> Any:
    """A LangChain chat model that calls get_weather first, then answers with `answer`
    (LangChain is imported here: it is an optional extra)."""
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

        def _generate(
            self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            if isinstance(messages[-1], ToolMessage):
                message = AIMessage(content=self.answer)
            else:
                call = {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}
                message = AIMessage(content="", tool_calls=[{**call, "type": "tool_call"}])
            return ChatResult(generations=[ChatGeneration(message=message)])

    return FakeToolChatModel(answer=answer)


def _langchain_agent(callbacks: list[Any] | None = None) -> Run:
    from langchain.agents import create_agent


    def run(answer: str) -> Any:
        agent = create_agent(fake_tool_chat_model(answer), tools=[get_weather], name=AGENT_NAME)
        config: Any = {"callbacks": callbacks} if callbacks else None
        result = agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, config=config)
        return result["messages"][-1].content

    return run


def langchain_openinference(provider: TracerProvider) -> Run:
    from openinference.instrumentation.langchain import LangChainInstrumentor

    LangChainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_genai(provider: TracerProvider) -> Run:
    from opentelemetry.instrumentation.genai.langchain import LangChainInstrumentor

    LangChainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_openllmetry(provider: TracerProvider) -> Run:
    from opentelemetry.instrumentation.langchain import LangchainInstrumentor

    LangchainInstrumentor().instrument(tracer_provider=provider)
    return _langchain_agent()


def langchain_langfuse(provider: TracerProvider) -> Run:
    from langfuse import Langfuse
    from langfuse.langchain import CallbackHandler
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    # Langfuse's own exporter goes to memory: only our provider's processor sees the spans.
    client = Langfuse(tracer_provider=provider, span_exporter=InMemorySpanExporter())
    # The fake chat model has no model name Langfuse knows; it says so, once per LLM call.
    logging.getLogger("langfuse").addFilter(
        lambda record: "not able to parse the LLM model" not in record.getMessage()
    )
    inner = _langchain_agent([CallbackHandler()])

    def run(answer: str) -> Any:
        result = inner(answer)
        client.flush()
        return result

    return run


# --------------------------------------------------------------------------- OpenAI Agents SDK
def openai_agents_openinference(provider: TracerProvider) -> Run:
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
            system_instructions: Any,
            input: Any,
            model_settings: Any,
            tools: Any,
            output_schema: Any,
            handoffs: Any,
            tracing: Any,
            **kwargs: Any,
        ) -> Any:
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
                traced: list[dict[str, Any]] = [{"role": "assistant", "content": self.answer}]
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


class Scenario(NamedTuple):
    setup: Callable[[TracerProvider], Run]
    about: str


#: The choices of `otel-grounding demo --framework`.
SCENARIOS: dict[str, Scenario] = {
    "pydantic-ai": Scenario(
        pydantic_ai, "pydantic-ai, built-in instrumentation (GenAI conventions)"
    ),
    "langchain-openinference": Scenario(
        langchain_openinference,
        "LangChain create_agent, openinference-instrumentation-langchain",
    ),
    "langchain-genai": Scenario(
        langchain_genai,
        "LangChain create_agent, opentelemetry-instrumentation-genai-langchain",
    ),
    "langchain-openllmetry": Scenario(
        langchain_openllmetry,
        "LangChain create_agent, OpenLLMetry opentelemetry-instrumentation-langchain",
    ),
    "langchain-langfuse": Scenario(
        langchain_langfuse, "LangChain create_agent, Langfuse CallbackHandler"
    ),
    "openai-agents-openinference": Scenario(
        openai_agents_openinference,
        "OpenAI Agents SDK, openinference-instrumentation-openai-agents",
    ),
}


def start(name: str, provider: TracerProvider) -> Run:
    """Instrument framework `name` against `provider`; raises `FrameworkMissing`."""
    with missing_as(name):
        return SCENARIOS[name].setup(provider)
