"""CrewAI 1.x: a crew of one agent with one tool and one task, on CrewAI's own `LLM` (its native
OpenAI provider) against the scripted model. CrewAI's own telemetry and tracing are off (see
run_in_env.OFFLINE); the spans come from the instrumentation under test.
"""

from __future__ import annotations

from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather


def agent(model: Any, provider: Any):
    from crewai import LLM, Agent, Crew, Task
    from crewai.tools import tool

    weather_tool = tool(get_weather)

    def run(answer: str) -> str | None:
        llm = LLM(model="openai/gpt-4o-mini", base_url=model.base_url, api_key="sk-offline-test")
        agent = Agent(
            role=AGENT_NAME,
            goal="Answer questions about the weather.",
            backstory="You look the weather up with your tool.",
            tools=[weather_tool],
            llm=llm,
            verbose=False,
        )
        task = Task(description=QUESTION, expected_output="The weather.", agent=agent)
        return Crew(agents=[agent], tasks=[task], verbose=False).kickoff().raw

    return run
