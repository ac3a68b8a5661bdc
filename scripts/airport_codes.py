"""Write `src/otel_grounding/judges/airports.tsv` (the verifier's airport codes) from the
`airports.csv` of the `airportsdata` package (MIT):

    pip download --no-deps airportsdata==20260905 && unzip -o airportsdata-*.whl -d airportsdata
    .venv/bin/python scripts/airport_codes.py airportsdata/

One line per IATA code: the code, then the capitalised words of its airport's and its city's
names, less the words that name no place ("Airport", "International", ...). The package's
licence notice heads the file, as its licence asks.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "otel_grounding" / "judges" / "airports.tsv"
#: Words of airports' names that name no place.
GENERIC = frozenset((
    "Airport", "Airports", "International", "Intl", "Air", "Airfield", "Airstrip", "Aerodrome",
    "Aeropuerto", "Aeroporto", "Aéroport", "Flughafen", "Base", "Field", "Regional",
    "Municipal", "County", "Heliport", "Station", "Seaplane", "Terminal", "Domestic",
    "National", "Memorial", "Army", "Naval", "Force", "Strip", "Landing", "Airpark",
))
#: A place's word: capitalised, three letters at least.
WORD = re.compile(r"\b[A-Z][a-z\u00e0-\u024f'-]{2,}\b")


def main(folder: str) -> None:
    root = Path(folder)
    source = next(root.rglob("airports.csv"))
    notice = next(root.rglob("LICENSE*"), None) or next(root.rglob("licenses/*"))
    lines = [f"# {line}".rstrip() for line in notice.read_text(encoding="utf-8").splitlines()]
    lines.insert(0, "# Airport codes and the words of their airports' and cities' names, derived "
                    "from airportsdata's airports.csv by scripts/airport_codes.py, under:")
    rows = 0
    with source.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            code = row["iata"]
            if not code:
                continue
            words = dict.fromkeys(
                w for w in WORD.findall(f"{row['name']} {row['city']}") if w not in GENERIC
            )
            if words:
                lines.append(f"{code}\t{' '.join(words)}")
                rows += 1
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT}: {rows} codes, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "airportsdata")
