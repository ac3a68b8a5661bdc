"""An Agno `Agent` with one function tool, on Agno's `OpenAIChat` model, traced by OpenLIT.

`openlit.init()` (as in env_scenarios/openlit_loop.py) instruments Agno and the `openai` client
it uses; Agno's own telemetry is off (`telemetry=False`: nothing leaves the machine).
"""

from __future__ import annotations

from typing import Any

from env_scenarios.openlit_loop import init_openlit
from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    init_openlit()
    from agno.agent import Agent
    from agno.models.openai import OpenAIChat

    chat_agent = Agent(
        name=AGENT_NAME,
        model=OpenAIChat(id="gpt-4o-mini", base_url=model.base_url, api_key="sk-offline-test"),
        tools=[get_weather],
        instructions="Answer with the weather.",
        telemetry=False,
    )

    def run(_: str) -> str:
        return str(chat_agent.run(QUESTION).content)

    return run
