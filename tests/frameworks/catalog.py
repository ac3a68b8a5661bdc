"""The framework scenarios that run in their own pinned environments (stdlib only).

Each framework pins versions of shared libraries that conflict with the others', so each has
its own virtual environment, built by `make fw-envs` from tests/frameworks/envs/<env>/requirements.txt
into the user cache (see `env_dir`). A scenario is one framework × instrumentation × switch
combination: the code in tests/frameworks/env_scenarios/<module>.py, the environment variables
it runs under (instrumentations read them at import time), and the env it needs.

Read by the tests (in the project's own .venv) and by tests/frameworks/run_in_env.py (in the
framework's env).
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

ENVS = Path(__file__).resolve().parent / "envs"
REQUIREMENTS = "requirements.txt"
#: One folder per env and requirements hash under the cache, so a changed pin builds a new one.
CACHE_SUBDIR = "otel-grounding"
HASH_CHARS = 12

#: The official GenAI instrumentations' content switch (and the opt-in its span modes need).
GENAI_CONTENT = {
    "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY",
}
TRACELOOP_CONTENT = {"TRACELOOP_TRACE_CONTENT": "true"}

#: Every switch a scenario may set: none of them leaks in from the caller's environment.
SWITCHES = (
    "OTEL_SEMCONV_STABILITY_OPT_IN",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
    "TRACELOOP_TRACE_CONTENT",
    "ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN",
    "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS",
    "OPENINFERENCE_HIDE_OUTPUTS",
    "OPENINFERENCE_HIDE_INPUTS",
    "OPENINFERENCE_HIDE_OUTPUT_MESSAGES",
    "OPENINFERENCE_HIDE_INPUT_MESSAGES",
    "OPENINFERENCE_HIDE_OUTPUT_TEXT",
)


@dataclass(frozen=True)
class Scenario:
    """One framework × instrumentation × switch combination."""

    env: str
    module: str
    setup: str
    about: str
    environ: dict[str, str] = field(default_factory=dict)


SCENARIOS: dict[str, Scenario] = {
    # ------------------------------------------------------------- hand-rolled openai loop
    "openai-loop-genai": Scenario(
        "openai", "openai_loop", "genai_app_span",
        "hand-rolled `openai` loop, opentelemetry-instrumentation-openai-v2; app span only",
        GENAI_CONTENT,
    ),
    "openai-loop-genai-tool-span": Scenario(
        "openai", "openai_loop", "genai_tool_span",
        "hand-rolled `openai` loop, opentelemetry-instrumentation-openai-v2; app + execute_tool",
        GENAI_CONTENT,
    ),
    "openai-loop-genai-no-content": Scenario(
        "openai", "openai_loop", "genai_tool_span",
        "hand-rolled `openai` loop, opentelemetry-instrumentation-openai-v2, content off (default)",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"},
    ),
    "openai-loop-openinference": Scenario(
        "openai", "openai_loop", "openinference_app_span",
        "hand-rolled `openai` loop, openinference-instrumentation-openai; app span only",
    ),
    "openai-loop-openinference-tool-span": Scenario(
        "openai", "openai_loop", "openinference_tool_span",
        "hand-rolled `openai` loop, openinference-instrumentation-openai; app + execute_tool",
    ),
    # ------------------------------------------------------------- AutoGen AgentChat 0.7
    "autogen-builtin": Scenario(
        "autogen", "autogen_agentchat", "builtin",
        "AutoGen AgentChat AssistantAgent, built-in tracing alone",
    ),
    "autogen-genai": Scenario(
        "autogen", "autogen_agentchat", "genai",
        "AutoGen AgentChat, built-in tracing + opentelemetry-instrumentation-openai-v2",
        GENAI_CONTENT,
    ),
    "autogen-openinference": Scenario(
        "autogen", "autogen_agentchat", "openinference",
        "AutoGen AgentChat, built-in tracing + openinference-instrumentation-autogen-agentchat",
    ),
    # ------------------------------------------------------------- LlamaIndex FunctionAgent
    "llamaindex-openinference": Scenario(
        "llamaindex", "llamaindex_agent", "openinference",
        "LlamaIndex FunctionAgent, openinference-instrumentation-llama-index",
    ),
    "llamaindex-openllmetry": Scenario(
        "llamaindex", "llamaindex_agent", "openllmetry",
        "LlamaIndex FunctionAgent, OpenLLMetry opentelemetry-instrumentation-llamaindex",
        TRACELOOP_CONTENT,
    ),
    # ------------------------------------------------------------- Strands Agents 1.x
    "strands-default": Scenario(
        "strands", "strands_agent", "builtin", "Strands Agents, built-in tracing, defaults",
    ),
    "strands-latest": Scenario(
        "strands", "strands_agent", "builtin",
        "Strands Agents, OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"},
    ),
    "strands-latest-span-attributes": Scenario(
        "strands", "strands_agent", "builtin",
        "Strands Agents, gen_ai_latest_experimental,gen_ai_span_attributes_only",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental,gen_ai_span_attributes_only"},
    ),
    # ------------------------------------------------------------- Google ADK 2.x
    "adk-builtin": Scenario(
        "adk", "adk_agent", "builtin",
        "Google ADK LlmAgent, built-in tracing, content SPAN_ONLY",
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY"},
    ),
    "adk-builtin-default": Scenario(
        "adk", "adk_agent", "builtin", "Google ADK LlmAgent, built-in tracing, no switch set",
    ),
    "adk-builtin-legacy": Scenario(
        "adk", "adk_agent", "builtin",
        "Google ADK LlmAgent, built-in tracing, legacy schema (ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1)",
        {"ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN": "1"},
    ),
    "adk-openinference": Scenario(
        "adk", "adk_agent", "openinference",
        "Google ADK LlmAgent, openinference-instrumentation-google-adk",
    ),
    # ------------------------------------------------------------- CrewAI 1.x
    "crewai-openinference": Scenario(
        "crewai", "crewai_crew", "openinference",
        "CrewAI crew (one agent, one task), openinference-instrumentation-crewai",
    ),
    "crewai-openinference-hidden": Scenario(
        "crewai", "crewai_crew", "openinference",
        "CrewAI crew, openinference-instrumentation-crewai, OPENINFERENCE_HIDE_OUTPUTS=true",
        {"OPENINFERENCE_HIDE_OUTPUTS": "true"},
    ),
    "crewai-openllmetry": Scenario(
        "crewai", "crewai_crew", "openllmetry",
        "CrewAI crew (one agent, one task), OpenLLMetry opentelemetry-instrumentation-crewai",
        TRACELOOP_CONTENT,
    ),
}


def requirements(env: str) -> Path:
    return ENVS / env / REQUIREMENTS


def requirements_hash(env: str) -> str:
    """What names an env's build: its pinned requirements and the Python minor version."""
    digest = hashlib.sha256(requirements(env).read_bytes())
    digest.update(f"python{sys.version_info[0]}.{sys.version_info[1]}".encode())
    return digest.hexdigest()[:HASH_CHARS]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / CACHE_SUBDIR


def env_dir(env: str) -> Path:
    """Where `make fw-envs` builds `env`: fw-<env>-<hash of its requirements>."""
    return cache_root() / f"fw-{env}-{requirements_hash(env)}"


def env_python(env: str) -> Path:
    return env_dir(env) / "bin" / "python"


def env_names() -> list[str]:
    return sorted(p.name for p in ENVS.iterdir() if (p / REQUIREMENTS).is_file())


