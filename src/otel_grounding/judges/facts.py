"""The checkable facts of a text: names, numbers, dates, identifiers, negations, content words.

What the `verifier` judge compares between a claim and the evidence. Each fact comes with the
text it was read from, so a verdict can name it. Every pattern is linear (no nested unbounded
repeats); words are Unicode words, so a name in any Latin, Greek or Cyrillic script is a name.
The stemmer is deliberately crude (a few English suffixes): it only has to make "released",
"release" and "releases" one word on both sides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import NamedTuple

from otel_grounding.sentences import word_list

STOPWORDS = frozenset(
    word_list(
        "a about above after again against all also although am an and any are aren as at be "
        "because been before being below between both but by can cannot could did do does "
        "doing done down during each either else ever every few for from further had has have "
        "having he her here hers herself him himself his how however i if in into is it its "
        "itself just let may me might more most much must my myself neither nor not now of "
        "off on once only or other our ours ourselves out over own per same she should since "
        "so some such than that the their theirs them themselves then there these they this "
        "those though through thus to too under until up upon us very via was we were what "
        "when where whether which while who whom whose why will with within without would yet "
        "you your yours yourself yourselves s t re ve ll d m o y one ones another anything "
        "something nothing everything someone anyone everyone also mr mrs ms dr st new get "
        "got make made well still even really"
    )
)
#: Capitalised words that are not names: units, currencies, time zones, common acronyms.
NOT_NAMES = frozenset(
    word_list(
        "i usd eur gbp jpy chf cad aud cny inr utc gmt cet est pst am pm ok id ids api apis "
        "url urls http https json xml csv html css sql cpu gpu ram ssd hdd os ui kb mb gb tb "
        "kib mib gib ms km kg mph kmh hz ghz mhz n/a faq ceo cto cfo q1 q2 q3 q4 h1 h2 tl dr "
        "tv pr prs ci ttl vpn dns cdn according however meanwhile overall additionally also "
        "currently note yes no councillor cllr nurse pharmacist dr mr mrs ms mx prof professor rev"
    )
)
#: Pronouns, contractions of them included ("She's"): never a name.
PRONOUNS = frozenset(word_list("i you he she it we they this that these those there here"))
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
#: Negation words (contractions, "doesn't", are read by their ending; never by a fragment:
#: "won" is a verb).
NEGATIONS = frozenset(
    word_list(
        "not no never none nobody nothing neither nor cannot without missing lacks lacking "
        "unable"
    )
)
#: Words that deny a word in one, and the word they deny ("sky lanterns are banned" / "not
#: allowed"; "insufficient storage" / "not enough storage").
DENYING_WORDS = {
    **dict.fromkeys(word_list("banned prohibited forbidden"), "allowed"),
    "insufficient": "enough",
}
#: The ending of a negating contraction ("doesn't").
NEGATION_ENDINGS = ("n't", "n\u2019t")
#: Every negation word holds one of these: a text holding none of them negates nothing.
_NEGATION_MARKS = (
    *sorted(w for w in NEGATIONS if not any(o != w and o in w for o in NEGATIONS)),
    *NEGATION_ENDINGS,
    *DENYING_WORDS,
)
#: Words before a number that allow it to be rounded ("about 5 GB" for 4.87 GB).
HEDGES = frozenset(
    word_list(
        "about around roughly approximately nearly almost over under some circa ~ approx more "
        "less least most above below"
    )
)
_SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9,
    "bn": 1e9, "b": 1e9, "trillion": 1e12,
}
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        word_list(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
        )
    )
}

#: The month names as a trie (an alternation of twenty words costs a scan per position).
_MONTH_ALT = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE = re.compile(
    r"(?=[0-9JFMASONDjfmasond])(?:(?<![\w.])"
    r"(?P<iso>(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2}))(?:(?=T\d)|(?![\w]|\.\d))"
    r"|\b(?P<m1>" + _MONTH_ALT + r")\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?\b"
    r"(?:,?\s+(?P<y1>\d{4})\b)?"
    r"|\b(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m2>" + _MONTH_ALT + r")\b\.?"
    r"(?:,?\s+(?P<y2>\d{4})\b)?"
    r"|\b(?P<m3>" + _MONTH_ALT + r")\b\.?(?:,?\s+(?:of\s+)?(?P<y3>\d{4})\b)?)",
    re.IGNORECASE,
)
#: Identifiers: a run holding a digit and a letter, or dotted digits ("v3.3.2", "AGPL-3.0",
#: "C2H5OH", "#4521", "10.0.0.1"); URLs and e-mail addresses.
_RUN_IDENTIFIER = (
    r"(?<![\w.])#?(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z]|\d+\.\d+\.\d)[A-Za-z0-9][\w-]*(?:\.(?![A-Z][a-z])[\w-]+)*"
)
_IDENTIFIER = re.compile(
    r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)]"
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|" + _RUN_IDENTIFIER
)
#: `_IDENTIFIER` captured, to split a text into the runs between identifiers and the identifiers;
#: and the same for a text holding no "://" and no "@" (the same matches: the other two
#: alternatives need them), without their tries at every position.
_IDENTIFIER_SPLIT = re.compile(f"({_IDENTIFIER.pattern})")
_RUN_IDENTIFIER_SPLIT = re.compile(f"({_RUN_IDENTIFIER})")
#: `_RUN_IDENTIFIER` for ASCII text, the same matches in fewer steps: its look-aheads ask whether
#: the run holds a digit (a letter) by skipping what is no digit (no letter) once, not by
#: reading the whole run and stepping back ([\w.-] on ASCII is [A-Za-z0-9_.-]).
_RUN_IDENTIFIER_ASCII = (
    r"(?<![\w.])#?(?=[A-Za-z_.-]*\d)(?=[\d_.-]*[A-Za-z]|\d+\.\d+\.\d)[A-Za-z0-9][\w-]*"
    r"(?:\.(?![A-Z][a-z])[\w-]+)*"
)
_RUN_IDENTIFIER_SPLIT_ASCII = re.compile(f"({_RUN_IDENTIFIER_ASCII})", re.ASCII)
#: Brackets and currency signs before a number, read as spaces for its hedge ("(about €33,000)").
_NOT_WORDS = str.maketrans(dict.fromkeys("([{\u20ac$\u00a3\u00a5", " "))
#: Every date starts with one of these (`_DATE`'s look-ahead): a text without one has none.
_DATE_START = re.compile(r"[0-9JFMASONDjfmasond]", re.IGNORECASE)
#: A number with a unit or an ending glued to it is a number, not an identifier ("18s", "12GB",
#: "15p", "69c").
_GLUED_NUMBER = re.compile(
    r"\d+(?:\.\d+)?(?:s|st|nd|rd|th|am|pm|k|m|b|bn|gb|mb|kb|tb|km|kg|g|mg|ms|h|min|x|p|c|%)"
    # "1-tonne", "3-year-old", "4.20-a-month", "4096-bit"
    r"|\d{1,4}(?:\.\d+)?(?:-(?:an?-)?[a-z]{2,10}){1,2}",
    re.IGNORECASE,
)
#: A number: `\d{1,3}(?:,\d{3})+|\d+` with its first digit written first (then the look-behinds
#: `after` check the characters before it), so that the scan jumps from digit to digit.
_NUMBER_PATTERN = (
    r"(?P<n>\d{after}(?:\d{{0,2}}(?:,\d{{3}}(?!\d))+|\d*))(?P<frac>\.\d+)?(?:st|nd|rd|th)?"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|[kKmMbB])\b)?"
)
_DIGIT = re.compile(r"\d")
_PERCENT = re.compile(r"\s?(?:%|percent\b|per cent\b)")
#: A unit written after a number: "91 Mbps", "4.2GB".
UNIT_AFTER = r"\s?([A-Za-z%]+)"
_UNIT = re.compile(UNIT_AFTER)
#: A price in hundredths joined to its number ("the 29-cent part", "a 40-pence stamp").
_HYPHENED_HUNDREDTH = re.compile(r"-(cents?|pence)\b")
#: A range's dash, its second number and its unit, which the first shares ("1.2-1.3 GB").
_RANGE_UNIT = re.compile(r"\s?[-\u2013\u2014]\s?\d[\d,]*(?:\.\d+)?" + UNIT_AFTER)
#: A claim's numbers start at a word boundary; the evidence's anywhere after a non-digit
#: ("Collins.51 Birch Street" holds 51) but within a thousands group ("EUR,2483.41" and
#: "Fridge 2,2027" hold 2483.41 and 2027).
_CLAIM_NUMBER = re.compile(_NUMBER_PATTERN.format(after=r"(?<![\w.,]\d)"))
_EVIDENCE_NUMBER = re.compile(
    _NUMBER_PATTERN.format(after=r"(?<!\d\d)(?!(?<=\d,\d)\d\d(?!\d))")
)
#: A word: a letter, then optionally word characters, apostrophes and hyphens ending in a letter
#: or a digit (the common first letter written once: one scan per position, not two).
_WORD = re.compile(r"[^\W\d_](?:[\w'\u2019-]*[^\W_])?")
_LETTER = re.compile(r"[^\W\d_]")  # what every word starts with
_ALNUM = re.compile(r"[^\W_]")  # what every word, number and date starts with
#: A word joined after a name by a hyphen that says nothing more than the name ("MIT-licensed",
#: "Paris-based", "a Seat Leon-class car"; not "Indian-born").
_SAID_OF_NAME = re.compile(
    r"(?<=\w\w)-(?:licensed|based|style|styled|branded|powered|compatible|certified|listed"
    r"|class|language)$"
)
_SPLIT_WORD = re.compile(r"[-_'\u2019]|(?<=[a-z])(?=[A-Z])")
#: A full stop that ends no sentence: an abbreviation a field writes ("incl. CDW, excl. gravel
#: protection", "approx. 2.5 hours", "A vs. B").
_NOT_AN_ABBREVIATION = r"(?<!\bincl\.)(?<!\bexcl\.)(?<!\bapprox\.)(?<!\bvs\.)"
#: Nor the last of two or three dots after a space: a short dot leader ("Washing machine ..
#: no"), where a run of four or more is `(?<!\.{4})`'s.
_NOT_A_LEADER = r"(?<!\s\.\.)(?<!\s\.\.\.)"
#: Evidence sentences end at terminal punctuation before white space or a capital (pasted
#: passages often lack the space: "...Games.The 4th..."), not after an initial ("William H.
#: Macy"), an abbreviation or a line's dot leaders ("Hose .... Not covered"), or at a line
#: break.
_EVIDENCE_SENTENCE = re.compile(
    r"(?<=[.!?])(?<!\b[A-Z]\.)(?<!\.{4})" + _NOT_A_LEADER + _NOT_AN_ABBREVIATION
    + r"(?:\s+|(?=[A-Z\"]))|\n"
)


@lru_cache(maxsize=65536)
def word_parts(word: str) -> tuple[str, ...]:
    """A word's parts, lowercased: "downloads_last_month", "minSdk", "Bixler-Zavala"."""
    if word.isalpha() and word.islower():
        return (word,)
    return tuple(p.lower() for p in _SPLIT_WORD.split(word) if p)


@dataclass(frozen=True)
class WordProfile:
    """What one evidence word contributes: its parts, their stems, whether it negates."""

    parts: tuple[str, ...]
    stems: tuple[str, ...]
    negation: bool

    @property
    def denies_itself(self) -> bool:
        """Whether the word negates its own meaning ("non-refundable", "no-shows", "banned"),
        not the words after it ("not")."""
        return self.negation and bool(self.stems)


#: The ending of an adjective ("refundable", "selective", "essential", "compliant").
_ADJECTIVE = re.compile(r"(?:able|ible|ive|al|ent|ant)$")
#: The ending of an adjective a "non-" prefix negates ("non-refundable": refund).
_ABLE = re.compile(r"(?<=\w{3})[ai]ble$")


@lru_cache(maxsize=65536)
def word_profile(word: str) -> WordProfile:
    """One word's profile (cached: evidence repeats its words)."""
    parts = word_parts(word)
    lower = word.lower()  # "not-for-profit" negates nothing
    if len(parts) == 2 and parts[0] == "non" and _ADJECTIVE.search(parts[1]):
        # "non-refundable": not refunded (but a "non-solicitation clause" is a clause)
        return WordProfile(parts, (stem(_ABLE.sub("", parts[1])),), True)
    if len(parts) == 2 and parts[0] == "no" and parts[1] not in STOPWORDS:
        return WordProfile(parts, (stem(parts[1]),), True)  # "no-shows": not shown up
    if (denied := DENYING_WORDS.get(lower)) is not None:
        return WordProfile(parts, (stem(denied),), True)
    negation = lower in NEGATIONS or lower.endswith(NEGATION_ENDINGS)
    stems = () if negation else tuple(
        stem(p) for p in parts if len(p) >= 2 and p not in STOPWORDS and p not in NEGATIONS
    )
    return WordProfile(parts, stems, negation)


def clause_names(text: str) -> frozenset[str]:
    """The names an evidence clause mentions, lowercased: its capitalised words past the
    first that are no function words."""
    words = _WORD.findall(text)
    return frozenset(w.lower() for w in words[1:] if _is_name(w))


def may_negate(text: str) -> bool:
    """Whether a text may hold a negation word (False: it holds none; a scan per mark)."""
    lowered = text.lower()
    return any(mark in lowered for mark in _NEGATION_MARKS)


def words_of_in_order(text: str) -> list[str]:
    """The words of a text, in order."""
    return _WORD.findall(text)


def words_of(text: str) -> set[str]:
    """The distinct words of a text."""
    return set(_WORD.findall(text))


#: Stems of one meaning, read as one ("a visa is needed" states "visa_required").
_SAME_MEANING = {
    "need": "requir", "mandatory": "requir", "permitt": "allow", "permit": "allow",
    "sufficient": "enough",
}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem, the same on both sides of a comparison."""
    w = word.lower()
    if w.endswith(("'s", "\u2019s")):
        w = w[:-2]
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""),
                         ("ly", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return _SAME_MEANING.get(w, w)


def number_key(value: float) -> str:
    """A number written once: 1,200 / 1200 / 1200.0 / 1.2 thousand all give "1200"."""
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class NumberFact:
    """A number in a text: what was written, its value, and whether it may be rounded."""

    text: str
    value: float
    decimals: int
    scaled: float | None
    hedged: bool
    #: Written as a percentage ("70%", "70 percent"): 0.7 in the evidence states it too.
    percent: bool = False
    #: The word written right after it, lowercased ("mbps" in "91 Mbps"; claims only).
    unit: str = ""


@dataclass(frozen=True)
class DateFact:
    """A date in a text; absent parts are None ("November 2026" has no day)."""

    text: str
    year: int | None
    month: int | None
    day: int | None


class TextFacts(NamedTuple):
    """Everything checkable in one claim (or one evidence text); a named tuple: one is read per
    claim, fifty to a judgement."""

    words: tuple[str, ...]
    names: tuple[str, ...]
    numbers: tuple[NumberFact, ...]
    dates: tuple[DateFact, ...]
    identifiers: tuple[str, ...]
    negations: int
    content_stems: frozenset[str]


def _date(m: re.Match[str]) -> DateFact | None:
    text = m.group()
    if m.group("iso"):
        iso_month, iso_day = int(m.group("im")), int(m.group("id"))
        if not (1 <= iso_month <= 12 and 1 <= iso_day <= 31):
            return None
        return DateFact(text, int(m.group("iy")), iso_month, iso_day)
    for mk, dk, yk in (("m1", "d1", "y1"), ("m2", "d2", "y2"), ("m3", None, "y3")):
        if m.group(mk):
            month = MONTHS[m.group(mk).lower()]
            day = int(m.group(dk)) if dk and m.group(dk) else None
            year = int(m.group(yk)) if m.group(yk) else None
            if day is not None and not 1 <= day <= 31:
                return None
            if mk == "m3" and year is None and m.group(mk) in ("may", "May", "mar"):
                return None  # "may" the verb, "mar" the word (not "Mar"): no date without a year
            if mk == "m3" and year is None and m.group(mk).isupper():
                return None  # "APR", "DEC": an acronym, no month
            return DateFact(text, year, month, day)
    return None


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    pieces = []
    at = 0
    for start, end in spans:  # in text order, never overlapping (one regex's matches)
        pieces.append(text[at:start])
        pieces.append(" " * (end - start))
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def title_like(words: Sequence[str]) -> bool:
    """A bare name for an answer ("Mumbai", "Arthur's Magazine"): no lowercase word but
    function words."""
    return all(w[0].isupper() or w.lower() in STOPWORDS for w in words)


def _is_name(word: str) -> bool:
    lower = word.lower()
    return (word[0].isupper() and len(word) > 1 and lower not in STOPWORDS
            and lower not in NOT_NAMES and lower not in NUMBER_WORDS
            and (base := lower.split("'")[0].split("\u2019")[0]) not in PRONOUNS
            and base not in MONTHS)  # "May's bill"


def _defined_acronym(name: str, words: list[str]) -> bool:
    """An acronym the claim spells out itself: "Self Defense Force (SDF)"."""
    if not (name.isupper() and 2 <= len(name) <= 6):
        return False
    initials = "".join(w[0] for w in words if w[0].isupper() and not w.isupper())
    return name in initials


#: A negation's scope: the content words among the next this many words after it.
NEGATION_SCOPE = 3
_NO_STEMS: frozenset[str] = frozenset()
_BLANK = " ".__mul__  # n -> n spaces
_NEGATES = attrgetter("negation")
_STEMS = attrgetter("stems")


def sentence_profile(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A clause's content stems, and those of them in a negation's scope ("does not support
    Windows": support, windows). Polarity is compared on the words a claim and the evidence
    share, so a negation elsewhere in a long sentence does not count."""
    return words_profile(_WORD.findall(text))


def words_profile(words: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """`sentence_profile` of a clause's words, in order (for a caller that has read them)."""
    profiles = list(map(word_profile, words))
    if not any(map(_NEGATES, profiles)):  # most clauses: one pass in C
        return frozenset(chain.from_iterable(map(_STEMS, profiles))), _NO_STEMS
    stems: set[str] = set()
    negated: set[str] = set()
    left = 0
    for profile in profiles:
        if profile.negation:
            left = 0 if profile.denies_itself else NEGATION_SCOPE
            stems.update(profile.stems)
            negated.update(profile.stems)
            continue
        stems.update(profile.stems)
        if left:
            negated.update(profile.stems)
            left -= 1
    return frozenset(stems), frozenset(negated)


@lru_cache(maxsize=65536)
def _is_identifier(found: str) -> bool:
    """Whether an identifier-shaped run is one: not a plain number ("1.5", "#12"), a date or
    a number with a unit (cached: a run's claims repeat their identifiers)."""
    plain = found.lstrip("#").replace(".", "").isdigit() and found.count(".") < 2
    return not (plain or _DATE.fullmatch(found) or _GLUED_NUMBER.fullmatch(found))


#: A clock time of the afternoon or evening, written in 12 hours.
_AFTERNOON = re.compile(r"\b(1[01]|[1-9])(:\d\d\s?[Pp]\.?[Mm]\b)")


def _in_24_hours(m: re.Match[str]) -> str:
    return f"{int(m.group(1)) + 12}{m.group(2)}"


def _identifiers(text: str) -> tuple[list[str], str, list[str]]:
    """A claim's identifiers; the text left around them (what the later passes may find
    something in); and the text's pieces: text, identifier-shaped run, text, ..., text (for
    `_blanked`). One split, no Python step a match."""
    if "@" in text or "://" in text:
        split = _IDENTIFIER_SPLIT
    else:  # on ASCII the ASCII classes are the same and cheaper
        split = _RUN_IDENTIFIER_SPLIT_ASCII if text.isascii() else _RUN_IDENTIFIER_SPLIT
    pieces = split.split(text)
    if len(pieces) == 1:
        return [], text, pieces
    runs = pieces[1::2]
    identifiers = list(filter(_is_identifier, runs))
    if len(identifiers) < len(runs):  # a run that is no identifier stays in the text
        return identifiers, _blanked(pieces), pieces
    return identifiers, "".join(pieces[0::2]), pieces


def _blanked(pieces: list[str]) -> str:
    """The text of `_identifiers`' pieces with each identifier blanked out: spaces of its length,
    so that the later passes neither read it nor move."""
    if len(pieces) == 1:
        return pieces[0]
    out = pieces.copy()
    out[1::2] = [_BLANK(len(run)) if _is_identifier(run) else run for run in pieces[1::2]]
    return "".join(out)


#: A month and year written as a card's expiry ("expires 12/26", "Exp: 03/28").
_EXPIRES = re.compile(
    r"(?i:expir\w*|exp|valid (?:thru|through|until|to))\.?:?\s+(\d\d)/(\d\d)(?![/\d])"
)
#: Days of the year known by name, each with its month and day: a date ("collect on Christmas
#: Eve" for 24 Dec).
_HOLIDAYS = {
    "Christmas Eve": (12, 24), "Christmas Day": (12, 25), "Boxing Day": (12, 26),
    "New Year's Eve": (12, 31), "New Year's Day": (1, 1), "Valentine's Day": (2, 14),
    "St Patrick's Day": (3, 17), "Halloween": (10, 31), "Bonfire Night": (11, 5),
}
#: The last words of those names: a text without one names none.
_HOLIDAY_ENDS = frozenset(name.split()[-1] for name in _HOLIDAYS)
_HOLIDAY = re.compile(
    r"\b(" + "|".join(name.replace("'", "['\u2019]") for name in _HOLIDAYS) + r")\b"
)
#: The days of the week, Monday first (a date's `weekday()`).
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _stands_alone(text: str, words: Sequence[str]) -> bool:
    """Whether a sentence's first word is no part of a name with the next: a comma follows it
    ("Earlier, VN71 KDX"), or the next is a day's name ("Avoid Saturday")."""
    at = text.find(words[0]) + len(words[0])
    return text[at:at + 1] == "," or words[1].lower() in WEEKDAYS


#: Verbs an answer opens with to ask the reader to do something, none of them a name ("Bring
#: Pickle in by 8:45").
_ASKS = frozenset(word_list(
    "bring take send give tell ask let keep expect collect remind leave pick drop book"
))


#: Words joining two numbers of one hedge ("around 14 to 15", "roughly 15 or 16").
_PAIRED = frozenset(("to", "or"))


def _second_of_hedged(before: list[str], numbers: list[NumberFact]) -> bool:
    """Whether a number is the second of a pair the hedge before the first is said of: the
    words before it are a hedged number and "to" or "or"."""
    return (
        len(before) > 1 and before[-1] in _PAIRED and bool(numbers) and numbers[-1].hedged
        and before[-2] == numbers[-1].text.lower()
    )


def read_facts(text: str, *, claim: bool) -> TextFacts:
    """The facts of a text. A claim keeps only what it must be held to (its first word is not
    a name: every sentence starts with a capital); evidence keeps everything it could support."""
    # Evidence identifiers are looked up in its text as they are (no pass needed here).
    identifiers, rest, pieces = _identifiers(text) if claim else ([], text, [text])
    if claim and not _ALNUM.search(rest):  # identifiers and punctuation: nothing else to read
        return TextFacts((), (), (), (), tuple(identifiers), 0, frozenset())
    masked = _blanked(pieces)
    dates: list[DateFact] = []
    date_spans: list[tuple[int, int]] = []
    for m in _DATE.finditer(masked) if _DATE_START.search(rest) else ():
        fact = _date(m)
        if fact is not None:
            dates.append(fact)
            date_spans.append(m.span())
    named_days: list[str] = []  # "Christmas Day": a date, whose words still count as words
    for m in _HOLIDAY.finditer(masked) if any(w in masked for w in _HOLIDAY_ENDS) else ():
        month, day = _HOLIDAYS[m.group(1).replace("\u2019", "'")]
        dates.append(DateFact(m.group(), None, month, day))
        date_spans.append(m.span())
        named_days.extend(_WORD.findall(m.group()))
    if not claim and "/" in text:  # a card's "expires 12/26" is December 2026
        dates.extend(
            DateFact(m.group(), 2000 + int(m.group(2)), int(m.group(1)), None)
            for m in _EXPIRES.finditer(text) if 1 <= int(m.group(1)) <= 12
        )
    # Evidence keeps the numbers inside its dates and identifiers; a claim is held to its dates
    # and identifiers as wholes.
    number_text = _mask(masked, date_spans) if claim else text
    if claim and "m" in number_text.lower():  # "2:00 PM" is 14:00
        number_text = _AFTERNOON.sub(_in_24_hours, number_text)
    numbers: list[NumberFact] = []
    # A claim's numbers: none without a digit.
    digits = not claim or _DIGIT.search(number_text if date_spans else rest) is not None
    lowered = number_text.lower() if claim and digits else ""
    for m in (_CLAIM_NUMBER if claim else _EVIDENCE_NUMBER).finditer(number_text) if digits else ():
        raw = m.group("n").replace(",", "")
        frac = m.group("frac") or ""
        value = float(raw + frac)
        scale_word = m.group("scale")
        factor = _SCALES.get(scale_word.lower()) if scale_word else None
        scaled = value * factor if factor is not None else None
        hedged = False
        if claim:  # only a claim's numbers may be rounded
            before = lowered[max(0, m.start() - 16): m.start()].translate(_NOT_WORDS).split()
            hedged = bool(before) and (before[-1] in HEDGES or before[-1].endswith("~")
                                       or (len(before) > 1 and before[-2] in HEDGES)
                                       or before[-2:] == ["close", "to"]
                                       or _second_of_hedged(before, numbers))
        percent = claim and _PERCENT.match(number_text, m.end()) is not None
        unit = (_UNIT.match(number_text, m.end()) or _RANGE_UNIT.match(number_text, m.end())
                or _HYPHENED_HUNDREDTH.match(number_text, m.end()) if claim else None)
        numbers.append(NumberFact(
            m.group(), value, len(frac) - 1 if frac else 0, scaled, hedged, percent,
            unit.group(1).lower() if unit else "",
        ))
    words: list[str] = []
    names: list[str] = []
    negations = 0
    if not claim:  # evidence: its numbers, dates and identifiers; words are indexed apart
        for m in _AFTERNOON.finditer(text) if "m" in text.lower() else ():  # "2:30pm": 14 too
            hour = int(m.group(1)) + 12
            numbers.append(NumberFact(str(hour), float(hour), 0, None, False))
        for word in words_of(text):
            if word.lower() in NUMBER_WORDS:
                numbers.append(NumberFact(word, float(NUMBER_WORDS[word.lower()]), 0, None, False))
        return TextFacts((), (), tuple(numbers), tuple(dates), tuple(identifiers), 0, frozenset())
    # The claim's text without identifiers and dates (none without a letter).
    for m in _WORD.finditer(number_text) if _LETTER.search(rest) else ():
        word = m.group()
        if word_profile(word).negation:
            negations += 1
        words.append(word)
        if _is_name(word):
            names.append(word)
    # The first word is capitalised anyway: a name only when the next word is one too or the
    # claim is a bare name ("Nick Kroll is...", "Mumbai"; not "Tickets cost...", "Bring Pickle").
    if names and words and names[0] is words[0] and (words[0].lower() in _ASKS or not (
        (len(words) > 1 and _is_name(words[1]) and not _stands_alone(text, words))
        or title_like(words)
    )):
        names = names[1:]
    if names:  # "MIT-licensed", "Paris-based": the name is the first part
        names = [_SAID_OF_NAME.sub("", n) for n in names if not _defined_acronym(n, words)]
    content = frozenset(
        stem(part)
        for w in chain(words, named_days)
        for part in word_parts(w)
        if len(part) >= 2 and part not in STOPWORDS and part not in NEGATIONS
    )
    return TextFacts(
        tuple(words), tuple(names), tuple(numbers), tuple(dates), tuple(identifiers),
        negations, content,
    )


#: Clause boundaries inside a sentence: polarity is read per clause ("X is free; it does not
#: need an account" holds one negation, in its second clause). A colon between digits is a
#: clock time ("9:30"), no boundary.
_CLAUSE = re.compile(
    r";|(?<!\d):|:(?!\d)|,\s+(?:and|but|while|whereas|although|though|so)\s+|\s+but\s+"
    r"|,\s+as\s+(?:can|does|do|did|is|are|was|were|has|have|had|will|would)\s+"
)


def one_clause(sentence: str) -> bool:
    """Whether a sentence holds no clause boundary (it is its own one clause, stripped): every
    boundary of `_CLAUSE` holds one of these."""
    return ";" not in sentence and ":" not in sentence and "," not in sentence and (
        "but" not in sentence
    )


def clause_starts(sentence: str) -> list[int]:
    """Where each clause of a sentence after its first starts."""
    return [m.end() for m in _CLAUSE.finditer(sentence)]


def clauses(sentence: str) -> list[str]:
    """A sentence's clauses."""
    if one_clause(sentence):
        whole = sentence.strip()
        return [whole] if whole else []
    return [c.strip() for c in _CLAUSE.split(sentence) if c.strip()]


#: Words that open a sentence continuing the previous one's subject ("It was designed by...").
ANAPHORA = frozenset(
    word_list(
        "it its he his she her they their them this these those that there such both also "
        "however then later after before during since in on at as with from by for and but "
        "which who whose where when"
    )
)
_FIRST_WORDS = re.compile(r"[\W_]*([^\W_]+)\W*([^\W_]*)")


def continues(sentence: str) -> bool:
    """Whether an evidence sentence goes on about the previous one's subject: it opens with a
    pronoun or connective, or with "The" and a common noun ("The film was...")."""
    m = _FIRST_WORDS.match(sentence)
    if m is None:
        return True
    first, second = m.group(1).lower(), m.group(2)
    if first in ANAPHORA:
        return True
    return first in ("the", "a", "an") and bool(second) and second[0].islower()


_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")


def number_keys(text: str) -> set[str]:
    """The number keys of a text, cheaply (its digit runs; no scale words, no number words)."""
    keys = set()
    for run in _DIGITS.findall(text):
        try:
            keys.add(number_key(float(run.replace(",", "").rstrip("."))))
        except ValueError:
            continue
    return keys


#: `_EVIDENCE_SENTENCE`'s ends found from the character that makes them (a character-set scan,
#: not a look-behind tried at every position); the white space after one is stripped anyway.
_EVIDENCE_END = re.compile(
    r"([.!?\n])(?:(?<=\n)|(?<!\b[A-Z]\.)(?<!\.{4})" + _NOT_A_LEADER + _NOT_AN_ABBREVIATION
    + r"(?=\s|[A-Z\"]))"
)


#: `_EVIDENCE_END` for a text holding no "!", "?" or line break: its ends are full stops, found
#: by a scan for that one character (a scan for any of four tests each character).
_FULL_STOP_END = re.compile(
    r"(\.)(?<!\b[A-Z]\.)(?<!\.{4})" + _NOT_A_LEADER + _NOT_AN_ABBREVIATION + r"(?=\s|[A-Z\"])"
)


def evidence_sentences(text: str) -> list[str]:
    """Evidence cut into sentences for polarity and the nearest-sentence reason: the pieces
    between `_EVIDENCE_SENTENCE`'s matches, stripped, the empty ones dropped."""
    full_stops = "\n" not in text and "!" not in text and "?" not in text
    pieces = (_FULL_STOP_END if full_stops else _EVIDENCE_END).split(text)  # text, end, ..., text
    ends = pieces[1::2]
    ends.append("")
    cut = map(str.__add__, pieces[0::2], ends)
    return list(filter(None, map(str.strip, cut)))


#: A number as a comparison states it ("3.9", "-0.8", "1,284", "41%"); not a time's or a
#: version's part, not an ordinal ("3rd").
_COMPARED = (
    r"(?<![\w.:,/])(?<![a-z]-)"  # not an error's code ("E-21")
    r"((?:[-+\u2212]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+\u2212]?\d+(?:\.\d+)?)"
    r"(?:k|m|bn|%)?)(?![\w:/]|[.,]\d)"
)
#: Words saying a value is higher or lower than another it is compared with.
_HIGHER = frozenset(word_list(
    "up rose risen grew increased climbed jumped rising climbing growing increasing higher above"
))
_LOWER = frozenset(word_list(
    "down fell fallen dropped shrank decreased declined falling dropping declining decreasing "
    "lower below"
))
#: "3.9, down from 4.3": the value is the sentence's last number before the phrase.
_FROM = re.compile(
    r"\b(up|down|higher|lower)\s+from\s+(?:(?:the|a|an|its|their)\s+)?" + _COMPARED
)
#: "rose from 41.2 kg on Nov 28 to 40.5 kg": a moving word, then "from" and "to".
_FROM_TO = re.compile(
    r"\b((?:[a-z]+\s+){1,3})from\s+" + _COMPARED + r"[^;:()]{0,40}?\bto\s+" + _COMPARED
)
#: "180, below its reorder point of 500": the value is the number just before.
_BEYOND = re.compile(
    r"\b(above|below)\s+(?:(?:its|the|their|a|an)\s+)?(?:[a-z-]+\s+){0,3}?(?:of\s+)?" + _COMPARED
)
#: What may stand between a value and its comparison ("41% now cycle weekly, up from"); a
#: word opening another subject ends the value's reach.
_OTHER_SUBJECT = re.compile(
    r"\b(?:and|but|while|whereas|though|although|with|compared|versus|vs|when|whenever|if"
    r"|unless|until)\b"
    r"|[;:()]"
)
#: A word before a number that names a thing rather than measures it ("ending 4471", "No. 5").
_NAMING = re.compile(r"(?:\bending(?:\s+in)?|\bno\.?|#)\s*$")
_COMPARES = re.compile(r"\b(?:from|above|below)\b", re.IGNORECASE)
_CURRENCY_SIGN = re.compile(r"[$\u20ac\u00a3\u00a5]")
#: A comparison reaches back this far for its value.
COMPARED_REACH_CHARS = 48


def _compared_value(text: str) -> tuple[float, str]:
    """A compared number's value and its scale ("4.3m": 4.3 and "m")."""
    digits = text.rstrip("kmbn%")
    return float(digits.replace(",", "").replace("\u2212", "-")), text[len(digits):]


class Comparison(NamedTuple):
    """A comparison a sentence makes: its value and the value it is compared with, as written;
    whether it says higher; and what one of the other's units is in the value's."""

    value: str
    other: str
    higher: bool
    factor: float = 1.0


def comparisons(sentence: str) -> list[Comparison]:
    """The comparisons a sentence makes between two of its numbers, each as (value, the value
    it is compared with, whether it says higher): "3.9, down from 4.3", "rose from 41.2 to
    40.5", "180, below its reorder point of 500". Dates are no values; a comparison whose
    value cannot be told is not read."""
    if _COMPARES.search(sentence) is None:
        return []
    lowered = _DATE.sub(lambda m: "d" * len(m.group()), _CURRENCY_SIGN.sub("", sentence.lower()))
    found: list[Comparison] = []
    for pattern, backward in ((_FROM, True), (_BEYOND, True), (_FROM_TO, False)):
        for m in pattern.finditer(lowered):
            words = set(m.group(1).split())
            if backward:
                before = lowered[max(0, m.start() - COMPARED_REACH_CHARS):m.start()]
                values = list(re.finditer(_COMPARED, before))
                if not values or _OTHER_SUBJECT.search(before[values[-1].end():]) or (
                    _NAMING.search(before, 0, values[-1].start())
                ):
                    continue  # "a Visa ending 4471": a number that names, not a value
                value, other = values[-1].group(1), m.group(2)
                if pattern is _BEYOND and _HOW_LONG.fullmatch(before[values[-1].end():]):
                    continue  # "18 days above 55 °C": how long it was, not the value
                if _MOVES_TO.match(lowered, m.end()):
                    continue  # "goes up from 1,150 to 1,207": `_FROM_TO` reads it
                length = _measured(lowered, m.end(2))
                if length and length != _measured(lowered, values[-1].end(1)):
                    continue  # "at 3, considerable, above 2,200 m": a place, not a value
            else:
                if bool(words & _HIGHER) == bool(words & _LOWER):
                    continue
                value, other = m.group(3), m.group(2)
            if _A_TIME.match(lowered, m.end(2)):
                continue  # "opens up from 8 pm": a time of day, no value
            if pattern is not _BEYOND and value.startswith("-") and other.startswith("-"):
                continue  # "down from -38 ns to -7 ns": a move may be in size, not in value
            if backward:
                units = _unit_at(lowered, values[-1].end(1)), _unit_at(lowered, m.end(2))
            else:
                units = _unit_at(lowered, m.end(3)), _unit_at(lowered, m.end(2))
            factor = _other_in_value_unit(*units)
            if factor is None:
                continue  # "31 GB" beside "0.3 ms": two things, no comparison
            if not _is_year(value) and not _is_year(other):
                found.append(Comparison(value, other, bool(words & _HIGHER), factor))
    return found


#: A unit of time between a number and "above" or "below": the number counts how long a
#: value was beyond the other ("18 days above 55 °C"), and is no value of the comparison.
_HOW_LONG = re.compile(r"\s(?:days?|nights?|hours?|hrs?|minutes?|mins?|weeks?|months?|years?)\s")
#: "... to 1,207" after a comparison's number: a move from one value to another.
_MOVES_TO = re.compile(r"[^;:()]{0,40}?\bto\s+" + _COMPARED)
#: Units of length, which place a thing ("above 2,200 m") as well as measure it.
_MEASURES = frozenset(("m", "km", "cm", "mm", "ft", "feet", "metres", "meters", "mi", "miles"))


def _measured(lowered: str, end: int) -> str | None:
    """The unit of length written right after a number ending at `end`, if any."""
    unit = _unit_at(lowered, end)
    return unit if unit in _MEASURES else None


#: Units a comparison reads its two values in, by what they measure and their size in the
#: smallest: "down from 31 GB to 4,210 MB" compares 31,000 MB with 4,210.
_MAGNITUDES: dict[str, tuple[str, float]] = {
    **{u: ("bytes", 1e3 ** n) for n, us in enumerate(("b bytes", "kb", "mb", "gb", "tb"))
       for u in us.split()},
    **{u: ("bytes", 1024.0 ** n) for n, u in enumerate(("", "kib", "mib", "gib", "tib")) if u},
    **dict.fromkeys(("ms",), ("time", 1e-3)),
    **dict.fromkeys(("s", "sec", "secs", "seconds"), ("time", 1.0)),
    **dict.fromkeys(("min", "mins", "minutes"), ("time", 60.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hours"), ("time", 3600.0)),
    **dict.fromkeys(("mg",), ("mass", 1e-3)),
    **dict.fromkeys(("g", "grams"), ("mass", 1.0)),
    **dict.fromkeys(("kg",), ("mass", 1e3)),
    **dict.fromkeys(("mm",), ("length", 1e-3)),
    **dict.fromkeys(("cm",), ("length", 1e-2)),
    **dict.fromkeys(("m", "metres", "meters"), ("length", 1.0)),
    **dict.fromkeys(("km",), ("length", 1e3)),
}


def _unit_at(lowered: str, end: int) -> str:
    """The word written right after a compared number ending at `end`, or ""."""
    unit = _UNIT.match(lowered, end)
    return unit.group(1) if unit else ""


def _other_in_value_unit(unit: str, other_unit: str) -> float | None:
    """What one of the other value's units is in the value's: 1 when their units are the
    same or not both written, 1,000 for "4,210 MB" compared with "31 GB", and None when the
    two measure different things ("ms" and "GB")."""
    if unit == other_unit or unit not in _MAGNITUDES or other_unit not in _MAGNITUDES:
        return 1.0
    (kind, size), (other_kind, other_size) = _MAGNITUDES[unit], _MAGNITUDES[other_unit]
    return other_size / size if kind == other_kind else None


#: A time of day right after a number ("8 pm", "8:30").
_A_TIME = re.compile(r"\s?(?:[ap]\.?m\b|:\d\d)")
#: A number as written in a sentence, for `contradicts_itself`.
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _is_year(number: str) -> bool:
    return number.isdigit() and len(number) == 4 and 1900 <= int(number) <= 2100


def contradicts_itself(sentence: str) -> tuple[str, str, bool] | None:
    """A comparison of the sentence's that its own numbers deny ("3.9, up from 4.3")."""
    for value, other, higher, factor in comparisons(sentence):
        (a, scale), (b, other_scale) = _compared_value(value), _compared_value(other)
        b *= factor
        if scale == other_scale and a != b and (a > b) != higher:
            # "29.6, which is 4.6 above the 25 threshold": the value is how far, and the
            # sentence writes where that lands (25 + 4.6)
            lands = b + a if higher else b - a
            written = {float(n) for n in _PLAIN_NUMBER.findall(sentence.replace(",", ""))}
            if any(abs(lands - v) < 1e-9 for v in written):
                continue
            return value, other, higher
    return None
