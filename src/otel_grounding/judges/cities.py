"""Cities an output writes in their own language: "Munich" for München, "Cologne" for Köln,
"Lisbon" for Lisboa (a ticket, a timetable, a local authority's record)."""

from __future__ import annotations

import re
from collections.abc import Iterable


def named_in_its_language(name: str, texts: Iterable[str]) -> bool:
    """Whether a name is a city's English name whose own name these texts write ("Munich"
    where a train ticket says `München Hbf`)."""
    own = _OWN_NAMES.get(name.lower())
    if own is None:
        return False
    written = re.compile(rf"(?<![^\W\d_])(?:{own})(?![^\W\d_])", re.IGNORECASE)
    return any(written.search(text) for text in texts)


#: Cities by their English names, each with its own name as outputs write it (with and without
#: its accents, and as ASCII spells them: "muenchen").
_OWN_NAMES = {
    english: own
    for entry in (
        "munich=münchen|muenchen|munchen", "cologne=köln|koeln|koln", "nuremberg=nürnberg"
        "|nuernberg|nurnberg", "hanover=hannover", "brunswick=braunschweig", "vienna=wien",
        "prague=praha", "warsaw=warszawa", "bucharest=bucurești|bucuresti", "belgrade=beograd",
        "athens=athína|athina", "moscow=moskva", "lisbon=lisboa", "seville=sevilla",
        "rome=roma", "florence=firenze", "venice=venezia", "milan=milano", "naples=napoli",
        "turin=torino", "genoa=genova", "padua=padova", "geneva=genève|geneve|genf",
        "zurich=zürich|zuerich", "lucerne=luzern", "basle=basel", "brussels=bruxelles|brussel",
        "antwerp=antwerpen", "bruges=brugge", "ghent=gent", "copenhagen=københavn|kobenhavn",
        "gothenburg=göteborg|goteborg", "marseilles=marseille", "lyons=lyon",
        "dunkirk=dunkerque",
    )
    for english, own in [entry.split("=")]
}
