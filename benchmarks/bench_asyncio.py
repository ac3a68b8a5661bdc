"""Event-loop lag of an asyncio agent app, with and without GroundingSpanProcessor (a script).

The same app runs side by side, interleaved, under four pipelines: the SDK alone
(`BatchSpanProcessor` -> a null exporter), `GroundingSpanProcessor` in front of it (default:
runs graded on the scoring worker, large ones scored in a child interpreter), the same with
`scoring_mode="thread"` (scored on the worker thread) and with `scoring_mode="inline"`. The app: 20
concurrent agents, 200 typical runs in all (a model call of 200 ms, 10 tool steps of 5 KB
awaited 20 ms each, a second model call, a 5 KB answer: about 30 runs a second). A monitor task sleeps 5 ms at a time and records how late it wakes: the event loop's
lag. Reported: total and p99 lag per pipeline, and the ratio to the SDK alone.

    .venv/bin/python benchmarks/bench_asyncio.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from otel_grounding import GroundingSpanProcessor
from otel_grounding.conventions import native

AGENTS = 20
RUNS = 200
TOOLS = 10
TICK_S = 0.005
#: What the agents wait on: a tool call, and a model call before and after the tools.
TOOL_LATENCY_S = 0.02
MODEL_LATENCY_S = 0.2
REPEATS = 7

WORDS = ["paris", "france", "capital", "river", "seine", "museum", "louvre", "tower", "eiffel", "bridge"]


class NullExporter(SpanExporter):
    def export(self, spans):  # type: ignore[no-untyped-def]
        return SpanExportResult.SUCCESS


def _text(rng: random.Random, chars: int) -> str:
    sentences = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + "."
        sentences.append(sentence)
        size += len(sentence) + 1
    return " ".join(sentences)


#: The pipelines compared: the SDK alone (None), and the grounding shell's options.
KINDS: dict[str, dict[str, str] | None] = {
    "sdk": None,
    "background": {},
    "thread": {"scoring_mode": "thread"},
    "inline": {"scoring_mode": "inline"},
}


def _provider(kind: str) -> tuple[TracerProvider, object]:
    batch = BatchSpanProcessor(NullExporter(), max_queue_size=100_000)
    options = KINDS[kind]
    processor: object = batch
    if options is not None:
        processor = GroundingSpanProcessor(batch, min_claim_grounding_rate=0.7, **options)
    provider = TracerProvider()
    provider.add_span_processor(processor)  # type: ignore[arg-type]
    return provider, processor


#: Texts made once: the app itself does next to no CPU work, so the lag is the pipeline's.
TEXTS = [_text(random.Random(seed), 5_000) for seed in range(64)]


async def _agent(tracer, runs: int, rng: random.Random) -> None:
    for _ in range(runs):
        with tracer.start_as_current_span("invoke_agent") as run:
            await asyncio.sleep(MODEL_LATENCY_S)
            for _ in range(TOOLS):
                with tracer.start_as_current_span(
                    "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: rng.choice(TEXTS)}
                ):
                    await asyncio.sleep(TOOL_LATENCY_S)
            await asyncio.sleep(MODEL_LATENCY_S)
            run.set_attribute(native.RUN_OUTPUT, rng.choice(TEXTS))


async def _app(provider: TracerProvider, seed: int) -> list[float]:
    tracer = provider.get_tracer("bench")
    rng = random.Random(seed)
    lags: list[float] = []
    done = asyncio.Event()

    async def monitor() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(TICK_S)
            lags.append(max(0.0, loop.time() - before - TICK_S))

    watcher = asyncio.create_task(monitor())
    await asyncio.gather(*(_agent(tracer, RUNS // AGENTS, rng) for _ in range(AGENTS)))
    done.set()
    await watcher
    return lags


def main() -> None:
    kinds = tuple(KINDS)
    totals: dict[str, list[float]] = {k: [] for k in kinds}
    p99s: dict[str, list[float]] = {k: [] for k in kinds}
    for repeat in range(REPEATS):
        for kind in kinds:
            provider, processor = _provider(kind)
            lags = asyncio.run(_app(provider, seed=repeat))
            # Drained after the app's part is measured (what the worker did meanwhile counts).
            started = time.perf_counter()
            provider.shutdown()
            drain = time.perf_counter() - started
            totals[kind].append(sum(lags))
            p99s[kind].append(statistics.quantiles(lags, n=100)[98])
            print(f"  {kind:10s} run {repeat}: lag total {sum(lags) * 1000:7.1f} ms, "
                  f"p99 {p99s[kind][-1] * 1000:5.2f} ms, max {max(lags) * 1000:6.1f} ms, "
                  f"drain at shutdown {drain * 1000:6.1f} ms")
    base_total = statistics.median(totals["sdk"])
    base_p99 = statistics.median(p99s["sdk"])
    print(f"\nevent-loop lag, {RUNS} runs, median of {REPEATS} interleaved repeats:")
    for kind in kinds:
        total, p99 = statistics.median(totals[kind]), statistics.median(p99s[kind])
        print(f"  {kind:10s} total {total * 1000:7.1f} ms ({total / base_total:4.2f}x), "
              f"p99 {p99 * 1000:5.2f} ms ({p99 / base_p99:4.2f}x)")


if __name__ == "__main__":
    main()
