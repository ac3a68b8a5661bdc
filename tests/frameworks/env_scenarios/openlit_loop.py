"""The hand-rolled `openai` loop (env_scenarios/openai_loop.py) traced by OpenLIT.

`openlit.init()` reuses the TracerProvider the runner set globally and instruments the `openai`
client itself (content capture is on by its default); metrics are off, nothing is exported but
to the runner's in-memory exporter. OpenLIT would fetch its model price list from GitHub: it is
given an empty local one instead; and it would install a console log exporter (onto the
runner's stdout): a LoggerProvider without processors is set first, which it reuses.
"""

from __future__ import annotations

from typing import Any

from env_scenarios import openai_loop


def init_openlit() -> None:
    """OpenLIT on the runner's TracerProvider: no metrics, no network, no console logs."""
    import tempfile

    import openlit
    from opentelemetry._logs import set_logger_provider
    from opentelemetry.sdk._logs import LoggerProvider

    set_logger_provider(LoggerProvider())
    prices = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    prices.write("{}")
    prices.close()
    openlit.init(
        application_name="weather-service",
        disable_metrics=True,
        pricing_json=prices.name,
    )


def agent(model: Any, provider: Any, tool_spans: bool = False):
    init_openlit()
    return openai_loop.agent(model, provider, tool_spans=tool_spans)
