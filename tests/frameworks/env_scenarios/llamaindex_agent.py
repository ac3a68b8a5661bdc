"""LlamaIndex `FunctionAgent` (agent workflows) with one tool on the real OpenAI LLM class.

`llama_index.llms.openai.OpenAI` talks to the scripted model (streamed, as FunctionAgent asks).
The memory's token counting uses a whitespace tokenizer: the default one downloads its
vocabulary on first use, and nothing may leave the machine.
"""

from __future__ import annotations

import asyncio
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from llama_index.core import Settings
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.llms.openai import OpenAI

    Settings.tokenizer = str.split

    def run(answer: str) -> str | None:
        llm = OpenAI(
            model="gpt-4o-mini", api_base=model.base_url, api_key="sk-offline-test", max_retries=0
        )
        agent = FunctionAgent(
            name=AGENT_NAME,
            description="Answers with the weather.",
            tools=[get_weather],
            llm=llm,
            system_prompt="Answer with the weather.",
        )

        async def go() -> Any:
            return await agent.run(user_msg=QUESTION)

        return str(asyncio.run(go()))

    return run
