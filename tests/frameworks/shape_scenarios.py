"""In-process scenarios recorded for single span shapes (tests/test_real_shapes.py), beside
`otel_grounding.demo_frameworks`' agents: the same fake models, tool and answers.

- `pydantic_ai_reasoned`: pydantic-ai with an output type `{reasoning, answer}`: its function
  model answers through the `final_result` output tool, and the reasoning mentions a flood
  warning the tool never gave (pydantic-ai writes the whole output as `final_result`).
- `langgraph_node_agent`: a hand-built LangGraph `StateGraph` (`research_agent` -> `tools` ->
  `research_agent`) on a fake chat model, under openinference-instrumentation-langchain or
  Langfuse's `CallbackHandler`: both label the `research_agent` node an agent by its name.
"""

from __future__ import annotations

import logging
from typing import Any

from opentelemetry.sdk.trace import TracerProvider

from otel_grounding.demo_frameworks import (
    AGENT_NAME,
    QUESTION,
    Run,
    fake_tool_chat_model,
    get_weather,
)

REASONING = "The tool said it rains in Paris, so I should mention a flood warning and an umbrella."


def pydantic_ai_reasoned(provider: TracerProvider) -> Run:
    from pydantic import BaseModel
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import Instrumentation
    from pydantic_ai.messages import ModelResponse, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.models.instrumented import InstrumentationSettings

    class Reasoned(BaseModel):
        reasoning: str
        answer: str

    def run(answer: str) -> str:
        def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
            if any(isinstance(part, ToolReturnPart) for part in messages[-1].parts):
                output = {"reasoning": REASONING, "answer": answer}
                return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, output)])
            return ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Paris"})])

        settings = InstrumentationSettings(tracer_provider=provider)
        agent = Agent(
            FunctionModel(model),
            name=AGENT_NAME,
            tools=[get_weather],
            output_type=Reasoned,
            capabilities=[Instrumentation(settings=settings)],
        )
        return str(agent.run_sync(QUESTION).output.answer)

    return run


def langgraph_node_agent(provider: TracerProvider, instrumentation: str) -> Run:
    from langchain_core.messages import HumanMessage
    from langchain_core.tools import tool
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    callbacks: list[Any] = []
    flush = None
    if instrumentation == "openinference":
        from openinference.instrumentation.langchain import LangChainInstrumentor

        LangChainInstrumentor().instrument(tracer_provider=provider)
    else:
        from langfuse import Langfuse
        from langfuse.langchain import CallbackHandler
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        client = Langfuse(tracer_provider=provider, span_exporter=InMemorySpanExporter())
        logging.getLogger("langfuse").addFilter(
            lambda record: "not able to parse the LLM model" not in record.getMessage()
        )
        callbacks, flush = [CallbackHandler()], client.flush


    weather = tool(get_weather)

    def run(answer: str) -> str:
        model = fake_tool_chat_model(answer).bind_tools([weather])

        def research_agent(state: MessagesState) -> dict[str, Any]:
            return {"messages": [model.invoke(state["messages"])]}

        graph = StateGraph(MessagesState)
        graph.add_node("research_agent", research_agent)
        graph.add_node("tools", ToolNode([weather]))
        graph.add_edge(START, "research_agent")
        graph.add_conditional_edges("research_agent", tools_condition)
        graph.add_edge("tools", "research_agent")
        state = graph.compile().invoke(
            {"messages": [HumanMessage(QUESTION)]}, config={"callbacks": callbacks}
        )
        if flush is not None:
            flush()
        return str(state["messages"][-1].content)

    return run
