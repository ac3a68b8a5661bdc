"""The kinds of reason a judge's verdict rests on: a closed vocabulary, low in cardinality, so
a backend can group and route runs by why a claim was not found supported (README: "Which
attribute to alert on")."""

from __future__ import annotations

#: A name, number, date, time of day, identifier or unit the claim writes and no evidence holds.
NAME = "name"
NUMBER = "number"
DATE = "date"
TIME = "time"
IDENTIFIER = "identifier"
UNIT = "unit"
#: The evidence says the opposite (a negation flipped).
POLARITY = "polarity"
#: Another state or field value than the one the evidence gives ("closed" for open, "paid: no").
STATE = "state"
#: Facts the evidence holds, joined as it does not (another line's, another name's, never together).
RELATION = "relation"
#: A comparison or trend the evidence's own numbers deny ("higher than", "goes the other way").
COMPARISON = "comparison"
#: A cause the evidence does not give.
CAUSE = "cause"
#: Too few of the claim's words are in the evidence (or in any one passage of a document).
COVERAGE = "coverage"
#: There was no evidence to check the claim against.
NO_EVIDENCE = "no-evidence"

REASON_KINDS: tuple[str, ...] = (
    NAME, NUMBER, DATE, TIME, IDENTIFIER, UNIT, POLARITY, STATE, RELATION, COMPARISON, CAUSE,
    COVERAGE, NO_EVIDENCE,
)
#: The kinds a "not in the evidence" finding names first in its text (`name 'Lyon'`).
MISSING_FACT_KINDS: tuple[str, ...] = (NAME, NUMBER, DATE, TIME, IDENTIFIER, UNIT)
