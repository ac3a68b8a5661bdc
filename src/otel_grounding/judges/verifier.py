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
- over a document (`DOCUMENT_MIN_SEGMENTS`: an article, a long report) a claim is held to its
  numbers, dates and identifiers, and to one passage (`PASSAGE_MIN`): a summary's names come
  from its byline and context as often as from the text, and its sentences join passages;
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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, chain, repeat
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
from otel_grounding.judges.facts import (
    STOPWORDS,
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
    title_like,
    word_parts,
    words_of_in_order,
    words_profile,
)

#: The rules' version, written as `judge.model`.
MODEL = "rules-v2"
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
QUOTE_CHARS = 140
_APART = "never stated together"
_OF_ANOTHER = "said of"
_PASSAGE = "one passage"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


#: A part of a hyphenated identifier that may be checked on its own: a word, or digits with
#: an ending ("18s", "3rd").
_PLAIN_PART = re.compile(r"[^\W\d_]+|\d+[a-z]{0,2}")
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
    r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|(?<![\w.,])\d+(?:\.\d+)?(?!\d)"
)
#: A claim's words, with their positions, for binding a number to the name before it.
_WORD_IN_CLAIM = re.compile(r"[^\W\d_][\w'\u2019-]*")
#: A bracketed group holding one of these is a record, not a list of numbers.
_WORD_IN_TEXT = re.compile(r"[^\W\d_]{2,}")
#: An innermost bracketed group of a structured output: one record ("('EMEA', 1840200)").
_GROUP = re.compile(r"[(\[{][^()\[\]{}]*[)\]}]")
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
                segment_words += sentence.count(" ") + 1
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
        parts = [p for p in word_parts(name) if len(p) >= 2]
        if all(self._has_word(p) for p in parts):
            return True
        return len(parts) == 1 and self._coded(parts[0])

    def _coded(self, word: str) -> bool:
        """Written in the evidence as its code: the capitals a name starts with ("FRA" for
        Frankfurt, "LIS" for Lisbon)."""
        if self._codes is None:
            self.profiles  # noqa: B018 -- the distinct words
            self._codes = {w.lower() for w in self._distinct if w.isupper() and 3 <= len(w) <= 4}
        return any(word.startswith(code) for code in self._codes)

    def _has_word(self, word: str) -> bool:
        vocabulary = self.vocabulary
        words = vocabulary.words
        if word in words or stem(word) in vocabulary.stems or word in vocabulary.prefixes:
            return True
        if len(word) >= SPELLING_MIN_CHARS and self._misspelt(word):
            return True
        if any(
            word[: len(word) - cut] in words
            for cut in range(1, NAME_ENDING_MAX + 1)
            if len(word) - cut >= NAME_PREFIX_MIN
        ):
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
        if any(k in facts.numbers for k in keys):
            return True
        if number.decimals or number.hedged:  # "4.9" or "about 5" for 4.87
            wanted = number.scaled if number.scaled is not None else number.value
            for value in facts.values:
                if round(value, number.decimals) == number.value:
                    return True
                if number.hedged and abs(value - wanted) <= HEDGE_TOLERANCE * abs(value):
                    return True
        return False

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
        # "under-18s" for "under 18": hyphenated words and plain numbers, each found.
        parts = key.split("-")
        if len(parts) < 2 or not all(_PLAIN_PART.fullmatch(p) for p in parts):
            return False
        return all(
            self._has_word(p)
            if p.isalpha()
            else number_key(float(_digits(p))) in self._read_facts().numbers
            for p in parts
        )

    def sentence_stems(self, position: int) -> set[str]:
        """The stems of every word of the evidence sentence holding this clause, and of the
        sentences before it that it goes on from ("He narrated..." is about the subject of the
        sentence before)."""
        found: set[str] = set()
        sentences = self.sentences
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
        if self._records is None:
            self._records = {}
            for sentences in self._by_source:
                for sentence in sentences:
                    groups = [(m.start(), m.end()) for m in _GROUP.finditer(sentence)]
                    for m in _NUMBER_IN_TEXT.finditer(sentence):
                        record = next(
                            (sentence[a:b] for a, b in groups
                             if a <= m.start() < b and _WORD_IN_TEXT.search(sentence[a:b])),
                            sentence,
                        )
                        key = number_key(float(m.group().replace(",", "")))
                        self._records.setdefault(key, []).append(record.lower())
        return self._records.get(number_key(number.value))

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
            found.dates.extend(facts.dates)
            for date in facts.dates:  # "on Friday, December 4" for 2026-12-04
                if date.year and date.month and date.day:
                    try:
                        weekday = datetime.date(date.year, date.month, date.day).weekday()
                    except ValueError:
                        continue
                    found.weekdays.add(_WEEKDAYS[weekday])
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


def check_claim(claim: str, index: EvidenceIndex) -> ClaimCheck:
    """The rules, in order: polarity, unsupported facts, joined facts, swapped names,
    coverage."""
    facts = read_facts(claim, claim=True)
    ranked = index.nearest(facts.content_stems)
    nearest = ranked[0][1] if ranked else index.holding(facts)
    content = len(facts.content_stems)
    coverage = sum(1 for s in facts.content_stems if s in index.stems) / content if content else 1.0
    if index.is_document:  # held to its facts here, to one passage in `passage_checks`
        missing = _missing_facts(facts, index, names=False)
        verdict = UNSUPPORTED if missing else SUPPORTED
        return ClaimCheck(verdict, missing, coverage, None, nearest, facts.content_stems)
    parts = clauses(claim)
    flipped = _polarity_flip(parts, index)
    if flipped is not None:
        return ClaimCheck(CONTRADICTED, (), coverage, flipped, flipped)
    missing = _missing_facts(facts, index) or _unknown_siblings(facts, index)
    if missing:
        return ClaimCheck(UNSUPPORTED, missing, coverage, None, nearest)
    unbound = _unbound(claim, facts, index)
    if unbound:
        return ClaimCheck(UNSUPPORTED, unbound, coverage, None, nearest)
    if not index.more_segments_than(SCATTER_MAX_SEGMENTS):  # both rules: short evidence only
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
    if not anchored and content >= COVERAGE_MIN_WORDS and coverage < COVERAGE_MIN:
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
    names = list(facts.names)
    first = facts.words[0] if facts.words else ""
    if first and first not in names and first in index.proper:
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
        others = sorted(index.names_of(position) - {n.lower() for n in names})
        if not absent or not others:
            return None
    said = (*(f"'{n}'" for n in absent), f"{_OF_ANOTHER} '{others[0]}'")
    return said, best[0]


def passage_checks(checks: list[ClaimCheck], index: EvidenceIndex) -> list[ClaimCheck]:
    """Over a document: the claims standing on their facts are held to one passage each
    (`PASSAGE_MIN`), judged with the answer they are part of."""
    if not index.is_document:
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
    for number in numbers:
        at = claim.find(number.text)
        before = [w for start, w in words if start < at][-BIND_MAX_WORDS:] if at >= 0 else []
        name = next((w for w in reversed(before) if w in names), None)
        if name is None or not (index.has_name(name) or index.has_identifier(name)):
            continue
        records = index.records_of(number)
        if records and not any(name.lower() in record for record in records):
            return (f"'{name}'", f"'{number.text}'", _APART)
    return ()


def _missing_facts(
    facts: TextFacts, index: EvidenceIndex, *, names: bool = True
) -> tuple[str, ...]:
    missing: list[str] = []
    if names and facts.names:
        missing.extend(f"name '{n}'" for n in facts.names if not index.has_name(n))
    if facts.numbers:
        missing.extend(f"number '{n.text}'" for n in facts.numbers if not index.has_number(n))
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
        stems, negated = words_profile(words)
        if len(stems) < POLARITY_MIN_WORDS:
            continue
        need = max(POLARITY_MIN_SHARED, POLARITY_OVERLAP * len(stems))
        same = [p for _, p in index.nearest(stems, need)]
        if not same:
            continue
        if all(
            bool(negated & (shared := stems & index.profiles[p].stems))
            != bool(index.profiles[p].negated & shared)
            for p in same
        ):
            return same[0]
    return None


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
        checks = [check_claim(claim, index) for claim in request.claims]
        verdicts = []
        for check in passage_checks(checks, index):
            source = index.sentences[check.nearest].source if check.nearest is not None else None
            verdicts.append(JudgeVerdict(check.verdict, explain(check, index), source))
        return verdicts
