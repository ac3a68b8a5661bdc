"""AutoGen AgentChat 0.7: an `AssistantAgent` with one tool on the real OpenAI client.

AutoGen's built-in GenAI spans (`invoke_agent`, `execute_tool`) go to the global tracer
provider; the model client is `OpenAIChatCompletionClient` against the scripted model.
`reflect_on_tool_use=True` makes the second model call that writes the answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from autogen_agentchat.agents import AssistantAgent
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    def run(answer: str) -> str | None:
        async def go() -> Any:
            client = OpenAIChatCompletionClient(
                model="gpt-4o-mini", base_url=model.base_url, api_key="sk-offline-test",
                max_retries=0,
            )
            agent = AssistantAgent(
                AGENT_NAME,
                model_client=client,
                tools=[get_weather],
                system_message="Answer with the weather.",
                reflect_on_tool_use=True,
            )
            try:
                return await agent.run(task=QUESTION)
            finally:
                await client.close()

        result = asyncio.run(go())
        return result.messages[-1].content

    return run
