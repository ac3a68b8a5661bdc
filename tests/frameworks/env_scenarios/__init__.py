"""Framework scenarios for tests/frameworks/run_in_env.py, one module per framework.

Each module's `agent(model, provider, **options)` takes the running `ScriptedModel` and the
TracerProvider (already instrumented as the catalog says) and returns `run(answer) -> final
text`: one agent run in which the model calls `get_weather` once and then answers. Frameworks
are imported inside the functions: each module imports only in its own env.
"""
