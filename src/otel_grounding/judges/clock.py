"""Times as agents write them and as tool outputs write them: clock times on the 12- and
24-hour clock, hedged times ("just before 10:50 pm"), ranges ("from 7 to 9"), durations
("about 1 hour 9 minutes" for 4127 s, "6 minutes 52 seconds" for 412), the time between two
of an output's ("43 seconds ahead"), and hours as minutes ("a 90-minute session" for 1.5 h).
Pure text reading for the verifier: nothing here knows of claims' verdicts or of the evidence
index.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from itertools import chain, combinations

from otel_grounding.judges.facts import MONTHS, NUMBER_WORDS

#: The first time of a range on the 12-hour clock, written without its half ("from 7 to
#: 8:30 pm").
_RANGE_START = re.compile(
    r"\b(\d{1,2})(?::(\d\d))?\s?(?:to|until|till|-|\u2013)\s?\d{1,2}(?::\d\d)?\s?[ap]\.?m\b",
    re.IGNORECASE,
)
#: A month's name just before a number: the number is its day ("August 11 to 10 am").
_MONTH_BEFORE = re.compile(
    r"\b(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s$", re.IGNORECASE
)
#: What may follow a bare hour: not a unit ("8 kg", "10 people"), but a word of the sentence
#: ("between 10 and 4 with photo ID", "from 9 to 3 that day", "from 11 to 5 is approved").
_NO_UNIT = (
    r"(?![\d.,:]?\d|\s?(?:%|(?!(?:and|or|to|on|in|at|by|for|with|the|a|that|this|each|every"
    r"|but|so|then|when|while|because|if|unless|except|only|daily|is|are|was|were)\b)[a-zA-Z]))"
)
#: A range of bare hours ("from 7 to 9", "between 8 and 10:30", "from noon to 6").
_BARE_RANGE = re.compile(
    r"\b(?:from|between)\s(\d{1,2}|noon|midday)(?::(\d\d))?\s?(?:to|and|until|till|-|\u2013)\s?"
    r"(\d{1,2})(?::(\d\d))?" + _NO_UNIT
)
#: Two bare hours joined as a range, read as times only where both ends are the output's
#: ("working hours are 9 to 6" for 09:00-18:00).
_HOUR_PAIR = re.compile(
    r"(?<![\d.,:])\b(\d{1,2})(?::(\d\d))?\s?(?:to|until|till|-|\u2013)\s?(\d{1,2})(?::(\d\d))?"
    + _NO_UNIT
)
#: A bare hour a hedge places ("a little after 11", "just before 10").
_HEDGED_HOUR = re.compile(
    r"\b(?:just|shortly|little|around|about|roughly|nearly|almost)\s(?:after|before|past|at)?"
    r"\s?(\d{1,2})(?::(\d\d))?(?![\d.,:]?\d|\s?(?:%|[a-zA-Z]))"
)
#: A bare hour after a word placing it in the day ("shuts at 8 because", "open until 10").
_AT_HOUR = re.compile(
    r"\b(?:at|by|until|till)\s(\d{1,2})(?::(\d\d))?"
    r"(?![\d.,:]?\d|\s?(?:%|(?!and\b|or\b|to\b)[a-zA-Z]{1,3}\b))"  # not "at 8 kg"
)
#: Bare hours listed after "at" ("at 11 and 2", "at 9, 12 or 3"), followed by no unit.
_AT_HOURS = re.compile(
    r"\bat\s\d{1,2}(?::\d\d)?(?:(?:,\s|,?\s(?:and|or)\s)\d{1,2}(?::\d\d)?)+" + _NO_UNIT
)
_HOUR = re.compile(r"(\d{1,2})(?::(\d\d))?")
#: A bare hour something starts from, followed by no word but of the sentence ("badminton is
#: on court 3 from 8, when ..."; not "from 8 sites").
_FROM_HOUR = re.compile(r"\bfrom\s(\d{1,2})(?::(\d\d))?" + _NO_UNIT)
#: Words that hedge a time of day ("just before 10:50 pm", "around 4 pm").
_CLOCK_HEDGE = re.compile(
    r"\b(?:just|shortly|little|around|about|roughly|approximately|nearly|almost)"
    r"(?:\s(?:after|before|past|at|by|until))?\s*$",
    re.IGNORECASE,
)
#: How far a hedged time may be from the evidence's, in minutes.
CLOCK_HEDGE_MINUTES = 15
#: A clock or a stopwatch in the evidence ("10:14", "1:09:48", "41:07").
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d\d)(?::(\d\d))?(?![\d:])")
#: Hours and minutes as a tool prints a duration ("4h 38m").
_HOURS_MINUTES = re.compile(r"(?<![\w.])(\d{1,3})h\s?([0-5]?\d)m\b")
#: A unit of time right after a claim's number ("90-minute", "2 hours").
_TIME_WORD = re.compile(r"[-\s]?(min(?:ute)?s?|h(?:ou)?rs?|hours?)\b", re.IGNORECASE)
#: A number of hours or minutes in the evidence ("1.5 h", "120 min").
_IN_TIME_UNITS = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s?(h|hrs?|hours?|mins?|minutes?)\b", re.IGNORECASE
)
_HOUR_WORDS = frozenset(("h", "hr", "hrs", "hour", "hours"))
_MINUTE_WORDS = frozenset(("m", "min", "mins", "minute", "minutes"))
#: Seconds in each unit a claim may count a time between two in.
_TIME_UNITS = {
    **dict.fromkeys(("seconds", "second", "secs", "sec", "s"), 1),
    **dict.fromkeys(("minutes", "minute", "mins", "min"), 60),
    **dict.fromkeys(("hours", "hour", "hrs", "hr"), 3600),
}
#: A unit of time right after a number, joined or not ("a 37-minute ride", "43 seconds").
_UNIT_OF_TIME = re.compile(r"[-\s]?(seconds?|secs?|minutes?|mins?|hours?|hrs?)\b", re.IGNORECASE)
#: The most clock values of an output read for the times between them.
CLOCK_MAX_VALUES = 400
#: A duration in hours and minutes or in minutes and seconds ("1 hour 9 minutes", "2 h 15
#: min", "3 hours and 5 mins", "6 minutes 52 seconds"); `in_a_duration` pairs the units.
_DURATION = re.compile(
    r"\b(\d{1,3})\s?(hours?|hrs?|h|minutes?|mins?|m)\s?(?:and\s)?(\d{1,2})\s?"
    r"(minutes?|mins?|m|seconds?|secs?|s)\b",
    re.IGNORECASE,
)
#: A time of day written with a dot on the 12-hour clock ("2.30pm", "10.15 am").
_DOTTED_TIME = re.compile(r"(?<![\d.])(\d{1,2})\.(\d\d)\s?([ap])\.?m\b", re.IGNORECASE)
#: A time of day a claim writes: on the 12-hour clock ("4 pm", "3.30pm") or as hours and
#: minutes ("16:15"), never part of a longer clock value ("2:09:51", "12.45").
_TIME_OF_DAY = re.compile(
    r"(?<![\d.:])(\d{1,2})(?:[:.](\d\d))?\s?([ap])\.?m\b|(?<![\d.:])(\d{1,2}):(\d\d)(?![\d:])",
    re.IGNORECASE,
)
#: The start of a range a time of day on the 12-hour clock ends ("between 1 and 3 pm"), just
#: before it.
_START_BEFORE = re.compile(r"(?<![\d.:])(\d{1,2})([:.]\d\d)?\s?(?:to|and|-|\u2013)\s?$")
#: What a time of day on the 12-hour clock writes after its digits.
_HALVES = ("am", "pm", "a.m", "p.m")
#: A time of day on the 12-hour clock, after the start of a range it ends ("11am", "7:30 pm",
#: "between 8 and 10 am").
_TWELVE_HOUR = re.compile(
    r"(?:\b(\d{1,2})(?::(\d\d))?\s?(?:to|and|until|till|-|\u2013)\s?)?"
    r"\b(\d{1,2})(?::(\d\d))?\s?([ap])\.?m\b",
    re.IGNORECASE,
)
#: A time of day in the evidence, on the 24-hour clock ("19:15", "T16:00:00Z").
_EVIDENCE_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d\d)(?!\d)")
#: A time of day with its seconds ("20:26:52"): its minutes and seconds, found from the colon
#: (a scan for a literal is fast), then the hour before them.
_EVIDENCE_SECONDS = re.compile(r":(\d\d):(\d\d)(?![\d:])")
_HOUR_BEFORE = re.compile(r"(?<![\d:])(\d{1,2})$")
#: The time of a date and time written without separators, as calendars do
#: ("20261112T150000Z") and aviation's date-time groups ("20260417/0615Z");
#: `compact_date_times` reads the eight digits before it (the scan starts at the "T" or "/": a
#: pattern starting with the digits costs twice as much).
_COMPACT_TIME = re.compile(r"[Tt]([01]\d|2[0-3])([0-5]\d)(?:\d\d)?(?!\d)")
_GROUP_TIME = re.compile(r"/([01]\d|2[0-3])([0-5]\d)z(?!\w)", re.IGNORECASE)
#: Half past an hour as British English says it ("till half five", one to eleven).
_HALF_PAST = re.compile(
    r"\bhalf\s+(" + "|".join(w for w, n in NUMBER_WORDS.items() if 1 <= n <= 11) + r")\b",
    re.IGNORECASE,
)
#: A time of day as aviation writes it, in UTC ("ERUPTION STARTED AT 0450Z").
_ZULU_TIME = re.compile(r"(?<![\d/])([01]\d|2[0-3])([0-5]\d)z\b", re.IGNORECASE)
#: ... and four digits before a zone or "hrs" ("Peak Flux: M6.3 at 0358 UTC", "1430 hrs").
_FOUR_DIGIT_TIME = re.compile(
    r"(?<![\d/.:,])([01]\d|2[0-3])([0-5]\d)\s(?:utc|gmt|hrs)\b", re.IGNORECASE
)


def times_of_day(text: str) -> set[tuple[int, int]]:
    """The times of day a text writes ("19:15", "2026-12-03T16:00:00Z", "2.30pm"), as (hour,
    minute)."""
    found = {(int(h), int(m)) for h, m in _EVIDENCE_TIME.findall(text)}
    for m in _EVIDENCE_SECONDS.finditer(text):  # "8:27 pm" for 20:26:52: to the minute
        hours = _HOUR_BEFORE.search(text, max(0, m.start() - 3), m.start())
        if hours and int(m.group(2)) >= 30:
            minutes = (60 * int(hours.group(1)) + int(m.group(1)) + 1) % (24 * 60)
            found.add(divmod(minutes, 60))
    found.update(
        (int(h) % 12 + (12 if half.lower() == "p" else 0), int(m))
        for h, m, half in _DOTTED_TIME.findall(text)
    )
    # the 12-hour clock ("4 pm", "11am", "7:30pm"), and a range's start in its end's half
    # ("between 8 and 10 am", "from 4 to 5pm")
    for m in _TWELVE_HOUR.finditer(text):
        half = 12 if m.group(5).lower() == "p" else 0
        found.add((int(m.group(3)) % 12 + half, int(m.group(4) or 0)))
        if m.group(1):
            found.add((int(m.group(1)) % 12 + half, int(m.group(2) or 0)))
    for m in _AT_HOUR.finditer(text):  # "drop off by 11", "open until 7"
        hour = int(m.group(1))
        found.update(((hour, int(m.group(2) or 0)), (hour + 12, int(m.group(2) or 0))))
    if "half" in text:  # "open till half five": 5:30, on either half of the day
        for word in _HALF_PAST.findall(text):
            hour = NUMBER_WORDS[word.lower()]
            found.update(((hour, 30), (hour + 12, 30)))
    if "z" in text or "Z" in text:  # "0450Z"
        found.update((int(h), int(m)) for h, m in _ZULU_TIME.findall(text))
    found.update((int(h), int(m)) for h, m in _FOUR_DIGIT_TIME.findall(text))
    return found


def compact_date_times(text: str) -> list[tuple[int, int, int, int, int]]:
    """The dates and times a text writes as calendars do ("20261112T150000Z"), as (year,
    month, day, hour, minute)."""
    found = []
    groups = _GROUP_TIME.finditer(text) if "/" in text else ()
    for m in chain(_COMPACT_TIME.finditer(text), groups):
        at = m.start()
        date = text[max(0, at - 8):at]
        if len(date) == 8 and date.isdigit() and not text[max(0, at - 9):at - 8].isdigit():
            found.append(
                (int(date[:4]), int(date[4:6]), int(date[6:]), int(m.group(1)), int(m.group(2)))
            )
    return found


def clock_seconds(text: str) -> list[int]:
    """Every clock or stopwatch value a text writes, in seconds, read both as hours and
    minutes and as minutes and seconds where it has two parts ("41:07")."""
    found: set[int] = set()
    found.update(3600 * int(h) + 60 * int(m) for h, m in _HOURS_MINUTES.findall(text))
    for a, b, c in _CLOCK.findall(text):
        if c:
            found.add(3600 * int(a) + 60 * int(b) + int(c))
        else:
            found.update((3600 * int(a) + 60 * int(b), 60 * int(a) + int(b)))
    return sorted(found)


def on_the_clock(claim: str, written: str, times: Collection[tuple[int, int]]) -> bool:
    """Whether a number written so in a claim is part of a time of the claim's that these
    times of day give on the 24-hour clock ("4 pm" for 16:00, "arrive by 7:15" for 19:15,
    "until 9 pm" for T21:00, "from 7 to 9" for 19:00-21:00); a hedged time within
    `CLOCK_HEDGE_MINUTES` ("just before 10:50 pm" for 22:48, "a little after 11" for 23:03)."""
    # (hours, minute, its start in the claim)
    found: list[tuple[set[int], int | None, int]] = [
        (hours, minute, start) for text, hours, minute, start in claim_times(claim)
        # the number as written, or as the claim's reader put "2:30 pm" on the 24-hour clock
        if written in text or written in {str(h) for h in hours}
    ]
    for m in _RANGE_START.finditer(claim):  # "from 7 to 8:30 pm": 19:00, or 07:00
        if written in m.group(1, 2):
            hour = int(m.group(1))
            found.append(({hour, hour + 12}, int(m.group(2) or 0), m.start()))
    for m in _BARE_RANGE.finditer(claim):  # "on Tuesday evenings from 7 to 9"
        for at in (1, 3):
            if written in m.group(at, at + 1):
                hour = int(m.group(at))
                found.append(({hour, hour + 12}, int(m.group(at + 1) or 0), m.start()))
    for m in _HOUR_PAIR.finditer(claim):
        if written in m.group(1, 2, 3, 4) and all(
            at_a_time(claim, {int(m.group(at)), int(m.group(at)) + 12},
                      int(m.group(at + 1)) if m.group(at + 1) else None, m.start(), times)
            for at in (1, 3)
        ):
            return True
    for m in _AT_HOURS.finditer(claim):  # "demonstrated at 11 and 2", "at 9, 12 and 3"
        for hour_at in _HOUR.finditer(m.group()):
            if written in hour_at.group(1, 2):
                hour = int(hour_at.group(1))
                found.append(({hour, hour + 12}, int(hour_at.group(2) or 0), m.start()))
    for pattern in (_AT_HOUR, _FROM_HOUR, _HEDGED_HOUR):  # "shuts at 8 because", "from 8, when"
        for m in pattern.finditer(claim):
            if written in m.group(1, 2):
                hour = int(m.group(1))
                found.append(({hour, hour + 12}, int(m.group(2) or 0), m.start(1)))
    return any(at_a_time(claim, hours, minute, start, times) for hours, minute, start in found)


def claim_times(claim: str) -> list[tuple[str, set[int], int | None, int]]:
    """The times of day a claim writes on a clock ("16:15", "4 pm", "3.30pm", "7:30 p.m."; not
    a stopwatch's "2:09:51"): the text, the hours it may be on the 24-hour clock, the minute
    (None: on the hour, "4 pm"), and where it starts."""
    lowered = claim.lower()
    if ":" not in claim and not any(half in lowered for half in _HALVES):
        return []  # the common case, read without the pattern
    out = []
    for m in _TIME_OF_DAY.finditer(claim):
        hour = int(m.group(1) or m.group(4))
        half = (m.group(3) or "").lower()
        if hour > (12 if half else 23):
            continue
        hours = {hour % 12 + (12 if half == "p" else 0)} if half else {hour, hour + 12}
        minute = m.group(2) or m.group(5)
        out.append((m.group().rstrip("."), hours, int(minute) if minute else None, m.start()))
        start = _START_BEFORE.search(claim, max(0, m.start() - 16), m.start()) if half else None
        if start is not None and start.group(2) is None and int(start.group(1)) <= 12 and not (
            _MONTH_BEFORE.search(claim, max(0, start.start() - 12), start.start())
        ):
            # "between 1 and 3 pm": the range's start is on the afternoon's clock too
            first = int(start.group(1)) % 12 + (12 if half == "p" else 0)
            out.append((start.group(1), {first}, None, start.start()))
    return out


def at_a_time(
    claim: str, hours: set[int], minute: int | None, start: int,
    times: Collection[tuple[int, int]],
) -> bool:
    """Whether these times of day give a claim's time: exactly, at the precision written ("at
    4am" for 4.15am), or within `CLOCK_HEDGE_MINUTES` where the words before it hedge it
    ("just before 10:50 pm")."""
    if minute is None:
        if any(h in hours for h, _ in times):
            return True
        minute = 0
    if any((h, minute) in times for h in hours):
        return True
    if _CLOCK_HEDGE.search(claim[max(0, start - 24):start]):
        wanted = {60 * h + minute for h in hours}
        return any(abs(60 * h + m - w) <= CLOCK_HEDGE_MINUTES for h, m in times for w in wanted)
    return False


def in_other_units(after: str, value: float, text: str) -> bool:
    """Whether a number of minutes (the claim's text `after` it says which) is hours a text
    gives ("a 90-minute session" for 1.5 h), or of hours minutes it gives ("a 2-hour slot"
    for 120 min)."""
    m = _TIME_WORD.match(after)
    if m is None:
        return False
    minutes = m.group(1).lower().startswith("m")
    wanted = value / 60 if minutes else value * 60
    words = _HOUR_WORDS if minutes else _MINUTE_WORDS
    return any(
        float(given) == wanted and unit.lower() in words
        for given, unit in _IN_TIME_UNITS.findall(text)
    )


def unit_after(after: str) -> str:
    """The unit of time written right after a number ("-minute ride", " seconds"), or ""."""
    m = _UNIT_OF_TIME.match(after)
    return m.group(1).lower() if m else ""


def apart(value: float, unit_word: str, hedged: bool, seconds: list[int], claim: str) -> bool:
    """Whether a number of seconds, minutes or hours is the time between two of these clock
    values, one of them a time the claim writes ("43 seconds ahead" of 1:09:48 for 1:10:31,
    "10:14 ... about 17 minutes later" for 10:31), at the precision written (within half a
    unit when hedged)."""
    unit = _TIME_UNITS.get(unit_word)
    if unit is None or len(seconds) > CLOCK_MAX_VALUES:
        return False
    anchors = set(clock_seconds(claim))
    anchors.update(a + 12 * 3600 for a in list(anchors) if a < 12 * 3600)  # "10:14 pm"
    wanted = value * unit
    slack = unit / 2 if hedged else 0.5
    return any(
        abs(abs(a - b) - wanted) <= slack
        for a, b in combinations(seconds, 2) if a in anchors or b in anchors
    )


def apart_on_a_line(value: float, unit_word: str, hedged: bool, text: str) -> bool:
    """Whether a number of minutes or hours is the time between the two times of day one line
    of the output gives ("submitted 18 minutes before the deadline" for `23:41 (deadline
    23:59)`): one line's pair, not any two of the output's."""
    unit = _TIME_UNITS.get(unit_word)
    if unit is None or unit < 60:
        return False
    wanted = value * unit
    slack = unit / 2 if hedged else 0.5
    for line in text.splitlines():
        if line.count(":") < 2:
            continue
        clocks = [3600 * int(h) + 60 * int(m) for h, m, s in _CLOCK.findall(line) if not s]
        if len(clocks) == 2 and abs(abs(clocks[0] - clocks[1]) - wanted) <= slack:
            return True
    return False


def in_a_duration(claim: str, written: str, values: Iterable[float]) -> bool:
    """Whether a number written so is part of a duration of the claim's that one of these
    values gives: hours and minutes in seconds or minutes ("about 1 hour 9 minutes" for
    4127 s), minutes and seconds in seconds ("6 minutes 52 seconds" for 412)."""
    for m in _DURATION.finditer(claim):
        if written not in m.group(1, 3):
            continue
        hours = m.group(2)[0].lower() == "h"
        if (m.group(4)[0].lower() == "m") != hours:  # hours and minutes, minutes and seconds
            continue
        whole = 60 * int(m.group(1)) + int(m.group(3))
        # hedged, hours and minutes may round the seconds to a few minutes ("about 4 hours 40
        # minutes" for 4h 38m, "just under 5 hours 50 minutes" for 5:47:10)
        slack = ROUNDED_DURATION_S if hours and _HEDGED_BEFORE.search(
            claim, max(0, m.start() - HEDGE_REACH), m.start()
        ) else 60
        if any(
            abs(v - whole) < 1 or (hours and abs(v - 60 * whole) < slack) for v in values
        ):
            return True
    return False


#: How far a hedged duration in hours and minutes may be from the output's, in seconds.
ROUNDED_DURATION_S = 300
#: A hedge just before a duration, within this many characters, and the hedges that round.
HEDGE_REACH = 16
_HEDGED_BEFORE = re.compile(
    r"\b(?:about|around|roughly|approximately|nearly|almost|under|over|some)\s+$", re.IGNORECASE
)


#: A cron schedule: minute, hour, day of month, month and weekday, at least one of the last
#: three "*" ("30 2 * * 1-5", "0 3 * * sun").
_CRON = re.compile(
    r"(?<![\w:./-])([0-5]?\d)\s+([01]?\d|2[0-3])\s+([\d*,/-]+)\s+([\d*,/-]+)\s+"
    r"([0-7*,/-]+|(?:mon|tue|wed|thu|fri|sat|sun)(?:[-,](?:mon|tue|wed|thu|fri|sat|sun))*)"
    r"(?![\w:.])",
    re.IGNORECASE,
)
_CRON_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


def cron_schedules(text: str) -> tuple[set[tuple[int, int]], set[int]]:
    """The times of day (hour, minute) and the weekdays (0 for Monday) the cron schedules of a
    text run at ("30 2 * * 1-5": 02:30, Monday to Friday)."""
    times: set[tuple[int, int]] = set()
    days: set[int] = set()
    for minute, hour, day, month, weekday in _CRON.findall(text):
        if "*" not in (day + month + weekday):
            continue  # five numbers in a row are no schedule
        times.add((int(hour), int(minute)))
        days.update(_cron_days(weekday.lower()))
    return times, days


def _cron_days(field: str) -> set[int]:
    """A cron weekday field's days, 0 for Monday ("1-5", "0,6", "mon-fri"); none for "*",
    every day, which names no day."""
    if field.startswith("*"):
        return set()
    found: set[int] = set()
    for part in field.split(","):
        ends = [
            _CRON_DAYS.index(p) if p in _CRON_DAYS else int(p) % 7
            for p in part.split("-") if p and (p in _CRON_DAYS or p.isdigit())
        ]
        if len(ends) == 2 and ends[0] <= ends[1]:
            found.update(range(ends[0], ends[1] + 1))
        elif len(ends) == 1:
            found.add(ends[0])
    return {(d - 1) % 7 for d in found}  # cron counts from Sunday
