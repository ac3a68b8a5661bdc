"""The answer's sentences as the judge tier sees them: whole sentences, short answers kept."""

from __future__ import annotations

import pytest

from otel_grounding.sentences import asks, asserts_something, split_sentences


def texts(answer: str) -> list[str]:
    return [s.text for s in split_sentences(answer)]


def test_numbers_versions_and_abbreviations_stay_inside_their_sentence() -> None:
    answer = (
        "Its last release, v3.3.2, came out on 2026-11-20, e.g. after 3.14 weeks. "
        "J. R. R. Tolkien wrote it! Did he?"
    )
    assert texts(answer) == [
        "Its last release, v3.3.2, came out on 2026-11-20, e.g. after 3.14 weeks.",
        "J. R. R. Tolkien wrote it!",
        "Did he?",
    ]


def test_an_identifier_or_a_unit_ending_in_a_capital_ends_its_sentence() -> None:
    answer = "Your reference is PIO-88120-K. Remember to bring photo ID. HDL was 1.3 mmol/L. LDL was high."
    assert texts(answer) == [
        "Your reference is PIO-88120-K.",
        "Remember to bring photo ID.",
        "HDL was 1.3 mmol/L.",
        "LDL was high.",
    ]


def test_a_capital_before_a_sentence_opener_or_after_a_degree_sign_ends_its_sentence() -> None:
    # "rated A." and "11 \u00b0C." end their sentences (an agent's closing offer was read as a
    # name in the sentence before); an initial before a name, "A", "I" or a word in lower case
    # does not.
    answer = (
        "The suites are rated A. Shall I draft the change? A high of 11 \u00b0C. Want a "
        "reminder? Ask J. I. Smith or Grade A. Will Smith. Cassandra C. is in remission."
    )
    assert texts(answer) == [
        "The suites are rated A.",
        "Shall I draft the change?",
        "A high of 11 \u00b0C.",
        "Want a reminder?",
        "Ask J. I. Smith or Grade A. Will Smith.",
        "Cassandra C. is in remission.",
    ]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Want me to set a reminder?", True),
        ("Should I open a refund request with the carrier?\u201d", True),
        ("Do you want the seat map (window or aisle?)", True),
        ("It leaves at 11:42, so should I rebook you?", False),  # states before it asks
        ("Since it is held, would you like me to rebook?", False),
        ("Your parcel is held?!", False),
        ("Want me to set a reminder.", False),
    ],
)
def test_what_asks(sentence: str, expected: bool) -> None:
    assert asks(sentence) is expected


def test_line_breaks_and_cjk_full_stops_end_sentences() -> None:
    assert texts("- Paris: 18 C\n- Lyon: 15 C") == ["- Paris: 18 C", "- Lyon: 15 C"]
    assert texts("東京は晴れです。気温は18度です。") == ["東京は晴れです。", "気温は18度です。"]


def test_offsets_point_into_the_text() -> None:
    answer = "  Delhi.  Mumbai is not it. "
    for sentence in split_sentences(answer):
        assert answer[sentence.start : sentence.end] == sentence.text


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [("OK.", False), ("Done!", False), ("Thanks, got it.", False), ("Delhi", True),
     ("42 euros", True), ("Arthur's Magazine", True), ("No.", False), ("No, it was 1990.", True)],
)
def test_what_asserts_something(sentence: str, expected: bool) -> None:
    assert asserts_something(sentence) is expected


def test_a_title_abbreviation_after_a_number_is_a_unit_ending_the_sentence() -> None:
    # "ms" after a number is milliseconds, not "Ms." before a name
    assert [s.text for s in split_sentences("Latency was 5.2 ms. None failed.")] == [
        "Latency was 5.2 ms.", "None failed.",
    ]
    assert len(split_sentences("Ask Ms. Hale at noon.")) == 1
