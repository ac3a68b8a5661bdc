"""The `verifier` judge: an offline check of what a claim states against what the tools returned.

No model, no network, nothing downloaded: rules over the facts of a claim (judges/facts.py)
against an index of the evidence built once per run and read lazily: its sentences up front, the
rest (clause profiles, the stem index, segments, numbers and dates) when a claim reaches a rule
that needs it (under a millisecond for a short tool output, a few milliseconds for 32 KB:
benchmarks/bench_verifier.py). A claim is

- `contradicted` when its polarity is the opposite of every evidence sentence that states the
  same thing ("is not licensed under MIT" against "is licensed under MIT");
- `unsupported` when it names something no evidence holds: a name (or a place written as its
  code: "FRA"), a number (rounding allowed when the claim says "about"), a date (any spelling:
  "2026-11-20" is "November 20, 2026"), an identifier (version, licence, id, URL, or a joined
  word in the evidence's naming scheme: "auth-gw" beside "payments-gw"); when it binds a
  number to a name the evidence states it of another ("the Americas with 1,840,200" against
  ("EMEA", 1840200)), or says of one name what the evidence says of another; or when too few
  of its content words occur in the evidence at all (`COVERAGE_MIN`);
- over a document of prose (`DOCUMENT_MIN_SEGMENTS`: an article, a long report; an output
  laid out in lines is records, however long) a claim is held to its polarity (up to
  `SCATTER_MAX_SEGMENTS`), numbers, dates and identifiers, and to one passage
  (`PASSAGE_MIN`): a summary's names come from its byline and context as often as from the
  text, and its sentences join passages;
- `supported` otherwise, including a claim with nothing checkable in it.

Each verdict says why, naming the fact, and quotes the nearest evidence sentence, so a person
can act on it. What it cannot see: a wrong relation between facts that are all in the evidence
("First for Women was started first" when the evidence dates both magazines), and a claim that
reuses the evidence's words for something it does not say. Those need entailment (a model).
"""

from __future__ import annotations

import bisect
import datetime
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, chain, combinations, pairwise, repeat
from typing import NamedTuple

from otel_grounding.config import JudgeSettings
from otel_grounding.judge import (
    CONTRADICTED,
    MAX_EXPLANATION_CHARS,
    SUPPORTED,
    UNSUPPORTED,
    JudgeRequest,
    JudgeVerdict,
)
from otel_grounding.judges.arithmetic import (
    column_sums,
    column_totals,
    line_sums,
    multiples,
    one_step,
    three_way,
    worked_out,
    works_out,
)
from otel_grounding.judges.clock import (
    apart,
    clock_seconds,
    in_a_duration,
    in_other_units,
    on_the_clock,
    times_of_day,
    unit_after,
)
from otel_grounding.judges.facts import (
    MONTHS,
    NEGATION_SCOPE,
    NUMBER_WORDS,
    PRONOUNS,
    STOPWORDS,
    UNIT_AFTER,
    DateFact,
    NumberFact,
    TextFacts,
    clause_names,
    clause_starts,
    clauses,
    continues,
    contradicts_itself,
    evidence_sentences,
    may_negate,
    number_key,
    number_keys,
    one_clause,
    read_facts,
    sentence_profile,
    stem,
    title_like,
    word_parts,
    word_profile,
    words_of_in_order,
    words_profile,
)
from otel_grounding.judges.tables import (
    WORDED_CELL,
    Table,
    cell_number,
    csv_cells,
    csv_line,
    json_items,
    read_tables,
    record_tokens,
)
from otel_grounding.sentences import word_list

#: The rules' version, written as `judge.model`.
MODEL = "rules-v9"
#: A claim with at least this many content words is unsupported when fewer than this share
#: of them occur in the evidence (chosen on the development split and the agent-style set).
COVERAGE_MIN = 0.4
COVERAGE_MIN_WORDS = 3
#: Polarity is compared with evidence sentences holding at least this share of the claim's
#: content words (and at least `POLARITY_MIN_WORDS` of them).
POLARITY_OVERLAP = 0.6
POLARITY_MIN_WORDS = 3
POLARITY_MIN_SHARED = 2
#: A name is also covered by an evidence word it differs from only in a short ending
#: ("Korea" / "Korean"), at least this long.
NAME_PREFIX_MIN = 4
NAME_ENDING_MAX = 3
#: A name this long one letter away from an evidence word is that word misspelt.
SPELLING_MIN_CHARS = 6
#: A hedged number ("about 5") is covered by an evidence number within this relative distance.
HEDGE_TOLERANCE = 0.1
#: The names and numbers of one claim must all occur within this many consecutive evidence
#: sentences (0: one sentence).
SCATTER_WINDOW = 0
#: Numbers from this value on (years, amounts) count among a claim's facts that must be
#: stated together; smaller ones (clock times, counts) recur everywhere.
SCATTER_MIN_NUMBER = 100
#: Evidence of more segments than this is too long for the rule above.
SCATTER_MAX_SEGMENTS = 6
#: A claim says of one name what the evidence says of another when the evidence clauses
#: sharing at least this many of its other content words (and `POLARITY_OVERLAP` of them)
#: never mention its names.
SWAP_MIN_WORDS = 2
#: Evidence is read in segments about one subject: a sentence opening on a pronoun or a
#: connective continues the segment, and so does any sentence while the segment is shorter
#: than this many words (short lines of a structured tool output are one record).
SEGMENT_MIN_WORDS = 25
#: Evidence of at least this many segments is a document (an article, a long report): a claim
#: is held to one passage of it, and the names, polarity and joined-facts rules step aside (a
#: summary names what the document's byline and context name, and joins its passages).
DOCUMENT_MIN_SEGMENTS = 4
#: Over a document, a claim is unsupported when fewer than this share of its content words
#: (at least `COVERAGE_MIN_WORDS`) occur in any one segment of it, in an answer whose claims
#: hold on average fewer than this share too (one loose sentence in a drawn answer is context,
#: an answer loose throughout is not drawn from the document). Chosen on the development split.
PASSAGE_MIN = 0.5
#: A number (from `SCATTER_MIN_NUMBER` on) is bound to the name written at most this many
#: words before it ("the Americas with 1,840,200"); the evidence must state the two in one
#: record: a bracketed group holding the number and a word, or else the number's sentence.
BIND_MAX_WORDS = 6
#: An evidence "sentence" of fewer words than this is the start of the next one, cut off at
#: an abbreviation ("Robert Manoogian Jr.").
FRAGMENT_MAX_WORDS = 3
#: How much of the nearest evidence sentence a reason quotes.
#: How many tokens on either side of a number may name its own line.
ROW_BESIDE = 2
#: A key is another line's when at least this many of its clause's words are that line's.
ROW_MIN_TOKENS = 2
#: A tool output of this many lines or more is structured, not prose.
STRUCTURED_LINES = 3
#: A name this close after a number is that number's ("300 Crataegus monogyna").
BIND_AFTER_CHARS = 8
#: A total is read only from a record of at most this many numbers (more: a sum by chance).
ADD_MAX_NUMBERS = 8
#: An output of at most this many distinct numbers is also read as one record by
#: `_derived_values` (a quote's price per tonne on one line, the tonnes on another).
DERIVED_MAX_NUMBERS = 40
#: ... for a whole number of at least this much (smaller ones, many pairs make).
DERIVED_MIN = 100
#: A count written in words ("three payments of £4,000").
_COUNT_WORD = re.compile(r"\b(" + "|".join(w for w, n in NUMBER_WORDS.items() if n >= 2) + r")\b")
#: How many numbers a claim may write for its own to be worked out from (`_from_its_own`).
OWN_MAX_NUMBERS = 8
QUOTE_CHARS = 140
_APART = "never stated together"
_OTHER_WAY = "goes the other way in the evidence"
_OTHER_RECORD = "belongs to another line of the output"
_OF_ANOTHER = "said of"
_ROW_FIELD = "is what the output gives for the line the claim names"
_DENIED = "is not: its own numbers say the other way"
_PASSAGE = "one passage"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


#: A part of a hyphenated identifier that may be checked on its own: a word, or digits with
#: an ending ("18s", "3rd").
_PLAIN_PART = re.compile(r"[^\W\d_]+|\d+(?:\.\d+)?[a-z]{0,2}")
#: Units a number is joined to ("a 45-minute cleaning", "the 7.4-mile loop"): the evidence may
#: write them otherwise ("duration_min": 45, "7.4 miles").
_UNIT_WORDS = frozenset(word_list(
    "second minute hour day week month year mile km metre meter foot feet inch kg gram pound "
    "litre liter gallon percent point seat bed room page step"
))
#: Joins the evidence sentences into one string to search (no claim's fact holds it).
_SEPARATOR = "\x00"
#: How many sentences `EvidenceIndex.holding` searches first (then four times as many, ...).
_HOLDING_WINDOW = 16
#: Punctuation that a fact found as a word of the evidence is cut from (each character becomes a
#: space: the evidence's words are runs of its text, a set look-up before a scan of the text).
_WORD_CUTS = str.maketrans(dict.fromkeys(".,;:!?()[]{}\"'<>", " "))
_CUT_OR_SPACE = re.compile(r"[\s.,;:!?()\[\]{}\"'<>]")
#: A number as a record states it ("1,840,200", "1840200", "4.5"), for `records_of`.
_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.,])(?<![A-Za-z]-)\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"
    r"|(?<![\w.,])(?<![A-Za-z]-)\d+(?:\.\d+)?(?!\d)"
)
#: Words saying which way a number moved, read just before it ("shrank by 3.1%").
_RISES = frozenset(
    word_list(
        "up rise rises rose risen grew grow grows grown increased increase increases gained "
        "gain gains climbed climb jumped jump higher"
    )
)
_FALLS = frozenset(
    word_list(
        "down fall falls fell fallen shrank shrink shrinks shrunk decreased decrease decreases "
        "declined decline declines dropped drop drops lost lower"
    )
)
#: Greek letters a claim writes for the word an output spells ("ΔE" for delta_e).
_SYMBOL_NAMES = {"\u0394": "delta", "\u03a3": "sigma", "\u03bc": "mu", "\u03b1": "alpha"}
#: A common word written with one capital and a hyphen ("A-level", "T-shirt", "X-ray").
_COMMON_CAPITAL = re.compile(r"[A-Z]-[a-z]{3,}")
#: A run of three to five capitalised words ("Tree Preservation Order").
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s[A-Z][a-z]+){2,4}\b")
#: Languages by their two-letter codes ("EN>FR").
_LANGUAGES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it",
    "portuguese": "pt", "dutch": "nl", "polish": "pl", "swedish": "sv", "japanese": "ja",
    "chinese": "zh", "arabic": "ar", "russian": "ru", "greek": "el", "turkish": "tr",
}
#: Words before "up" that make it no rise ("payments coming up").
_COMING = frozenset(word_list("coming come comes came"))
_YES = frozenset(("true", "yes"))
#: A clause opening with one of these goes on about the subject before ("and is on hold").
_GOES_ON = frozenset(word_list("is are was were has have had does did can will"))
_YES_NO = _YES | {"false", "no"}
#: A unit a claim writes -> the factors from the smaller units a tool may give it in
#: ("8.4 seconds" for 8421.337 ms, "1.8 GB" for 1,843 MB); read for a number with decimals.
_SECONDS = (1e-3,)
_MINUTES = (1 / 60, 1 / 60_000)
_HOURS = (1 / 60, 1 / 3600)
_GIGA = (1e-3, 1 / 1024, 1e-9, 2**-30)
_MEGA = (1e-3, 1 / 1024, 1e-6, 2**-20)
_CONVERSIONS: dict[str, tuple[float, ...]] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), _SECONDS),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), _MINUTES),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), _HOURS),
    **dict.fromkeys(("gb", "gib", "gigabytes"), _GIGA),
    **dict.fromkeys(("mb", "mib", "megabytes"), _MEGA),
    **dict.fromkeys(("tb", "tib", "terabytes"), _GIGA),
    **dict.fromkeys(("km", "kg", "kw", "kwh", "mw", "mwh", "kilometres", "kilometers"), (1e-3,)),
    **dict.fromkeys(("m", "metres", "meters"), (1e-3, 1e-2)),
    "litres": (1e-3,),
    "liters": (1e-3,),
}
#: A whole number's trailing zeros, when it has at least two: a rounded figure ("12,700"),
#: above the years ("200" may be meant exactly, "1900" is a year) ...
_ROUND_ZEROS = re.compile(r"(?<=[1-9])(?:,?0){2,}$")
#: ... and close to the value it rounds: "12,700" for 12,655, not "3,000" for 2,610.
ROUNDED_TOLERANCE = 0.01
#: A month or a date written year first, in digits ("2026-06", "2026:09:19").
_YEAR_FIRST = re.compile(r"(?<![\w:.-])((?:19|20)\d\d)(?:-(\d{2})(?![\w:-])|:(\d{2}):(\d{2})\b)")
#: A date written day and month in digits, then the year ("03/11/2026").
_SLASHED = re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?:/((?:19|20)\d\d)\b|(?![\w/.]))")
#: Words saying a yes/no field is off ("Eco mode is off", "MFA disabled").
_OFF = frozenset(word_list("off disabl inactiv"))
#: A sentence opening with one of these goes on about the sentence before.
_OPENING_PRONOUNS = frozenset(("He", "She", "They", "It"))
#: Words saying a number was worked out from others, read around it (`_computed`).
_COMPUTED = frozenset(word_list(
    "total totals totalling totaling overall combined altogether across all left leaving "
    "remaining remain by rate each per together difference sum return ratio share comes come "
    "away short done adds bringing brings full that's making gap ahead behind worth between "
    "including"
))
#: ... and just after it, those and these ("44 seats free", "16 days later").
_COMPUTED_AFTER = _COMPUTED | frozenset(word_list(
    "free off later earlier spare more less fewer above below up down cheaper dearer"
))
_TIMES = frozenset(("x", "times"))
#: How many of the evidence sentences nearest a claim `_anchored` reads numbers from.
NEAR_SENTENCES = 3
#: A number written as an ordinal ("the 21st") is a day, not an amount.
_ORDINAL_ENDINGS = frozenset(("st", "nd", "rd", "th"))
#: How many words before a number may say it was worked out.
COMPUTED_WORDS = 5
#: Words before a number that make it a total of others ("2 of the 16 checks").
_TOTALS = frozenset(word_list("of total totals totalling totaling overall combined altogether"))
#: How many words before a number may say which way it moved.
DIRECTION_WORDS = 3
#: A number in the evidence with its sign: "-3.1", "+12%", and U+2212, the minus sign.
_SIGNED = r"(?:(?<=[^\w.,])|^)([-+\u2212]?){}(?![\d.,]\d)"
#: A yes/no field of a tool's output ("deprecated": false, Gluten-free: yes).
_FIELD_VALUE = re.compile(
    r"[:=]\s*\"?(true|false|yes|no)\"?(?=\s*(?:[,.;|})\]\n]|\s[-\u2013\u2014]\s|$))",
    re.IGNORECASE,
)
#: A unified diff's added and removed lines ("+Courier required: yes", "-hake 6.0").
_DIFF_ADDED = re.compile(r"^\+[^\s+]", re.MULTILINE)
_DIFF_REMOVED = re.compile(r"-[^\s-]")
#: A line that totals the others ("TOTAL   £51.97", "Subtotal 57.75").
_SUMMARY_LINE = re.compile(r"\s*(?:sub|grand )?total\b", re.IGNORECASE)
#: A log line: a date or a time of day first ("2024-07-19 13:55 SIGNED_OFF", "22:41:07 BOOK").
_LOG_LINE = re.compile(r"\s*\[?(?:\d{4}-\d\d-\d\d|\d{1,2}:\d\d)")
#: Marks that end a phrase inside a clause.
_PHRASE_MARKS = (",", ";", " \u2014 ", " \u2013 ", " - ")
#: A range of months ("Mar-May 2025"): the first one, and the year after the range.
_MONTH_RANGE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s?[-\u2013]\s?"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s((?:19|20)\d\d))?",
    re.IGNORECASE,
)
#: A line of prose ends so, and holds at least this many words.
_PROSE_ENDS = frozenset('.!?"\u201d')
PARAGRAPH_MIN_WORDS = 12
#: A setting's line ("; fill_density = 25%", "max_retries=3").
_SETTING = re.compile(r"\W*[\w .-]{1,40}?\s*=\s*\S")
#: A date or a time of day written in digits ("2025-03-21", "19:30:05", "T16:00Z").
_STAMP = re.compile(r"\d{4}-\d\d-\d\d|\d{1,2}:\d\d(?::\d\d)?")
#: A field with no value ("accepted_quote": null, "refund": None).
_EMPTY_VALUE = re.compile(r"[:=]\s*(?:null|none|nil)(?=\s*(?:[,.;|})\]\n]|$))", re.IGNORECASE)
#: Two words meaning "not" ("used up rather than scrapped", "free of charge").
_INSTEAD = frozenset(
    (("rather", "than"), ("instead", "of"), ("apart", "from"), ("except", "for"),
     ("free", "of"))
)
#: A table cell that is a negation word by itself: a value, not a statement's "no".
_NO_CELLS = frozenset(word_list("no none n/a"))
#: The field's name, just before its value.
_FIELD_NAME = re.compile(r"([A-Za-z][A-Za-z _-]{1,40})\"?\s*$")
_FIELD_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
#: A percentage as a text states it ("20%", "12.5 %").
_PERCENT_IN_TEXT = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d+)?)\s?%")
#: An amount in pence or cents ("22p", "69c").
_HUNDREDTHS = re.compile(r"(\d{1,2}(?:\.\d+)?)[pc]")
#: An identifier in the plural ("X14s", "No.3s"): letters, digits, then an "s".
_PLURAL = re.compile(r"[a-z][\w.-]*\ds")
#: A token that may name a thing by an identifier: letters with a joiner, a dot or a slash
#: ("ledger-svc", "checkout-7d9f8b-x2k4p", "0044_drop_legacy_tables.sql").
_ID_TOKEN = re.compile(r"[A-Za-z0-9][\w./#-]*[A-Za-z0-9]")
_ID_MARKS = frozenset("-_./#")
#: A claim's words, with their positions, for binding a number to the name before it.
_WORD_IN_CLAIM = re.compile(r"[^\W\d_][\w'\u2019-]*")
#: A bracketed group holding one of these is a record, not a list of numbers.
_WORD_IN_TEXT = re.compile(r"[^\W\d_]{2,}")
#: An innermost bracketed group of a structured output: one record ("('EMEA', 1840200)").
_GROUP = re.compile(r"[(\[{][^()\[\]{}]*[)\]}]")
_FIELD_MARKS = re.compile(r"[,:]")
#: Currency codes: "EUR" is no place's code ("Euronext").
_CURRENCIES = frozenset(word_list("EUR USD GBP JPY CHF CNY AUD CAD SEK NOK DKK PLN INR"))
#: A structured output's records: its lines, and their fields (";" or " | " apart); a JSON
#: output's innermost objects.
_RECORD_CUTS = re.compile(r";\s|\s\|\s")
_NUMBER_FIELD = re.compile(r"-?\d+(?:\.\d+)?")
_DECIMAL_UNIT = re.compile(r"(\d+\.\d+)" + UNIT_AFTER)
_LABEL = re.compile(r"\s*((?:[^:\n]|(?<=\d):(?=\d)){1,40}?):\s")
#: Numbers read as years, not as a record's value.
_YEARS = (1000, 2100)
#: A word joined by hyphens or underscores ("payments-gw", "eu_west"): a name in a scheme.
_JOINED = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
_JOINERS = re.compile(r"[-_]")


@lru_cache(maxsize=65536)
def _identifier_key(identifier: str) -> str:
    """An identifier as the lowercased evidence may hold it: no "#", no "v" before a version."""
    key = identifier.lower().lstrip("#")
    if key.startswith("v") and key[1:2].isdigit():
        key = key[1:]
    return key


def _digits(part: str) -> str:
    return part.rstrip("abcdefghijklmnopqrstuvwxyz")


def _deleted(word: str) -> set[str]:
    """The word with one letter deleted, every way."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


#: Each weekday with its one-letter deletions: a weekday enters the evidence's words only when
#: a claim's word could match it ("Friday" for 2026-12-04), so its dates are read only then.
_WEEKDAY_DELETIONS = {day: {day} | _deleted(day) for day in _WEEKDAYS}


@lru_cache(maxsize=65536)
def _word_entry(word: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
    """What one evidence word adds to the index: its words (itself lowercased and its parts),
    their stems, their prefixes a name may extend by a short ending, and whether it is a
    capitalised word (cached: evidence repeats its words)."""
    lower = word.lower()
    parts = word_parts(word)
    words = (lower, *parts)
    stems = tuple({stem(w) for w in words})
    prefixes = tuple(
        part[: len(part) - cut]
        for part in parts
        for cut in range(1, NAME_ENDING_MAX + 1)
        if len(part) - cut >= NAME_PREFIX_MIN
    )
    return words, stems, prefixes, word[0].isupper() and lower not in STOPWORDS


class _Vocabulary:
    """The evidence's words and word parts (lowercased), their stems, the prefixes a name may
    extend by a short ending, and its capitalised words."""

    def __init__(self, distinct: set[str]) -> None:
        ordered = list(distinct)
        entries = [_word_entry(word) for word in ordered]
        self.words: set[str] = set(chain.from_iterable(e[0] for e in entries))
        self.stems: set[str] = set(chain.from_iterable(e[1] for e in entries))
        self.prefixes: set[str] = set(chain.from_iterable(e[2] for e in entries))
        self.proper: set[str] = {w for w, e in zip(ordered, entries, strict=True) if e[3]}


class _EvidenceSentence(NamedTuple):
    """One evidence clause, with the sentence it is part of (a tuple: built by the hundred
    per judgement)."""

    text: str
    source: int
    #: The clause itself (its names are read when a rule asks for them).
    clause: str


class _Profile(NamedTuple):
    """One evidence clause's content stems, those in a negation's scope, and its segment."""

    stems: frozenset[str]
    negated: frozenset[str]
    ordinal: int


class EvidenceIndex:
    """Everything the rules look up in a run's evidence, built once per judgement. Only the
    sentences are cut up front; what only some claims ask for (each clause's content words and
    the stem index, segments, numbers and dates, which sentence holds which number, a clause's
    names, the deletion index) is read on first use: a run pays for the rules its claims reach."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._texts = tuple(texts)
        self.text = "\n".join(texts).lower()
        self._deletions: set[str] | None = None
        self._facts: _EvidenceFacts | None = None
        #: The evidence's words cut at spaces and `_WORD_CUTS` (and joined by spaces), and the
        #: identifiers looked up so far.
        self._words: set[str] | None = None
        self._words_text = ""
        self._identifiers: dict[str, bool] = {}
        self._joined: str | None = None
        self._starts: list[int] = []
        self._names: dict[int, frozenset[str]] = {}
        self._records: dict[str, list[str]] | None = None
        self._joined_parts: set[tuple[str, str]] | None = None
        self._codes: set[str] | None = None
        self._fields: list[tuple[frozenset[str], bool, int]] | None = None
        self._by_number: defaultdict[str, list[str]] | None = None
        self._structured: bool | None = None
        self._record_tokens: defaultdict[str, set[int]] | None = None
        self._data_rows: set[int] = set()
        self._keys: set[str] = set()
        self._lowercase: set[str] = set()
        self._events: set[int] = set()
        self._tables: list[Table] | None = None
        self._no_rows: frozenset[str] | None = None
        self._clock: list[int] | None = None
        self._totals: set[float] | None = None
        self._times: set[tuple[int, int]] | None = None
        self._derived: tuple[set[float], set[float]] | None = None
        self._derived_across: set[float] | None = None
        self._number_at: dict[str, list[int]] | None = None
        self._profiles: list[_Profile] | None = None
        self._negates: bool | None = None
        self._distinct: set[str] = set()
        self._vocabulary: _Vocabulary | None = None
        self._by_stem: defaultdict[str, list[int]] = defaultdict(list)
        #: Each tool output's sentences, and its clauses (with their sentence).
        self._by_source = [evidence_sentences(text) for text in texts]
        self.sentences: list[_EvidenceSentence] = []
        #: Per tool output, the clauses of each of its sentences (None: one clause each).
        self._clauses: list[list[list[str]] | None] = []
        for source, sentences in enumerate(self._by_source):
            if one_clause(texts[source]):  # no sentence of it holds two clauses
                # tuple.__new__ builds the named tuples without a Python call each
                self.sentences.extend(map(
                    tuple.__new__,
                    repeat(_EvidenceSentence),
                    zip(sentences, [source] * len(sentences), sentences, strict=True),
                ))
                self._clauses.append(None)
                continue
            # polarity is read per clause
            split = [[s] if one_clause(s) else clauses(s) for s in sentences]
            self._clauses.append(split)
            for sentence, parts in zip(sentences, split, strict=True):
                self.sentences.extend(_EvidenceSentence(sentence, source, c) for c in parts)
        #: Each evidence sentence with its segment's ordinal (for `number_at`), and how many
        #: segments the evidence holds (each tool output's, added up): read on first use.
        self._ordinals: list[tuple[str, int]] = []
        self._segment_count: int | None = None
        #: Known: more segments than this (counted only that far).
        self._segments_above = -1

    def _read_segments(self, stop_above: int | None = None) -> int:
        """Cut the evidence into segments about one subject (`SEGMENT_MIN_WORDS`); with
        `stop_above`, only count them until there are more than that many."""
        ordinals: list[tuple[str, int]] = []
        ordinal = 0
        segments = 0
        for sentences in self._by_source:
            before = ordinal
            segment_words = SEGMENT_MIN_WORDS
            for sentence in sentences:
                # A tool output's first sentence opens a segment whatever its first word.
                opens = ordinal == before or not continues(sentence)
                if segment_words >= SEGMENT_MIN_WORDS and opens:
                    ordinal += 1
                    segment_words = 0
                    if stop_above is not None and segments + ordinal - before > stop_above:
                        return segments + ordinal - before
                segment_words += len(sentence.split())
                ordinals.append((sentence, ordinal))
            segments += ordinal - before
            ordinal += SCATTER_WINDOW + 1  # no window spans two tool outputs
        self._ordinals = ordinals
        self._segment_count = segments
        return segments

    @property
    def segments(self) -> int:
        """How many segments the evidence holds (each tool output's, added up)."""
        if self._segment_count is None:
            self._read_segments()
        assert self._segment_count is not None
        return self._segment_count

    def more_segments_than(self, limit: int) -> bool:
        """`segments > limit`, counting only as far as needed."""
        if self._segment_count is not None:
            return self._segment_count > limit
        if limit <= self._segments_above:
            return True
        if self._read_segments(stop_above=limit) > limit:
            self._segments_above = max(self._segments_above, limit)
            return True
        return False

    @property
    def profiles(self) -> list[_Profile]:
        """Each clause's content stems, negated stems and segment ordinal (read on first use,
        with the stem index and the evidence's distinct words)."""
        if self._profiles is None:
            self._profiles = self._read_profiles()
        return self._profiles

    def _read_profiles(self) -> list[_Profile]:
        self.segments  # noqa: B018 -- the ordinals
        ordinal_of = iter(self._ordinals)
        distinct = self._distinct
        profiles: list[_Profile] = []
        by_stem = self._by_stem
        at = 0
        for sentences, split in zip(self._by_source, self._clauses, strict=True):
            for i, sentence in enumerate(sentences):
                _, ordinal = next(ordinal_of)
                # A sentence's words are the text's (sentences are cut at white space and
                # punctuation): one read gives the vocabulary and a one-clause profile.
                words = words_of_in_order(sentence)
                distinct.update(words)
                if split is None or one_clause(sentence):
                    profiled = [words_profile(words)]
                else:
                    profiled = [sentence_profile(c) for c in split[i]]
                for stems, negated in profiled:
                    profiles.append(_Profile(stems, negated, ordinal))
                    for s in stems:
                        by_stem[s].append(at)
                    at += 1
        return profiles

    @property
    def negates(self) -> bool:
        """Whether any evidence clause has a word in a negation's scope."""
        if self._negates is None:
            self._negates = may_negate(self.text) and any(p.negated for p in self.profiles)
        return self._negates

    @property
    def vocabulary(self) -> _Vocabulary:
        """The evidence's words, stems and prefixes, built on first use."""
        if self._vocabulary is None:
            self.profiles  # noqa: B018 -- the distinct words
            self._vocabulary = _Vocabulary(self._distinct)
        return self._vocabulary

    @property
    def stems(self) -> set[str]:
        """The stems of every evidence word and word part."""
        return self.vocabulary.stems

    @property
    def proper(self) -> set[str]:
        """Capitalised words of the evidence: a claim's first word that is one is a name."""
        return self.vocabulary.proper

    @property
    def number_at(self) -> dict[str, list[int]]:
        """Number key -> ordinals of the evidence sentences holding it."""
        if self._number_at is None:
            self._number_at = {}
            self.segments  # noqa: B018 -- the ordinals
            for sentence, ordinal in self._ordinals:
                for key in number_keys(sentence):
                    self._number_at.setdefault(key, []).append(ordinal)
        return self._number_at

    def names_of(self, position: int) -> frozenset[str]:
        """The names one evidence clause mentions (its capitalised words past its first)."""
        found = self._names.get(position)
        if found is None:
            clause = self.sentences[position].clause
            found = clause_names(clause)
            first = words_of_in_order(clause)[:1]
            # Its first word too when the evidence names it elsewhere ("Omar to update...").
            if first and first[0][0].isupper():
                lower = first[0].lower()
                if lower not in STOPWORDS and self.text.count(lower) > 1:
                    found = found | {lower}
            self._names[position] = found
        return found

    def _read_facts(self) -> _EvidenceFacts:
        """The evidence's numbers, dates and the weekdays of its dates, read on first use."""
        if self._facts is None:
            self._facts = _EvidenceFacts.read(self._texts)
        return self._facts

    def has_name(self, name: str) -> bool:
        whole = name.lower()
        words = self.vocabulary.words
        if whole in words or (whole[-1:] == "s" and whole[:-1] in words):
            return True  # "MySQL" for mysql, "GPUs" for gpu
        if not name.isascii() and (plain := _unaccented(name)) != name:
            return self.has_name(plain)  # "Fauré" for Faure
        parts = [p for p in word_parts(name) if len(p) >= 2]
        if all(self._has_word(p) for p in parts):
            return True
        if _COMMON_CAPITAL.fullmatch(name):  # "A-level", "T-shirt", "X-ray": no names
            return True
        if name[:1] in _SYMBOL_NAMES:  # "ΔE" for delta_e
            spelled = rf"\b{_SYMBOL_NAMES[name[0]]}[_ -]?{re.escape(name[1:])}\b"
            return re.search(spelled, self.text, re.IGNORECASE) is not None
        return len(parts) == 1 and self._coded(parts[0])

    def _coded(self, word: str) -> bool:
        """Written in the evidence as its code: the capitals a name starts with ("FRA" for
        Frankfurt, "LIS" for Lisbon)."""
        if self._codes is None:
            self.profiles  # noqa: B018 -- the distinct words
            self._codes = {
                w.lower() for w in self._distinct
                if w.isupper() and 3 <= len(w) <= 4 and w not in _CURRENCIES
            }
        return any(word.startswith(code) for code in self._codes)

    def _has_word(self, word: str) -> bool:
        vocabulary = self.vocabulary
        words = vocabulary.words
        if word in words or stem(word) in vocabulary.stems or word in vocabulary.prefixes:
            return True
        if _LANGUAGES.get(word) in words:  # "German-to-English" for DE>EN
            return True
        if len(word) >= SPELLING_MIN_CHARS and self._misspelt(word):
            return True
        if any(
            word[: len(word) - cut] in words
            for cut in range(1, NAME_ENDING_MAX + 1)
            if len(word) - cut >= NAME_PREFIX_MIN
        ):
            return True
        day = word[:-1] if word.endswith("days") else word  # "Tuesdays"
        if day in _WEEKDAYS and (day[:3] in words or day in words):  # "Tue" for Tuesday
            return True
        # The weekdays of the evidence's dates are words of it too: read them only for a
        # word one of them could cover.
        return _weekday_covers(word, _WEEKDAYS) and _weekday_covers(
            word, self._read_facts().weekdays
        )

    def _misspelt(self, word: str) -> bool:
        """One letter away from an evidence word ("Gennadiy" / "Gennady", "Dulmore" /
        "Dulorme"): a spelling, not another name. The deletion index is built on first use."""
        if self._deletions is None:
            self._deletions = set()
            for known in self.vocabulary.words:
                if len(known) >= SPELLING_MIN_CHARS - 1:
                    self._deletions.add(known)
                    self._deletions.update(_deleted(known))
        return word in self._deletions or any(d in self._deletions for d in _deleted(word))

    def has_number(self, number: NumberFact) -> bool:
        facts = self._read_facts()
        keys = [number_key(number.value)]
        if number.scaled is not None:
            keys.append(number_key(number.scaled))
        if number.percent:  # "70%" for 0.7
            keys.append(number_key(number.value / 100))
        if any(k in facts.numbers for k in keys):
            return True
        if number.unit and not number.decimals and number.scaled is None and any(
            round(value) == number.value and unit == number.unit for value, unit in facts.units
        ):  # "91 Mbps" for 91.33 Mbps
            return True
        if not number.decimals and number.scaled is None and number.value >= DERIVED_MIN and any(
            round(value) == number.value for value in facts.values if value != int(value)
        ):  # "€4,820 of spend" for 4820.15
            return True
        if number.decimals or number.hedged:  # "4.9" or "about 5" for 4.87
            wanted = number.scaled if number.scaled is not None else number.value
            # "€1.96M" for 1,960,300: rounded at the precision written, in its unit
            unit = number.scaled / number.value if number.scaled and number.decimals else None
            # "14.4 m" is read as millions too: as metres, it may be 14382.6 mm
            measure = number.text[-1:].lower() if number.scaled is not None else number.unit
            conversions = _CONVERSIONS.get(measure, ()) if number.decimals else ()
            for value in facts.values:
                if round(value, number.decimals) == number.value:
                    return True
                if any(round(value * f, number.decimals) == number.value for f in conversions):
                    return True  # "8.4 seconds" for 8421.337 ms
                if unit is not None and round(value / unit, number.decimals) == number.value:
                    return True
                if number.hedged and abs(value - wanted) <= HEDGE_TOLERANCE * abs(value):
                    return True
        rounded = _ROUND_ZEROS.search(number.text)
        if rounded and number.value > _YEARS[1] and not number.decimals and number.scaled is None:
            # "12,700" for 12,655
            places = -len(rounded.group().replace(",", ""))
            if any(
                round(value, places) == number.value
                and abs(value - number.value) <= ROUNDED_TOLERANCE * number.value
                for value in facts.values
            ):
                return True
        return False

    @property
    def number_values(self) -> set[float]:
        """Every number the evidence writes."""
        return self._read_facts().values

    def derives(self, number: NumberFact) -> bool:
        """Whether a sum, difference, product or share of two numbers of one record, or a
        column's total, is this number at the precision written ("$705 in all" for 3 bottles at
        $235, "a win rate of about 45%" for 97 of 214, "27 bottles" for a column's total); for
        a number with decimals or of `DERIVED_MIN` or more, of any two numbers of an output
        that writes few ("comes to £7,416" for 18 tonnes at £412 on another line)."""
        if _a_year(number):  # "passed away in 1955"
            return False
        held = self.derived[1] if number.unit in _TIMES else self.derived[0]
        places = number.decimals
        rounded = _ROUND_ZEROS.search(number.text) if number.hedged else None
        if rounded and not number.decimals:  # "about $13,700 away" for 13,725
            places = -len(rounded.group().replace(",", ""))

        def written(value: float) -> bool:
            return round(value, places) == number.value and (
                not rounded or abs(value - number.value) <= ROUNDED_TOLERANCE * number.value
            )

        if any(map(written, held)):
            return True
        if not number.decimals and (
            number.value < DERIVED_MIN or _YEARS[0] <= number.value <= _YEARS[1]
        ):
            return False  # "4", "59%", "2028": too many pairs of the output make one
        if self._derived_across is None:
            values = sorted(self.number_values)
            self._derived_across = (
                worked_out([values]) if len(values) <= DERIVED_MAX_NUMBERS else set()
            )
        return any(map(written, self._derived_across))

    def column_total(self, number: NumberFact) -> bool:
        """Whether a number of 10 or more, or with decimals, is a column's total at the
        precision written, said so or not ("58.3 kg came out" of five batches)."""
        if not self.structured or (not number.decimals and number.value < 10) or _a_year(number):
            return False
        return any(round(v, number.decimals) == number.value for v in self.totals)

    def in_one_record(self, number: NumberFact) -> bool:
        """Whether a number with decimals or of `DERIVED_MIN` or more is exactly a sum,
        difference or product of two numbers of one record, said so or not ("€9.60 a bunch"
        for 20 stems at 0.48; "137 free spaces" for 640 total, 503 occupied). Not a round
        whole number ("Ektar 100"): many pairs make one. Structured output only: a line of prose
        is no record."""
        if not self.structured:
            return False
        if not number.decimals and (
            number.value < DERIVED_MIN or _a_year(number) or number.value % 10 == 0
        ):
            return False
        return any(abs(v - number.value) < 1e-9 * max(1.0, v) for v in self.derived[0])

    @property
    def derived(self) -> tuple[set[float], set[float]]:
        """What one record's numbers work out to, and their multiples (`_derived_values`),
        read on first use."""
        if self._derived is None:
            self._derived = _derived_values(self)
        return self._derived

    @property
    def totals(self) -> set[float]:
        """Each numeric column's total, over every table, read on first use."""
        if self._totals is None:
            self._totals = column_totals(self.tables)
        return self._totals

    def has_date(self, date: DateFact) -> bool:
        facts = self._read_facts()
        for known in facts.dates:
            if all(
                want is None or want == have
                for want, have in (
                    (date.year, known.year), (date.month, known.month), (date.day, known.day)
                )
            ):
                return True
        if date.month is None and date.day is None and date.year is not None:
            return number_key(date.year) in facts.numbers
        if date.month is not None and date.day is not None:  # "16-18 Jul", "3 and 14 November"
            wanted = {number_key(date.day)} | (
                {number_key(date.year)} if date.year is not None else set()
            )
            if any(
                wanted <= number_keys(sentence.text) and any(
                    MONTHS.get(w.lower()) == date.month for w in words_of_in_order(sentence.text)
                )
                for sentence in self.sentences
            ):
                return True
            # "Wednesday 16th" in a message about December: the day as an ordinal, the month
            # named or dated elsewhere in it
            return date.year is None and re.search(
                rf"\b{date.day}(?:st|nd|rd|th)\b", self.text
            ) is not None and any(known.month == date.month for known in facts.dates)
        return False

    def has_identifier(self, identifier: str) -> bool:
        return not self.missing_identifiers((identifier,))

    def missing_identifiers(self, identifiers: Sequence[str]) -> list[str]:
        """Those of a claim's identifiers that the evidence does not hold, in order (most are
        found among the evidence's words: one set look-up each)."""
        if not identifiers:
            return []
        if self._words is None:
            self._words = set(self.text.translate(_WORD_CUTS).split())
            self._words_text = " ".join(self._words)
        keys = list(map(_identifier_key, identifiers))
        if self._words.issuperset(keys):
            return []
        missing = []
        for identifier, key in zip(identifiers, keys, strict=True):
            if key in self._words:
                continue
            found = self._identifiers.get(key)
            if found is None:
                found = self._identifiers[key] = self._has_identifier(key)
            if not found:
                missing.append(identifier)
        return missing

    def _has_identifier(self, key: str) -> bool:
        # A key without a space or a cut character is in the text when it is in one word.
        if key in (self.text if _CUT_OR_SPACE.search(key) else self._words_text):
            return True
        hundredths = _HUNDREDTHS.fullmatch(key)
        if hundredths:  # "22p a mile" for 0.22, "69c" for 0.69
            return number_key(float(hundredths.group(1)) / 100) in self._read_facts().numbers
        if _PLURAL.fullmatch(key):  # "the X14s" for X14
            return self._has_identifier(key[:-1])
        # "under-18s" for "under 18": hyphenated words and plain numbers, each found.
        parts = key.split("-")
        if len(parts) < 2 or not all(_PLAIN_PART.fullmatch(p) for p in parts):
            return False
        numbered = any(not p.isalpha() for p in parts)
        return all(
            (numbered and p in _UNIT_WORDS) or self._has_word(p)
            if p.isalpha()
            else number_key(float(_digits(p))) in self._read_facts().numbers
            for p in parts
        )

    def sentence_stems(self, position: int) -> set[str]:
        """The stems of every word of the evidence sentence holding this clause, and of the
        sentences before it that it goes on from ("He narrated..." is about the subject of the
        sentence before), and of the sentence after it when that one opens with a pronoun ("...
        misnamed the festival director. She is Oluwaseun Adebayo")."""
        found: set[str] = set()
        sentences = self.sentences
        after = position + 1
        while after < len(sentences) and sentences[after].text == sentences[position].text:
            after += 1
        if (after < len(sentences) and sentences[after].source == sentences[position].source
                and _OPENING_PRONOUNS.intersection(words_of_in_order(sentences[after].text)[:1])):
            found.update(
                stem(p) for w in words_of_in_order(sentences[after].text)
                for p in word_parts(w) if len(p) >= 2
            )
        while True:
            text, source = sentences[position].text, sentences[position].source
            while position > 0 and sentences[position - 1].text == text:
                position -= 1  # the sentence's first clause
            found.update(
                stem(p) for w in words_of_in_order(text) for p in word_parts(w) if len(p) >= 2
            )
            if position == 0 or sentences[position - 1].source != source:
                return found
            before = sentences[position - 1].text
            # A fragment cut off by an abbreviation ("Robert Manoogian Jr.") is its start.
            if not continues(text) and before.count(" ") >= FRAGMENT_MAX_WORDS:
                return found
            position -= 1

    @property
    def times(self) -> set[tuple[int, int]]:
        """The times of day the evidence writes ("19:15", "2026-12-03T16:00:00Z"), as (hour,
        minute)."""
        if self._times is None:
            self._times = times_of_day(self.text)
        return self._times

    @property
    def clock_seconds(self) -> list[int]:
        """Every clock or stopwatch value the evidence writes, in seconds, read both as hours
        and minutes and as minutes and seconds where it has two parts ("41:07")."""
        if self._clock is None:
            self._clock = clock_seconds(self.text)
        return self._clock

    @property
    def texts(self) -> tuple[str, ...]:
        """The tool outputs, as written."""
        return self._texts

    @property
    def structured(self) -> bool:
        """Whether a tool output is laid out in lines or as JSON, not written as prose."""
        if self._structured is None:
            self._structured = any(
                text.lstrip()[:1] in ("{", "[") or text.strip().count("\n") >= STRUCTURED_LINES - 1
                for text in self._texts
            )
        return self._structured

    @property
    def is_document(self) -> bool:
        """Long enough that a claim is held to one passage of it (`DOCUMENT_MIN_SEGMENTS`)."""
        return self.more_segments_than(DOCUMENT_MIN_SEGMENTS - 1)

    def passage(self, stems: frozenset[str]) -> tuple[float, int | None]:
        """The share of these content words the best single segment holds, and the nearest
        clause of that segment (None: no word found)."""
        profiles = self.profiles
        held: dict[int, set[str]] = {}
        for s in stems:
            for position in self.positions(s):
                held.setdefault(profiles[position].ordinal, set()).add(s)
        if not held:
            return 0.0, None
        ordinal = max(held, key=lambda o: (len(held[o]), -o))
        at = next((p for _, p in self.nearest(stems) if profiles[p].ordinal == ordinal), None)
        return len(held[ordinal]) / len(stems), at

    def records_of(self, number: NumberFact) -> list[str] | None:
        """The evidence records stating this number, lowercased (None: it is not there as
        written): its bracketed group when the group holds a word, else its sentence."""
        return self.records.get(number_key(number.value))

    @property
    def records(self) -> dict[str, list[str]]:
        """Number key -> the records stating it (`records_of`), read on first use."""
        if self._records is None:
            self._records = {}
            for sentences in self._by_source:
                for sentence in sentences:
                    # In structured output a group is a record when it holds fields:
                    # "(212 mentions)" annotates its line.
                    groups = [
                        (m.start(), m.end()) for m in _GROUP.finditer(sentence)
                        if not self.structured or _FIELD_MARKS.search(m.group())
                    ]
                    for m in _NUMBER_IN_TEXT.finditer(sentence):
                        record = next(
                            (sentence[a:b] for a, b in groups
                             if a <= m.start() < b and _WORD_IN_TEXT.search(sentence[a:b])),
                            sentence,
                        )
                        key = number_key(float(m.group().replace(",", "")))
                        self._records.setdefault(key, []).append(record.lower())
            for text in self._texts:  # a JSON record's nested objects are its own
                if text.lstrip()[:1] in ("{", "["):
                    for item in json_items(text):
                        for m in _NUMBER_IN_TEXT.finditer(item):
                            key = number_key(float(m.group().replace(",", "")))
                            self._records.setdefault(key, []).append(item.lower())
        return self._records

    def signs_of(self, number: NumberFact) -> set[str]:
        """The signs the evidence writes this number with ("-", "+", "" unsigned)."""
        pattern = re.compile(_SIGNED.format(re.escape(number.text.replace(",", ""))))
        return {
            "-" if m.group(1) == "\u2212" else m.group(1)
            for m in pattern.finditer(self.text.replace(",", ""))
        }

    @property
    def fields(self) -> list[tuple[frozenset[str], bool, int]]:
        """The evidence's yes/no fields: the stems of the field's name, its value, and the
        sentence stating it."""
        if self._fields is None:
            self._fields = []
            if _FIELD_VALUE.search(self.text) is None:
                return self._fields
            diff = self.is_diff
            for position, sentence in enumerate(self.sentences):
                if diff and _DIFF_REMOVED.match(sentence.text):
                    continue  # a diff's removed line: what the value was
                if sentence.text is not self.sentences[position - 1].text or position == 0:
                    for m in _FIELD_VALUE.finditer(sentence.text):
                        name = _FIELD_NAME.search(sentence.text, max(0, m.start() - 42), m.start())
                        if name is None:
                            continue
                        words = _FIELD_WORDS.findall(name.group(1))
                        # every word of the name, "out" of "Out of service" included
                        stems = frozenset(stem(w) for w in words)
                        if stems:
                            value = m.group(1).lower() in ("true", "yes")
                            self._fields.append((stems, value, position))
            values: dict[frozenset[str], set[bool]] = {}
            for stems, value, _ in self._fields:
                values.setdefault(stems, set()).add(value)
            # "enabled: true" and "enabled: false" under two flags: whose is not read here
            self._fields = [f for f in self._fields if len(values[f[0]]) == 1]
        return self._fields

    @property
    def record_tokens(self) -> dict[str, set[int]]:
        """For a structured output: each token -> the records holding it."""
        if self._record_tokens is None:
            self._record_tokens = defaultdict(set)
            at = 0
            for text in self._texts:
                json_like = text.lstrip()[:1] in ("{", "[")
                records = [m.group() for m in _GROUP.finditer(text)] if json_like else [
                    field
                    for line in text.split("\n")
                    # a markdown table's row is one line, not its cells
                    for field in ([line] if line.lstrip()[:1] == "|" else _RECORD_CUTS.split(line))
                ]
                for n, record in enumerate(records):
                    if _LOG_LINE.match(record):
                        self._events.add(at)
                    # "Fixed rate: 3.45%" names an attribute of the one thing described
                    label = _LABEL.match(record)
                    for k, (token, written) in enumerate(record_tokens(record, cased=True)):
                        self._record_tokens[token].add(at)
                        if written.islower():
                            self._lowercase.add(token)
                        if not label and not token[0].isdigit() and (
                            _id_shape(token) is not None or (
                                token[0].isalpha() and len(token) >= 3
                                and (k == 0 or written[0].isupper())
                            )
                        ):
                            self._keys.add(token)
                    # "Total finishers: 842", "TOTAL  £51.97", "; infill = 25%": the whole
                    # output's, no row's; nor is a sentence of prose
                    if n and not (
                        label or _SUMMARY_LINE.match(record) or _SETTING.match(record)
                        or _prose(record)
                    ) and _NUMBER_FIELD.search(record):
                        self._data_rows.add(at)
                    at += 1
        return self._record_tokens

    @property
    def events(self) -> set[int]:
        """The records of a structured output that are a log's lines (a timestamp first)."""
        self.record_tokens  # noqa: B018 -- the records
        return self._events

    @property
    def lowercase(self) -> set[str]:
        """The tokens of a structured output it writes in lower case somewhere."""
        self.record_tokens  # noqa: B018 -- the records
        return self._lowercase

    @property
    def keys(self) -> set[str]:
        """The tokens of a structured output that may name its line: a line's first, one
        written capitalised, or an identifier ("pandas", "ICU", "Lindqvist", "/data")."""
        self.record_tokens  # noqa: B018 -- the records
        return self._keys

    @property
    def data_rows(self) -> set[int]:
        """The records of a structured output that are rows: holding a number, but neither each
        output's first, a label's or a setting's line, a totals line nor a sentence of prose."""
        self.record_tokens  # noqa: B018 -- the records
        return self._data_rows

    @property
    def is_diff(self) -> bool:
        """Whether the evidence is a diff: lines it added ("+...") are what is true now."""
        return _DIFF_ADDED.search(self.text) is not None

    @property
    def rows_with_a_no(self) -> frozenset[str]:
        """The table rows (lowercased) with a cell that is a negation word by itself ("| W3 |
        no |"): the polarity rule leaves them to the field rules."""
        if self._no_rows is None:
            self._no_rows = frozenset(
                text.strip() for table in self.tables for text, _, cells in table.rows
                if _NO_CELLS.intersection(cells)
            )
        return self._no_rows

    @property
    def tables(self) -> list[Table]:
        """The tables of a structured output (markdown or psql rows, CSV lines, columns aligned
        under a header), read on first use."""
        if self._tables is None:
            self._tables = [t for text in self._texts for t in read_tables(text)]
        return self._tables

    def keyed(self, name: str) -> bool:
        """Whether the evidence states a value of this name: a record of a number of at least
        `SCATTER_MIN_NUMBER` holds it ("Airport" in a header line states no value)."""
        return any(
            _holds_word(record, name)
            for key, records in self.records.items()
            if float(key) >= SCATTER_MIN_NUMBER and not _YEARS[0] <= float(key) <= _YEARS[1]
            for record in records
        )

    def clauses_stating(self, number: NumberFact) -> list[str]:
        """The evidence clauses writing this number, lowercased."""
        if self._by_number is None:
            self._by_number = defaultdict(list)
            for sentence in self.sentences:
                lowered = sentence.clause.lower()
                for key in number_keys(lowered):
                    self._by_number[key].append(lowered)
        return self._by_number.get(number_key(number.value), [])

    def adds_up(self, number: NumberFact, held: Sequence[NumberFact]) -> bool:
        """A total of two numbers of one record that states another of the claim's numbers
        ("2 of the 16 checks" where the evidence says "2 failing, 14 passing")."""
        if number.value != int(number.value) or number.decimals or number.scaled is not None:
            return False
        for other in held:
            for record in self.records_of(other) or ():
                values = [
                    float(m.group().replace(",", "")) for m in _NUMBER_IN_TEXT.finditer(record)
                ]
                if len(values) <= ADD_MAX_NUMBERS and any(
                    a + b == number.value for a, b in combinations(values, 2)
                ):
                    return True
        return False

    def siblings(self, word: str) -> bool:
        """Whether the evidence writes names in this one's scheme (another joined word with the
        same first or last part: "auth-gw" beside "payments-gw")."""
        if self._joined_parts is None:
            self._joined_parts = set()
            for token in _JOINED.findall(self.text):
                parts = _JOINERS.split(token)
                self._joined_parts.update({("first", parts[0]), ("last", parts[-1])})
        parts = _JOINERS.split(word)
        known = self._joined_parts
        return ("first", parts[0]) in known or ("last", parts[-1]) in known

    def knows_part(self, part: str) -> bool:
        """A part of a joined word the evidence holds, or holds the start of ("westerly" for
        "south-west"), or one of its words starts with; numbers count as known."""
        if part.isdigit() or self._has_word(part):
            return True
        return any(
            (len(w) >= NAME_PREFIX_MIN and part.startswith(w)) or w.startswith(part)
            for w in self.vocabulary.words
        )

    def holding(self, facts: TextFacts) -> int | None:
        """The first evidence sentence holding one of a claim's identifiers or numbers (the
        nearest sentence when no content word is shared: "DL405 costs 589 euros")."""
        wanted = list(map(str.lower, facts.identifiers))
        if facts.numbers:
            wanted.extend(n.text for n in facts.numbers)
        if not wanted or not self.sentences:
            return None
        if self._joined is None:  # the sentences, lowercased, one string: one scan per fact
            texts = [sentence.text for sentence in self.sentences]
            joined = _SEPARATOR.join(texts)
            # Lowercased at once: the separator is no letter, so no casing reaches across it.
            self._joined = joined.lower()
            if len(self._joined) != len(joined):  # a letter lowercased into two ("İ")
                texts = [text.lower() for text in texts]
            self._starts = list(
                accumulate(map(len(_SEPARATOR).__add__, map(len, texts[:-1])), initial=0)
            )
        if _SEPARATOR in "".join(wanted):
            return next(
                (p for p, sentence in enumerate(self.sentences)
                 if any(w in sentence.text.lower() for w in wanted)),
                None,
            )
        # The sentences in growing windows from the start: the first window holding one of them
        # holds the nearest (each window is searched for every fact).
        find, starts = self._joined.find, self._starts
        first: int | None = None
        start, window = 0, _HOLDING_WINDOW
        while first is None and start < len(self._joined):
            end = starts[window] if window < len(starts) else len(self._joined)
            for w in wanted:  # only a sentence before the first found so far can be nearer
                at = find(w, start, end)
                if at >= 0:
                    first = bisect.bisect_right(starts, at) - 1
                    if first == 0:
                        break
                    end = starts[first]
            start, window = end, window * 4
        return first

    def positions(self, stem: str) -> Sequence[int]:
        """The clauses holding one content stem, in order."""
        self.profiles  # noqa: B018 -- the stem index
        return self._by_stem.get(stem, ())

    def nearest(self, stems: frozenset[str], least: float = 1) -> list[tuple[int, int]]:
        """(shared content words, sentence position), most shared first; only the sentences
        sharing at least `least` of them."""
        if not stems:
            return []
        self.profiles  # noqa: B018 -- the stem index
        # Counted in C: a common word is in hundreds of sentences.
        counts = Counter(chain.from_iterable(map(self._by_stem.get, stems, repeat(()))))
        if least <= 1:
            return sorted(zip(counts.values(), counts.keys(), strict=True), reverse=True)
        return sorted(((n, p) for p, n in counts.items() if n >= least), reverse=True)


def _unaccented(text: str) -> str:
    """A text without its accents ("Fauré Élégie": "Faure Elegie")."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    )


def _weekday_covers(word: str, weekdays: Iterable[str]) -> bool:
    """Whether one of these weekdays, as an evidence word, covers a claim's word (the rules of
    `EvidenceIndex._has_word` over words: the word, a misspelling of it, a short ending)."""
    deleted: set[str] | None = None
    for day in weekdays:
        if any(
            word[: len(word) - cut] == day
            for cut in range(NAME_ENDING_MAX + 1)
            if cut == 0 or len(word) - cut >= NAME_PREFIX_MIN
        ):
            return True
        if len(word) >= SPELLING_MIN_CHARS:
            if deleted is None:
                deleted = _deleted(word) | {word}
            if not deleted.isdisjoint(_WEEKDAY_DELETIONS[day]):
                return True
    return False


class _EvidenceFacts:
    """The evidence's numbers (keys and values), its dates, and the weekdays they fall on."""

    def __init__(self) -> None:
        self.numbers: set[str] = set()
        self.values: set[float] = set()
        self.dates: list[DateFact] = []
        self.weekdays: set[str] = set()
        #: Its decimals with the unit written after them ((91.33, "mbps")).
        self.units: set[tuple[float, str]] = set()

    @classmethod
    def read(cls, texts: Sequence[str]) -> _EvidenceFacts:
        found = cls()
        for text in texts:
            facts = read_facts(text, claim=False)
            for number in facts.numbers:
                found.numbers.add(number_key(number.value))
                found.values.add(number.value)
                if number.scaled is not None:
                    found.numbers.add(number_key(number.scaled))
                    found.values.add(number.scaled)
            for line in text.splitlines():  # a CSV row's fields ("3.1,410,FAIL")
                if csv_line(line):
                    for value in csv_cells(line):
                        if _NUMBER_FIELD.fullmatch(value):
                            found.numbers.add(number_key(float(value)))
                            found.values.add(float(value))
            for m in _DECIMAL_UNIT.finditer(text):
                found.units.add((float(m.group(1)), m.group(2).lower()))
            found.dates.extend(facts.dates)
            found.dates.extend(_numeric_dates(text))
        # "on Friday, December 4" for 2026-12-04; "Tuesday 2 April" for a "2 April" of a
        # letter whose other dates say 2024
        years = {d.year for d in found.dates if d.year}
        for date in found.dates:
            if not (date.month and date.day):
                continue
            for year in {date.year} if date.year else years:
                try:
                    weekday = datetime.date(year, date.month, date.day).weekday()
                except ValueError:
                    continue
                found.weekdays.add(_WEEKDAYS[weekday])
        return found


def _prose(line: str) -> bool:
    """Whether a line is a sentence of prose (a search result's snippet, an email's line)."""
    return line.rstrip()[-1:] in _PROSE_ENDS and line.count(" ") >= PARAGRAPH_MIN_WORDS - 1


def _derived_values(index: EvidenceIndex) -> tuple[set[float], set[float]]:
    """What can be worked out from one record of the evidence: each pair of its numbers added,
    subtracted, multiplied, and one as a percentage of the other; and each numeric column's
    total and each table's count of rows. A record is a line, a JSON object or a table's row;
    one of more than `ADD_MAX_NUMBERS` numbers is a list, not a record."""
    records: list[list[float]] = []
    for table in index.tables:
        records.extend(
            [v for c in cells if (v := cell_number(c)) is not None] for _, _, cells in table.rows
        )
    for text in index.texts:
        groups = _GROUP.findall(text) if text.lstrip()[:1] in ("{", "[") else text.split("\n")
        # a record's dates and times are no amounts to add up
        records.extend(_values_in(g) for g in groups)
    records = [r for r in records if len(r) <= ADD_MAX_NUMBERS]
    derived = worked_out(records) | three_way(records) | index.totals
    derived.update(float(len(table.rows)) for table in index.tables)
    return derived, multiples(records)


def _numeric_dates(text: str) -> list[DateFact]:
    """Dates written in digits the general reader leaves alone: a month ("2026-06"), EXIF's
    "2026:09:19", and "03/11/2026" or "17/03", read both ways (month first and day first)."""
    found: list[DateFact] = []
    for m in _YEAR_FIRST.finditer(text):
        year = int(m.group(1))
        month, day = (int(m.group(2)), None) if m.group(2) else (int(m.group(3)), int(m.group(4)))
        if 1 <= month <= 12 and (day is None or 1 <= day <= 31):
            found.append(DateFact(m.group(), year, month, day))
    for m in _MONTH_RANGE.finditer(text):  # "bank statements Mar-May 2025": March too
        written = int(m.group(2)) if m.group(2) else None
        found.append(DateFact(m.group(), written, MONTHS[m.group(1).lower()[:3]], None))
    for m in _SLASHED.finditer(text):
        written = int(m.group(3)) if m.group(3) else None
        a, b = int(m.group(1)), int(m.group(2))
        for month, day in {(a, b), (b, a)}:
            if 1 <= month <= 12 and 1 <= day <= 31:
                found.append(DateFact(m.group(), written, month, day))
    return found


class ClaimCheck(NamedTuple):
    """What the rules found in one claim (the judge's verdict is made from it); a named tuple:
    one per claim, fifty to a judgement."""

    verdict: str
    missing: tuple[str, ...]
    coverage: float
    contradicted_by: int | None
    nearest: int | None
    #: Its content words, kept over a document for the passage rule.
    content: frozenset[str] = frozenset()


class Answer:
    """The claims of the answer a claim is part of; the amounts they write are read on first
    use (only a number no other rule finds reaches them)."""

    def __init__(self, claims: Sequence[str]) -> None:
        self.claims = claims
        self._amounts: set[float] | None = None

    @property
    def amounts(self) -> set[float]:
        if self._amounts is None:
            self._amounts = {
                value for claim in self.claims
                for value in _amounts(claim, read_facts(claim, claim=True))
            }
        return self._amounts


def check_claim(claim: str, index: EvidenceIndex, answer: Answer | None = None) -> ClaimCheck:
    """The rules, in order: polarity, unsupported facts, joined facts, swapped names,
    coverage; `answer`: the claims judged with it (a number may be worked out of theirs)."""
    facts = read_facts(claim, claim=True)
    ranked = index.nearest(facts.content_stems)
    nearest = ranked[0][1] if ranked else index.holding(facts)
    content = len(facts.content_stems)
    coverage = sum(1 for s in facts.content_stems if s in index.stems) / content if content else 1.0
    parts = clauses(claim)
    # A document of prose is held to its facts here, to one passage in `passage_checks`; an
    # output in lines is records, however long.
    if index.is_document and not index.structured:
        flipped = (
            None if index.more_segments_than(SCATTER_MAX_SEGMENTS) else _polarity_flip(parts, index)
        )
        if flipped is not None:
            return ClaimCheck(CONTRADICTED, (), coverage, flipped, flipped)
        missing = _missing_facts(claim, facts, index, answer, names=False)
        verdict = UNSUPPORTED if missing else SUPPORTED
        return ClaimCheck(verdict, missing, coverage, None, nearest, facts.content_stems)
    flipped = _polarity_flip(parts, index)
    if flipped is not None:
        return ClaimCheck(CONTRADICTED, (), coverage, flipped, flipped)
    missing = _missing_facts(claim, facts, index, answer) or _unknown_siblings(facts, index)
    if missing:
        return ClaimCheck(UNSUPPORTED, missing, coverage, None, nearest)
    unbound = (
        _denied_by_itself(claim)
        or _unbound(claim, facts, index)
        or _id_swapped(claim, facts, index)
        or _other_way(claim, facts, index)
        or (_row_crossed(claim, index) or _cell_crossed(claim, index) if index.structured else ())
    )
    if unbound:
        return ClaimCheck(UNSUPPORTED, unbound, coverage, None, nearest)
    field = _field_flip(parts, index)
    if field is not None:
        return ClaimCheck(CONTRADICTED, (), coverage, field, field)
    # Both rules: short prose only (the lines of a structured output are records, not
    # passages: a header names what every line is about).
    if not index.structured and not index.more_segments_than(SCATTER_MAX_SEGMENTS):
        per_clause = [facts if part == claim else read_facts(part, claim=True) for part in parts]
        scattered = next(
            (found for clause_facts in per_clause if (found := _scattered(clause_facts, index))),
            (),
        )
        if scattered:
            return ClaimCheck(UNSUPPORTED, scattered, coverage, None, nearest)
        for clause_facts in per_clause:
            swapped = _swapped(clause_facts, index)
            if swapped is not None:
                return ClaimCheck(UNSUPPORTED, swapped[0], coverage, None, swapped[1])
    anchored = bool(facts.names or facts.numbers or facts.dates or facts.identifiers)
    # Over structured output a sentence's own words are the writer's ("closed" for
    # "open": false): only its facts are held.
    if (not anchored and not index.structured and content >= COVERAGE_MIN_WORDS
            and coverage < COVERAGE_MIN):
        words = tuple(
            sorted({w for w in facts.words if stem(w) in facts.content_stems
                    and stem(w) not in index.stems})
        )
        return ClaimCheck(UNSUPPORTED, words, coverage, None, nearest)
    return ClaimCheck(SUPPORTED, (), coverage, None, nearest)


def _names_of_claim(facts: TextFacts, index: EvidenceIndex) -> list[str]:
    """A claim's names, and its first word when the evidence writes that word capitalised
    ("Sofia will update...", "Marketing has spent..."): `read_facts` cannot tell a first word
    that is a name from one capitalised as a sentence's start, the evidence can."""
    names = [n for n in facts.names if n.lower().split("'")[0] not in PRONOUNS]
    first = facts.words[0] if facts.words else ""
    if first and first not in names and first in index.proper and first.lower().split("'")[
        0
    ] not in PRONOUNS:
        names.append(first)
    return names


def _scattered(facts: TextFacts, index: EvidenceIndex) -> tuple[str, ...]:
    """Names and numbers of one claim that the evidence holds, but never within
    `SCATTER_WINDOW` segments of each other: the claim joins facts the evidence keeps apart.
    Only over short evidence (`SCATTER_MAX_SEGMENTS`): a summary of a long document joins
    facts from far apart as a matter of course."""
    if index.more_segments_than(SCATTER_MAX_SEGMENTS):
        return ()
    places: dict[str, list[int]] = {}
    for name in _names_of_claim(facts, index):
        found: set[int] = set()
        for part in word_parts(name):
            if len(part) >= 2:
                found.update(index.profiles[p].ordinal for p in index.positions(stem(part)))
        if found:
            places[name] = sorted(found)
    for number in facts.numbers:  # years and amounts; not clock times or small counts
        if number.value < SCATTER_MIN_NUMBER:
            continue
        at = index.number_at.get(number_key(number.value))
        if at:
            places[number.text] = sorted(set(at))
    if len(places) < 2:
        return ()
    lists = list(places.values())
    for start in sorted({o for ordinals in lists for o in ordinals}):
        if all(
            (i := bisect.bisect_left(ordinals, start)) < len(ordinals)
            and ordinals[i] <= start + SCATTER_WINDOW
            for ordinals in lists
        ):
            return ()
    return (*(f"'{a}'" for a in places), _APART)


def _swapped(
    facts: TextFacts, index: EvidenceIndex
) -> tuple[tuple[str, ...], int] | None:
    """A claim that says of one name what the evidence says of another: the evidence clauses
    stating the rest of it (most of its other content words) mention another name, and one of
    the claim's names is nowhere in their sentence, or the sentences it goes on from
    ("narrated by Robert Knapp" where the evidence says "narrated by Walter Coy" and names
    Knapp elsewhere; "Sofia will update the roadmap" where it says "Omar to update the
    roadmap" and lists Sofia among the attendees)."""
    if index.more_segments_than(SCATTER_MAX_SEGMENTS):  # short evidence, as for joined facts
        return None
    names = _names_of_claim(facts, index)
    if not names:
        return None
    name_stems = {stem(p) for n in names for p in word_parts(n) if len(p) >= 2}
    rest = facts.content_stems - name_stems
    if len(rest) < SWAP_MIN_WORDS:
        return None
    ranked = index.nearest(frozenset(rest))
    if not ranked or ranked[0][0] < max(SWAP_MIN_WORDS, POLARITY_OVERLAP * len(rest)):
        return None
    best = [p for n, p in ranked if n == ranked[0][0]]
    for position in best:
        stated = index.sentence_stems(position)
        absent = [
            n for n in names
            if not {stem(p) for p in word_parts(n) if len(p) >= 2} & stated
        ]
        others = sorted(
            n for n in index.names_of(position) - {n.lower() for n in names}
            if n.upper() not in index.sentences[position].clause  # "ADVISORY" is a status
        )
        if not absent or not others:
            return None
    # A name stated with all the claim's numbers, in a sentence sharing some of the rest, is
    # its own line of a list ("Casa do Largo - 3 stars - EUR 96/night" beside "Hotel Alfama
    # Rio - 4 stars - EUR 142/night"): the numbers bind the claim to it.
    if facts.numbers:
        shared = {p: n for n, p in ranked}
        for name in absent:
            for part in word_parts(name):
                if len(part) >= 2 and any(
                    shared.get(p, 0) >= SWAP_MIN_WORDS
                    and all(n.text.lower() in index.sentences[p].text.lower()
                            for n in facts.numbers)
                    for p in index.positions(stem(part))
                ):
                    return None
    said = (*(f"'{n}'" for n in absent), f"{_OF_ANOTHER} '{others[0]}'")
    return said, best[0]


def passage_checks(checks: list[ClaimCheck], index: EvidenceIndex) -> list[ClaimCheck]:
    """Over a document: the claims standing on their facts are held to one passage each
    (`PASSAGE_MIN`), judged with the answer they are part of. A structured output's lines are
    records, not passages: an answer draws on many of them."""
    if not index.is_document or index.structured:
        return checks
    held = {
        i: index.passage(check.content)
        for i, check in enumerate(checks)
        if len(check.content) >= COVERAGE_MIN_WORDS
    }
    if not held or sum(share for share, _ in held.values()) / len(held) >= PASSAGE_MIN:
        return checks
    out = list(checks)
    for i, (share, at) in held.items():
        if out[i].verdict == SUPPORTED and share < PASSAGE_MIN:
            out[i] = ClaimCheck(UNSUPPORTED, (_PASSAGE,), share, None, at)
    return out


def _unknown_siblings(facts: TextFacts, index: EvidenceIndex) -> tuple[str, ...]:
    """Joined words in the evidence's naming scheme that the evidence does not hold ("auth-gw"
    where it names "payments-gw"): another service, host or environment."""
    return tuple(
        f"identifier '{w}'" for w in facts.words
        if ("-" in w or "_" in w) and w.islower() and _JOINED.fullmatch(w)
        and w not in index.text and index.siblings(w)
        and not all(index.knows_part(p) for p in _JOINERS.split(w))
    )


def _unbound(claim: str, facts: TextFacts, index: EvidenceIndex) -> tuple[str, ...]:
    """A number bound in the claim to a name (written just before it) that the evidence holds,
    but never in one record with that name: the value of another key ("followed by the
    Americas with 1,840,200" where the evidence has ("EMEA", 1840200))."""
    numbers = [n for n in facts.numbers if n.value >= SCATTER_MIN_NUMBER and not n.hedged]
    if not numbers:
        return ()
    names = {*_names_of_claim(facts, index), *facts.identifiers}
    if not names:
        return ()
    words = [(m.start(), m.group()) for m in _WORD_IN_CLAIM.finditer(claim)]
    cuts = clause_starts(claim)
    for number in numbers:
        at = _place(claim, number.text)
        # bound within its clause ("with M. Rossi as owner, while the $210,000 ... deal"), and
        # over an output in lines within its phrase ("£1,093.20 including VAT, on a subtotal of
        # £911"; but "Ming-Na Wen, born in 1963" of a passage)
        opens = max((c for c in cuts if c <= at), default=0)
        if index.structured:
            opens = max(opens, *(claim.rfind(mark, 0, at) + 1 for mark in _PHRASE_MARKS))
        before = [w for start, w in words if opens <= start < at][-BIND_MAX_WORDS:]
        before = before if at >= 0 else []
        after = _WORD_IN_CLAIM.search(claim, at + len(number.text)) if at >= 0 else None
        if after is not None and after.group() in names and after.start() - at < BIND_AFTER_CHARS:
            continue  # "300 Crataegus": the name after it is the number's
        name = next((w for w in reversed(before) if w in names), None)
        if name is None or not (index.has_name(name) or index.has_identifier(name)):
            continue
        records = index.records_of(number)
        where = index.record_tokens if index.structured else {}
        if (
            records
            and not any(_holds_word(record, name.lower()) for record in records)
            # a line of an output in lines is one record, whatever its sentences
            and not where.get(name.lower(), set()) & where.get(number.text.replace(",", ""), set())
            # in structured output a header ("Sixt, Lisbon Airport") states no value of its own
            and (not index.structured or index.keyed(name.lower()))
        ):
            return (f"'{name}'", f"'{number.text}'", _APART)
    return ()





def _row_crossed(claim: str, index: EvidenceIndex) -> tuple[str, ...]:
    """Over a structured output, a claim's clause that mixes two lines: a number written on one
    line only, but on none of the lines the clause's keys name, nor beside a word of its own line
    ("The /data filesystem is at 95%" where 95% is on the root's line), or an identifier whose
    line holds nothing else the clause says while two of its other tokens are on one other line
    ("i-0c3d9 (10.0.2.41) in eu-west-1b" where the address and the zone are i-0b77c's). A key
    is a token of one data line only (a line holding a number, past the output's first: titles
    and headers are no rows)."""
    where, rows = index.record_tokens, index.data_rows
    for part in clauses(claim):
        tokens = [t for t in record_tokens(part) if t in where and t not in STOPWORDS]
        keys = [
            (i, row) for i, t in enumerate(tokens)
            if len(where[t]) == 1 and (row := next(iter(where[t]))) in rows and t in index.keys
        ]
        if not keys:
            continue
        for i, token in enumerate(tokens):
            if len(where[token]) != 1 or not where[token] <= rows or not _distinct_number(token):
                continue
            if where[token] <= index.events:  # a log's events: a clause may tell several
                continue
            near = {r for _, r in keys}  # the lines the clause names
            # its own line's words beside it name that line ("a standing charge of 0.41")
            beside = {
                r for t in tokens[max(0, i - ROW_BESIDE):i] + tokens[i + 1:i + ROW_BESIDE + 1]
                if len(where[t]) == 1 for r in where[t]
            }
            if not where[token] & near and not where[token] & (beside - near):
                return (f"'{token}'", _OTHER_RECORD)
        for k, row in keys:
            if _id_shape(tokens[k]) is None or any(
                row in where[t] for j, t in enumerate(tokens) if j != k
            ):
                continue
            others = Counter(
                r for j, t in enumerate(tokens) if j != k and len(where[t]) == 1
                for r in where[t] if r in rows
            )
            if others and others.most_common(1)[0][1] >= ROW_MIN_TOKENS:
                return (f"'{tokens[k]}'", _OTHER_RECORD)
    return ()


def _cell_crossed(claim: str, index: EvidenceIndex) -> tuple[str, ...]:
    """Over a table, a clause naming one row that gives it another row's word in a column of
    words ("Ferncross is rising" where Ferncross's trend is Falling and another station's
    Rising; "Batch R-3312 was a washed Sumatra" where R-3312's process is wet-hulled). The row
    is the one the clause's keys name (the sentence's clause before, for "it"); a clause naming
    two rows compares them and is not read."""
    where = index.record_tokens
    named: frozenset[str] = frozenset()
    for part in clauses(claim):
        lowered = part.lower()
        keys = frozenset(
            t for t, written in record_tokens(part, cased=True)
            if len(where.get(t, ())) == 1 and t not in STOPWORDS
            and (not t[0].isdigit() or _distinct_number(t))
            # "two runners" names no row where the output has only "Heaton Runners"
            and (not written.islower() or t in index.lowercase)
        )
        opening = [w.lower() for w in _WORD_IN_CLAIM.findall(part)[:3]]
        # "..., and it is licensed under MIT", "..., and is on backorder" go on about the row
        # named before
        goes_on = PRONOUNS.intersection(opening) or (not keys and set(opening[:1]) <= _GOES_ON)
        named = named | keys if goes_on else keys
        values: TextFacts | None = None
        for table in index.tables:
            flipped = _row_field(part, named, table)
            if flipped:
                return flipped
            if values is None:
                values = read_facts(part, claim=True)
            crossed = _date_crossed(part, values, named, table)
            if crossed:
                return crossed
            for c in table.worded:
                for other in sorted({cells[c] for _, _, cells in table.rows if len(cells) > c}):
                    if len(other) < 2 or not WORDED_CELL.fullmatch(other) or not _holds_word(
                        lowered, other
                    ) or _denied(lowered, other):
                        continue
                    # the word itself names the rows that hold it
                    naming = named - set(record_tokens(other))
                    rows = [row for row in table.rows if naming & row[1]]
                    if len(rows) == 1 and _other_rows_named(part, other, rows[0], table):
                        rows = []  # "35 m3/s from 06:00, then 60 m3/s for an inspection"
                    if len(rows) > 1:  # the row named right beside it ("jo's deck.pdf")
                        near = _beside(lowered, other) & naming
                        rows = [row for row in table.rows if near & row[1]]
                    if len(rows) != 1:
                        continue
                    text, _, own = rows[0]
                    if len(own) > c and own[c] != other and not _holds_word(text, other) and not (
                        own[c] and _holds_word(lowered, own[c])
                    ):
                        return (f"'{other}'", _OTHER_RECORD)
    return ()


def _date_crossed(
    clause: str, facts: TextFacts, named: frozenset[str], table: Table
) -> tuple[str, ...]:
    """A date of another row's cell given to the row the clause names: "the deposition on the
    19th" where its row says the 24th and another row the 19th. (Numbers are left to
    `_row_crossed`: a small number of another row is as often a count the claim makes.)"""
    for date in facts.dates:
        if not (date.month and date.day):
            continue
        day = (date.month, date.day)
        naming = named - set(record_tokens(date.text))
        rows = [row for row in table.rows if naming & row[1]]
        if len(rows) != 1 or _other_rows_named(clause, date.text.lower(), rows[0], table):
            continue
        mine = _cell_dates(rows[0][2])
        if any(day in cell for cell in mine):
            continue  # the row holds it
        others = [_cell_dates(cells) for _, _, cells in table.rows if cells is not rows[0][2]]
        for c, cell in enumerate(mine):
            if cell and any(len(other) > c and day in other[c] for other in others):
                return (f"'{date.text}'", _OTHER_RECORD)
    return ()


def _cell_dates(cells: tuple[str, ...]) -> list[set[tuple[int, int]]]:
    """Each cell's dates, as (month, day)."""
    return [
        {(d.month, d.day) for d in (*read_facts(cell, claim=False).dates, *_numeric_dates(cell))
         if d.month and d.day}
        for cell in cells
    ]


def _row_field(clause: str, named: frozenset[str], table: Table) -> tuple[str, ...]:
    """A yes/no column of a table stated the other way for the row the clause names
    ("dark_mode_v2 is enabled" where its `enabled` is false; "not on backorder" where its
    `backordered` is yes)."""
    words = words_of_in_order(clause)
    negated = words_profile(words)[1]
    written = {stem(p) for w in words for p in word_parts(w)}
    if written & _OFF:  # "Eco mode is off"
        negated = negated | (written - _OFF)
    for c, head in enumerate(table.heads):
        field = frozenset(stem(w) for w in _FIELD_WORDS.findall(head))
        if not field or not field <= written or (negated and not field & negated):
            continue
        naming = named - field
        rows = [row for row in table.rows if naming & row[1]]
        if len(rows) > 1:  # "X waters at 06:15, the Rose Border zone is enabled"
            rows = [] if negated else _named_last(clause, field, naming, table)
        value = rows[0][2][c] if len(rows) == 1 and len(rows[0][2]) > c else ""
        if value in _YES_NO and bool(field & negated) == (value in _YES):
            return (f"'{head}: {value}'", _ROW_FIELD)
    return ()


def _other_rows_named(
    clause: str, other: str, row: tuple[str, frozenset[str], tuple[str, ...]], table: Table
) -> bool:
    """Whether the clause also writes a token held by one other row of the table only ("60",
    too small to tell lines apart in the whole output, tells them apart here)."""
    own = set(record_tokens(other))
    return any(
        t in table.unique and t not in row[1] and t not in own and t not in STOPWORDS
        for t in record_tokens(clause)
    )


def _named_last(
    clause: str, field: frozenset[str], naming: frozenset[str], table: Table
) -> list[tuple[str, frozenset[str], tuple[str, ...]]]:
    """The row that the clause's last naming token before the field's word names."""
    last = None
    for token in record_tokens(clause):
        if stem(token) in field:
            break
        if token in naming:
            last = token
    return [row for row in table.rows if last in row[1]] if last else []


def _denied(text: str, phrase: str) -> bool:
    """Whether a clause negates a phrase it writes ("still hasn't been returned"): another
    row's word, denied, says this row is not so."""
    at = text.find(phrase)
    before = _WORD_IN_CLAIM.findall(text[max(0, at - 40):at])[-NEGATION_SCOPE:]
    return at >= 0 and any(word_profile(w).negation for w in before)


def _beside(text: str, phrase: str) -> set[str]:
    """The tokens at most `ROW_BESIDE` from where a phrase is written in a text."""
    tokens = record_tokens(text)
    size = len(record_tokens(phrase))
    near: set[str] = set()
    for at in range(len(tokens) - size + 1):
        if " ".join(tokens[at:at + size]).startswith(phrase.split()[0]):
            near.update(tokens[max(0, at - ROW_BESIDE):at])
            near.update(tokens[at + size:at + size + ROW_BESIDE])
    return near


def _distinct_number(token: str) -> bool:
    """A number that tells one line from another: with a decimal point, a unit, or three
    digits or more ("10.0.2.41", "421g", "1,250", "95%"); not "2"."""
    if not token[:1].isdigit():
        return False
    digits = sum(c.isdigit() for c in token)
    if token.isdigit() and _YEARS[0] <= int(token) <= _YEARS[1]:
        return False  # a year
    return digits >= 3 or "." in token or (digits >= 2 and not token.isdigit())


def _holds_word(text: str, word: str) -> bool:
    """Whether a text holds a word as a whole ("episodes" does not hold "episode")."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not text[at - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            return True
        at = text.find(word, at + 1)
    return False


def _id_shape(token: str) -> tuple[bool, frozenset[str]] | None:
    """An identifier's kind (holds digits; its joiners), None for a token that is no
    identifier."""
    marks = _ID_MARKS.intersection(token)
    if not marks or not any(c.isalpha() for c in token):
        return None
    parts = [p for p in re.split(r"[-_./#]", token) if p]
    mixed = any(not p.isalpha() and not p.isdigit() for p in parts)
    if not mixed and any(p.isdigit() for p in parts):  # "73-year-old", "COVID-19", "v2.8"
        return None
    return mixed, frozenset(marks)


def _id_swapped(claim: str, facts: TextFacts, index: EvidenceIndex) -> tuple[str, ...]:
    """An identifier the evidence holds, written just before a number that the evidence
    states only of another identifier of its kind ("checkout-7d9f8b-x2k4p ... after 14
    restarts" where 14 is on the line of checkout-7d9f8b-q8m1z)."""
    numbers = [n for n in facts.numbers if not n.hedged]
    if not numbers:
        return ()
    ids = [
        (m.start(), m.group()) for m in _ID_TOKEN.finditer(claim)
        if _id_shape(m.group()) is not None and m.group().lower() in index.text
        and _JOINERS.search(m.group())  # "ledger-svc", not the unit "EUR/kWh"
    ]
    if not ids:
        return ()
    words = [m.start() for m in _WORD_IN_CLAIM.finditer(claim)]
    for number in numbers:
        at = _place(claim, number.text)
        bound = [
            token for start, token in ids
            if start < at and sum(1 for w in words if start < w < at) < BIND_MAX_WORDS
        ]
        if not bound:
            continue
        token = bound[-1]
        stating = index.clauses_stating(number)
        shape = _id_shape(token)
        if stating and all(
            token.lower() not in clause
            and any(_id_shape(t) == shape for t in _ID_TOKEN.findall(clause))
            for clause in stating
        ):
            return (f"'{token}'", f"'{number.text}'", _APART)
    return ()


def _other_way(claim: str, facts: TextFacts, index: EvidenceIndex) -> tuple[str, ...]:
    """A number said to rise that the evidence writes only with a minus, or to fall that it
    writes only with a plus ("grew by 3.1%" where the evidence has -3.1)."""
    lowered = claim.lower()
    for number in facts.numbers:
        at = _place(lowered, number.text.lower())
        before = set(_WORD_IN_CLAIM.findall(lowered[max(0, at - 40):at])[-DIRECTION_WORDS:])
        rises, falls = bool(before & _RISES), bool(before & _FALLS)
        rises = rises and not before & _COMING  # "two payments are coming up: £24.99"
        if at < 0 or rises == falls:
            continue
        signs = index.signs_of(number)
        if signs == ({"-"} if rises else {"+"}):
            return (f"'{number.text}'", _OTHER_WAY)
    return ()


def _denied_by_itself(claim: str) -> tuple[str, ...]:
    """A comparison the claim's own numbers deny ("averaging 3.9, up from 4.3")."""
    found = contradicts_itself(claim)
    if found is None:
        return ()
    value, other, higher = found
    return (f"'{value}' {'higher' if higher else 'lower'} than '{other}'", _DENIED)


def _field_flip(parts: Sequence[str], index: EvidenceIndex) -> int | None:
    """The yes/no field a claim's clause states the other way round: "has been deprecated"
    where the tool returned "deprecated": false, "isn't gluten-free" for Gluten-free: yes."""
    if not index.fields:
        return None
    for clause in parts:
        words = _rather_than(words_of_in_order(clause))
        negated = words_profile(words)[1]
        # "ready to collect" does not say it was collected
        written = {
            stem(p) for before, w in pairwise(["", *words])
            if before.lower() != "to" for p in word_parts(w)
        }
        # a field's one word written as two ("data_rollover": "data rolls over")
        written.update(stem(stem(a.lower()) + b.lower()) for a, b in pairwise(words))
        if written & _OFF:  # "Eco mode is off"
            negated = negated | (written - _OFF)
        for field, value, position in index.fields:
            if not field <= written or (negated and not field & negated):
                continue  # "Walk-ins are not accepted": the negation is the predicate's
            if bool(field & negated) == value:
                return position
    return None


def _total(claim: str, number: NumberFact) -> bool:
    """Whether the claim writes this number as a total ("2 of the 16 checks", "in total")."""
    lowered = claim.lower()
    at = _place(lowered, number.text.lower())
    before = _WORD_IN_CLAIM.findall(lowered[max(0, at - 24):at])[-2:] if at >= 0 else []
    after = lowered[at + len(number.text):at + len(number.text) + 24] if at >= 0 else ""
    return bool(set(before) & _TOTALS) or " in total" in after or " in all" in after


def _as_a_time(claim: str, number: NumberFact, index: EvidenceIndex) -> bool:
    """Whether the number is part of a time the claim writes as the evidence's (judges/clock):
    a time of day, a duration, the time between two of the output's, hours as minutes."""
    at = _place(claim, number.text)
    return (
        on_the_clock(claim, number.text, index.times)
        or in_a_duration(claim, number.text, index.number_values)
        or apart(
            number.value,
            number.unit or (unit_after(claim[at + len(number.text):]) if at >= 0 else ""),
            number.hedged,
            index.clock_seconds,
            claim,
        )
        or (at >= 0 and in_other_units(claim[at + len(number.text):], number.value, index.text))
    )


def _computed(claim: str, number: NumberFact) -> bool:
    """Whether the claim says this number was worked out ("840 yards total", "across the three
    machines", "dropped by 425", "a win rate of 45%", "about a 6x return", "so $44"; just after
    it, "44 seats free", "16 days later")."""
    if number.unit in _TIMES:
        return True
    lowered = claim.lower()
    at = _place(lowered, number.text.lower())
    if at < 0:
        return False
    before = _WORD_IN_CLAIM.findall(lowered[max(0, at - 48):at])[-COMPUTED_WORDS:]
    after = _WORD_IN_CLAIM.findall(lowered[at + len(number.text):at + len(number.text) + 32])
    if number.percent and "of" in after[:2]:  # "about 153 % of its goal": a share
        return True
    return bool(
        _COMPUTED.intersection(before) or _COMPUTED_AFTER.intersection(after[:3])
        or "so" in before[-2:]
    )


def _from_its_own(claim: str, number: NumberFact, numbers: Sequence[NumberFact]) -> bool:
    """Whether the claim works this number out from its own others, each checked on its own:
    exactly a sum, difference or product of two, a share or quotient of two at the precision
    written, or a sum of three where the claim says it totals ("12 day passes, 2 more than
    included, which adds €44 at €22 each"; "the full job would be £4,657"). A whole number
    under `DERIVED_MIN` only where the claim says it was worked out."""
    if _a_year(number):
        return False
    computed = _computed(claim, number)
    if not number.decimals and number.value < DERIVED_MIN and not computed:
        return False
    others = [n.value for n in numbers if n is not number and n.scaled is None and not _a_year(n)]
    others.extend(NUMBER_WORDS[w] for w in _COUNT_WORD.findall(claim.lower()))
    if len(others) > OWN_MAX_NUMBERS:
        return False
    return works_out(others, number.value, number.decimals, percent=number.percent,
                     three=computed)


def _named_rows_total(claim: str, number: NumberFact, index: EvidenceIndex) -> bool:
    """Whether a number of 10 or more, or with decimals, is a column's total over rows of a
    table whose words the claim writes: the rows of one such word ("507 Wigeon across both
    sites": the Wigeon rows), or all the rows it names ("spend across Meta, Google and
    TikTok"); or the sum of two columns' product over those rows or every row (an order's
    lines at their quantity times their price: "the lines add up to £347.60")."""
    if not index.structured or (not number.decimals and number.value < 10) or _a_year(number):
        return False
    lowered = claim.lower()
    for table in index.tables:
        groups: dict[tuple[int, str], list[tuple[str, ...]]] = defaultdict(list)
        for _, _, cells in table.rows:
            for c in table.worded:
                if len(cells) > c and len(cells[c]) >= 3 and _holds_word(lowered, cells[c]):
                    groups[c, cells[c]].append(cells)
        named = {id(cells): cells for rows in groups.values() for cells in rows}
        every = [cells for _, _, cells in table.rows]
        # one row is no total; every row's column totals are `column_total`'s
        totals = [line_sums(every)] if len(every) > 1 else []
        totals.extend(
            column_sums(rows, blanks=False) | line_sums(rows)
            for rows in (*groups.values(), list(named.values())) if 1 < len(rows) < len(every)
        )
        if any(round(v, number.decimals) == number.value for sums in totals for v in sums):
            return True
    return False


def _share_of(number: NumberFact, numbers: Sequence[NumberFact], index: EvidenceIndex) -> bool:
    """Whether a number of 100 or more is a percentage the claim writes of a value of the
    evidence ("a 25% deposit, that's £1,085" of 4,340)."""
    if number.value < DERIVED_MIN:
        return False
    shares = [n.value / 100 for n in numbers if n.percent and n is not number]
    return any(
        round(share * value, number.decimals) == number.value
        for share in shares for value in index.number_values
    )


def _anchored(
    claim: str, number: NumberFact, facts: TextFacts, answer: Answer | None,
    index: EvidenceIndex,
) -> bool:
    """Whether the number is worked out in one step from a number the answer writes and
    another that the answer writes or the evidence states near the claim: their sum or
    difference, a count (a whole number of at most `COUNT_MAX`) times one, half of one, a
    percentage the claim writes of one, or one less or more that percentage ("they'll owe
    £110" of £150 with £40 paid; "8.4 kg in all" for 24 pouches of 350 g; "the 10% discount
    brings it down to £81" of £90). A small whole number the claim does not say it worked
    out is read only as a count the claim writes in words times another of its numbers
    ("two weeks would be £90" at £45 a week): many pairs of an output make one. The
    percentages include those the evidence near the claim states ("plus VAT at 20%"); and a
    sum of the numbers at one place of two or three of the lines nearest the claim counts
    too ("10,295 litres across its two tanks")."""
    if _a_year(number) or _ordinal(number.text):
        return False
    at = _place(claim, number.text)
    if at >= 0 and unit_after(claim[at + len(number.text):]):
        return False  # a time's: judges/clock reads those
    lowered = claim.lower()
    amounts = _amounts(claim, facts)
    own = [n for n in facts.numbers if n is not number and n.value in amounts]
    counts = [NUMBER_WORDS[w] for w in _COUNT_WORD.findall(lowered)]
    if not number.decimals and not number.hedged:
        slack = 1e-9 * max(1.0, abs(number.value))
        targets = [(number.value - slack, number.value + slack)]
    else:  # rounded half up at the precision written ("£237.22" for 237.215)
        half = 0.5 * 10 ** -number.decimals + 1e-9
        scales = (1.0, *_CONVERSIONS.get(number.unit, ())) if number.decimals else (1.0,)
        targets = [((number.value - half) / f, (number.value + half) / f) for f in scales]
    if not (number.decimals or number.value >= DERIVED_MIN or _computed(claim, number)):
        return any(
            lo <= c * n.value <= hi for c in counts for n in own for lo, hi in targets
        )
    anchors = {n.value for n in own} | set(counts) | (answer.amounts if answer else set())
    anchors.discard(number.value)
    if "half" in lowered:
        anchors.add(2.0)
    operands = set(anchors)
    nearest = [
        index.sentences[position].text
        for _, position in index.nearest(facts.content_stems, 2)[:NEAR_SENTENCES]
    ]
    records = [record for other in own for record in index.records_of(other) or ()]
    percents = {n.value for n in own if n.percent}
    for text in chain(records, nearest):
        operands.update(_values_in(text))
        # a rate the evidence states ("All plus VAT at 20%", "20% commission")
        percents.update(float(p) for p in _PERCENT_IN_TEXT.findall(text))
    if one_step(anchors, operands, percents, targets, percent=number.percent):
        return True
    # the same place of the lines nearest the claim, added up ("10,295 litres across its two
    # tanks" from two log lines of that farm)
    lines = [_values_in(text) for text in nearest]
    return any(
        lo <= sum(values[k] for values in group) <= hi
        for size in (2, 3) for group in combinations(lines, size)
        for k in range(min(map(len, group))) for lo, hi in targets
    )


def _amounts(claim: str, facts: TextFacts) -> set[float]:
    """The values of a claim's numbers that are amounts: not a year, a day or a time of day."""
    return {
        n.value for n in facts.numbers
        if not _a_year(n) and not _ordinal(n.text) and not _in_a_time(claim, n.text)
    }


def _in_a_time(claim: str, text: str) -> bool:
    """Whether a number is written as part of a time of day ("12:40")."""
    at = _place(claim, text)
    after = claim[at + len(text):at + len(text) + 2]
    return at >= 0 and ((after[:1] == ":" and after[1:].isdigit()) or claim[at - 1:at] == ":")


def _ordinal(text: str) -> bool:
    """Whether a number is written as an ordinal, a day of a month ("the 21st")."""
    return text[-2:].lower() in _ORDINAL_ENDINGS


def _values_in(text: str) -> list[float]:
    """The numbers a text states, less its dates and times of day."""
    return [float(n.replace(",", "")) for n in _NUMBER_IN_TEXT.findall(_STAMP.sub(" ", text))]


def _a_year(number: NumberFact) -> bool:
    """Whether a number is written as a year ("2026", not "1,610")."""
    return number.text.isdigit() and _YEARS[0] <= number.value <= _YEARS[1]


def _spelled_out(claim: str, index: EvidenceIndex) -> set[str]:
    """The words of the claim's capitalised names whose initials the evidence writes ("Tree
    Preservation Order" for TPO)."""
    words = index.vocabulary.words
    spelled: set[str] = set()
    for m in _CAPITALISED_RUN.finditer(claim):
        run = m.group().split()
        if "".join(w[0] for w in run).lower() in words:
            spelled.update(run)
    return spelled


def _missing_facts(
    claim: str, facts: TextFacts, index: EvidenceIndex, answer: Answer | None = None, *,
    names: bool = True,
) -> tuple[str, ...]:
    missing: list[str] = []
    if names and facts.names:
        unknown = [n for n in facts.names if not index.has_name(n)]
        if unknown:
            spelled = _spelled_out(claim, index)
            missing.extend(f"name '{n}'" for n in unknown if n not in spelled)
    if facts.numbers:
        unheld = [
            n for n in facts.numbers
            if not index.has_number(n) and not _as_a_time(claim, n, index)
        ]
        if unheld:
            held = [n for n in facts.numbers if n not in unheld]
            missing.extend(
                f"number '{n.text}'" for n in unheld
                if not (_total(claim, n) and index.adds_up(n, held))
                and not (_computed(claim, n) and index.derives(n))
                and not index.in_one_record(n) and not index.column_total(n)
                and not _named_rows_total(claim, n, index)
                and not _from_its_own(claim, n, facts.numbers)
                and not _share_of(n, facts.numbers, index)
                and not _anchored(claim, n, facts, answer, index)
            )
    if facts.dates:
        missing.extend(f"date '{d.text}'" for d in facts.dates if not index.has_date(d))
    if facts.identifiers:
        missing.extend(f"identifier '{i}'" for i in index.missing_identifiers(facts.identifiers))
    return tuple(dict.fromkeys(missing)) if missing else ()


def _polarity_flip(parts: Sequence[str], index: EvidenceIndex) -> int | None:
    """The evidence clause a claim contradicts: for one of its clauses, every evidence clause
    that states what it states (most of its content words) negates the shared words where the
    claim does not, or the other way round ("supports Windows" / "does not support Windows").
    Whether, not which: a negation's reach differs between phrasings ("Missing index on
    invoices" / "invoices has no index")."""
    for clause in parts:
        if not (index.negates or may_negate(clause)):  # no negation on either side
            continue
        words = words_of_in_order(clause)
        if title_like(words):  # a bare name asserts no polarity
            continue
        words = _rather_than(words)
        stems, negated = words_profile(words)
        if len(stems) < POLARITY_MIN_WORDS:
            continue
        odd = _negations(words) % 2
        need = max(POLARITY_MIN_SHARED, POLARITY_OVERLAP * len(stems))
        # A field's "No" or null is the field rule's ("Out of service: No", "accepted": null),
        # and so is a table cell's ("| W3 | unassigned | no | out of service |").
        same = [
            p for _, p in index.nearest(stems, need)
            if not _FIELD_VALUE.search(text := index.sentences[p].text)
            and not _EMPTY_VALUE.search(text)
            and not (_DIFF_REMOVED.match(text) and index.is_diff)
            and text.strip().lower() not in index.rows_with_a_no
        ]
        if not same:
            continue
        # Both ways: the negated shared words, and the count of negations ("doesn't work" /
        # "doesn't suit": both negate; "can't add names without a fee" / "will incur a fee").
        if all(
            bool(negated & (shared := stems & index.profiles[p].stems))
            != bool(index.profiles[p].negated & shared)
            and odd != _negations(words_of_in_order(index.sentences[p].clause)) % 2
            for p in same
        ):
            return same[0]
    return None


def _negations(words: Sequence[str]) -> int:
    """How many negations a clause writes: "neither ... nor" is one, and so is "No, X is not"
    (an answer's "No" repeats the negation that follows)."""
    found = [w.lower() for w in words if word_profile(w).negation]
    count = len(found) - ("neither" in found and "nor" in found)
    if count > 1 and words[0] == "No":
        count -= 1
    return count


def _rather_than(words: list[str]) -> list[str]:
    """A clause's words with "rather than", "instead of", "apart from" and "except for" read
    as the "not" they mean before a word ("used up rather than scrapped")."""
    lowered = [w.lower() for w in words]
    for at in range(len(words) - 2):
        # "rather than frozen", not "instead of 31 August" (a value replaced, not denied)
        if (lowered[at], lowered[at + 1]) in _INSTEAD and words[at + 2].isalpha() and (
            words[at + 2].islower()
        ):
            return [*words[:at], "not", *_rather_than(words[at + 2:])]
    return words


def _place(text: str, number: str) -> int:
    """Where a number is written in a text as a whole ("2" in "12 passes, 2 more" is the
    second), or -1."""
    m = re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d])", text)
    return m.start() if m else -1


def _quote(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 3] + "..."


def explain(check: ClaimCheck, index: EvidenceIndex) -> str:
    """A reason a person can act on: what has no support, and the nearest evidence."""
    near = (
        f"; nearest evidence: \"{_quote(index.sentences[check.nearest].text)}\""
        if check.nearest is not None
        else ""
    )
    if check.verdict == CONTRADICTED:
        claim_says = "the evidence says the opposite"
        return f"polarity: {claim_says}{near}"[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[-1].startswith(
        _OF_ANOTHER
    ):
        named = ", ".join(check.missing[:-1])
        return (
            f"the evidence says this of another name: {named} is not in it, "
            f"{check.missing[-1][len(_OF_ANOTHER) + 1:]} is{near}"
        )[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[-1] == _APART:
        named = ", ".join(check.missing[:-1])
        return (
            f"{named} are in the evidence but never stated together: the claim joins facts "
            f"the evidence keeps apart{near}"
        )[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[-1] == _OTHER_RECORD:
        return f"{check.missing[0]} {_OTHER_RECORD}{near}"[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[-1] == _OTHER_WAY:
        return f"{check.missing[0]} {_OTHER_WAY}{near}"[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[-1] in (
        _DENIED, _ROW_FIELD
    ):
        return f"{check.missing[0]} {check.missing[-1]}{near}"[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing == (_PASSAGE,):
        return (
            f"only {check.coverage:.0%} of its content words are in any one passage of the "
            f"document, in an answer drawn loosely from it throughout{near}"
        )[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED and check.missing and check.missing[0].startswith(
        ("name ", "number ", "date ", "identifier ")
    ):
        return f"not in the evidence: {', '.join(check.missing)}{near}"[:MAX_EXPLANATION_CHARS]
    if check.verdict == UNSUPPORTED:
        words = ", ".join(check.missing[:8])
        return (
            f"only {check.coverage:.0%} of its content words are in the evidence "
            f"(missing: {words}){near}"
        )[:MAX_EXPLANATION_CHARS]
    return f"names, numbers and dates found; {check.coverage:.0%} of its words{near}"[
        :MAX_EXPLANATION_CHARS
    ]


class VerifierJudge:
    """Offline rules: unsupported names, numbers, dates, identifiers; polarity; coverage."""

    name = "verifier"
    model: str | None = MODEL

    def __init__(self, settings: JudgeSettings | None = None) -> None:
        self.settings = settings

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]:
        texts = [e.text for e in request.evidence]
        if not any(t.strip() for t in texts):
            return [JudgeVerdict(UNSUPPORTED, "no evidence to check against")] * len(
                request.claims
            )
        index = EvidenceIndex(texts)
        answer = Answer(request.claims)
        checks = [check_claim(claim, index, answer) for claim in request.claims]
        verdicts = []
        for check in passage_checks(checks, index):
            source = index.sentences[check.nearest].source if check.nearest is not None else None
            verdicts.append(JudgeVerdict(check.verdict, explain(check, index), source))
        return verdicts
