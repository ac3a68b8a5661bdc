"""The `openai` judge: any OpenAI-compatible chat-completions endpoint, strict JSON verdicts.

OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp server, LM Studio...: `judge_base_url` (the API
root, e.g. `http://127.0.0.1:11434/v1`), `judge_model`, and the key from `judge_api_key_file`
or `OPENAI_API_KEY` (a local server without a key needs neither). The answer is requested as
a JSON schema (`response_format` `json_schema`, strict) and validated before it counts. Through
the official `openai` client (`pip install 'otel-grounding[openai]'`), with its own retries off:
at most one retry, on a retryable HTTP status or a dropped connection, inside the deadline.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from typing import Any

import openai

from otel_grounding.config import ConfigError, JudgeSettings
from otel_grounding.judge import (
    VERDICT_SCHEMA,
    JudgeBadResponse,
    JudgeRequest,
    JudgeTimeout,
    JudgeVerdict,
    parse_verdicts,
)

API_KEY_ENV = "OPENAI_API_KEY"
#: Statuses worth one more try (rate limited, overloaded, a proxy's hiccup).
RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
#: A retry is only tried when at least this much of the deadline is left (seconds).
MIN_RETRY_S = 0.05
#: Upper bound on the answer's length (one short verdict per claim).
MAX_TOKENS_PER_CLAIM = 120

INSTRUCTIONS = (
    "You check an AI agent's answer against the tool outputs it was given. For each claim, "
    "decide from the evidence alone: 'supported' (the evidence states it, possibly in other "
    "words or another language), 'contradicted' (the evidence states something incompatible: "
    "the opposite, another number, date, name or amount), or 'unsupported' (the evidence does "
    "not say). Answer with JSON only: {\"verdicts\": [{\"claim\": <claim index>, \"verdict\": "
    "..., \"explanation\": <one short sentence>, \"evidence\": <index of the evidence relied "
    "on, or null>}]}, exactly one entry per claim."
)


def _api_key(settings: JudgeSettings) -> str | None:
    if settings.api_key_file is not None:
        try:
            with open(settings.api_key_file, encoding="utf-8") as handle:
                key = handle.read().strip()
        except OSError as exc:
            raise ConfigError(
                f"judge_api_key_file: cannot read {settings.api_key_file!r}: {exc.strerror}"
            ) from None
        if not key:
            raise ConfigError(f"judge_api_key_file: {settings.api_key_file!r} is empty")
        return key
    return os.environ.get(API_KEY_ENV) or None


class OpenAIJudge:
    """Judge claims with a chat-completions model."""

    name = "openai"

    def __init__(self, settings: JudgeSettings) -> None:
        if settings.model is None:
            raise ConfigError("judge_model: the openai judge needs a model name")
        key = _api_key(settings)
        if key is None and settings.base_url is None:
            raise ConfigError(
                f"judge_api_key_file: the openai judge needs a key ({API_KEY_ENV} or a key "
                "file) unless judge_base_url names a server that needs none"
            )
        self.model: str | None = settings.model
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=key or "unused",  # local servers take any key
            max_retries=0,  # the one retry is ours, inside the deadline
            timeout=settings.timeout,
        )

    def messages(self, request: JudgeRequest) -> list[dict[str, str]]:
        payload = {
            "evidence": [{"index": i, "text": e.text} for i, e in enumerate(request.evidence)],
            "claims": [{"index": i, "text": c} for i, c in enumerate(request.claims)],
        }
        return [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
        ]

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]:
        deadline = time.monotonic() + request.timeout
        messages = self.messages(request)
        try:
            response = self._create(messages, request.timeout, len(request.claims))
        except openai.APIStatusError as exc:
            left = deadline - time.monotonic()
            if exc.status_code not in RETRYABLE_STATUS or left < MIN_RETRY_S:
                raise
            response = self._create(messages, left, len(request.claims))
        except openai.APITimeoutError:
            raise JudgeTimeout(f"no answer within {request.timeout:.3g} s") from None
        except openai.APIConnectionError:
            left = deadline - time.monotonic()
            if left < MIN_RETRY_S:
                raise
            response = self._create(messages, left, len(request.claims))
        return self._verdicts(response, request)

    def _create(self, messages: list[dict[str, str]], timeout: float, claims: int) -> Any:
        try:
            # Plain dicts for the SDK's TypedDict parameters: the overloads cannot match them.
            return self._client.chat.completions.create(  # type: ignore[call-overload]
                model=self.model or "",
                messages=messages,
                temperature=0,
                max_tokens=64 + MAX_TOKENS_PER_CLAIM * claims,
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "claim_verdicts",
                        "strict": True,
                        "schema": VERDICT_SCHEMA,
                    },
                },
                timeout=timeout,
            )
        except openai.APITimeoutError:
            raise JudgeTimeout(f"no answer within {timeout:.3g} s") from None
        except openai.APIResponseValidationError as exc:
            raise JudgeBadResponse(
                f"the endpoint's answer is not a chat completion: {exc}"
            ) from None

    def _verdicts(self, response: Any, request: JudgeRequest) -> tuple[JudgeVerdict, ...]:
        try:
            choice = response.choices[0]
            content = choice.message.content
        except (AttributeError, IndexError, TypeError):
            raise JudgeBadResponse("the answer holds no message") from None
        if choice.finish_reason == "length":
            raise JudgeBadResponse("the answer was cut at the token limit")
        if not isinstance(content, str):
            raise JudgeBadResponse("the answer holds no text")
        try:
            data = json.loads(content)
        except ValueError:
            raise JudgeBadResponse("the answer is not JSON") from None
        return parse_verdicts(data, len(request.claims), len(request.evidence))
