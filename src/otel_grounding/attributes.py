"""Every name this package writes: span attributes, span events and their fields.

Enrichment is the only writer; tests, the relay and the Collector/Grafana configuration read
these names. Change one here and nowhere else.

The prefix is `ferrumdeck.reliability.`, not the package's name, because the names are part of
the metric's shared contract: every implementation writes the same ones, so one dashboard and
one set of alerts read them all.
"""

from otel_grounding.grade import JUDGE_DECLINED_OUTCOME, JUDGE_FAILED_OUTCOME, JUDGE_OK

PREFIX = "ferrumdeck.reliability."

RATE = PREFIX + "claim_grounding_rate"
BELOW_THRESHOLD = PREFIX + "claim_grounding_below_threshold"
THRESHOLD = PREFIX + "claim_grounding_threshold"
GRADE = PREFIX + "claim_coverage_grade"
CLAIMS_TOTAL = PREFIX + "claims_total"
CLAIMS_GROUNDED = PREFIX + "claims_grounded"
CLAIMS_CHECKED = PREFIX + "claims_checked"
#: Which configured bound cut coverage (comma-separated when several did).
TRUNCATED_BY = PREFIX + "coverage_truncated_by"
#: Why coverage is short when no bound explains it (comma-separated reasons, see REASON_*).
COVERAGE_REASON = PREFIX + "coverage_reason"
CRITICAL_ANCHORS_TOTAL = PREFIX + "critical_anchors_total"
CRITICAL_ANCHORS_UNCOVERED = PREFIX + "critical_anchors_uncovered"
EVIDENCE_SOURCES = PREFIX + "evidence_sources"
#: The convention the run was read with (native, genai, openinference, ...).
CONVENTION = PREFIX + "convention"
PROJECT = PREFIX + "project"

# Reasons written in COVERAGE_REASON.
REASON_OUTPUT_UNAVAILABLE = "output-unavailable"
REASON_EVIDENCE_UNAVAILABLE = "evidence-unavailable"
REASON_OUTPUT_TRUNCATED = "output-truncated"
REASON_EVIDENCE_TRUNCATED = "evidence-truncated"
REASON_EVIDENCE_EVICTED = "evidence-evicted"
REASON_TOOL_STEPS_MISSING = "tool-steps-missing"
REASON_SCORING_ERROR = "scoring-error"
#: The run declared its tool-step count in a form that is not a whole number.
REASON_TOOL_STEPS_UNREADABLE = "tool-steps-unreadable"
#: The scoring worker was full (or shut down past its deadline): the run left unscored.
REASON_SCORING_OVERLOAD = "scoring-overload"

#: The audit event added to a flagged run span.
FLAGGED_EVENT = "reliability.claim_grounding_below_threshold"
FLAGGED_EVENT_RATE = "rate"
FLAGGED_EVENT_THRESHOLD = "threshold"
FLAGGED_EVENT_PROJECT = "project"

#: One event per ungrounded claim (capped), so a reader sees which sentence failed and why.
CLAIM_EVENT = "reliability.ungrounded_claim"
CLAIM_EVENT_INDEX = "claim.index"
CLAIM_EVENT_EXCERPT = "claim.excerpt"
CLAIM_EVENT_COVERED_FRACTION = "claim.covered_fraction"
CLAIM_EVENT_UNCOVERED_TOKENS = "claim.uncovered_tokens"
CLAIM_EVENT_BEST_SOURCE_SPAN_ID = "claim.best_source_span_id"
#: Under `strip_content` a claim is told by position and counts only (no text of it).
CLAIM_EVENT_START = "claim.start"
CLAIM_EVENT_END = "claim.end"
CLAIM_EVENT_TOKENS = "claim.tokens"
CLAIM_EVENT_TOKENS_UNCOVERED = "claim.tokens_uncovered"
CLAIM_EXCERPT_CHARS = 200

# The judge tier (optional; judge.py). Written only when a judge is configured.
JUDGE_NAME = PREFIX + "judge.name"
JUDGE_MODEL = PREFIX + "judge.model"
#: ok | declined | failed | skipped (see JUDGE_OUTCOME_*).
JUDGE_OUTCOME = PREFIX + "judge.outcome"
JUDGE_REASON = PREFIX + "judge.reason"
JUDGE_CLAIMS_JUDGED = PREFIX + "judge.claims_judged"
JUDGE_CLAIMS_SUPPORTED = PREFIX + "judge.claims_supported"
JUDGE_CLAIMS_CONTRADICTED = PREFIX + "judge.claims_contradicted"
#: supported / judged.
JUDGE_RATE = PREFIX + "judge.rate"
#: The judge rate against the run's grounding threshold (the same one the lexical rate uses).
JUDGE_BELOW_THRESHOLD = PREFIX + "judge.below_threshold"
#: The kinds of reason behind the claims the judge did not find supported (`reason_kinds`).
JUDGE_UNSUPPORTED_KINDS = PREFIX + "judge.unsupported_kinds"
JUDGE_DURATION_MS = PREFIX + "judge.duration_ms"
#: The exception type when the judge failed (also `error.type` on the evaluation event).
JUDGE_ERROR_TYPE = PREFIX + "judge.error_type"

# The outcomes the grade reads are the grade's own; `skipped` means "not applicable" to it.
JUDGE_OUTCOME_OK = JUDGE_OK
JUDGE_OUTCOME_DECLINED = JUDGE_DECLINED_OUTCOME
JUDGE_OUTCOME_FAILED = JUDGE_FAILED_OUTCOME
JUDGE_OUTCOME_SKIPPED = "skipped"

# Reasons written in JUDGE_REASON.
REASON_JUDGE_QUEUE_FULL = "judge-queue-full"
REASON_JUDGE_CONCURRENCY = "judge-concurrency"
REASON_JUDGE_BUDGET = "judge-budget"
REASON_JUDGE_TIMEOUT = "judge-timeout"
REASON_JUDGE_ERROR = "judge-error"
REASON_JUDGE_BAD_RESPONSE = "judge-bad-response"
#: Skipped: not drawn by `judge_sample_rate`, not wanted by `judge_when`, or nothing to judge.
REASON_JUDGE_NOT_SAMPLED = "judge-not-sampled"
REASON_JUDGE_NOT_WANTED = "judge-not-wanted"
REASON_JUDGE_NOTHING = "judge-nothing-to-judge"

#: The judge bounds, as written in TRUNCATED_BY when they cut.
BOUND_JUDGE_MAX_CLAIMS = "judge_max_claims"
BOUND_JUDGE_MAX_EVIDENCE_CHARS = "judge_max_evidence_chars"

CLAIM_EVENT_JUDGE_VERDICT = "claim.judge_verdict"
CLAIM_EVENT_JUDGE_EXPLANATION = "claim.judge_explanation"
#: A claim the judge did not find supported (lexically grounded or not) gets its own event.
JUDGED_CLAIM_EVENT = "reliability.judged_claim"

# The GenAI semantic conventions' evaluation event (v1.38.0), one per evaluation, as a log record.
EVALUATION_EVENT = "gen_ai.evaluation.result"
EVALUATION_NAME = "gen_ai.evaluation.name"
EVALUATION_SCORE_VALUE = "gen_ai.evaluation.score.value"
EVALUATION_SCORE_LABEL = "gen_ai.evaluation.score.label"
EVALUATION_EXPLANATION = "gen_ai.evaluation.explanation"
EVALUATION_ERROR_TYPE = "error.type"
#: gen_ai.evaluation.name of the two evaluations.
EVALUATION_LEXICAL = "claim_grounding_rate"
EVALUATION_JUDGE = "claim_grounding_judge"
