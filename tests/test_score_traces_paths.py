"""The shortcuts `score-traces` takes, each against the path it replaces: a trace's parent links
handed to the store in one call, the runs' dictionaries written out, and the pipeline's
metrics and events turned off with no-op providers (the evictions still counted)."""

from __future__ import annotations

import dataclasses
import random

from opentelemetry._logs import NoOpLoggerProvider
from opentelemetry.metrics import NoOpMeterProvider
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from otel_grounding.enrichment import RunOutcome
from otel_grounding.evaluation import EvaluationEvents
from otel_grounding.metrics import TRACES_EVICTED, GroundingMetrics
from otel_grounding.relay.telemetry import metrics_snapshot
from otel_grounding.relay.unordered import UnorderedStore
from otel_grounding.scored import JudgedClaim, JudgedRun, ScoredRun, UngroundedClaim
from otel_grounding.scoring import score
from otel_grounding.spanview import SpanView


def _store(evictions: list[str]) -> UnorderedStore:
    store = UnorderedStore(
        num_traces=5, max_spans_per_trace=7, max_bytes=4_000, retention=3600.0
    )
    store.on_evict = evictions.append
    return store


def _state(store: UnorderedStore) -> object:
    table = store.table
    traces = {
        trace_id: (dict(state.parents), state.size, state.overflowed)
        for trace_id in range(1, 13)
        if (state := table.get(trace_id)) is not None
    }
    evicted = [trace_id for trace_id in range(1, 13) if trace_id in table.evicted]
    return traces, evicted, table.buffered_bytes, table.buffered_traces


def test_links_of_a_trace_in_one_call_leave_the_store_as_one_at_a_time() -> None:
    """Runs of links of random traces (repeated span ids, spans over the cap, traces and bytes
    over their budgets): `link` once per run of a trace, and `observe` once per span, give
    the same traces, sizes, overflows, evictions and eviction reasons."""
    rng = random.Random(24)
    reasons: set[str] = set()
    for _ in range(40):
        batches = [
            (rng.randint(1, 12), [(rng.randint(1, 20), rng.choice([None, 1, 2, 3]))
                                  for _ in range(rng.randint(1, 9))])
            for _ in range(rng.randint(1, 15))
        ]
        one_call: list[str] = []
        each: list[str] = []
        batched, single = _store(one_call), _store(each)
        for trace_id, links in batches:
            batched.link(trace_id, links)
            for span_id, parent_id in links:
                single.observe(SpanView(trace_id, span_id, parent_id, "", {}, (), {}), None)
        assert _state(batched) == _state(single)
        assert one_call == each
        reasons.update(each)
    assert reasons == {"spans", "bytes", "count"}  # every budget was met: not vacuous


def test_a_runs_dictionary_is_its_dataclass_as_a_dictionary() -> None:
    run = ScoredRun(
        name="run", trace_id="0" * 32, span_id="1" * 16, rate=0.5, grade="partial",
        below_threshold=True, threshold=0.7, claims_total=3, claims_grounded=1,
        claims_checked=2, reasons=("evidence-truncated", "tool-steps-missing"),
        truncated_by="max_claims", convention="native", project="p",
        ungrounded=(UngroundedClaim(1, "claim one", 0.25, ("paris", "rain")),
                    UngroundedClaim(2, "claim two", None, ())),
    )
    assert run.to_dict() == dataclasses.asdict(run)
    assert list(run.to_dict()) == list(dataclasses.asdict(run))  # the same order of keys
    judged = dataclasses.replace(run, judge=JudgedRun(
        "verifier", "ok", None, 0.5, True, ("name", "number"),
        (JudgedClaim(0, "claim zero", "unsupported", "not in the evidence: name 'Lyon'"),
         JudgedClaim(None, "Delhi.", "contradicted", None)),
    ))
    assert judged.to_dict() == dataclasses.asdict(judged)
    assert list(judged.to_dict()["judge"]) == list(dataclasses.asdict(judged)["judge"])


def _outcome() -> RunOutcome:
    result = score("Paris is rainy today.", ["Paris: rain"], threshold=0.7)
    return RunOutcome(result, (), 0.7, "project", "service", "native")


def test_no_op_providers_record_nothing_per_run_and_still_count_evictions() -> None:
    quiet = GroundingMetrics(NoOpMeterProvider())
    quiet.record_run(_outcome())
    quiet.count_eviction("count")
    quiet.count_eviction("bytes")
    assert quiet.runs_scored.total() == 0
    assert quiet.traces_evicted.total() == 2
    EvaluationEvents(NoOpLoggerProvider()).emit(_outcome(), 1, 2)  # nothing built, no error

    reader = InMemoryMetricReader()
    exported = GroundingMetrics(MeterProvider(metric_readers=[reader]))
    exported.record_run(_outcome())
    for reason in ("count", "bytes", "count"):
        exported.count_eviction(reason)
    assert exported.runs_scored.total() == 1
    assert exported.traces_evicted.total() == 3
    assert metrics_snapshot(reader)[TRACES_EVICTED]["total"] == 3
