"""The evidence of a run, indexed for the verifier's rules (judges/verifier.py).

Built once per judgement and read lazily: the sentences up front; the words, clause profiles,
stem index, segments, records, tables, numbers, dates and derived values when a claim reaches
a rule that needs them. What the evidence holds, never what a claim says: the rules judge.
"""

from __future__ import annotations

import bisect
import datetime
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, chain, combinations, repeat
from typing import NamedTuple

from otel_grounding.judges.arithmetic import (
    column_totals,
    multiples,
    three_way,
    worked_out,
)
from otel_grounding.judges.clock import (
    clock_seconds,
    compact_date_times,
    cron_schedules,
    times_of_day,
)
from otel_grounding.judges.facts import (
    MONTHS,
    STOPWORDS,
    UNIT_AFTER,
    WEEKDAYS,
    DateFact,
    NumberFact,
    TextFacts,
    clause_names,
    clauses,
    continues,
    evidence_sentences,
    may_negate,
    number_key,
    number_keys,
    one_clause,
    read_facts,
    sentence_profile,
    stem,
    word_parts,
    words_of_in_order,
    words_profile,
)
from otel_grounding.judges.tables import (
    Table,
    cell_number,
    csv_cells,
    csv_line,
    json_items,
    read_tables,
    record_tokens,
)
from otel_grounding.sentences import word_list

#: A name is also covered by an evidence word it differs from only in a short ending
#: ("Korea" / "Korean"), at least this long.
NAME_PREFIX_MIN = 4
NAME_ENDING_MAX = 3
#: A name this long one letter away from an evidence word is that word misspelt.
SPELLING_MIN_CHARS = 6
#: A hedged number ("about 5") is covered by an evidence number within this relative distance.
HEDGE_TOLERANCE = 0.1
#: ... unless it is written to this many significant figures or more ("about 93,142" is no
#: rounding of 93,412).
HEDGE_MAX_FIGURES = 4
#: The names and numbers of one claim must all occur within this many consecutive evidence
#: sentences (0: one sentence).
SCATTER_WINDOW = 0
#: Numbers from this value on (years, amounts) count among a claim's facts that must be
#: stated together; smaller ones (clock times, counts) recur everywhere.
SCATTER_MIN_NUMBER = 100
#: Evidence is read in segments about one subject: a sentence opening on a pronoun or a
#: connective continues the segment, and so does any sentence while the segment is shorter
#: than this many words (short lines of a structured tool output are one record).
SEGMENT_MIN_WORDS = 25
#: Evidence of at least this many segments is a document (an article, a long report): a claim
#: is held to one passage of it, and the names, polarity and joined-facts rules step aside (a
#: summary names what the document's byline and context name, and joins its passages).
DOCUMENT_MIN_SEGMENTS = 4
#: An evidence "sentence" of fewer words than this is the start of the next one, cut off at
#: an abbreviation ("Robert Manoogian Jr.").
FRAGMENT_MAX_WORDS = 3
#: A tool output of this many lines or more is structured, not prose.
STRUCTURED_LINES = 3
#: A total is read only from a record of at most this many numbers (more: a sum by chance).
ADD_MAX_NUMBERS = 8
#: An output of at most this many distinct numbers is also read as one record by
#: `_derived_values` (a quote's price per tonne on one line, the tonnes on another).
DERIVED_MAX_NUMBERS = 40
#: ... for a whole number of at least this much (smaller ones, many pairs make).
DERIVED_MIN = 100


#: A number in hexadecimal ("0x00010000").
_HEX = re.compile(r"0x([0-9a-f]+)\b")
#: Small words joining the words of a hyphened phrase ("room-and-surname", "5-by-5-metre").
_JOINING_PARTS = frozenset(("and", "or", "of", "the", "to", "in", "on", "a", "by", "x"))
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
#: Greek letters a claim writes for the word an output spells ("ΔE" for delta_e).
_SYMBOL_NAMES = {"\u0394": "delta", "\u03a3": "sigma", "\u03bc": "mu", "\u03b1": "alpha"}
#: A common word written with one capital and a hyphen ("A-level", "T-shirt", "X-ray").
_COMMON_CAPITAL = re.compile(r"[A-Z]-[a-z]{3,}")
#: Languages by their two-letter codes ("EN>FR").
_LANGUAGES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it",
    "portuguese": "pt", "dutch": "nl", "polish": "pl", "swedish": "sv", "japanese": "ja",
    "chinese": "zh", "arabic": "ar", "russian": "ru", "greek": "el", "turkish": "tr",
}
#: A unit a claim writes -> the factors from the smaller units a tool may give it in
#: ("8.4 seconds" for 8421.337 ms, "1.8 GB" for 1,843 MB); read for a number with decimals,
#: or hedged ("nearly 4 GB" for 3964112kB).
_SECONDS = (1e-3,)
_MINUTES = (1 / 60, 1 / 60_000)
_HOURS = (1 / 60, 1 / 3600)
_DAYS = (1 / 24, 1 / 86_400)
_WEEKS = (1 / 7, 1 / 604_800)
_GIGA = (1e-3, 1 / 1024, 1e-6, 2**-20, 1e-9, 2**-30)
_MEGA = (1e-3, 1 / 1024, 1e-6, 2**-20)
_TERA = (*_GIGA, 1e-12, 2**-40)
_KILO = (1e-3, 1 / 1024)
#: A unit a thousandth of the one a tool gives ("800 g" for 0.80 kg).
_THOUSANDTHS = (1e3,)
#: A rate or a frequency from its smaller units ("3 Mbps" for a bit rate of 3029997, "1.5
#: GHz" for a clock of 1500345728).
_PER_MEGA = (1e-3, 1e-6)
_PER_GIGA = (1e-3, 1e-6, 1e-9)
CONVERSIONS: dict[str, tuple[float, ...]] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), _SECONDS),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), _MINUTES),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), _HOURS),
    **dict.fromkeys(("day", "days"), _DAYS),
    **dict.fromkeys(("week", "weeks"), _WEEKS),
    **dict.fromkeys(("gb", "gib", "gigabytes"), _GIGA),
    **dict.fromkeys(("mb", "mib", "megabytes"), _MEGA),
    **dict.fromkeys(("tb", "tib", "terabytes"), _TERA),
    **dict.fromkeys(("kb", "kib", "kilobytes"), _KILO),
    **dict.fromkeys(("mbps", "mhz"), _PER_MEGA),
    **dict.fromkeys(("gbps", "ghz"), _PER_GIGA),
    **dict.fromkeys(("km", "kg", "kw", "kwh", "mw", "mwh", "kilometres", "kilometers"), (1e-3,)),
    **dict.fromkeys(("m", "metres", "meters"), (1e-3, 1e-2)),
    **dict.fromkeys(("tonne", "tonnes"), (1e-3,)),
    "litres": (1e-3,),
    "liters": (1e-3,),
    # "800 g" for 0.80 kg, "250 ml" for 0.25 L
    **dict.fromkeys(("g", "grams", "ml", "millilitres", "milliliters"), _THOUSANDTHS),
}
#: Units of time and of size whose whole numbers an output may give exactly in a smaller unit
#: ("keeps messages for 14 days" for a retention of 1209600 seconds, "the 4 GiB limit" for
#: 4294967296 bytes).
_WHOLE_UNITS = frozenset(
    unit for unit, factors in CONVERSIONS.items()
    if factors
    in (_SECONDS, _MINUTES, _HOURS, _DAYS, _WEEKS, _KILO, _MEGA, _GIGA, _TERA, _THOUSANDTHS)
)
#: The hundredth of a currency a claim may write a price in ("85 cents a tap" for $0.85, "22p a
#: mile" for 0.22, "69c").
HUNDREDTH_UNITS = frozenset(("cent", "cents", "pence", "p", "c"))
#: A whole number's trailing zeros, when it has at least two: a rounded figure ("12,700"),
#: above the years ("200" may be meant exactly, "1900" is a year) ...
_ROUND_ZEROS = re.compile(r"(?<=[1-9])(?:,?0){2,}$")
#: ... and close to the value it rounds: "12,700" for 12,655, not "3,000" for 2,610.
ROUNDED_TOLERANCE = 0.01
#: A whole number with a unit rounds the output's value in that unit this closely: "12 mph" for
#: 12.4 mph, not "3 meters" for 2.75 m.
UNIT_ROUNDING_TOLERANCE = 0.05
#: A month or a date written year first, in digits ("2026-06", "2026:09:19").
_YEAR_FIRST = re.compile(r"(?<![\w:.-])((?:19|20)\d\d)(?:-(\d{2})(?![\w:-])|:(\d{2}):(\d{2})\b)")
#: A date written year first with dots, as log indices and file names write it
#: ("logs-2026.06.02").
_DOTTED = re.compile(r"(?<![\d.])((?:19|20)\d\d)\.(\d\d)\.(\d\d)(?![\d.])")
#: A date written year first with underscores, as file and batch names write it
#: ("orders_2026_05_11.parquet").
_UNDERSCORED = re.compile(r"(?<!\d)((?:19|20)\d\d)_(\d\d)_(\d\d)(?!\d)")
#: A date written year first with slashes, as Go's log package writes it ("2026/03/11"), or a
#: path its folders ("2025/12/31/IMG_88212.jpg").
_YEAR_SLASHED = re.compile(r"(?<![\w.])((?:19|20)\d\d)/(\d{1,2})/(\d{1,2})(?![\w.]|/\d)")
#: The months in French, German, Spanish, Italian, Dutch and Portuguese, each with its number:
#: an output in one of them is read as it would be in English ("samedi 16 mai 2026").
_FOREIGN_MONTHS = {
    name: number
    for number, names in enumerate((
        "janvier januar enero gennaio januari janeiro",
        "février fevrier februar febrero febbraio februari fevereiro",
        "mars märz maerz marzo maart março marco",
        "avril aprile",
        "mai mayo maggio mei maio",
        "juin juni junio giugno junho",
        "juillet juli julio luglio julho",
        "août aout agosto augustus",
        "septembre septiembre setiembre settembre setembro",
        "octobre oktober octubre ottobre outubro",
        "novembre noviembre novembro",
        "décembre decembre dezember diciembre dicembre dezembro",
    ), start=1)
    for name in names.split()
}
#: A day, a foreign month's name and perhaps the year ("16 mai 2026", "3. März", "16 de mayo
#: de 2026").
_FOREIGN_DATE = re.compile(
    r"(?<![\w.])(\d{1,2})(?:er|\.)?\s+(?:de\s+)?("
    + "|".join(sorted(_FOREIGN_MONTHS, key=len, reverse=True))
    + r")\b\.?(?:\s+(?:de\s+)?((?:19|20)\d\d)\b)?",
    re.IGNORECASE,
)
#: A date written day first with dots, as much of Europe writes it ("15.12.2026"): never month
#: first.
_DAY_DOTTED = re.compile(r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)(?![\w.])")
#: A date written day and month in digits, then the year ("03/11/2026").
_SLASHED = re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?:/((?:19|20)\d\d)\b|(?![\w/.]))")
#: A weekday's abbreviation and a day and month joined by a dash, without a year ("Fri
#: 03-06" in a listing of March), read both ways.
_WEEKDAY_DASHED = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun)\.?\s+(\d{1,2})-(\d{1,2})(?![\w-])", re.IGNORECASE
)
#: A sentence opening with one of these goes on about the sentence before.
_OPENING_PRONOUNS = frozenset(("He", "She", "They", "It"))
TIMES = frozenset(("x", "times"))
#: A number in the evidence with its sign: "-3.1", "+12%", and U+2212, the minus sign.
_SIGNED = r"(?:(?<=[^\w.,])|^)([-+\u2212]?){}(?![\d.,]\d)"
#: A field's value that denies one word ("Checked bag: not included", "Visa: not required
#: for stays up to 90 days"), or a value's bracketed note that does ("£18.40 (not yet paid)").
_DENIED_VALUE = re.compile(
    r"[:=]\s*(?:[^\s(),;:]+\s+\()?\"?not\s+(?:yet\s+)?([a-z]{4,})\b", re.IGNORECASE
)
#: A table's header line: columns set apart by two spaces or more, or named in CSV.
_COLUMN_GAP = re.compile(r"\S(?: {2,}|\t)(?=\S)")
_CSV_HEAD = re.compile(r"[\w ]+(?:,[\w ]+){2,}")
_DIGIT_IN = re.compile(r"\d")
#: A line listing what a state holds of, or does not ("Not covered: door seal wear, blockages"),
#: and a test for one in the lowercased text.
_LISTED_STATES = "|".join(word_list("covered included allowed permitted required accepted"))
_LIST_OF_STATE = re.compile(rf"\s*(not\s+)?({_LISTED_STATES})\s*:\s*(.+)", re.IGNORECASE)
_STATE_LISTED = re.compile(rf"(?:{_LISTED_STATES})\s*:")
_LIST_ITEM_CUTS = re.compile(r",|;|\band\b")
#: A status that says the named thing holds ("Insurance: accepted"): the field is its name's
#: words and the status's, true.
_STATUSES = frozenset(word_list(
    "accepted cleared protected approved confirmed verified included paid completed passed"
))
#: A yes/no value as a field or a table's cell writes it.
YES = frozenset(("true", "yes", "enabled", "on"))
NO = frozenset(("false", "no", "disabled", "off"))
_TRUE_VALUES = YES | _STATUSES
#: Values read as a yes/no field only where the field is written once: "end_date": null says
#: there is none, "alert=none" on one line of a log says it of that line only.
_ONE_RECORD_VALUES = frozenset(("null", "none", "nil", "enabled", "disabled")) | _STATUSES
#: A yes/no field of a tool's output ("deprecated": false, Gluten-free: yes, "end_date": null,
#: Insurance: accepted, "Eco mode: Off · Away detection: On"): its value, of those above
#: (longest first, as alternatives).
FIELD_VALUE = re.compile(
    r"[:=]\s*\"?("
    + "|".join(sorted(YES | NO | _ONE_RECORD_VALUES, key=lambda v: (-len(v), v)))
    + r")\"?(?=\s*(?:[,.;|})\]\n\u00b7\u2022]|\s[-\u2013\u2014]\s|\s\([^()\n]*\)\s*(?:\n|$)|$))",
    re.IGNORECASE,
)
#: Words that only label a field ("Customs status"), left out of its name.
_LABEL_WORDS = frozenset(word_list("status state"))
#: A unified diff's added and removed lines ("+Courier required: yes", "-hake 6.0").
_DIFF_ADDED = re.compile(r"^\+[^\s+]", re.MULTILINE)
DIFF_REMOVED = re.compile(r"-[^\s-]")
#: A line that totals the others ("TOTAL   £51.97", "Subtotal 57.75").
_SUMMARY_LINE = re.compile(r"\s*(?:sub|grand )?total\b", re.IGNORECASE)
#: A markdown heading ("## v2.6.3 - 2026-01-29"): it names the lines under it, as a title.
_HEADING = re.compile(r"\s*#{1,6}\s")
#: A log line: a date or a time of day first ("2024-07-19 13:55 SIGNED_OFF", "22:41:07 BOOK").
_LOG_LINE = re.compile(r"\s*\[?(?:\d{4}-\d\d-\d\d|\d{1,2}:\d\d)")
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
#: A table cell that is a negation word by itself: a value, not a statement's "no".
_NO_CELLS = frozenset(word_list("no none n/a"))
#: The field's name, just before its value.
_FIELD_NAME = re.compile(r"([A-Za-z][A-Za-z _-]{1,40})\"?\s*$")
#: A field name's words; a name in capitals with one small letter inside is one ("UPnP").
FIELD_WORDS = re.compile(r"[A-Z]+[a-z][A-Z]+(?![a-z])|[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
#: An identifier in the plural ("X14s", "No.3s"): letters, digits, then an "s"; or sizes
#: ("2x6x12s" for 2x6x12 boards, "7x5s" for 7x5" prints).
_PLURAL = re.compile(r"[a-z][\w.-]*\ds|\d+(?:x\d+)+s")
#: An identifier of letters and a number, which an output may write apart ("C14" for "Row C
#: Seat 14", "AS65010" for 65010 under an "AS" column).
_LETTERED_NUMBER = re.compile(r"([a-z]{1,3})(\d+)")
_ID_MARKS = frozenset("-_./#")
#: A bracketed group holding one of these is a record, not a list of numbers.
_WORD_IN_TEXT = re.compile(r"[^\W\d_]{2,}")
#: An innermost bracketed group of a structured output: one record ("('EMEA', 1840200)").
_GROUP = re.compile(r"[(\[{][^()\[\]{}]*[)\]}]")
_FIELD_MARKS = re.compile(r"[,:]")
#: Currency codes: "EUR" is no place's code ("Euronext").
_CURRENCIES = frozenset(word_list("EUR USD GBP JPY CHF CNY AUD CAD SEK NOK DKK PLN INR"))
#: A structured output's records: its lines, and their fields (" | " or ";" apart, but not a
#: ";" inside a quoted CSV field); a JSON output's innermost objects.
_RECORD_CUTS = re.compile(r"\s\|\s|;\s(?=[^\"]*(?:\"[^\"]*\"[^\"]*)*$)")
_NUMBER_FIELD = re.compile(r"-?\d+(?:\.\d+)?")
#: A timetable's days a letter or two each, in the week's order ("MWF"; "TR", "TTh", "Tu/Th":
#: Tuesday and Thursday), read on a line that gives a time.
_DAY_CODE = re.compile(r"(?<![\w-])(?=\w\w)(M)?(Tu|T)?(W)?(Th|R)?(F)?(Sa|S)?(Su|U)?(?![\w-])")
_TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d\d\b")
#: A numbered or bulleted list's item ("1. Sonvara QuietTrek 700 | $229.99 | 4.6 stars").
_LIST_ITEM = re.compile(r"\s*(?:\d{1,2}[.)]|\[\d{1,2}\]|[-*\u2022])\s")
#: A date written year first, to the day ("2026-04-17").
_ISO_DAY = re.compile(r"\b\d{4}-\d\d-\d\d(?!\d)")  # "2026-07-08T05:30" too
#: A month and day written as the year-first dates beside them write them ("04-15").
_MONTH_DAY = re.compile(r"(?<![\w-])(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\w-])")
#: A date stamped in a name, year first with no separators, alone or with its time
#: ("20260402_index_invoices.js", "20260310154500-add-cancel-reason.js", "20260603-0910").
_STAMPED_DAY = re.compile(
    r"(?<!\d)((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:\d{4}|\d{6})?(?!\d)"
)
#: A span an output says to come before or after one of its times or dates ("report 30 min
#: before", "nothing to eat 4 h before", "48 hours before works start", "10 days prior").
_MOVED = re.compile(
    r"\b(\d{1,3})[\s-]?(min|mins|minutes?|h|hrs?|hours?|days?|weeks?)\s+"
    r"(before|prior|early|earlier|ahead|after|later)\b",
    re.IGNORECASE,
)
MINUTES_A_DAY = 24 * 60
_MINUTES_OF = {
    "min": 1, "mins": 1, "minute": 1, "minutes": 1, "h": 60, "hr": 60, "hrs": 60, "hour": 60,
    "hours": 60, "day": MINUTES_A_DAY, "days": MINUTES_A_DAY, "week": 7 * MINUTES_A_DAY,
    "weeks": 7 * MINUTES_A_DAY,
}
_EARLIER = frozenset(("before", "prior", "early", "earlier", "ahead"))
#: A part of a line in brackets ("(7-15)").
BRACKETED = re.compile(r"\([^()]*\)")
#: A line naming a field, and its label ("Fuel: hybrid", `"items_substituted": 3`).
LINE_LABEL = re.compile(
    r"^[ \t]*\"?([a-z][\w /()-]{0,30}?)\"?[ \t]*:[ \t]", re.MULTILINE | re.IGNORECASE
)
#: An amount whose thousands are set apart by spaces, beside its currency ("SEK 14 250",
#: "14 250 kr").
_SPACED_AMOUNT = re.compile(
    r"(?:\b[A-Z]{3}|[\u20ac\u00a3$]|\bkr\.?)\s?(\d{1,3}(?:[ \u00a0\u202f]\d{3})+)(?![\d.,])"
    r"|(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f]\d{3})+)\s?(?:kr\b|[A-Z]{3}\b|\u20ac)"
)
_DECIMAL_UNIT = re.compile(r"(\d+\.\d+)" + UNIT_AFTER)
#: A decimal whose key ends in its unit, as JSON and logfmt write it ("uplink_mbps": 12.9).
_KEYED_UNIT = re.compile(r"[A-Za-z0-9]_([A-Za-z]+)\"?\s*[:=]\s*\"?(\d+\.\d+)(?![\d.])")
_LABEL = re.compile(r"\s*((?:[^:\n]|(?<=\d):(?=\d)){1,40}?):\s")
#: Numbers read as years, not as a record's value.
YEARS = (1000, 2100)
#: A word joined by hyphens or underscores ("payments-gw", "eu_west"): a name in a scheme.
JOINED = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
JOINERS = re.compile(r"[-_]")


#: A number glued to its unit's letters ("350gsm"), read as the number and the unit's word.
_GLUED_UNIT = re.compile(r"(\d+(?:\.\d+)?)([a-z]{2,4})")
#: A percentile as a claim writes it ("p95"; an output may write p(95)).
_PERCENTILE = re.compile(r"p\d{1,2}(?:\.\d)?")
#: A name with a decimal in it, as a field name may write it with "_" ("pm2.5": pm2_5).
_DOTTED_NAME = re.compile(r"[a-z]+\d+\.\d+")
#: Letters, a dot or a hyphen and a number, as a standard's name writes it ("h.264", "x.509",
#: "sha-256").
_STANDARD = re.compile(r"[a-z]{1,4}[.-]\d{2,}")


def _denied_fields(
    text: str, position: int, evidence: str
) -> list[tuple[frozenset[str], bool, int]]:
    """A field whose value denies a word ("Checked bag: not included", "Pets: not permitted"):
    the field is its name's words and that word, false; only where the name is written once
    in the (lowercased) evidence."""
    found = []
    for m in _DENIED_VALUE.finditer(text):
        name = _FIELD_NAME.search(text, max(0, m.start() - 42), m.start())
        if name is None or evidence.count(name.group(1).lower()) > 1:
            continue
        words = [w for w in FIELD_WORDS.findall(name.group(1)) if w.lower() not in _LABEL_WORDS]
        if words:
            found.append((frozenset(stem(w) for w in (*words, m.group(1))), False, position))
    return found


#: A line opening a nested record: a YAML key with no value ("legacy_coupon_engine:"), a JSON
#: key opening an object ("legacy_coupon_engine": {) or an INI section ("[upnp]").
_RECORD_KEY = re.compile(r"\"?([A-Za-z][\w .-]{0,40})\"?:(?:\s*\{)?")
_SECTION = re.compile(r"\[([A-Za-z][\w .-]{0,40})\]")


def record_names(text: str) -> list[tuple[str, str | None]]:
    """Each non-empty line of a tool output, stripped, with the name of the record it is
    nested in: the YAML or JSON key above it at a lesser indent, or else its INI section."""
    lines: list[tuple[str, str | None]] = []
    section: str | None = None
    keys: list[tuple[int, str]] = []  # the open YAML keys, by indent
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        indent = len(line) - len(line.lstrip())
        while keys and keys[-1][0] >= indent:
            keys.pop()
        lines.append((stripped, keys[-1][1] if keys else section))
        if (m := _SECTION.fullmatch(stripped)) is not None:
            section, keys = m.group(1), []
        elif (m := _RECORD_KEY.fullmatch(stripped)) is not None:
            keys.append((indent, m.group(1)))
    return lines


def _json_record(text: str, at: int) -> str | None:
    """The name a JSON object gives itself ("key", "name", "id"), of the innermost object
    holding this place of a line."""
    opens = text.rfind("{", 0, at)
    if opens < 0 or "}" in text[opens:at]:
        return None
    closes = text.find("}", at)
    named = _NAMING_KEY.search(text, opens, closes if closes > 0 else len(text))
    return named.group(1) if named else None


#: A JSON object's own name ("key": "dark_mode_beta").
_NAMING_KEY = re.compile(r"\"(?:key|name|id|flag|feature)\"\s*:\s*\"([^\"]{1,60})\"")


def _listed_fields(text: str, position: int) -> list[tuple[frozenset[str], bool, int]]:
    """A line listing what a state holds of ("Covered: motor, control board", "Not covered:
    door seal wear, blockages"): each item is a field of its words and the state's."""
    m = _LIST_OF_STATE.match(text)
    if m is None:
        return []
    state = stem(m.group(2))
    items = (FIELD_WORDS.findall(item) for item in _LIST_ITEM_CUTS.split(m.group(3)))
    return [
        (frozenset(stem(w) for w in words) | {state}, not m.group(1), position)
        for words in items if words
    ]


def _values_of(fields: list[tuple[frozenset[str], bool, int]]) -> dict[frozenset[str], set[bool]]:
    """Each field's name's stems -> the values written for it."""
    values: dict[frozenset[str], set[bool]] = {}
    for stems, value, _ in fields:
        values.setdefault(stems, set()).add(value)
    return values


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
_WEEKDAY_DELETIONS = {day: {day} | _deleted(day) for day in WEEKDAYS}


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


class EvidenceSentence(NamedTuple):
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


def _same_unit(written: str, said: str) -> bool:
    """Whether an output's unit and a claim's are one ("s" and "seconds", "Mbps" and "Mbps")."""
    return written == said or (
        said in CONVERSIONS and CONVERSIONS.get(written) is CONVERSIONS[said]
    )


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
        self._joined_words: list[list[str]] | None = None
        self._joined_parts: set[tuple[str, str]] | None = None
        self._codes: set[str] | None = None
        self._fields: list[tuple[frozenset[str], bool, int]] | None = None
        self._field_values: list[tuple[frozenset[str], list[float]]] | None = None
        self._record_fields: list[tuple[frozenset[str], bool, int]] = []
        self._record_of: dict[int, str] = {}
        self._by_number: defaultdict[str, list[str]] | None = None
        self._structured: bool | None = None
        self._record_tokens: defaultdict[str, set[int]] | None = None
        self._data_rows: set[int] = set()
        self._keys: set[str] = set()
        self._lowercase: set[str] = set()
        self._events: set[int] = set()
        #: Each record's paragraph, where an output writes its records as paragraphs of lines
        #: (`npm audit`'s advisories): record -> paragraph.
        self._paragraph_of: dict[int, int] = {}
        self._tables: list[Table] | None = None
        self._no_rows: frozenset[str] | None = None
        self._clock: list[int] | None = None
        self._totals: set[float] | None = None
        self._times: set[tuple[int, int]] | None = None
        self._line_dates: list[tuple[DateFact, ...]] | None = None
        self._derived: tuple[set[float], set[float]] | None = None
        self._spaced: set[float] | None = None
        self._written_month_days: set[tuple[int, int]] | None = None
        self._stamped: set[tuple[int, int, int]] | None = None
        self._moves: tuple[int, ...] | None = None
        self._derived_across: set[float] | None = None
        self._number_at: dict[str, list[int]] | None = None
        self._profiles: list[_Profile] | None = None
        self._negates: bool | None = None
        self._distinct: set[str] = set()
        self._vocabulary: _Vocabulary | None = None
        self._by_stem: defaultdict[str, list[int]] = defaultdict(list)
        #: Each tool output's sentences, and its clauses (with their sentence).
        self._by_source = [evidence_sentences(text) for text in texts]
        self.sentences: list[EvidenceSentence] = []
        #: Per tool output, the clauses of each of its sentences (None: one clause each).
        self._clauses: list[list[list[str]] | None] = []
        for source, sentences in enumerate(self._by_source):
            if one_clause(texts[source]):  # no sentence of it holds two clauses
                # tuple.__new__ builds the named tuples without a Python call each
                self.sentences.extend(map(
                    tuple.__new__,
                    repeat(EvidenceSentence),
                    zip(sentences, [source] * len(sentences), sentences, strict=True),
                ))
                self._clauses.append(None)
                continue
            # polarity is read per clause
            split = [[s] if one_clause(s) else clauses(s) for s in sentences]
            self._clauses.append(split)
            for sentence, parts in zip(sentences, split, strict=True):
                self.sentences.extend(EvidenceSentence(sentence, source, c) for c in parts)
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
        if name.endswith(("'s", "\u2019s")) and len(name) > 3:
            return self.has_name(name[:-2])  # "QuillPay's" for quillpay.io
        whole = name.lower()
        words = self.vocabulary.words
        if whole in words or (whole[-1:] == "s" and whole[:-1] in words) or (
            whole.endswith("ies") and whole[:-3] + "y" in words
        ):
            return True  # "MySQL" for mysql, "GPUs" for gpu, "Damselflies" for Damselfly
        if "-" in whole and whole.replace("-", "") in words:
            return True  # "Wi-Fi" for wifi
        if not name.isascii() and (plain := _unaccented(name)) != name and self.has_name(plain):
            return True  # "Fauré" for Faure
        parts = [p for p in word_parts(name) if len(p) >= 2]
        if all(self._has_word(p) for p in parts):
            return True
        if _COMMON_CAPITAL.fullmatch(name):  # "A-level", "T-shirt", "X-ray": no names
            return True
        if re.search(rf"\d{re.escape(whole)}\b", self.text):
            return True  # a unit written onto its number: "5 Mbps" for "Free-5Mbps"
        if name[:1] in _SYMBOL_NAMES:  # "ΔE" for delta_e
            spelled = rf"\b{_SYMBOL_NAMES[name[0]]}[_ -]?{re.escape(name[1:])}\b"
            return re.search(spelled, self.text, re.IGNORECASE) is not None
        return len(parts) == 1 and self._coded(parts[0])

    def writes(self, word: str) -> bool:
        """The evidence writes a lower-case word: as one of its words (or a spelling, or with a
        short ending), or inside one of them ("kerb" in kerbside, "carbs" in carbohydrate)."""
        core = word[:-1] if word.endswith("s") else word
        return any(
            len(known) > len(core) and (known.startswith(core) or known.endswith(core))
            for known in self.vocabulary.words
        ) or self._has_word(word)

    def _coded(self, word: str) -> bool:
        """Written in the evidence as its code: the capitals a name starts with ("FRA" for
        Frankfurt, "LIS" for Lisbon)."""
        if self._codes is None:
            self._codes = {
                w.lower() for w in self._words_read()
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
        if day in WEEKDAYS and (day in words or day[:3] in words):  # "Tue" for Tuesday
            return True
        # The weekdays of the evidence's dates, and those its timetable writes by their
        # codes, are words of it too: read them only for a word one of them could cover.
        return _weekday_covers(word, WEEKDAYS) and (
            _weekday_covers(word, self._read_facts().weekdays)
            or any(_weekday_covers(word, _timetable_days(text)) for text in self._texts)
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
        if any(k in facts.numbers for k in keys) or number.value in self._spaced_amounts():
            return True
        if number.unit and not number.decimals and number.scaled is None and any(
            round(value) == number.value and _same_unit(unit, number.unit)
            and abs(value - number.value) <= UNIT_ROUNDING_TOLERANCE * number.value
            for value, unit in facts.units
        ):  # "91 Mbps" for 91.33 Mbps, "after 5 seconds" for 5.00121s (not "3 m" for 2.75 m)
            return True
        if number.percent and any(
            round(value * 100, number.decimals) == number.value
            for value in facts.values if 0 < value < 1
        ):  # "about 94%" for a progress of 0.9412
            return True
        if number.unit in HUNDREDTH_UNITS and not number.decimals and number_key(
            number.value / 100
        ) in facts.numbers:
            return True
        if number.unit in _WHOLE_UNITS and not number.decimals and any(
            round(value * f, 9) == number.value
            for f in CONVERSIONS[number.unit] for value in facts.values
        ):  # "14 days" for 1209600 seconds: exactly, a whole number of them
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
            conversions = CONVERSIONS.get(measure, ())
            for value in facts.values:
                if round(value, number.decimals) == number.value:
                    return True
                if number.decimals and any(
                    round(value * f, number.decimals) == number.value for f in conversions
                ):
                    return True  # "8.4 seconds" for 8421.337 ms
                if number.hedged and not number.decimals and any(
                    abs(value * f - wanted) <= HEDGE_TOLERANCE * value * f for f in conversions
                ) and _figures(number.text) < HEDGE_MAX_FIGURES:
                    return True  # "about 48 MB" for 48234496 bytes (a whole number: "about
                    # 8.9 seconds" is held to its decimal)
                if unit is not None and round(value / unit, number.decimals) == number.value:
                    return True
                if (number.hedged and abs(value - wanted) <= HEDGE_TOLERANCE * abs(value)
                        and _figures(number.text) < HEDGE_MAX_FIGURES):
                    return True
        rounded = _ROUND_ZEROS.search(number.text)
        if rounded and number.value > YEARS[1] and not number.decimals and number.scaled is None:
            # "12,700" for 12,655
            places = -len(rounded.group().replace(",", ""))
            if any(
                round(value, places) == number.value
                and abs(value - number.value) <= ROUNDED_TOLERANCE * number.value
                for value in facts.values
            ):
                return True
        # "£48.50" for "amount": 4850: an amount in minor units, as payment APIs write it
        return number.decimals == 2 and number.scaled is None and re.search(
            rf"amount\w*\"?\s*[:=]\s*{round(number.value * 100)}\b", self.text
        ) is not None

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
        if a_year(number):  # "passed away in 1955"
            return False
        held = self.derived[1] if number.unit in TIMES else self.derived[0]
        written = rounding_to(number)
        if any(map(written, held)):
            return True
        if not number.decimals and (
            number.value < DERIVED_MIN or YEARS[0] <= number.value <= YEARS[1]
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
        if not self.structured or (not number.decimals and number.value < 10) or a_year(number):
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
            number.value < DERIVED_MIN or a_year(number) or number.value % 10 == 0
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
        if date.year is None and (date.month, date.day) in self._month_days():
            return True
        if date.month is not None and date.day is not None and any(
            (month, day) == (date.month, date.day) and date.year in (None, year)
            for year, month, day in self._stamped_days()
        ):
            return True
        if date.month is None and date.day is None and date.year is not None:
            return number_key(date.year) in facts.numbers
        if date.day is None and date.year is None and date.month is not None and any(
            MONTHS.get(w.lower()) == date.month
            for w in self._words_read() if w[:1].isupper()
        ):
            return True  # "July the best month" of a table's "Jul" row
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

    def _words_read(self) -> set[str]:
        """The evidence's distinct words, as written."""
        self.profiles  # noqa: B018 -- the distinct words
        return self._distinct

    def _stamped_days(self) -> set[tuple[int, int, int]]:
        """Dates stamped in names (`_STAMPED_DAY`: a migration's or a release's), as (year,
        month, day); read on the first date the other readings miss."""
        if self._stamped is None:
            self._stamped = {
                (int(m.group(1)), int(m.group(2)), int(m.group(3)))
                for text in self._texts for m in _STAMPED_DAY.finditer(text)
            }
        return self._stamped

    def moves(self) -> tuple[int, ...]:
        """The spans, in minutes, the evidence says to come before (negative) or after one of
        its times or dates (`_MOVED`: "report 30 min before", "10 days before expiry"); read
        on first use."""
        if self._moves is None:
            self._moves = tuple(
                int(m.group(1)) * _MINUTES_OF[m.group(2).lower()]
                * (-1 if m.group(3).lower() in _EARLIER else 1)
                for m in _MOVED.finditer(self.text)
            )
        return self._moves

    def _spaced_amounts(self) -> set[float]:
        """Amounts whose thousands are set apart by spaces beside their currency ("SEK 14
        250"), read on the first number the other readings miss."""
        if self._spaced is None:
            self._spaced = {
                float(re.sub(r"\D", "", m.group(1) or m.group(2)))
                for text in self._texts for m in _SPACED_AMOUNT.finditer(text)
            }
        return self._spaced

    def _month_days(self) -> set[tuple[int, int]]:
        """Months and days written "04-15" beside dates written year first ("free until 04-15"
        of a 2026-04-17 stay), read on the first date the other readings miss."""
        if self._written_month_days is None:
            self._written_month_days = {
                (int(m.group(1)), int(m.group(2)))
                for text in self._texts if _ISO_DAY.search(text)
                for m in _MONTH_DAY.finditer(text)
            }
        return self._written_month_days

    def has_identifier(self, identifier: str) -> bool:
        return not self.missing_identifiers((identifier,))

    def matches_as_written(self, pattern: str) -> bool:
        """Whether the evidence, as written (not lowercased), matches this pattern."""
        return any(re.search(pattern, text) for text in self._texts)

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
        if (hexadecimal := _HEX.fullmatch(key)) and "0x" in self.text:
            value = int(hexadecimal.group(1), 16)  # "0x10000" for 0x00010000
            return any(int(h, 16) == value for h in _HEX.findall(self.text))
        if _PLURAL.fullmatch(key):  # "the X14s" for X14
            return self._has_identifier(key[:-1])
        lettered = _LETTERED_NUMBER.fullmatch(key)
        if lettered and self._written_apart(lettered.group(1), lettered.group(2)):
            return True
        words = self._words or set()
        if "." in key and _DOTTED_NAME.fullmatch(key):  # "PM2.5" for a field pm2_5(_ugm3)
            field = key.replace(".", "_")
            return re.search(rf"(?<![\w.]){field}(?![a-z\d])", self.text) is not None
        if _STANDARD.fullmatch(key) and re.search(  # "H.264" for h264, "SHA-256" for sha256sum
            rf"(?<![\w.]){key.replace('.', '').replace('-', '')}(?![\d.])", self.text
        ):
            return True
        glued = _GLUED_UNIT.fullmatch(key)
        if glued and glued.group(2) in words and number_key(  # "350gsm" under a GSM head
            float(glued.group(1))
        ) in self._read_facts().numbers:
            return True
        if "(" in self.text and _PERCENTILE.fullmatch(key) and re.search(  # "p95" for p(95)
            rf"(?<![\w(]){re.escape(key[:1])}\({re.escape(key[1:])}\)", self.text
        ):
            return True
        # "under-18s" for "under 18", "11-of-19" for 11-19: hyphenated words and plain
        # numbers, each found
        parts = key.split("-")
        if len(parts) < 2 or not all(_PLAIN_PART.fullmatch(p) for p in parts):
            return False
        numbered = any(not p.isalpha() for p in parts)

        def found(part: str) -> bool:
            if part.isalpha():
                return (numbered and part in _UNIT_WORDS) or self._has_word(part)
            return number_key(float(_digits(part))) in self._read_facts().numbers

        return parts_known(parts, found)

    def _written_apart(self, letters: str, digits: str) -> bool:
        """Whether the output writes these letters and this number as words of one line, or
        the letters (two or more) as a column's head on a line without digits and the number
        on a line below it."""
        letters_at = re.compile(rf"(?<!\w){letters}(?!\w)")
        number_at = re.compile(rf"(?<![\w.,]){digits}(?!\w|[.,]\d)")
        headed = False
        for line in self.text.split("\n"):
            named = letters_at.search(line) is not None
            if number_at.search(line) and (named or headed):
                return True
            headed = headed or (named and len(letters) > 1 and not any(map(str.isdigit, line)))
        return False

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
    def field_values(self) -> list[tuple[frozenset[str], list[float]]]:
        """Each labelled line's label (its content stems, less a bracketed qualifier: "Booked
        (future)": book) and the numbers of its value ("Units used: 155", `"items_substituted":
        3`), read on first use."""
        if self._field_values is None:
            self._field_values = []
            for text in dict.fromkeys(s.text for s in self.sentences):
                label = LINE_LABEL.match(text)
                if label is None:
                    continue
                words = words_of_in_order(BRACKETED.sub(" ", label.group(1)).replace("_", " "))
                stems = words_profile(words)[0]
                if stems:
                    self._field_values.append((stems, values_in(text[label.end():])))
        return self._field_values

    @property
    def sentence_dates(self) -> list[tuple[DateFact, ...]]:
        """Each evidence sentence's dates, in order; read once, on first use."""
        if self._line_dates is None:
            self._line_dates = [
                read_facts(sentence.text, claim=False).dates for sentence in self.sentences
            ]
        return self._line_dates

    def lines_dated(self, date: DateFact) -> dict[str, int]:
        """The evidence sentences (text -> position) writing a date of this month and day (and
        year, where it has one)."""
        return {
            self.sentences[p].text: p for p, dates in enumerate(self.sentence_dates)
            if any(
                (known.month, known.day) == (date.month, date.day)
                and date.year in (None, known.year)
                for known in dates
            )
        }

    @property
    def times(self) -> set[tuple[int, int]]:
        """The times of day the evidence writes ("19:15", "2026-12-03T16:00:00Z", a calendar's
        "20261112T150000Z", a cron schedule's "30 2 * * 1-5"), as (hour, minute)."""
        if self._times is None:
            self._times = times_of_day(self.text) | self._read_facts().times
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
            # the text is lowercased: the cheap tests first
            if (FIELD_VALUE.search(self.text) is None and _DENIED_VALUE.search(self.text) is None
                    and _STATE_LISTED.search(self.text) is None):
                return self._fields
            diff = self.is_diff
            # a field of a JSON object naming itself ({"key": "dark_mode_beta", "enabled": false})
            in_json: list[tuple[frozenset[str], str, bool, int]] = []
            for position, sentence in enumerate(self.sentences):
                if diff and DIFF_REMOVED.match(sentence.text):
                    continue  # a diff's removed line: what the value was
                if sentence.text is not self.sentences[position - 1].text or position == 0:
                    for m in FIELD_VALUE.finditer(sentence.text):
                        name = _FIELD_NAME.search(sentence.text, max(0, m.start() - 42), m.start())
                        if name is None:
                            continue
                        words = FIELD_WORDS.findall(name.group(1))
                        # every word of the name, "out" of "Out of service" included
                        stems = frozenset(stem(w) for w in words)
                        written = m.group(1).lower()
                        if written in _STATUSES:
                            stems = frozenset(
                                stem(w) for w in words if w.lower() not in _LABEL_WORDS
                            ) | {stem(written)}
                        if written in _ONE_RECORD_VALUES and self.text.count(
                            name.group(1).lower()
                        ) > 1:
                            continue  # "alert=none" on one line of many: another record's
                        if stems:
                            value = written in _TRUE_VALUES
                            self._fields.append((stems, value, position))
                            if (record := _json_record(sentence.text, m.start())) is not None:
                                in_json.append((stems, record, value, position))
                    self._fields.extend(_denied_fields(sentence.text, position, self.text))
                    self._fields.extend(_listed_fields(sentence.text, position))
            values = _values_of(self._fields)
            # "enabled: true" and "enabled: false" under two flags: each is its flag's, where
            # the output nests them under its name (YAML keys, INI sections, JSON objects)
            both = [f for f in self._fields if len(values[f[0]]) > 1]
            self._fields = [f for f in self._fields if len(values[f[0]]) == 1]
            if both:
                nested = self._nested(both) + [
                    (stems | {stem(w) for w in word_parts(record)}, value, position)
                    for stems, record, value, position in in_json if len(values[stems]) > 1
                ]
                held = _values_of(nested)
                self._record_fields = [f for f in nested if len(held[f[0]]) == 1]
        return self._fields

    @property
    def record_fields(self) -> list[tuple[frozenset[str], bool, int]]:
        """The yes/no fields written under several records' names with different values
        ("enabled: false" under "legacy_coupon_engine:"), each with its record's name's stems."""
        _ = self.fields
        return self._record_fields

    def record_of(self, position: int) -> str | None:
        """The name of the record a yes/no field's line is nested in, where `record_fields`
        read it."""
        return self._record_of.get(position)

    def _nested(
        self, fields: list[tuple[frozenset[str], bool, int]]
    ) -> list[tuple[frozenset[str], bool, int]]:
        """These fields, each with the stems of the record its line is nested in; those on a
        line in no record left out."""
        named: dict[int, str] = {}
        for source, text in enumerate(self._texts):
            lines = record_names(text)
            at = 0
            last: str | None = None
            name: str | None = None
            for position, sentence in enumerate(self.sentences):
                if sentence.source != source:
                    continue
                if sentence.text is not last:  # not another clause of the same line
                    last = sentence.text
                    while at < len(lines) and lines[at][0] != sentence.text:
                        at += 1
                    if at == len(lines):
                        break  # not a line of its own: prose
                    name = lines[at][1]
                    at += 1
                if name is not None:
                    named[position] = name
        self._record_of = named
        return [
            (stems | {stem(w) for w in word_parts(named[p])}, value, p)
            for stems, value, p in fields if p in named
        ]

    @property
    def record_tokens(self) -> dict[str, set[int]]:
        """For a structured output: each token -> the records holding it."""
        if self._record_tokens is None:
            self._record_tokens = defaultdict(set)
            at = 0
            table_rows = {text.strip() for table in self.tables for text, _, _ in table.rows}
            for text in self._texts:
                if text.lstrip()[:1] in ("{", "["):  # JSON-like
                    records = [m.group() for m in _GROUP.finditer(text)]
                else:
                    records = self._line_records(text, at, table_rows)
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
                            id_shape(token) is not None or (
                                token[0].isalpha() and len(token) >= 3
                                and (k == 0 or written[0].isupper())
                            )
                        ):
                            self._keys.add(token)
                    # "Total finishers: 842", "TOTAL  £51.97", "; infill = 25%": the whole
                    # output's, no row's; nor is a sentence of prose
                    if n and not (
                        label or _SUMMARY_LINE.match(record) or _SETTING.match(record)
                        or _prose(record) or self.heads_a_table(record)
                        or _HEADING.match(record)
                    ) and _NUMBER_FIELD.search(record):
                        self._data_rows.add(at)
                    at += 1
        return self._record_tokens

    def _line_records(self, text: str, first: int, table_rows: set[str]) -> list[str]:
        """The records of a text in lines, numbered from `first`: a line's fields (a table's
        row is one line, not its cells; so is a list's item). Where the text writes two or
        more paragraphs of three lines or more and no table, each paragraph is one thing's
        record too (`npm audit`'s advisories): its records are noted with their paragraph."""
        records: list[str] = []
        paragraph_of: list[int] = []
        lines_of: Counter[int] = Counter()  # each paragraph's lines
        paragraph = 0
        tabled = False
        for line in text.split("\n"):
            if not line.strip():
                paragraph += 1
            else:
                lines_of[paragraph] += 1
            in_table = line.strip().lower() in table_rows
            tabled = tabled or in_table
            if line.lstrip()[:1] == "|" or _LIST_ITEM.match(line) or in_table:
                fields = [line]
            else:
                fields = _RECORD_CUTS.split(line)
            records += fields
            paragraph_of += [paragraph] * len(fields)
        if not tabled and sum(1 for n in lines_of.values() if n >= 3) >= 2:
            self._paragraph_of.update(
                (first + n, paragraph) for n, paragraph in enumerate(paragraph_of)
            )
        return records

    def same_paragraph(self, records: Iterable[int]) -> bool:
        """Whether these records are lines of one paragraph record (`_line_records`)."""
        self.record_tokens  # noqa: B018 -- the records
        found = {self._paragraph_of.get(r) for r in records}
        return len(found) == 1 and None not in found

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
        output's first, a label's or a setting's line, a heading, a totals line nor a sentence
        of prose."""
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

    @staticmethod
    def heads_a_table(text: str) -> bool:
        """Whether an evidence line is a table's header ("Passenger  Seat  Checked bag",
        "pupil,class,paid_gbp", "Adult  Youth (7-15)"): columns named, no value (a column's
        range in brackets is none), nothing stated."""
        return not _DIGIT_IN.search(BRACKETED.sub("", text)) and (
            len(_COLUMN_GAP.findall(text.strip())) >= 2 or _CSV_HEAD.fullmatch(text.strip())
            is not None
        )

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
            holds_word(record, name)
            for key, records in self.records.items()
            if float(key) >= SCATTER_MIN_NUMBER and not YEARS[0] <= float(key) <= YEARS[1]
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

    @property
    def joined_words(self) -> list[list[str]]:
        """The parts of each joined word the evidence writes ("payments-gw": payments, gw)."""
        if self._joined_words is None:
            self._joined_words = [JOINERS.split(token) for token in JOINED.findall(self.text)]
        return self._joined_words

    def siblings(self, word: str) -> bool:
        """Whether the evidence writes names in this one's scheme (another joined word with the
        same first or last part: "auth-gw" beside "payments-gw")."""
        if self._joined_parts is None:
            self._joined_parts = set()
            for parts in self.joined_words:
                self._joined_parts.update({("first", parts[0]), ("last", parts[-1])})
        parts = JOINERS.split(word)
        known = self._joined_parts
        return (("first", parts[0]) in known and parts[0] not in _PARTICLES) or (
            ("last", parts[-1]) in known and parts[-1] not in _PARTICLES
        )

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


def _figures(text: str) -> int:
    """The significant figures a number is written to ("93,142": 5; "93,000": 2; "4.50": 3)."""
    digits = "".join(c for c in text if c.isdigit()).lstrip("0")
    return len(digits if "." in text else digits.rstrip("0"))


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
    """The evidence's numbers (keys and values), its dates, the weekdays they fall on, and the
    times of day of its calendar stamps and cron schedules."""

    def __init__(self) -> None:
        self.numbers: set[str] = set()
        self.values: set[float] = set()
        self.dates: list[DateFact] = []
        self.weekdays: set[str] = set()
        #: The times of day its calendar stamps and cron schedules give, as (hour, minute).
        self.times: set[tuple[int, int]] = set()
        #: Its decimals with the unit written after them ((91.33, "mbps")), or ending their
        #: key ("uplink_mbps": 12.9).
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
            for m in _KEYED_UNIT.finditer(text) if "_" in text else ():
                found.units.add((float(m.group(2)), m.group(1).lower()))
            found.dates.extend(facts.dates)
            found.dates.extend(numeric_dates(text))
            for year, month, day, hour, minute in compact_date_times(text):  # "20261112T150000Z"
                found.times.add((hour, minute))
                if 1 <= month <= 12 and 1 <= day <= 31:
                    found.dates.append(DateFact(f"{year}{month:02}{day:02}", year, month, day))
            if "*" in text:  # a cron schedule's ("30 2 * * 1-5": 02:30, Monday to Friday)
                times, days = cron_schedules(text)
                found.times |= times
                found.weekdays.update(WEEKDAYS[day] for day in days)
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
                found.weekdays.add(WEEKDAYS[weekday])
        return found


def _timetable_days(text: str) -> set[str]:
    """The weekdays a timetable's lines name by their codes ("MWF  10:00-10:50")."""
    days: set[str] = set()
    for line in text.splitlines():
        if not _TIME_OF_DAY.search(line):
            continue
        for m in _DAY_CODE.finditer(line):
            days.update(WEEKDAYS[n] for n, letters in enumerate(m.groups()) if letters)
    return days


#: The particles of a phrasal verb's noun ("set-up", "hook-up", "break-down"): a part that
#: makes no naming scheme ("-out" and "-in" do name states: "locked-out", "logged-in").
_PARTICLES = frozenset(word_list("up down over back away"))


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
        records.extend(values_in(g) for g in groups)
    records = [r for r in records if len(r) <= ADD_MAX_NUMBERS]
    derived = worked_out(records) | three_way(records) | index.totals
    derived.update(float(len(table.rows)) for table in index.tables)
    return derived, multiples(records)


def parts_known(parts: Sequence[str], known: Callable[[str], bool]) -> bool:
    """Whether each part of a joined word is known, but the small words joining two others at
    least ("room-and-surname" for room_surname; not "check-in" for check_out)."""
    joined = len(parts) - sum(p in _JOINING_PARTS for p in parts) >= 2
    return all((joined and p in _JOINING_PARTS) or known(p) for p in parts)


def rounding_to(number: NumberFact) -> Callable[[float], bool]:
    """Whether a value is this number as written: at its precision, or rounded to its zeros
    where it is hedged ("about $13,700 away" for 13,725), and then close to it."""
    places = number.decimals
    rounded = _ROUND_ZEROS.search(number.text) if number.hedged else None
    if rounded and not number.decimals:
        places = -len(rounded.group().replace(",", ""))

    def written(value: float) -> bool:
        return round(value, places) == number.value and (
            not rounded or abs(value - number.value) <= ROUNDED_TOLERANCE * number.value
        )

    return written


def numeric_dates(text: str) -> list[DateFact]:
    """Dates written in digits the general reader leaves alone: a month ("2026-06"), EXIF's
    "2026:09:19", an index's "logs-2026.06.02", a file's "orders_2026_05_11", "2026/03/11",
    "15.12.2026" (day first), a day and a month's name in another language ("16 mai 2026"),
    "03/11/2026", "17/03" or a weekday's "Fri 03-06", read both ways (month first and day
    first)."""
    found: list[DateFact] = []
    for m in _YEAR_FIRST.finditer(text):
        year = int(m.group(1))
        month, day = (int(m.group(2)), None) if m.group(2) else (int(m.group(3)), int(m.group(4)))
        if 1 <= month <= 12 and (day is None or 1 <= day <= 31):
            found.append(DateFact(m.group(), year, month, day))
    if "." in text:
        found.extend(
            DateFact(m.group(), int(m.group(1)), int(m.group(2)), int(m.group(3)))
            for m in _DOTTED.finditer(text)
            if 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31
        )
        found.extend(
            DateFact(m.group(), int(m.group(3)), int(m.group(2)), int(m.group(1)))
            for m in _DAY_DOTTED.finditer(text)
            if 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(1)) <= 31
        )
    found.extend(
        DateFact(m.group(), int(m.group(1)), int(m.group(2)), int(m.group(3)))
        for m in (_UNDERSCORED.finditer(text) if "_" in text else ())
        if 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31
    )
    for m in _MONTH_RANGE.finditer(text):  # "bank statements Mar-May 2025": March too
        written = int(m.group(2)) if m.group(2) else None
        found.append(DateFact(m.group(), written, MONTHS[m.group(1).lower()[:3]], None))
    for m in _FOREIGN_DATE.finditer(text):
        day, month = int(m.group(1)), _FOREIGN_MONTHS[m.group(2).lower()]
        if 1 <= day <= 31:
            found.append(DateFact(m.group(), int(m.group(3)) if m.group(3) else None, month, day))
    for m in _YEAR_SLASHED.finditer(text) if "/" in text else ():
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.append(DateFact(m.group(), year, month, day))
    for m in _WEEKDAY_DASHED.finditer(text):  # a listing's "Fri 03-06"
        a, b = int(m.group(1)), int(m.group(2))
        for month, day in {(a, b), (b, a)}:
            if 1 <= month <= 12 and 1 <= day <= 31:
                found.append(DateFact(m.group(), None, month, day))
    for m in _SLASHED.finditer(text):
        written = int(m.group(3)) if m.group(3) else None
        a, b = int(m.group(1)), int(m.group(2))
        for month, day in {(a, b), (b, a)}:
            if 1 <= month <= 12 and 1 <= day <= 31:
                found.append(DateFact(m.group(), written, month, day))
    return found


def holds_word(text: str, word: str) -> bool:
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


def id_shape(token: str) -> tuple[bool, frozenset[str]] | None:
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


def values_in(text: str) -> list[float]:
    """The numbers a text states, less its dates and times of day."""
    return [float(n.replace(",", "")) for n in _NUMBER_IN_TEXT.findall(_STAMP.sub(" ", text))]


def a_year(number: NumberFact) -> bool:
    """Whether a number is written as a year ("2026", not "1,610")."""
    return number.text.isdigit() and YEARS[0] <= number.value <= YEARS[1]
