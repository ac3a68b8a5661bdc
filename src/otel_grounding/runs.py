"""`RunLifecycle`: what the SDK shells do with a span from its start to the moment it leaves,
written once. `GroundingSpanProcessor` and `GroundingSpanExporter` are thin adapters over it,
as the SDK's `BatchSpanProcessor` is over its generic `BatchProcessor`.

An ended span that is not a run leaves at once (enriched when it must be). A run span is begun
(`GroundingPipeline.begin_run`) and becomes a `BegunRun`, which is settled exactly once:
graded now (inline), graded later on the scoring worker (and maybe the judge tier), or refused
(the worker is full or shut down, or the shell failed between). A second settle raises; a run
the shell fails to settle is refused on the way out. The run span then leaves, exactly once:
returned to the shell (now) or handed to `forward` (later, from the worker or a judge thread).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Literal

from opentelemetry.sdk.trace import ReadableSpan, Span

from otel_grounding import attributes as attr
from otel_grounding.config import SCORING_BACKGROUND, SCORING_INLINE, GroundingSettings
from otel_grounding.conventions import RUN, SpanReading
from otel_grounding.enrichment import Enrichment
from otel_grounding.internal_error import internal_error
from otel_grounding.pipeline import GroundingPipeline, Scorer
from otel_grounding.scoring import score
from otel_grounding.scoring_process import shared_scorer
from otel_grounding.sdkcompat import (
    TRACE_ID,
    attribute_dict,
    own_attributes,
    own_context,
    span_context,
)
from otel_grounding.sdkspan import enriched_copy, start_view, to_view
from otel_grounding.spanview import SpanView
from otel_grounding.worker import Worker

#: How long `shutdown()` (which the SDK gives no timeout) waits for the runs being graded.
SHUTDOWN_TIMEOUT_S = 30.0

Forward = Callable[[ReadableSpan], None]


def shell_scorer(settings: GroundingSettings) -> Scorer:
    """The scorer an SDK shell's pipeline is built with: a child process in the default mode
    (grading never holds the application's interpreter lock), else `score` in this process."""
    return shared_scorer() if settings.scoring_mode == SCORING_BACKGROUND else score


def scoring_worker(
    settings: GroundingSettings, idle: Callable[[], None] | None = None
) -> Worker | None:
    """The worker an SDK shell grades runs on; None in inline mode (runs graded where they end)."""
    if settings.scoring_mode == SCORING_INLINE:
        return None
    return Worker(settings.scoring_queue_size, name="otel-grounding-scoring", idle=idle)


class RunLifecycle:
    """One SDK shell's spans, from start to leaving: built with the shell's collaborators.

    `worker` grades runs off the caller's thread (None: inline); `forward` receives the runs
    that leave later (graded on the worker, or refused there at shutdown); `forward_late` those
    the judge tier settles later still (default `forward`); `value_limit` is the attribute
    value-length limit the `OTEL_*` variables configure, for a span that does not carry its
    provider's own.
    """

    def __init__(
        self,
        pipeline: GroundingPipeline,
        worker: Worker | None,
        forward: Forward,
        value_limit: int | None,
        *,
        forward_late: Forward | None = None,
    ) -> None:
        self.pipeline = pipeline
        self._worker = worker
        self._forward = forward
        self._forward_late = forward_late or forward
        self._value_limit = value_limit
        self._skips = pipeline.skips
        self._unmarked = pipeline.markers.isdisjoint  # a C call: no frame on the hot path
        self._open = 0  # runs begun and not yet left
        self._open_lock = threading.Lock()

    @property
    def open_runs(self) -> int:
        """Runs begun whose span has not left yet (graded on the worker or judged right now)."""
        return self._open

    def count_error(self) -> None:
        """The pipeline's `scoring_errors` counter, as `internal_error` takes it."""
        self.pipeline.metrics.scoring_errors.add(1)

    # -- start --------------------------------------------------------------------------------
    def start(self, span: Span) -> None:
        """A span started: tracked until it ends when its start attributes already say what it
        is (every instrumentation sets the span kind at start); an ordinary span costs a set
        test. Raises what fails: the shell's boundary catches."""
        try:
            attributes = own_attributes(span)
        except AttributeError:
            attributes = attribute_dict(span)
        if not self._unmarked(attributes):
            self.pipeline.started(start_view(span))

    # -- end ----------------------------------------------------------------------------------
    def end(self, span: ReadableSpan) -> ReadableSpan | None:
        """A span ended: the span to forward now (the same object unless enriched), or None
        when the worker took the run (`forward` gets it). Raises what fails: the shell's
        boundary forwards the original (a run begun here is settled first)."""
        try:  # C getters on the hot path of every ordinary span
            attributes = own_attributes(span)
            trace_id = own_context(span)[TRACE_ID]
        except (AttributeError, TypeError):
            attributes, trace_id = attribute_dict(span), _trace_id(span)
        if self._skips(trace_id, attributes):
            return span  # an ordinary span in a trace that holds nothing: counted, as it is
        view = to_view(span, self._value_limit)
        reading = self.pipeline.read(view)
        if reading is None or reading.role != RUN:
            return self._observed(span, view, reading)
        return self._settled(self._begin(span, view, reading))

    def end_batch(self, spans: Sequence[ReadableSpan], where: str) -> list[ReadableSpan]:
        """An exporter's batch ended: the spans to export now, in order; the runs the worker
        took leave later through `forward`. Each span is its own boundary (`internal_error`
        at `where`): one that fails goes on unchanged, the others as they should.

        With a worker, the batch's runs are begun first, so that a local root ending before
        one of them (earlier in the batch) does not release the evidence the run needs; and
        they go to the worker last, once the batch's steps are in (a run takes its evidence
        when it is handed over, and a step may come after its run in a batch).
        """
        if self._worker is None:  # inline: nothing is taken, every span leaves now
            ended = [self._ended_or_original(span, where) for span in spans]
            return [span for span in ended if span is not None]
        early = [self._read_early(span, where) for span in spans]
        out: list[ReadableSpan] = []
        runs: list[BegunRun] = []
        try:
            for span, read in zip(spans, early, strict=True):
                self._end_in_batch(span, read, where, out, runs)
        finally:
            for run in runs:  # handed to the worker (or refused) even if a span above raised
                now = self._ended_or_original(run, where)
                if now is not None:
                    out.append(now)
        return out

    def _read_early(self, span: ReadableSpan, where: str) -> _Early:
        """A batch's first pass over one span: begun when it is a run, read when a convention
        may read it, else None (left for the second pass); False when that failed."""
        try:
            if self._unmarked(attribute_dict(span)):
                return None
            view = to_view(span, self._value_limit)
            reading = self.pipeline.read(view)
            if reading is not None and reading.role == RUN:
                return self._begin(span, view, reading)
            return view, reading
        except Exception:
            internal_error(where, self.count_error)
            return False

    def _end_in_batch(
        self,
        span: ReadableSpan,
        read: _Early,
        where: str,
        out: list[ReadableSpan],
        runs: list[BegunRun],
    ) -> None:
        """A batch's second pass over one span: appended to `out`, or its run to `runs`."""
        if isinstance(read, BegunRun):
            runs.append(read)
            return
        try:
            if read is None:
                self._end_unread(span, out, runs)
            elif read is False:
                out.append(span)
            else:
                view, reading = read
                out.append(self._observed(span, view, reading))
        except Exception:
            out.append(span)
            internal_error(where, self.count_error)

    def _end_unread(
        self, span: ReadableSpan, out: list[ReadableSpan], runs: list[BegunRun]
    ) -> None:
        """A span no convention may read by its keys: ordinary, or a step of a held trace, or
        its implicit run (a local root)."""
        if self._skips(_trace_id(span), attribute_dict(span)):
            out.append(span)
            return
        view = to_view(span, self._value_limit)
        reading = self.pipeline.read(view)
        if reading is not None and reading.role == RUN:
            runs.append(self._begin(span, view, reading))
        else:
            out.append(self._observed(span, view, reading))

    def _ended_or_original(self, item: ReadableSpan | BegunRun, where: str) -> ReadableSpan | None:
        """`end` (or, for a begun run, `_settled`) at a per-span boundary: the original when
        it fails."""
        try:
            if isinstance(item, BegunRun):
                return self._settled(item)
            return self.end(item)
        except Exception:
            internal_error(where, self.count_error)
            return item.span if isinstance(item, BegunRun) else item

    def _observed(
        self, span: ReadableSpan, view: SpanView, reading: SpanReading | None
    ) -> ReadableSpan:
        """A span that is not a run ended: the pipeline notes it; its content stripped when
        the settings say so."""
        enrichment = self.pipeline.observe(view, reading)
        return span if enrichment is None else enriched_copy(span, enrichment)

    # -- runs ---------------------------------------------------------------------------------
    def _begin(self, span: ReadableSpan, view: SpanView, reading: SpanReading) -> BegunRun:
        self.pipeline.begin_run(view, reading)
        with self._open_lock:
            self._open += 1
        return BegunRun(self, span, view, reading)

    def _settled(self, run: BegunRun) -> ReadableSpan | None:
        """A begun run graded now (inline), or taken by the worker (None), or refused when the
        worker is full. Whatever fails here, the run is settled before the error goes on."""
        try:
            if self._worker is None:
                return run.graded_now()
            self.pipeline.hand_over(run.view, run.reading)  # its evidence goes with it
            if self._worker.submit(run):
                return None
            return run.refused(attr.REASON_SCORING_OVERLOAD)
        except BaseException:
            run.settle_failed()
            raise

    def _left(self, span: ReadableSpan, *, late: bool) -> None:
        """A run span leaves from the worker or a judge thread."""
        self._closed()
        (self._forward_late if late else self._forward)(span)

    def _closed(self) -> None:
        with self._open_lock:
            self._open -= 1

    # -- flush and shutdown -------------------------------------------------------------------
    def flush(self, timeout_millis: int, flush_next: Callable[[int], bool]) -> bool:
        """A shell's `force_flush`: grade and forward the runs on the worker, settle the pending
        judgements, then flush what comes next with the time left, all within `timeout_millis`."""
        deadline = time.monotonic() + timeout_millis / 1000
        worker = self._worker
        drained = worker.flush(timeout_millis / 1000) if worker is not None else True
        drained = self.pipeline.flush_judges(deadline - time.monotonic()) and drained
        left = max(0, int((deadline - time.monotonic()) * 1000))
        return flush_next(left) and drained

    def shutdown(self, shutdown_next: Callable[[], None]) -> None:
        """A shell's `shutdown`: the worker runs what it holds (abandoning, as refused, what it
        cannot by the deadline), the judge tier settles, then what comes next shuts down, and
        the pipeline lets go of its state whatever failed."""
        try:
            deadline = time.monotonic() + SHUTDOWN_TIMEOUT_S
            if self._worker is not None:
                self._worker.shutdown(SHUTDOWN_TIMEOUT_S)
            self.pipeline.shutdown_judges(deadline - time.monotonic())
            shutdown_next()
        finally:
            self.pipeline.close()


def _trace_id(span: ReadableSpan) -> int:
    """The trace id through the public fallback (a span without the SDK's own field)."""
    context = span_context(span)
    return context.trace_id if context is not None else 0


class BegunRun:
    """A run span from `begin_run` until it leaves: settled exactly once, by exactly one of
    `graded_now`, `run` (graded on the worker; the `worker.Task` it is), `refused` or `abandon`
    (refused by the worker at shutdown); a second settle raises. It leaves exactly once too."""

    __slots__ = ("_runs", "span", "view", "reading", "_unsettled", "_deadline", "key")

    def __init__(
        self, runs: RunLifecycle, span: ReadableSpan, view: SpanView, reading: SpanReading
    ) -> None:
        self._runs = runs
        self.span = span
        self.view = view
        self.reading = reading
        self._unsettled = [True]  # emptied by the one settle (list.pop is atomic)
        self._deadline = time.monotonic() + runs.pipeline.settings.open_step_wait
        self.key = view.trace_id  # runs of one trace are graded in the order they ended

    @property
    def settled(self) -> bool:
        return not self._unsettled

    def _settle(self) -> None:
        try:
            self._unsettled.pop()
        except IndexError:
            raise RuntimeError("a run span was settled twice") from None

    def graded_now(self) -> ReadableSpan:
        """Inline: graded in this thread; the span to forward now."""
        self._settle()
        try:
            enrichment = self._runs.pipeline.finish_run(self.view, self.reading)
            return self.span if enrichment is None else enriched_copy(self.span, enrichment)
        finally:
            self._runs._closed()

    def refused(self, reason: str) -> ReadableSpan:
        """Not scored (`partial`, `reason`): the span to forward now."""
        self._settle()
        try:
            return enriched_copy(
                self.span, self._runs.pipeline.refuse_run(self.view, self.reading, reason)
            )
        finally:
            self._runs._closed()

    def settle_failed(self) -> None:
        """The shell failed before settling this run: refused (`scoring-error`), so its state
        is released; the original span goes on, unchanged, from the shell's boundary."""
        if self.settled:
            return
        self._settle()
        try:
            self._runs.pipeline.refuse_run(self.view, self.reading, attr.REASON_SCORING_ERROR)
        finally:
            self._runs._closed()

    # -- as the worker's task -----------------------------------------------------------------
    def ready(self, now: float) -> bool:
        """Whether it may be graded: steps started under it have ended, or it waited enough."""
        return now >= self._deadline or not self._runs.pipeline.waits(self.view, self.reading)

    def run(self) -> None:
        """On the worker: graded, maybe judged; the span leaves from here or, judged later,
        from the judge tier's thread."""
        self._settle()
        runs, span = self._runs, self.span
        now = True  # delivered from inside finish_run_later, not later from the judge tier

        def deliver(enrichment: Enrichment | None) -> None:
            out = span
            try:
                if enrichment is not None:
                    out = enriched_copy(span, enrichment)
            except Exception:  # the run's boundary: it still leaves, unenriched
                internal_error("sdk enriched copy", runs.count_error)
            finally:
                runs._left(out, late=not now)

        runs.pipeline.finish_run_later(self.view, self.reading, deliver)
        now = False

    def abandon(self) -> None:
        """The worker shut down before grading it: refused (`scoring-overload`), it leaves."""
        self._settle()
        out = self.span
        try:
            enrichment = self._runs.pipeline.refuse_run(
                self.view, self.reading, attr.REASON_SCORING_OVERLOAD
            )
            out = enriched_copy(self.span, enrichment)
        except Exception:  # the run's boundary at shutdown: it still leaves, unenriched
            internal_error("sdk refused run", self._runs.count_error)
        finally:
            self._runs._left(out, late=False)


#: A batch span after the first pass: its run begun, or its view and reading, or None (not
#: read yet), or False (the pass failed: it goes on unchanged).
_Early = BegunRun | tuple[SpanView, SpanReading | None] | Literal[False] | None
