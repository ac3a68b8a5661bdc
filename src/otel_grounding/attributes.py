"""Every name this package writes: span attributes, span events and their fields.

Enrichment is the only writer; tests, the relay and the Collector/Grafana configuration read
these names. Change one here and nowhere else.
"""

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
