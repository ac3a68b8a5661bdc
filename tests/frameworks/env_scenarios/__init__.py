"""Framework scenarios for tests/frameworks/run_in_env.py, one module per framework.

Each public function takes the TracerProvider and the running `ScriptedModel`, instruments the
framework against the provider and returns `run(answer) -> final text`: one agent run in which
the model calls `get_weather` once and then answers. Frameworks are imported inside the
functions: each module imports only in its own env.
"""
