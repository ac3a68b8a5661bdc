"""The places an output names by an airport's IATA code: "Heathrow" and "London" for LHR,
"Lisbon" for LIS, "Singapore" for the UN/LOCODE SGSIN. The codes' words are in
`airports.tsv` (derived from the `airportsdata` package, MIT, by scripts/airport_codes.py),
read once, at the first name it is asked about."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

#: An airport code as an output writes it: three capitals standing alone ("LHR-LIS").
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{3}(?![A-Za-z0-9])")
#: A UN/LOCODE, as shipping and trade records write a port or a city: a country's two-letter
#: code and the place's three letters, for a city with an airport most often its airport's code
#: ("SGSIN" for Singapore, "DEHAM" for Hamburg).
_LOCODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2})([A-Z]{3})(?![A-Za-z0-9])")
#: ISO 3166-1 alpha-2 country codes.
_COUNTRIES = frozenset(re.findall(r"[A-Z]{2}", """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
    BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
    DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS
    GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
    KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ
    MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
    PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
    SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
    VN VU WF WS YE YT ZA ZM ZW
"""))


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
    ("Heathrow" where the output says `LHR-LIS`, "Singapore" for the port `SGSIN`)."""
    codes = {code for text in texts for code in _CODE.findall(text)} | {
        place for text in texts for country, place in _LOCODE.findall(text)
        if country in _COUNTRIES
    }
    if not codes:
        return False
    table = _words_of_codes()
    word = f" {name} "
    return any(word in table.get(code, "") for code in codes)
