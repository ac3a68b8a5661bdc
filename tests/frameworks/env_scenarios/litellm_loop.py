"""A hand-rolled agent loop on LiteLLM with its OpenTelemetry callback (`litellm.callbacks =
["otel"]`): one of the most common ways to call models.

The app opens one GenAI `invoke_agent` span around the loop and calls the tool itself, with no
`execute_tool` span; LiteLLM talks to the scripted model as an `openai/` model with `api_base`.
What LiteLLM records depends on its switches: by default it writes each call onto the span
that is current (the app's run span); with `USE_OTEL_LITELLM_REQUEST_SPAN=true` it opens a
`litellm_request` child span per call. `async_calls` uses `acompletion`, `stream` streams both
calls.
"""

from __future__ import annotations

import asyncio
import json
import threading
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
MODEL = "openai/gpt-4o-mini"


def agent(model: Any, provider: Any, async_calls: bool = False, stream: bool = False):
    import litellm

    logged = _logged_calls()
    litellm.callbacks = ["otel", logged]
    tracer = provider.get_tracer("weather-app")
    request = {"model": MODEL, "tools": TOOLS, "api_base": model.base_url, "api_key": "sk-offline"}

    def complete(messages: list[dict[str, Any]]) -> Any:
        """One model call, whole or streamed (and rebuilt from its chunks)."""
        if not stream:
            return litellm.completion(messages=messages, **request)
        chunks = list(litellm.completion(messages=messages, stream=True, **request))
        return litellm.stream_chunk_builder(chunks, messages=messages)

    async def acomplete(messages: list[dict[str, Any]]) -> Any:
        if not stream:
            return await litellm.acompletion(messages=messages, **request)
        streamed = await litellm.acompletion(messages=messages, stream=True, **request)
        chunks = [chunk async for chunk in streamed]
        return litellm.stream_chunk_builder(chunks, messages=messages)

    def start(span: Any) -> list[dict[str, Any]]:
        logged.reset()
        span.set_attribute("gen_ai.operation.name", "invoke_agent")
        span.set_attribute("gen_ai.agent.name", AGENT_NAME)
        return [
            {"role": "system", "content": "Answer with the weather."},
            {"role": "user", "content": QUESTION},
        ]

    def answered(response: Any, messages: list[dict[str, Any]]) -> bool:
        """Append the call's tool calls and their results; True when the model answered."""
        message = response.choices[0].message
        if not message.tool_calls:
            return True
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            result = get_weather(**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        return False

    def run(answer: str) -> str | None:
        if async_calls:
            return asyncio.run(arun())
        with tracer.start_as_current_span(f"invoke_agent {AGENT_NAME}") as span:
            messages = start(span)
            for calls in range(1, 5):
                response = complete(messages)
                logged.wait(calls)
                if answered(response, messages):
                    return response.choices[0].message.content
            return None

    async def arun() -> str | None:
        with tracer.start_as_current_span(f"invoke_agent {AGENT_NAME}") as span:
            messages = start(span)
            for calls in range(1, 5):
                response = await acomplete(messages)
                await asyncio.to_thread(logged.wait, calls)
                if answered(response, messages):
                    return response.choices[0].message.content
            return None

    return run


#: How long a scenario waits for LiteLLM to log one call.
LOG_WAIT_S = 20.0


def _logged_calls() -> Any:
    """A LiteLLM callback registered after "otel" that counts the calls logged: LiteLLM runs its
    success callbacks after the call returns (on a thread pool, or as an asyncio task), in the
    order registered, so once this one has seen a call the otel callback has written it.

    The scenario waits for it before its run span ends, as an app that waits for its logging
    does: a run span that ends first never gets the last call (LiteLLM's default writes the
    call onto the span that is current, and a span that ended takes no attributes)."""
    from litellm.integrations.custom_logger import CustomLogger

    class LoggedCalls(CustomLogger):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.calls: set[str] = set()
            self.changed = threading.Condition()

        def _seen(self, kwargs: dict[str, Any]) -> None:
            with self.changed:
                self.calls.add(str(kwargs.get("litellm_call_id")))
                self.changed.notify_all()

        def log_success_event(
            self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
        ) -> None:
            self._seen(kwargs)

        async def async_log_success_event(
            self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
        ) -> None:
            self._seen(kwargs)

        def reset(self) -> None:
            with self.changed:
                self.calls.clear()

        def wait(self, count: int) -> None:
            with self.changed:
                if not self.changed.wait_for(lambda: len(self.calls) >= count, LOG_WAIT_S):
                    raise TimeoutError(f"LiteLLM logged {len(self.calls)} of {count} calls")

    return LoggedCalls()
