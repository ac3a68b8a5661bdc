"""Strands Agents 1.x: an `Agent` with one tool on Strands' own `OpenAIModel` (streamed).

Strands' built-in tracing writes to the global tracer provider; which convention and where the
content goes (span events or span attributes) follows `OTEL_SEMCONV_STABILITY_OPT_IN`.
"""

from __future__ import annotations

from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from strands import Agent, tool
    from strands.models.openai import OpenAIModel

    weather_tool = tool(get_weather)

    def run(answer: str) -> str | None:
        llm = OpenAIModel(
            client_args={"api_key": "sk-offline-test", "base_url": model.base_url},
            model_id="gpt-4o-mini",
        )
        agent = Agent(
            name=AGENT_NAME,
            model=llm,
            tools=[weather_tool],
            system_prompt="Answer with the weather.",
            callback_handler=None,
        )
        return str(agent(QUESTION))

    return run
