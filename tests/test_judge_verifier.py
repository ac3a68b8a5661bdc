"""The `verifier` judge: each rule with the cases that motivated it, the reasons it gives, and
the judge through the real processor and judge tier."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from otel_grounding import attributes as attr
from otel_grounding.config import JudgeSettings
from otel_grounding.conventions import native
from otel_grounding.judge import (
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    EvidenceText,
    JudgeRequest,
    load_judge,
)
from otel_grounding.judges.facts import evidence_sentences, read_facts
from otel_grounding.judges.verifier import MODEL, VerifierJudge
from otel_grounding.metrics import RUNS_JUDGE_FLAGGED

from sdk_harness import Pipeline, attrs

HOTELS = (
    "The Oberoi family is an Indian family that is famous for its involvement in hotels, "
    "namely through The Oberoi Group.The Oberoi Group is a hotel company with its head office "
    "in Delhi."
)
RELEASE = (
    '{"project": "ferrite-db", "latest_release": "v3.3.2", "published_at": "2026-11-20", '
    '"license": "AGPL-3.0", "downloads_last_month": 48210}'
)
FLIGHTS = (
    "Found 2 flights. AF1234 departs CDG 08:15, arrives JFK 10:45 local, price 612 EUR. "
    "DL405 departs CDG 13:30, arrives JFK 15:55 local, nonstop, price 589 EUR."
)
ORDER = (
    "Order #88231 for customer Maria Lopez: status shipped; carrier DHL; tracking 4471902233; "
    "shipped on 2026-11-28; estimated delivery 2026-12-03."
)
BRIDGE = (
    "Result 1: The Golden Gate Bridge opened on May 27, 1937. Its main span is 1,280 meters "
    "(4,200 ft) long. It was designed by Joseph Strauss, with Irving Morrow and Charles Ellis."
)
SONGS = (
    "Allison Beth \"Allie\" Goertz (born March 2, 1991) is an American musician. Goertz is "
    "known for her satirical songs based on various pop culture topics. Her videos are posted "
    "on YouTube under the name of Cossbysweater.Milhouse Mussolini van Houten is a fictional "
    "character featured in the animated television series \"The Simpsons\", voiced by Pamela "
    "Hayden, and created by Matt Groening who named the character after President Richard "
    "Nixon's middle name."
)


#: A supported verdict whose reason carries a finding not counted against it (`_bindings`).
HINTED = "supported, with a hint"


def verdict(claim: str, *evidence: str) -> tuple[str, str]:
    """The verifier's verdict on one claim (`HINTED` for a supported one with a hint), and its
    explanation."""
    request = JudgeRequest((claim,), tuple(EvidenceText(e) for e in evidence), 1.0)
    (found,) = VerifierJudge().judge(request)
    why = found.explanation or ""
    hinted = found.verdict == SUPPORTED and why.startswith("supported; a hint")
    return (HINTED if hinted else found.verdict), why


# -- names ----------------------------------------------------------------------------------
def test_a_name_no_evidence_holds_is_unsupported_and_named_with_the_nearest_sentence() -> None:
    found, why = verdict("The Oberoi family's hotel company is based in Mumbai.", HOTELS)
    assert found == UNSUPPORTED
    assert "name 'Mumbai'" in why
    assert "head office in Delhi" in why  # the nearest evidence sentence, quoted


def test_a_short_answer_that_the_evidence_holds_is_supported() -> None:
    assert verdict("Delhi", HOTELS)[0] == SUPPORTED


def test_a_name_differing_only_in_a_short_ending_is_the_same_name() -> None:
    evidence = "It was selected as the South Korean entry for the Best Foreign Language Film."
    assert verdict("South Korea", evidence)[0] == SUPPORTED
    # ...but two endings apart is another word: "British" is not "Britain".
    wife = "She is also well known in Britain, where she has lived for more than 30 years."
    assert verdict("James Henry Miller's wife was British.", wife)[0] == UNSUPPORTED


def test_the_first_word_is_a_name_only_before_a_name_or_as_a_bare_answer() -> None:
    evidence = "Gauteng is a province of South Africa. Its capital is Johannesburg."
    assert verdict("Nick Kroll lives in Gauteng.", evidence)[0] == UNSUPPORTED
    assert verdict("Mumbai", HOTELS)[0] == UNSUPPORTED
    # An ordinary sentence opening is no name, even when the evidence lacks the word.
    museum = "Ticket 25 EUR; visitors under 18 free."
    assert verdict("Tickets cost 25 euros.", museum)[0] == SUPPORTED
    assert verdict("Entry is free for under-18s.", museum)[0] == SUPPORTED


def test_an_acronym_the_claim_spells_out_is_not_an_unknown_name() -> None:
    evidence = "The country's Self Defense Force had never encountered a UFO, the minister said."
    claim = "The minister said the Self Defense Force (SDF) never encountered a UFO."
    assert verdict(claim, evidence)[0] == SUPPORTED


def test_the_readme_thunderstorm_is_unsupported() -> None:
    found, why = verdict(
        "Tomorrow a violent thunderstorm will flood the Louvre museum basement.",
        "Paris: 18 degrees Celsius, light rain",
    )
    assert found == UNSUPPORTED and "Louvre" in why


# -- numbers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The cheaper one is DL405, landing at 15:55 local time for 589 euros.", SUPPORTED),
        ("The cheaper one is DL405, landing at 15:55 local time for 539 euros.", UNSUPPORTED),
        ("I found 2 flights from CDG to JFK.", SUPPORTED),
    ],
)
def test_numbers_must_be_in_the_evidence(claim: str, expected: str) -> None:
    assert verdict(claim, FLIGHTS)[0] == expected


def test_numbers_are_compared_as_numbers() -> None:
    # Thousands separators, scale words, "two" for 2, and rounding only when hedged.
    assert verdict("It was downloaded 48,210 times last month.", RELEASE)[0] == SUPPORTED
    revenue = '[("EMEA", 1840200), ("APAC", 1312950), ("Americas", 2207400)]'
    assert verdict("The Americas brought in about 2.2 million.", revenue)[0] == SUPPORTED
    assert verdict("The Americas brought in 2.3 million.", revenue)[0] == UNSUPPORTED
    assert verdict("The run took about 15 minutes.", "Duration 14m 32s.")[0] == SUPPORTED
    assert verdict("The run took 17 minutes.", "Duration 14m 32s.")[0] == UNSUPPORTED
    assert verdict("Found 2 flights to Lisbon.", "Found two flights to Lisbon.")[0] == SUPPORTED


def test_a_number_word_in_the_claim_is_no_count() -> None:
    # "the two of them" is held to nothing: number words are not checked in claims.
    evidence = "Trey asked Ellie to the prom, and the photos went viral on Twitter."
    assert verdict("Photos of the two went viral on Twitter.", evidence)[0] == SUPPORTED


# -- dates ----------------------------------------------------------------------------------
def test_a_date_matches_in_any_spelling() -> None:
    assert verdict("Order #88231 shipped with DHL on November 28, 2026.", ORDER)[0] == SUPPORTED
    assert verdict("Maria Lopez should receive it by December 3.", ORDER)[0] == SUPPORTED
    found, why = verdict("Maria Lopez should receive it by December 5.", ORDER)
    assert found == UNSUPPORTED and "date 'December 5'" in why


def test_a_weekday_is_read_from_the_evidence_dates() -> None:
    evidence = "Events on 2026-12-04: 09:30-10:00 Standup (room Orion)."
    assert verdict("On Friday you have standup at 9:30 in Orion.", evidence)[0] == SUPPORTED
    assert verdict("On Saturday you have standup at 9:30 in Orion.", evidence)[0] == (
        UNSUPPORTED
    )


def test_a_pasted_passage_keeps_its_dates() -> None:
    # "2017.Ryan": a sentence break with no space is no identifier, the date stays a date.
    evidence = "He served until the swearing in of Ryan Zinke on March 1, 2017.Ryan Zinke is..."
    assert verdict("March 1, 2017", evidence)[0] == SUPPORTED


# -- identifiers ----------------------------------------------------------------------------
def test_versions_licences_and_hashes_are_identifiers() -> None:
    claim = "ferrite-db's latest release, v3.3.2, came out on 2026-11-20 under AGPL-3.0."
    assert verdict(claim, RELEASE)[0] == SUPPORTED
    found, why = verdict(claim.replace("v3.3.2", "v3.4.0"), RELEASE)
    assert found == UNSUPPORTED and "identifier 'v3.4.0'" in why
    assert verdict("It was triggered by commit 4be91d0.", "Triggered by commit 9f3c2ab.")[0] == (
        UNSUPPORTED
    )


def test_a_hyphenated_word_with_a_number_is_checked_by_its_parts() -> None:
    evidence = "Ticket 25 EUR; visitors under 18 free."
    assert verdict("Entry is free for under-18s.", evidence)[0] == SUPPORTED
    assert verdict("Entry is free for under-16s.", evidence)[0] == UNSUPPORTED


def test_structured_keys_are_words() -> None:
    # downloads_last_month, minSdk: the words inside keys support a paraphrase.
    evidence = "Build artifacts: app.apk 48.6 MB; minSdk 26, targetSdk 35."
    assert verdict("It targets SDK 35 with a minimum of 26.", evidence)[0] == SUPPORTED


# -- polarity -------------------------------------------------------------------------------
def test_a_negation_the_evidence_does_not_make_is_a_contradiction() -> None:
    evidence = "The Eiffel Tower is 330 m tall."
    found, why = verdict("The Eiffel Tower is not 330 m tall.", evidence)
    assert found == CONTRADICTED and "polarity" in why
    assert verdict("The Eiffel Tower is 330 m tall.", evidence)[0] == SUPPORTED


def test_the_evidence_negating_what_the_claim_asserts_is_a_contradiction() -> None:
    evidence = "The tidyparse package does not support Windows."
    assert verdict("The tidyparse package supports Windows.", evidence)[0] == CONTRADICTED
    assert verdict("The tidyparse package does not support Windows.", evidence)[0] == SUPPORTED


def test_a_negation_elsewhere_in_the_sentence_is_not_a_flip() -> None:
    # The negation governs "developed", not "exposed": polarity is read within its scope.
    evidence = (
        "The 17 Americans were exposed to Ebola in Sierra Leone in March, but none developed "
        "the virus."
    )
    claim = "17 Americans were exposed to Ebola in Sierra Leone in March."
    assert verdict(claim, evidence)[0] == SUPPORTED


# -- facts joined across the evidence --------------------------------------------------------
def test_names_from_two_unrelated_passages_joined_in_one_claim_are_unsupported() -> None:
    found, why = verdict(
        "Allie Goertz wrote a song about Milhouse, a popular TV character.", SONGS
    )
    assert found == UNSUPPORTED and "never stated together" in why


def test_a_passage_continued_by_pronouns_is_one_subject() -> None:
    claim = "The Golden Gate Bridge, designed by Joseph Strauss, opened on May 27, 1937."
    assert verdict(claim, BRIDGE)[0] == SUPPORTED


def test_short_lines_of_a_structured_output_are_one_record() -> None:
    evidence = "Last scan: Memphis, TN hub, 2026-11-30 22:41. Next stop: Louisville, KY."
    claim = "It was last scanned at the Memphis hub and heads to Louisville next."
    assert verdict(claim, evidence)[0] == SUPPORTED


# -- coverage -------------------------------------------------------------------------------
def test_a_claim_with_no_fact_and_few_evidence_words_is_unsupported() -> None:
    found, why = verdict(
        "The band mostly played jazz standards at weddings.",
        "Curve were an English alternative band.",
    )
    assert found == UNSUPPORTED and "content words" in why
    # The same few novel words around facts the evidence holds are a paraphrase.
    assert verdict("AF1234 leaves earlier, at 08:15, and costs 612 euros.", FLIGHTS)[0] == (
        SUPPORTED
    )


def test_nothing_checkable_is_supported_and_no_evidence_is_unsupported() -> None:
    assert verdict("It went well.", FLIGHTS)[0] == SUPPORTED
    assert verdict("DL405 costs 589 euros.", "  ")[0] == UNSUPPORTED


def test_every_claim_gets_one_verdict_with_its_evidence_index() -> None:
    request = JudgeRequest(
        ("DL405 costs 589 euros.", "Maria Lopez's order shipped with DHL."),
        (EvidenceText(FLIGHTS), EvidenceText(ORDER)),
        1.0,
    )
    first, second = VerifierJudge().judge(request)
    assert (first.verdict, first.evidence_index) == (SUPPORTED, 0)
    assert (second.verdict, second.evidence_index) == (SUPPORTED, 1)


# -- through the processor ----------------------------------------------------------------
def test_the_entry_point_builds_the_verifier() -> None:
    judge = load_judge("verifier", JudgeSettings(name="verifier"))
    assert judge.name == "verifier" and judge.model


def test_a_short_wrong_answer_is_flagged_by_the_judge_not_the_contract() -> None:
    pipeline = Pipeline(judge="verifier", judge_min_rate=1.0)
    with pipeline.run("right") as span:
        pipeline.tool(HOTELS)
        span.set_attribute(native.RUN_OUTPUT, "Delhi")
    with pipeline.run("wrong") as span:
        pipeline.tool(HOTELS)
        span.set_attribute(native.RUN_OUTPUT, "Mumbai")
    spans = {s.name: attrs(s) for s in pipeline.spans()}
    right, wrong = spans["right"], spans["wrong"]
    assert right[attr.CLAIMS_TOTAL] == wrong[attr.CLAIMS_TOTAL] == 0  # the contract sees none
    assert right[attr.JUDGE_CLAIMS_JUDGED] == wrong[attr.JUDGE_CLAIMS_JUDGED] == 1
    assert right[attr.JUDGE_BELOW_THRESHOLD] is False
    assert wrong[attr.JUDGE_BELOW_THRESHOLD] is True
    assert wrong[attr.BELOW_THRESHOLD] is False  # the lexical flag is untouched
    (point,) = pipeline.metric_points(RUNS_JUDGE_FLAGGED)  # counted beside runs_flagged
    assert point.value == 1


def test_a_hint_is_not_counted_against_the_run() -> None:
    targets = (
        "TARGET             AZ          STATE      REASON\n"
        "i-0a12f 10.0.1.17  eu-west-1a  healthy    -\n"
        "i-0b77c 10.0.2.41  eu-west-1b  unhealthy  Health checks failed with code 503\n"
        "i-0c3d9 10.0.3.08  eu-west-1c  healthy    -"
    )
    pipeline = Pipeline(judge="verifier", judge_min_rate=1.0)
    for name, answer in (
        ("hinted", "i-0c3d9 (10.0.2.41) is in eu-west-1b."),
        ("wrong", "i-0c3d9 (10.0.9.41) is in eu-west-1b."),
    ):
        with pipeline.run(name) as span:
            pipeline.tool(targets)
            span.set_attribute(native.RUN_OUTPUT, answer)
    spans = {s.name: attrs(s) for s in pipeline.spans()}
    assert spans["hinted"][attr.JUDGE_RATE] == 1.0
    assert spans["hinted"][attr.JUDGE_BELOW_THRESHOLD] is False
    assert spans["wrong"][attr.JUDGE_BELOW_THRESHOLD] is True


def test_a_short_claim_sharing_two_words_with_a_negated_sentence_is_contradicted() -> None:
    evidence = "The package does not support Windows."
    assert verdict("Note that it supports Windows.", evidence)[0] == CONTRADICTED
    assert verdict("Note that it does not support Windows.", evidence)[0] == SUPPORTED


def test_a_claim_saying_of_one_name_what_the_evidence_says_of_another_is_unsupported() -> None:
    evidence = (
        "Frontier was an American western anthology series broadcast on NBC in 1955 and 1956, "
        "narrated by Walter Coy, who also starred in several of its episodes over two seasons."
        "Gunmen from Laredo is a 1959 American western film produced and directed by Wallace "
        "MacDonald, which stars Robert Knapp, Maureen Hingert, and Walter Coy."
    )
    found, why = verdict("The western series was narrated by Robert Knapp.", evidence)
    assert found == UNSUPPORTED and "another name" in why and "'Knapp'" in why
    assert verdict("The western series was narrated by Walter Coy.", evidence)[0] == SUPPORTED
    # A pronoun carries the name through its passage: no other name is meant.
    assert verdict(
        "The Golden Gate Bridge, designed by Joseph Strauss, opened on May 27, 1937.", BRIDGE
    )[0] == SUPPORTED


def test_a_clock_time_is_no_clause_boundary() -> None:
    # "9:30" kept whole: the clause about Orion is not read apart from its room and time.
    evidence = (
        "Events on 2026-12-04: 09:30-10:00 Standup (room Orion); 14:00-15:30 Design review "
        "with Priya Nair and Tom Okafor (room Vega); 17:00 Dentist."
    )
    claim = (
        "On Friday you have standup at 9:30 in Orion, then a design review from 14:00 to 15:30 "
        "in Vega with Priya Nair and Tom Okafor."
    )
    assert verdict(claim, evidence)[0] == SUPPORTED


# -- the second rules (each with the agent-style or development case that motivated it) ----
NOTES = (
    "Notes, 2026-11-26. Attendees: Lena Fischer, Omar Haddad, Sofia Rossi. Decisions: launch "
    "moved to 2027-01-15; budget raised by 12% to 480k EUR. Action: Omar to update the roadmap "
    "by Friday."
)


def test_one_listed_person_given_anothers_task_is_said_of_another_name() -> None:
    # The swapped name is in the evidence (an attendee), but not in the sentence stating the
    # task, which names Omar (its first word: the evidence names him elsewhere too).
    found, why = verdict("Sofia will update the roadmap by Friday.", NOTES)
    assert found == UNSUPPORTED and "'Sofia'" in why and "'omar'" in why
    assert verdict("Omar will update the roadmap by Friday.", NOTES)[0] == SUPPORTED


def test_a_name_cut_off_by_an_abbreviation_belongs_to_the_next_sentence() -> None:
    evidence = (
        "Robert Manoogian Jr. (January 4, 1918 - April 3, 2002) was an American professional "
        "wrestler who was best known for his work with National Wrestling Alliance."
    )
    claim = "Robert Manoogian Jr. was an American professional wrestler."
    assert verdict(claim, evidence)[0] == SUPPORTED


def test_a_value_bound_to_another_key_is_unsupported() -> None:
    sales = '[("EMEA", 1840200), ("APAC", 1312950), ("Americas", 2207400)]'
    found, why = verdict("The Americas followed with 1,840,200 and APAC with 1,312,950.", sales)
    assert found == UNSUPPORTED and "'Americas', '1,840,200' are in the evidence" in why
    assert verdict("EMEA followed with 1,840,200 and APAC with 1,312,950.", sales)[0] == SUPPORTED
    # A JSON object is a record too; the key may be an identifier.
    offers = (
        '[{"flight": "LH1234", "price_eur": 214}, {"flight": "TP579", "price_eur": 189}]'
    )
    assert verdict("TP579 costs 214 euros.", offers)[0] == UNSUPPORTED
    assert verdict("TP579 costs 189 euros, LH1234 costs 214.", offers)[0] == SUPPORTED
    # Plain sentences are records: the number's sentence must hold the name.
    budget = "Marketing: planned 120,000, spent 96,300. Support: planned 80,000, spent 61,250."
    assert verdict("Marketing has spent 61,250 of 120,000.", budget)[0] == UNSUPPORTED
    assert verdict("Marketing has spent 96,300 of 120,000.", budget)[0] == SUPPORTED


def test_a_joined_name_in_the_evidences_scheme_must_be_in_it() -> None:
    evidence = "Root cause: expired TLS certificate on payments-gw. Resolved by checkout-service."
    found, why = verdict("The certificate on auth-gw had expired.", evidence)
    assert found == UNSUPPORTED and "identifier 'auth-gw'" in why
    assert verdict("The certificate on payments-gw had expired.", evidence)[0] == SUPPORTED
    # Not a name in its scheme: a compound whose parts the evidence holds or starts.
    wind = "Paris, France: 14 C, light rain, wind 22 km/h from the south-west."
    assert verdict("It is 14 °C with a south-westerly wind of 22 km/h.", wind)[0] == SUPPORTED


def test_a_place_written_as_its_code_is_the_place() -> None:
    offers = '[{"flight": "TP579", "from": "FRA", "to": "LIS", "departs": "2026-12-18T11:40"}]'
    assert verdict("TP579 flies from Frankfurt to Lisbon on December 18.", offers)[0] == SUPPORTED
    assert verdict("TP579 flies from Munich to Lisbon on December 18.", offers)[0] == UNSUPPORTED


def test_missing_is_a_negation_and_its_reach_may_differ() -> None:
    evidence = "Top slow query: SELECT * FROM invoices. Missing index on invoices(customer_id)."
    assert verdict("The invoices table has no index on customer_id.", evidence)[0] == SUPPORTED
    assert verdict("The invoices table has an index on customer_id.", evidence)[0] == CONTRADICTED


def test_over_a_document_a_claim_is_held_to_one_passage() -> None:
    # Four segments of a news article; each answer sentence is checked against its best one.
    article = " ".join(
        f"{place} officials said on Monday morning that {detail}, according to a statement "
        f"the city's {topic} office released later that day to local reporters."
        for topic, place, detail in (
            ("harbour", "Kiel", "three ferries had been delayed by the storm surge"),
            ("school", "Lübeck", "the new gymnasium would open after the winter holidays"),
            ("market", "Rostock", "the Christmas market would stay open two extra days"),
            ("railway", "Schwerin", "the regional line would close for track repairs"),
        )
    )
    drawn = ("Three ferries were delayed by the storm surge in Kiel. "
             "The Christmas market in Rostock will stay open two extra days.")
    loose = ("Ferry passengers protested against new ticket prices in the harbour town. "
             "Regional politicians promised cheaper winter heating for every household.")
    request = lambda text: JudgeRequest(  # noqa: E731
        tuple(s.strip() + "." for s in text.split(".") if s.strip()), (EvidenceText(article),), 1.0
    )
    judge = VerifierJudge()
    assert {v.verdict for v in judge.judge(request(drawn))} == {SUPPORTED}
    loose_verdicts = judge.judge(request(loose))
    assert {v.verdict for v in loose_verdicts} == {UNSUPPORTED}
    assert "any one passage of the document" in (loose_verdicts[0].explanation or "")
    # One loose sentence in an answer otherwise drawn from the document is context.
    mixed = drawn + " Regional politicians promised cheaper winter heating for every household."
    assert [v.verdict for v in judge.judge(request(mixed))].count(UNSUPPORTED) == 0


# -- rules-v3: agent-style outputs ----------------------------------------------------------
PODS = (
    "NAME                         READY   STATUS             RESTARTS   AGE\n"
    "checkout-7d9f8b-x2k4p        1/1     Running            0          3d\n"
    "checkout-7d9f8b-q8m1z        0/1     CrashLoopBackOff   14         3d\n"
    "inventory-5c6d7-lw9rt        1/1     Running            2          11h"
)


def test_an_aligned_table_is_not_a_document() -> None:
    # Its columns' padding is no words: four short lines are one record, read whole.
    request = JudgeRequest(
        ("The inventory pod is running too, with 2 restarts in the last 11 hours.",
         "The other checkout pod is running fine."),
        (EvidenceText(PODS),), 1.0,
    )
    assert {v.verdict for v in VerifierJudge().judge(request)} == {SUPPORTED}


def test_an_identifier_given_another_identifiers_number_is_unsupported() -> None:
    claim = "One checkout pod, checkout-7d9f8b-{}, is in CrashLoopBackOff after 14 restarts."
    found, why = verdict(claim.format("x2k4p"), PODS)
    # the number is held to its own identifier only as a hint; the pod's line holds it
    assert found == UNSUPPORTED and "'checkout-7d9f8b-x2k4p' belongs to another line" in why
    assert verdict(claim.format("q8m1z"), PODS)[0] == SUPPORTED
    errors = (
        "Top errors last 24h (service: billing-api): 1) TimeoutError calling ledger-svc - "
        "1,284 events; 2) ConnectionResetError to redis-primary - 12 events"
    )
    assert verdict("Most are timeouts calling redis-primary: 1,284 events.", errors)[0] == (
        UNSUPPORTED
    )
    assert verdict("Most are timeouts calling ledger-svc: 1,284 events.", errors)[0] == SUPPORTED
    # A compound with a number is no identifier ("73-year-old"): nothing is bound to it.
    ages = "The 73-year-old manager was born in Govan. He managed the club for 26 years."
    assert verdict("The 73-year-old managed the club for 26 years.", ages)[0] == SUPPORTED


def test_a_percentage_may_be_written_as_a_fraction_in_the_evidence() -> None:
    weather = '{"city": "Lyon", "forecast": "light rain", "precip_prob": 0.7}'
    assert verdict("The chance of rain in Lyon is 70%.", weather)[0] == SUPPORTED
    assert verdict("The chance of rain in Lyon is 70 percent.", weather)[0] == SUPPORTED
    assert verdict("The chance of rain in Lyon is 80%.", weather)[0] == UNSUPPORTED
    assert verdict("The chance of rain in Lyon is 70 days.", weather)[0] == UNSUPPORTED


def test_a_scaled_number_is_rounded_at_the_precision_written() -> None:
    table = "region | q3_revenue_eur\nBenelux | 1,960,300\nIberia | 1,175,500"
    assert verdict("Benelux brought in €1.96M and Iberia €1.18M.", table)[0] == SUPPORTED
    assert verdict("Benelux brought in €1.92M.", table)[0] == UNSUPPORTED
    # Written without decimals, a scaled number is not rounded unless hedged.
    assert verdict("Benelux brought in €2M.", table)[0] == UNSUPPORTED
    assert verdict("Benelux brought in about €2M.", table)[0] == SUPPORTED


def test_a_total_of_two_numbers_of_one_record_is_supported() -> None:
    pr = '{"number": 4821, "state": "open", "checks": "2 failing, 14 passing"}'
    assert verdict("PR #4821 is open, and 2 of the 16 checks are failing.", pr)[0] == SUPPORTED
    assert verdict("PR #4821 is open, and 2 of the 18 checks are failing.", pr)[0] == (
        UNSUPPORTED
    )
    # Not written as a total: a sum is a coincidence, not support ("no more than 8 tablets").
    label = "Adults: 1-2 tablets every 4 to 6 hours. Do not exceed 6 tablets in 24 hours."
    assert verdict("Take no more than 8 tablets in 24 hours.", label)[0] == UNSUPPORTED


def test_a_number_said_to_move_the_other_way_is_unsupported() -> None:
    table = "region | growth_pct\nNordics | 8.2\nIberia | -3.1"
    found, why = verdict("Iberia grew by 3.1% in the quarter.", table)
    assert found == UNSUPPORTED and "'3.1' goes the other way in the evidence" in why
    assert verdict("Iberia shrank by 3.1% in the quarter.", table)[0] == SUPPORTED
    costs = "egress 2,988.00 (+41% MoM); storage 4,105.10 (-2% MoM)"
    assert verdict("Egress jumped 41% on the month.", costs)[0] == SUPPORTED
    assert verdict("Egress fell 41% on the month.", costs)[0] == UNSUPPORTED
    # Unsigned in the evidence: no direction to contradict.
    assert verdict("Nordics grew by 8.2% in the quarter.", table)[0] == SUPPORTED


def test_a_yes_no_field_stated_the_other_way_is_a_contradiction() -> None:
    package = '{"name": "fastq-lite", "version": "5.2.0", "deprecated": false}'
    found, why = verdict("fastq-lite 5.2.0 has been deprecated.", package)
    assert found == CONTRADICTED and why.startswith("polarity")
    assert verdict("fastq-lite 5.2.0 is not deprecated.", package)[0] == SUPPORTED
    recipe = "Nutrition per serving: 318 kcal. Contains: mustard seeds. Gluten-free: yes."
    assert verdict("The dal isn't gluten-free.", recipe)[0] == CONTRADICTED
    assert verdict("The dal is gluten-free.", recipe)[0] == SUPPORTED
    # "Note: no refunds" is prose after a colon, not a yes/no field.
    terms = "Note: no refunds after 30 days. Bookings can be moved once."
    assert verdict("Note that bookings can be moved once.", terms)[0] == SUPPORTED


def test_a_line_of_a_list_bound_by_its_numbers_is_not_another_names() -> None:
    hotels = (
        "1. Hotel Alfama Rio - 4 stars - EUR 142/night - 0.4 km from center - free cancellation\n"
        "2. Casa do Largo - 3 stars - EUR 96/night - 1.1 km from center - non-refundable\n"
        "3. Tejo View Suites - 5 stars - EUR 265/night - 2.3 km from center - free cancellation"
    )
    claim = ("The cheapest option is {}, a 3-star hotel at €96 a night, 1.1 km from the center, "
             "but it is non-refundable.")
    assert verdict(claim.format("Casa do Largo"), hotels)[0] == SUPPORTED
    # Two lines compared in one sentence, each with its own facts.
    assert verdict(
        "Hotel Alfama Rio (4 stars, €142) can be cancelled for free, as can Tejo View Suites, "
        "the 5-star choice at €265.", hotels,
    )[0] == SUPPORTED


DISKS = (
    "Filesystem      Size  Used Avail Use% Mounted on\n"
    "/dev/nvme0n1p2  468G  421G   24G  95% /\n"
    "/dev/nvme1n1    1.8T  612G  1.1T  36% /data\n"
)


def test_a_number_from_another_line_of_a_table_is_a_hint() -> None:
    found, why = verdict("The /data filesystem is nearly full at 95%.", DISKS)
    assert found == HINTED and "'95%' belongs to another line of the output" in why
    assert verdict("/data has 1.1T available and only 36% used.", DISKS)[0] == SUPPORTED
    # A number may be written before or after its key, with other lines' keys in the clause.
    packages = "Package   Current  Latest\npandas    2.2.3    2.3.0\ntorch     2.5.1    2.6.0"
    assert verdict(
        "Updates: 2.3.0 for pandas (now 2.2.3), and torch can go from 2.5.1 to 2.6.0.", packages
    )[0] == SUPPORTED
    assert verdict("pandas can go from 2.2.3 to 2.6.0.", packages)[0] == HINTED
    # "Label: value" lines are one thing's attributes, not a table's lines.
    tariff = "Peak: 0.318 EUR/kWh\nOff-peak: 0.142 EUR/kWh\nStanding charge: 0.41 EUR/day"
    assert verdict(
        "Off-peak it is 0.142 EUR/kWh and 0.318 at peak, plus 0.41 EUR a day.", tariff
    )[0] == SUPPORTED


def test_an_identifier_with_another_lines_facts_is_a_hint() -> None:
    targets = (
        "Target group: api-prod-tg (port 8443)\n"
        "TARGET             AZ          STATE      REASON\n"
        "i-0a12f 10.0.1.17  eu-west-1a  healthy    -\n"
        "i-0b77c 10.0.2.41  eu-west-1b  unhealthy  Health checks failed with code 503\n"
        "i-0c3d9 10.0.3.08  eu-west-1c  healthy    -"
    )
    claim = "{} (10.0.2.41) is in eu-west-1b."
    found, why = verdict(claim.format("i-0c3d9"), targets)
    assert found == HINTED and "'i-0c3d9' belongs to another line" in why
    assert verdict(claim.format("i-0b77c"), targets)[0] == SUPPORTED
    # a hint is no verdict: the rules after it still hold the claim to its line
    found, why = verdict("i-0c3d9 (10.0.2.41) in eu-west-1b is unhealthy.", targets)
    assert found == UNSUPPORTED and "'unhealthy' is the other state" in why


def test_lines_of_one_things_attributes_bind_no_number() -> None:
    # "Label: value" lines describe one thing: their labels name no line of a table.
    quote = (
        "Lender: Hausbank Nord\nLoan amount: €320,000\nFixed rate: 3.45% p.a. for 10 years\n"
        "Term: 30 years\nMonthly payment: €1,428.07"
    )
    assert verdict(
        "Hausbank Nord offers €320,000 at a fixed 3.45% for 10 years on a 30-year term.", quote
    )[0] == SUPPORTED


def test_structured_output_is_read_as_records_not_prose() -> None:
    reviews = (
        "App: TrailMate (iOS) — reviews 2026-11-01 to 2026-11-30\n"
        "Reviews: 1,284 | Avg rating: 3.9 (prev period 4.3)\n"
        "Top complaints: GPS drift (212 mentions), battery drain (148)"
    )
    # A header names what every line is about; "(212 mentions)" annotates its line.
    assert verdict("TrailMate got 1,284 reviews, averaging 3.9.", reviews)[0] == SUPPORTED
    assert verdict("The top complaint was GPS drift with 212 mentions.", reviews)[0] == SUPPORTED


def test_csv_values_weekday_abbreviations_and_currency_codes() -> None:
    csv = "date,description,amount,currency,balance\n2026-11-30,DIRECT DEBIT,-39.99,EUR,2483.41"
    assert verdict("Your balance is €2,483.41.", csv)[0] == SUPPORTED
    hours = "Mon: closed\nTue\u2013Sun: 09:00\u201317:00"
    assert verdict("It is open 09:00\u201317:00 Tuesday to Sunday.", hours)[0] == SUPPORTED
    quote = '{"symbol": "VWCE", "exchange": "XETRA", "last": 118.42, "currency": "EUR"}'
    assert verdict("VWCE last traded at €118.42 on Euronext.", quote)[0] == UNSUPPORTED
    assert verdict("VWCE last traded at €118.42 on XETRA.", quote)[0] == SUPPORTED


def test_a_yes_no_field_of_several_things_is_read_under_its_record() -> None:
    flags = "flags:\n  new_checkout:\n    enabled: true\n  dark_mode_v2:\n    enabled: false\n"
    assert verdict("new_checkout is enabled and dark_mode_v2 is disabled.", flags)[0] == SUPPORTED
    # each "enabled" is its YAML key's, or its INI section's
    found = verdict("new_checkout is enabled and dark_mode_v2 is switched on.", flags)
    assert found[0] == CONTRADICTED
    assert found[1].endswith('"enabled: false" (under "dark_mode_v2")')
    assert verdict("dark_mode_v2 is owned by the web team.", flags)[0] == SUPPORTED
    router = "[firewall]\nenabled = true\n[upnp]\nenabled = false\n[remote_admin]\nenabled = false"
    assert verdict("The firewall is on, and UPnP and remote admin are off.", router)[0] == SUPPORTED
    assert verdict("UPnP and remote admin are both turned on.", router)[0] == CONTRADICTED
    assert verdict("The firewall is switched off.", router)[0] == CONTRADICTED


def test_things_listed_on_one_line_each_have_their_own_state() -> None:
    checks = "Checks: build \u2713, unit-tests \u2713, e2e \u2717 (timeout after 30m)"
    found = verdict("Build and unit tests both failed.", checks)
    assert found[0] == UNSUPPORTED
    assert "'failed' is the other state" in found[1]
    assert verdict("Build and unit tests both passed.", checks)[0] == SUPPORTED
    assert verdict("The e2e check failed after timing out.", checks)[0] == SUPPORTED
    ufw = "Status: active\nDefault: deny (incoming), allow (outgoing)"
    assert verdict("The firewall allows incoming traffic by default.", ufw)[0] == UNSUPPORTED
    assert verdict("The firewall denies incoming traffic by default.", ufw)[0] == SUPPORTED


def test_a_field_is_read_by_a_name_written_in_capitals_and_a_list_said_off_at_once() -> None:
    controls = "[parental_controls]\nsafesearch = true\nyoutube_restricted = false"
    assert verdict("YouTube restricted mode is on.", controls)[0] == CONTRADICTED
    assert verdict("SafeSearch is on, while YouTube restricted mode is off.", controls)[0] == (
        SUPPORTED
    )
    router = "[wan]\nupnp = disabled\nremote_admin = disabled\n[wifi]\nwps = disabled"
    assert verdict("UPnP, remote admin and WPS are all off.", router)[0] == SUPPORTED
    checkout = "[checkout]\nnew_payment_sheet = true\napple_pay = enabled\nklarna = disabled"
    said = "The new payment sheet is on, with Apple Pay {} and Klarna disabled."
    assert verdict(said.format("enabled"), checkout)[0] == SUPPORTED
    assert verdict(said.format("disabled"), checkout)[0] == CONTRADICTED
    assert verdict("UPnP is switched on.", router)[0] == CONTRADICTED


def test_a_name_put_on_another_rows_facts_is_a_hint() -> None:
    timetable = (
        "Class 7B \u2014 Thursday\n"
        "P1 08:15\u201309:00 Mathematics (Mr. Okafor, R12)\n"
        "P2 09:05\u201309:50 English (Ms. Lindqvist, R04)\n"
        "P3 10:10\u201310:55 Biology (Dr. Haas, Lab 2)\n"
        "P4 11:00\u201311:45 PE (Mr. Okafor, Gym)"
    )
    found = verdict("Third period is Biology with Ms. Lindqvist in Lab 2.", timetable)
    assert found[0] == HINTED
    assert "'lindqvist' belongs to another line" in found[1]
    assert verdict("Third period is Biology with Dr. Haas in Lab 2.", timetable)[0] == SUPPORTED
    # a list of rows names several lines, none of them the name's other line
    panel = (
        "Test                    Result  Units\nHemoglobin              13.8    g/dL\n"
        "Serum Vitamin B12       412     pg/mL\nFasting Plasma Glucose  92      mg/dL"
    )
    assert verdict(
        "In this panel, Hemoglobin, Serum Vitamin B12 and Fasting Plasma Glucose are in range.",
        panel,
    )[0] == SUPPORTED
    loans = (
        "Title                                   Due         Renewals\n"
        "The Overstory / Richard Powers          2026-04-02  1 of 3\n"
        "Salt Fat Acid Heat / Samin Nosrat       2026-04-09  0 of 3"
    )
    # two rows, each named by its title
    assert verdict(
        "The Overstory is due on April 2 and Salt Fat Acid Heat on April 9.", loans
    )[0] == SUPPORTED


def test_markdown_rows_date_ranges_and_words_that_are_no_names() -> None:
    table = (
        "| Step | Users | Conversion |\n|---|---|---|\n| Verified email | 5,110 | 73.6% |\n"
        "| Completed profile | 3,020 | 59.1% |\n| First project created | 1,870 | 61.9% |"
    )
    assert verdict(
        "Only 59.1% of users who verified their email completed their profile.", table
    )[0] == SUPPORTED
    assert verdict("3,020 users completed their profile, a 73.6% conversion.", table)[0] == (
        HINTED
    )
    # A day inside a range of the evidence ("16-18 Jul"); a year, if written, must be there too.
    passes = "Weekend pass + camping, 16\u201318 Jul 2027 \u2014 \u20ac289 each"
    assert verdict("The weekend pass covers July 16 to 18.", passes)[0] == SUPPORTED
    assert verdict("The weekend pass starts on July 16, 2026.", passes)[0] == UNSUPPORTED
    # A number word or a pronoun opening a sentence is no name; a plural of an evidence word is.
    gpus = '[{"node": "gpu-node-03", "gpu": 0, "util_pct": 97}]'
    assert verdict("Two GPUs are busy on gpu-node-03.", gpus)[0] == SUPPORTED
    dog = "Pepper is a 3-year-old terrier. Pepper is spayed and microchipped."
    assert verdict("She's spayed and microchipped.", dog)[0] == SUPPORTED


def test_a_field_said_to_be_off_is_false() -> None:
    config = "thermostat: Hallway T6\nmode: heat\neco_mode: false"
    assert verdict("Eco mode is off.", config)[0] == SUPPORTED
    assert verdict("Eco mode is on.", config)[0] == CONTRADICTED


def test_a_name_after_its_number_and_a_pronoun_sentence_after_the_statement() -> None:
    orders = (
        '[{"order": "PN-5521", "items": [{"plant": "Acer campestre", "qty": 120}, '
        '{"plant": "Crataegus monogyna", "qty": 300}]}]'
    )
    assert verdict("It holds 120 Acer campestre and 300 Crataegus monogyna.", orders)[0] == (
        SUPPORTED
    )
    corrections = (
        "An article on 26 November about the Harbourside festival misnamed the festival "
        "director. She is Oluwaseun Adebayo, not Olivia Adeyemi."
    )
    assert verdict("The festival director is Oluwaseun Adebayo.", corrections)[0] == SUPPORTED


# -- rules-v4: tables, records and worked-out values ----------------------------------------

def test_a_comparison_its_own_numbers_deny_is_unsupported() -> None:
    reviews = "Reviews: 1,284 | Avg rating: 3.9 (prev period 4.3)"
    assert verdict("It averaged 3.9, down from 4.3 in the previous period.", reviews)[0] == (
        SUPPORTED
    )
    found, reason = verdict("It averaged 3.9, up from 4.3 in the previous period.", reviews)
    assert found == UNSUPPORTED and "'3.9' higher than '4.3'" in reason
    hive = "2026-11-28 06:00,H3,41.2\n2026-11-30 06:00,H3,40.5"
    assert verdict("H3 fell from 41.2 kg on November 28 to 40.5 kg.", hive)[0] == SUPPORTED
    assert verdict("H3 rose from 41.2 kg on November 28 to 40.5 kg.", hive)[0] == UNSUPPORTED
    stock = "SKU  WAREHOUSE  ON_HAND  REORDER_PT\nBX-1  Lyon  180  500\nBX-2  Oslo  900  500"
    assert verdict("Lyon has 180, below its reorder point of 500.", stock)[0] == SUPPORTED
    assert verdict("Lyon has 180, above its reorder point of 500.", stock)[0] == UNSUPPORTED
    # a date's day, a year, another subject and another scale are no value compared
    assert verdict("It was 3.9 on 30 Nov 2026, down from 4.3.", "3.9 on 30 Nov 2026 (was 4.3)")[
        0
    ] == SUPPORTED
    assert verdict("Sales were 12, with returns up from 5.", "sales 12, returns 7 (was 5)")[0] == (
        SUPPORTED
    )
    assert verdict("Revenue was 1.5M, up from 900k.", "revenue 1.5M (was 900k)")[0] == SUPPORTED


def test_a_word_of_another_rows_cell_is_unsupported() -> None:
    gauges = (
        "Station        River  Level (m)  Trend    Warning\n"
        "Kelsby Bridge  Aldon  3.42       Rising   Flood alert\n"
        "Marrow Weir    Aldon  2.15       Steady   None\n"
        "Ferncross      Tilly  1.08       Falling  None\n"
    )
    assert verdict("On the Tilly, Ferncross is falling.", gauges)[0] == SUPPORTED
    found, reason = verdict("On the Tilly, Ferncross is rising.", gauges)
    assert found == UNSUPPORTED and "'rising' belongs to another line" in reason
    # a clause naming two rows compares them
    assert verdict("Kelsby Bridge is rising while Ferncross is falling.", gauges)[0] == SUPPORTED
    batches = (
        "batch,origin,process,roast_level,roaster\n"
        "R-3310,Ethiopia Guji,washed,light,Paulo\n"
        "R-3312,Sumatra Aceh,wet-hulled,medium-dark,Ines\n"
    )
    assert verdict("Batch R-3312 was a wet-hulled Sumatra Aceh.", batches)[0] == SUPPORTED
    assert verdict("Batch R-3312 was a washed Sumatra Aceh.", batches)[0] == UNSUPPORTED
    board = (
        "| Rank | Model | License |\n|---|---|---|\n| 1 | Corvid-70B | Apache |\n"
        "| 2 | Tessera-34B | MIT |\n| 3 | Lumo-8B | Custom |"
    )
    # "it" goes on about the row named before; "the other" does not
    assert verdict("Corvid-70B tops the board, and it is licensed under MIT.", board)[0] == (
        UNSUPPORTED
    )
    assert verdict("Corvid-70B is under Apache; the other two are MIT and Custom.", board)[
        0
    ] == SUPPORTED


def test_json_and_yaml_records_are_rows_and_their_yes_no_fields_are_read() -> None:
    flags = (
        "flags:\n  new_checkout:\n    enabled: true\n    rollout_percent: 25\n"
        "  dark_mode_v2:\n    enabled: false\n    rollout_percent: 0\n"
    )
    assert verdict("new_checkout is enabled at a 25% rollout.", flags)[0] == SUPPORTED
    found, reason = verdict("dark_mode_v2 is currently enabled.", flags)
    assert found == UNSUPPORTED and "'enabled: false'" in reason
    assert verdict("dark_mode_v2 is not enabled.", flags)[0] == SUPPORTED
    grants = (
        "applications:\n  - id: GA-041\n    applicant: Riverbend Garden\n    status: approved\n"
        "  - id: GA-047\n    applicant: Northside Club\n    status: rejected\n"
    )
    assert verdict("Riverbend Garden's request was approved.", grants)[0] == SUPPORTED
    assert verdict("Riverbend Garden's request was rejected.", grants)[0] == UNSUPPORTED
    sessions = (
        '[{"user": "dkowalski", "gateway": "fra-gw-2", "mfa": true},'
        ' {"user": "aokafor", "gateway": "ams-gw-1", "mfa": false}]'
    )
    assert verdict("aokafor is connected through ams-gw-1.", sessions)[0] == SUPPORTED
    assert verdict("aokafor is connected through fra-gw-2.", sessions)[0] == UNSUPPORTED
    # a clause that also writes a token of the other row compares the two
    releases = (
        "releases:\n  - flow: 35\n    start: 06:00\n    reason: scheduled drawdown\n"
        "  - flow: 60\n    start: 08:00\n    reason: spillway inspection\n"
    )
    assert verdict(
        "It releases a flow of 35 from 06:00, then 60 for a spillway inspection.", releases
    )[0] == SUPPORTED
    assert verdict("It releases a flow of 35 from 06:00 for a spillway inspection.", releases)[
        0
    ] == UNSUPPORTED


def test_a_number_converted_to_a_larger_unit_is_supported() -> None:
    log = "LOG:  duration: 8421.337 ms  statement: SELECT * FROM products"
    assert verdict("The search took about 8.4 seconds.", log)[0] == SUPPORTED
    assert verdict("The search took about 8.9 seconds.", log)[0] == UNSUPPORTED
    usage = "bytes_in: 1843 MB, bytes_out: 212 MB"
    assert verdict("It received 1.8 GB.", usage)[0] == SUPPORTED
    spend = '{"spend": 4820.15, "revenue": 28940.00}'
    assert verdict("It drove €28,940 on €4,820 of spend.", spend)[0] == SUPPORTED
    assert verdict("It drove €28,940 on €4,830 of spend.", spend)[0] == UNSUPPORTED
    slicer = "; filament used [mm] = 14382.6\n; filament used [g] = 43.1"
    assert verdict("It uses roughly 14.4 m of filament.", slicer)[0] == SUPPORTED


def test_a_number_worked_out_from_one_record_is_supported_when_the_claim_says_so() -> None:
    cellar = (
        "bin,producer,bottles,price_usd,rating\nA3,Ridge,3,235.00,97\nA4,Tempier,6,54.00,93\n"
        "B1,Musar,2,68.50,94\n"
    )
    assert verdict("You have 11 bottles across three wines.", cellar)[0] == SUPPORTED
    assert verdict("You hold three bottles of Ridge at $235 each, $705 in all.", cellar)[0] == (
        SUPPORTED
    )
    assert verdict("You hold three bottles of Ridge, $715 in all.", cellar)[0] == UNSUPPORTED
    # no word says it was worked out: a small number that only a sum makes is not the
    # output's; one of 100 or more that one row makes exactly is (3 bottles at $235)
    assert verdict("Ridge cost $9.", cellar)[0] == UNSUPPORTED
    assert verdict("Ridge cost $705.", cellar)[0] == SUPPORTED
    assert verdict("Ridge cost $735.", cellar)[0] == UNSUPPORTED
    stats = '{"stats": {"matches": 214, "wins": 97, "losses": 117}}'
    assert verdict("They won 97 of 214 matches, a win rate of about 45%.", stats)[0] == SUPPORTED


def test_dates_in_digits_and_rounded_figures() -> None:
    assert verdict("In June you overspent.", '{"month": "2026-06", "over": true}')[0] == SUPPORTED
    exif = "DateTimeOriginal : 2026:09:19 17:48:33"
    assert verdict("It was taken on September 19, 2026.", exif)[0] == SUPPORTED
    assert verdict("It was taken on September 18, 2026.", exif)[0] == UNSUPPORTED
    report = "Date: 03/11/2026   Inspector: T. Baranski"
    assert verdict("The inspection was on March 11, 2026.", report)[0] == SUPPORTED
    assert verdict("The inspection was on March 12, 2026.", report)[0] == UNSUPPORTED
    totals = "Totals: corn 20,579 bu; soybeans 12,655 bu."
    assert verdict("You harvested 12,700 bushels of soybeans.", totals)[0] == SUPPORTED
    assert verdict("You harvested 13,000 bushels of soybeans.", totals)[0] == UNSUPPORTED
    # a round year is no rounded figure
    assert verdict("It was built in 1900.", "It was built in 1896.")[0] == UNSUPPORTED


def test_a_json_records_nested_objects_are_its_own() -> None:
    listing = (
        '{"title": "MSR Hubba Hubba NX tent", "price": {"amount": 210, "currency": "EUR"},'
        ' "seller": {"rating": 4.9, "sales": 37}}'
    )
    assert verdict("The Hubba Hubba NX is listed at 210 euros.", listing)[0] == SUPPORTED
    teams = '[{"team": "Kestrel", "stats": {"wins": 312}}, {"team": "Osprey", "stats": {"wins": 245}}]'
    assert verdict("Kestrel has 312 wins.", teams)[0] == SUPPORTED
    assert verdict("Osprey has 312 wins.", teams)[0] == UNSUPPORTED


def test_a_time_on_the_12_hour_clock_is_the_24_hour_time_of_the_output() -> None:
    booking = '{"slot": {"start": "19:30", "arrive_by": "19:15"}, "ready": "2026-12-03T16:00:00Z"}'
    assert verdict("Please arrive by 7:15 for the 7:30 pm start.", booking)[0] == SUPPORTED
    assert verdict("It will be ready by 4 pm.", booking)[0] == SUPPORTED
    assert verdict("It will be ready by 5 pm.", booking)[0] == UNSUPPORTED
    assert verdict("Please arrive by 6:15.", booking)[0] == UNSUPPORTED


def test_a_worked_out_number_of_two_lines_and_a_multiple() -> None:
    order = "blend_order:\n  total_tonnes: 18.0\n  status: confirmed\n  price_per_tonne_gbp: 412.00\n"
    assert verdict("At £412 a tonne the order comes to £7,416.", order)[0] == SUPPORTED
    assert verdict("At £412 a tonne the order comes to £7,614.", order)[0] == UNSUPPORTED
    ads = '{"campaigns": [{"spend": 4820, "revenue": 28940}, {"spend": 220, "revenue": 6210}]}'
    assert verdict("Spend of €4,820 brought €28,940, about a 6x return.", ads)[0] == SUPPORTED
    assert verdict("Spend of €4,820 brought €28,940, about a 9x return.", ads)[0] == UNSUPPORTED


def test_a_date_of_another_rows_cell_is_unsupported() -> None:
    docket = (
        "witness,role,date,room\nA. Okafor,plant manager,2026-03-19,4B\n"
        "L. Brandt,safety officer,2026-03-24,4B\n"
    )
    assert verdict("L. Brandt, the safety officer, is deposed on March 24.", docket)[0] == SUPPORTED
    found, reason = verdict("L. Brandt, the safety officer, is deposed on March 19.", docket)
    assert found == UNSUPPORTED and "belongs to another line" in reason


def test_a_share_of_a_goal_a_rounded_difference_and_an_ordinal_day() -> None:
    campaign = (
        '{"raised": 61275, "goal": 40000, "stretch_goals": [{"threshold": 75000}, '
        '{"threshold": 50000}]}'
    )
    assert verdict("It has raised about 153 % of its goal.", campaign)[0] == SUPPORTED
    assert verdict("It has raised about 163 % of its goal.", campaign)[0] == UNSUPPORTED
    assert verdict("The next goal is still about $13,700 away.", campaign)[0] == SUPPORTED
    assert verdict("The next goal is still about $15,700 away.", campaign)[0] == UNSUPPORTED
    email = (
        "Date: Tuesday, December 1, 2026\nHi Ana,\nI can fit the doors on the 10th. "
        "If the 10th doesn't suit, Wednesday 16th is my only other free day."
    )
    assert verdict("The other free day is 16 December.", email)[0] == SUPPORTED
    assert verdict("The other free day is 17 December.", email)[0] == UNSUPPORTED


# -- the fifth rules (rules-v5): what agents work out and how outputs in lines are laid out ----


def test_a_number_the_claim_works_out_from_its_own_numbers() -> None:
    usage = '{"member": "Delphine Okafor", "passes": 12, "over": 2, "overage_eur": 22}'
    claim = "Delphine used 12 passes, 2 over the allowance, which adds €{} at €22 each."
    assert verdict(claim.format(44), usage)[0] == SUPPORTED
    assert verdict(claim.format(46), usage)[0] == UNSUPPORTED
    fees = "Closeboard £96 per metre: £4,032. Removal of the old fence £240. Side gate £385."
    claim = "With £240 for removal and £385 for the gate on top of £4,032, the full job is £{}."
    assert verdict(claim.format("4,657"), fees)[0] == SUPPORTED
    assert verdict(claim.format("4,757"), fees)[0] == UNSUPPORTED
    # a small whole number only where the claim says it worked it out; a year never
    scores = '{"map": "Ascent", "score": "13-9", "kairo": {"kills": 21, "deaths": 14}}'
    assert verdict("The map went 13-9 and kairo had 27 kills, 14 deaths.", scores)[0] == (
        UNSUPPORTED
    )


def test_times_as_agents_write_them() -> None:
    log = "22:41:07 BOOK pickup=Royal Oak\n22:48:15 ARRIVE car 17\n23:04:39 DROP fare=£18.40"
    assert verdict("Car 17 arrived just before 10:50 pm and dropped off a little after 11.", log)[
        0
    ] == SUPPORTED
    assert verdict("Car 17 arrived just before 10:50 pm and dropped off a little after 12.", log)[
        0
    ] == UNSUPPORTED
    course = '{"course": "Geology", "day": "Tuesday", "start": "19:00", "end": "21:00"}'
    assert verdict("Geology runs on Tuesday evenings from 7 to 9.", course)[0] == SUPPORTED
    assert verdict("Geology runs on Tuesday evenings from 7 to 10.", course)[0] == UNSUPPORTED
    run = '{"type": "trail_run", "duration_s": 4127, "distance_km": 11.84}'
    assert verdict("The run covered 11.84 km in about 1 hour 9 minutes.", run)[0] == SUPPORTED
    assert verdict("The run covered 11.84 km in about 1 hour 19 minutes.", run)[0] == UNSUPPORTED
    results = "1  Kwame Asante   1:09:48\n2  Ruairi Flanagan   1:10:31\n3  Tom Hale   1:12:02"
    assert verdict("Kwame Asante won in 1:09:48, 43 seconds ahead of Ruairi Flanagan.", results)[
        0
    ] == SUPPORTED
    assert verdict("Kwame Asante won in 1:09:48, 53 seconds ahead of Ruairi Flanagan.", results)[
        0
    ] == UNSUPPORTED
    ticket = "Ready: shirts Tue 17/03 after 16:00; duvet Thu 19/03\nPaid: NO\nTotal: £51.97"
    assert verdict("The shirts will be ready on Tuesday 17 March.", ticket)[0] == SUPPORTED
    assert verdict("The shirts will be ready on Tuesday 18 March.", ticket)[0] == UNSUPPORTED


def test_negations_written_as_agents_and_outputs_write_them() -> None:
    bom = "Effectivity: serial PC-D-00001 onward; rev C stock (312 units) to be used up, not scrapped."
    assert verdict("The 312 rev C units will be used up rather than scrapped.", bom)[0] == SUPPORTED
    assert verdict("The 312 rev C units will be scrapped.", bom)[0] == CONTRADICTED
    quotes = '{"job": "fence repair",\n "quotes": 3,\n "accepted_quote": null}'
    assert verdict("You have three quotes and haven't accepted any yet.", quotes)[0] == SUPPORTED
    wheels = (
        "| Wheel | Renter | Splash pan | Notes |\n|---|---|---|---|\n"
        "| W1 | Lou Barratt | yes | - |\n| W3 | unassigned | no | reverse switch faulty, out of service |"
    )
    assert verdict("W3 is unassigned and out of service.", wheels)[0] == SUPPORTED
    # both negate ("doesn't work" / "doesn't suit"); "can't add ... without" is no negation
    diary = "If the 10th doesn't suit, Wednesday 16th is my only other free day before Christmas."
    assert verdict("If the 10th doesn't work, his only other free day is the 16th.", diary)[0] == (
        SUPPORTED
    )
    deposit = "A 30% deposit (£479.40) secures the date and is non-refundable."
    assert verdict("The £479.40 deposit secures the date and can be refunded.", deposit)[0] == (
        CONTRADICTED
    )
    assert verdict("The £479.40 deposit secures the date and can't be refunded.", deposit)[0] == (
        SUPPORTED
    )
    plan = '{"plan": "Connect 30GB", "data_rollover": false, "add_ons": []}'
    assert verdict("Unused data rolls over to the next cycle.", plan)[0] == CONTRADICTED
    assert verdict("Unused data doesn't roll over to the next cycle.", plan)[0] == SUPPORTED
    items = '[{"drug": "Amlodipine 5mg", "status": "ready", "collected": false}]'
    assert verdict("The amlodipine is ready to collect.", items)[0] == SUPPORTED
    diff = "--- loan v1\n+++ loan v2\n-Courier required: no\n+Courier required: yes\n Insurer: Hiscox"
    assert verdict("A courier is now required.", diff)[0] == SUPPORTED
    assert verdict("No courier is required.", diff)[0] == CONTRADICTED


def test_a_short_document_is_read_for_polarity() -> None:
    article = "\n\n".join((
        "You can renew by mail if your most recent passport was issued when you were 16 or "
        "older, was issued within the last 15 years, and is undamaged in every way that matters.",
        "Fees: the standard renewal fee is $130 for a passport book and $30 for a passport card, "
        "or $160 for both, and expedited service costs an additional $60 on top of that.",
        "Your old passport will be returned to you separately and cancelled by the office, and "
        "any visas in it remain valid until the date printed on each of them by the issuer.",
        "Photos must be 2 x 2 inches and taken within the last 6 months of the application; "
        "selfies and photos with glasses are not accepted.",
    ))
    assert verdict("Photos with glasses are accepted.", article)[0] == CONTRADICTED
    assert verdict("Photos with glasses are not accepted.", article)[0] == SUPPORTED


def test_values_worked_out_of_records_and_columns() -> None:
    shows = (
        '{"performances": [{"id": 8813, "date": "2025-03-21", "capacity": 320, "sold": 298, '
        '"held": 4}, {"id": 8815, "date": "2025-03-22", "capacity": 320, "sold": 320, "held": 0}]}'
    )
    assert verdict("Friday's show has only 18 seats left.", shows)[0] == SUPPORTED
    assert verdict("Friday's show has only 28 seats left.", shows)[0] == UNSUPPORTED
    hay = (
        "horse,owner,hay_kg_day,farrier_due\nWillow,Ellen Marsh,9,2025-02-11\n"
        'Captain,Rob Tillotson,11,2025-02-04\nDash,Amira Qureshi,7,"2025-02-04, box rest"\n'
        "Hector,Amira Qureshi,12,2025-02-25\n"
    )
    assert verdict("Between them the horses get through 39 kg of hay a day.", hay)[0] == SUPPORTED
    assert verdict("Between them the horses get through 49 kg of hay a day.", hay)[0] == (
        UNSUPPORTED
    )
    roses = "code,name,colour,stems_per_bunch,eur_per_stem\nRO-FRE-60,Freedom,red,20,0.48\n"
    roses += "RO-AVA-50,Avalanche+,white,20,0.39\n"
    assert verdict("Freedom is €0.48 a stem in bunches of 20, €9.60 a bunch.", roses)[0] == (
        SUPPORTED
    )
    assert verdict("Freedom is €0.48 a stem in bunches of 20, €9.80 a bunch.", roses)[0] == (
        UNSUPPORTED
    )


def test_an_output_in_lines_is_read_as_records_however_long() -> None:
    log = "\n".join(
        f"22:{m:02d}:07 OFFER #553{m} -> car {m} (Dariusz Nowak) eta=6m pickup=Royal Oak"
        for m in range(10, 40)
    )
    assert verdict("Dariusz Nowak took the booking from the Royal Oak.", log)[0] == SUPPORTED
    assert verdict("Dariusz Nowicki took the booking from the Royal Oak.", log)[0] == UNSUPPORTED


def test_lines_that_are_no_rows() -> None:
    results = (
        "Pos  Overall  Name             Club               Chip time\n"
        "1    38       Claire Donovan   Tyneside Harriers  41:07\n"
        "2    51       Mei Lin Tan      unattached         42:35\n"
        "3    102      Anja Kruger      Tyneside Harriers  46:18\n"
        "4    117      Fiona Maguire    Heaton Runners     47:02\n"
        "Finishers in category: 4   Total finishers: 842"
    )
    assert verdict("Claire Donovan won, 38th overall out of 842.", results)[0] == SUPPORTED
    # "two runners" names no row: the output writes only "Heaton Runners"
    assert verdict(
        "Tyneside Harriers had two runners in it, with Anja Kruger coming home third.", results
    )[0] == SUPPORTED
    incubator = (
        "2024-02-19 10:12:47 INC-3 DOOR open by badge 0412 (S. Adeyemi) duration=48s\n"
        "2024-02-19 10:14:02 INC-3 ALARM CO2 low 3.6%\n2024-02-19 10:31:10 INC-3 CO2 4.9%"
    )
    assert verdict("The CO2 dropped to 3.6% at 10:14, just after S. Adeyemi opened the door.",
                   incubator)[0] == SUPPORTED
    counter = "--- counter_17.txt\n+++ counter_18.txt\n-hake  6.0\n+hake  10.5\n cod   12.0\n+monkfish  2.8"
    assert verdict("Hake has been topped up to 10.5 kg.", counter)[0] == SUPPORTED
    assert verdict("Cod has been topped up to 10.5 kg.", counter)[0] == HINTED


def test_names_agents_write_for_what_the_output_abbreviates() -> None:
    jobs = "job | client | language_pair | translator\n4471 | Marlow & Pike | DE>EN | Anke\n"
    jobs += "4472 | Marlow & Pike | EN>FR | Julien\n4473 | Sunfield | EN>PL | -"
    assert verdict("Julien's French translation for Marlow & Pike is in review.", jobs)[0] == (
        SUPPORTED
    )
    assert verdict("Julien's Spanish translation for Marlow & Pike is in review.", jobs)[0] == (
        UNSUPPORTED
    )
    tree = "species: sycamore\nwork: 25% crown reduction\nprotection: TPO (consent needed)\n"
    assert verdict("The sycamore is covered by a Tree Preservation Order.", tree)[0] == SUPPORTED
    lots = "lot,shade,delta_e,result\nDY-5501,Navy,0.6,pass\nDY-5502,Coral,1.4,re-dye\n"
    assert verdict("The coral lot DY-5502 needs a re-dye at \u0394E 1.4.", lots)[0] == SUPPORTED
    visa = '[{"date": "2025-07-09", "event": "requested: bank statements Mar-May 2025"}]'
    assert verdict("They asked for bank statements covering March to May.", visa)[0] == SUPPORTED
    assert verdict("They asked for bank statements covering February to May.", visa)[0] == (
        UNSUPPORTED
    )


# -- the sixth rules (rules-v6) ---------------------------------------------------------------


def test_a_weekday_of_a_date_whose_year_the_output_gives_elsewhere() -> None:
    letter = (
        "Subject: Invoice KQ-7782, treatment in March 2024\n  04 Mar  Assessment  £75.00\n"
        "Payment is due by 15 April 2024. Your next appointment is on 2 April at 17:20."
    )
    assert verdict("Your next session is on Tuesday 2 April at 5:20 pm.", letter)[0] == SUPPORTED
    assert verdict("Your next session is on Wednesday 2 April at 5:20 pm.", letter)[0] == (
        UNSUPPORTED
    )


def test_names_with_accents_and_titles() -> None:
    order = '{"items": [{"title": "Faure: Elegie, op. 24", "qty": 2}], "status": "sent"}'
    assert verdict("Both copies of the Fauré Élégie were sent.", order)[0] == SUPPORTED
    assert verdict("Both copies of the Satie Gymnopédie were sent.", order)[0] == UNSUPPORTED
    show = "09:00 Breakfast Tide | host: Gwen Achebe\n11:00 Local Matters | guest: Dana Whitfield"
    assert verdict("Her guest at 11 is Councillor Dana Whitfield.", show)[0] == SUPPORTED


def test_more_of_what_agents_work_out() -> None:
    ears = "Right ear: average 38 dB HL\nLeft ear: average 52 dB HL\nSpeech: right 88%, left 64%"
    assert verdict("The left is at 52 dB HL against 38 dB in the right, a 14 dB gap.", ears)[
        0
    ] == SUPPORTED
    assert verdict("The left is at 52 dB HL against 38 dB in the right, a 16 dB gap.", ears)[
        0
    ] == UNSUPPORTED
    quote = "Base quote: £4,340 (marquee, flooring, lighting)\nDeposit: 25% to hold the date"
    assert verdict("A 25% deposit holds the date, that's £1,085.", quote)[0] == SUPPORTED
    assert verdict("A 25% deposit holds the date, that's £1,185.", quote)[0] == UNSUPPORTED
    session = "| Ref | Client | Artist | Date | Length | Deposit |\n|---|---|---|---|---|---|\n"
    session += "| TB-303 | Leila Haddad | Jonah Kress | Sat 12 Oct | 1.5 h | £40 |\n"
    session += "| TB-304 | Sam Oduya | Jonah Kress | Sun 13 Oct | 3 h | £60 |"
    assert verdict("Leila's 90-minute session is with Jonah Kress.", session)[0] == SUPPORTED
    assert verdict("Leila's 75-minute session is with Jonah Kress.", session)[0] == UNSUPPORTED
    courts = "| Court | Surface | 18:00 | 19:00 | 20:00 |\n|---|---|---|---|---|\n"
    courts += "| 2 | Hard | booked | free | free |\n| 3 | Clay | free | free | closed |"
    assert verdict("Court 3 is free at 6 and 7 pm but shuts at 8.", courts)[0] == SUPPORTED
    assert verdict("Court 3 is free at 6 and 7 pm but shuts at 9.", courts)[0] == UNSUPPORTED


def test_totals_over_the_rows_a_claim_names() -> None:
    counts = (
        "date,site,species,count\n2024-01-14,North Lagoon,Wigeon,412\n"
        "2024-01-14,North Lagoon,Teal,158\n2024-01-14,Saltmarsh Pools,Wigeon,95\n"
        "2024-01-14,Saltmarsh Pools,Teal,203\n2024-01-14,Saltmarsh Pools,Little Egret,11\n"
    )
    assert verdict("Across both sites the count came to 507 Wigeon.", counts)[0] == SUPPORTED
    assert verdict("Across both sites the count came to 517 Wigeon.", counts)[0] == UNSUPPORTED
    tickets = (
        "| Ticket | Customer | Item | Price |\n|---|---|---|---|\n"
        "| C-771 | Norah Blake | Chelsea boots | £48.00 |\n| C-772 | Norah Blake | buckle | £12.50 |\n"
        "| C-774 | Femi Adeyemi | walking boots | £79.00 |"
    )
    assert verdict("Norah Blake will pay £60.50 for the two jobs.", tickets)[0] == SUPPORTED
    assert verdict("Norah Blake will pay £62.50 for the two jobs.", tickets)[0] == UNSUPPORTED
    freight = (
        '{"shipments": [{"ref": "MFL-3381", "cargo": {"cartons": 640, "gross_kg": 11850}}, '
        '{"ref": "MFL-3392", "cargo": {"cartons": 910, "gross_kg": 14200}}]}'
    )
    assert verdict("Between them the two containers carry 1,550 cartons.", freight)[0] == (
        SUPPORTED
    )
    assert verdict("Between them the two containers carry 1,650 cartons.", freight)[0] == (
        UNSUPPORTED
    )


def test_another_rows_word_denied_and_a_day_set_apart() -> None:
    returns = (
        "| Item | Hirer | Status |\n|---|---|---|\n| Scrooge coat | B. Marsh | RETURNED |\n"
        "| Ghost of Christmas Past robe | T. Hale | OUT |"
    )
    assert verdict("The Ghost of Christmas Past robe still hasn't been returned.", returns)[0] == (
        SUPPORTED
    )
    assert verdict("The Ghost of Christmas Past robe has been returned.", returns)[0] == (
        UNSUPPORTED
    )
    tower = (
        "Practice: Wednesdays 19:30-21:00.\n"
        "No practice on the first Wednesday of each month (bell maintenance by Ron Amis)."
    )
    assert verdict(
        "Practice is on Wednesdays apart from the first Wednesday of each month.", tower
    )[0] == SUPPORTED


def test_a_claim_of_no_words_over_a_yes_no_field() -> None:
    assert verdict("42.", '{"enabled": true, "count": 42}')[0] == SUPPORTED


# -- the seventh rules (rules-v7) -------------------------------------------------------------


def test_times_written_with_a_dot_and_times_between_with_a_joined_unit() -> None:
    email = "- Second fitting: Tuesday 3 June at 2.30pm at the Cheltenham studio."
    assert verdict("Your second fitting is on Tuesday 3 June at 2:30 pm.", email)[0] == SUPPORTED
    assert verdict("Your second fitting is on Tuesday 3 June at 3:30 pm.", email)[0] == (
        UNSUPPORTED
    )
    timetable = "Dep    Stop                   Changes  Fare\n07:42  Northgate Bus Station   0  £3.40\n"
    timetable += "08:19  Ferrybridge Hospital   0        £3.40"
    assert verdict("The 7:42 gets to Ferrybridge Hospital at 8:19, a 37-minute ride.", timetable)[
        0
    ] == SUPPORTED
    assert verdict("The 7:42 gets to Ferrybridge Hospital at 8:19, a 47-minute ride.", timetable)[
        0
    ] == UNSUPPORTED


def test_a_difference_or_a_time_is_no_comparison_its_numbers_deny() -> None:
    site = '{"name": "Ring Road footbridge", "pm25_24h": 29.6, "threshold": 25}'
    assert verdict("It averaged 29.6 of fine particles, 4.6 above the 25 threshold.", site)[
        0
    ] == SUPPORTED
    courts = "| Court | 19:00 | 20:00 |\n|---|---|---|\n| 1 | Coaching | free |\n| 4 | Squad | free |"
    assert verdict("Court 1 opens up from 8 pm.", courts)[0] == SUPPORTED
    assert verdict("Attendance was 3.9, up from 4.3 last week.", "Attendance: 3.9 (4.3)")[0] == (
        UNSUPPORTED
    )


# -- the eighth rules (rules-v8) --------------------------------------------------------------


def answer_verdicts(claims: tuple[str, ...], evidence: str) -> list[str]:
    """The verifier's verdicts on the claims of one answer, judged together."""
    request = JudgeRequest(claims, (EvidenceText(evidence),), 1.0)
    return [found.verdict for found in VerifierJudge().judge(request)]


def test_a_number_one_step_from_a_number_the_answer_writes() -> None:
    jobs = (
        "JOB    CUSTOMER       ITEM                 QUOTE    DEPOSIT  STATUS\n"
        "C-430  A. Delacroix   Mantel clock         £150.00  £40.00   ready for collection\n"
        "C-431  R. Okafor      Vienna regulator     £220.00  £60.00   awaiting parts"
    )
    owe = "A. Delacroix's mantel clock is ready, and with the £40 deposit paid they'll owe £{}."
    assert verdict(owe.format(110), jobs)[0] == SUPPORTED
    assert verdict(owe.format(120), jobs)[0] == UNSUPPORTED
    pouches = '{"plan": {"recipe": "Turkey", "pouch_size_g": 350, "pouches_per_delivery": 24}}'
    box = "Each box holds 24 pouches at 350 g each, so {} kg in all."
    assert verdict(box.format(8.4), pouches)[0] == SUPPORTED
    assert verdict(box.format(8.6), pouches)[0] == UNSUPPORTED
    # a number of another claim of the answer: the hire, then the discount on it
    hire = "Prices per week:\n- Class 2 mobility scooter: £45\n- Rollator with seat: £10\n"
    hire += "Blue Badge holders receive 10% off hire charges."
    assert answer_verdicts(
        ("A Class 2 scooter costs £45 a week, so two weeks would be £90 in hire.",
         "With a Blue Badge, the 10% discount brings the hire down to £81."),
        hire,
    ) == [SUPPORTED, SUPPORTED]
    assert answer_verdicts(
        ("A Class 2 scooter costs £45 a week, so two weeks would be £80 in hire.",
         "With a Blue Badge, the 10% discount brings the hire down to £79."),
        hire,
    ) == [UNSUPPORTED, UNSUPPORTED]
    # a small whole number: said to be worked out ("free"), from the line the claim names
    screens = (
        "ID   | Film         | Screen | Time             | Cap | Sold\n"
        "8813 | Cold Harbour |      2 | 2024-12-20 18:45 | 140 | 140\n"
        "8814 | Cold Harbour |      2 | 2024-12-20 21:30 | 140 | 96"
    )
    seats = "The 9:30 pm showing of Cold Harbour still has {} seats free."
    assert verdict(seats.format(44), screens)[0] == SUPPORTED
    assert verdict(seats.format(46), screens)[0] == UNSUPPORTED
    # not said so: two of the claim's own numbers that happen to add up make no count
    label = "Adults: 1 to 2 tablets every 4 to 6 hours. Do not exceed 6 tablets in 24 hours."
    assert verdict("Take 1 to 2 tablets every 4 to 6 hours, no more than 8 tablets a day.", label)[
        0
    ] == UNSUPPORTED


def test_an_orders_lines_at_their_quantity_times_their_price() -> None:
    order = (
        '{"order": "BW-5521", "lines": [\n'
        ' {"item": "sirloin", "qty_kg": 4.0, "price_per_kg": 32.50},\n'
        ' {"item": "pork shoulder", "qty_kg": 6.5, "price_per_kg": 9.80},\n'
        ' {"item": "sausages", "qty_kg": 5.0, "price_per_kg": 11.20}\n],\n'
        ' "trade_discount_pct": 5}'
    )
    lines = "At the listed prices the lines add up to £{}, or £{} after the 5% trade discount."
    assert verdict(lines.format("249.70", "237.22"), order)[0] == SUPPORTED
    assert verdict(lines.format("259.70", "237.22"), order)[0] == UNSUPPORTED
    assert verdict(lines.format("249.70", "239.22"), order)[0] == UNSUPPORTED


def test_pence_plurals_free_of_and_a_clause_after_so() -> None:
    booking = '{"mileage": {"included_per_day": 150, "excess_rate_per_mile": 0.22}}'
    assert verdict("Beyond that it's 22p a mile.", booking)[0] == SUPPORTED
    assert verdict("Beyond that it's 25p a mile.", booking)[0] == UNSUPPORTED
    cents = booking.replace("0.22", "0.69")
    assert verdict("Beyond that it's 69c a mile.", cents)[0] == SUPPORTED
    assert verdict("Beyond that it's 59c a mile.", cents)[0] == UNSUPPORTED
    buses = "Route X14 leaves at 08:12 and 08:42 from stand B."
    assert verdict("The X14s leave at 8:12 and 8:42 from stand B.", buses)[0] == SUPPORTED
    assert verdict("The X15s leave at 8:12 and 8:42 from stand B.", buses)[0] == UNSUPPORTED
    fete = "• Static display and photo handling between shows — no charge for the public\n• Fee: £650"
    assert verdict("Between shows the public can handle the birds for photos free of charge.", fete)[
        0
    ] == SUPPORTED
    loan = (
        "Loan conditions: Destructive sampling is NOT permitted on this loan; if you need DNA "
        "samples please submit a separate request."
    )
    assert verdict("No destructive sampling is allowed, so DNA samples need a separate request.",
                   loan)[0] == SUPPORTED
    assert verdict("Destructive sampling is allowed on this loan, so DNA samples need no "
                   "separate request.", loan)[0] == CONTRADICTED


# -- the ninth rules (rules-v9) ---------------------------------------------------------------


def test_a_difference_said_so_after_it_a_rate_the_evidence_states_and_lines_added_up() -> None:
    photographers = (
        "• Lumenfield Weddings — full day £1,650\n• Sorrel & Ash — full day £1,850\n"
        "• Kestrel Studio — full day £2,100"
    )
    less = "Lumenfield is £1,650 for a full day, £{} less than Sorrel & Ash."
    assert verdict(less.format(200), photographers)[0] == SUPPORTED
    assert verdict(less.format(300), photographers)[0] == UNSUPPORTED
    quote = "Labour: £145.00\nParts: £122.30\nAll work is plus VAT at 20%."
    vat = "The work comes to £267.30 before VAT, which is £{} with it."
    assert verdict(vat.format("320.76"), quote)[0] == SUPPORTED
    assert verdict(vat.format("322.76"), quote)[0] == UNSUPPORTED
    log = (
        "2025-04-14T06:21:40Z farm=Hollinbrook tank=1 litres=6420 temp_c=3.6\n"
        "2025-04-14T06:24:03Z farm=Hollinbrook tank=2 litres=3875 temp_c=3.9\n"
        "2025-04-14T07:02:11Z farm=Ashby Lane tank=1 litres=5210 temp_c=3.8"
    )
    tanks = "The tanker collected {} litres from Hollinbrook across its two tanks."
    assert verdict(tanks.format("10,295"), log)[0] == SUPPORTED
    assert verdict(tanks.format("10,395"), log)[0] == UNSUPPORTED
    fees = "Membership: Senior £85/year, plus a one-off £25 joining fee for seniors."
    first = "A senior's first year costs £{} including the joining fee."
    assert verdict(first.format(110), fees)[0] == SUPPORTED
    assert verdict(first.format(120), fees)[0] == UNSUPPORTED


def test_a_colon_after_an_amount_is_no_clock_time() -> None:
    prices = "First three items: £27. Each extra item: £6. Council Tax Reduction: 50% off."
    claims = (
        "Five items would cost £39: £27 for the first three and £6 for each extra one.",
        "With Council Tax Reduction you'd pay half that, £{}.",
    )
    assert answer_verdicts((claims[0], claims[1].format("19.50")), prices)[1] == SUPPORTED
    assert answer_verdicts((claims[0], claims[1].format("18.50")), prices)[1] == UNSUPPORTED


# -- the tenth rules (rules-v10): times of day, empty and status fields, four-figure hedges ----


def test_a_time_of_day_the_output_does_not_give() -> None:
    sms = "New departure: 16:50 (was 13:20). New arrival: 18:35 local. Gate B16, meal voucher EUR 15."
    delayed = "The flight is delayed from 13:20 to {}, now landing at 18:35."
    assert verdict(delayed.format("16:50"), sms)[0] == SUPPORTED
    assert verdict(delayed.format("16:15"), sms) == (
        UNSUPPORTED, "not in the evidence: time '16:15'; nearest evidence: \"New departure: "
        "16:50 (was 13:20).\"",
    )
    visit = "We can come back Thursday between 8 and 10 am to fit it."
    assert verdict("They're coming back on Thursday between 8 and 10 am.", visit)[0] == SUPPORTED
    report = "The argument escalated, and at 4.15am he reached for the fork."
    assert verdict("It escalated at 4am.", report)[0] == SUPPORTED  # on the hour, as written
    assert verdict("It escalated at 5am.", report)[0] == UNSUPPORTED
    results = "Green,1,Olu Adeyemi,38:20\nGreen,2,Ruth Kilbride,41:09"
    # a time between two of the output's clocks is no time of day
    assert verdict("Olu Adeyemi won Green in 38:20, 2:49 clear of Ruth Kilbride.", results)[
        0
    ] == SUPPORTED


def test_an_empty_or_disabled_field_says_no() -> None:
    order = '{"payee": "Keswick Lettings Ltd", "frequency": "monthly", "end_date": null}'
    assert verdict("The standing order is monthly and has no end date set.", order)[0] == SUPPORTED
    assert verdict("The standing order is monthly and has an end date set.", order)[
        0
    ] == CONTRADICTED
    status = "API: Operational\nWebhooks: Operational\nScheduled maintenance: none"
    assert verdict("The API is operational and no maintenance is scheduled.", status)[
        0
    ] == SUPPORTED
    assert verdict("The API is operational and maintenance is scheduled.", status)[
        0
    ] == CONTRADICTED
    fleet = (
        "NAME         TYPE       STATE    DELETION PROTECTION\n"
        "api-prod-01  m7.large   running  enabled\n"
        "bastion      t4.small   running  disabled"
    )
    assert verdict("The bastion is running on a t4.small without deletion protection.", fleet)[
        0
    ] == SUPPORTED
    assert verdict("The bastion is running on a t4.small with deletion protection.", fleet)[
        0
    ] != SUPPORTED
    # "alert=none" on one line of many is that line's: another line's alert stands
    gauges = (
        "09:00Z gauge=ALDER_BRIDGE level_m=1.58 trend=rising alert=none\n"
        "09:00Z gauge=MILLHOLME_WEIR level_m=1.19 trend=rising alert=flood_alert"
    )
    assert verdict("Millholme Weir is rising at 1.19 m, with a flood alert in place.", gauges)[
        0
    ] == SUPPORTED


def test_a_status_the_claim_denies() -> None:
    customs = "Shipment: CN-STX-30418\nCustoms status: cleared\nHold: none"
    assert verdict("Shipment CN-STX-30418 has cleared customs.", customs)[0] == SUPPORTED
    assert verdict("Shipment CN-STX-30418 hasn't cleared customs.", customs)[0] == CONTRADICTED
    refill = "Status: Ready for pickup\nInsurance: accepted, copay USD 4.00"
    assert verdict("Insurance was accepted, so the copay is $4.", refill)[0] == SUPPORTED
    assert verdict("Insurance wasn't accepted, so the copay is $4.", refill)[0] == CONTRADICTED


def test_a_hedged_number_written_to_four_figures_is_held_to_them() -> None:
    package = '{"name": "tessellate-utils", "downloads_last_week": 93412}'
    weekly = "tessellate-utils gets about {} downloads a week."
    assert verdict(weekly.format("93,400"), package)[0] == SUPPORTED
    assert verdict(weekly.format("93,000"), package)[0] == SUPPORTED
    assert verdict(weekly.format("93,142"), package)[0] == UNSUPPORTED


# -- the eleventh rules (rules-v11): states and their opposites, short clauses, "need" --------


def test_a_state_the_output_gives_the_other_way() -> None:
    ci = (
        "Pipeline #7310  branch: main\n"
        "  \u2714 lint            38s\n"
        "  \u2716 e2e-tests       9m 12s  (2 failed)\n"
        "[09:14:02] step \"migrate\" finished status=success\n"
        "[09:14:05] checksum verification passed"
    )
    assert verdict("The migrate step succeeded.", ci)[0] == SUPPORTED
    assert verdict("The migrate step failed.", ci) == (
        UNSUPPORTED, "state 'failed' is the other state: the evidence says 'success'; nearest "
        "evidence: \"[09:14:02] step \"migrate\" finished status=success\"",
    )
    assert verdict("Lint passed, and the e2e tests failed.", ci)[0] == SUPPORTED
    assert verdict("Lint failed.", ci)[0] == UNSUPPORTED  # its line's check mark
    assert verdict("The checksum verification failed.", ci)[0] == UNSUPPORTED
    assert verdict("The checksum verification didn't fail.", ci)[0] == SUPPORTED
    upload = "02:14:52 INFO upload complete dest=s3://vault/orders encrypted=true"
    assert verdict("The upload to the vault is complete and encrypted.", upload)[0] == SUPPORTED
    assert verdict("The upload to the vault is complete and unencrypted.", upload)[
        0
    ] == UNSUPPORTED
    # a negated line says either state: "not permitted" is the claim's "prohibited"
    rules = "Clause 7.3  Smoking: not permitted inside the Property."
    assert verdict("Smoking inside the property is prohibited.", rules)[0] == SUPPORTED
    lodge = "Pool: seasonal, closed until 2026-05-15\nSauna: open daily"
    assert verdict("The seasonal pool is closed until May 15.", lodge)[0] == SUPPORTED
    assert verdict("The seasonal pool is open until May 15.", lodge)[0] == UNSUPPORTED


def test_a_quality_the_output_gives_the_other_way_only_where_it_never_writes_the_claims() -> None:
    listing = '{"address": "4 Orchard Row", "tenure": "freehold", "epc_rating": "B"}'
    assert verdict("4 Orchard Row is freehold with an EPC rating of B.", listing)[0] == SUPPORTED
    assert verdict("4 Orchard Row is leasehold with an EPC rating of B.", listing)[
        0
    ] == UNSUPPORTED
    # the output writes both: which one the claim's line means is not read here
    service = "Front brake pads: replaced\nRear brake pads: 4 mm remaining"
    assert verdict("The front brake pads were replaced.", service)[0] == SUPPORTED
    # a name's word is no quality
    assert verdict("Trains to West Croydon are running.", "Trains to East Croydon: running")[
        0
    ] != CONTRADICTED


def test_a_short_clause_held_to_a_clause_of_exactly_its_words() -> None:
    offer = "Travel costs are covered up to 400 EUR; accommodation is not included."
    assert verdict("Travel is covered up to \u20ac400, accommodation isn't included.", offer)[
        0
    ] == SUPPORTED
    assert verdict("Travel is covered up to \u20ac400, accommodation is included.", offer)[
        0
    ] == CONTRADICTED
    # a field's name or a question is no clause of prose
    assert verdict("There are no spare shafts.", "Spare flights: 12 sets; spare shafts: 0")[
        0
    ] == SUPPORTED
    assert verdict("Your data won't be wiped.", "Will my data be wiped? It is kept.")[0] == SUPPORTED


def test_need_reads_as_required_and_can_as_allowed() -> None:
    entry = '{"destination": "Estoria", "visa_required": false, "max_stay_days": 90}'
    assert verdict("You don't need a visa for Estoria.", entry)[0] == SUPPORTED
    assert verdict("You need a visa for Estoria.", entry)[0] == CONTRADICTED
    letter = "No interview is needed. Expected processing time: 15 working days."
    assert verdict("An interview is required.", letter)[0] == CONTRADICTED
    leave = "Annual leave entitlement: 25 days\nCarry-over allowed: No"
    assert verdict("Unused leave can't be carried over.", leave)[0] == SUPPORTED
    assert verdict("Unused leave can be carried over.", leave)[0] == CONTRADICTED


def test_a_field_whose_value_denies_it() -> None:
    fares = "Fare rules: Economy Light\nChecked bag: not included\nCabin bag: 1 x 8 kg"
    assert verdict("Checked bags aren't included, but one 8 kg cabin bag is.", fares)[
        0
    ] == SUPPORTED
    assert verdict("Checked bags are included.", fares)[0] == CONTRADICTED
    # the line's polarity is its value's, not its name's
    warning = "Impacts: ferry cancellations likely\nOrange warning: not issued"
    assert verdict("No orange warning has been issued.", warning)[0] == SUPPORTED
    warranty = "Accidental damage cover: not purchased\nOpen repair cases: none"
    assert verdict("You didn't buy accidental damage cover.", warranty)[0] == SUPPORTED


def test_states_read_beside_the_word_and_lines_that_name_it_otherwise() -> None:
    quote = "Quote Q-88120 - Sendrow Freight\nMode: Road, full truckload\nTransit: 3 business days"
    assert verdict("Sendrow Freight quotes a full truckload by road, taking 3 business days.", quote)[
        0
    ] == SUPPORTED
    assert verdict("Sendrow Freight quotes a full truckload by rail, taking 3 business days.", quote)[
        0
    ] == UNSUPPORTED
    # "rather than emptied" denies the state: the line abstains
    bins = "1,288 bins were found contaminated and were tagged rather than emptied."
    assert verdict("1,288 bins were tagged and left unemptied.", bins)[0] == SUPPORTED
    # a table's rows tie: whose colour it is is not read here
    belts = "Leo  9th kyu red  8th kyu yel  PASS\nAma  8th kyu yel  7th kyu ora  PASS"
    assert verdict("Ama moved up to 7th kyu orange.", belts)[0] == SUPPORTED
    # "typo tolerance enabled, vector ranking disabled" says one of each
    flags = "[search]\nenable_typo_tolerance = true\nenable_vector_ranking = false"
    assert verdict("Search has typo tolerance enabled, vector ranking disabled.", flags)[
        0
    ] == SUPPORTED
    assert verdict("Search has typo tolerance enabled, vector ranking enabled.", flags)[
        0
    ] == CONTRADICTED


def test_names_written_short_or_inside_an_address() -> None:
    planner = "08:49  Ferrybridge Hospital  diverted via Station Rd\nWellbrook Sdgs  sand 94.5 t"
    assert verdict("The 8:49 is diverted via Station Road.", planner)[0] == SUPPORTED
    assert verdict("The sand goes to Wellbrook Sidings.", planner)[0] == SUPPORTED
    assert verdict("The 8:49 is diverted via Station Lane.", planner)[0] == UNSUPPORTED
    film = "The film stars Ben Affleck as Matt Murdock."
    assert verdict("The film stars Benjamin Affleck.", film)[0] == UNSUPPORTED  # "Ben": a name
    results = (
        '"Seasoning a Skillet" \u2014 hearthandhob.example/blog \u2014 Re-season with flaxseed oil.\n'
        '"Rust Rescue" \u2014 oldforge.example/rust \u2014 Scrub rust with steel wool, then oil it.'
    )
    assert verdict("For rust, Old Forge recommends steel wool, then oiling.", results)[
        0
    ] == SUPPORTED
    assert verdict("For rust, Iron Works recommends steel wool, then oiling.", results)[
        0
    ] == UNSUPPORTED
    school = "From: office@stcuthbertsprimary.sch.example\nYear 4 will visit Glenmere Farm."
    assert verdict("St Cuthbert's Year 4 will visit Glenmere Farm.", school)[0] == SUPPORTED
    # a sentence's first word beside a comma or a day's name is no name
    statement = "2026-03-03,VN71 KDX,Brentmoor Truckstop,AdBlue,10.0"
    assert verdict("Earlier, VN71 KDX bought 10 litres of AdBlue at Brentmoor Truckstop.",
                   statement)[0] == SUPPORTED


def test_identifiers_and_amounts_written_as_apis_write_them() -> None:
    air = '{"station": "Millbrook North", "pm2_5": 38.4, "aqi": 102}'
    assert verdict("Millbrook North reported PM2.5 at 38.4.", air)[0] == SUPPORTED
    load = "thresholds: p(95)<400ms \u2713  http_req_failed<1% \u2713"
    assert verdict("The p95 latency stayed within its threshold.", load)[0] == SUPPORTED
    assert verdict("The p99 latency stayed within its threshold.", load)[0] == UNSUPPORTED
    refund = '{"id": "re_8KQ2", "amount": 4850, "currency": "gbp", "status": "pending"}'
    assert verdict("The \u00a348.50 refund is still pending.", refund)[0] == SUPPORTED
    assert verdict("The \u00a348.05 refund is still pending.", refund)[0] == UNSUPPORTED
    mortgage = '{"product": "5-Year Fixed", "rate_pct": 4.29, "apr_pct": 5.1}'
    assert verdict("The 5-year fixed rate is 4.29% (5.1% APR).", mortgage)[0] == SUPPORTED
    spray = "max_wind_kmh: 15\nrain_free_hours_after: 6\nreentry_hours: 24"
    assert verdict("Nobody should re-enter for 24 hours.", spray)[0] == SUPPORTED


def test_a_range_of_hours_on_the_afternoon_clock() -> None:
    parcel = '{"status": "out_for_delivery", "delivery_window": "13:00-15:00"}'
    assert verdict("It's due between 1 and 3 pm.", parcel)[0] == SUPPORTED
    assert verdict("It's due between 2 and 3 pm.", parcel)[0] == UNSUPPORTED


def test_a_negation_quoted_in_a_title_is_the_titles() -> None:
    agenda = '13:30-14:15  "Feature flags that don\'t rot"   \u2014 Oskar Lindqvist (Brightbeam)'
    assert verdict("Oskar Lindqvist from Brightbeam talks on feature flags at 1:30 pm.", agenda)[
        0
    ] == SUPPORTED


def test_a_table_cell_for_a_thing_the_claim_says_it_is_free_of() -> None:
    allergens = (
        "Dish                   Gluten  Nuts  Dairy\n"
        "Charred leek risotto   no      no    yes\n"
        "Miso aubergine         yes     no    no"
    )
    assert verdict("The charred leek risotto is gluten-free.", allergens)[0] == SUPPORTED
    assert verdict("The miso aubergine is gluten-free.", allergens)[0] != SUPPORTED


# -- the twelfth rules (rules-v12): one record's field, more opposites -------------------------


def test_a_state_in_the_one_field_of_a_record_that_gives_it() -> None:
    hire = (
        "Reservation: RX-55102 \u2014 Solvent Car Hire, Faro Airport\n"
        "Vehicle group: C (Seat Leon or similar)\nTransmission: automatic\nFuel: hybrid\n"
        "Mileage: unlimited"
    )
    car = "Your Faro rental is a group C car like a Seat Leon, automatic and {}, with unlimited mileage."
    assert verdict(car.format("hybrid"), hire)[0] == SUPPORTED
    assert verdict(car.format("diesel"), hire) == (
        UNSUPPORTED, "state 'diesel' is the other state: the evidence says 'hybrid'; nearest "
        "evidence: \"Fuel: hybrid\"",
    )
    # a long value is no field's one state, and a claim stating the other state elsewhere
    # is read no further
    hours = (
        "Store: Thornleigh Garden Centre\nAddress: Holloway Road\nWeekdays: 09:00-17:30\n"
        "Saturday: 08:30-18:00\nSunday: closed"
    )
    assert verdict("It's open 9 am to 5:30 pm on weekdays, but it's closed on Sundays.", hours)[
        0
    ] == SUPPORTED
    # lines of many records: no one record
    seats = (
        "PASSENGER  SEAT  POSITION\nRuth: 14A window\nSam: 14C aisle\nRuth: meal vegetarian"
    )
    assert verdict("Ruth has a window seat.", seats)[0] == SUPPORTED


def test_more_opposites_and_a_state_the_output_writes_with_un() -> None:
    seat = "Booking ref: 7HQ2LM\nCoach: C  Seat: 42 (window, forward facing, quiet coach)"
    assert verdict("You're in coach C, seat 42, a forward-facing window seat.", seat)[
        0
    ] == SUPPORTED
    assert verdict("You're in coach C, seat 42, a forward-facing aisle seat.", seat)[
        0
    ] == UNSUPPORTED
    doors = "Device            Room      State      Since\nBack door lock    Kitchen   unlocked   20:12"
    assert verdict("The kitchen back door lock has been unlocked since 8:12 pm.", doors)[
        0
    ] == SUPPORTED
    assert verdict("The kitchen back door lock has been locked since 8:12 pm.", doors)[
        0
    ] == UNSUPPORTED
    # one line of JSON holding many records: whose state it is is not read here
    lots = (
        '{"lots": [{"crop": "Nantes 2 carrot", "germination": 71, "status": "tested"}, '
        '{"crop": "Padron pepper", "status": "untested"}]}'
    )
    assert verdict("The Nantes 2 carrots were tested at 71% germination.", lots)[0] == SUPPORTED


def test_a_line_listing_what_a_state_holds_of_and_a_value_not_yet_reached() -> None:
    warranty = (
        "Status: ACTIVE until 2027-11-01\nCovered: motor, control board, drum bearings\n"
        "Not covered: door seal wear, blockages from foreign objects"
    )
    assert verdict("Door seal wear isn't covered.", warranty)[0] == SUPPORTED
    assert verdict("Door seal wear is covered.", warranty)[0] == CONTRADICTED
    assert verdict("The drum bearings are covered.", warranty)[0] == SUPPORTED
    record = "MMR dose 2: given 2022-09-05\nHPV: not yet eligible"
    assert verdict("He isn't eligible for HPV yet.", record)[0] == SUPPORTED
    assert verdict("He is now eligible for HPV.", record)[0] == CONTRADICTED


def test_a_table_header_and_a_crossed_line_state_no_polarity() -> None:
    seats = (
        "Passenger                Seat   Checked bag\n"
        "LINDQVIST/ERIK MR        14B    1x23kg\n"
        "LINDQVIST/SOLVEIG MISS   14C    none"
    )
    assert verdict("Solveig is in 14C with no checked bag.", seats)[0] == SUPPORTED
    facilities = "\u2714 Free Wi-Fi\n\u2718 Airport shuttle\n\u2718 Pool"
    assert verdict("There's no airport shuttle.", facilities)[0] == SUPPORTED


# -- the thirteenth rules (rules-v13): what a negation, an "off" or a field's name is said of --


def test_a_negation_is_said_of_a_word_both_sides_share() -> None:
    check = "Propagation check: A record for shop.velloria.com (expected 203.0.113.48)"
    # the claim's "isn't complete" is said of nothing the line states; a host's parts are no
    # statement
    assert verdict("Propagation isn't complete for shop.velloria.com.", check)[0] == SUPPORTED
    manual = "Do not attempt to open the battery case \u2014 this voids the warranty."
    assert verdict("Opening the battery case voids the warranty.", manual)[0] == SUPPORTED
    # the claim's negation, said in other words than the evidence's, still contradicts it
    reply = "We can accommodate the gluten-free request you mentioned."
    assert verdict("They can't handle the gluten-free request.", reply)[0] == CONTRADICTED
    assert verdict("They can accommodate the gluten-free request.", reply)[0] == SUPPORTED


def test_a_field_whose_name_denies_states_its_values_denied() -> None:
    pattern = "Suggested fabrics: viscose crepe, rayon challis\nNot suitable for: stretch knits"
    assert verdict("It isn't suitable for stretch knits.", pattern)[0] == SUPPORTED
    dish = "Suitable for: vegetarians\nNot suitable for: vegans, coeliacs"
    assert verdict("It's fine for vegetarians but not for vegans or coeliacs.", dish)[
        0
    ] == SUPPORTED


def test_a_nought_or_false_field_is_its_state_denied() -> None:
    zones = (
        '{"zones": [\n {"id": 1, "name": "Tomato beds", "enabled": true, "start": "05:30"},\n'
        ' {"id": 2, "name": "Hedge line", "enabled": false, "start": "06:00"}\n],\n'
        ' "rain_delay_hours": 0,\n "soil_sensor": "connected"\n}'
    )
    assert verdict("No rain delay is set.", zones)[0] == SUPPORTED
    assert verdict("The hedge line zone is disabled.", zones)[0] == SUPPORTED


def test_an_off_word_is_said_of_its_own_stretch_of_the_clause() -> None:
    arrangements = (
        "Candidate: Eilidh Mackay (4471)\n- Extra time: 25%\n- Reader: yes\n- Scribe: no\n"
        "- Separate room: yes\n- Word processor: yes (spellcheck disabled)"
    )
    assert verdict(
        "She has a reader, a separate room and a word processor with the spellcheck disabled.",
        arrangements,
    )[0] == SUPPORTED
    assert verdict("She has a reader, and her separate room is disabled.", arrangements)[
        0
    ] == CONTRADICTED


def test_a_column_of_names_lists_rows_and_a_state_to_come_is_not_held() -> None:
    resolvers = (
        "Resolver            Location   Result          Status\n"
        "Google 8.8.8.8      US         203.0.113.48    OK\n"
        "Cloudflare 1.1.1.1  Global     203.0.113.48    OK\n"
        "Quad9 9.9.9.9       CH         198.51.100.7    MISMATCH\n"
        "OpenDNS             US         203.0.113.48    OK"
    )
    assert verdict("Google, Cloudflare and OpenDNS return 203.0.113.48.", resolvers)[
        0
    ] == SUPPORTED
    passes = (
        "Pass        Status   Chains   Note\n"
        "Grimsel     open     no       -\n"
        "Furka       closed   -        Winter closure, expected opening 2026-06-05\n"
        "Nufenen     closed   -        Winter closure"
    )
    assert verdict("Furka is in winter closure, expected to open on June 5.", passes)[
        0
    ] == SUPPORTED
    assert verdict("Furka is open.", passes)[0] == UNSUPPORTED
    counter = (
        "Item                     Vegan  Gluten-free  Contains\n"
        "Chocolate beetroot cake  yes    yes          soya\n"
        "Cardamom bun             yes    no           wheat"
    )
    assert verdict("The chocolate beetroot cake is vegan and gluten-free.", counter)[
        0
    ] == SUPPORTED
    assert verdict("The chocolate beetroot cake is vegan but not gluten-free.", counter)[
        0
    ] == UNSUPPORTED


def test_a_move_from_one_value_to_another_and_a_place_above_a_height_are_no_comparison() -> None:
    email = "Your monthly rent at Flat 3, 41 Tanner Street will rise from £1,150 to £1,207."
    assert verdict("Your rent at 41 Tanner Street goes up from £1,150 to £1,207.", email)[
        0
    ] == SUPPORTED
    bulletin = "Danger level above 2200 m: 3 (considerable)\nWind: strong, from the south"
    assert verdict("The danger is 3, considerable, above 2,200 m.", bulletin)[0] == SUPPORTED
    assert verdict("The index stands at 3.9, up from 4.3.", "Index: 3.9 (was 4.3)")[
        0
    ] == UNSUPPORTED


def test_a_compass_point_written_in_letters_is_its_direction() -> None:
    bulletin = "Main problem: wind slab on N and NE aspects\nWind: strong, from the south"
    assert verdict("The main problem is wind slab on north and north-east aspects.", bulletin)[
        0
    ] == SUPPORTED
    assert verdict("The main problem is wind slab on west aspects.", bulletin)[0] == UNSUPPORTED


def test_names_amounts_and_words_as_agents_write_them() -> None:
    package = "quokka-router@4.2.1 | MIT | deps: 3 | versions: 58"
    assert verdict("quokka-router 4.2.1 is MIT-licensed.", package)[0] == SUPPORTED
    assert verdict("quokka-router 4.2.1 is BSD-licensed.", package)[0] == UNSUPPORTED
    record = "Vaccine       Dose  Date given\nHepatitis B   2     2026-03-05"
    assert verdict("His second Hep B dose was on March 5.", record)[0] == SUPPORTED
    policy = "Personal possessions away from home: not included (add-on £4.20/month)"
    assert verdict("That cover is a £4.20-a-month add-on.", policy)[0] == SUPPORTED
    assert verdict("That cover is a £5.20-a-month add-on.", policy)[0] == UNSUPPORTED


def test_a_line_is_matched_as_the_claim_writes_its_words() -> None:
    email = (
        "Please come to reception at 9:15 am. Bring your passport or BRP.\n"
        "Payroll cut-off for your first salary is 18 September; pay day is the 28th."
    )
    assert verdict("Bring your passport or BRP, and payday is the 28th.", email)[0] == SUPPORTED
    receipt = (
        "Sika Sealant 300ml x2        £13.98\nBrass hinge 75mm x4           £9.60\n"
        "TOTAL                        £23.58"
    )
    assert verdict("Two sealants came to £13.98 and four brass hinges to £9.60.", receipt)[
        0
    ] == SUPPORTED
    # a label's line names the whole output, not one of its rows
    lease = (
        "Lease agreement LA-7734\nEquipment: Varnholt T-140 tractor, serial VT140-22981\n"
        "Payment  Due date     Amount\n1        2026-03-01   EUR 4,850.00\n"
        "2        2026-06-01   EUR 4,850.00"
    )
    assert verdict("The Varnholt T-140 tractor has payments of €4,850 due March 1.", lease)[
        0
    ] == SUPPORTED
    # a ";" inside a quoted CSV field does not cut its line in two
    log = (
        "route,driver,status,notes\n"
        'R3 Hill Villages,Rob Kaye,abandoned,"Spinner fault at Crag Top; vehicle returned 05:20"\n'
        "R4 Town Centre,Ian Platt,complete,"
    )
    assert verdict("Rob Kaye's vehicle was back by 5:20 am.", log)[0] == SUPPORTED


def test_an_answers_no_an_only_and_an_instead_of_are_read_for_what_they_deny() -> None:
    chat = (
        "Customer: Has it been paid?\n"
        "Agent Shona: Not yet, we'll take payment from the card on file once delivered."
    )
    assert verdict("They'll take payment from your card once it's delivered.", chat)[
        0
    ] == SUPPORTED
    assert verdict("They won't take payment from your card.", chat)[0] == CONTRADICTED
    scheme = "The window runs from 1 to 21 March. Applications outside the window can't be accepted."
    assert verdict("Applications are only accepted between 1 and 21 March.", scheme)[
        0
    ] == SUPPORTED
    assert verdict("Applications are accepted outside the window.", scheme)[0] == CONTRADICTED
    faq = "Under-18s can join the 11 am tour. They get a soft drink instead of the tasting."
    assert verdict("They get a soft drink instead of the tasting.", faq)[0] == SUPPORTED


def test_a_cards_expiry_is_a_month_and_year() -> None:
    email = "Your card ending 4417 expires 12/26 - please update it before renewal."
    assert verdict("Your card ending 4417 expires in December 2026.", email)[0] == SUPPORTED
    assert verdict("Your card ending 4417 expires in December 2027.", email)[0] == UNSUPPORTED


def test_a_state_given_to_the_table_row_named_just_before_it() -> None:
    order = (
        "line,product,colour,finish,size,qty\n"
        "1,Dulvane Trade Durable,Sage Whisper,matt,5L,2\n"
        "2,Dulvane Trade Durable,Chalk White,eggshell,2.5L,1"
    )
    tins = "Two 5L tins in Sage Whisper with a {} finish and one 2.5L tin in Chalk White, eggshell."
    assert verdict(tins.format("matt"), order)[0] == SUPPORTED
    found, why = verdict(tins.format("satin"), order)
    assert found == UNSUPPORTED
    assert why.startswith("state 'satin' is the other state: the evidence says 'matt'")


# -- the fourteenth rules (rules-v14): how outputs write a state, a field and a row -----------


def test_a_not_until_says_when_and_out_of_says_not() -> None:
    loans = "The Salt Path Atlas / Ines Barragan     Due: 2026-05-06   Renewals left: 2"
    assert verdict("The Salt Path Atlas isn't due until May 6.", loans)[0] == SUPPORTED
    assert verdict("The Salt Path Atlas isn't due until May 16.", loans)[0] == UNSUPPORTED
    stock = (
        "Cedar Heights #412   In stock: 7   Aisle 22, Bay 9\n"
        "Riverbend #388       Out of stock   Next delivery 2026-05-20"
    )
    assert verdict("Riverbend has none in stock.", stock)[0] == SUPPORTED
    status = "Rx 884390  Omeprazole 20 mg capsules\n  Status:  OUT OF STOCK - delivery 2024-11-07"
    assert verdict("The omeprazole is out of stock for now.", status)[0] == SUPPORTED


def test_amounts_months_and_names_as_outputs_write_them() -> None:
    notice = "Project: Garage extension, Lindgatan 7\nPermit fee: SEK 14 250 (invoice sent by post)"
    assert verdict("The permit fee is 14,250 kronor.", notice)[0] == SUPPORTED
    assert verdict("The permit fee is 14,520 kronor.", notice)[0] == UNSUPPORTED
    rates = (
        "Check-in 2026-04-17 / Check-out 2026-04-20 (3 nights)\n"
        "Room                  Rate/night   Breakfast   Cancellation\n"
        "Superior Patio        EUR 146      incl.       free until 04-15"
    )
    assert verdict("The Superior Patio has free cancellation until April 15.", rates)[
        0
    ] == SUPPORTED
    assert verdict("The Superior Patio has free cancellation until April 16.", rates)[
        0
    ] == UNSUPPORTED
    amenities = '{"flight": "NZ 288", "wifi": {"available": true, "free_messaging": true}}'
    assert verdict("NZ 288 has Wi-Fi with free messaging.", amenities)[0] == SUPPORTED


def test_a_header_with_ranges_in_brackets_is_no_row() -> None:
    passes = (
        "Resort: Torvik Fjellpark\nSeason: 2026/27\n"
        "Pass type        Adult   Youth (7-15)   Senior (67+)\n"
        "1-day            NOK 595  NOK 455       NOK 475\n"
        "3-day            NOK 1590 NOK 1215      NOK 1270"
    )
    pass_ = "At Torvik Fjellpark an adult 1-day pass costs NOK {}, and a 3-day pass NOK 1,590."
    assert verdict(pass_.format("595"), passes)[0] == SUPPORTED
    assert verdict(pass_.format("559"), passes)[0] == UNSUPPORTED


def test_a_field_read_as_the_claim_says_it() -> None:
    # "can be returned" states "Returnable"; a value's bracketed reason ends it
    item = "Returnable: No - final sale\nExchange for different size: Yes, within 14 days"
    assert verdict("It can be returned.", item)[0] == CONTRADICTED
    assert verdict("It can't be returned.", item)[0] == SUPPORTED
    shed = "Building permit required: No (under 10 m\u00b2 exemption)\nZone: R-2 residential"
    assert verdict("The shed does need a building permit.", shed)[0] == CONTRADICTED
    # "disabled" says "enabled" is false, "defrosting" states "defrost_active"
    flag = "flag: checkout.new_address_form\nenabled: true\nrollout: 25% of users"
    assert verdict("The flag is disabled for 25% of users.", flag)[0] == CONTRADICTED
    pump = '{"mode": "heating", "dhw_boost": false, "defrost_active": true}'
    assert verdict("It isn't defrosting right now.", pump)[0] == CONTRADICTED
    assert verdict("It is defrosting right now.", pump)[0] == SUPPORTED
    # a field's word another line also writes may be that line's
    flags = "key: checkout.one_tap_pay\nenabled:      false\nstaging:      enabled, 100%"
    assert verdict("In staging it's still enabled for 100% of traffic.", flags)[0] == SUPPORTED


def test_a_row_named_by_its_label_and_a_state_a_comma_apart() -> None:
    plan = (
        "Benefit                 Covered   Limit              Copay\n"
        "Physiotherapy           Yes       12 sessions/year   $25\n"
        "Acupuncture             No        -                  -"
    )
    assert verdict("Acupuncture is covered.", plan)[0] == UNSUPPORTED
    assert verdict("Physiotherapy is covered for 12 sessions a year.", plan)[0] == SUPPORTED
    order = (
        "Eggshell Interior 2.5L - colour 'Sea Holly' (muted green)  2    GBP 59.00 each\n"
        "Multi-surface Primer 1L - white                     1    GBP 18.50"
    )
    tins = "Two tins of eggshell in Sea Holly, a muted {}, and a litre of white primer."
    assert verdict(tins.format("green"), order)[0] == SUPPORTED
    assert verdict(tins.format("blue"), order)[0] == UNSUPPORTED
    quote = (
        '{\n  "supplier": "Atlantica Rent",\n  "car_class": "Compact SUV",\n'
        '  "example_model": "Peugeot 2008",\n  "transmission": "automatic",\n'
        '  "mileage": "unlimited"\n}'
    )
    car = "Atlantica Rent has a compact SUV like a Peugeot 2008 with a {} gearbox."
    assert verdict(car.format("automatic"), quote)[0] == SUPPORTED
    assert verdict(car.format("manual"), quote)[0] == UNSUPPORTED


def test_compass_bearings_winds_and_plurals_are_read_as_their_sets() -> None:
    path = "Diversion: follow Shepherd's Track north-east from the sheepfold"
    assert verdict("Follow Shepherd's Track north-east from the sheepfold.", path)[
        0
    ] == SUPPORTED
    assert verdict("Follow Shepherd's Track south-west from the sheepfold.", path)[
        0
    ] == UNSUPPORTED
    forecast = "Today: Wind northwesterly 12\u201318 kt, gusts 24 kt.\nSea state: moderate."
    wind = "Today expect {} winds of 12 to 18 knots gusting to 24."
    assert verdict(wind.format("northwesterly"), forecast)[0] == SUPPORTED
    assert verdict(wind.format("northeasterly"), forecast)[0] == UNSUPPORTED
    refill = (
        "Patient: D. Castellanos\nMedication: Levothyroxine 75 mcg tablet\n"
        "Quantity: 90   Refills remaining: 2\nStatus: Ready for pickup at Greenway\n"
        "Copay: $4.00"
    )
    assert verdict("Your levothyroxine tablets (90) are ready.", refill)[0] == SUPPORTED
    assert verdict("Your levothyroxine capsules (90) are ready.", refill)[0] == UNSUPPORTED


# -- the fifteenth rules (rules-v15) --------------------------------------------------------


def test_a_time_to_the_second_abbreviations_and_an_excluded_item() -> None:
    results = "bib,name,category,chip_time\n4478,Kwame Mensah,M40,2:58:31\n4471,Tomasz Wrona,M40,3:12:48"
    assert verdict("Kwame Mensah ran 2:58:31.", results)[0] == SUPPORTED
    assert verdict("Kwame Mensah ran 2:58:13.", results)[0] == UNSUPPORTED
    quote = "Vehicle: Dacia Duster 4x4\nTotal: ISK 142,800 (incl. CDW, excl. gravel protection)"
    assert verdict("The price includes CDW but not gravel protection.", quote)[0] == SUPPORTED


def test_states_of_a_run_and_fields_said_on_or_off_or_to_be_done() -> None:
    run = (
        "$ go test ./...\n"
        "ok   github.com/lumen/ledger/internal/accounts  0.412s\n"
        "ok   github.com/lumen/ledger/internal/fx        1.208s\n"
        "FAIL github.com/lumen/ledger/internal/settle    0.317s"
    )
    assert verdict("In the go test run, internal/fx passed in 1.208s.", run)[0] == SUPPORTED
    assert verdict("In the go test run, internal/fx failed in 1.208s.", run)[0] == UNSUPPORTED
    security = (
        "Two-factor authentication: Enabled (authenticator app)\nActive sessions: 3\n"
        "Login alerts: Off"
    )
    assert verdict("Login alerts are switched off.", security)[0] == SUPPORTED
    assert verdict("Login alerts are switched on.", security)[0] == CONTRADICTED
    result = "Module: STAT1020 Probability\nOverall: 63 \u2014 Pass\nResit required: No"
    assert verdict("She doesn't need to resit.", result)[0] == SUPPORTED
    assert verdict("She needs to resit.", result)[0] == CONTRADICTED


def test_a_state_said_before_a_word_the_output_qualifies_with_the_other() -> None:
    job = (
        "Job card #5521\nWork done: replaced chain (KMC X11), new rear brake pads (organic), "
        "trued rear wheel\nStatus: Ready for collection"
    )
    assert verdict("They fitted rear brake pads and trued the rear wheel.", job)[0] == SUPPORTED
    found = verdict("They fitted rear brake pads and trued the front wheel.", job)
    assert found[0] == UNSUPPORTED and "'rear wheel'" in found[1]
    forecast = "Inshore waters forecast\nWind: northwest 4 or 5, backing west later"
    assert verdict("Expect a northwest wind of force 4 or 5.", forecast)[0] == SUPPORTED
    assert verdict("Expect a northeast wind of force 4 or 5.", forecast)[0] == UNSUPPORTED
    # the claim's word is written with the head elsewhere: said of it, however written
    lawn = "Early spring: spring feed + moss control\nSummer (w/c 7 Jul): feed, skip if hosepipe ban"
    assert verdict("The summer feed is in the week of 7 July.", lawn)[0] == SUPPORTED


def test_a_negation_after_a_state_leaves_the_state_read() -> None:
    bins = (
        '{"address": "17 Heron Walk",\n "collections": [\n'
        '  {"type": "Recycling", "bin": "blue", "next": "2026-04-21"}\n ]\n}'
    )
    assert verdict("The blue recycling bin isn't due until April 21.", bins)[0] == SUPPORTED
    found = verdict("The green recycling bin isn't due until April 21.", bins)
    assert found[0] == UNSUPPORTED and "'blue'" in found[1]


def test_a_line_about_the_other_of_a_pair_gives_no_state() -> None:
    advisory = (
        "TRAFFIC ADVISORY\nRoute: SR-17 northbound between Exit 12 (Pine Hollow) and Exit 15 "
        "(Millbrook)\nClosure: full, both lanes\nWhen: nightly 21:00\u201305:00\n"
        "Detour: via County Road 9\nSouthbound lanes: open"
    )
    claim = "SR-17 northbound will be fully closed between Exit 12 (Pine Hollow) and Exit 15."
    assert verdict(claim, advisory)[0] == SUPPORTED
    notice = (
        "Road: A598 Fenwick Lane, between Mill Roundabout and Cotter's Bridge\n"
        "Works: Resurfacing\nClosure: 2026-06-08 to 2026-06-19, 20:00-06:00 nightly\n"
        "Daytime: road open, two-way traffic"
    )
    claim = "The A598 Fenwick Lane will be closed for resurfacing every night from 8 pm to 6 am."
    assert verdict(claim, notice)[0] == SUPPORTED


def test_names_written_short_as_codes_and_with_versions() -> None:
    listing = '{"model": "ThinkPad T14", "ships_from": "Reno, NV", "in_stock": 7}'
    assert verdict("It ships from Reno, Nevada.", listing)[0] == SUPPORTED
    assert verdict("It ships from Reno, Oregon.", listing)[0] == UNSUPPORTED
    matrix = "py3.11 / ubuntu-22.04   passed   4m12s\npy3.12 / ubuntu-22.04   failed   2m41s"
    assert verdict("The Python 3.12 job on Ubuntu failed.", matrix)[0] == SUPPORTED
    assert verdict("The Python 3.13 job on Ubuntu failed.", matrix)[0] == UNSUPPORTED


def test_a_people_and_a_phrase_written_by_their_initials() -> None:
    entry = "Nationality: Canada\nDestination: Japan\nPurpose of travel: tourism\nVisa required: No"
    assert verdict("As a Canadian tourist you don't need a visa for Japan.", entry)[0] == SUPPORTED
    assert verdict("As a Mexican tourist you don't need a visa for Japan.", entry)[0] == UNSUPPORTED
    dates = "NordicML 2027\nAbstract registration: March 4, 2027 (AoE)"
    claim = "Register your abstract by March 4 (anywhere on Earth)."
    assert verdict(claim, dates)[0] == SUPPORTED


def test_more_closed_sets_compass_points_to_a_sixteenth_and_how_often() -> None:
    recovery = (
        "Ring: L40732    Species: Blackcap\nRinged: 2026-09-18, Dungeness, Kent\n"
        "Found: 2027-02-02, near M\u00e1laga, Spain\nDistance: 1,842 km    Direction: SSW"
    )
    claim = "It was found near M\u00e1laga on February 2, 1,842 km to the south-south-{}."
    assert verdict(claim.format("west"), recovery)[0] == SUPPORTED
    assert verdict(claim.format("east"), recovery)[0] == UNSUPPORTED
    tariff = "Unit rate: 27.4p/kWh\nPayment method: Monthly Direct Debit (unchanged)"
    assert verdict("You still pay by monthly direct debit.", tariff)[0] == SUPPORTED
    assert verdict("You still pay by quarterly direct debit.", tariff)[0] == UNSUPPORTED
    quote = "Origin: Ningbo, CN\nMode: Sea freight, LCL (consolidated)\nCargo: 6 pallets"
    assert verdict("The 6 pallets go as LCL sea freight.", quote)[0] == SUPPORTED
    assert verdict("The 6 pallets go as LCL air freight.", quote)[0] == UNSUPPORTED
    parcel = "Status: Delivered\nLeft at: front porch\nSigned by: not required"
    assert verdict("It was left on the back porch.", parcel)[0] == UNSUPPORTED


def test_polarity_is_read_against_the_clauses_stating_most_of_it() -> None:
    limits = (
        "Rate limits \u2014 Orbitly Public API v2\n- Free tier: 60 requests/min, burst 10\n"
        "- Webhooks are not rate-limited.\n- Limits apply per API key, not per IP address."
    )
    assert verdict("Webhooks aren't rate-limited.", limits)[0] == SUPPORTED
    assert verdict("Going over returns a 429, while webhooks are rate-limited.", limits)[0] == (
        CONTRADICTED
    )


def test_a_row_named_in_its_own_clause_and_a_heading_is_no_row() -> None:
    prices = (
        "Product: Brevana Duo 2 espresso machine\n"
        "Retailer        Price     Stock        Delivery\n"
        "KitchenCo       \u00a3349.00   In stock     2 days\n"
        "HomeHub         \u00a3329.99   Low stock    4 days\n"
        "BaristaDirect   \u00a3365.00   In stock     next day"
    )
    claim = (
        "If you want it fast, BaristaDirect delivers next day at \u00a3365, while KitchenCo has "
        "it in stock for \u00a3349 with 2-day delivery."
    )
    assert verdict(claim, prices)[0] == SUPPORTED
    changelog = (
        "## v2.7.0 - 2026-02-18\n### Fixed\n- Crash on empty config file (#1182)\n"
        "## v2.6.3 - 2026-01-29\n### Security\n- Bumped yaml-parse to 4.2.1 (CVE-2025-31904)"
    )
    claim = "The yaml-parse bump to 4.2.1 for CVE-2025-31904 landed in v2.6.3 on January 29."
    assert verdict(claim, changelog)[0] == SUPPORTED


def test_two_things_said_a_comma_apart_and_a_fee_of_nought() -> None:
    stores = (
        "Store availability:\n  Leeds White Rose    - 4 in stock, click & collect today\n"
        "  Bradford Forster Sq - Out of stock\n"
        "  Wakefield Trinity   - 1 in stock, click & collect not available"
    )
    claim = (
        "Leeds White Rose has 4 for same-day click & collect, Bradford Forster Square is out "
        "of stock, and Wakefield Trinity has one."
    )
    assert verdict(claim, stores)[0] == SUPPORTED
    account = (
        "Early upgrade: not eligible until 2027-08-10\nUpgrade fee if eligible: GBP 0\n"
        "SIM lock: unlocked"
    )
    claim = "Once you're eligible there's no upgrade fee."
    assert verdict(claim, account)[0] == SUPPORTED


def test_a_name_cut_short_before_its_version_without_dots() -> None:
    pipeline = (
        "JOB                  STAGE    STATUS    DURATION\n"
        "unit-tests-py311     test     passed    6:12\n"
        "integration-pg15     test     passed    11:04"
    )
    claim = "The Python 3.11 unit tests and the Postgres 15 integration job passed."
    assert verdict(claim, pipeline)[0] == SUPPORTED
    assert verdict("The Perl 15 integration job passed.", pipeline)[0] == UNSUPPORTED


def test_closed_sets_of_contracts_readings_materials_and_completeness() -> None:
    posting = "Title: Senior Data Engineer\nEmployment type: Full-time, permanent"
    assert verdict("It's a full-time permanent position.", posting)[0] == SUPPORTED
    assert verdict("It's a full-time fixed-term position.", posting)[0] == UNSUPPORTED
    bill = "Usage: 38 m\u00b3\nAmount due: GBP 127.64\nMeter reading type: actual"
    assert verdict("The bill of \u00a3127.64 is based on an actual meter reading.", bill)[0] == (
        SUPPORTED
    )
    assert verdict("The bill of \u00a3127.64 is based on an estimated meter reading.", bill)[0] == (
        UNSUPPORTED
    )
    recall = "Hazard: the carbon fork steerer can crack under load.\nRemedy: stop riding."
    assert verdict("The aluminium fork steerer can crack under load.", recall)[0] == UNSUPPORTED
    certificate = (
        "Valid until: 2026-05-15 06:11 UTC\nChain: complete\nOCSP stapling: not enabled\n"
        "HSTS: enabled (max-age=31536000)"
    )
    assert verdict("The chain is complete and HSTS is on.", certificate)[0] == SUPPORTED
    assert verdict("The chain is incomplete and HSTS is on.", certificate)[0] == UNSUPPORTED


def test_an_outputs_own_status_line_a_transfer_and_a_condition() -> None:
    firewall = (
        "$ sudo ufw status\nStatus: active\n\nTo                         Action      From\n"
        "22/tcp                     ALLOW       10.20.0.0/16\n"
        "443/tcp                    ALLOW       Anywhere"
    )
    assert verdict("The firewall is active.", firewall)[0] == SUPPORTED
    assert verdict("The firewall is inactive.", firewall)[0] == UNSUPPORTED
    claim = (
        "Claim ID: HC-2026-118493\nDecision: approved\n"
        "Settlement: GBP 3,210.00 by bank transfer\nExcess applied: GBP 250.00"
    )
    said = "It was approved, and you'll receive \u00a33,210.00 by {}, with a \u00a3250.00 excess."
    assert verdict(said.format("bank transfer"), claim)[0] == SUPPORTED
    assert verdict(said.format("cheque"), claim)[0] == UNSUPPORTED
    locker = (
        "Pickup code: 4471\nCollect by: 2026-12-05 20:00\n"
        "Parcel will be returned to sender if not collected."
    )
    claim = "Collect it by 8 pm on December 5, or it will be returned to the sender."
    assert verdict(claim, locker)[0] == SUPPORTED


def test_names_written_as_initials_short_forms_and_currency_prefixes() -> None:
    audit = "axios  1.0.0 - 1.6.0\nSeverity: high\nCross-Site Request Forgery - GHSA-3hw8-pq6c-r2mj"
    assert verdict("axios has a high-severity CSRF issue.", audit)[0] == SUPPORTED
    assert verdict("axios has a high-severity SSRF issue.", audit)[0] == UNSUPPORTED
    report = "Mathematics: 7 (Paper 1: 68/80)\nChemistry: 8\nHistory: 5"
    assert verdict("She got a 7 in Maths and an 8 in Chemistry.", report)[0] == SUPPORTED
    assert verdict("She got a 7 in Physics and an 8 in Chemistry.", report)[0] == UNSUPPORTED
    # a short form and its word both end in "s": "Chris" is no short form of Christopher
    assert verdict("The director was Chris.", "Director: Christopher Wren\nYear: 2004")[0] == (
        UNSUPPORTED
    )
    invoice = "Clinic: Maple Row Veterinary\nTotal due: 265.50 CAD\nStatus: UNPAID"
    assert verdict("The visit to Maple Row came to CA$265.50.", invoice)[0] == SUPPORTED
    pull = "Bump pydantic from 2.7.4 to 2.9.2\n#1182 opened by dependabot[bot]"
    assert verdict("Dependabot's PR #1182 bumps pydantic to 2.9.2.", pull)[0] == SUPPORTED
    dig = "orrisfield.net.        300   IN  A    203.0.113.48"
    assert verdict("The A record points to 203.0.113.48 with a 300-second TTL.", dig)[0] == (
        SUPPORTED
    )


def test_a_negation_is_read_in_its_own_piece_of_a_clause_or_line() -> None:
    invoice = (
        "INVOICE INV-3308 - Hollins Joinery\nBilled to: Mr P. Sandoval\n"
        "Amount: \u00a31,460.00 (no VAT)\nStatus: PAID 2026-05-04\n"
        "Payment method: Bank transfer (ref SANDOVAL-3308)\nWork: oak handrail, fitted"
    )
    said = "The invoice for the oak handrail, \u00a31,460 with no VAT, was paid by {} on May 4."
    assert verdict(said.format("bank transfer"), invoice)[0] == SUPPORTED
    assert verdict(said.format("card"), invoice)[0] == UNSUPPORTED
    permit = "Decision: APPROVED with conditions\nConditions: no kites above 60 m; drones prohibited"
    assert verdict("Drones are allowed at the festival.", permit)[0] == CONTRADICTED
    assert verdict("Drones are prohibited at the festival.", permit)[0] == SUPPORTED
    freeze = (
        "Freeze length: 2 months\nLocker rental: Active (L-114), \u00a36/month, continues during "
        "freeze\nClass bookings during freeze: Not permitted"
    )
    said = "His locker L-114 keeps running at \u00a36 a month, and class bookings are {} while he's frozen."
    assert verdict(said.format("allowed"), freeze)[0] == UNSUPPORTED
    assert verdict(said.format("not allowed"), freeze)[0] == SUPPORTED
    cover = "Mold remediation: Not covered (excluded under section 4.2)"
    assert verdict("Mold remediation is excluded under section 4.2.", cover)[0] == SUPPORTED


def test_a_field_said_with_un_or_denied_by_its_own_value() -> None:
    listing = "Rent: \u20ac1,150/month\nFurnished: Yes\nPets: Not allowed\nLift: Yes"
    assert verdict("It's furnished and has a lift.", listing)[0] == SUPPORTED
    assert verdict("It's unfurnished and has a lift.", listing)[0] == CONTRADICTED
    cottage = "Sleeps: 4 (2 bedrooms)\nWi-Fi: yes, included\nWord processor: yes (spellcheck off)"
    assert verdict("Wi-Fi is included.", cottage)[0] == SUPPORTED
    assert verdict("Wi-Fi isn't included.", cottage)[0] == CONTRADICTED


def test_closed_sets_of_storage_places_allergens_backups_finishes_leave_and_steps() -> None:
    cases = (
        ("Sample: serum, 2 ml, chilled\nLab: Norvet Diagnostics",
         "The {} serum sample went to Norvet Diagnostics.", "chilled", "frozen"),
        ('{\n  "status": "DELIVERED",\n  "proof": {\n    "method": "safe_place",\n'
         '    "location": "porch",\n    "photo": true\n  }\n}',
         "It was left in your safe place, the {}, with a photo.", "porch", "garage"),
        ("Guests: 4\nDietary notes: 1 vegan, 1 nut allergy",
         "They've noted one vegan diner and one {} allergy.", "nut", "shellfish"),
        ("01:00:02 INFO backup start: stanza=orbit-main type=incremental repo=s3://pg",
         "The orbit-main backup was an {} one.", "incremental", "differential"),
        ("Material: Quartz, 'Calacatta Nuvo', 20 mm, polished\nPieces: 3",
         "Three pieces of 20 mm {} Calacatta Nuvo quartz.", "polished", "honed"),
        ("Employee: Jonas Marwick\nType: Compassionate leave\nStatus: Approved\nPay: full pay",
         "Jonas Marwick's {} leave was approved on full pay.", "compassionate", "parental"),
        ("\u2716 e2e-tests  11m03s  2 failed\n\u23f8 deploy-staging  skipped",
         "The e2e stage failed, and the staging deploy {}.", "was skipped", "went ahead"),
    )
    for evidence, said, right, wrong in cases:
        assert verdict(said.format(right), evidence)[0] == SUPPORTED, right
        assert verdict(said.format(wrong), evidence)[0] == UNSUPPORTED, wrong


def test_a_value_given_in_another_unit_of_its_kind() -> None:
    panel = (
        "Test            Result   Units    Reference range\nHaemoglobin     128      g/L      120-160\n"
        "Ferritin        11       \u00b5g/L     15-150"
    )
    assert verdict("Haemoglobin is 128 g/L and ferritin 11 \u00b5g/L.", panel)[0] == SUPPORTED
    found = verdict("Haemoglobin is 128 g/dL and ferritin 11 \u00b5g/L.", panel)
    assert found[0] == UNSUPPORTED
    assert "unit 'g/dL' of '128'" in found[1]
    bake = "Product           Batches  Flour/batch\nCountry sourdough  6      2.5 kg"
    assert verdict("The sourdough takes 2.5 lb of flour a batch.", bake)[0] == UNSUPPORTED


def test_list_items_hyphened_words_and_names_joined_into_one_word_are_read_as_written() -> None:
    run = (
        "Run #3317 \u00b7 workflow: build-and-test\n\u2713 lint (41s)\n"
        "\u2713 unit-tests (3m 12s) \u2014 842 passed, 0 failed\n"
        "\u2717 integration-tests (6m 05s) \u2014 57 passed, 2 failed\n- deploy-preview (skipped)"
    )
    assert verdict("Lint and all 842 unit tests passed.", run)[0] == SUPPORTED
    search = (
        'Results for "noise cancelling headphones" (3 of 48)\n'
        "1. Sonvara QuietTrek 700 | $229.99 | 4.6 stars (3,812 reviews) | battery 38 h\n"
        "2. Audiolux Pace ANC | $149.00 | 4.3 stars (1,204 reviews) | battery 30 h"
    )
    said = "The Sonvara QuietTrek 700 costs {}, is rated 4.6 stars and gets 38 hours of battery."
    assert verdict(said.format("$229.99"), search)[0] == SUPPORTED
    assert verdict(said.format("$149.00"), search)[0] == UNSUPPORTED
    regions = (
        "NAME              RESOURCE GROUP    LOCATION\n"
        "paymentsapi-app   rg-payments-prod  westeurope\npaymentsdb-sql    rg-payments-prod  northeurope"
    )
    assert verdict("paymentsapi-app is in West Europe.", regions)[0] == SUPPORTED
    assert verdict("paymentsapi-app is in East Asia.", regions)[0] == UNSUPPORTED


def test_names_as_codes_accents_and_titles() -> None:
    draw = "QF1 10:00 Ct1  [1] Ewan Strachan (SCO) v Rafael Quintero (ESP)\nQF2 11:15 Ct2  Tom Reid"
    assert verdict("Ewan Strachan plays Spain's Rafael Quintero at 10 am.", draw)[0] == SUPPORTED
    assert verdict("Ewan Strachan plays Italy's Rafael Quintero at 10 am.", draw)[0] == UNSUPPORTED
    record = "Immunisation record \u2014 Luc\u00eda Ferrer (DOB 2019-05-07)\nMMR  2/2  2023-06-12"
    assert verdict("Luc\u00eda's MMR course is complete.", record)[0] == SUPPORTED
    loans = (
        "Borrower: 2209 4471 1180\nTITLE                              | DUE        | RENEWALS LEFT\n"
        "The Salt Roads                     | 2026-02-11 | 2\n"
        "Field Guide to Lichens             | 2026-02-03 | 0\n"
        "March of the Quiet Engines (DVD)   | 2026-01-30 | 1"
    )
    said = "Your DVD of March of the Quiet Engines is due back on January 30."
    assert verdict(said, loans)[0] == SUPPORTED
    audit = "sanitize-markup  <2.4.1\nSeverity: high\nCross-site scripting via unescaped attributes"
    assert verdict("sanitize-markup has a high-severity XSS issue.", audit)[0] == SUPPORTED


def test_a_count_of_nought_or_a_refusal_is_no_polarity_flip() -> None:
    gradle = "Tests: 1842 passed, 0 failed, 17 skipped\n\nBUILD SUCCESSFUL in 4m 12s"
    assert verdict("1,842 tests passed, none failed and 17 were skipped.", gradle)[0] == SUPPORTED
    dock = (
        "[2026-05-11 06:42] DOCK-4 RECEIVED PO-77120 supplier=Veltmann pallets=14 damaged=0\n"
        "[2026-05-11 07:58] DOCK-4 RECEIVED PO-77134 supplier=Orsola pallets=6 damaged=2"
    )
    assert verdict("Veltmann's 14 pallets came in with no damage.", dock)[0] == SUPPORTED
    lock = (
        '[2026-08-09 08:05] LOCK 14 narrowboat "Otter\'s Rest" downhill  crew 2  water 64 m3\n'
        '[2026-08-09 08:31] LOCK 14 widebeam "Marigold" uphill  crew 4  water 112 m3  NOTE: '
        "paired passage refused, beam 3.4 m"
    )
    said = "The widebeam Marigold went uphill at 8:31 am, and it wasn't allowed a paired passage."
    assert verdict(said, lock)[0] == SUPPORTED


def test_closed_sets_of_levels_cover_milk_weather_and_grades() -> None:
    cases = (
        ('{"class": "Kettlebell Conditioning", "level": "intermediate", "spots_left": 4}',
         "Kettlebell Conditioning is an {} class.", "intermediate", "advanced"),
        ("Policy: HM-558210\nProduct: Home contents insurance\nCover limit: \u00a345,000\n"
         "Excess: \u00a3250\nRenewal: 2026-12-01",
         "Your policy is {} cover up to \u00a345,000.", "contents", "buildings"),
        ("Glenvorr lifts: 3 of 9 open\nClosed: Summit chair (wind)\nReopening: tomorrow",
         "The Summit chair is closed because of {}.", "wind", "fog"),
        ("Student: A. Siddiqui\nTerm 2 effort: good\nAttendance: 97%",
         "A. Siddiqui's effort this term was {}.", "good", "excellent"),
    )
    for evidence, said, right, wrong in cases:
        assert verdict(said.format(right), evidence)[0] == SUPPORTED, right
        assert verdict(said.format(wrong), evidence)[0] == UNSUPPORTED, wrong


def test_fields_after_a_middle_dot_in_json_objects_and_beside_another_negation() -> None:
    thermostat = "Thermostat: Hallway\nMode: Heat \u00b7 Eco mode: Off \u00b7 Away detection: On"
    assert verdict("Eco mode is off and away detection is on.", thermostat)[0] == SUPPORTED
    assert verdict("Eco mode is on and away detection is on.", thermostat)[0] == CONTRADICTED
    flags = (
        '{"environment":"production","flags":[{"key":"new_checkout_flow","enabled":true},'
        '{"key":"dark_mode_beta","enabled":false}]}'
    )
    assert verdict("new_checkout_flow is enabled, while dark_mode_beta is off.", flags)[0] == (
        SUPPORTED
    )
    assert verdict("dark_mode_beta is switched on.", flags)[0] == CONTRADICTED
    pull = "PR #1847\nReviews: 2 approved\nMergeable: yes (no conflicts)\nDraft: no"
    said = "It's {} a draft and has no conflicts with main."
    assert verdict(said.format("not"), pull)[0] == SUPPORTED
    assert verdict(said.format("still"), pull)[0] == CONTRADICTED


def test_a_duration_given_in_another_unit_of_time() -> None:
    ps = "CONTAINER ID   IMAGE            STATUS        PORTS\n4c7b02e1f955   nginx:1.27   Up 2 hours   443/tcp"
    assert verdict("The nginx proxy on port 443 has been up for 2 hours.", ps)[0] == SUPPORTED
    assert verdict("The nginx proxy on port 443 has been up for 2 days.", ps)[0] == UNSUPPORTED


def test_a_cron_schedule_is_read_as_its_times_and_weekdays() -> None:
    workflow = (
        "name: nightly-integration\non:\n  schedule:\n"
        "    - cron: \"30 2 * * 1-5\"   # 02:30 UTC, Mon-Fri\n"
        "jobs:\n  integration:\n    runs-on: ubuntu-24.04\n    timeout-minutes: 90\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: make test-integration"
    )
    said = "The nightly-integration workflow runs at {} on ubuntu-24.04."
    assert verdict(said.format("2:30 am Monday to Friday"), workflow)[0] == SUPPORTED
    assert verdict(said.format("2:30 am on Saturdays"), workflow)[0] == UNSUPPORTED
    assert verdict(said.format("3:30 am Monday to Friday"), workflow)[0] == UNSUPPORTED
    crontab = (
        "$ crontab -l -u backup\n15   1  *   *   *    /opt/bk/run.sh --mode incremental\n"
        "30   3  *   *   0    /opt/bk/run.sh --mode full"
    )
    said = "It runs an incremental backup every day at 1:15 am and a full backup every {} at 3:30 am."
    assert verdict(said.format("Sunday"), crontab)[0] == SUPPORTED
    assert verdict(said.format("Saturday"), crontab)[0] == UNSUPPORTED
    # five numbers in a row, none of them "*", are no schedule
    assert verdict("It runs every Sunday.", "scores (* best): 30 3 12 11 0")[0] == UNSUPPORTED


def test_weekdays_a_timetable_writes_in_two_letters() -> None:
    courses = (
        "COURSE    TITLE                         DAYS   TIME         OPEN/CAP\n"
        "HIST 231  Medieval Mediterranean Trade  Tu/Th  10:00-11:15  3/40\n"
        "HIST 245  Empires of the Steppe         M/W    14:00-15:15  0/35"
    )
    said = "HIST 231 still has 3 of 40 seats open; it meets {} from 10:00."
    assert verdict(said.format("Tuesdays and Thursdays"), courses)[0] == SUPPORTED
    assert verdict(said.format("Fridays"), courses)[0] == UNSUPPORTED


def test_a_table_row_written_with_bars_is_one_row() -> None:
    loans = (
        "Loan ID | Object | Borrower | Out | Return due | Insurance (GBP)\n"
        "LN-2026-014 | 'Harbour at Dusk', oil, E. Varga 1911 | Kelvingrove Art Gallery | "
        "2026-02-10 | 2026-08-30 | 450,000\n"
        "LN-2026-016 | Map of the Severn, 1688 | Bristol Archives | 2026-04-22 | 2026-06-15 | 38,000"
    )
    said = "E. Varga's 'Harbour at Dusk' is with Kelvingrove Art Gallery until August 30, insured for £{}."
    assert verdict(said.format("450,000"), loans)[0] == SUPPORTED
    found, why = verdict(said.format("38,000"), loans)
    assert found == HINTED and "another line" in why


def test_a_line_the_clause_names_by_two_of_its_words() -> None:
    pytest_run = (
        "platform linux -- Python 3.12.4, pytest-8.2.1\ncollected 412 items\n"
        "tests/api/ ........................ [ 38%]\ntests/cli/ ......s.............   [100%]\n"
        "====== 411 passed, 1 skipped in 48.73s ======"
    )
    said = "{} of the 412 collected tests passed and 1 was skipped, in 48.73 seconds."
    assert verdict(said.format(411), pytest_run)[0] == SUPPORTED
    assert verdict(said.format(409), pytest_run)[0] == UNSUPPORTED


def test_polarity_is_not_read_against_a_waiver_a_condition_or_a_contrast() -> None:
    ticket = "Parts: flow switch (ordered, arriving 2 Nov)\nCall-out fee: waived (under warranty)"
    assert verdict("There's no call-out fee because it's under warranty.", ticket)[0] == SUPPORTED
    notice = "Please bring photo ID. Items not collected within 14 days will be returned."
    assert verdict("Collect within 14 days or they'll be returned.", notice)[0] == SUPPORTED
    gallery = (
        "- Admission: free; special exhibitions £12\n"
        "- Photography: allowed without flash in permanent collection; not allowed in special "
        "exhibitions"
    )
    claim = "You can take photos without flash in the permanent collection but not in the special exhibitions."
    assert verdict(claim, gallery)[0] == SUPPORTED
    # a waiver the claim denies is still read: "not exempt" against "exempt"
    bridge = "Weight limit 7.5 t from 3 March. Buses and emergency vehicles are exempt."
    assert verdict("Buses and emergency vehicles are not exempt.", bridge)[0] == CONTRADICTED


def test_weekdays_a_timetable_writes_by_their_codes() -> None:
    sections = (
        "Section  Days   Time         Room       Instructor     Cap  Enrolled  Waitlist\n"
        "001      MWF    09:00-09:50  HUM 110    Dr. Ferrand    60   60        7\n"
        "002      TR     11:00-12:15  HUM 204    Dr. Ferrand    45   38        0"
    )
    said = "Section 002 meets on {} from 11:00 am to 12:15 pm in HUM 204."
    assert verdict(said.format("Tuesdays and Thursdays"), sections)[0] == SUPPORTED
    assert verdict(said.format("Saturdays"), sections)[0] == UNSUPPORTED
    assert verdict("Section 001 meets on Wednesdays at 9 am.", sections)[0] == SUPPORTED


def test_a_calendar_invites_date_and_times() -> None:
    invite = (
        "BEGIN:VEVENT\nSUMMARY:Quarterly board review\nDTSTART:20261112T150000Z\n"
        "DTEND:20261112T163000Z\nLOCATION:Room 4.12, Aldgate House\nEND:VEVENT"
    )
    said = "The quarterly board review is on {} from 3:00 to 4:30 pm UTC in Room 4.12."
    assert verdict(said.format("November 12"), invite)[0] == SUPPORTED
    assert verdict(said.format("November 21"), invite)[0] == UNSUPPORTED
    assert verdict("The review starts at 5 pm UTC on November 12.", invite)[0] == UNSUPPORTED


def test_states_of_two_things_said_a_comma_apart_and_more_closed_sets() -> None:
    centre = (
        "Main pool: open 06:30-21:00\nLearner pool: closed for maintenance\nSauna: open\n"
        "Café: closed"
    )
    said = "The learner pool is closed for maintenance, the café is {} as well, and the sauna is open."
    assert verdict(said.format("closed"), centre)[0] == SUPPORTED
    assert verdict(said.format("open"), centre)[0] == UNSUPPORTED
    home = '{"home": "Birchfield House", "alarm": "disarmed", "hub": "connected"}'
    assert verdict("The alarm is disarmed.", home)[0] == SUPPORTED
    assert verdict("The alarm is armed.", home)[0] == UNSUPPORTED
    assert verdict("The hub is disconnected.", home)[0] == UNSUPPORTED
    status = "Card authorisation API: Operational\nPayouts: Degraded performance\nDashboard: Operational"
    assert verdict("Payouts are operational.", status)[0] == UNSUPPORTED


def test_a_state_the_claim_denies_where_the_thing_s_line_states_it() -> None:
    status = "Card authorisation API: Operational\nWebhooks: Major outage\nDashboard: Operational"
    found, why = verdict("The dashboard is not operational.", status)
    assert found == UNSUPPORTED and "'not operational'" in why
    assert verdict("The webhooks are not operational.", status)[0] == SUPPORTED
    # a field given as false states nothing plainly ("approved": false)
    sample = '{"sample_round": "PP2", "fit_session": {"approved": false}, "colourway_approved": true}'
    assert verdict("The PP2 sample was not approved.", sample)[0] == SUPPORTED


def test_a_state_and_its_non_prefixed_opposite() -> None:
    booking = "Pitch: 17 (hardstanding)\nCampfires: not permitted\nTotal paid: £96.00 (non-refundable)"
    assert verdict("The £96.00 you paid is non-refundable.", booking)[0] == SUPPORTED
    assert verdict("The £96.00 you paid is refundable.", booking)[0] == UNSUPPORTED


def test_fields_named_with_a_place_and_beside_other_fields_names() -> None:
    drill = (
        "2026-09-21 02:00:41 promote pg-b: success (38s)\n"
        "2026-09-21 02:03:55 failback to pg-a: not attempted (scheduled for 2026-09-28)"
    )
    assert verdict("Failback to pg-a was attempted.", drill)[0] == CONTRADICTED
    assert verdict("Failback to pg-a wasn't attempted.", drill)[0] == SUPPORTED
    recall = (
        '{"battery_serial": "VB36-5521-0948", "recall_campaign": "VR-2026-03",\n'
        ' "affected_range": "VB36-5400-0000 to VB36-5499-9999",\n "affected": false}'
    )
    said = "Your battery VB36-5521-0948 {} affected by recall VR-2026-03."
    assert verdict(said.format("is"), recall)[0] == CONTRADICTED
    assert verdict(said.format("isn't"), recall)[0] == SUPPORTED


def test_a_skipped_job_that_ran_and_counts_that_are_no_state() -> None:
    pipeline = (
        "stage     job                status    duration\nlint      eslint             passed    0:41\n"
        "test      e2e-chromium       failed    7:55\nbuild     docker-image       skipped   -"
    )
    said = "The e2e-chromium job failed, so the docker-image build {}."
    assert verdict(said.format("was skipped"), pipeline)[0] == SUPPORTED
    assert verdict(said.format("still ran"), pipeline)[0] == UNSUPPORTED
    pr = "state:     OPEN\nchecks:    14 passed, 1 failed (integration-macos)"
    assert verdict("While 14 checks passed, integration-macos failed.", pr)[0] == SUPPORTED
    tests = "✔ unit-tests      6m12s   (1,482 passed, 0 failed, 12 skipped)"
    assert verdict("All 1,482 unit tests that ran passed, with 12 skipped.", tests)[0] == SUPPORTED


def test_a_state_read_of_its_own_piece_of_the_clause() -> None:
    order = (
        '{"items": [\n {"product": "Farrow Lane Estate Emulsion", "colour": "Sage Whisper", '
        '"finish": "matt"},\n {"product": "Farrow Lane Eggshell", "colour": "Chalk White", '
        '"finish": "eggshell"}\n]}'
    )
    said = "It holds Farrow Lane Estate Emulsion in Sage Whisper with a {} finish and Farrow Lane Eggshell."
    assert verdict(said.format("matt"), order)[0] == SUPPORTED
    assert verdict(said.format("satin"), order)[0] == UNSUPPORTED
    # "carbon", a material the output writes, is no other state beside "steel"
    build = "Frame: Ridgeline Audax, titanium, 56 cm, disc-brake\nFork: carbon, thru-axle"
    said = "Your Ridgeline Audax is a 56 cm {} disc-brake frame with a carbon thru-axle fork."
    assert verdict(said.format("titanium"), build)[0] == SUPPORTED
    assert verdict(said.format("steel"), build)[0] == UNSUPPORTED
    fare = (
        "Cabin bag: 1 personal item only (40x30x15 cm)\nChecked bag: not included\n"
        "Changes: not permitted"
    )
    claim = "Only a 40x30x15 cm personal item is included, no checked bag, and you can't change it."
    assert verdict(claim, fare)[0] == SUPPORTED
    assert verdict("A checked bag is included.", fare)[0] != SUPPORTED


def test_a_word_before_a_number_written_as_its_initial_and_ordinal_words() -> None:
    uniform = (
        "Larkfield Academy - Uniform reminder\nBlazer: navy with crest (compulsory Y7-Y11)\n"
        "Tie: house colour, clip-on only"
    )
    said = "At Larkfield Academy, {} must wear the navy blazer."
    assert verdict(said.format("Years 7 to 11"), uniform)[0] == SUPPORTED
    assert verdict(said.format("Years 12 and 13"), uniform)[0] == UNSUPPORTED
    recitals = "Tue 17 March, 13:10  Tomasz Wielicki  Widor Symphony No. 5"
    said = "Tomasz Wielicki plays Widor's {} Symphony on March 17."
    assert verdict(said.format("Fifth"), recitals)[0] == SUPPORTED
    assert verdict(said.format("Sixth"), recitals)[0] == UNSUPPORTED


def test_a_value_s_bracketed_note_that_denies_a_word() -> None:
    parcel = (
        "Status: Held at customs — Coventry International Hub\n"
        "Duties & taxes: £18.40 (not yet paid)\nAction required: upload invoice"
    )
    said = "The £18.40 in duties and taxes {} been paid."
    assert verdict(said.format("hasn't yet"), parcel)[0] == SUPPORTED
    assert verdict(said.format("has already"), parcel)[0] == CONTRADICTED


def test_log_levels_cancelled_jobs_and_a_shortage() -> None:
    alert = (
        "[FIRING] DiskSpaceLow\nhost: db-replica-03.fra1\nmountpoint: /var/lib/postgresql\n"
        "used: 91.4%  (457 GiB of 500 GiB)\nthreshold: 90%\nseverity: warning"
    )
    said = "A {} DiskSpaceLow alert is firing on db-replica-03.fra1: /var/lib/postgresql is at 91.4% used."
    assert verdict(said.format("warning"), alert)[0] == SUPPORTED
    assert verdict(said.format("critical"), alert)[0] == UNSUPPORTED
    # a log line's own level is the entry's, not what the claim calls critical
    log = (
        "2026-10-02T03:32:10Z WARN  node=db-replica-2 mount=/var/lib/postgresql used=91%\n"
        "2026-10-02T03:41:02Z CRIT  node=db-replica-2 mount=/var/lib/postgresql used=95%\n"
        "2026-10-02T03:41:05Z INFO  action=auto-expand volume=vol-0c7d1e size=500GiB->750GiB"
    )
    claim = "Usage on db-replica-2's /var/lib/postgresql hit a critical 95%, so it was auto-expanded."
    assert verdict(claim, log)[0] == SUPPORTED
    run = (
        "Job                    Runner            Status     Duration\n"
        "build-windows          windows-2022      failure    4m03s\n"
        "publish                ubuntu-24.04      skipped    -"
    )
    said = "The Windows build failed, so the publish job was {}."
    assert verdict(said.format("skipped"), run)[0] == SUPPORTED
    assert verdict(said.format("cancelled"), run)[0] == UNSUPPORTED
    dock = (
        "2026-10-06 06:41:10 WARN  dock=D4 asn=ASN-558102 shortage pallets=2 sku=HX-0931 "
        "status=discrepancy_open"
    )
    assert verdict("The two missing pallets are SKU HX-0931.", dock)[0] == SUPPORTED


def test_a_state_read_before_a_word_only_when_written_just_before_it() -> None:
    log = (
        "[2026-03-02 14:19:44] FAILED tests/api/test_orders.py::test_bulk_cancel - Timeout (30s)\n"
        "[2026-03-02 14:31:02] retry: 413 passed, 6 skipped in 211.4s"
    )
    claim = "The retry passed 413 tests with 6 skipped."
    assert verdict(claim, log)[0] == SUPPORTED


def test_more_closed_sets_of_courses_and_leave() -> None:
    course = "Format: online, live sessions\nAssessment: two projects (40%), final exam (60%)"
    said = "It runs online as {} sessions and is assessed by two projects and a final {}."
    assert verdict(said.format("live", "exam"), course)[0] == SUPPORTED
    assert verdict(said.format("recorded", "exam"), course)[0] == UNSUPPORTED
    assert verdict(said.format("live", "essay"), course)[0] == UNSUPPORTED
    leave = "Leave request LV-66120\nEmployee: Joanna Brzezinska\nType: parental leave (paid)"
    said = "Joanna Brzezinska's paid {} leave, LV-66120, is recorded."
    assert verdict(said.format("parental"), leave)[0] == SUPPORTED
    assert verdict(said.format("sabbatical"), leave)[0] == UNSUPPORTED


def test_a_name_written_in_lower_case_that_the_output_never_writes() -> None:
    ingress = (
        "kind: Ingress\nmetadata:\n  name: storefront\n  namespace: shop-prod\n"
        "spec:\n  ingressClassName: nginx"
    )
    said = "The storefront ingress in shop-prod uses the {} ingress class."
    assert verdict(said.format("nginx"), ingress)[0] == SUPPORTED
    swapped = verdict(said.format("traefik"), ingress)
    assert swapped[0] == UNSUPPORTED and "name 'traefik'" in swapped[1]
    pharmacy = "Drug: Lisinopril 10 mg tablets\nQty: 28\nStatus: Ready for collection"
    said = "Your 28 {} 10 mg tablets are ready for collection."
    assert verdict(said.format("lisinopril"), pharmacy)[0] == SUPPORTED
    assert verdict(said.format("losartan"), pharmacy)[0] == UNSUPPORTED
    tree = "fastgrid==2.4.1\n├── numpy [installed: 2.1.3]\n└── pyarrow [installed: 17.0.0]"
    said = "fastgrid 2.4.1 depends on numpy 2.1.3 and {} 17.0.0."
    assert verdict(said.format("pyarrow"), tree)[0] == SUPPORTED
    assert verdict(said.format("duckdb"), tree)[0] == UNSUPPORTED
    # each part of a hyphened word
    audit = "quickxml-lite 0.19.4\n└── xml-bridge 2.3.0"
    assert verdict("It is pulled in by serde-xml 2.3.0.", audit)[0] == UNSUPPORTED


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # a word of English the output does not write is the writer's own
        ("Glass isn't collected, so take it to a bottle bank.", "Not accepted: glass"),
        # British spellings, inflections, prefixes and two words run together
        ("The tank holds 40 litres and was recalibrated and unflagged.", "tank_l: 40, ok: true"),
        ("The analysed batch tops the leaderboard; it is the favourite.", "batch 7: top score"),
        ("The courier skyped the customer.", "call with the customer"),
        ("It was paid by cheque.", "Payment: by post"),
        # a word inside one of the output's words: "kerb" in kerbside, "carbs" in carbohydrate
        ("Glass isn't collected from the kerb.", "Not accepted kerbside: glass"),
        ("It has 26 g of carbs.", "Carbohydrate: 26 g"),
        # words of the trade
        ("The job checks out the repos and runs make test.", "- run: make test"),
        ("Noor Hassan is her onboarding buddy.", "Buddy: Noor Hassan"),
        # too short to tell a name from a word
        ("It ships as a tgz archive.", "format: archive"),
    ],
)
def test_a_word_of_english_or_of_the_output_is_no_name(claim: str, evidence: str) -> None:
    assert "name '" not in verdict(claim, evidence)[1]


def test_a_state_of_the_line_the_clause_keys() -> None:
    scan = (
        "PORT     STATE    SERVICE\n22/tcp   open     ssh\n80/tcp   closed   http\n"
        "443/tcp  open     https"
    )
    said = "Port 80 is {}, and 443 is open."
    assert verdict(said.format("closed"), scan)[0] == SUPPORTED
    assert verdict(said.format("open"), scan)[0] == UNSUPPORTED
    ps = (
        "NAME          SERVICE   STATUS\n"
        "tally-web-1   web       Up 12 minutes (unhealthy)\n"
        "tally-web-2   web       Up 12 minutes (healthy)"
    )
    said = "tally-web-1 has been up 12 minutes and is {}."
    assert verdict(said.format("unhealthy"), ps)[0] == SUPPORTED
    assert verdict(said.format("healthy"), ps)[0] == UNSUPPORTED
    # an identifier later in the clause is what it acts on, not what it is about
    scale = (
        "ERROR REPORT - SCO lane 6\nTimestamp: 2026-01-11 18:52:33\n"
        "Module: Bagging-area scale\nCode: SCALE-E27 (weight mismatch, unexpected item)\n"
        "Expected weight: 1,245 g   Measured: 1,610 g   Tolerance: ±40 g"
    )
    claim = (
        "Lane 6's bagging scale threw SCALE-E27 at 18:52 because it measured 1,610 g against an "
        "expected 1,245 g."
    )
    assert verdict(claim, scale)[0] == SUPPORTED
    hours = "Thu 2 Apr   07:00-21:00\nFri 3 Apr   CLOSED\nSat 4 Apr   09:00-18:00"
    said = "The bathhouse is {} on April 3."
    assert verdict(said.format("closed"), hours)[0] == SUPPORTED
    assert verdict(said.format("open"), hours)[0] == UNSUPPORTED


def test_a_denied_state_read_against_its_own_piece_of_the_clause() -> None:
    booking = (
        "Room: Superior Double, river view\nRate: Flexible - breakfast included\n"
        "Parking: not available on site"
    )
    said = "You're in a Superior Double with a river view, with breakfast {}."
    assert verdict(said.format("included"), booking)[0] == SUPPORTED
    assert verdict(said.format("not included"), booking)[0] == UNSUPPORTED


def test_a_line_with_dot_leaders_is_one_line() -> None:
    claim = (
        "Assessed items:\n  - Kitchen flooring ........ Covered   GBP 2,140\n"
        "  - Washing machine hose (the cause) .... Not covered (wear and tear)"
    )
    said = "The hose that caused the leak is {}, as it counts as wear and tear."
    assert verdict(said.format("not covered"), claim)[0] == SUPPORTED
    assert verdict(said.format("covered"), claim)[0] != SUPPORTED
    one_line = "Washing machine hose (the cause) .... Not covered (wear and tear)"
    assert verdict(said.format("covered"), one_line)[0] != SUPPORTED


def test_a_field_named_by_another_field_or_a_document() -> None:
    thermostat = '{\n "mode": "heat",\n "heating_active": false,\n "eco_mode": true\n}'
    assert verdict("The thermostat is in heat mode.", thermostat)[0] == SUPPORTED
    assert verdict("The heating is running.", thermostat)[0] == CONTRADICTED
    burn = (
        '{\n "holder": "N. Qureshi",\n "valid_through": "2027-11-30",\n'
        ' "burning_allowed": false\n}'
    )
    assert verdict("N. Qureshi's burn permit is valid through November 30.", burn)[0] == (
        SUPPORTED
    )
    assert verdict("Burning is allowed.", burn)[0] == CONTRADICTED


def test_a_state_after_until_is_a_condition() -> None:
    parcel = "2026-12-03 09:22  Toronto, CA  Held by customs - duties unpaid (CAD 38.60)"
    claim = "Customs is holding it in Toronto until the CAD 38.60 in duties is paid."
    assert verdict(claim, parcel)[0] == SUPPORTED
    assert verdict("The CAD 38.60 in duties is paid.", parcel)[0] == UNSUPPORTED


@pytest.mark.parametrize(
    ("evidence", "right", "wrong"),
    [
        ("Holder: Yusuf Amadi    Plot: 23B (half plot)\nRent 2026: paid\n"
         "Water access: standpipe 4\nBonfires: not permitted",
         "Yusuf's 2026 rent for plot 23B is paid.", "Yusuf's 2026 rent for plot 23B is unpaid."),
        ("Colour: Chestnut, two white hind socks", "She has two white hind socks.",
         "She has two white front socks."),
        ("Station: Riverside Park (AQ-17)\nTime: 2026-06-03 08:00\nPM2.5: 38 µg/m³\n"
         "PM10: 52 µg/m³\nIndex: 5 (Moderate)\nMain pollutant: PM2.5",
         "At 8 am the Riverside Park station reported an air quality index of 5, rated moderate, "
         "with PM2.5 the main pollutant.",
         "At 8 am the Riverside Park station reported an air quality index of 5, rated poor, "
         "with PM2.5 the main pollutant."),
        ("Visa: Working Holiday (12 months), multiple entry", "It's a multiple entry visa.",
         "It's a single entry visa."),
    ],
)
def test_more_closed_sets_of_states(evidence: str, right: str, wrong: str) -> None:
    assert verdict(right, evidence)[0] == SUPPORTED
    assert verdict(wrong, evidence)[0] == UNSUPPORTED


NPM_AUDIT = """# npm audit report
fast-glob-lite  2.0.0 - 2.3.4
Severity: high
Uncontrolled recursion in pattern expansion - https://github.com/advisories/GHSA-8v4w-xq2m-h7c9
fix available via `npm audit fix`
node_modules/fast-glob-lite

cookie-jarvis  <1.9.2
Severity: moderate
Prototype pollution via crafted Set-Cookie header - https://github.com/advisories/GHSA-r3jp-5mkd-w6t2
fix available via `npm audit fix --force`
Will install session-kit@4.0.0, which is a breaking change
node_modules/cookie-jarvis

2 vulnerabilities (1 moderate, 1 high)"""


def test_an_output_written_in_paragraphs_holds_one_record_to_a_paragraph() -> None:
    said = "Fixing {} needs --force and would install session-kit 4.0.0, a breaking change."
    assert verdict(said.format("cookie-jarvis"), NPM_AUDIT)[0] == SUPPORTED
    assert verdict(said.format("fast-glob-lite"), NPM_AUDIT)[0] == HINTED
    why = (
        "$ pnpm why minimatch\ndependencies:\n@lumen/build-tools 2.4.1\n└─┬ glob 10.3.12\n"
        "  └── minimatch 9.0.4\n\ndevDependencies:\neslint 8.57.0\n└── minimatch 3.1.2"
    )
    claim = (
        "minimatch 9.0.4 comes in through glob 10.3.12 under @lumen/build-tools 2.4.1, while "
        "eslint 8.57.0 in your dev dependencies brings in minimatch 3.1.2."
    )
    assert verdict(claim, why)[0] == SUPPORTED


def test_a_clause_listing_rows_by_their_dates() -> None:
    log = (
        "date,client,project,hours,rate\n2027-05-03,Tidewater Maps,Atlas redesign,6.5,85\n"
        "2027-05-04,Tidewater Maps,Atlas redesign,4.0,85\n2027-05-05,Korvel Labs,API docs,7.0,110"
    )
    listed = "You logged 6.5 hours on May 3 and 4 hours on May 4 for Tidewater Maps' Atlas redesign."
    assert verdict(listed, log)[0] == SUPPORTED
    crossed = "You logged 6.5 hours on May 4 for Tidewater Maps' Atlas redesign."
    assert verdict(crossed, log)[0] == UNSUPPORTED


def test_a_suspended_or_pending_line_says_the_claim_s_negation() -> None:
    ferry = (
        "Weekday timetable\n06:40  07:30  MV Gannet\n"
        "Service suspended on 25 December and 1 January.\n"
        "Departures before 07:00 need a reservation."
    )
    assert verdict("It doesn't run on December 25 or January 1.", ferry)[0] == SUPPORTED
    pr = (
        'PR #2294 "Add retry jitter to webhook dispatcher" (branch: feat/webhook-jitter)\n'
        "Author: @ylenia-costa\nRequested reviewers (CODEOWNERS):\n"
        "  services/webhooks/**   @tobias-renn (approved)\n"
        "  libs/backoff/**        @mina-osei (changes requested)\n"
        "  docs/**                @kwame-asante (pending)\n"
        "Checks: 14/14 passed\nMergeable: blocked (1 change request)"
    )
    claim = (
        "PR #2294 from @ylenia-costa is blocked: @tobias-renn approved the webhooks part, but "
        "@mina-osei requested changes on libs/backoff, and @kwame-asante hasn't reviewed the "
        "docs yet."
    )
    assert verdict(claim, pr)[0] == SUPPORTED


def test_a_joined_name_in_lower_case_that_the_output_never_writes() -> None:
    dig = (
        ";; ANSWER SECTION:\n"
        "shop.tallowmere.example.      300  IN  CNAME  tallowmere.edge-cdn.example.\n"
        "tallowmere.edge-cdn.example.  60   IN  A      203.0.113.48"
    )
    said = "shop.tallowmere.example is a CNAME for {}, which resolves to 203.0.113.48."
    assert verdict(said.format("tallowmere.edge-cdn.example"), dig)[0] == SUPPORTED
    host = verdict(said.format("tallowmere.fastcache.example"), dig)
    assert host[0] == UNSUPPORTED and "tallowmere.fastcache.example" in host[1]
    run = 'Run #8812 - workflow "ci" on branch release/3.0 - triggered by push from @nadia-k'
    said = "Run #8812 of the ci workflow on release/3.0 was triggered by a push from {}."
    assert verdict(said.format("@nadia-k"), run)[0] == SUPPORTED
    assert verdict(said.format("@omar-t"), run)[0] == UNSUPPORTED
    # words joined by a slash, units and a capitalised name are no joined names
    wind = "Wind: 25 kph gusting 40\nRuntime: Node 20 LTS"
    claim = "Wind is 25 km/h gusting to 40, and read/write access runs on Node.js 20."
    assert "name '" not in verdict(claim, wind)[1]


def test_a_first_word_that_is_a_name_the_output_never_writes() -> None:
    loan = (
        "Re: Loan of 'Harbour at Dusk' (Elsa Lindqvist, 1911)\n"
        "Courier: Ms. Yuki Tanabe will accompany the work.\n"
        "Transport by Momart, climate-controlled."
    )
    said = "{} will handle climate-controlled transport, with Yuki Tanabe as courier."
    assert verdict(said.format("Momart"), loan)[0] == SUPPORTED
    assert verdict(said.format("Hasenkamp"), loan)[0] == UNSUPPORTED
    assert verdict(said.format("Specialists"), loan)[0] == SUPPORTED  # a word, not a name


def test_a_value_denied_of_the_field_that_gives_it() -> None:
    report = (
        "Inlet baffle: intact\nOutlet baffle: damaged - replacement recommended\n"
        "Effluent filter: cleaned"
    )
    said = "The inlet baffle is {}, but the outlet baffle is damaged."
    assert verdict(said.format("intact"), report)[0] == SUPPORTED
    assert verdict(said.format("not intact"), report)[0] == UNSUPPORTED
    # the field is the one named just before the negation, hyphened words whole
    plan = "In-network: Covered, 20% coinsurance\nOut-of-network: Not covered"
    claim = "In network it is covered at 20% coinsurance, while out-of-network visits aren't covered."
    assert verdict(claim, plan)[0] == SUPPORTED
    claim = "The inlet baffle was checked and the lid is not intact."
    assert verdict(claim, report + "\nLid: cracked")[0] == SUPPORTED


def test_a_day_of_the_week_names_its_line_of_a_timetable() -> None:
    hours = (
        "Corran Hardware - Quay Street\nMon-Fri   08:00-18:00\nSaturday  09:00-17:00\n"
        "Sunday    Closed\nKey cutting until 30 minutes before closing."
    )
    said = "Corran Hardware on Quay Street is {} on Sundays; on Saturdays it's open 9 am to 5 pm."
    assert verdict(said.format("closed"), hours)[0] == SUPPORTED
    found = verdict(said.format("open"), hours)
    assert found[0] == UNSUPPORTED and "'closed'" in found[1]
    # a span of days is no one day's line ("Wed-Sun" ends a span, "closed Mon & Tue")
    museum = (
        "Pellow Maritime Museum\nOpening hours: Wed\u2013Sun 10:00\u201317:00 (last entry 16:15); "
        "closed Mon & Tue\nAdmission: adults £12, under-16s free\nCafé: ground floor"
    )
    claim = "The Pellow Museum is open Wednesday to Sunday from 10 am to 5 pm, last entry 4:15."
    assert verdict(claim, museum)[0] == SUPPORTED


def test_a_state_stated_plainly_in_its_own_piece_of_a_line() -> None:
    stay = (
        "Reservation: CONF 551902\nHotel: Casa do Largo, Braga\nRoom: Twin, garden view\n"
        "Rate: Non-refundable, breakfast included\nCity tax: EUR 2 per person per night"
    )
    assert verdict("Breakfast is included in the non-refundable rate.", stay)[0] == SUPPORTED
    found = verdict("Breakfast isn't included in the non-refundable rate.", stay)
    assert found[0] == CONTRADICTED and "Rate: Non-refundable, breakfast included" in found[1]
    # a bracket qualifies its piece: the negation in it is that piece's
    launch = (
        "Launch day status: GO\nMotor classes allowed: A\u2013G (no H and above this session)\n"
        "Range safety officer: K. Obi"
    )
    claim = "Motors from A to G are allowed; H and above aren't allowed this session."
    assert verdict(claim, launch)[0] == SUPPORTED


def test_each_clause_joined_by_and_keeps_its_own_negation() -> None:
    booking = (
        "Reservation: Trattoria Sole - table for 4\nName: B. Ortiz\n"
        "Notes: 1 guest coeliac - kitchen can prepare gluten-free pasta; highchair not available\n"
        "Deposit: none required"
    )
    said = "The kitchen {} gluten-free pasta for your coeliac guest and there's no deposit."
    assert verdict(said.format("can make"), booking)[0] == SUPPORTED
    assert verdict(said.format("can't make"), booking)[0] == CONTRADICTED


def test_an_output_s_title_does_not_tie_with_the_line_it_names() -> None:
    run = (
        "Run #3340 · deploy-api · main · triggered by push (c81e2d0)\n"
        "✓ lint        31s\n✓ unit-tests  3m02s\n✗ e2e-tests   8m15s  (2 failed)\n"
        "\u2013 deploy      skipped"
    )
    assert verdict("The e2e tests failed, so the deploy was skipped.", run)[0] == SUPPORTED
    found = verdict("The e2e tests failed, but the deploy ran.", run)
    assert found[0] == UNSUPPORTED and "'skipped'" in found[1]


def test_a_value_denied_of_a_piece_of_its_field() -> None:
    record = (
        "Patient: Biscuit (Beagle, female)\nRabies: up to date - expires 2027-05-01\n"
        "Microchip: 9810 0007 1123 456 - registered\nWeight (last visit): 12.1 kg"
    )
    assert verdict("Her microchip is registered.", record)[0] == SUPPORTED
    found = verdict("Her microchip isn't registered.", record)
    assert found[0] == UNSUPPORTED and "'not registered'" in found[1]


@pytest.mark.parametrize(
    ("output", "said", "stated", "other"),
    [
        ("$ licensectl status\nProduct: Vantage Suite 2026.1\nSeats: 25 total, 3 free\n"
         "Maintenance:  active", "Maintenance is {}.", "active", "lapsed"),
        ("NOTICE - Millbeck Leisure Centre\nThe main pool is closed for retiling.\n"
         "Swimming lessons move to the learner pool; adult lane swim sessions are cancelled.",
         "Adult lane swims are {} while the main pool is retiled.", "cancelled", "still running"),
        ("Sample: Raised bed 3 (herbs)\npH: 6.3 (slightly acidic)\nPotassium (K): Low\n"
         "Organic matter: 4.2%",
         "Raised bed 3 has a slightly {} pH of 6.3.", "acidic", "alkaline"),
        ("LAB REPORT - Kestrel Pathology\nTest: Microalbumin/creatinine ratio (ACR)\n"
         "Specimen: Urine, early morning\nResult: 2.1 mg/mmol",
         "Her ACR, from an early-morning {} sample, came back at 2.1 mg/mmol.", "urine", "blood"),
        ("Notification: Your parcel is ready for collection\nLocker: QuickBox #4410, Elm Road\n"
         "Parcel size: Medium\nCode: 221 904",
         "Your {} parcel is waiting in QuickBox locker #4410 on Elm Road.", "medium", "large"),
        # "medium" is a level as well as a size
        ("Sample: Raised bed 5\nNitrate nitrogen: Low\nPhosphorus (P): High\n"
         "Organic matter: 3.1%", "Nitrate nitrogen is {} in raised bed 5.", "low", "medium"),
        ("Order #PX-4410 - Hollis Paints\nItem: Interior Emulsion, Matt finish\n"
         "Colour: Fern\nStatus: Dispatched",
         "Your Fern interior emulsion in a {} finish has been dispatched.", "matt", "silk"),
        ("Offer: MO-4410\nProduct: 2-year tracker\nRate: 4.1%\n"
         "Reverts to: standard variable rate",
         "Northgate offers a two-year {} deal at 4.1%.", "tracker", "fixed-rate"),
    ],
)
def test_states_and_qualities_of_one_set(output: str, said: str, stated: str, other: str) -> None:
    assert verdict(said.format(stated), output)[0] == SUPPORTED
    found = verdict(said.format(other), output)
    assert found[0] == UNSUPPORTED and "other state" in found[1]


def test_a_cause_the_evidence_never_gives() -> None:
    alert = (
        "ALERT fridge-02 (Ward 3) temperature excursion\nReading: 10.9 °C for 52 min\n"
        "Probable cause: door ajar (door sensor open 01:10-02:01)"
    )
    said = "The Ward 3 fridge was out of range for 52 minutes because {}."
    assert verdict(said.format("the door was left ajar"), alert)[0] == SUPPORTED
    found = verdict(said.format("of a power cut"), alert)
    assert found[0] == UNSUPPORTED and "cause 'a power cut' is not the cause" in found[1]
    # an output that gives no cause leaves the answer's own "because" alone
    assert verdict(said.format("of a power cut"), alert.rsplit("\n", 1)[0])[0] == SUPPORTED
    swap = (
        "Flight AN 318, Oslo - Reykjavik\n"
        "Aircraft change: Airbus A321neo -> Boeing 737-800 (operational reasons)\n"
        "Seat: 14C -> 16A"
    )
    said = "Your aircraft was changed to a Boeing 737-800 for {} reasons."
    assert verdict(said.format("operational"), swap)[0] == SUPPORTED
    assert verdict(said.format("weather"), swap)[0] == UNSUPPORTED


def test_a_number_said_of_a_field_that_gives_another() -> None:
    meter = (
        "Account: 51-220-9913\nPrevious reading: 05120 (estimated)\n"
        "Current reading: 05289 (actual)\nUnits used: 169"
    )
    said = "Against a previous reading of 05120, that's {} units used."
    assert verdict(said.format("169"), meter)[0] == SUPPORTED
    assert verdict(said.format("179"), meter)[0] == UNSUPPORTED  # 169 + 10 made it before
    # a label of three words is named without one of them ("due")
    statement = (
        "Card ending: 6612\nPrevious balance: USD 1,284.55\nNew balance: USD 947.18\n"
        "Minimum payment due: USD 35.00\nPayment due date: 2026-10-28"
    )
    said = "The minimum payment is ${}, due by October 28."
    assert verdict(said.format("35.00"), statement)[0] == SUPPORTED
    assert verdict(said.format("25.00"), statement)[0] == UNSUPPORTED
    # a share written as a percentage, a rounded value, and the answer's own sum
    shares = 'eval_accuracy: 0.9134\nbalance: 1284.55\n"export_income_gbp": 105'
    assert verdict("It reached 91.34% eval accuracy.", shares)[0] == SUPPORTED
    assert verdict("The balance is $1,285.", shares)[0] == SUPPORTED
    assert verdict("The balance is $1,385.", shares)[0] == UNSUPPORTED
    # "the total is" names the field `total`; it is no sum of the answer's
    order = (
        '{\n "order_id": "GR-30417",\n "store": "Fenwick Fresh",\n "items": 14,\n'
        ' "substitutions": 2,\n "delivery_window": "18:00-19:00",\n'
        ' "delivery_date": "2026-02-07",\n "total": "GBP 64.38",\n "driver": "Tomasz"\n}'
    )
    said = (
        "Your Fenwick Fresh order of 14 items arrives on February 7 between 6 and 7 pm with "
        "Tomasz driving; 2 items were substituted and the total is £{}."
    )
    assert verdict(said.format("64.38"), order)[0] == SUPPORTED
    assert verdict(said.format("46.38"), order)[0] == UNSUPPORTED
    assert verdict("Savings of £910 plus £105 export income come to £1,015.", shares)[0] == (
        SUPPORTED
    )


def test_the_rules_written_as_judge_model_are_the_ones_the_readme_measures() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    measured = re.search(r"verifier `(rules-v\d+)`, this", readme)
    assert measured is not None and measured.group(1) == MODEL


# -- rules-v30 -------------------------------------------------------------------------------
def test_a_hedged_whole_number_in_a_larger_unit_is_a_conversion() -> None:
    listing = (
        "$ ls -l inventory.db*\n-rw-r--r-- 1 app app 48234496 Mar 21 09:12 inventory.db\n"
        "-rw-r--r-- 1 app app  4128768 Mar 21 09:15 inventory.db-wal"
    )
    assert verdict("The file is about 48 MB, the WAL roughly 4 MB.", listing)[0] == SUPPORTED
    assert verdict("The file is about 60 MB.", listing)[0] == UNSUPPORTED
    kill = "kernel: Killed process 48211 (ledger-sync) total-vm:6183420kB, anon-rss:3964112kB"
    assert verdict("It held nearly 4 GB of anonymous memory.", kill)[0] == SUPPORTED
    assert verdict("It held nearly 9 GB of anonymous memory.", kill)[0] == UNSUPPORTED


def test_close_to_and_above_hedge_a_number() -> None:
    uv = '{"hourly":[{"t":"13:00","uvi":8.2},{"t":"14:00","uvi":7.9}],"max_uvi":8.2}'
    assert verdict("At 2 pm it is still close to 8.", uv)[0] == SUPPORTED
    assert verdict("At 2 pm it is still close to 6.", uv)[0] == UNSUPPORTED
    hydrants = (
        "Hydrant   Street            Flow gpm  Result\nH-5012    Larch Avenue      1,140     pass\n"
        "H-5023    Mill Pond Lane    1,220     pass\nH-5019    Copper Beech Rd   610       fail"
    )
    assert verdict("Both passed with flows above 1,100 gpm.", hydrants)[0] == SUPPORTED
    assert verdict("Both passed with flows above 1,500 gpm.", hydrants)[0] == UNSUPPORTED


def test_bare_hours_of_a_range_on_the_afternoons_clock() -> None:
    lost = "Item: black backpack\nCollection: ticket office, Mon\u2013Fri 10:00\u201316:00, photo ID required"
    said = "You can collect it on weekdays between 10 and {} with photo ID."
    assert verdict(said.format(4), lost)[0] == SUPPORTED
    assert verdict(said.format(5), lost)[0] == UNSUPPORTED
    hours = '{"busy": [{"start": "2026-07-21T10:00"}], "working_hours": "09:00-18:00"}'
    assert verdict("Her working hours are 9 to 6.", hours)[0] == SUPPORTED
    assert verdict("Her working hours are 9 to 5.", hours)[0] == UNSUPPORTED


def test_hours_and_minutes_of_a_stopwatch_duration() -> None:
    scrub = " state: ONLINE\n  scan: scrub repaired 0B in 03:12:45 with 0 errors on Sun Jul 12"
    assert verdict("The scrub took about 3 hours 13 minutes.", scrub)[0] == SUPPORTED
    assert verdict("The scrub took about 3 hours 40 minutes.", scrub)[0] == UNSUPPORTED


def test_letters_and_a_number_the_output_writes_apart() -> None:
    ticket = "Perf: Thu 2026-04-23 19:30\nSeat: GRAND CIRCLE  Row C  Seat 14   (restricted view: no)"
    assert verdict("Your seat is C14.", ticket)[0] == SUPPORTED
    assert verdict("Your seat is C15.", ticket)[0] == UNSUPPORTED
    # one letter is held to its own line, not to a column's head
    assert verdict("Your seat is C14.", "Grade: C\nPerf: 19:30\nSeats left: 14")[0] == UNSUPPORTED
    bgp = (
        "Neighbor        V    AS MsgRcvd MsgSent   Up/Down  State/PfxRcd\n"
        "203.0.113.9     4 65010    9120    8811  21d04h   842\n"
        "203.0.113.17    4 65020       0      12  00:03:41 Active"
    )
    assert verdict("AS65010 has sent 8811 messages.", bgp)[0] == SUPPORTED
    assert verdict("AS65040 has sent 8811 messages.", bgp)[0] == UNSUPPORTED


def test_a_negation_ends_at_a_columns_gap() -> None:
    record = (
        "Date        Call point   Location                 Sounders    Result\n"
        "2026-01-14  MCP-A08      2nd floor west stair     heard       PASS\n"
        "2026-01-21  MCP-A09      Workshop fire exit       not heard   FAIL"
    )
    assert verdict("The workshop fire exit call point failed.", record)[0] == SUPPORTED
    assert verdict("The workshop fire exit call point passed.", record)[0] == UNSUPPORTED


def test_a_fields_value_negating_its_own_word_states_no_other_way() -> None:
    run = "Run ID: UC-26-0233\nSpeed: 35,000 rpm\nRun status: Completed — no imbalance detected"
    assert verdict("The run completed with no imbalance.", run)[0] == SUPPORTED
    assert verdict("The run did not complete.", run)[0] == CONTRADICTED
    checks = (
        "SPF    PASS   v=spf1 include:_spf.mailcove.net -all\n"
        "DKIM   PASS   selector google._domainkey: 2048-bit RSA key\n"
        "DMARC  WARN   p=none; rua=mailto:dmarc@marrowfield.org"
    )
    # the claim writes the line's own "p=none": it repeats it
    assert verdict("DMARC warns, its policy being p=none.", checks)[0] == SUPPORTED
    assert verdict("DMARC warns, its p is enforced.", checks)[0] == CONTRADICTED


# -- rules-v31 -------------------------------------------------------------------------------
def test_a_price_in_cents_is_the_hundredth_the_output_gives() -> None:
    lease = "Lessee: Ridgecrest Sugarworks LLC\nTaps permitted: 1,850\nRate: $0.85 per tap"
    assert verdict("Ridgecrest pays 85 cents a tap.", lease)[0] == SUPPORTED
    assert verdict("Ridgecrest pays 95 cents a tap.", lease)[0] == UNSUPPORTED
    # without "cents" the number is read as written
    assert verdict("Ridgecrest pays 85 a tap.", lease)[0] == UNSUPPORTED


def test_a_whole_number_of_days_the_output_gives_in_seconds() -> None:
    queue = '{"ApproximateNumberOfMessages": "312", "MessageRetentionPeriod": "1209600"}'
    assert verdict("The queue holds 312 messages and keeps them for 14 days.", queue)[0] == (
        SUPPORTED
    )
    assert verdict("The queue holds 312 messages and keeps them for 2 weeks.", queue)[0] == (
        SUPPORTED
    )
    assert verdict("The queue holds 312 messages and keeps them for 4 days.", queue)[0] == (
        UNSUPPORTED
    )
    # 15 days would be 1296000 seconds: not what the output gives; and only exactly so
    assert verdict("It keeps them for 15 days.", queue)[0] == UNSUPPORTED
    assert verdict("It keeps them for 14 days.", '{"MessageRetentionPeriod": "1210000"}')[0] == (
        UNSUPPORTED
    )


def test_two_initials_of_words_the_output_writes_capitalised() -> None:
    quote = "Title                         Offer\nArtificial Intelligence (4th)  $41.50"
    assert verdict("They pay $41.50 for the AI textbook.", quote)[0] == SUPPORTED
    assert verdict("They pay $41.50 for the ML textbook.", quote)[0] == UNSUPPORTED
    # two letters of lower-case words are too easily found to count
    assert verdict("They pay $41.50 for the AI textbook.", "artificial intelligence: $41.50")[
        0
    ] == UNSUPPORTED


def test_the_plural_of_a_joined_word_the_output_holds() -> None:
    notes = "Plan: weekly follow-up x 4\nInsurer: BlueLeaf Health - 6 sessions pre-authorised"
    assert verdict("Four weekly follow-ups are planned.", notes)[0] == SUPPORTED
    assert verdict("Four weekly check-ups are planned.", notes)[0] == UNSUPPORTED
    # the singular as a word of its own, not inside another ("auto-renewal"); the field's
    # "No" contradicts it (`rules-v49`)
    contract = "Contract: MSA-2291\nAuto-renewal: No\nNotice period: 60 days"
    assert verdict("The contract auto-renews every year.", contract)[0] == CONTRADICTED


# -- rules-v32 -------------------------------------------------------------------------------
def test_a_bare_hour_range_before_a_word_of_the_sentence() -> None:
    notice = "Causeway closed to vehicles Tue 7 Jul 09:00-15:00 (resurfacing); pedestrians may cross."
    assert verdict("It is closed to cars from 9 to 3 that day.", notice)[0] == SUPPORTED
    assert verdict("It is closed to cars from 9 to 4 that day.", notice)[0] == UNSUPPORTED


def test_a_number_that_names_is_no_value_of_a_comparison() -> None:
    card = "Balance: £6.40\nAuto top-up: ON (adds £20.00 when balance < £5.00, from Visa ••4471)"
    claim = "£20 will be added from your Visa ending 4471 once the balance dips below £5."
    assert verdict(claim, card)[0] == SUPPORTED
    # a comparison of two values is still read: "6.40, below £5" is not so
    assert verdict("The balance is £6.40, below the £5 trigger.", card)[0] == UNSUPPORTED


def test_a_clause_opened_by_when_or_if_ends_a_comparisons_value() -> None:
    pump = "Pump speed: 40 %\nStarts above: 80 %"
    assert verdict("The pump runs at 40 when the tank is above 80.", pump)[0] == SUPPORTED
    # a value compared in its own clause is still read
    assert verdict("The pump runs at 40, above its 80 start.", pump)[0] == UNSUPPORTED


def test_a_whole_number_rounds_a_value_in_the_same_unit_however_written() -> None:
    health = "| https://10.0.4.13:2379 |  false | 5.00121s | context deadline exceeded |"
    assert verdict("It timed out after 5 seconds.", health)[0] == SUPPORTED
    assert verdict("It timed out after 6 seconds.", health)[0] == UNSUPPORTED
    # the unit is held: 5 minutes is not 5.00121 seconds
    assert verdict("It timed out after 5 minutes.", health)[0] == UNSUPPORTED
    # and the rounding is close: "12 mph" is 12.4 mph, "3 meters" is not 2.75 m
    ostrich = "Birds range in size from the 5 cm bee hummingbird to the 2.75 m ostrich."
    assert verdict("The ostrich can reach 3 meters.", ostrich)[0] == UNSUPPORTED
    assert verdict("Earthflows reach 12 mph.", "Earthflows can reach 12.4 mph.")[0] == SUPPORTED


def test_a_months_possessive_is_no_name() -> None:
    bill = "Cost Explorer — 2026-05-01 to 2026-05-31 (USD)\nTotal   3,459.14"
    assert verdict("In all, May's bill came to about $3,459.", bill)[0] == SUPPORTED
    assert verdict("In all, Jane's bill came to about $3,459.", bill)[0] == UNSUPPORTED


def test_a_date_written_with_dots_in_an_index_name() -> None:
    indices = (
        "health status index             docs.count store.size\n"
        "green  open   logs-2026.06.01   4812339      3.9gb\n"
        "green  open   logs-2026.06.02   5106772      4.2gb"
    )
    assert verdict("The June 2 index holds 5106772 documents.", indices)[0] == SUPPORTED
    assert verdict("The June 3 index holds 5106772 documents.", indices)[0] == UNSUPPORTED
    # the year is four digits of their own
    assert verdict("The June 2 index holds 5106772 documents.", "idx-12026.06.02  5106772")[
        0
    ] == UNSUPPORTED


def test_no_before_a_thing_is_no_tables_no() -> None:
    report = (
        "Parameter        Result   Limit   Pass\n"
        "Nitrate (NO3)    38.6     50      Yes\n"
        "Coliforms        0        0       Yes\n"
        "Manganese        71       50      No"
    )
    assert verdict("No coliforms were found, and nitrate passed at 38.6.", report)[0] == SUPPORTED


def test_a_time_zone_by_its_letters() -> None:
    league = "Trade deadline: Wed 2026-11-18, 12:00 PM ET\nWaivers: Wednesdays 3:00 AM ET"
    assert verdict("The deadline is noon Eastern on November 18.", league)[0] == SUPPORTED
    assert verdict("The deadline is noon Pacific on November 18.", league)[0] == UNSUPPORTED


def test_a_weekday_of_a_week_the_output_dates_by_its_monday() -> None:
    rota = (
        "St Wulfran's clock - winding rota, Q3 2026\n"
        "Week beginning  Winder          Day   Notes\n"
        "Mon 13 Jul      Anne Harcourt   Sat\n"
        "Mon 20 Jul      Peter Gould     Fri   Sat - tower closed for bell inspection\n"
        "Mon 03 Aug      Sam Oduya       Thu"
    )
    assert verdict("Peter Gould winds on Friday, July 24.", rota)[0] == SUPPORTED
    # the weekday that week's line gives, on its own date only
    assert verdict("Peter Gould winds on Thursday, July 23.", rota)[0] == UNSUPPORTED
    assert verdict("Peter Gould winds on Saturday, July 24.", rota)[0] == UNSUPPORTED
    assert verdict("Peter Gould winds on Friday, July 31.", rota)[0] == UNSUPPORTED
    # or the weekday written with the day on a line of its own ("Wed 10" that week)
    menu = "Lunch menu, week of Mon 2026-06-08\nMon 8: cottage pie\nWed 10: fish pie"
    assert verdict("On Wednesday, June 10 it's fish pie.", menu)[0] == SUPPORTED
    assert verdict("On Wednesday, June 17 it's fish pie.", menu)[0] == UNSUPPORTED


def test_a_weekday_given_another_day_than_the_outputs() -> None:
    menu = (
        "Lunch menu, week commencing Mon 2026-06-08\n"
        "Wed 10  Fish fingers, chips\n"
        "Thu 11  Bean chilli, jacket potato\n"
        "Fri 12  Pizza"
    )
    assert verdict("Bean chilli is on Thursday the 11th.", menu)[0] == SUPPORTED
    assert verdict("Bean chilli is on Thursday the 12th.", menu)[0] == UNSUPPORTED


def test_minutes_and_seconds_of_a_stopwatch_value() -> None:
    board = "Pending verification: tarnwick 0:40:58.115 (submitted 2026-01-30)"
    assert verdict("tarnwick has submitted a faster 40:58.", board)[0] == SUPPORTED
    assert verdict("tarnwick has submitted a faster 40:59.", board)[0] == UNSUPPORTED


def test_a_time_of_day_rounded_to_the_minute() -> None:
    eclipse = "Maximum eclipse:   20:26:52   altitude 10.4°\nSun sets:          21:01:15"
    assert verdict("The eclipse peaks at 8:27 pm.", eclipse)[0] == SUPPORTED
    assert verdict("The eclipse peaks at 8:28 pm.", eclipse)[0] == UNSUPPORTED
    # 21:01:15 rounds to 21:01, not up
    assert verdict("The Sun sets at 9:02 pm.", eclipse)[0] == UNSUPPORTED


def test_a_word_the_output_cuts_short_beside_the_same_word() -> None:
    results = (
        "Module    Title                      Mark  Result\n"
        "ECN2041   Intermediate Microecon     38    Fail\n"
        "ECN2055   Econometrics I             61    Pass"
    )
    assert verdict("You can resit Intermediate Microeconomics.", results)[0] == SUPPORTED
    assert verdict("You can resit Intermediate Macroeconomics.", results)[0] == UNSUPPORTED
    # beside another word, the cut word is not this one
    assert verdict("You can resit Econometrics and Microeconomics.", results)[0] == UNSUPPORTED


# -- rules-v33 -------------------------------------------------------------------------------
PORTAL = (
    "2026-04-02 09:14:03 portal[2231]: room=412 auth=voucher VCH-88K2 result=ACCEPTED"
    " plan=Premium-50Mbps\n"
    "2026-04-02 09:20:11 portal[2231]: room=412 auth=voucher VCH-88K2 result=REJECTED"
    " reason=device_limit(2)\n"
    "2026-04-02 09:21:30 portal[2231]: room=412 auth=room_surname result=ACCEPTED"
    " plan=Free-5Mbps"
)


def test_a_word_run_together_with_up_or_in_is_a_word() -> None:
    mypy = "src/billing/invoice.py:131: error: Item None of Customer has no attribute email"
    assert verdict("invoice.py has an email lookup on a customer.", mypy)[0] == SUPPORTED
    # a name the output never writes is still one
    assert verdict("invoice.py has an email lookup on a zorbix.", mypy)[0] == UNSUPPORTED


def test_a_unit_the_output_writes_onto_its_number() -> None:
    assert verdict("It is on the free 5 Mbps plan.", PORTAL)[0] == SUPPORTED
    assert verdict("It is on the free 5 Gbps plan.", PORTAL)[0] == UNSUPPORTED


def test_terabytes_from_a_count_of_bytes() -> None:
    dry_run = "running this query will process 1843201994752 bytes of data."
    assert verdict("The query would scan about 1.84 TB.", dry_run)[0] == SUPPORTED
    assert verdict("The query would scan about 2.84 TB.", dry_run)[0] == UNSUPPORTED


def test_a_lines_counter_is_no_state() -> None:
    itinerary = (
        "Day 1 Sat 13 Jun: Largs -> Millport, mooring buoy\n"
        "Day 2 Sun 14 Jun: Millport -> Lochranza, visitor pontoon"
    )
    assert verdict("The first night is on a mooring buoy at Millport.", itinerary)[0] == SUPPORTED
    # a line's word with a number that is a measure is still its state
    brakes = "Front 4 mm pads, wear OK\nNext check: 6 months"
    assert verdict("The rear pads are at 4 mm.", brakes)[0] == UNSUPPORTED


def test_a_joined_phrase_with_small_words_the_output_joins_without_them() -> None:
    assert verdict("It got online through the room-and-surname login.", PORTAL)[0] == SUPPORTED
    assert verdict("It got online through the room-and-passcode login.", PORTAL)[0] == UNSUPPORTED
    # and of numbers: "11-of-19 shooting" for 11-19
    box = "PLAYER      MIN  PTS  REB  FG\nT. Okafor    36   28   11   11-19\nJ. Marsh     34   17    3   6-14"
    assert verdict("Okafor scored 28 on 11-of-19 shooting.", box)[0] == SUPPORTED
    assert verdict("Okafor scored 28 on 11-of-21 shooting.", box)[0] == UNSUPPORTED
    # a small word joins two others at least: "check-in" is not the output's check_out
    stay = "guest=412 status=check_out\nroom=412 status=ready"
    assert verdict("The guest is at check-in.", stay)[0] == UNSUPPORTED


def test_a_hyphened_name_of_words_the_output_writes_in_full() -> None:
    match = "Juniper, a 22-month-old yellow Labrador x Golden Retriever bitch."
    assert verdict("Juniper is a yellow Lab-cross-Golden.", match)[0] == SUPPORTED
    assert verdict("Juniper is a yellow Lab-cross-Poodle.", match)[0] == UNSUPPORTED
    # a lower-case word must join capitalised ones: "born" says more than the output
    signing = "Sim Bhullar is set to become the NBA's first player of Indian descent."
    assert verdict("Indian-born Sim Bhullar is set to join the NBA.", signing)[0] == UNSUPPORTED


def test_a_tables_cell_written_out() -> None:
    grades = (
        "Card                                  Grade  Label\n"
        "2003 Topps Chrome Marcus Delaney #111  9      MINT\n"
        "1996 Pokemon Base Set Chansey #3       7      NM\n"
        "2018 Panini Prizm Rafael Okonjo #280   10     GEM MT"
    )
    assert verdict("The Okonjo Prizm came back a Gem Mint.", grades)[0] == SUPPORTED
    # another row's label is still read as crossed, and a cell's number is one of its words
    assert verdict("The Chansey came back a Mint 7.", grades)[0] == UNSUPPORTED
    jobs = (
        "street        team     date\n"
        "Orchard Rise  Team 2   2026-03-18\n"
        "Bishops Way   Team 4   2026-03-20"
    )
    assert verdict("The next job at Orchard Rise is with Team 4.", jobs)[0] == UNSUPPORTED
    # a letter alone is no short form: "Shed B" is not said by "black"
    stock = (
        "sku,species,grade,board_feet,kiln_dried,location\n"
        "WO-4-FAS,White Oak,FAS,1240,true,Shed A\n"
        "WO-4-1C,White Oak,1 Common,860,true,Shed A\n"
        "HM-8-FAS,Hard Maple,FAS,415,true,Shed B\n"
        "WN-4-FAS,Black Walnut,FAS,0,true,Shed B\n"
        "CY-4-SEL,Cypress,Select,2310,false,Yard 2"
    )
    assert verdict("Black walnut is kept in Shed A.", stock)[0] == UNSUPPORTED


def test_a_tables_yes_is_a_state_of_the_same_answer() -> None:
    plans = (
        "Feature              Basic      Plus\n"
        "Catalogue streaming  Included   Included\n"
        "Offline downloads    Yes        Yes\n"
        "Family sharing       No         Included\n"
        "Podcasts             Excluded   Yes"
    )
    assert verdict("On Basic, offline downloads are included.", plans)[0] == SUPPORTED
    assert verdict("On Basic, family sharing is included.", plans)[0] == UNSUPPORTED
    # a yes is not another row's state of the other answer
    assert verdict("On Basic, offline downloads are excluded.", plans)[0] == UNSUPPORTED


def test_a_small_count_is_no_term_of_an_amounts_sum() -> None:
    indices = (
        "health status index             pri rep docs.count store.size\n"
        "green  open   logs-2026.06.01   1   1     4812339      3.9gb\n"
        "green  open   logs-2026.06.02   1   1     5106772      4.2gb"
    )
    assert verdict("The June 2 index holds 4.2 GB.", indices)[0] == SUPPORTED
    assert verdict("The June 2 index holds 5.2 GB.", indices)[0] == UNSUPPORTED
    order = '{"item": "grinder", "qty": 1, "subtotal": "189.00 GBP", "shipping": "4.95 GBP"}'
    assert verdict("Shipping was £5.95.", order)[0] == UNSUPPORTED
    # an amount written with its fraction is still a term ("68.0" less 66.8)
    fit = '{"point": "body length", "spec": 68.0, "actual": 66.8}'
    assert verdict("The body is 1.2 cm too short.", fit)[0] == SUPPORTED
    # and a count is a term of a whole amount (120 seats, 4 held)
    hall = '{"hall": "Main", "capacity": 120, "held": 4, "fee": 2.50}'
    assert verdict("There are 116 seats in the hall.", hall)[0] == SUPPORTED


# -- rules-v34 -------------------------------------------------------------------------------
def test_tonnes_from_kilograms() -> None:
    cert = "Quantity: 1,240 cartons / 22,320 kg\nPlace of origin: Hawke's Bay"
    assert verdict("It covers about 22.3 tonnes of apples.", cert)[0] == SUPPORTED
    assert verdict("It covers about 23.3 tonnes of apples.", cert)[0] == UNSUPPORTED


def test_by_joins_the_numbers_of_a_hyphened_size() -> None:
    rules = "Plot: 5 m × 5 m, allocated at check-in\nTeams: up to 4 people"
    assert verdict("Each team gets a 5-by-5-metre plot.", rules)[0] == SUPPORTED
    assert verdict("Each team gets a 6-by-5-metre plot.", rules)[0] == UNSUPPORTED


def test_a_hedge_before_two_numbers_is_said_of_both() -> None:
    cider = (
        "Date        SG      Temp °C\n2026-10-02  1.058   14.5\n"
        "2026-10-06  1.031   15.2\n2026-10-16  1.002   14.1"
    )
    assert verdict("It stayed around 14 to 15 °C.", cider)[0] == SUPPORTED
    assert verdict("It stayed around 14 to 18 °C.", cider)[0] == UNSUPPORTED
    # unhedged, 15 is not 15.2; nor is a hedge said of a number further before
    assert verdict("It stayed at 14.1 to 15 °C.", cider)[0] == UNSUPPORTED
    claim = "It was around 14.5 °C on October 2, rising to 15 °C."
    assert verdict(claim, cider)[0] == UNSUPPORTED


def test_how_long_a_value_was_above_another_is_no_comparison() -> None:
    log = "Row  Core temp (°C)  Days >55°C\nW7   63              18\nW8   58              11"
    assert verdict("W7 has logged 18 days above 55 °C.", log)[0] == SUPPORTED
    # a value compared is still read, and a time moving from another
    assert verdict("W7 is at 41, above its 55 target.", log)[0] == UNSUPPORTED
    calls = "Category 2 mean: 41 min (October: 36 min)"
    assert verdict("Calls averaged 41 minutes down from 36.", calls)[0] == UNSUPPORTED


def test_an_amount_of_nought_is_none_of_it() -> None:
    card = "2026-07-02 09:14  Top-up  +€400.00   from £344.83  rate 1.1600  fee £0.00"
    assert verdict("The €400 top-up cost £344.83, with no fee.", card)[0] == SUPPORTED
    quote = "Qty      Unit price   Total (ex VAT)\n2,000    £2.31        £4,620.00\n"
    claim = "There's no VAT since books are zero-rated."
    assert verdict(claim, quote + "Books are zero-rated for VAT")[0] == SUPPORTED
    # a fee that is not nought is still read the other way
    charged = card.replace("£0.00", "£2.50")
    assert verdict("The €400 top-up cost £344.83, with no fee.", charged)[0] == CONTRADICTED


def test_a_number_in_words_of_a_joined_word_the_output_writes_in_digits() -> None:
    sprint = (
        "Sprint 42 (PAY team) — 2026-05-04 → 2026-05-15\n"
        "Committed: 54 pts   Completed: 41 pts   Carried over: 13 pts\n"
        "Scope added mid-sprint: 5 pts (PAY-1190)\n"
        "Velocity (3-sprint avg): 44 pts"
    )
    assert verdict("That's under its three-sprint average of 44 points.", sprint)[0] == SUPPORTED
    assert verdict("That's under its four-sprint average of 44 points.", sprint)[0] == UNSUPPORTED


def test_a_hexadecimal_address_without_its_leading_zeros() -> None:
    flash = "Wrote 1302528 bytes at 0x00010000 in 9.6 seconds\nHash of data verified."
    assert verdict("It wrote the image at 0x10000.", flash)[0] == SUPPORTED
    assert verdict("It wrote the image at 0x20000.", flash)[0] == UNSUPPORTED


# -- rules-v35 -------------------------------------------------------------------------------
MEMCACHED = (
    "STAT uptime 1209600\nSTAT curr_connections 412\nSTAT get_hits 18734220\n"
    "STAT get_misses 2081580\nSTAT evictions 0\nSTAT limit_maxbytes 4294967296"
)


def test_a_whole_size_given_exactly_in_bytes() -> None:
    assert verdict("Its memory limit is 4 GiB.", MEMCACHED)[0] == SUPPORTED
    assert verdict("Its memory limit is 5 GiB.", MEMCACHED)[0] == UNSUPPORTED
    # exactly: a whole number not hedged is not a rounded size
    near = MEMCACHED.replace("4294967296", "4289361920")
    assert verdict("Its memory limit is 4 GiB.", near)[0] == UNSUPPORTED


def test_a_price_in_pence_written_onto_its_number() -> None:
    tariff = "export tariff: Export Flex, 15.0 p/kWh\nexported: 286.4 kWh"
    assert verdict("You were paid 15p per kWh exported.", tariff)[0] == SUPPORTED
    assert verdict("You were paid 16p per kWh exported.", tariff)[0] == UNSUPPORTED
    fee = "Reservation fee: £0.80 (charged to your account)"
    assert verdict("An 80p reservation fee was charged.", fee)[0] == SUPPORTED
    assert verdict("A 90p reservation fee was charged.", fee)[0] == UNSUPPORTED


def test_failed_to_is_not() -> None:
    facts = "Facts found: At the leeward mark, Blue Heron failed to give mark-room to Kittiwake."
    assert verdict("Blue Heron didn't give Kittiwake mark-room.", facts)[0] == SUPPORTED
    gave = facts.replace("failed to give", "gave")
    assert verdict("Blue Heron didn't give Kittiwake mark-room.", gave)[0] == CONTRADICTED
    # read so only beside a claim that denies: a failure in some games denies no goals
    report = (
        "Jurgen Klopp's men have failed to score in four of their last five league games and "
        "will find it hard to earn a Champions League place. They are not in the top four, "
        "with 34 goals in 27 games in the Bundesliga."
    )
    claim = "Jurgen Klopp's men have scored 34 goals in 27 games in the Bundesliga."
    assert verdict(claim, report)[0] == SUPPORTED


def test_a_kind_of_street_written_out() -> None:
    permit = "Applicant: Brightline Paving Co.\nSite: 1200 block of Harmon Ave (resurfacing)"
    assert verdict("The work is on Harmon Avenue.", permit)[0] == SUPPORTED
    assert verdict("The work is on Harmon Avenue.", permit.replace("Ave", "Rd"))[0] == UNSUPPORTED


def test_initials_of_words_joined_by_underscores() -> None:
    vulns = (
        "/sys/devices/system/cpu/vulnerabilities/gather_data_sampling:Mitigation: Microcode\n"
        "/sys/devices/system/cpu/vulnerabilities/mds:Not affected\n"
        "/sys/devices/system/cpu/vulnerabilities/srbds:Vulnerable: No microcode"
    )
    claim = "This CPU is not affected by MDS, and GDS has a microcode mitigation."
    assert verdict(claim, vulns)[0] == SUPPORTED
    assert verdict(claim.replace("GDS", "GDT"), vulns)[0] == UNSUPPORTED


def test_a_weekday_joined_to_a_part_of_the_day() -> None:
    mail = (
        "Workshops: Fri 2026-10-09, 18:30\u201321:00 (Hall B)\n"
        "Batizado ceremony: Sat 2026-10-10, 14:00"
    )
    assert verdict("The ceremony follows the Friday-evening workshops.", mail)[0] == SUPPORTED
    assert verdict("The ceremony follows the Thursday-evening workshops.", mail)[0] == UNSUPPORTED
    assert verdict("The ceremony follows the Friday-league workshops.", mail)[0] == UNSUPPORTED
    assert verdict("The ceremony follows the Hall-evening workshops.", mail)[0] == UNSUPPORTED


def test_deps_is_a_word_of_the_trade() -> None:
    info = 'Config: {:ets_throttle, "~> 0.9.2"}\nReleases: 0.9.2, 0.9.1, 0.8.3 (retired)'
    assert verdict('Add it with "~> 0.9.2" in your deps.', info)[0] == SUPPORTED


IOSTAT = (
    "Device   r/s     w/s      rkB/s     wkB/s  r_await w_await aqu-sz  %util\n"
    "nvme0n1  412.60  1880.40  16504.0  92310.2    0.21    1.84   3.55  71.20\n"
    "sda        0.00    44.60      0.0   2866.4    0.00   18.73   0.84  96.40"
)


def test_a_whole_number_rounds_a_decimal_of_the_row_its_clause_names() -> None:
    assert verdict("nvme0n1 moves far more data but sits at 71%.", IOSTAT)[0] == SUPPORTED
    assert verdict("nvme0n1 moves far more data but sits at 72%.", IOSTAT)[0] == UNSUPPORTED
    # another row's decimal is not this row's, nor is a decimal the claim writes itself
    assert verdict("sda moves far less data but sits at 71%.", IOSTAT)[0] == UNSUPPORTED
    rope = "Corvane Sirocco 9.4 Dynamic Rope\nDiameter: 9.4 mm\nUIAA fall rating: 7"
    assert verdict("The Corvane Sirocco 9.4 holds 9 falls.", rope)[0] == UNSUPPORTED
    # the row named in another clause is not the number's
    claim = "nvme0n1 moves far more data, while the other disk sits at 71%."
    assert verdict(claim, IOSTAT)[0] == UNSUPPORTED
    # a row named on two lines (two samples) is not one row
    second = IOSTAT + "\nnvme0n1  398.10  1702.90  15924.0  88140.6    0.20    1.79   3.31  64.70"
    assert verdict("nvme0n1 moves far more data but sits at 71%.", second)[0] == UNSUPPORTED


def test_a_rate_is_a_counts_share_of_both_outcomes() -> None:
    assert verdict("Its hit rate is about 90%.", MEMCACHED)[0] == SUPPORTED
    assert verdict("Its hit rate is about 80%.", MEMCACHED)[0] == UNSUPPORTED
    # a percentage said of nothing the counts are of is not worked out from them
    assert verdict("Its white share is about 90%.", MEMCACHED)[0] == UNSUPPORTED
    assert verdict("Its hit count is 90 thousand.", MEMCACHED)[0] == UNSUPPORTED


def test_a_name_that_starts_a_longer_word_of_the_output() -> None:
    stats = (
        "$ varnishstat -1 -f MAIN.uptime -f MAIN.cache_hit -f MAIN.cache_miss\n"
        "MAIN.uptime              604812         1.00 Child process uptime\n"
        "MAIN.cache_hit         48211907        79.71 Cache hits\n"
        "MAIN.cache_miss         5357011         8.86 Cache misses"
    )
    claim = "In seven days of uptime, Varnish has served 48.2 million hits and 5.4 million misses."
    assert verdict(claim, stats)[0] == SUPPORTED
    assert verdict(claim.replace("Varnish", "Nginx"), stats)[0] == UNSUPPORTED
    # a short name inside a word is too easily found, and a capitalised word is a name
    assert verdict(claim.replace("Varnish", "Varn"), stats)[0] == UNSUPPORTED
    assert verdict("The director was Chris.", "Director: Christopher Wren")[0] == UNSUPPORTED


def test_a_label_in_capitals_before_a_number_the_output_writes() -> None:
    status = (
        "3 processes are in enforce mode.\n1 processes are in complain mode.\n"
        "   /usr/bin/ledgerd (2214)"
    )
    assert verdict("ledgerd (PID 2214) is in complain mode.", status)[0] == SUPPORTED
    assert verdict("ledgerd (PID 2215) is in complain mode.", status)[0] == UNSUPPORTED
    # a longer word in capitals is a name of its own
    assert verdict("ledgerd (SERVICE 2214) is in complain mode.", status)[0] == UNSUPPORTED


def test_a_time_moved_by_the_minutes_the_output_says() -> None:
    rota = (
        "court  time   match                   umpire 1              umpire 2\n"
        "1      10:00  Hawks A v Comets        J. Barrow (assessor)  L. Mistry\n"
        "1      11:15  Hawks B v Valley Stars  L. Mistry             K. Wells\n"
        "Note: umpires to report 30 min before their first match."
    )
    claim = "L. Mistry umpires on court 1 at 10 and 11:15, and needs to be there by 9:30."
    assert verdict(claim, rota)[0] == SUPPORTED
    assert verdict(claim.replace("9:30", "9:15"), rota)[0] == UNSUPPORTED
    assert verdict(claim, rota.replace("before", "after"))[0] == UNSUPPORTED


def test_a_time_or_date_moved_by_hours_or_days_the_output_says() -> None:
    scan = (
        "Appointment: Mon 2026-09-07 08:45, CT Suite B\n"
        "Preparation: nothing to eat 4 h before; clear fluids allowed"
    )
    claim = "Should I set a reminder for her to stop eating by 4:45 that morning?"
    assert verdict(claim, scan)[0] == SUPPORTED
    assert verdict(claim.replace("4:45", "5:45"), scan)[0] == UNSUPPORTED
    fasting = (
        "Date/time: 2026-03-03 08:10, Phlebotomy Room 2\n"
        "Fasting: required - nothing but water for 10 hours before"
    )
    claim = "Should I set a reminder for 10:10 pm the night before to start fasting?"
    assert verdict(claim, fasting)[0] == SUPPORTED  # "10:10 pm" is read as 22:10
    assert verdict(claim.replace("10:10", "11:10"), fasting)[0] == UNSUPPORTED
    notice = (
        "Registration expires: 2026-11-30\n"
        "Renew online at least 10 days before expiry to receive tags in time"
    )
    claim = "Want me to remind you on November 20, so you can renew online in time?"
    assert verdict(claim, notice)[0] == SUPPORTED
    assert verdict(claim.replace("20", "25"), notice)[0] == UNSUPPORTED
    assert verdict(claim, notice.replace("before", "after"))[0] == UNSUPPORTED
    works = (
        "Block B: 2026-05-26 to 2026-06-12\n"
        "Balconies must be cleared of plants and furniture 48 hours before works start."
    )
    assert verdict("For Block B that means clearing it by May 24.", works)[0] == SUPPORTED
    assert verdict("For Block B that means clearing it by May 23.", works)[0] == UNSUPPORTED
    # across a month's end, and a week
    assert verdict("Pay by February 27.", "Due: 2026-03-06. Pay 1 week before.")[0] == SUPPORTED


def test_words_of_the_trade_and_a_hyphened_prefix_are_no_names() -> None:
    tables = "relname | n_live_tup | n_dead_tup\norder_events | 48210934 | 9874120"
    claim = "order_events carries about 9.9 million dead tuples."
    assert verdict(claim, tables)[0] == SUPPORTED
    assert verdict(claim.replace("tuples", "tupulons"), tables)[0] == UNSUPPORTED
    auth = "Sign-in providers: email/password on, phone off\nMFA: disabled"
    assert verdict("Phone sign-in is off and multi-factor auth is disabled.", auth)[0] == (
        SUPPORTED
    )
    # a prefix alone is no word: "multi" is held like any other lower-case name
    assert verdict("Phone sign-in is off and multi is disabled.", auth)[0] == UNSUPPORTED


def test_a_date_stamped_in_a_name_is_a_date_of_the_output() -> None:
    listing = (
        "Found 4 Completed Migration file/files.\n20260402_index_invoices_customer_id.js\n"
        "Found 1 Pending Migration file/files.\n20260419_add_refund_reason.js\n"
        "down 20260310154500-add-cancel-reason-to-bookings.js"
    )
    claim = "The newest applied migration, the customer_id index, is dated April 2, 2026."
    assert verdict(claim, listing)[0] == SUPPORTED
    assert verdict(claim.replace("April 2", "April 3"), listing)[0] == UNSUPPORTED
    assert verdict(claim.replace("2026", "2025"), listing)[0] == UNSUPPORTED
    assert verdict("The add-cancel-reason migration from March 10 is down.", listing)[0] == (
        SUPPORTED
    )
    # an order number is no date: nine digits are no stamp
    assert verdict("Order 202604021 was placed on April 2.", "Order 202604021: placed")[0] == (
        UNSUPPORTED
    )


def test_a_number_joined_to_its_unit_is_a_number() -> None:
    keys = "3072 SHA256:Zk4pL7vN2x tobias.brandt@ws-07 (RSA)\n256 SHA256:Hm3c ci@b-02 (ED25519)"
    assert verdict("tobias.brandt has a 3072-bit RSA key.", keys)[0] == SUPPORTED
    found = verdict("tobias.brandt has a 4096-bit RSA key.", keys)
    assert found[0] == UNSUPPORTED and "number '4096'" in found[1]


def test_a_country_by_its_code_in_a_country_column_of_cells() -> None:
    bans = (
        "| ID     | Source   | Reason        | Action | Country | Events |\n"
        "|--------|----------|---------------|--------|---------|--------|\n"
        "| 184122 | crowdsec | ssh-bf        | ban    | NL      | 7      |\n"
        "| 184119 | crowdsec | http-crawl    | ban    | US      | 44     |"
    )
    assert verdict("184122 was banned, from the Netherlands.", bans)[0] == SUPPORTED
    assert verdict("184122 was banned, from Germany.", bans)[0] == UNSUPPORTED
    # the code in another column is no country
    other = bans.replace("| Country |", "| Region  |")
    assert verdict("184122 was banned, from the Netherlands.", other)[0] == UNSUPPORTED


def test_a_number_belongs_to_the_name_after_its_unit_or_preposition() -> None:
    stock = (
        "SKU      SITE   ON_HAND  RESERVED  AVAILABLE\n"
        "KT-3390  RTM-1  1,204    310       894\n"
        "KT-3390  LEH-4  640      85        555"
    )
    claim = "KT-3390 has 894 units available at RTM-1 and 555 at LEH-4."
    assert verdict(claim, stock)[0] == SUPPORTED
    found = verdict("KT-3390 has 894 units available at RTM-1 and 555 units.", stock)
    assert found[0] == UNSUPPORTED and "never stated together" in found[1]
    jars = "5063917000018  Damson Jam 340 g\n5063917000025  Seville Marmalade 454 g"
    assert verdict("They are the 340 g Damson Jam and the 454 g Seville Marmalade.", jars)[0] == (
        SUPPORTED
    )
    # a comma sets the name after it apart: 555 stays bound to the name before it
    found = verdict("KT-3390 has 894 units available at RTM-1 and 555, at LEH-4.", stock)
    assert found[0] == UNSUPPORTED and "never stated together" in found[1]


def test_a_number_written_with_its_own_sign_goes_no_other_way() -> None:
    lenses = "Right lens: -3.50   Left lens: -4.00 (stepped dioptres)"
    assert verdict("They are made up with -3.50 in the right lens.", lenses)[0] == SUPPORTED
    found = verdict("They are made up with 3.50 in the right lens.", lenses)
    assert found[0] == UNSUPPORTED and "goes the other way" in found[1]
    # a sign of its own that is not the evidence's still goes the other way
    found = verdict("They are made up with +3.50 in the right lens.", lenses)
    assert found[0] == UNSUPPORTED and "goes the other way" in found[1]


def test_bare_hours_listed_after_at_are_times_of_day() -> None:
    day = "Admission: free; waterwheel demo at 11:00 and 14:00\nTours: 09:00, 12:00, 15:00"
    assert verdict("The waterwheel is demonstrated at 11 and 2.", day)[0] == SUPPORTED
    assert verdict("The tours leave at 9, 12 or 3.", day)[0] == SUPPORTED
    assert verdict("The waterwheel is demonstrated at 11 and 4.", day)[0] == UNSUPPORTED
    # a unit after the list: no hours ("at 11 and 2 kg")
    assert verdict("The demo weighs in at 11 and 2 kg.", day)[0] == UNSUPPORTED


def test_a_state_still_waited_for_is_the_field_not_yet_so() -> None:
    draw = (
        "ticket,prize,winner,collected\n1187,Two tickets to Lyric Theatre,Dev Kapadia,no\n"
        "1204,Hamper,Ann Lee,yes"
    )
    claim = "Dev Kapadia's Lyric Theatre tickets are still waiting to be collected."
    assert verdict(claim, draw)[0] == SUPPORTED
    found = verdict("Ann Lee's Hamper is still waiting to be collected.", draw)
    assert found[0] == UNSUPPORTED and "'collected: yes'" in found[1]
    assert verdict("Dev Kapadia's Lyric Theatre tickets have been collected.", draw)[0] == (
        UNSUPPORTED
    )


def test_words_that_deny_in_one_word() -> None:
    rules = (
        "- Sky lanterns: not allowed anywhere on the estate.\n"
        "- Sparklers: allowed on the lawn"
    )
    assert verdict("Sky lanterns are banned anywhere on the estate.", rules)[0] == SUPPORTED
    assert verdict("Sparklers are banned on the lawn.", rules)[0] != SUPPORTED
    reply = "We are unable to offer a fully nut-free menu, as our kitchen uses nuts throughout."
    assert verdict("They can't do a fully nut-free menu.", reply)[0] == SUPPORTED
    assert verdict("They can offer a fully nut-free menu.", reply)[0] == CONTRADICTED
    # "no-X" negates its own word, not the words after it
    fees = "Cancellation: free until Mon 18 May; later cancellations or no-shows are charged in full"
    claim = "After Monday, or if she doesn't show, the lesson is charged in full."
    assert verdict(claim, fees)[0] == SUPPORTED
    found = verdict("Later cancellations and no-shows are not charged.", fees)
    assert found[0] == CONTRADICTED
    claim_record = "Excess: £250   |   No-claims discount: protected\nCourtesy car: Yes"
    claim = "Greta pays the £250 excess, and the no-claims discount is protected."
    assert verdict(claim, claim_record)[0] == SUPPORTED


def test_a_thing_called_off_is_what_a_claim_s_no_says() -> None:
    notice = "The August opening has been cancelled due to conservation work on the dome."
    claim = "There's no August date because of conservation work on the dome."
    assert verdict(claim, notice)[0] == SUPPORTED
    # in the clause itself: the class is cancelled, its members are refunded
    note = "Note: Deep-water class cancelled due to lane rope repairs; booked members auto-refunded."
    assert verdict("Booked members haven't been auto-refunded.", note)[0] == CONTRADICTED


def test_a_name_said_of_a_language() -> None:
    booking = "Experience: estate tour & tasting (English), Sat 2026-09-19, 11:00"
    assert verdict("Your English-language tour is on September 19 at 11am.", booking)[0] == (
        SUPPORTED
    )
    assert verdict("Your French-language tour is on September 19 at 11am.", booking)[0] == (
        UNSUPPORTED
    )


def test_numbers_that_are_no_values_of_a_comparison() -> None:
    ticket = "Fault: imbalance error (E-21) at speeds above 4,000 rpm"
    assert verdict("It was throwing E-21 imbalance errors above 4,000 rpm.", ticket)[0] == (
        SUPPORTED
    )
    log = "master offset        -38 s2 freq   +1204\nmaster offset         -7 s2 freq   +1247"
    claim = "Its master offset has come down from -38 ns to -7 ns."
    assert verdict(claim, log)[0] == SUPPORTED
    ratings = "Rating: 3.9 (was 4.3)"
    found = verdict("It is averaging 3.9, up from 4.3.", ratings)
    assert found[0] == UNSUPPORTED and "its own numbers say the other way" in found[1]


def test_a_state_given_for_other_weekdays() -> None:
    notice = (
        "Press notice - Marlow Weavers' Hall Museum\n"
        '"Threads of the Fens: Linen and Lace 1750-1900"\n'
        "Originally closing: 2026-02-22\nNow extended to: 2026-04-12 due to demand\n"
        "Opening hours: Tue-Sun 10:00-17:00 (closed Mondays)\n"
        "Admission: GBP 9 adults, under-16s free\n"
        "Curator talk: Sat 14 March, 14:00 (booking required)"
    )
    claim = "It's open Tuesday to Sunday from 10 to 5, and the curator's talk is on Saturday, March 14."
    assert verdict(claim, notice)[0] == SUPPORTED
    claim = "It's open on Mondays from 10 to 5, and the curator's talk is on Saturday, March 14."
    assert verdict(claim, notice)[0] == UNSUPPORTED
    desk = (
        "Price: \u20ac25 / day\nHours: 08:00\u201319:00 weekdays; closed weekends\n"
        "Not included: printing (\u20ac0.10/page), lockers\nGuests: not permitted on day passes"
    )
    claim = "Printing costs extra and you can't bring a guest; it's open 8 am to 7 pm on weekdays."
    assert verdict(claim, desk)[0] == SUPPORTED
    claim = "Printing costs extra and you can't bring a guest; it's open 8 am to 7 pm at weekends."
    assert verdict(claim, desk)[0] == UNSUPPORTED


def test_a_state_with_its_exception() -> None:
    day = "Admission: free\nBooking: not required, except cellar tours (max 12 per tour)"
    assert verdict("You only need to book for the cellar tours.", day)[0] == SUPPORTED
    branches = (
        "Branch      Allowed to merge   Force push\n"
        "main        Maintainers        off\n"
        "release/*   Maintainers        off\n"
        "develop     Developers         on"
    )
    assert verdict("Force pushing is off everywhere except develop.", branches)[0] == SUPPORTED
    assert verdict("Force pushing is off on develop.", branches)[0] != SUPPORTED


def test_above_or_below_a_number_compares_it() -> None:
    packs = "Pack    Cycles  Health\nBAT-A   212     81%\nService recommended below 80% health."
    claim = "BAT-A is at 81% health, just above the 80% mark where service is recommended."
    assert verdict(claim, packs)[0] == SUPPORTED


def test_a_whole_number_of_seconds_or_grams_from_the_smaller_or_larger_unit() -> None:
    health = "search-indexer:50055       UNKNOWN        timeout after 2000ms"
    assert verdict("search-indexer didn't answer within 2 seconds.", health)[0] == SUPPORTED
    assert verdict("search-indexer didn't answer within 3 seconds.", health)[0] == UNSUPPORTED
    receipt = "Raspberries    0.80 kg @ £9.00/kg    £7.20"
    assert verdict("You picked 800 g of raspberries for £7.20.", receipt)[0] == SUPPORTED
    assert verdict("You picked 900 g of raspberries for £7.20.", receipt)[0] == UNSUPPORTED


def test_a_month_named_by_a_table_s_row() -> None:
    statement = (
        "Period: 1 Jun 2026 - 31 Aug 2026\nMonth     Exported (kWh)   Earnings\n"
        "Jun       412.6            GBP 61.89\nJul       455.3            GBP 68.30\n"
        "Aug       368.1            GBP 55.22"
    )
    assert verdict("July was the best month at roughly 455 kWh.", statement)[0] == SUPPORTED
    found = verdict("September was the best month at roughly 455 kWh.", statement)
    assert found[0] == UNSUPPORTED and "'September'" in found[1]


def test_a_margin_worked_out_of_the_claim_s_own_numbers() -> None:
    final = "Final: Westgate Magpies 80 - Brookvale Saints 62\nVenue: Westgate Oval"
    assert verdict("The Magpies beat the Saints 80 to 62, an 18-point win.", final)[0] == (
        SUPPORTED
    )
    found = verdict("The Magpies beat the Saints 80 to 62, a 16-point win.", final)
    assert found[0] == UNSUPPORTED and "'16'" in found[1]


def test_a_comparison_reads_its_two_values_in_one_unit() -> None:
    stats = (
        " table    | before | after\n"
        "----------+--------+---------\n"
        " readings | 212 GB | 19 GB\n"
        " events   | 31 GB  | 4210 MB"
    )
    claim = "The events table is down from 31 GB to 4,210 MB after compression."
    assert verdict(claim, stats)[0] == SUPPORTED
    found = verdict("The events table is up from 31 GB to 4,210 MB after compression.", stats)
    assert found[0] == UNSUPPORTED and "its own numbers say the other way" in found[1]


def test_a_percentage_change_worked_out_of_the_claim_s_own_numbers() -> None:
    sizes = (
        "-rw-r--r-- 1 ci ci 1843712 Jul  8 10:14 pkg/app_bg.wasm\n"
        "-rw-r--r-- 1 ci ci 1196032 Jul  8 10:15 pkg/app_bg.opt.wasm"
    )
    claim = "Optimising took the module from about 1.84 MB to about 1.2 MB, roughly a 35% cut."
    assert verdict(claim, sizes)[0] == SUPPORTED
    claim = "Optimising took the module from about 1.84 MB to about 1.2 MB, roughly a 45% cut."
    assert verdict(claim, sizes)[0] == UNSUPPORTED


def test_a_total_is_of_every_item_it_totals() -> None:
    invoice = (
        "INVOICE INV-2026-0457          Harbourside Art Fair\n"
        "Booth B17 (3 m x 3 m)                      \u00a3420.00\n"
        "Corner surcharge                            \u00a360.00\n"
        "Subtotal                                   \u00a3480.00\n"
        "VAT 20%                                     \u00a396.00\n"
        "Total due                                  \u00a3576.00"
    )
    assert verdict("The invoice for booth B17 comes to \u00a3576 with VAT.", invoice)[0] == SUPPORTED
    assert verdict("The invoice for booth B17 comes to \u00a3612 with VAT.", invoice)[0] == (
        UNSUPPORTED
    )


def test_insufficient_is_not_enough() -> None:
    log = "Region        Size     Result\nIberia        1.6 GB   Skipped \u2014 insufficient storage"
    claim = "Iberia was skipped because there wasn't enough storage."
    assert verdict(claim, log)[0] == SUPPORTED
    assert verdict("Iberia was skipped although there was enough storage.", log)[0] == (
        CONTRADICTED
    )


def test_an_offer_to_act_states_nothing_but_what_it_stands_on() -> None:
    pack = "Trader: Magpie & Thimble (pitch H14)\nElectric: not booked\nPitch fee: \u00a385 \u2014 PAID"
    assert verdict("Should I add an electric hook-up to your booking?", pack)[0] == SUPPORTED
    claim = "Should I pay for the pitch, since the fee isn't paid yet?"
    assert verdict(claim, pack)[0] != SUPPORTED


def test_a_particle_makes_no_naming_scheme() -> None:
    pack = "Set-up: Fri 16:00\u201320:00\nBreak-down: from 16:00 Sunday only\nElectric: not booked"
    claim = "You haven't booked an electric hook-up, and set-up is on Friday from 4 to 8pm."
    assert verdict(claim, pack)[0] == SUPPORTED
    hosts = "auth-gw    10.0.0.4   up\npayments-gw 10.0.0.5  up"
    assert verdict("The ledger-gw host is up.", hosts)[0] == UNSUPPORTED


def test_a_flag_of_another_row() -> None:
    stats = (
        "  relname  |        reloptions         | n_dead_tup\n"
        " ----------+---------------------------+-----------\n"
        "  events   | {fillfactor=90}           |      18204\n"
        "  sessions | {autovacuum_enabled=false} |    4930117"
    )
    claim = "Autovacuum is off on sessions, while events was autovacuumed overnight."
    assert verdict(claim, stats)[0] == SUPPORTED
    assert verdict("Autovacuum is enabled on sessions.", stats)[0] == CONTRADICTED


def test_a_weekday_s_day_and_month_joined_by_a_dash() -> None:
    listing = (
        "Aufguss Evenings, March 2026\n"
        "Fri 03-06   19:30  Kelo        12 left\n"
        "Sat 03-28   20:00  Panorama     4 left"
    )
    assert verdict("The Kelo evening on Friday the 6th has 12 places left.", listing)[0] == (
        SUPPORTED
    )
    assert verdict("The Panorama evening on Saturday the 21st has 4 places left.", listing)[0] == (
        UNSUPPORTED
    )


def test_a_header_ruled_off_its_rows_states_nothing() -> None:
    buckets = (
        "    id    | public | file_size_limit |   allowed_mime_types\n"
        "----------+--------+-----------------+------------------------\n"
        "  avatars  | t      |         2097152 | {image/png,image/jpeg}\n"
        "  exports  | f      |                 |"
    )
    claim = "Exports is private with no size limit or file-type restriction at all."
    assert verdict(claim, buckets)[0] == SUPPORTED


def test_a_reminder_the_question_proposes_before_a_date_or_time() -> None:
    licence = "Category D1 valid to: 2026-12-03\nTimesheet: submit via portal by Friday 17:00"
    claim = "Want me to remind you on November 3 to renew D1?"
    assert verdict(claim, licence)[0] == SUPPORTED
    claim = "Want me to remind you on December 13 to renew D1?"
    assert verdict(claim, licence)[0] == UNSUPPORTED
    assert verdict("Shall I set a reminder for 4 pm on Friday?", licence)[0] == SUPPORTED
    assert verdict("Shall I set a reminder for 6 pm on Friday?", licence)[0] == UNSUPPORTED
    invoice = "Payment terms: 14 days (due 2026-11-20)"
    assert verdict("Shall I schedule the payment for the 19th?", invoice)[0] == SUPPORTED
    assert verdict("Shall I schedule the payment for the 22nd?", invoice)[0] == UNSUPPORTED
    # a span the question says fixes the day
    notice = "Registration expires: 2026-11-30\nRenew online at least 10 days before expiry"
    claim = "Want me to remind you on November 25, so you can renew 10 days before it expires?"
    assert verdict(claim, notice)[0] == UNSUPPORTED


def test_a_row_named_first_in_a_list_is_its_own() -> None:
    jobs = (
        "Job                 Status    Duration\nlint                success   0:42\n"
        "unit-tests          success   4:18\n"
        "integration-tests   failed    9:57   (exit code 1: 3 tests failed in test_refunds.py)\n"
        "build-image         success   2:31\n"
        "deploy-staging      blocked   -      (requires integration-tests)"
    )
    claim = (
        "lint, unit tests and the image build all passed, but deploy-staging is blocked "
        "waiting on the integration tests."
    )
    assert verdict(claim, jobs)[0] == SUPPORTED
    # a label between commas is said of what comes before, and a state opening a list is read
    pods = (
        "NAME                         READY   STATUS             RESTARTS   AGE\n"
        "checkout-7d9f8b-x2k4p        1/1     Running            0          3d\n"
        "checkout-7d9f8b-q8m1z        0/1     CrashLoopBackOff   14         3d\n"
        "inventory-5c6d7-lw9rt        1/1     Running            2          11h"
    )
    claim = (
        "One of the two checkout pods, checkout-7d9f8b-x2k4p, is in CrashLoopBackOff after 14 "
        "restarts; the other checkout pod is running fine."
    )
    assert verdict(claim, pods)[0] == UNSUPPORTED
    gauges = (
        "Station        River  Level (m)  Trend    Warning\n"
        "Kelsby Bridge  Aldon  3.42       Rising   Flood alert\n"
        "Marrow Weir    Aldon  2.15       Steady   None\n"
        "Ferncross      Tilly  1.08       Falling  None\n"
    )
    claim = "On the Tilly, Ferncross is rising, with no warning and a level of 1.08 m."
    assert verdict(claim, gauges)[0] == UNSUPPORTED


def test_a_name_in_capitals_with_a_small_letter_is_one_field() -> None:
    router = "name  ext_port  enabled\nplex  32400     yes\nUPnP: off\nWAN IP: 81.143.27.96"
    assert verdict("UPnP is on.", router)[0] == CONTRADICTED
    assert verdict("UPnP is off.", router)[0] == SUPPORTED


def test_on_and_off_read_as_enabled_and_disabled() -> None:
    minio = "local/scans-archive versioning is enabled\nNo lifecycle rules configured"
    assert verdict("Versioning is off for scans-archive.", minio)[0] == UNSUPPORTED
    assert verdict("Versioning is on for scans-archive.", minio)[0] == SUPPORTED
    # an output writing "Off" itself is read by its own fields
    page = (
        "Account security — j.farrow@corvanta.io\n"
        "Two-factor authentication: Enabled (authenticator app)\n"
        "Backup codes: 6 of 10 remaining\nActive sessions: 3\nLogin alerts: Off"
    )
    claim = (
        "Two-factor authentication is on for j.farrow@corvanta.io using an authenticator app, "
        "with 6 of the 10 backup codes left, and login alerts are switched off."
    )
    assert verdict(claim, page)[0] == SUPPORTED
    # "on" before what follows is no state: "is on firmware 1.4.12"
    check = (
        "Device: Zephyr AX3000 (hw rev B)\nInstalled firmware: 1.4.12 (2026-05-30)\n"
        "Latest available: 1.5.3 (2026-11-18) - security release\nAuto-update: disabled"
    )
    claim = "Your Zephyr AX3000 is on firmware 1.4.12, but 1.5.3 is available."
    assert verdict(claim, check)[0] == SUPPORTED


# -- rules-v36 -------------------------------------------------------------------------------


def test_a_date_written_day_first_with_dots() -> None:
    invoice = "Billing period: 01.11.2026 - 30.11.2026\nDue date: 15.12.2026"
    assert verdict("It's due on December 15.", invoice)[0] == SUPPORTED
    assert verdict("It's due on December 16.", invoice)[0] == UNSUPPORTED
    # day first only: 05.12.2026 is the 5th of December, never May 12
    assert verdict("It's due on May 12.", "Due date: 05.12.2026")[0] == UNSUPPORTED


def test_a_command_typed_at_a_prompt_states_nothing() -> None:
    session = (
        "$ buf breaking --against '.git#branch=main'\n$ echo $?\n0\n$ buf lint\n"
        'proto/ledger/v1/entry.proto:14:3:Field name "accountID" should be lower_snake_case.'
    )
    assert verdict("buf found no breaking changes against main.", session)[0] == SUPPORTED
    # a line that is no command still is a statement
    stated = "breaking changes found against main: 2"
    assert verdict("buf found no breaking changes against main.", stated)[0] == CONTRADICTED


def test_a_ranges_first_number_takes_its_unit() -> None:
    gc = "GC(1187) Pause Young 3072M->1210M(4096M) 18.734ms\nGC(1189) Pause Young 2890M->1301M(4096M)"
    assert verdict("The heap falls back to roughly 1.2\u20131.3 GB.", gc)[0] == SUPPORTED
    assert verdict("The heap falls back to roughly 1.5\u20131.6 GB.", gc)[0] == UNSUPPORTED


def test_a_labels_word_cut_short_before_its_letter() -> None:
    log = "Action: Deferred per MEL 36-11-01, Cat C (10 days)"
    assert verdict("It was deferred under the MEL as a Category C item.", log)[0] == SUPPORTED
    assert verdict("It was deferred under the MEL as a Category B item.", log)[0] == UNSUPPORTED
    # cut short: its first letters, not any of them in order
    assert verdict("It was deferred as a Category C item.", "Deferred: Cay C")[0] == UNSUPPORTED
    # before any other word, a short form keeping its vowels is a name of its own
    assert verdict("Benjamin Smith signed for it.", "Signed: Ben Smith")[0] == UNSUPPORTED


def test_a_plural_of_what_the_output_numbers() -> None:
    sensors = "CPU1 Temp | 01h | ok | 61 degrees C\nCPU2 Temp | 02h | ok | 58 degrees C"
    assert verdict("The CPUs are at 61 °C and 58 °C.", sensors)[0] == SUPPORTED
    assert verdict("The GPUs are at 61 °C and 58 °C.", sensors)[0] == UNSUPPORTED
    # a plural's "s", not any last letter
    assert verdict("The CPUX is at 61 °C.", sensors)[0] == UNSUPPORTED
    # one numbered is not a plural's worth
    one = "CPU1 Temp | 01h | ok | 61 degrees C"
    assert verdict("The CPUs are at 61 °C.", one)[0] == UNSUPPORTED


def test_a_camel_case_name_cut_short_even_first() -> None:
    report = "SUMMARY: AddressSanitizer: heap-buffer-overflow src/ringbuf.c:58 in ring_push"
    assert verdict("ASan caught a heap overflow in ring_push.", report)[0] == SUPPORTED
    assert verdict("Here ASan caught a heap overflow in ring_push.", report)[0] == SUPPORTED
    assert verdict("TSan caught a heap overflow in ring_push.", report)[0] == UNSUPPORTED
    # letters only: a blood group's sign is not cut short ("AB-negative" for AB+)
    assert verdict("The donor unit is AB-negative.", "Unit 4471: group AB+")[0] == UNSUPPORTED
    # a name of one piece starting a word is not it ("Chris" for Christopher)
    assert verdict("It was Chris who signed.", "Signed: Christopher Hale")[0] == UNSUPPORTED
    # piece for piece: "SanA" is no cut of it, nor "ASanX" of its two pieces
    assert verdict("Here SanA caught a heap overflow in ring_push.", report)[0] == UNSUPPORTED
    assert verdict("Here ASanX caught a heap overflow in ring_push.", report)[0] == UNSUPPORTED


def test_a_state_is_not_said_of_what_the_claim_excepts() -> None:
    kit = (
        "Item                 Qty  Usable  Result\nRifle (.308)          1       1  PASS\n"
        "Tent (2-person)       2       2  PASS\nFlare gun             2       1  FAIL"
    )
    assert verdict("Team B passed everything except the flare guns.", kit)[0] == SUPPORTED
    assert verdict("Team B passed everything, including the flare guns.", kit)[0] == UNSUPPORTED


def test_a_difference_of_the_two_numbers_one_line_gives_in_its_unit() -> None:
    dive = "Max depth: 19.8 m\nGas: EAN32, start 200 bar / end 60 bar"
    assert verdict("You used 140 bar of your gas.", dive)[0] == SUPPORTED
    assert verdict("You used 160 bar of your gas.", dive)[0] == UNSUPPORTED
    # two lines' numbers are not one line's start and end
    apart = "Start: 200 bar\nEnd: 60 bar"
    assert verdict("You used 140 bar of your gas.", apart)[0] == UNSUPPORTED
    # a line's start and end: two numbers in the unit, not any two of three
    three = "Gas: EAN32, start 200 bar / at 30 m 120 bar / end 60 bar"
    assert verdict("You used 80 bar of your gas.", three)[0] == UNSUPPORTED
    # in that unit: a number without one is not read so
    assert verdict("Of your gas you used 140.", dive)[0] == UNSUPPORTED


def test_how_many_a_balance_is_enough_for_at_a_price_in_pence() -> None:
    account = "Balance: £3.60\nRates: A4 mono £0.05/side, A4 colour £0.25/side"
    claim = "Your £3.60 is enough for {} mono sides at 5p each."
    assert verdict(claim.format(72), account)[0] == SUPPORTED
    assert verdict(claim.format(62), account)[0] == UNSUPPORTED


def test_a_place_the_output_names_by_its_airport_code() -> None:
    fare = '{"fare": "Saver", "route": "LHR-LIS", "flight": "TP1363", "price_gbp": 89}'
    assert verdict("The Saver fare from Heathrow to Lisbon is £89.", fare)[0] == SUPPORTED
    assert verdict("The Saver fare from London to Lisbon is £89.", fare)[0] == SUPPORTED
    assert verdict("The Saver fare from Gatwick to Lisbon is £89.", fare)[0] == UNSUPPORTED
    # each word of a name is the code's: "New York" for JFK, not "New Haven"
    booking = "Flight BA117 LHR -> JFK, departs 08:25"
    assert verdict("Your flight to New York departs at 08:25.", booking)[0] == SUPPORTED
    assert verdict("Your flight to New Haven departs at 08:25.", booking)[0] == UNSUPPORTED


def test_a_decimal_whose_key_ends_in_its_unit() -> None:
    dish = '{"downlink_mbps": 143.6, "uplink_mbps": 12.9, "latency_ms": 38}'
    assert verdict("It pulls 13 Mbps up.", dish)[0] == SUPPORTED
    assert verdict("It pulls 15 Mbps up.", dish)[0] == UNSUPPORTED
    # the key's unit, not any: 12.9 is no 13 ms
    assert verdict("It answers in 13 ms.", dish)[0] == UNSUPPORTED


# -- rules-v37 -------------------------------------------------------------------------------


def test_a_date_written_year_first_with_slashes() -> None:
    log = "2026/03/11 04:00:14 mirror_pull.go:520: platform/ledgerkit: 3 branches updated"
    assert verdict("The March 11 mirror run updated 3 branches.", log)[0] == SUPPORTED
    assert verdict("The March 12 mirror run updated 3 branches.", log)[0] == UNSUPPORTED


def test_a_date_with_a_months_name_in_another_language() -> None:
    letter = "Épreuve individuelle : mardi 19 mai 2026, 14:40, Salle 3"
    assert verdict("The speaking test is on Tuesday, May 19.", letter)[0] == SUPPORTED
    assert verdict("The speaking test is on Tuesday, May 12.", letter)[0] == UNSUPPORTED
    assert verdict("It is on March 4.", "Termin: 3. März 2026")[0] == UNSUPPORTED
    assert verdict("It is on March 3.", "Termin: 3. März 2026")[0] == SUPPORTED
    assert verdict("It is on May 16.", "Fecha: 16 de mayo de 2026")[0] == SUPPORTED


def test_a_duration_in_two_units_whose_whole_the_output_gives() -> None:
    stats = '{"best_time_s": 412, "trip_min": 125}'
    assert verdict("Your best time was 6 minutes 52 seconds.", stats)[0] == SUPPORTED
    assert verdict("Your best time was 6 minutes 53 seconds.", stats)[0] == UNSUPPORTED
    assert verdict("The trip takes 2 hours and 5 minutes.", stats)[0] == SUPPORTED
    # hours and minutes, minutes and seconds: not hours and seconds
    assert verdict("The trip takes 2 hours 5 seconds.", stats)[0] == UNSUPPORTED
    # the duration's own numbers only
    assert verdict("After 6 minutes 52 seconds you had used 9 hints.", stats)[0] == UNSUPPORTED
    # minutes and seconds are a count of seconds, never of sixtieths of one
    assert verdict("It took 6 minutes 52 seconds.", '{"ticks": 24720}')[0] == UNSUPPORTED
    # a stopwatch's value in the output is one too
    lag = (
        " application_name | state     | replay_lag\n"
        "------------------+-----------+-----------------\n"
        " pg-replica-ams   | streaming | 00:00:02.871\n"
        " pg-analytics     | catchup   | 00:14:37.120"
    )
    assert verdict("pg-analytics is catching up, 14 minutes 37 seconds behind.", lag)[0] == SUPPORTED
    assert verdict("pg-analytics is catching up, 14 minutes 39 seconds behind.", lag)[0] == UNSUPPORTED


def test_segfault_is_a_word_of_the_trade() -> None:
    core = "TIME PID SIG COREFILE EXE\n13:05 6604 SIGSEGV missing /usr/bin/inkwell-render"
    assert verdict("inkwell-render segfaulted at 13:05.", core)[0] == SUPPORTED


def test_money_worked_out_of_money_the_claim_writes() -> None:
    card = "Quote: £95.00   Deposit paid: £30.00"
    claim = "There's £{} of the £95 quote left to pay after the £30 deposit."
    assert verdict(claim.format(65), card)[0] == SUPPORTED
    assert verdict(claim.format(75), card)[0] == UNSUPPORTED
    # money of money: not a count beside amounts
    assert verdict("The £95 quote covers 65 pieces and the £30 deposit.", card)[0] == UNSUPPORTED
    assert verdict("The £95 quote, £30 deposit and £10 fee cover 65 pieces.", card)[
        0
    ] == UNSUPPORTED


def test_a_prefix_length_the_output_gives_as_the_addresss_netmask() -> None:
    push = "PUSH_REPLY,route 10.40.0.0 255.255.0.0,ifconfig 10.8.0.14 255.255.255.0"
    assert verdict("It gave you a route to 10.40.0.0/16.", push)[0] == SUPPORTED
    # the mask after that address: 10.8.0.14's /24 is not the route's
    assert verdict("It gave you a route to 10.40.0.0/24.", push)[0] == UNSUPPORTED


def test_initials_of_words_joined_by_an_ampersand_and_possessive() -> None:
    match = "Institution: Oregon Health & Science University, Portland OR"
    assert verdict("Daniel matched into OHSU's program.", match)[0] == SUPPORTED
    assert verdict("Daniel matched into OHSV's program.", match)[0] == UNSUPPORTED


def test_a_country_by_its_two_letter_code_in_a_locale_or_a_countrys_field() -> None:
    title = 'GET /v2/titles/tt-88213/availability?region=CA\n{"audio_languages": ["en", "fr-CA"]}'
    assert verdict("It streams in Canada with Canadian French audio.", title)[0] == SUPPORTED
    assert verdict("It streams in Mexico with French audio.", title)[0] == UNSUPPORTED
    assert verdict("It has Mexican French audio.", title)[0] == UNSUPPORTED
    # two letters elsewhere are no country ("CA" of a certificate authority)
    ca = "Issuer: Harbor Root CA\nValid until: 2027-01-01"
    assert verdict("It was issued in Canada by Harbor Root.", ca)[0] == UNSUPPORTED


# -- rules-v38 -------------------------------------------------------------------------------
def test_a_street_the_output_writes_st() -> None:
    bag = "Delivery: courier to Caledonian Hotel, Princes St\nRoute: Co-op Hill St -> warehouse"
    assert verdict("A courier will take it to the Caledonian Hotel on Princes Street.", bag)[0] == SUPPORTED
    assert verdict("A courier will take it to the Caledonian Hotel on Princes Road.", bag)[0] == UNSUPPORTED
    # the "St" of a saint's name, before its name, is no street
    church = "Venue: St Mary's church hall, Bell Lane"
    assert verdict("The sale is at the hall on Bell Street.", church)[0] == UNSUPPORTED
    service = "Service at the church of St Mary, 11:00"
    assert verdict("The service is on Mary Street at 11.", service)[0] == UNSUPPORTED
    # before a word in lower case, and after an ordinal (rules-v43, and its review)
    order = "Collection: Sat 2026-10-10, 11:00-12:00, Market St shop"
    assert verdict("Collect it from the Market Street shop.", order)[0] == SUPPORTED
    assert verdict("Collect it from the Bridge Street shop.", order)[0] == UNSUPPORTED
    detour = "Effect: stops on Holloway Ave between 9th St and 15th St not served"
    assert verdict("Buses skip Holloway Avenue between 9th and 15th Street.", detour)[
        0
    ] == SUPPORTED
    # "Street" after another word than the output's
    assert verdict("The courier goes to the hotel on Queen Street.", bag)[0] == UNSUPPORTED


def test_a_nought_share_states_a_claims_nothing() -> None:
    plan = "Contribution: 4% pre-tax, 0% Roth\nEmployer match: 100% of first 3%"
    assert verdict("You contribute 4% pre-tax and nothing to Roth.", plan)[0] == SUPPORTED
    vesting = "Vesting of employer match: 2-year cliff, currently 0% vested"
    assert verdict("None of the employer match has vested yet.", vesting)[0] == SUPPORTED
    assert verdict("None of the employer match has vested yet.", vesting.replace("0%", "40%"))[
        0
    ] == CONTRADICTED


def test_a_flag_continuing_a_command_states_nothing() -> None:
    run = (
        "$ cosign verify ghcr.io/pinebarrow/ledger-api:1.14.2 \\\n"
        "    --certificate-identity=https://github.com/pinebarrow/ledger-api/.github/workflows/"
        "release.yml@refs/tags/v1.14.2 \\\n"
        "    --certificate-oidc-issuer=https://token.actions.githubusercontent.com\n"
        "Error: no matching signatures: none of the expected identities matched what was in "
        "the certificate, got subjects [https://github.com/pinebarrow/ledger-api/.github/"
        "workflows/nightly.yml@refs/heads/main]"
    )
    claim = (
        "Verification of ledger-api 1.14.2 failed: the image is signed, but by the nightly "
        "workflow on main rather than the release workflow for the v1.14.2 tag, so it doesn't "
        "match the identity you expected."
    )
    assert verdict(claim, run)[0] == SUPPORTED


def test_a_time_the_output_says_to_come_before_written_with_its_minutes() -> None:
    slot = "Date/time: Monday, 14 September 2026, 10:45\nArrive 15 minutes early."
    assert verdict("He should arrive by 10:30.", slot)[0] == SUPPORTED
    assert verdict("He should arrive by 10:20.", slot)[0] == UNSUPPORTED


def test_a_bare_hour_something_starts_from() -> None:
    hall = (
        "Time          Court 1           Court 3\n"
        "19:00-20:00   Futsal            Futsal\n"
        "20:00-21:00   Volleyball club   Pay & play badminton"
    )
    assert verdict("Pay-and-play badminton is on court 3 from 8, when the lights dim.", hall)[
        0
    ] == SUPPORTED
    assert verdict("Pay-and-play badminton is on court 3 from 10, when the lights dim.", hall)[
        0
    ] == UNSUPPORTED
    # a count after "from" is no hour
    assert verdict("Pay-and-play badminton is on court 3 from 8 sites.", hall)[0] == UNSUPPORTED


def test_a_range_of_hours_from_noon() -> None:
    pools = "Cedar Park Wading Pool OPEN 12:00-18:00, lifeguard on duty"
    assert verdict("Cedar Park's wading pool is open from noon to 6.", pools)[0] == SUPPORTED
    assert verdict("Cedar Park's wading pool is open from noon to 5.", pools)[0] == UNSUPPORTED


def test_a_possessive_of_a_name_the_output_writes_otherwise() -> None:
    status = 'GET https://status.quillpay.io/api/v2/summary.json\n{"name": "Payments API"}'
    assert verdict("QuillPay's Payments API is up.", status)[0] == SUPPORTED
    assert verdict("StripePay's Payments API is up.", status)[0] == UNSUPPORTED


def test_a_people_whose_country_the_output_names() -> None:
    slot = "Service: Biometrics (Schengen C, Netherlands)\nCentre: London, 66 Wilson Street"
    assert verdict("The biometrics are for the Dutch Schengen visa.", slot)[0] == SUPPORTED
    assert verdict("The biometrics are for the Belgian Schengen visa.", slot)[0] == UNSUPPORTED


def test_each_part_of_a_hyphened_name_written_its_own_way() -> None:
    job = "Source: sv-SE -> Target: pt-BR\nClient: Hallberg Medical AB"
    claim = "Your {} job for Hallberg Medical has been accepted."
    assert verdict(claim.format("Swedish-to-Brazilian-Portuguese"), job)[0] == SUPPORTED
    assert verdict(claim.format("Danish-to-Brazilian-Portuguese"), job)[0] == UNSUPPORTED
    assert verdict(claim.format("Swedish-to-Mexican-Spanish"), job)[0] == UNSUPPORTED


def test_a_first_word_asking_the_reader_is_no_name() -> None:
    vet = 'Patient: "Pickle" (feline)\nAdmission: Tuesday 2026-09-29, 08:15-08:45'
    assert verdict("Bring Pickle in on Tuesday between 8:15 and 8:45.", vet)[0] == SUPPORTED
    assert verdict("Bring Mittens in on Tuesday between 8:15 and 8:45.", vet)[0] == UNSUPPORTED
    # a first name before a name is still one
    assert verdict("Nick Pickle comes in on Tuesday.", vet)[0] == UNSUPPORTED


def test_a_comparison_does_not_reach_over_though() -> None:
    freezer = (
        "Setpoint: -22.0 °C\nMin: -23.4 °C   Max: -17.9 °C   Mean: -21.6 °C\n"
        "Excursions above -18.0 °C: 1 (duration 11 min)"
    )
    claim = (
        "The freezer averaged -21.6 °C against its -22 °C setpoint, though it had one "
        "excursion above -18 °C."
    )
    assert verdict(claim, freezer)[0] == SUPPORTED
    assert verdict("It averaged -21.6 °C, above -18 °C.", freezer)[0] == UNSUPPORTED


def test_a_cell_beside_the_next_item_of_a_list_is_not_that_items() -> None:
    rsvp = (
        "RSVP export - Lowe & Bianchi wedding\n"
        "Guest           Attending   Main course            Dietary note\n"
        "Clara Bianchi   yes         Sea bass               -\n"
        "Owen Lowe       yes         Beef fillet            -\n"
        "Rosa Fenwick    yes         Mushroom risotto (V)   coeliac\n"
        "Tilly Marsh     yes         Beef fillet            nut allergy"
    )
    claim = "Owen Lowe chose the beef fillet, Clara Bianchi the {} and Rosa Fenwick the risotto."
    assert verdict(claim.format("sea bass"), rsvp)[0] == SUPPORTED
    assert verdict("Tilly Marsh chose the sea bass.", rsvp)[0] == UNSUPPORTED


# -- rules-v39 -------------------------------------------------------------------------------
def test_mar_capitalised_is_march() -> None:
    plan = "N: 220 kg N/ha split over 3 dressings (Feb, Mar, Apr)"
    assert verdict("Nitrogen is split across February, March and April.", plan)[0] == SUPPORTED
    assert verdict("Nitrogen is split across February, March and April.", plan.replace(
        "Mar, ", ""))[0] == UNSUPPORTED
    # "mar" in lower case is the word
    assert verdict("Nitrogen goes on in March.", "Heavy rain may mar the dressing")[
        0
    ] == UNSUPPORTED


def test_a_unit_of_a_kind_the_output_writes_no_unit_of() -> None:
    port = "Gi1/0/7   printer-2F    connected     30      a-full  a-100"
    assert verdict("The printer is up on VLAN 30 at 100 Mbps.", port)[0] == SUPPORTED
    assert verdict("The printer is up on VLAN 30 at 1000 Mbps.", port)[0] == UNSUPPORTED
    # against a unit of its kind the output writes, a unit is held
    assert verdict("The printer is up on VLAN 30 at 100 Gbps.", port + "\nUplink: 100 Mbps")[
        0
    ] == UNSUPPORTED


def test_a_rate_a_frequency_or_a_size_from_its_smaller_units() -> None:
    probe = "frequency(48)=1500345728\nbit_rate=3029997\ngzip_min_length 1024;"
    assert verdict("The core is clocked at about 1.5 GHz.", probe)[0] == SUPPORTED
    assert verdict("The core is clocked at about 1.8 GHz.", probe)[0] == UNSUPPORTED
    assert verdict("It streams at roughly 3 Mbps.", probe)[0] == SUPPORTED
    assert verdict("It streams at roughly 4 Mbps.", probe)[0] == UNSUPPORTED
    assert verdict("Responses of 1 KB or more are compressed.", probe)[0] == SUPPORTED
    assert verdict("Responses of 2 KB or more are compressed.", probe)[0] == UNSUPPORTED


def test_a_standards_name_and_a_fields_name_written_without_their_dot() -> None:
    probe = "stream|codec_name=h264|width=1920|height=1080\nsensor_id,pm2_5_ugm3,pm10_ugm3"
    assert verdict("The transcoded file is 1080p H.264.", probe)[0] == SUPPORTED
    assert verdict("The transcoded file is 1080p H.265.", probe)[0] == UNSUPPORTED
    assert verdict("PM2.5 is measured at the gate.", probe)[0] == SUPPORTED
    assert verdict("PM1.0 is measured at the gate.", probe)[0] == UNSUPPORTED


def test_a_day_of_the_year_known_by_name() -> None:
    order = "Customer: L. Okafor - Collect: 24 Dec, 08:00-10:00 slot"
    assert verdict("Collect the order on Christmas Eve between 8 and 10 am.", order)[
        0
    ] == SUPPORTED
    assert verdict("Collect the order on Boxing Day between 8 and 10 am.", order)[
        0
    ] == UNSUPPORTED
    assert verdict("The party is on Halloween.", "Party: 2026-10-31")[0] == SUPPORTED
    # its words still count as the claim's words, as a passage of a document is read
    said = read_facts("They were bottom of the table on Christmas Day.", claim=True)
    assert said.dates and said.content_stems == read_facts(
        "They were bottom of the table on christmas day.", claim=True
    ).content_stems


def test_not_for_a_span_of_time_says_when() -> None:
    report = "Result: PASS - next retest in 10 years"
    assert verdict("The accession passed and won't be retested for ten years.", report)[
        0
    ] == SUPPORTED
    assert verdict("The accession passed and won't be retested.", report)[0] == CONTRADICTED
    # the span of time is the negated verb's, not the next one's
    quotes = "Quotes are free and remain valid for 90 days."
    assert verdict("Quotes are not free and hold for 90 days.", quotes)[0] == CONTRADICTED
    # "for" what is not a span of time is no when
    tent = "The tent is suitable for children aged 3 and up."
    assert verdict("The tent isn't suitable for children.", tent)[0] == CONTRADICTED


def test_a_city_the_output_writes_in_its_own_language() -> None:
    ticket = "Train: ICE 1007  Berlin Hbf 08:34 -> München Hbf 12:39"
    assert verdict("You're on ICE 1007 from Berlin at 8:34 to Munich at 12:39.", ticket)[
        0
    ] == SUPPORTED
    assert verdict("You're on ICE 1007 from Berlin at 8:34 to Vienna at 12:39.", ticket)[
        0
    ] == UNSUPPORTED


def test_a_clause_ending_on_its_negation_denies_its_subject() -> None:
    ssl = "HSTS: Yes (max-age=31536000)\nOCSP stapling: No"
    assert verdict("HSTS is enabled, though OCSP stapling isn't.", ssl)[0] == SUPPORTED
    assert verdict("OCSP stapling is enabled, though HSTS isn't.", ssl)[0] == CONTRADICTED


def test_a_clause_and_joins_with_its_own_subject_is_its_own() -> None:
    s3 = (
        '{"PublicAccessBlockConfiguration": {"BlockPublicAcls": true, "IgnorePublicAcls": true,\n'
        '  "BlockPublicPolicy": true, "RestrictPublicBuckets": true}}\n'
        '{"PolicyStatus": {"IsPublic": false}}'
    )
    claim = "The bucket has all four public-access blocks turned on and its bucket policy {} public."
    assert verdict(claim.format("isn't"), s3)[0] == SUPPORTED
    assert verdict(claim.format("is"), s3)[0] == CONTRADICTED


def test_a_denial_a_fields_label_makes() -> None:
    spec = "Connection: 2.4 GHz FHSS, closed system \u2014 works without Wi-Fi or app: YES"
    assert verdict("It works without Wi-Fi or an app.", spec)[0] == SUPPORTED
    assert verdict("It works without Wi-Fi or an app.", spec.replace("YES", "NO"))[
        0
    ] == CONTRADICTED
    # a label's denial is the line's own only where the line gives it a yes or a no
    course = (
        "Included: course materials, placement test\n"
        "Not included: accommodation, airport transfer, DELE exam fee"
    )
    assert verdict("Course materials come with it, but accommodation is not included.", course)[
        0
    ] == SUPPORTED


# -- rules-v40 -------------------------------------------------------------------------------
def test_a_name_by_its_first_word_and_the_others_initials() -> None:
    usage = "GLACIER_IR               410,335       12.40 TiB\nDEEP_ARCHIVE    22,118   48.72 TiB"
    assert verdict("Glacier Instant Retrieval holds about 410,000 objects.", usage)[0] == SUPPORTED
    assert verdict("Glacier Flexible Retrieval holds about 410,000 objects.", usage)[
        0
    ] == UNSUPPORTED


def test_a_standards_name_written_with_a_hyphen_or_without() -> None:
    check = "$ sha256sum -c SHA256SUMS --ignore-missing\ngrainline-cli_arm64.tar.gz: FAILED"
    assert verdict("The arm64 tarball failed its SHA-256 check.", check)[0] == SUPPORTED
    assert verdict("The arm64 tarball failed its SHA-512 check.", check)[0] == UNSUPPORTED
    # a name not found so is read on by the other readings ("week-12" for "week 12")
    visits = "Visit 4 (week 12): 2026-03-19 10:30  questionnaire only"
    assert verdict("The week-12 visit on March 19 is just a questionnaire.", visits)[
        0
    ] == SUPPORTED


def test_sizes_in_the_plural() -> None:
    quote = '1     2x6x12 SPF #2 kiln-dried     48    $9.85\n  2 x 7x5" prints'
    assert verdict("It includes 48 kiln-dried 2x6x12s and two 7x5s.", quote)[0] == SUPPORTED
    assert verdict("It includes 48 kiln-dried 2x6x10s.", quote)[0] == UNSUPPORTED


def test_a_number_written_in_groups_of_digits() -> None:
    lookup = '{"phone_number": "+447700900431", "country_code": "GB", "valid": true}'
    assert verdict("+44 7700 900431 checks out as a valid UK number.", lookup)[0] == SUPPORTED
    assert verdict("+44 7700 900413 checks out as a valid UK number.", lookup)[0] == UNSUPPORTED
    assert verdict("+44 7700 900431 checks out as a valid Irish number.", lookup)[
        0
    ] == UNSUPPORTED


def test_aviation_date_time_groups_and_zulu_times() -> None:
    advisory = (
        "DTG: 20260417/0615Z\nVOLCANO: GRIMSVOTN 373010\n"
        "ERUPTION DETAILS: ERUPTION STARTED AT 0450Z. ASH PLUME OBS TO FL300\n"
        "NXT ADVISORY: 20260417/1200Z"
    )
    assert verdict("Grimsvotn started erupting at 04:50 UTC on April 17.", advisory)[
        0
    ] == SUPPORTED
    assert verdict("Grimsvotn started erupting at 05:50 UTC on April 17.", advisory)[
        0
    ] == UNSUPPORTED
    assert verdict("The next advisory is due at 12:00 UTC.", advisory)[0] == SUPPORTED
    assert verdict("The next advisory is due at 12:30 UTC.", advisory)[0] == UNSUPPORTED


def test_a_name_of_a_class() -> None:
    booking = "Vehicle group: C (Seat Leon or similar), manual, 5 seats"
    assert verdict("Your manual Seat Leon-class car is booked.", booking)[0] == SUPPORTED
    assert verdict("Your manual Seat Ibiza-class car is booked.", booking)[0] == UNSUPPORTED


def test_a_days_number_before_a_range_is_no_hour() -> None:
    booking = "Pick-up: 2026-08-11 14:00 | Return: 2026-08-18 10:00 (same location)"
    assert verdict("It's yours from 2 pm on August 11 to 10 am on August 18.", booking)[
        0
    ] == SUPPORTED
    assert verdict("The desk is open from 9 to 11 am.", booking)[0] == UNSUPPORTED


def test_a_span_of_years_with_the_second_written_short() -> None:
    notice = "Tax year: 6 April 2026 to 5 April 2027\nYour tax code: 1105L"
    assert verdict("Your code for 2026-27 is 1105L.", notice)[0] == SUPPORTED
    assert verdict("Your code for 2026-28 is 1105L.", notice)[0] == UNSUPPORTED
    assert verdict("Your code for 2027-28 is 1105L.", notice)[0] == UNSUPPORTED


# -- rules-v41 -------------------------------------------------------------------------------
def test_an_acronym_of_the_trade_where_the_output_writes_no_other() -> None:
    domains = " Id   Name        State\n 3    pihole      running\n -    media-srv   shut off"
    assert verdict("The pihole VM is running, while media-srv is shut off.", domains)[
        0
    ] == SUPPORTED
    # against another the output writes, in any case, it is held
    ufw = "443/tcp                    ALLOW IN    Anywhere"
    assert verdict("Port 443 over UDP is allowed in from anywhere.", ufw)[0] == UNSUPPORTED


def test_polarity_left_to_the_line_that_states_it_as_closely() -> None:
    booking = (
        "Riverside Community Hospital - Hydrotherapy booking\n"
        "Hospital transport: NOT booked - patient to arrange own travel"
    )
    assert verdict("Hospital transport hasn't been booked.", booking)[0] == SUPPORTED


def test_a_plural_in_ies() -> None:
    survey = "Species                 Count\nSmall Red Damselfly      14"
    assert verdict("There were 14 Small Red Damselflies.", survey)[0] == SUPPORTED
    assert verdict("There were 14 Small Red Dragonflies.", survey)[0] == UNSUPPORTED


def test_a_date_a_path_writes_as_its_folders() -> None:
    listing = "2026-01-11 03:14:53    3.9 MiB 2025/12/31/IMG_88214.jpg"
    assert verdict("The last entries are December 31 photos.", listing)[0] == SUPPORTED
    assert verdict("The last entries are December 30 photos.", listing)[0] == UNSUPPORTED
    assert verdict("It holds photos of December 31.", "s3://photos/2025/12/31/IMG_1.jpg")[
        0
    ] == SUPPORTED


def test_a_name_with_its_slash_encoded_in_a_url() -> None:
    call = "$ glab api projects/ops%2Fledger-sync/protected_tags"
    assert verdict("In ops/ledger-sync, tags are protected.", call)[0] == SUPPORTED
    assert verdict("In ops/ledger-lock, tags are protected.", call)[0] == UNSUPPORTED


def test_a_bare_range_of_hours_before_is() -> None:
    permit = "Date: Sat 2026-06-13, 11:00-17:00\nStatus: APPROVED"
    assert verdict("The permit for June 13 from 11 to 5 is approved.", permit)[0] == SUPPORTED


def test_a_count_times_a_quantity() -> None:
    account = "Clay purchased this month: 2 \u00d7 12.5 kg stoneware (\u00a336.00)"
    assert verdict("You've bought 25 kg of stoneware this month.", account)[0] == SUPPORTED
    assert verdict("You've bought 25 lb of stoneware this month.", account)[0] == UNSUPPORTED
    assert verdict("You've bought 30 kg of stoneware this month.", account)[0] == UNSUPPORTED


# -- rules-v42 -------------------------------------------------------------------------------
def test_a_price_in_hundredths_joined_to_its_number() -> None:
    search = "TLV75533PDBVR  Texas Instruments  0  $0.29  Active - backorder"
    assert verdict("The 29-cent TLV75533 is on backorder.", search)[0] == SUPPORTED
    assert verdict("The 39-cent TLV75533 is on backorder.", search)[0] == UNSUPPORTED


def test_a_condition_closed_by_a_comma_states_nothing() -> None:
    rule = "Wet weather: sheep must be housed dry the night before or run moves +1 day"
    claim = "If the sheep aren't housed dry the night before, the run moves back a day."
    assert verdict(claim, rule)[0] == SUPPORTED
    # without the comma, the condition is read with what follows it
    booking = "Vans must book a slot online. Cars do not need to book."
    assert verdict("If you're coming in a car you'll need to book a slot.", booking)[
        0
    ] == CONTRADICTED


def test_half_past_an_hour_as_british_english_says_it() -> None:
    voicemail = "\"We're open till half five weekdays and ten till one on Saturday.\""
    assert verdict("It's open until 5:30 p.m. on weekdays.", voicemail)[0] == SUPPORTED
    assert verdict("It's open until 6:30 p.m. on weekdays.", voicemail)[0] == UNSUPPORTED


# -- rules-v43 -------------------------------------------------------------------------------
def test_an_operating_system_named_by_its_build_tag() -> None:
    wheels = (
        "fastgrid-3.4.1-cp312-cp312-manylinux_2_28_x86_64.whl\n"
        "fastgrid-3.4.1-cp312-cp312-macosx_11_0_arm64.whl"
    )
    assert verdict("There is a Linux wheel and an Apple Silicon Mac wheel.", wheels)[0] == SUPPORTED
    assert verdict("There is a Windows wheel too.", wheels)[0] == UNSUPPORTED
    jobs = "test (windows-2022, py3.12)   failure\ntest (ubuntu-24.04, py3.12)   success"
    assert verdict("The Linux job passed but the Windows one failed.", jobs)[0] == SUPPORTED
    adb = "$ adb shell getprop ro.build.version.release\n[15]"
    assert verdict("The phone runs Android 15.", adb)[0] == SUPPORTED
    assert verdict("The phone runs Android 15.", "[ro.build.version.release]: [15]")[
        0
    ] == UNSUPPORTED


def test_versions_of_cpython_by_their_wheel_tags() -> None:
    wheels = (
        "quillmath-2.4.1-cp311-cp311-manylinux_2_17_x86_64.whl\n"
        "quillmath-2.4.1-cp312-cp312-manylinux_2_17_x86_64.whl"
    )
    assert verdict("It has wheels for Python 3.11 and 3.12 on x86-64 Linux.", wheels)[
        0
    ] == SUPPORTED
    assert verdict("It has wheels for Python 3.11 and 3.13 on x86-64 Linux.", wheels)[
        0
    ] == UNSUPPORTED
    # the evidence names Python too: the versions are still read from the tags
    named = wheels + "\ndata-requires-python: >=3.11"
    assert verdict("Both need Python 3.11 or 3.12.", named)[0] == SUPPORTED
    assert verdict("Both need Python 3.11 or 3.10.", named)[0] == UNSUPPORTED


def test_a_title_before_a_name_by_its_initials() -> None:
    listing = "2      10:00  R v Dominic Pellew     Sentence          DJ A. Okonkwo"
    assert verdict("Pellew is sentenced before District Judge Okonkwo.", listing)[0] == SUPPORTED
    assert verdict("Pellew is sentenced before Circuit Judge Okonkwo.", listing)[0] == UNSUPPORTED
    assert verdict("Pellew is sentenced before District Judge Hale.", listing)[0] == UNSUPPORTED


def test_an_opening_verb_before_a_name_is_no_name() -> None:
    quote = "Horses: Bramble and Tiger Lily, Malton -> Hartpury (198 miles)"
    assert verdict("Moving Bramble to Hartpury is booked.", quote)[0] == SUPPORTED
    assert verdict("Moving Juniper to Hartpury is booked.", quote)[0] == UNSUPPORTED


def test_a_word_an_agent_writes_of_a_tool() -> None:
    sent = "Test email sent: 2026-09-24 to design@hollowbrookarts.org"
    assert verdict("A test went to the design inbox on September 24.", sent)[0] == SUPPORTED
    feed = "W3C Feed Validation Service\nResult: This is a valid Atom 1.0 feed."
    assert verdict("The validator says the feed is valid Atom 1.0.", feed)[0] == SUPPORTED
    assert verdict("The validator says the feed is valid Atom 1.0 and RSS 2.0.", feed)[
        0
    ] == UNSUPPORTED


def test_a_joined_identifier_written_another_way() -> None:
    log = "2026-10-07  Red-flanked Bluetail  1 1st-winter  Holme Dunes"
    assert verdict("A first-winter Red-flanked Bluetail was at Holme Dunes.", log)[0] == SUPPORTED
    assert verdict("A second-winter Red-flanked Bluetail was at Holme Dunes.", log)[
        0
    ] == UNSUPPORTED
    wheel = "quillmath-2.4.1-cp312-cp312-manylinux_2_17_x86_64.whl"
    assert verdict("There is an x86-64 wheel.", wheel)[0] == SUPPORTED


def test_a_margin_worked_out_against_a_limit() -> None:
    sheet = "Ramp weight          2,475 lb\nMax ramp weight 2,558 lb - WITHIN LIMITS"
    claim = "It comes out at 2,475 lb, 83 lb under the 2,558 lb maximum."
    assert verdict(claim, sheet)[0] == SUPPORTED
    assert verdict(claim.replace("83", "93"), sheet)[0] == UNSUPPORTED
    log = "07:02:50 ERROR pump P2 motor temp 94 C (limit 90 C), tripped"
    # a reading, not a margin: the comma parts it from "over the limit"
    assert verdict("P2 tripped after reaching 97 °C, over the 90 °C limit.", log)[
        0
    ] == UNSUPPORTED


def test_a_short_dot_leader_ends_no_sentence() -> None:
    listing = "Amenities:\n  Wi-Fi ............ yes\n  Washing machine .. no\n  Pets ... not allowed"
    assert verdict("There's no washing machine.", listing)[0] == SUPPORTED
    assert verdict("Pets aren't allowed.", listing)[0] == SUPPORTED
    assert evidence_sentences(listing)[2:] == ["Washing machine .. no", "Pets ... not allowed"]
    # an ellipsis after a word still ends its sentence
    assert evidence_sentences("It stopped... Then it restarted.") == [
        "It stopped...", "Then it restarted.",
    ]


def test_a_state_still_to_be_reached_agrees_with_its_denial() -> None:
    note = "Ribbons & elastic: not sewn (customer to sew)"
    assert verdict("The ribbons and elastic still need to be sewn on at home.", note)[
        0
    ] == SUPPORTED
    assert verdict("The ribbons and elastic are already sewn on.", note)[0] == CONTRADICTED


# -- rules-v44 -------------------------------------------------------------------------------
def test_a_hedged_duration_in_hours_and_minutes() -> None:
    job = "Estimated print time: 4h 38m\nFilament: 34.7 g"
    assert verdict("It should take about 4 hours 40 minutes.", job)[0] == SUPPORTED
    assert verdict("It should take 4 hours 40 minutes.", job)[0] == UNSUPPORTED  # not hedged
    assert verdict("It should take about 4 hours 50 minutes.", job)[0] == UNSUPPORTED
    track = "Distance: 17.4 km\nMoving time:     5:47:10"
    assert verdict("You were moving for just under 5 hours 50 minutes.", track)[0] == SUPPORTED


def test_a_time_of_day_in_four_digits_before_its_zone() -> None:
    alert = "Threshold Reached: 2026 Jan 17 0351 UTC\nPeak Flux: M6.3 at 0358 UTC"
    assert verdict("The flare peaked at 03:58 UTC.", alert)[0] == SUPPORTED
    assert verdict("The flare peaked at 03:48 UTC.", alert)[0] == UNSUPPORTED


def test_an_identifier_of_initials_and_a_number() -> None:
    report = "Reason: Assessment Objective 3 (recording ideas) over-credited\nAO1, AO2, AO4: in line"
    assert verdict("The problem was AO3, recording ideas.", report)[0] == SUPPORTED
    assert verdict("The problem was AO5, recording ideas.", report)[0] == UNSUPPORTED


def test_kubernetes_and_a_technician_as_agents_write_them() -> None:
    chart = "$ helm show chart harborline/legacy-queue\nkubeVersion: \">=1.22.0 <1.30.0\""
    assert verdict("It supports Kubernetes 1.22 up to 1.30.", chart)[0] == SUPPORTED
    assert verdict("It supports OpenShift 1.22 up to 1.30.", chart)[0] == UNSUPPORTED
    order = "Dispatched: Kieran Mbeki (Tier 2 HVAC) - ETA 14:30"
    assert verdict("Kieran Mbeki, a tier-2 HVAC tech, arrives around 2:30 pm.", order)[
        0
    ] == SUPPORTED


def test_a_bound_is_no_negation() -> None:
    ticket = "Entry: Gate 4 - doors open 13:30\nBag policy: clear bags up to A4 only"
    assert verdict("Bring only a clear bag no bigger than A4.", ticket)[0] == SUPPORTED
    rules = "Carry-on: bags are not allowed in the hall"
    assert verdict("Bags are allowed in the hall.", rules)[0] == CONTRADICTED


# -- rules-v45 -------------------------------------------------------------------------------
def test_the_time_between_two_times_of_one_line() -> None:
    report = "Submitted: 2026-03-27 23:41 (deadline 23:59)\nWord count: 3,412"
    assert verdict("It was submitted 18 minutes before the deadline.", report)[0] == SUPPORTED
    assert verdict("It was submitted 28 minutes before the deadline.", report)[0] == UNSUPPORTED
    # two times on different lines are not one line's pair
    apart = "Submitted: 23:41\nDeadline: 23:59"
    assert verdict("It was submitted 18 minutes before the deadline.", apart)[0] == UNSUPPORTED


def test_an_acronym_starting_a_word_that_is_no_word() -> None:
    status = '$ curl -s "https://hstspreload.org/api/v2/status?domain=ledgerbird.app"'
    assert verdict("ledgerbird.app is on the HSTS preload list.", status)[0] == SUPPORTED
    assert verdict("ledgerbird.app is on the HPKP preload list.", status)[0] == UNSUPPORTED
    # the longer word is a word of English: not named after the acronym
    assert verdict("The TRAN code is set.", "transfer pending")[0] == UNSUPPORTED


def test_a_word_and_a_number_by_its_initial() -> None:
    hold = "Status: held for L2 review - analyst assigned: M. Castellanos"
    assert verdict("M. Castellanos has the level-2 review.", hold)[0] == SUPPORTED
    assert verdict("M. Castellanos has the level-3 review.", hold)[0] == UNSUPPORTED


def test_module_formats_by_their_file_extensions() -> None:
    exports = "exports = { types: './dist/index.d.ts', import: './dist/index.mjs' }"
    assert verdict("It ships TypeScript declarations and an ESM build.", exports)[0] == SUPPORTED
    assert verdict("It ships TypeScript declarations and a CommonJS build.", exports)[
        0
    ] == UNSUPPORTED


def test_optional_is_not_required() -> None:
    invite = "Dress code: black tie optional - lounge suits welcome"
    assert verdict("Black tie isn't required, since lounge suits are welcome.", invite)[
        0
    ] == SUPPORTED
    assert verdict("Black tie is required, and lounge suits are welcome.", invite)[0] != SUPPORTED


# -- rules-v46 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("output", "said", "other"),
    [
        ("$ pip index versions fastparse\nfastparse (2.4.1)\nAvailable versions: 2.4.1, 2.4.0",
         "The newest fastparse on {} is 2.4.1.", "Anaconda"),
        ("$ sudo tcpdump -nn host 10.0.0.5 and port 5432\n10.0.0.9.40212 > 10.0.0.5.5432: "
         "Flags [R.], length 0", "The {} server at 10.0.0.5 reset the connection.", "MySQL"),
        ("$ wg show wg0\ninterface: wg0\n  listening port: 51820\npeer: 4Xk...=\n"
         "  allowed ips: 10.8.0.0/24", "The {} interface listens on port 51820.", "OpenVPN"),
        ("$ cargo search tideline --limit 2\ntideline = \"0.6.1\"    # Tide tables",
         "The latest tideline on {} is 0.6.1.", "PyPI"),
        ("-- The C compiler identification is GNU 13.2.0\n-- Detecting C compiler ABI info",
         "The C compiler is {} 13.2.0.", "Clang"),
        ("Chain INPUT (policy DROP)\nACCEPT  tcp  --  0.0.0.0/0  0.0.0.0/0  tcp dpt:22\n"
         "ACCEPT  tcp  --  0.0.0.0/0  0.0.0.0/0  tcp dpt:443",
         "Only {} on port 22 and HTTPS on 443 get through.", "RDP"),
    ],
)
def test_tools_and_services_named_by_what_only_they_write(
    output: str, said: str, other: str
) -> None:
    name = {"Anaconda": "PyPI", "MySQL": "Postgres", "OpenVPN": "WireGuard", "PyPI": "crates.io",
            "Clang": "GCC", "RDP": "SSH"}[other]
    assert verdict(said.format(name), output)[0] == SUPPORTED
    found = verdict(said.format(other), output)
    assert found[0] == UNSUPPORTED and other in found[1]


def test_a_country_by_its_code_in_a_country_column() -> None:
    storage = (
        "country   full_%   stored_TWh\nDE         31.8       80.1\nNL         22.4       32.3\n"
        "AT         46.9       47.1"
    )
    claim = "Austria's storage is the fullest at about 47%, the Netherlands' the lowest at 22.4%."
    assert verdict(claim, storage)[0] == SUPPORTED
    assert verdict(claim.replace("Netherlands'", "Belgium's"), storage)[0] == UNSUPPORTED
    # a first cell is a country's code only under a country column
    rooms = "room   rate\nAT     120\nNL     95"
    assert verdict("The Netherlands room costs 95.", rooms)[0] == UNSUPPORTED


def test_a_name_the_evidence_writes_as_one_word() -> None:
    caa = '$ dig +short CAA halloway.example\n0 issue "letsencrypt.org"\n0 issue "sectigo.com"'
    assert verdict("Let's Encrypt and Sectigo may issue for halloway.example.", caa)[
        0
    ] == SUPPORTED
    found = verdict("Let's Encrypt and DigiCert may issue for halloway.example.", caa)
    assert found[0] == UNSUPPORTED and "DigiCert" in found[1]


# -- rules-v47 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("output", "claim"),
    [
        ("Cave B: 11.5 C, 94% RH\nWheels CG-1041, CG-1042: 110 days, rind brushed weekly",
         "Both wheels are 110 days old in Cave B at 11.5 C, their rinds brushed weekly to keep "
         "the mould down."),
        ("Permit CS-0417: wet well 2, Redbrook\nGas test: H2S 0 ppm, O2 20.9%, LEL 0%",
         "The gas test read 0 ppm of hydrogen sulphide and 20.9% oxygen in wet well 2."),
        ("Noh stage, Yarai Hall - November\n14 Nov 14:00 Hagoromo\n21 Nov 14:00 Funa Benkei",
         "The November programme at Yarai Hall opens with Hagoromo on November 14 at 2 pm."),
        ("Clinic: Ward 7, Royal Eastfield\nReferral: cardiology, routine\nAge: 9",
         "The 9-year-old's routine paediatric cardiology referral is to Ward 7."),
    ],
)
def test_british_spellings_are_words_not_names(output: str, claim: str) -> None:
    assert verdict(claim, output)[0] == SUPPORTED


def test_a_name_in_lower_case_is_still_held() -> None:
    # a name with a British-looking spelling inside stays a name: "traefik" is no "trefik"
    proxy = "$ docker ps --format '{{.Names}}'\nnginx-edge\napi-1"
    assert verdict("Requests reach api-1 through nginx-edge.", proxy)[0] == SUPPORTED
    found = verdict("Requests reach api-1 through traefik.", proxy)
    assert found[0] == UNSUPPORTED and "traefik" in found[1]


# -- rules-v48 -------------------------------------------------------------------------------
def test_a_weekday_by_its_code_in_a_recurrence_rule() -> None:
    policy = (
        "maintenancePolicy:\n  recurrence: FREQ=WEEKLY;BYDAY=SA,SU\n"
        "  startTime: '2026-01-03T02:00:00Z'\n  endTime: '2026-01-03T06:00:00Z'"
    )
    said = "Maintenance only happens on Saturdays and {} between 02:00 and 06:00 UTC."
    assert verdict(said.format("Sundays"), policy)[0] == SUPPORTED
    found = verdict(said.format("Mondays"), policy)
    assert found[0] == UNSUPPORTED and "Mondays" in found[1]


def test_a_managed_cluster_s_platform_by_its_tools() -> None:
    nodegroup = (
        "$ aws eks describe-nodegroup --cluster-name shop-prod --nodegroup-name batch\n"
        '{"status": "ACTIVE", "ami": "AL2023_x86_64_STANDARD", "version": "1.29"}'
    )
    said = "The batch node group runs {} 2023 with Kubernetes 1.29."
    assert verdict(said.format("Amazon Linux"), nodegroup)[0] == SUPPORTED
    found = verdict(said.format("Rocky Linux"), nodegroup)
    assert found[0] == UNSUPPORTED and "Rocky" in found[1]
    headers = "Strict-Transport-Security   max-age=31536000\nContent-Security-Policy     MISSING"
    assert verdict("HSTS is set, but there is no Content-Security-Policy.", headers)[
        0
    ] == SUPPORTED


# -- rules-v49 -------------------------------------------------------------------------------
def test_a_joined_word_the_output_writes_inflected_otherwise_is_that_word() -> None:
    log = "Batch 214 FV-3 SG 1.009\nNext step: dry-hop & cold crash when SG stable 3 days"
    assert verdict("Once gravity is stable it gets dry-hopped.", log)[0] == SUPPORTED
    certificate = "VEHICLE TYPE-APPROVAL CERTIFICATE\nType/Variant: KV-Transit / Crew Cab 3.5t"
    assert verdict("The KV-Transit crew cab is type-approved.", certificate)[0] == SUPPORTED
    # another word in the same scheme is still another one ("dry-aged" is no "dry-hop")
    found = verdict("Once gravity is stable it gets dry-aged.", log)
    assert found[0] == UNSUPPORTED and "dry-aged" in found[1]


def test_a_yes_no_field_named_by_its_verb() -> None:
    contract = "Contract: MSA-2291\nAuto-renewal: No\nNotice period: 60 days"
    assert verdict("The contract doesn't auto-renew.", contract)[0] == SUPPORTED
    found = verdict("The contract auto-renews.", contract)
    assert found[0] != SUPPORTED and "Auto-renewal: No" in found[1]
    renewing = "Contract: GL-88\nAuto-renewal: yes, 12 months\nNotice period: 30 days"
    assert verdict("The contract auto-renews for a year.", renewing)[0] == SUPPORTED


# -- rules-v50 -------------------------------------------------------------------------------
CERT_DATES = (
    "subject=CN = billing.kestrelworks.io\nissuer=C = US, O = Let's Encrypt, CN = R11\n"
    "notBefore=Aug  3 06:14:52 2026 GMT\nnotAfter=Nov  1 06:14:51 2026 GMT"
)


def test_a_number_of_days_two_dates_of_the_output_lie_apart() -> None:
    said = "It was issued on August 3 and expires on November 1, so it's a {}-day cert."
    assert verdict(said.format(90), CERT_DATES)[0] == SUPPORTED
    found = verdict(said.format(60), CERT_DATES)
    assert found[0] == UNSUPPORTED and "'60'" in found[1]
    # two rows of two dates each are not one record: W8's 11 days is not 14 (05-11 to 05-24)
    log = (
        "Row  Formed      Day  Core temp  Last turned  Days >55C\n"
        "W8   2026-05-11  15   58         2026-05-22   11\n"
        "W9   2026-05-19   7   41         2026-05-24    0"
    )
    assert verdict("W8 has 11 days above 55 C so far.", log)[0] == SUPPORTED
    assert verdict("W8 has 14 days above 55 C so far.", log)[0] == UNSUPPORTED


def test_a_percentage_rounded_from_a_fraction_or_from_its_key_s_decimal() -> None:
    node = '{"blocks": 871204, "headers": 902517, "verificationprogress": 0.9412}'
    assert verdict("Verification progress is at about 94%.", node)[0] == SUPPORTED
    assert verdict("Verification progress is at about 97%.", node)[0] == UNSUPPORTED
    ocr = "page_003.png  lang=eng  words=57   mean_conf=48.3  status=low_confidence"
    assert verdict("Page 3 only managed 48% confidence.", ocr)[0] == SUPPORTED
    # a decimal of another key rounds to it by chance: no support
    tank = "level_pct: 63\nwater_temp_c: 14.2\npump: idle\nbattery_pct: 41"
    assert verdict("The sensor's battery is at 41%.", tank)[0] == SUPPORTED
    assert verdict("The sensor's battery is at 14%.", tank)[0] == UNSUPPORTED


def test_services_by_their_ports_and_resources_and_cert_as_a_word() -> None:
    chain = "chain input {\n  tcp dport 22 ip saddr 192.168.40.0/24 accept\n  udp dport 51820 accept\n}"
    assert verdict("It only accepts SSH on port 22 from 192.168.40.0/24.", chain)[0] == SUPPORTED
    assert verdict("It only accepts FTP on port 22 from 192.168.40.0/24.", chain)[0] == UNSUPPORTED
    pools = "$ kubectl get nodepools\nNAME          NODES  READY\nbatch-arm64   6      True"
    assert verdict("Karpenter runs six nodes in batch-arm64.", pools)[0] == SUPPORTED
    assert verdict("Cluster Autoscaler runs six nodes in batch-arm64.", pools)[0] == UNSUPPORTED
    assert verdict("It's a standard 90-day cert.", CERT_DATES)[0] == SUPPORTED


def test_a_table_whose_first_line_is_a_row_has_no_header() -> None:
    status = (
        "Toboggan run (upper)   OPEN     groomed 07:30\n"
        "Toboggan run (lower)   CLOSED   thin snow cover\n"
        "Sledge hire            OPEN     8 GBP per 2 h\n"
        "Snow tubing            CLOSED   maintenance"
    )
    assert verdict("The upper toboggan run is open.", status)[0] == SUPPORTED
    assert verdict("The lower toboggan run is open.", status)[0] == UNSUPPORTED


# -- rules-v51 -------------------------------------------------------------------------------
def test_dates_written_as_a_month_and_day_beside_a_timestamp_or_inside_a_file_name() -> None:
    fields = (
        '{"as_of":"2026-07-08T05:30:00+09:00","fields":[{"id":"F-07","name":"Minami 1",'
        '"target_cm":"0 (mid-season drainage until 07-14)","status":"ok"}]}'
    )
    assert verdict("Minami 1 is drained until July 14.", fields)[0] == SUPPORTED
    assert verdict("Minami 1 is drained until July 24.", fields)[0] == UNSUPPORTED
    batch = 'Validation result: suite "orders_daily"   batch: orders_2026_05_11.parquet'
    assert verdict("The May 11 orders batch failed.", batch)[0] == SUPPORTED
    assert verdict("The May 12 orders batch failed.", batch)[0] == UNSUPPORTED


def test_a_port_by_its_un_locode() -> None:
    bay = (
        "Slot     Container      POD    Remarks\n"
        "220684   CAIU 558019-0  SGSIN  Reefer, plugged\n"
        "220686   MSKU 903311-6  CNSHA  IMO 3 (UN1263 paint)"
    )
    assert verdict("CAIU 558019-0 is bound for Singapore.", bay)[0] == SUPPORTED
    assert verdict("MSKU 903311-6 is bound for Shanghai.", bay)[0] == SUPPORTED
    found = verdict("MSKU 903311-6 is bound for Busan.", bay)
    assert found[0] == UNSUPPORTED and "Busan" in found[1]


def test_streets_in_the_plural_and_values_under_a_unit_s_key() -> None:
    notice = (
        "Date: Friday 2026-10-02, 16:00-19:30\n"
        "Closed to all traffic: Main St (3rd Ave to 9th Ave), Elm St (Main St to school entrance)\n"
        "Open with delays: 5th Ave crossing at Main St (police-controlled)"
    )
    said = (
        "On October 2, Main Street between 3rd and 9th {} will be closed from 4 to 7:30 pm, "
        "though you can still cross at 5th Avenue under police control."
    )
    assert verdict(said.format("Avenues"), notice)[0] == SUPPORTED
    assert verdict(said.format("Boulevards"), notice)[0] == UNSUPPORTED
    hours = "Sessions logged: 13   Hours logged: 26.0\nRequirement: 26 weeks, min 1 h/week"
    assert verdict("Eli has logged 26 hours over 13 sessions.", hours)[0] == SUPPORTED
    assert verdict("Eli has logged 26 days over 13 sessions.", hours)[0] == UNSUPPORTED


def test_a_percentage_rounded_on_the_row_its_clause_names() -> None:
    room = (
        "lot     product          hung        loss_%  target_%\n"
        "S-222   Milano           2026-09-07  34.0    32\n"
        "S-223   Chorizo picante  2026-09-21  20.3    35"
    )
    assert verdict("The chorizo is only at 20% of a 35% goal.", room)[0] == SUPPORTED
    assert verdict("The chorizo is only at 24% of a 35% goal.", room)[0] == UNSUPPORTED


# -- rules-v52 -------------------------------------------------------------------------------
def test_an_identifier_by_its_word_cut_short_or_its_initial() -> None:
    ospf = (
        "core-rtr1# show ip ospf neighbor\n"
        "Neighbor ID     Pri   State      Address         Interface\n"
        "10.0.0.2          1   FULL/DR    10.1.100.2      GigabitEthernet0/0"
    )
    assert verdict("On Gi0/0, core-rtr1 is fully adjacent with 10.0.0.2.", ospf)[0] == SUPPORTED
    found = verdict("On Gi1/0, core-rtr1 is fully adjacent with 10.0.0.2.", ospf)
    assert found[0] == UNSUPPORTED and "Gi1" in found[1]
    job = "Item: overmantel mirror, carved pine frame, c.1860\nBalance due: 1,050 GBP"
    assert verdict("Her circa-1860 overmantel mirror is ready.", job)[0] == SUPPORTED
    assert verdict("Her circa-1880 overmantel mirror is ready.", job)[0] == UNSUPPORTED


def test_smb_by_its_port_and_initials_of_a_possessive() -> None:
    log = "2026-05-19 08:02:40  IOT  192.168.30.14:49902  192.168.10.20:445  tcp  block"
    assert verdict("Its SMB connection to 192.168.10.20 was blocked.", log)[0] == SUPPORTED
    assert verdict("Its NFS connection to 192.168.10.20 was blocked.", log)[0] == UNSUPPORTED
    union = "Harrowfield Students' Union - Spring Elections 2026\nNominations close: 2026-02-20"
    assert verdict("Nominations for the SU elections close on February 20.", union)[
        0
    ] == SUPPORTED
    assert verdict("Nominations for the GA elections close on February 20.", union)[
        0
    ] == UNSUPPORTED


# -- rules-v53 -------------------------------------------------------------------------------
def test_a_span_of_hours_and_a_version_series_as_what_they_cover() -> None:
    schedule = (
        "Sat 9 Aug    09:00-18:00  open flying              CFI on site: R. Okonkwo\n"
        "Sun 10 Aug   10:00-13:00  helicopters/multirotor   CFI on site: R. Okonkwo"
    )
    said = "R. Okonkwo covers Sunday's {} helicopter slot."
    assert verdict(said.format("10-to-1"), schedule)[0] == SUPPORTED
    found = verdict(said.format("10-to-2"), schedule)
    assert found[0] == UNSUPPORTED and "10-to-2" in found[1]
    versions = "tidepool-client (2.4.1)\nAvailable versions: 2.4.1, 2.4.0, 2.3.2, 2.3.1"
    assert verdict("The last 2.3.x release was 2.3.2.", versions)[0] == SUPPORTED
    assert verdict("The last 2.2.x release was 2.3.2.", versions)[0] == UNSUPPORTED


# -- rules-v54 -------------------------------------------------------------------------------
def test_a_question_is_held_to_its_numbers_dates_and_identifiers_only() -> None:
    """An agent's closing offer asks, it does not assert: its own words ("refund request",
    "reminder") and the names of what it offers to act on ("Cargo.toml", "Dockerfile") are
    the writer's; its numbers, dates, times and identifiers still come from the output."""
    evidence = (
        "Train ICE 512 Frankfurt -> Lyon: departs 09:10, platform 7, status: cancelled. "
        "Next: TGV 9576 at 11:42, seats available. Refund: eligible."
    )
    for offer in ("Should I open a refund request with the carrier?",
                  "Want me to set a reminder?", "Would you like me to email the receipt?\u201d",
                  "Do you want the seat map (window or aisle?)",
                  "Shall I note it in your Notion travel page?",
                  "Want me to rebook you on the 11:42 TGV?"):
        assert verdict(offer, evidence)[0] == SUPPORTED, offer
    # The same words stated are held to the evidence...
    assert verdict("I opened a refund request with the carrier.", evidence)[0] == UNSUPPORTED
    assert verdict("It is noted in your Notion travel page.", evidence)[0] == UNSUPPORTED
    # ...and a number, time or identifier in a question still is.
    found, why = verdict("Want me to rebook you on the 12:42 TGV?", evidence)
    assert found == UNSUPPORTED and "12:42" in why
    found, why = verdict("Shall I rebook you on TGV 9577?", evidence)
    assert found == UNSUPPORTED and "9577" in why
    # A sentence that states before it asks is held whole.
    found, why = verdict("It leaves for Marseille at 11:42, so should I rebook you?", evidence)
    assert found == UNSUPPORTED and "Marseille" in why


# -- review of rules-v43 to rules-v45 ---------------------------------------------------------
def test_a_claim_ending_on_a_range_start_is_read_not_raised() -> None:
    # "7:30 to" at a claim's end once read a second, shadowing pattern's ":30" as an hour's
    # minute and raised (the run's judgement failed as `judge-error`)
    hours = "Opening hours: 08:00-10:00"
    assert verdict("Breakfast is served 7:30 to", hours)[0] == UNSUPPORTED
    assert verdict("Breakfast is served from 8 to 10 am.", hours)[0] == SUPPORTED


# -- the kinds of reason a verdict rests on (`judge.unsupported_kinds`) ---------------------
TARGETS = (
    "Target group: api-prod-tg (port 8443)\n"
    "TARGET             AZ          STATE      REASON\n"
    "i-0a12f 10.0.1.17  eu-west-1a  healthy    -\n"
    "i-0b77c 10.0.2.41  eu-west-1b  unhealthy  Health checks failed with code 503\n"
    "i-0c3d9 10.0.3.08  eu-west-1c  healthy    -"
)
FRIDGE = (
    "ALERT fridge-02 (Ward 3) temperature excursion\nReading: 10.9 °C for 52 min\n"
    "Probable cause: door ajar (door sensor open 01:10-02:01)"
)


@pytest.mark.parametrize(
    ("claim", "evidence", "expected", "kinds"),
    [
        ("The Oberoi family's hotel company is based in Mumbai.", HOTELS, UNSUPPORTED, ("name",)),
        ("The cheaper one is DL405, landing at 15:55 local time for 539 euros.", FLIGHTS,
         UNSUPPORTED, ("number",)),
        ("Maria Lopez's order shipped on 2026-11-27.", ORDER, UNSUPPORTED, ("date",)),
        ("The Eiffel Tower is not 330 m tall.", "The Eiffel Tower is 330 m tall.", CONTRADICTED,
         ("polarity",)),
        ("i-0c3d9 (10.0.2.41) in eu-west-1b is unhealthy.", TARGETS, UNSUPPORTED, ("state",)),
        ("Allie Goertz wrote a song about Milhouse, a popular TV character.", SONGS, UNSUPPORTED,
         ("relation",)),
        ("It averaged 3.9, up from 4.3 in the previous period.",
         "Reviews: 1,284 | Avg rating: 3.9 (prev period 4.3)", UNSUPPORTED, ("comparison",)),
        ("The Ward 3 fridge was out of range for 52 minutes because of a power cut.", FRIDGE,
         UNSUPPORTED, ("cause",)),
        ("The Oberoi family's hotel company is based in Delhi.", HOTELS, SUPPORTED, ()),
        # a hint is no verdict: a supported claim rests on nothing
        ("i-0c3d9 (10.0.2.41) is in eu-west-1b.", TARGETS, SUPPORTED, ()),
    ],
)
def test_a_verdict_names_the_kind_of_reason_it_rests_on(
    claim: str, evidence: str, expected: str, kinds: tuple[str, ...]
) -> None:
    request = JudgeRequest((claim,), (EvidenceText(evidence),), 1.0)
    (found,) = VerifierJudge().judge(request)
    assert (found.verdict, found.kinds) == (expected, kinds), found.explanation


def test_a_claim_missing_several_facts_names_each_kind_once_in_their_order() -> None:
    claim = "Maria Lopez's order went with UPS on 2026-11-27, tracking 4471902299, via UPS."
    request = JudgeRequest((claim,), (EvidenceText(ORDER),), 1.0)
    (found,) = VerifierJudge().judge(request)
    assert found.verdict == UNSUPPORTED and found.kinds == ("name", "number", "date")


def test_no_evidence_is_its_own_kind() -> None:
    request = JudgeRequest(("Delhi.", "It opened in 1937."), (EvidenceText("  "),), 1.0)
    assert [v.kinds for v in VerifierJudge().judge(request)] == [("no-evidence",)] * 2
