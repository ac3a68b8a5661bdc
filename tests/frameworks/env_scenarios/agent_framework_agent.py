"""Microsoft Agent Framework's `Agent` with one function tool, its built-in telemetry.

Agent Framework traces through the global TracerProvider (instrumentation is on by default) and
records messages and tool results only with sensitive data on (`ENABLE_SENSITIVE_DATA=true`,
or `enable_sensitive_telemetry()`). Its OpenAI chat-completions client talks to the scripted
model.
"""

from __future__ import annotations

import asyncio
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from agent_framework import Agent
    from agent_framework.observability import enable_instrumentation
    from agent_framework_openai import OpenAIChatCompletionClient

    enable_instrumentation()  # re-reads ENABLE_SENSITIVE_DATA from the scenario's environment

    async def answer() -> str:
        client = OpenAIChatCompletionClient(
            model="gpt-4o-mini", api_key="sk-offline-test", base_url=model.base_url
        )
        chat_agent = Agent(
            client, "Answer with the weather.", name=AGENT_NAME, tools=[get_weather]
        )
        response = await chat_agent.run(QUESTION)
        return str(response.text)

    def run(_: str) -> str:
        return asyncio.run(answer())

    return run
