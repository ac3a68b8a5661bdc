"""Two-line integration: wrap the span processor you already have; results go to the console.

    python examples/quickstart.py
"""

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

from otel_grounding import GroundingSpanProcessor

provider = TracerProvider()
provider.add_span_processor(  # the two lines: import above, wrap here
    GroundingSpanProcessor(SimpleSpanProcessor(ConsoleSpanExporter()), min_claim_grounding_rate=0.7)
)
trace.set_tracer_provider(provider)
tracer = trace.get_tracer("quickstart-agent")

with tracer.start_as_current_span("invoke_agent travel-agent") as run:
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
        "It is 18 degrees Celsius in Paris with light rain. The Louvre is closed on Tuesdays.",
    )

provider.shutdown()  # the run span printed above carries ferrumdeck.reliability.*
