"""Google ADK 2.x: an `LlmAgent` with one tool, its model `LiteLlm` (the real LiteLLM client)
against the scripted model, run by an `InMemoryRunner`.

ADK's built-in tracing writes to the global tracer provider (content in spans with
`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY`); OpenInference instruments the
same run on top.
"""

from __future__ import annotations

import asyncio
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather

APP = "weather_app"
USER = "user-1"


def agent(model: Any, provider: Any):
    from google.adk.agents import LlmAgent
    from google.adk.models.lite_llm import LiteLlm
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    def run(answer: str) -> str | None:
        llm = LiteLlm(
            model="openai/gpt-4o-mini", api_base=model.base_url, api_key="sk-offline-test"
        )
        agent = LlmAgent(
            name=AGENT_NAME,
            model=llm,
            instruction="Answer with the weather.",
            tools=[get_weather],
        )
        runner = InMemoryRunner(agent=agent, app_name=APP)

        async def go() -> str | None:
            session = await runner.session_service.create_session(app_name=APP, user_id=USER)
            message = types.Content(role="user", parts=[types.Part(text=QUESTION)])
            final = None
            async for event in runner.run_async(
                user_id=USER, session_id=session.id, new_message=message
            ):
                if event.is_final_response() and event.content and event.content.parts:
                    final = "".join(p.text or "" for p in event.content.parts)
            await runner.close()
            return final

        return asyncio.run(go())

    return run
