"""Evidence pooling: a run's tool outputs, each once, and the tool calls its trace shows.

The outputs a run owns (`run_ownership`) come from tool steps and from the tool results its LLM
steps received; pooled here into the sources the scorer reads, with the calls counted so that
only what is certainly missing counts as unread (`tool_calls_unread`).
"""

from __future__ import annotations

from typing import NamedTuple

from otel_grounding.trace_records import Output


class ToolTally(NamedTuple):
    """A run's tool evidence: each output once, and how many calls were made and left unread.
    A named tuple: built for every graded run (a frozen dataclass costs three times as much)."""

    sources: tuple[str, ...]
    source_span_ids: tuple[int, ...]
    calls: int
    unread: int


def tool_tally(tools: list[Output], llms: list[Output]) -> ToolTally:
    """Pool tool outputs from tool steps and from the tool results LLM steps received, and count
    the calls the trace shows.

    A result in an LLM input is the tool step's output as the model saw it: it is evidence
    unless the same output is already pooled (same call id, or the same text: every later LLM
    input resends it). Calls are counted as few as the trace allows and outputs as many, so
    that only what is certainly missing counts as unread: once per call id, and calls without
    an id (tool steps, results, calls in LLM outputs) may be the same calls as those with one.
    """
    sources: list[str] = []
    span_ids: list[int] = []
    texts: set[str] = set()
    ids: set[str] = set()
    read_ids: set[str] = set()
    anonymous_steps = anonymous_read = anonymous_results = anonymous_calls = 0

    def pool(text: str, span_id: int) -> bool:
        if text in texts:
            return False
        sources.append(text)
        span_ids.append(span_id)
        texts.add(text)
        return True

    for tool in tools:
        seen = tool.text is not None or tool.evicted  # evicted: read, then lost (said apart)
        if tool.call_id is not None:
            ids.add(tool.call_id)
            if seen:
                read_ids.add(tool.call_id)
        else:
            anonymous_steps += 1
            anonymous_read += seen
        if tool.text is not None:
            sources.append(tool.text)
            span_ids.append(tool.span_id)
            texts.add(tool.text)
    for llm in llms:
        unnamed = 0
        for result in llm.results:
            if result.call_id is not None:
                ids.add(result.call_id)
                if result.text is None or result.call_id in read_ids:
                    continue
                read_ids.add(result.call_id)
                pool(result.text, llm.span_id)
            else:
                unnamed += 1
                if result.text is not None and pool(result.text, llm.span_id):
                    anonymous_read += 1
        anonymous_results = max(anonymous_results, unnamed)  # each input resends the earlier
        for call in llm.calls:
            if call is not None:
                ids.add(call)
            else:
                anonymous_calls += 1
    calls = max(len(ids), anonymous_steps, anonymous_results, anonymous_calls)
    read = min(calls, len(read_ids) + anonymous_read)
    return ToolTally(tuple(sources), tuple(span_ids), calls, calls - read)
