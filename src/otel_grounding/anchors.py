"""Critical anchors: strings in the output that must not go unverified (numbers, amounts, URLs...).

An anchor is covered when a source holds a match of the same kind with the same normalised
text. Every pattern here runs in linear time: the built-in ones are written so that each match
attempt is bounded (fixed-width look-behinds pin a match to the start of a run, no nested
unbounded repeats), and user patterns run on RE2, which has no backtracking at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from otel_grounding.options import ConfigError

NUMBER = "number"
MONEY = "money"
PERCENT = "percent"
DATE = "date"
URL = "url"
EMAIL = "email"

#: The built-in anchor classes an operator may declare.
BUILTIN_ANCHOR_CLASSES: tuple[str, ...] = (NUMBER, MONEY, PERCENT, DATE, URL, EMAIL)

_NUM = r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?"
_NOT_AFTER_WORD = r"(?<![A-Za-z0-9_])"
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?"

_NUMBER_RE = re.compile(_NOT_AFTER_WORD + _NUM)
_MONEY_RE = re.compile(
    r"[$€£¥]\s?(?P<a>" + _NUM + r")"
    # Not after "1," either: a failed attempt may not restart inside a digit-group chain
    # ("1,000,000,..." with no unit), which made the suffix form quadratic.
    r"|" + _NOT_AFTER_WORD + r"(?<![0-9],)(?P<b>" + _NUM
    + r")\s?(?:USD|EUR|GBP|JPY|dollars?|euros?)\b"
)
_PERCENT_RE = re.compile(_NOT_AFTER_WORD + r"(?P<n>[0-9]+(?:\.[0-9]+)?)\s?(?:%|percent\b)")
_DATE_RE = re.compile(
    _NOT_AFTER_WORD + r"(?P<iso>[0-9]{4}-[0-9]{2}-[0-9]{2})"
    r"|" + _MONTH + r"\s{1,3}(?P<d1>[0-9]{1,2})(?:st|nd|rd|th)?,?\s{1,3}(?P<y1>[0-9]{4})"
    r"|" + _NOT_AFTER_WORD + r"(?P<d2>[0-9]{1,2})\s{1,3}" + _MONTH.replace("mon", "mon2")
    + r",?\s{1,3}(?P<y2>[0-9]{4})"
    r"|" + _NOT_AFTER_WORD + r"(?P<slash>[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4})",
    re.IGNORECASE,
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_URL_RE = re.compile(r"https?://[^\s<>\"'()\[\]{}]+", re.IGNORECASE)
_EMAIL_RE = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+"
)


@dataclass(frozen=True)
class Anchor:
    """One occurrence of a critical anchor in the output."""

    kind: str
    text: str
    start: int
    end: int
    key: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "start": self.start, "end": self.end}


def _number_key(text: str) -> str:
    key = text.replace(",", "")
    if "." in key:
        key = key.rstrip("0").rstrip(".") or "0"
    return key


def _date_key(m: re.Match[str]) -> str | None:
    if m.group("iso"):
        return m.group("iso")
    if m.group("slash"):
        return m.group("slash")
    if m.group("mon"):
        mon, day, year = m.group("mon"), m.group("d1"), m.group("y1")
    else:
        mon, day, year = m.group("mon2"), m.group("d2"), m.group("y2")
    # IGNORECASE lets a few non-ASCII letters match the month names ("\u017fep", LONG S):
    # casefold them back, and skip (never crash on) anything that still is not a month.
    month = mon.casefold()[:3]
    if month not in _MONTHS:
        return None
    return f"{year}-{_MONTHS.index(month) + 1:02d}-{int(day):02d}"


def _date(m: re.Match[str]) -> tuple[int, int, str] | None:
    key = _date_key(m)
    return None if key is None else (m.start(), m.end(), key)


def _url_key(text: str) -> str:
    text = text.rstrip(".,;:!?")
    scheme, _, rest = text.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}://{host.lower()}{slash}{path}".rstrip("/")


# Each class: (key space, pattern, how to get (start, end, key) from a match).
# Amounts and percentages share the numeric key space: "$1,200" is covered by a source's "1200".
_Extract = Callable[[re.Match[str]], "tuple[int, int, str] | None"]


def _whole(key: Callable[[str], str]) -> _Extract:
    return lambda m: (m.start(), m.end(), key(m.group()))


def _money(m: re.Match[str]) -> tuple[int, int, str]:
    return m.start(), m.end(), _number_key(m.group("a") or m.group("b"))


def _percent(m: re.Match[str]) -> tuple[int, int, str]:
    return m.start(), m.end(), _number_key(m.group("n"))


def _url(m: re.Match[str]) -> tuple[int, int, str] | None:
    text = m.group().rstrip(".,;:!?")
    return (m.start(), m.start() + len(text), _url_key(text)) if len(text) > 8 else None


_BUILTINS: dict[str, tuple[str, re.Pattern[str], _Extract]] = {
    NUMBER: ("num", _NUMBER_RE, _whole(_number_key)),
    MONEY: ("num", _MONEY_RE, _money),
    PERCENT: ("num", _PERCENT_RE, _percent),
    DATE: ("date", _DATE_RE, _date),
    URL: ("url", _URL_RE, _url),
    EMAIL: ("email", _EMAIL_RE, _whole(str.lower)),
}


class AnchorConfigError(ConfigError):
    """An anchor class or pattern that cannot be used; raised at configuration time."""


def compile_user_pattern(pattern: str) -> Any:
    """Compile a user anchor pattern on RE2 (linear time); raise AnchorConfigError if unusable."""
    if not isinstance(pattern, str) or not pattern:
        raise AnchorConfigError(f"anchor_patterns: {pattern!r} is not a non-empty string")
    try:
        import re2
    except ImportError as exc:
        raise AnchorConfigError(
            f"anchor_patterns: {pattern!r} needs the RE2 engine for linear-time matching; "
            "install otel-grounding[regex]"
        ) from exc
    options = re2.Options()
    options.log_errors = False  # the error is ours to say, once (RE2 logs it to stderr too)
    try:
        compiled = re2.compile(pattern, options)
    except re2.error as exc:
        raise AnchorConfigError(
            f"anchor_patterns: {pattern!r} is not a valid RE2 pattern: {_error_text(exc)}"
        ) from None
    if compiled.fullmatch("") is not None:
        raise AnchorConfigError(f"anchor_patterns: {pattern!r} matches the empty string")
    return compiled


def _error_text(exc: Exception) -> str:
    """An engine error's message as text (RE2's binding gives it as bytes)."""
    message = exc.args[0] if exc.args else exc
    if isinstance(message, bytes):
        return message.decode("utf-8", "replace")
    return str(message)


@dataclass(frozen=True)
class AnchorMatcher:
    """The declared anchor classes and user patterns, compiled once."""

    classes: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    compiled: tuple[Any, ...] = ()

    @classmethod
    def build(cls, classes: Iterable[str] = (), patterns: Iterable[str] = ()) -> AnchorMatcher:
        if isinstance(classes, str) or isinstance(patterns, str):
            raise AnchorConfigError("critical_anchors and anchor_patterns take lists, not a string")
        class_list = tuple(dict.fromkeys(classes))
        for name in class_list:
            if name not in _BUILTINS:
                raise AnchorConfigError(
                    f"critical_anchors: unknown class {name!r}; "
                    f"known: {', '.join(BUILTIN_ANCHOR_CLASSES)}"
                )
        pattern_list = tuple(patterns)
        compiled = tuple(compile_user_pattern(p) for p in pattern_list)
        return cls(class_list, pattern_list, compiled)

    @property
    def enabled(self) -> bool:
        return bool(self.classes or self.patterns)

    def _matches(
        self, text: str, classes: Sequence[str]
    ) -> Iterator[tuple[str, str, int, int, str]]:
        """(kind, key space, start, end, key) for every match of the given classes and patterns."""
        for name in classes:
            space, pattern, extract = _BUILTINS[name]
            for m in pattern.finditer(text):
                found = extract(m)
                if found is not None:
                    yield name, space, found[0], found[1], found[2]
        if self.compiled and not text.isascii():
            # RE2 matches UTF-8: a lone surrogate cannot be encoded, so it becomes U+FFFD
            # (one character for one: positions stay those of the original text).
            text = _SURROGATE.sub("\ufffd", text)
        for i, compiled in enumerate(self.compiled):
            for m in compiled.finditer(text):
                if m.end() > m.start():
                    yield f"pattern:{i}", f"pattern:{i}", m.start(), m.end(), m.group()

    def find(self, output: str) -> list[Anchor]:
        """The anchors in the output, in order; a match inside a wider one (a number in a date) is
        dropped."""
        found = sorted(self._matches(output, self.classes), key=lambda a: (a[2], -a[3]))
        anchors: list[Anchor] = []
        reach = -1
        for kind, space, start, end, key in found:
            if end <= reach:
                continue
            reach = end
            anchors.append(Anchor(kind, output[start:end], start, end, f"{space}\x00{key}"))
        return anchors

    def source_keys(self, sources: Sequence[str]) -> set[str]:
        """Every normalised key any declared class finds in the sources."""
        classes = list(self.classes)
        if NUMBER not in classes and any(_BUILTINS[c][0] == "num" for c in classes):
            classes.append(NUMBER)  # "$1,200" in the output is covered by "1200" in a source
        keys: set[str] = set()
        for text in sources:
            keys.update(f"{space}\x00{key}" for _, space, _, _, key in self._matches(text, classes))
        return keys
