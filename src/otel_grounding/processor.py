"""`GroundingSpanProcessor`: enriches run spans before any exporter, off the application's thread.

A wrapping processor: it owns the next processor (usually a `BatchSpanProcessor`) and hands it
every span exactly once, a run span replaced by its enriched copy. Ordinary and step spans are
forwarded at once from the thread that ends them; a run span is graded on the scoring worker
and forwarded from there, so it can reach the next processor after spans that ended later
(a `BatchSpanProcessor` does not care; exporters never promised an order). With
`scoring_mode="inline"` runs are graded in the ending thread instead.
With a judge configured, a run graded on the worker may be judged on the judge tier's threads
and forwarded from there (at most `judge_timeout` later); flush and shutdown wait for it.
What happens to a span between start and leaving is `runs.RunLifecycle`'s; this is its adapter
to the `SpanProcessor` interface and the shell's error boundary. An ordinary span (no key any
convention reads, in a trace holding nothing) is told apart here, in the frame the SDK calls,
by C calls only (`pipeline.skip_test`): no other frame of ours runs for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

from otel_grounding.internal_error import internal_error
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode, check_wrapped
from otel_grounding.runs import RunLifecycle, scoring_worker, shell_scorer
from otel_grounding.sdkcompat import TRACE_ID, ForwardsEnding, acting_hook
from otel_grounding.sdkspan import configured_value_limit

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from otel_grounding.shell_options import ShellOptions

class GroundingSpanProcessor(ForwardsEnding, SpanProcessor):
    """Add the claim grounding rate and coverage grade to agent run spans, then forward.

    `min_claim_grounding_rate` is the default threshold; `project_settings` maps a project id
    to its settings document (`{"min_claim_grounding_rate": 0.9}`), which wins for that
    project. Every setting is a keyword argument (typed by `ShellOptions`, listed in the
    README); anything not given is read from `OTEL_GROUNDING_*` variables or the settings file.
    """

    def __init__(
        self,
        next_processor: SpanProcessor,
        **options: Unpack[ShellOptions],
    ) -> None:
        check_wrapped(next_processor, ("on_start", "on_end", "shutdown", "force_flush"),
                      "GroundingSpanProcessor(BatchSpanProcessor(exporter))")
        self._next = next_processor
        self._next_end = next_processor.on_end
        self.pipeline = GroundingPipeline.configure(scorer_for=shell_scorer, **options)
        check_judge_mode(self.pipeline)
        self._runs = RunLifecycle(
            self.pipeline,
            scoring_worker(self.pipeline.settings),
            self._next_end,  # the runs that leave from the worker or a judge thread
            configured_value_limit(),
        )
        skip = self.pipeline.skip_test  # the ordinary span's test, done here (see on_end)
        self._unmarked, self._holds, self._seen = skip.unmarked, skip.holds, skip.seen
        # The SDK's processors' `on_start` and `_on_ending` do nothing: not called per span.
        if acting_hook(next_processor, "on_start") is not None:
            self.on_start = self._start_and_forward  # type: ignore[method-assign]
        self._forward_ending(next_processor)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        unmarked = self._unmarked  # a local call: see on_end
        try:
            try:  # the field `sdkcompat.own_attributes` names, read inline (see on_end)
                tracked = not unmarked(span._attributes._dict)  # type: ignore[union-attr]
            except AttributeError:  # not the SDK's own fields: `start` reads them its way
                tracked = True
            if tracked:
                self._runs.start(span)
        except Exception:  # the shell's boundary: never into the application
            internal_error("processor on_start", self._runs.count_error)

    def _start_and_forward(self, span: Span, parent_context: Context | None = None) -> None:
        """`on_start` when the next processor's own does something."""
        try:
            GroundingSpanProcessor.on_start(self, span, parent_context)
        finally:
            self._next.on_start(span, parent_context=parent_context)

    def on_end(self, span: ReadableSpan) -> None:
        # `pipeline.skips` as C calls on the fields `sdkcompat.own_attributes` and `own_context`
        # name, read inline (a getter call costs several attribute reads): an ordinary span in
        # a trace holding nothing goes on from this one frame. The callables are read into
        # locals first: CPython does not specialise a method-style call of an instance
        # attribute (`self._holds(...)`), and that look-up costs more than the call.
        unmarked, holds, next_end = self._unmarked, self._holds, self._next_end
        try:
            skipped = unmarked(span._attributes._dict) and not holds(  # type: ignore[union-attr]
                span._context[TRACE_ID]  # type: ignore[index]
            )
        except (AttributeError, TypeError):  # not the SDK's own fields: `end` falls back
            skipped = False
        if skipped:
            next(self._seen)
            next_end(span)
        else:
            self._end(span)

    def _end(self, span: ReadableSpan) -> None:
        """A span the skip test keeps: its lifecycle, behind the shell's boundary."""
        out: ReadableSpan | None = span
        try:
            out = self._runs.end(span)
        except Exception:  # the shell's boundary: never into the application; the original goes on
            internal_error("processor on_end", self._runs.count_error)
        finally:
            if out is not None:
                self._next_end(out)

    def shutdown(self) -> None:
        self._runs.shutdown(self._next.shutdown)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Grade and forward the runs on the worker, then flush the next processor, all
        within `timeout_millis`."""
        return self._runs.flush(timeout_millis, self._next.force_flush)
