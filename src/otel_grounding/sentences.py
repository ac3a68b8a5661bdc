"""An answer's sentences as a reader sees them, for the judge tier (not the lexical contract).

The lexical contract splits claims at every `.`; a reader does not: "v3.3.2", "3.14", "e.g."
and "J. R. R. Tolkien" stay inside their sentence. A sentence ends at `.`, `!`, `?` (and the
CJK and Devanagari full stops) followed by white space or the end, or at a line break. A
sentence is judged when it asserts something: it holds a word that is not filler ("OK.",
"Done.", "Thanks!" assert nothing) or a digit, so a short answer ("Delhi", "42 euros") is one.
A question (`asks`: "Want me to set a reminder?") asserts nothing of its own words.
Linear time: one pass of a regular expression with no nested repeats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def word_list(text: str) -> list[str]:
    """The words of a space-separated list written as text (the vocabularies below)."""
    return text.split()


#: What may close a sentence after its mark: quotes and brackets.
_CLOSERS = "\"'\u201d\u2019)]"
#: A sentence end: terminal punctuation (and closing quotes or brackets) then white space or
#: the end of the text, or a line break.
_END = re.compile(rf"[.!?]+[{re.escape(_CLOSERS)}]*(?=\s|$)|[\u3002\uff01\uff1f\u0964]|\n")
#: Words that end with a full stop without ending a sentence.
_ABBREVIATIONS = frozenset(
    word_list(
        "e.g i.e etc vs mr mrs ms dr prof st no approx inc ltd co jr sr fig al cf u.s u.k"
    )
)
#: Abbreviations of a title, written before a name and never after a number: after one, the
#: word is a unit ("5.2 ms.") and its full stop ends the sentence.
_TITLES = frozenset(word_list("mr mrs ms dr prof"))
_LAST_WORD = re.compile(r"([\w.]+)\.$")
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")
#: Words that, capitalised, open a sentence and follow no initial ("graded A. Shall I renew
#: it?"); not "A", "I" nor a first name ("Will"), which may.
_OPENERS = frozenset(
    word_list(
        "an the this that these those it its there they we you your he she his our their so "
        "but and or if then also since because as while when shall should would could can "
        "do does did is are was were want let please not"
    )
)
_WORD = re.compile(r"[^\W_]+")
_FIRST_WORD = re.compile(r"\W*([^\W\d_]+)")
#: Words that open a question ("Want me to set a reminder?").
_QUESTION_OPENERS = frozenset(
    word_list(
        "should shall would will want do does did can could may might is are was were am "
        "have has had what which when where who whom whose why how"
    )
)
_DIGIT = re.compile(r"\d")
#: Words that on their own assert nothing.
FILLER = frozenset(
    word_list(
        "ok okay done yes no sure thanks thank you hi hello bye please noted great fine right "
        "understood certainly of course got it alright all set"
    )
)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text, with its character offsets."""

    text: str
    start: int
    end: int


def _ends_sentence(text: str, stop: int) -> bool:
    """Whether the full stop ending at `stop` ends a sentence (not "e.g." nor an initial)."""
    match = _LAST_WORD.search(text, max(0, stop - 12), stop)
    if match is None:
        return True
    word = match.group(1)
    # ("PIO-88120-K." ends an identifier, and "11 °C." a unit: and a sentence)
    joined = match.start(1) > 0 and text[match.start(1) - 1] in "-/#\u00b0"
    if len(word) == 1 and word.isupper() and not joined:  # an initial: "J. R. R. Tolkien"
        following = _NEXT_WORD.match(text, stop)  # "Cassandra C. is" goes on
        return following is not None and following.group(1).istitle() and (
            following.group(1).lower() in _OPENERS
        )
    lowered = word.lower()
    at = match.start(1)
    if lowered in _TITLES and at >= 2 and text[at - 1].isspace() and text[at - 2].isdigit():
        return True
    return lowered not in _ABBREVIATIONS


def split_sentences(text: str) -> list[Sentence]:
    """The text's sentences, stripped, empty ones dropped."""
    out: list[Sentence] = []
    start = 0
    for match in _END.finditer(text):
        if match.group().startswith(".") and not _ends_sentence(text, match.start() + 1):
            continue
        _add(out, text, start, match.end())
        start = match.end()
    _add(out, text, start, len(text))
    return out


def _add(out: list[Sentence], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        lead = len(piece) - len(piece.lstrip())
        out.append(Sentence(stripped, start + lead, start + lead + len(stripped)))


def asserts_something(sentence: str) -> bool:
    """A digit, or a word that is not filler."""
    if _DIGIT.search(sentence):
        return True
    return any(w.lower() not in FILLER for w in _WORD.findall(sentence))


def asks(sentence: str) -> bool:
    """Whether a sentence is a question: it opens with a question word or an auxiliary and
    its last mark, before closing quotes or brackets, is "?" ("Want me to set a reminder?";
    not "It is shipped, so should I close the ticket?", which states before it asks). A
    question asserts nothing of its own words: the judge holds it to its facts only."""
    if not sentence.rstrip(_CLOSERS + " \t\n").endswith("?"):
        return False
    first = _FIRST_WORD.match(sentence)
    return first is not None and first.group(1).lower() in _QUESTION_OPENERS
