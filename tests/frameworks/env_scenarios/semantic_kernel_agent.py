"""Semantic Kernel's `ChatCompletionAgent` with one plugin function, its built-in telemetry.

Semantic Kernel traces through the global TracerProvider when
`SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS` is on, and records the messages
only with its sensitive switch (`..._DIAGNOSTICS_SENSITIVE`). Its OpenAI connector talks to the
scripted model through an `AsyncOpenAI` client.
"""

from __future__ import annotations

import asyncio
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from openai import AsyncOpenAI
    from semantic_kernel.agents import ChatCompletionAgent
    from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion
    from semantic_kernel.functions import kernel_function

    class WeatherPlugin:
        @kernel_function(name="get_weather", description="Get the current weather for a city.")
        def weather(self, city: str) -> str:
            return get_weather(city)

    async def answer() -> str:
        client = AsyncOpenAI(base_url=model.base_url, api_key="sk-offline-test", max_retries=0)
        service = OpenAIChatCompletion(ai_model_id="gpt-4o-mini", async_client=client)
        chat_agent = ChatCompletionAgent(
            service=service,
            name=AGENT_NAME,
            instructions="Answer with the weather.",
            plugins=[WeatherPlugin()],
        )
        response = await chat_agent.get_response(messages=QUESTION)
        return str(response.content)

    def run(_: str) -> str:
        return asyncio.run(answer())

    return run
