"""The checks of `otel_grounding.sdkcompat` against the installed OpenTelemetry SDK, on real SDK
objects. Run by tests/test_sdkcompat.py in the project's venv (the newest SDK) and in the
`sdk-oldest` env (the lowest SDK pyproject.toml allows; `make fw-envs` builds it):

    PYTHONPATH=src:tests <env>/bin/python tests/sdkcompat_checks.py

prints `{"sdk": version, "failures": {check: message}}` as JSON (no failures: all passed).
Needs only the SDK and otel_grounding (no pytest: the env holds the SDK alone).
"""

from __future__ import annotations

import json
import sys
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from opentelemetry.sdk.trace import ReadableSpan, SpanLimits, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.version import __version__ as SDK_VERSION

from otel_grounding import GroundingSpanProcessor, sdkcompat
from otel_grounding import attributes as A
from otel_grounding.conventions import native
from otel_grounding.enrichment import Enrichment
from otel_grounding.sdkspan import enriched_copy

from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES, Pipeline, attrs

CHECKS: dict[str, Callable[[], None]] = {}


def check(function: Callable[[], None]) -> Callable[[], None]:
    CHECKS[function.__name__] = function
    return function


def _ended(provider: TracerProvider, exporter: InMemorySpanExporter, **attributes: Any) -> ReadableSpan:
    with provider.get_tracer("checks", "1.2.3").start_as_current_span("s", attributes=attributes):
        pass
    return exporter.get_finished_spans()[-1]


def _provider(**limits: Any) -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(span_limits=SpanLimits(**limits) if limits else None)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


@check
def value_limit_is_the_providers() -> None:
    provider, exporter = _provider(max_span_attribute_length=7)
    with provider.get_tracer("checks").start_as_current_span("s") as span:
        assert sdkcompat.value_limit(span, 99) == 7
    assert sdkcompat.value_limit(exporter.get_finished_spans()[-1], 99) == 7  # an ended span too
    unlimited, exporter = _provider()
    with unlimited.get_tracer("checks").start_as_current_span("s") as span:
        assert sdkcompat.value_limit(span, 99) is None  # the provider's own: no limit


@check
def attribute_dict_is_the_live_storage() -> None:
    provider, exporter = _provider()
    with provider.get_tracer("checks").start_as_current_span("s", attributes={"a": 1}) as span:
        seen = sdkcompat.attribute_dict(span)
        assert type(seen) is dict, type(seen)  # the SDK's own dict, not a proxy or a copy
        span.set_attribute("b", "x")
        assert seen == {"a": 1, "b": "x"}, seen
    ended = exporter.get_finished_spans()[-1]
    assert sdkcompat.attribute_dict(ended) == dict(ended.attributes or {}) == {"a": 1, "b": "x"}


@check
def span_context_is_the_spans() -> None:
    provider, exporter = _provider()
    with provider.get_tracer("checks").start_as_current_span("s") as span:
        assert sdkcompat.span_context(span) == span.get_span_context()
    ended = exporter.get_finished_spans()[-1]
    assert sdkcompat.span_context(ended) == ended.context


@check
def instrumentation_info_is_read_without_a_warning() -> None:
    provider, exporter = _provider()
    ended = _ended(provider, exporter)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the public property warns: it must not be read
        info = sdkcompat.instrumentation_info(ended)
    assert info is not None and info.name == "checks" and info.version == "1.2.3", info


@check
def bounded_containers_carry_dropped_counts() -> None:
    provider, exporter = _provider(max_span_attributes=1, max_events=1, max_links=0)
    tracer = provider.get_tracer("checks")
    other = tracer.start_span("other")
    other.end()
    from opentelemetry.trace import Link

    with tracer.start_as_current_span(
        "s", attributes={"a": 1, "b": 2, "c": 3}, links=[Link(other.get_span_context())]
    ) as span:
        span.add_event("e1")
        span.add_event("e2")
    ended = exporter.get_finished_spans()[-1]
    assert (ended.dropped_attributes, ended.dropped_events, ended.dropped_links) == (2, 1, 1)
    copy = enriched_copy(ended, Enrichment(attributes={"x": "y"}, remove=(), events=()))
    assert (copy.dropped_attributes, copy.dropped_events, copy.dropped_links) == (2, 1, 1)
    assert dict(copy.attributes or {}) == {**dict(ended.attributes or {}), "x": "y"}
    try:
        copy.attributes["z"] = 1  # type: ignore[index]
    except TypeError:
        pass
    else:
        raise AssertionError("the copy's attributes are mutable")


@check
def ending_hook_is_forwarded_where_the_sdk_calls_it() -> None:
    calls: list[str] = []

    class Recording(SpanProcessor):
        def _on_ending(self, span: Any) -> None:
            calls.append(span.name)

    provider = TracerProvider()
    provider.add_span_processor(GroundingSpanProcessor(Recording(), scoring_mode="inline"))
    with provider.get_tracer("checks").start_as_current_span("s"):
        pass
    sdk_calls_it = hasattr(SpanProcessor, "_on_ending")
    assert calls == (["s"] if sdk_calls_it else []), (calls, SDK_VERSION)
    assert sdkcompat.ending_hook(Recording()) is not None
    assert sdkcompat.ending_hook(object()) is None


@check
def the_sdk_processors_hooks_that_do_nothing_are_not_called() -> None:
    simple = SimpleSpanProcessor(InMemorySpanExporter())
    assert sdkcompat.acting_hook(simple, "on_start") is None
    assert sdkcompat.acting_hook(simple, "_on_ending") is None
    assert sdkcompat.acting_hook(simple, "on_end") is not None

    class Acting(SpanProcessor):
        def on_start(self, span: Any, parent_context: Any = None) -> None:
            span.set_attribute("seen", True)

    assert sdkcompat.acting_hook(Acting(), "on_start") is not None


@check
def the_hot_path_getters_read_the_spans_own_fields() -> None:
    provider, exporter = _provider()
    with provider.get_tracer("checks").start_as_current_span("s", attributes={"a": 1}) as span:
        assert sdkcompat.own_attributes(span) is sdkcompat.attribute_dict(span)
        assert sdkcompat.own_context(span)[sdkcompat.TRACE_ID] == span.get_span_context().trace_id
    ended = exporter.get_finished_spans()[-1]
    assert sdkcompat.own_attributes(ended) == {"a": 1}
    assert ended.context is not None
    assert sdkcompat.own_context(ended)[sdkcompat.TRACE_ID] == ended.context.trace_id


@check
def a_run_is_graded_and_truncation_seen_through_provider_limits() -> None:
    p = Pipeline(scoring_mode="inline")
    p.golden_run()
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "full" and abs(run[A.RATE] - 2 / 3) < 1e-9, run
    q = Pipeline(span_limits=SpanLimits(max_span_attribute_length=20), scoring_mode="inline")
    with q.run() as span:
        q.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    assert A.REASON_OUTPUT_TRUNCATED in attrs(q.span("run"))[A.COVERAGE_REASON]


@check
def instrumentation_is_suppressed_with_the_keys_instrumentations_read() -> None:
    from opentelemetry import context

    key = context._SUPPRESS_INSTRUMENTATION_KEY  # what the SDK's own exporters set
    assert not context.get_value(key)
    with sdkcompat.instrumentation_suppressed():
        assert context.get_value(key) is True
        assert context.get_value(sdkcompat.PLAIN_SUPPRESS_KEY) is True
    assert not context.get_value(key) and not context.get_value(sdkcompat.PLAIN_SUPPRESS_KEY)


@check
def no_fallback_was_taken() -> None:
    assert not sdkcompat.degraded(), sorted(sdkcompat.degraded())


def run_checks() -> dict[str, str]:
    """Each failing check's message (empty: every check passed); `no_fallback_was_taken` last."""
    failures: dict[str, str] = {}
    for name, function in CHECKS.items():
        try:
            function()
        except Exception:
            failures[name] = traceback.format_exc(limit=3)
    return failures


if __name__ == "__main__":
    print(json.dumps({"sdk": SDK_VERSION, "failures": run_checks()}))
