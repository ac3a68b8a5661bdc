"""An agent app with no otel-grounding code at all: run it under `opentelemetry-instrument`.

    OTEL_TRACES_EXPORTER=grounding OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE=0.7 \\
        opentelemetry-instrument python examples/zero_code_app.py
"""

from opentelemetry import trace

tracer = trace.get_tracer("zero-code-agent")

with tracer.start_as_current_span("invoke_agent weather-agent") as run:
    run.set_attribute("ferrumdeck.run.id", "zero-code-run")
    with tracer.start_as_current_span(
        "execute_tool get_weather",
        attributes={
            "ferrumdeck.step.type": "tool",
            "ferrumdeck.step.output": "Paris: 18 degrees Celsius, light rain.",
        },
    ):
        pass
    run.set_attribute(
        "ferrumdeck.run.output",
        "It is 18 degrees Celsius in Paris with light rain. Bring sunglasses for the heatwave.",
    )
print("agent finished")
