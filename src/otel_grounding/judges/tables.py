"""The tables of a tool output: its rows and columns, read as laid out.

Markdown and psql rows, CSV lines, columns aligned under a header, JSON lists of objects and
YAML items are all read the same way: rows of cells under a header, which the verifier's rules
compare a claim with ("Ferncross is rising" where Ferncross's row says `Falling`). Pure text
reading: nothing here knows of claims or verdicts.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Literal, NamedTuple, overload

#: A line with this many commas and none followed by a space is a CSV row.
CSV_MIN_COMMAS = 3
#: A token of a record or a claim, compared as written ("i-0b77c", "10.0.2.41", "421G", "95%").
_TOKEN = re.compile(r"[^\s,;|()\[\]{}\"'\u2018\u2019\u201c\u201d]+")
_TOKEN_TRIM = ".:!?€$£"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3})")
#: A CSV line's quoted field.
_QUOTED = re.compile(r'"[^"]*"')
#: The marks a unified diff starts its removed and added lines with.
_DIFF_MARKS = ("+", "-")
#: A table's separator line ("|---|:--|", "-------+------").
_TABLE_RULE = re.compile(r"[\s|:+-]+")
#: A header's cell of a table aligned in columns: words at most one space apart.
_ALIGNED_CELL = re.compile(r"\S+(?: \S+)*")
#: A cell that is words: a status, a category or a name ("Falling", "Closed Won",
#: "Sparkling Water 500ml").
WORDED_CELL = re.compile(r"[^\W\d_][^\s]*(?: [^\s]+){0,3}")
#: A YAML field ("  - id: GA-41", "    enabled: false", "dark_mode_v2:").
_YAML_FIELD = re.compile(r"^( *)(- )?([A-Za-z_][\w ]{0,30}):(?: (.*)|$)", re.MULTILINE)
#: A table has at least this many columns.
TABLE_MIN_COLUMNS = 3
_NUMBER_CELL = re.compile(r"-?\d+(?:\.\d+)?")


class Table(NamedTuple):
    """A table's data rows, each as its text, its tokens and its cells (lowercased); its
    header's cells; the columns whose cells are words (a status, a category, a name); and the
    tokens only one of its rows holds."""

    rows: tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]
    heads: tuple[str, ...]
    worded: tuple[int, ...]
    unique: frozenset[str]


def _table(heads: Sequence[str], lines: list[tuple[str, tuple[str, ...]]]) -> Table:
    """A table of these data lines under these header cells."""
    rows = tuple(
        (text.lower(), frozenset(record_tokens(text)), tuple(c.strip().lower() for c in cells))
        for text, cells in lines
    )
    width = min(len(cells) for _, _, cells in rows)
    worded = tuple(
        c for c in range(width)
        if len({cells[c] for _, _, cells in rows if WORDED_CELL.fullmatch(cells[c])}) >= 2
    )
    held = Counter(t for _, tokens, _ in rows for t in tokens)
    unique = frozenset(t for t, n in held.items() if n == 1)
    return Table(rows, tuple(h.strip().lower() for h in heads), worded, unique)


def _headed(block: list[tuple[str, tuple[str, ...]]]) -> Table:
    """A run of rows as a table under its first line, unless that line writes a worded cell a
    row below writes in the same column: then it is a row too, of a table with no header
    ("Toboggan run (upper)   OPEN" above "Toboggan run (lower)   CLOSED", "Sledge hire  OPEN")."""
    first = [cell.strip().lower() for cell in block[0][1]]
    if any(
        first[c] == cell.strip().lower() and WORDED_CELL.fullmatch(first[c])
        for _, cells in block[1:] for c, cell in enumerate(cells[: len(first)])
    ):
        return _table(("",) * len(first), block)
    return _table(block[0][1], block[1:])


def _record_table(records: Sequence[dict[str, str]]) -> Table:
    """A table of records read as fields (JSON objects, YAML items): a column per field."""
    heads = list(dict.fromkeys(k for record in records for k in record))
    return _table(heads, [
        (" ".join(f"{k} {v}" for k, v in record.items()), tuple(record.get(h, "") for h in heads))
        for record in records
    ])


def _scalar(value: object) -> str | None:
    """A JSON value as a cell: `true`, `false`, a number or a string; None for a list or an
    object."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return None if isinstance(value, (dict, list)) else str(value)


def _fields(record: dict[str, object]) -> dict[str, str]:
    """A JSON object's fields as cells, with those of the objects nested in it ("cargo":
    {"cartons": 640} is the column `cargo.cartons`)."""
    cells: dict[str, str] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            cells.update(
                (f"{key}.{k}", c) for k, v in value.items() if (c := _scalar(v)) is not None
            )
        elif (cell := _scalar(value)) is not None:
            cells[key] = cell
    return cells


def _json_tables(value: object, out: list[Table]) -> None:
    """The tables of a JSON value: each list of objects, and each object whose values are all
    objects (their key a cell of their row)."""
    items: list[dict[str, str]] = []
    if isinstance(value, list):
        children: list[object] = value
        if len(value) >= 2 and all(isinstance(v, dict) for v in value):
            items = [_fields(v) for v in value]
    elif isinstance(value, dict):
        children = list(value.values())
        if len(value) >= 2 and all(isinstance(v, dict) for v in children):
            items = [{"": str(k), **_fields(v)} for k, v in value.items()]
    else:
        return
    if items:
        out.append(_record_table(items))
    for child in children:
        _json_tables(child, out)


def _yaml_tables(text: str) -> list[Table]:
    """The tables of a YAML-like output: list items of `key: value` lines ("- id: GA-41"), or
    named blocks of them ("dark_mode_v2:" over "enabled: false")."""
    items: list[dict[str, str]] = []
    fields_at: int | None = None  # the current item's fields' indentation
    for m in _YAML_FIELD.finditer(text):
        indent, key, value = len(m.group(1)), m.group(3).lower(), (m.group(4) or "").strip()
        if m.group(2):  # "- id: GA-41" opens an item
            items.append({key: value.strip("\"'")})
            fields_at = indent + 2
        elif not value:  # "dark_mode_v2:" names the block below it
            items.append({"": key})
            fields_at = None
        elif items and fields_at in (None, indent):
            fields_at = indent
            items[-1][key] = value.strip("\"'")
    kinds: dict[str, list[dict[str, str]]] = {}
    for item in items:  # items of one kind open with the same field
        if len(item) >= 2:
            kinds.setdefault(next(iter(item)), []).append(item)
    return [_record_table(same) for same in kinds.values() if len(same) >= 2]


def read_tables(text: str) -> list[Table]:
    """The tables of a tool output: runs of markdown or psql rows, of CSV lines, or of lines
    aligned under a header (cut at the header's columns); each run's first line is its
    header, unless it reads as one of its rows (`_headed`)."""
    tables: list[Table] = []
    block: list[tuple[str, tuple[str, ...]]] = []
    kind = ""
    starts: list[int] = []
    for line in text.split("\n"):
        if _TABLE_RULE.fullmatch(line) and kind == "pipe":
            continue  # "|---|---|", "-----+-----"
        if line.count("|") >= 2:
            now, cells = "pipe", tuple(line.strip().strip("|").split("|"))
        elif csv_line(line):
            now, cells = "csv", csv_cells(line)
        elif kind == "aligned" and len(line) > starts[1] and all(
            o >= len(line) or line[o - 1] == " " for o in starts[1:]
        ):
            now = "aligned"
            cells = tuple(line[a:b] for a, b in zip(starts, [*starts[1:], len(line)], strict=True))
        else:
            now, cells = "", ()
        heads = list(_ALIGNED_CELL.finditer(line)) if not now else []
        if not now and len(heads) >= TABLE_MIN_COLUMNS:  # a header of aligned columns
            now, cells = "header", tuple(m.group() for m in heads)
        if now != kind or now == "header" or (block and len(cells) != len(block[0][1])):
            if len(block) > 2:
                tables.append(_headed(block))
            block, kind = [], now
            if now == "header":
                kind, starts = "aligned", [m.start() for m in heads]
        if kind:
            block.append((line, cells))
    if len(block) > 2:
        tables.append(_headed(block))
    if text.lstrip()[:1] in ("{", "["):
        try:
            _json_tables(json.loads(text), tables)
        except ValueError:
            pass  # not JSON after all: its lines were read
    elif _YAML_FIELD.search(text):
        tables.extend(_yaml_tables(text))
    return tables




@overload
def record_tokens(text: str) -> list[str]: ...
@overload
def record_tokens(text: str, *, cased: Literal[True]) -> list[tuple[str, str]]: ...
def record_tokens(text: str, *, cased: bool = False) -> list[str] | list[tuple[str, str]]:
    """A text's tokens as records are compared: lowercased, without outer punctuation (with
    `cased`, each with its written form)."""
    found = []
    # "PH-2201,...,340,200,no": no thousands in a CSV line
    for written in _TOKEN.findall(text if csv_line(text) else _THOUSANDS.sub("", text)):
        written = written.strip(_TOKEN_TRIM)
        if written[:1] in _DIFF_MARKS and written[1:2].isalpha():  # a diff's "+hake", "-hake"
            written = written[1:]
        if len(written) >= 2 or written.isdigit():
            found.append((written.lower(), written))
    return found if cased else [token for token, _ in found]


def csv_line(line: str) -> bool:
    """Whether a line is a CSV row: `CSV_MIN_COMMAS` commas, none followed by a space, outside
    its quoted fields ("Dash,7,\"balancer 100g, soaked hay\",2025-02-04")."""
    if line.count(",") < CSV_MIN_COMMAS:
        return False
    bare = _QUOTED.sub("", line) if '"' in line else line
    return bare.count(",") >= CSV_MIN_COMMAS and ", " not in bare


def csv_cells(line: str) -> tuple[str, ...]:
    """A CSV line's fields, a quoted one whole ("\"balancer 100g, soaked hay\"")."""
    return tuple(next(csv.reader([line])))


def cell_number(cell: str) -> float | None:
    """A table cell's number ("1,214", "235.00", "£48.00"), None for a cell that is not one
    number."""
    m = _NUMBER_CELL.fullmatch(cell.replace(",", "").lstrip("£$€"))
    return float(m.group()) if m else None


def json_items(text: str) -> list[str]:
    """A JSON output's records as wholes: each item of a top-level list, or the one object."""
    body = text.strip()
    if body[:1] != "[":
        return [body]
    items: list[str] = []
    depth, start, quoted, escaped = 0, 0, False, False
    for at, char in enumerate(body):
        if quoted:
            quoted, escaped = (escaped or char != '"'), (char == "\\" and not escaped)
            continue
        if char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            if depth == 2:
                start = at
        elif char in "]}":
            if depth == 2:
                items.append(body[start:at + 1])
            depth -= 1
    return items
