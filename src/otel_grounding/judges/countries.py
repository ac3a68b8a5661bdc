"""Countries as tool outputs write them: by their three-letter codes in results and shipping
records ("Japan" for JPN), by their two-letter codes in locales and country fields ("Canadian
French" for `fr-CA`), and their people ("Irish" for Ireland, "Dutch" for Netherlands)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from otel_grounding.judges.tables import Table


def named_by_country_code(
    name: str, texts: Sequence[str], tables: Sequence[Table] = ()
) -> bool:
    """Whether a name is a country, or its people's, these texts write as its three-letter
    code ("Spain's" for ESP in a draw, "Japan" for JPN in results), or as its two-letter code
    in a locale, a country's field or the "Country" column of one of these tables ("Canadian
    French" for fr-CA, "in Canada" for `region=CA`); or a people whose country they name
    ("Dutch" for Netherlands)."""
    place = re.split("['\u2019]", name)[0].lower()
    if (country := _DEMONYMS.get(place)) is not None:
        if any(re.search(rf"\b{country}\b", text, re.IGNORECASE) for text in texts):
            return True  # "Dutch" for Netherlands, "Swiss" for Switzerland
        place = country
    codes = _COUNTRY_CODES.get(place)
    if codes is not None and any(
        re.search(rf"\b{code}\b", text) for code in codes for text in texts
    ):
        return True
    code = _ALPHA2.get(place)
    if code is None:
        return False
    return any(
        re.search(_AS_A_COUNTRY.format(code=code), text)
        or (_COUNTRY_COLUMN.search(text) is not None
            and re.search(_FIRST_CELL.format(code=code), text) is not None)
        for text in texts
    ) or _in_a_country_column(code, tables)


def _in_a_country_column(code: str, tables: Sequence[Table]) -> bool:
    """Whether a table of the evidence has a column headed "Country" with this code in it
    ("| ban | NL | 7 |" under "| Action | Country | Events |"), however the table is laid out."""
    wanted = code.lower()
    return any(
        len(cells) > column and cells[column] == wanted
        for table in tables if "country" in table.heads
        for column in (table.heads.index("country"),)
        for _, _, cells in table.rows
    )


#: A two-letter country code in a locale ("fr-CA", "pt_BR") or as a country's field
#: ("region=CA", `"country": "NL"`).
_AS_A_COUNTRY = (
    r"(?<![A-Za-z])[a-z]{{2}}[-_]{code}\b"
    r"|(?i:country|region|market|locale|geo)\w*[\"']?\s*[:=]\s*[\"']?{code}\b"
)

#: A table whose first column is the country ("country   full_%   ..."), and a row it starts
#: with a two-letter code ("NL   22.4 ...").
_COUNTRY_COLUMN = re.compile(r"^[ \t|]*country\b", re.IGNORECASE | re.MULTILINE)
_FIRST_CELL = r"(?m)^[ \t|]*{code}(?=[ \t|])"


#: Countries as sports results and shipping records write them (IOC and ISO codes; none that
#: is also a common abbreviation, as EST or MAR).
_COUNTRY_CODES: dict[str, tuple[str, ...]] = {
    name: tuple(codes.split("/"))
    for entry in (
        "spain=ESP", "britain=GBR", "great britain=GBR", "united kingdom=GBR/UK", "japan=JPN",
        "ethiopia=ETH", "kenya=KEN", "united states=USA/US", "france=FRA", "germany=GER/DEU",
        "italy=ITA", "netherlands=NED/NLD", "belgium=BEL", "sweden=SWE", "norway=NOR",
        "denmark=DEN/DNK", "finland=FIN", "poland=POL", "portugal=POR/PRT", "ireland=IRL",
        "switzerland=SUI/CHE", "austria=AUT", "canada=CAN", "mexico=MEX", "brazil=BRA",
        "argentina=ARG", "australia=AUS", "new zealand=NZL", "china=CHN", "korea=KOR",
        "south korea=KOR", "india=IND", "uganda=UGA", "eritrea=ERI", "south africa=RSA/ZAF",
        "czechia=CZE", "hungary=HUN", "greece=GRE/GRC", "turkey=TUR", "israel=ISR",
        "egypt=EGY", "nigeria=NGR/NGA", "colombia=COL", "chile=CHL", "ukraine=UKR",
        "croatia=CRO/HRV", "serbia=SRB", "slovenia=SLO/SVN", "slovakia=SVK", "romania=ROU",
        "iceland=ISL", "scotland=SCO", "wales=WAL", "england=ENG",
    )
    for name, codes in [entry.split("=")]
}


#: The countries of `_COUNTRY_CODES` by their ISO two-letter codes.
_ALPHA2 = {
    name: code
    for entry in (
        "spain=ES", "britain=GB", "great britain=GB", "united kingdom=GB", "japan=JP",
        "ethiopia=ET", "kenya=KE", "united states=US", "france=FR", "germany=DE", "italy=IT",
        "netherlands=NL", "belgium=BE", "sweden=SE", "norway=NO", "denmark=DK", "finland=FI",
        "poland=PL", "portugal=PT", "ireland=IE", "switzerland=CH", "austria=AT", "canada=CA",
        "mexico=MX", "brazil=BR", "argentina=AR", "australia=AU", "new zealand=NZ",
        "china=CN", "korea=KR", "south korea=KR", "india=IN", "uganda=UG", "eritrea=ER",
        "south africa=ZA", "czechia=CZ", "hungary=HU", "greece=GR", "turkey=TR", "israel=IL",
        "egypt=EG", "nigeria=NG", "colombia=CO", "chile=CL", "ukraine=UA", "croatia=HR",
        "serbia=RS", "slovenia=SI", "slovakia=SK", "romania=RO", "iceland=IS", "uk=GB",
    )
    for name, code in [entry.split("=")]
}
#: The people of those countries, each with its country.
_DEMONYMS = {
    people: place
    for entry in (
        "spanish=spain", "british=united kingdom", "japanese=japan", "ethiopian=ethiopia",
        "kenyan=kenya", "american=united states", "french=france", "german=germany",
        "italian=italy", "dutch=netherlands", "belgian=belgium", "swedish=sweden",
        "norwegian=norway", "danish=denmark", "finnish=finland", "polish=poland",
        "portuguese=portugal", "irish=ireland", "swiss=switzerland", "austrian=austria",
        "canadian=canada", "mexican=mexico", "brazilian=brazil", "argentine=argentina",
        "argentinian=argentina", "australian=australia", "chinese=china", "korean=korea",
        "indian=india", "ugandan=uganda", "eritrean=eritrea", "czech=czechia",
        "hungarian=hungary", "greek=greece", "turkish=turkey", "israeli=israel",
        "egyptian=egypt", "nigerian=nigeria", "colombian=colombia", "chilean=chile",
        "ukrainian=ukraine", "croatian=croatia", "serbian=serbia", "slovenian=slovenia",
        "slovak=slovakia", "romanian=romania", "icelandic=iceland",
    )
    for people, place in [entry.split("=")]
}
