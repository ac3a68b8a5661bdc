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
    "USE_OTEL_LITELLM_REQUEST_SPAN",
    "SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS",
    "SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE",
    "ENABLE_OTEL",
    "ENABLE_INSTRUMENTATION",
    "ENABLE_SENSITIVE_DATA",
)


@dataclass(frozen=True)
class Scenario:
    """One framework × instrumentation × switch combination.

    `module` (in env_scenarios/) builds the agent; `instrumentor` ("module:Class", None for the
    framework's built-in tracing alone) is instrumented against the provider first; `options`
    go to the module's `agent()`.
    """

    env: str
    module: str
    instrumentor: str | None
    about: str
    environ: dict[str, str] = field(default_factory=dict)
    options: dict[str, bool] = field(default_factory=dict)


#: The instrumentations under test ("module:Class").
OPENAI_V2 = "opentelemetry.instrumentation.openai_v2:OpenAIInstrumentor"
OI_OPENAI = "openinference.instrumentation.openai:OpenAIInstrumentor"
OI_AUTOGEN = "openinference.instrumentation.autogen_agentchat:AutogenAgentChatInstrumentor"
OI_LLAMA_INDEX = "openinference.instrumentation.llama_index:LlamaIndexInstrumentor"
OLLM_LLAMA_INDEX = "opentelemetry.instrumentation.llamaindex:LlamaIndexInstrumentor"
OI_ADK = "openinference.instrumentation.google_adk:GoogleADKInstrumentor"
OI_CREWAI = "openinference.instrumentation.crewai:CrewAIInstrumentor"
OLLM_CREWAI = "opentelemetry.instrumentation.crewai:CrewAIInstrumentor"
BUILT_IN = None
#: LiteLLM's own OpenTelemetry callback (`litellm.callbacks = ["otel"]`), set by the scenario.
LITELLM_OTEL = None
#: LiteLLM's switch for a `litellm_request` child span per call (default: it writes the call
#: onto the span that is current).
LITELLM_REQUEST_SPAN = {"USE_OTEL_LITELLM_REQUEST_SPAN": "true"}
LITELLM_LATEST = {**LITELLM_REQUEST_SPAN, "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"}
ASYNC = {"async_calls": True}
STREAM = {"stream": True}
#: The hand-rolled loop's app also opens an `execute_tool` span per call.
TOOL_SPANS = {"tool_spans": True}
LOOP = "hand-rolled `openai` loop"

SCENARIOS: dict[str, Scenario] = {
    # ------------------------------------------------------------- hand-rolled openai loop
    "openai-loop-genai": Scenario(
        "openai", "openai_loop", OPENAI_V2,
        f"{LOOP}, opentelemetry-instrumentation-openai-v2; app span only", GENAI_CONTENT,
    ),
    "openai-loop-genai-tool-span": Scenario(
        "openai", "openai_loop", OPENAI_V2,
        f"{LOOP}, opentelemetry-instrumentation-openai-v2; app + execute_tool spans",
        GENAI_CONTENT, TOOL_SPANS,
    ),
    "openai-loop-genai-no-content": Scenario(
        "openai", "openai_loop", OPENAI_V2,
        f"{LOOP}, opentelemetry-instrumentation-openai-v2, content off (its default)",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"}, TOOL_SPANS,
    ),
    "openai-loop-openinference": Scenario(
        "openai", "openai_loop", OI_OPENAI,
        f"{LOOP}, openinference-instrumentation-openai; app span only",
    ),
    "openai-loop-openinference-tool-span": Scenario(
        "openai", "openai_loop", OI_OPENAI,
        f"{LOOP}, openinference-instrumentation-openai; app + execute_tool spans",
        options=TOOL_SPANS,
    ),
    # ------------------------------------------------------------- LiteLLM's otel callback
    "litellm-default": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, defaults (the call written onto the app's run span)",
    ),
    "litellm-default-async": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, defaults, acompletion", options=ASYNC,
    ),
    "litellm-request-span": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, USE_OTEL_LITELLM_REQUEST_SPAN=true", LITELLM_REQUEST_SPAN,
    ),
    "litellm-request-span-latest": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, request spans, gen_ai_latest_experimental", LITELLM_LATEST,
    ),
    "litellm-request-span-async": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, request spans, acompletion", LITELLM_REQUEST_SPAN, ASYNC,
    ),
    "litellm-stream": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, streamed calls", options=STREAM,
    ),
    "litellm-request-span-stream": Scenario(
        "litellm", "litellm_loop", LITELLM_OTEL,
        "LiteLLM loop, otel callback, request spans, streamed calls", LITELLM_REQUEST_SPAN, STREAM,
    ),
    # ------------------------------------------------------------- OpenLIT
    "openlit-openai-loop": Scenario(
        "openlit", "openlit_loop", None, f"{LOOP}, traced by OpenLIT (openlit.init())",
    ),
    "openlit-openai-loop-tool-span": Scenario(
        "openlit", "openlit_loop", None,
        f"{LOOP}, traced by OpenLIT; app + execute_tool spans", options=TOOL_SPANS,
    ),
    "openlit-agno": Scenario(
        "openlit", "openlit_agno", None, "Agno Agent on OpenAIChat, traced by OpenLIT",
    ),
    # ------------------------------------------------------------- Semantic Kernel 1.x
    "semantic-kernel-sensitive": Scenario(
        "semantic-kernel", "semantic_kernel_agent", None,
        "Semantic Kernel ChatCompletionAgent, built-in telemetry, sensitive diagnostics on",
        {
            "SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS": "true",
            "SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE": "true",
        },
    ),
    "semantic-kernel-diagnostics": Scenario(
        "semantic-kernel", "semantic_kernel_agent", None,
        "Semantic Kernel ChatCompletionAgent, built-in telemetry, diagnostics without content",
        {"SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS": "true"},
    ),
    # ------------------------------------------------------------- Microsoft Agent Framework
    "agent-framework-sensitive": Scenario(
        "agent-framework", "agent_framework_agent", None,
        "Microsoft Agent Framework Agent, built-in telemetry, ENABLE_SENSITIVE_DATA=true",
        {"ENABLE_SENSITIVE_DATA": "true"},
    ),
    "agent-framework-default": Scenario(
        "agent-framework", "agent_framework_agent", None,
        "Microsoft Agent Framework Agent, built-in telemetry, defaults (no sensitive data)",
    ),
    # ------------------------------------------------------------- AutoGen AgentChat 0.7
    "autogen-builtin": Scenario(
        "autogen", "autogen_agentchat", BUILT_IN,
        "AutoGen AgentChat AssistantAgent, built-in tracing alone",
    ),
    "autogen-genai": Scenario(
        "autogen", "autogen_agentchat", OPENAI_V2,
        "AutoGen AgentChat, built-in tracing + opentelemetry-instrumentation-openai-v2",
        GENAI_CONTENT,
    ),
    "autogen-openinference": Scenario(
        "autogen", "autogen_agentchat", OI_AUTOGEN,
        "AutoGen AgentChat, built-in tracing + openinference-instrumentation-autogen-agentchat",
    ),
    # ------------------------------------------------------------- LlamaIndex FunctionAgent
    "llamaindex-openinference": Scenario(
        "llamaindex", "llamaindex_agent", OI_LLAMA_INDEX,
        "LlamaIndex FunctionAgent, openinference-instrumentation-llama-index",
    ),
    "llamaindex-openllmetry": Scenario(
        "llamaindex", "llamaindex_agent", OLLM_LLAMA_INDEX,
        "LlamaIndex FunctionAgent, OpenLLMetry opentelemetry-instrumentation-llamaindex",
        TRACELOOP_CONTENT,
    ),
    # ------------------------------------------------------------- Strands Agents 1.x
    "strands-default": Scenario(
        "strands", "strands_agent", BUILT_IN, "Strands Agents, built-in tracing, defaults",
    ),
    "strands-latest": Scenario(
        "strands", "strands_agent", BUILT_IN,
        "Strands Agents, OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"},
    ),
    "strands-latest-span-attributes": Scenario(
        "strands", "strands_agent", BUILT_IN,
        "Strands Agents, gen_ai_latest_experimental,gen_ai_span_attributes_only",
        {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental,gen_ai_span_attributes_only"},
    ),
    # ------------------------------------------------------------- Google ADK 2.x
    "adk-builtin": Scenario(
        "adk", "adk_agent", BUILT_IN,
        "Google ADK LlmAgent, built-in tracing, content SPAN_ONLY",
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY"},
    ),
    "adk-builtin-default": Scenario(
        "adk", "adk_agent", BUILT_IN, "Google ADK LlmAgent, built-in tracing, no switch set",
    ),
    "adk-builtin-legacy": Scenario(
        "adk", "adk_agent", BUILT_IN,
        "Google ADK LlmAgent, built-in tracing, legacy schema (ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1)",
        {"ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN": "1"},
    ),
    "adk-openinference": Scenario(
        "adk", "adk_agent", OI_ADK,
        "Google ADK LlmAgent, openinference-instrumentation-google-adk",
    ),
    # ------------------------------------------------------------- CrewAI 1.x
    "crewai-openinference": Scenario(
        "crewai", "crewai_crew", OI_CREWAI,
        "CrewAI crew (one agent, one task), openinference-instrumentation-crewai",
    ),
    "crewai-openinference-hidden": Scenario(
        "crewai", "crewai_crew", OI_CREWAI,
        "CrewAI crew, openinference-instrumentation-crewai, OPENINFERENCE_HIDE_OUTPUTS=true",
        {"OPENINFERENCE_HIDE_OUTPUTS": "true"},
    ),
    "crewai-openllmetry": Scenario(
        "crewai", "crewai_crew", OLLM_CREWAI,
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
    """The project's build cache, as .ci/otel-binaries names it: `OTEL_GROUNDING_CACHE`, else
    ${XDG_CACHE_HOME:-~/.cache}/otel-grounding."""
    if os.environ.get("OTEL_GROUNDING_CACHE"):
        return Path(os.environ["OTEL_GROUNDING_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / CACHE_SUBDIR


def env_dir(env: str) -> Path:
    """Where `make fw-envs` builds `env`: fw-<env>-<hash of its requirements>."""
    return cache_root() / f"fw-{env}-{requirements_hash(env)}"


def env_python(env: str) -> Path:
    return env_dir(env) / "bin" / "python"


#: Envs that hold no framework: the oldest supported OpenTelemetry SDK alone (test_sdkcompat.py).
SDK_OLDEST = "sdk-oldest"
SDK_ENVS = (SDK_OLDEST,)


def env_names() -> list[str]:
    return sorted(p.name for p in ENVS.iterdir() if (p / REQUIREMENTS).is_file())


