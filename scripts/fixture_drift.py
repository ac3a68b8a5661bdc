"""Compare the repository's copy of the cross-plane golden fixture with another plane's.

    python scripts/fixture_drift.py DIR     # DIR holds fixtures/claim_grounding.golden.json

Exit 0 when the two files are identical byte for byte, 1 when they differ, 2 when DIR has none.
The test suite pins the copy by its SHA-256 (tests/test_scoring.py); this names the other side.
"""

from __future__ import annotations

import sys
from pathlib import Path

NAME = "claim_grounding.golden.json"
OURS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / NAME


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    theirs = Path(argv[0]) / "fixtures" / NAME
    if not theirs.is_file():
        print(f"fixture-drift: no {theirs}", file=sys.stderr)
        return 2
    if theirs.read_bytes() != OURS.read_bytes():
        print(f"fixture-drift: {OURS} differs from {theirs}", file=sys.stderr)
        return 1
    print(f"fixture-drift: {OURS.name} is identical to {theirs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
