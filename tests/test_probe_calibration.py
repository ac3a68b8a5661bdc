"""The calibration probe (benchmarks/probe_calibration.py) labels a claim by its twin, keeps the
runs in the order the processor's flags come back in, and fits what it is given."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import probe_calibration as probe

CASES = [
    {"set": "s1", "tool_output": "Order 7731: status shipped on 2026-03-02 via DHL.",
     "grounded": "Order 7731 shipped on March 2. It went with DHL.",
     "altered": "Order 7731 shipped on March 2. It went with UPS."},
    {"set": "s2", "tool_output": "Room 4B: projector included, whiteboard not included.",
     "grounded": "Room 4B comes with a projector.",
     "altered": "Room 4B comes with a whiteboard."},
]


def test_only_the_changed_claim_of_an_altered_answer_is_labelled_altered() -> None:
    runs = probe.examples(CASES, {"rules", "lexical"})
    assert [(name, altered) for name, altered, _ in runs] == [
        ("s1", False), ("s1", True), ("s2", False), ("s2", True)]
    assert [[label for _, label in run] for _, _, run in runs] == [[0, 0], [0, 1], [0], [1]]
    assert all(features for _, _, run in runs for features, _ in run)


def test_the_rules_family_alone_reads_only_the_verdict() -> None:
    index = probe.EvidenceIndex([CASES[0]["tool_output"]])
    named = probe.claim_features("It went with UPS.", "unsupported", ("name",), index, set(),
                                 {"rules"})
    assert named == ["bias", "r:unsupported", "k:name"]


def test_the_fit_separates_what_is_separable_and_auc_counts_ties_half() -> None:
    data = [([1, 5], 1), ([2, 5], 0)] * 50
    weights = probe.fit(data, epochs=3)
    assert probe._sigmoid(weights[1] + weights[5]) > 0.9
    assert probe._sigmoid(weights[2] + weights[5]) < 0.1
    assert probe.auc([0.1, 0.2], [0.3, 0.4]) == 1.0
    assert probe.auc([0.5], [0.5]) == 0.5


def test_words_and_negations_are_the_verifiers() -> None:
    assert probe.words("He can't combine 2 of them.") == ["he", "can't", "combine", "of", "them"]
    assert probe.negates(probe.words("Sky lanterns are banned"))
    assert probe.negates(probe.words("Combined with other bursaries: no"))
    assert not probe.negates(probe.words("Refundable deposit: PAID"))
