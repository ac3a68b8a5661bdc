"""Re-record the raw captures of the env scenarios (`make fw-captures`; stdlib only).

    python3 tests/frameworks/record_captures.py [SCENARIO ...]     # default: every scenario

Runs each catalog scenario in its cached env without the grounding processor and writes
`{"grounded": [spans], "hallucinated": [spans]}` to tests/frameworks/captures/<scenario>.json:
the real shapes the convention readers are written against.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from catalog import SCENARIOS, SWITCHES, env_python  # noqa: E402

CAPTURES = HERE / "captures"
SRC = HERE.parent.parent / "src"


def record(name: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    env["PYTHONPATH"] = str(SRC)
    out = CAPTURES / f"{name}.json"
    python = str(env_python(SCENARIOS[name].env))
    subprocess.run([python, str(HERE / "run_in_env.py"), name, "--raw", "--out", str(out)],
                   env=env, check=True)
    print(f"recorded {out.relative_to(HERE.parent.parent)}", flush=True)


def main(argv: list[str]) -> int:
    for name in argv or list(SCENARIOS):
        record(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
