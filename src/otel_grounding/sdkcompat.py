"""Every place we touch the OpenTelemetry SDK's private surface, each with a documented fallback.

The SDK shells read a few private fields for speed or for facts the public API does not give
(the limits a provider records under, the attributes' own dict), and build spans the way the SDK
does; the product's own threads turn instrumentation off with the API's private key, as the
SDK's exporters do. Each touch point is one function here, checked against the oldest and the
newest supported SDK (tests/test_sdkcompat.py). When an SDK release renames one, the function
falls back to the public API and says so once in the log (and in `degraded()`): a named,
visible degradation, never a silent change of behaviour.
"""

from __future__ import annotations

import dis
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from operator import attrgetter
from typing import Any, Final

from opentelemetry import context
from opentelemetry.attributes import BoundedAttributes
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.util import BoundedList
from opentelemetry.trace import SpanContext

logger = logging.getLogger("otel_grounding")

#: The names under which `degraded()` reports each fallback taken.
SPAN_LIMITS = "span-limits"
ATTRIBUTE_DICT = "attribute-dict"
SPAN_CONTEXT = "span-context"
INSTRUMENTATION_INFO = "instrumentation-info"
DROPPED_COUNT = "dropped-count"
SUPPRESS_KEY = "suppress-instrumentation-key"

#: What each fallback costs, as logged (once) when it is first taken.
CONSEQUENCES: Mapping[str, str] = {
    SPAN_LIMITS: "the span limits of the provider are unknown: truncation is detected against "
    "the limits configured by OTEL_* variables only",
    ATTRIBUTE_DICT: "span attributes are read through the public property (slower, same content)",
    SPAN_CONTEXT: "the span context is read through the public property (slower, same content)",
    INSTRUMENTATION_INFO: "enriched copies carry no deprecated instrumentation_info "
    "(instrumentation_scope is kept)",
    DROPPED_COUNT: "enriched copies report no dropped attributes, events or links",
    SUPPRESS_KEY: "the product's own calls are marked with the plain \"suppress_instrumentation\" "
    "key only: an instrumentation that reads only the API's key may trace them",
}

#: The key instrumentations read besides the API's own (`opentelemetry.instrumentation.utils`).
PLAIN_SUPPRESS_KEY = "suppress_instrumentation"

_EMPTY: Mapping[str, object] = {}
_lock = threading.Lock()
_degraded: set[str] = set()


def _fall_back(name: str) -> None:
    """Record that fallback `name` was taken; log it the first time."""
    if name in _degraded:
        return
    with _lock:
        if name in _degraded:
            return
        _degraded.add(name)
    logger.warning(
        "otel-grounding: this OpenTelemetry SDK has no %s field we read; %s",
        name,
        CONSEQUENCES[name],
    )


def degraded() -> frozenset[str]:
    """The fallbacks taken so far in this process (empty on a supported SDK)."""
    return frozenset(_degraded)


def value_limit(span: Any, configured: int | None) -> int | None:
    """The attribute value-length limit the span was recorded under: its `BoundedAttributes`'
    `max_value_len`, which the SDK sets from its provider's `SpanLimits` (they may differ from
    the environment's) and an ended span keeps. A span built by hand with plain attributes gives
    `configured` (the `OTEL_*` variables' limit). Fallback: `configured` too."""
    try:
        attributes = span._attributes
    except AttributeError:
        _fall_back(SPAN_LIMITS)
        return configured
    if isinstance(attributes, BoundedAttributes):
        return attributes.max_value_len
    return configured


def attribute_dict(span: ReadableSpan) -> Mapping[str, object]:
    """The span's attributes without a copy: the SDK's own plain dict inside its
    `BoundedAttributes` (`span._attributes._dict`; the public property builds a mapping proxy
    per call and iterating a live span's attributes copies them under a lock). A span built with
    a plain dict gives that dict. Fallback: the public `span.attributes`."""
    try:
        attributes = span._attributes
    except AttributeError:
        _fall_back(ATTRIBUTE_DICT)
        return span.attributes or _EMPTY
    if attributes is None:
        return _EMPTY
    own = getattr(attributes, "_dict", None)
    if own is not None:
        return own
    if isinstance(attributes, dict):
        return attributes
    _fall_back(ATTRIBUTE_DICT)
    return span.attributes or _EMPTY


def span_context(span: ReadableSpan) -> SpanContext | None:
    """The span's context from its field (`span._context`, as the public property reads it,
    without the property call on the hot path). Fallback: the public `span.context`."""
    try:
        return span._context
    except AttributeError:
        _fall_back(SPAN_CONTEXT)
        return span.context


def instrumentation_info(span: ReadableSpan) -> Any:
    """The deprecated `instrumentation_info` a copy of `span` must carry (`_instrumentation_info`;
    the public property warns on every read). Fallback: None (the scope is copied anyway)."""
    try:
        return span._instrumentation_info
    except AttributeError:
        _fall_back(INSTRUMENTATION_INFO)
        return None


def _set_dropped(bounded: Any, count: int) -> None:
    if hasattr(bounded, "dropped"):
        bounded.dropped = count
    elif count:
        _fall_back(DROPPED_COUNT)


def bounded_attributes(values: Mapping[str, Any], dropped: int) -> BoundedAttributes:
    """Immutable span attributes carrying a dropped count (no constructor takes one: the SDK's
    `dropped` field is set, which `ReadableSpan.dropped_attributes` reads back). No count limit
    is applied. Fallback: the count is not carried."""
    attributes = BoundedAttributes(maxlen=None, attributes=values, immutable=True)
    _set_dropped(attributes, dropped)
    return attributes


def bounded_list(items: Sequence[Any], dropped: int) -> BoundedList:
    """Span events or links carrying a dropped count (as `bounded_attributes`)."""
    bounded: BoundedList = BoundedList(None)
    bounded.extend(items)
    _set_dropped(bounded, dropped)
    return bounded


#: The hot path's reads of an ended or live SDK span, as C getters (no Python frame per span):
#: the attributes' own dict, and the span context, a tuple (the API defines it so) whose item
#: `TRACE_ID` is the trace id (its property would be a frame). They raise AttributeError or
#: TypeError where the field is not there (a span built by hand with a plain dict or no
#: context, an SDK that renamed a field): the caller then asks `attribute_dict` /
#: `span_context`, which fall back (and say so). `GroundingSpanProcessor.on_start`/`on_end`
#: read the same two fields inline (an attribute read costs a fraction of a getter call), on
#: the same terms: where that raises, `RunLifecycle` reads the span through these.
own_attributes: Callable[[Any], Mapping[str, object]] = attrgetter("_attributes._dict")
own_context: Callable[[Any], SpanContext] = attrgetter("_context")
TRACE_ID: Final = 0


#: The bytecode of a body that does nothing (`pass` or a docstring): return None.
_NOTHING = ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def _does_nothing(function: Any) -> bool:
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    ops = [
        (op.opname, op.argval)
        for op in dis.get_instructions(code)
        if op.opname not in ("RESUME", "NOP", "CACHE")
    ]
    return ops in _NOTHING


def acting_hook(processor: object, name: str) -> Callable[..., None] | None:
    """`processor`'s hook `name` (`on_start`, `_on_ending`), or None when it has none or it does
    nothing (its body is a docstring or `pass`, as the SDK's own processors' `on_start` and
    `_on_ending` are): a wrapper then need not call it for every span. `_on_ending` is what
    newer SDKs call on every processor between a span's end and `on_end` (none before 1.3x)."""
    hook = getattr(processor, name, None)
    if not callable(hook) or _does_nothing(getattr(hook, "__func__", None)):
        return None
    return hook


def ending_hook(processor: object) -> Callable[[Any], None] | None:
    """The `_on_ending` hook of a span processor that does something, else None (see
    `acting_hook`)."""
    return acting_hook(processor, "_on_ending")


@contextmanager
def instrumentation_suppressed() -> Iterator[None]:
    """Instrumentation off for what runs inside (this thread's context): the judge's model
    calls, an exporter's requests, as the SDK's exporters mark their own. Sets the API's private
    `_SUPPRESS_INSTRUMENTATION_KEY` and the plain key older instrumentations read, as
    `opentelemetry.instrumentation.utils.suppress_instrumentation` does (a package we do not
    require). Fallback: the plain key only."""
    key = getattr(context, "_SUPPRESS_INSTRUMENTATION_KEY", None)
    if key is None:
        _fall_back(SUPPRESS_KEY)
    values = context.set_value(PLAIN_SUPPRESS_KEY, True)
    if key is not None:
        values = context.set_value(key, True, values)
    token = context.attach(values)
    try:
        yield
    finally:
        context.detach(token)


class ForwardsEnding:
    """For a processor that wraps another: the SDK's `_on_ending` hook, forwarded to the
    wrapped processor's. Call `_forward_ending(wrapped)` once built: when the wrapped hook does
    something it becomes this instance's own hook (the SDK calls it directly, no frame of ours
    between); otherwise this one, which does nothing, stays."""

    def _forward_ending(self, wrapped: object) -> None:
        hook = ending_hook(wrapped)
        if hook is not None:
            self._on_ending = hook  # type: ignore[method-assign,assignment]

    def _on_ending(self, span: Any) -> None:
        """Nothing to forward: the wrapped processor's hook does nothing or is not there."""


__all__ = [
    "CONSEQUENCES",
    "TRACE_ID",
    "ForwardsEnding",
    "acting_hook",
    "attribute_dict",
    "bounded_attributes",
    "bounded_list",
    "degraded",
    "ending_hook",
    "instrumentation_info",
    "instrumentation_suppressed",
    "own_attributes",
    "own_context",
    "span_context",
    "value_limit",
]
