"""Grounding as a test assertion in an agent's own test suite: pydantic-ai, offline.

    pip install '/path/to/otel-grounding[frameworks]' pytest pytest-asyncio   # the checkout
    pytest examples/test_agent_grounding.py

The agent is a real pydantic-ai `Agent` with its built-in OpenTelemetry instrumentation; its
model is pydantic-ai's own `FunctionModel` (scripted: calls the tool, then answers), so no API
key and no network. Two tests pass; `test_hallucinated_answer` fails on purpose, naming the
invented claim and the tokens no tool output supports.
"""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from pydantic_ai import Agent
from pydantic_ai.capabilities import Instrumentation
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

QUESTION = "What is the weather in Paris?"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
HALLUCINATED = (
    "The weather in Paris is 18 degrees Celsius with light rain. "
    "Tomorrow a violent thunderstorm will flood the Louvre museum basement."
)


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return "Paris: 18 degrees Celsius, light rain" if "paris" in city.lower() else "no data"


def weather_agent(answer: str, provider: TracerProvider) -> Agent[None, str]:
    """The agent under test: calls get_weather once, then answers with `answer`."""

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        if any(isinstance(part, ToolReturnPart) for part in messages[-1].parts):
            return ModelResponse(parts=[TextPart(answer)])
        return ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Paris"})])

    settings = InstrumentationSettings(tracer_provider=provider, include_content=True)
    return Agent(
        FunctionModel(model),
        name="weather_agent",
        tools=[get_weather],
        capabilities=[Instrumentation(settings=settings)],
    )


def test_grounded_answer(grounding: Any) -> None:
    agent = weather_agent(GROUNDED, grounding.provider)
    assert agent.run_sync(QUESTION).output == GROUNDED
    (run,) = grounding.assert_grounded(min_rate=0.8, grades={"full"})
    assert run.rate == 1.0


@pytest.mark.asyncio
async def test_grounded_answer_async(grounding: Any) -> None:
    agent = weather_agent(GROUNDED, grounding.provider)
    await agent.run(QUESTION)
    grounding.assert_grounded(min_rate=0.8, grades={"full"})


def test_hallucinated_answer(grounding: Any) -> None:
    """Fails on purpose: half the answer is invented."""
    agent = weather_agent(HALLUCINATED, grounding.provider)
    agent.run_sync(QUESTION)
    grounding.assert_grounded(min_rate=0.8, grades={"full"})
