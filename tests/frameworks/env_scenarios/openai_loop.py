"""A hand-rolled agent loop on the `openai` client: what an app without a framework emits.

The app opens one GenAI `invoke_agent` span around the loop (and, in the `*_tool_span` forms,
an `execute_tool` span per call, without the opt-in `gen_ai.tool.call.result`); the chat spans
come from the OpenAI instrumentation under test.
"""

from __future__ import annotations

import json
from typing import Any

from otel_grounding.demo_frameworks import AGENT_NAME, QUESTION, get_weather

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


def agent(model: Any, provider: Any, tool_spans: bool = False):
    from openai import OpenAI

    client = OpenAI(base_url=model.base_url, api_key="sk-offline-test", max_retries=0)
    tracer = provider.get_tracer("weather-app")

    def call_tool(call: Any) -> str:
        args = json.loads(call.function.arguments)
        if not tool_spans:
            return get_weather(**args)
        with tracer.start_as_current_span(f"execute_tool {call.function.name}") as span:
            span.set_attribute("gen_ai.operation.name", "execute_tool")
            span.set_attribute("gen_ai.tool.name", call.function.name)
            span.set_attribute("gen_ai.tool.type", "function")
            span.set_attribute("gen_ai.tool.call.id", call.id)
            return get_weather(**args)

    def run(answer: str) -> str | None:
        with tracer.start_as_current_span(f"invoke_agent {AGENT_NAME}") as span:
            span.set_attribute("gen_ai.operation.name", "invoke_agent")
            span.set_attribute("gen_ai.agent.name", AGENT_NAME)
            messages: list[dict[str, Any]] = [
                {"role": "system", "content": "Answer with the weather."},
                {"role": "user", "content": QUESTION},
            ]
            for _ in range(4):
                reply = client.chat.completions.create(
                    model="gpt-4o-mini", messages=messages, tools=TOOLS
                )
                message = reply.choices[0].message
                if not message.tool_calls:
                    return message.content
                messages.append(message.model_dump(exclude_none=True))
                for call in message.tool_calls:
                    messages.append(
                        {"role": "tool", "tool_call_id": call.id, "content": call_tool(call)}
                    )
            return None

    return run
