"""The places an output names by an airport's IATA code: "Heathrow" and "London" for LHR,
"Lisbon" for LIS. The codes' words are in `airports.tsv` (derived from the `airportsdata`
package, MIT, by scripts/airport_codes.py), read once, at the first name it is asked about."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

#: An airport code as an output writes it: three capitals standing alone ("LHR-LIS").
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{3}(?![A-Za-z0-9])")


@cache
def _words_of_codes() -> dict[str, str]:
    """{IATA code: the words of its airport's and city's names, each between spaces}."""
    table: dict[str, str] = {}
    text = files(__package__).joinpath("airports.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            code, _, words = line.partition("\t")
            table[code] = f" {words} "
    return table


def named_by_code(name: str, texts: Iterable[str]) -> bool:
    """Whether a name is a word of the airport or city of a code these texts write
    ("Heathrow" where the output says `LHR-LIS`)."""
    codes = {code for text in texts for code in _CODE.findall(text)}
    if not codes:
        return False
    table = _words_of_codes()
    word = f" {name} "
    return any(word in table.get(code, "") for code in codes)
