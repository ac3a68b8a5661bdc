"""The `otel-grounding` command: a front over the same pieces the processor uses."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from otel_grounding.config import ConfigError, check_threshold
from otel_grounding.scoring import GroundingResult, score_run


class UsageError(Exception):
    """Bad input for a command: printed as one line, exit status 2."""


def _read_run(path: str) -> dict[str, Any]:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    try:
        run = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{path}: not JSON ({exc})") from None
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deeply") from None
    if not isinstance(run, dict):
        raise UsageError(f"{path}: expected a JSON object with 'output' and 'steps'")
    if "output" not in run:
        raise UsageError(f"{path}: missing 'output'")
    steps = run.get("steps", [])
    if not isinstance(steps, list):
        raise UsageError(f"{path}: 'steps' must be a list, got {type(steps).__name__}")
    try:
        check_threshold("threshold", run.get("threshold"))
    except ConfigError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return run


def _excerpt(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def format_table(result: GroundingResult) -> str:
    """One row per claim, then the totals: what a person reads in a terminal."""
    rows = [f"{'#':>3}  {'grounded':8}  {'covered':>7}  {'source':>6}  claim"]
    for claim in result.claims:
        source = "-" if claim.best_source is None else str(claim.best_source)
        rows.append(
            f"{claim.index:>3}  {'yes' if claim.grounded else 'NO':8}  "
            f"{claim.tokens_covered:>3}/{claim.tokens_distinct:<3}  {source:>6}  "
            f"{_excerpt(claim.text, 70)}"
        )
        if not claim.grounded:
            rows.append(f"{'':33}unsupported: {', '.join(claim.uncovered_tokens[:12])}")
    threshold = "none" if result.threshold is None else f"{result.threshold:g}"
    rows.append("")
    rows.append(
        f"rate {result.rate:.4f} ({result.claims_grounded}/{result.claims_checked} claims grounded)"
        f"  grade {result.grade}  threshold {threshold}"
        f"  flagged {'yes' if result.below_threshold else 'no'}"
    )
    if result.truncated_by:
        rows.append(f"cut by {result.truncated_by}")
    for anchor in result.uncovered_anchors:
        rows.append(f"critical anchor without evidence: {anchor.kind} {anchor.text!r}")
    return "\n".join(rows)


def _cmd_score(args: argparse.Namespace) -> int:
    run = _read_run(args.file)
    result = score_run(run["output"], run.get("steps", []), threshold=run.get("threshold"))
    if args.format == "table":
        table = format_table(result)
        _emit(table, lambda: table.encode("ascii", "backslashreplace").decode("ascii"))
    else:
        data = result.to_dict()
        _emit(
            json.dumps(data, indent=2, ensure_ascii=False),
            lambda: json.dumps(data, indent=2, ensure_ascii=True),
        )
    return 0


def _emit(text: str, ascii_text: Callable[[], str]) -> None:
    """Print text; when stdout cannot encode it (a lone surrogate, a narrow locale), its ASCII form."""
    try:
        print(text)
    except UnicodeEncodeError:
        print(ascii_text())


def _cmd_demo(args: argparse.Namespace) -> int:
    from otel_grounding.demo import run_demo, run_framework_demo
    from otel_grounding.frameworks import FrameworkMissing

    if args.serve_seconds < 0:
        raise UsageError(f"--serve-seconds: {args.serve_seconds} is negative")
    if args.framework is None:
        run_demo(prometheus_port=args.prometheus_port, serve_seconds=args.serve_seconds)
        return 0
    try:
        run_framework_demo(
            args.framework, prometheus_port=args.prometheus_port, serve_seconds=args.serve_seconds
        )
    except FrameworkMissing as exc:
        raise UsageError(str(exc)) from None
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="otel-grounding",
        description="Claim grounding rate and coverage grade for AI agent runs.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score one run given as JSON")
    score.add_argument("file", help="JSON file with output, steps and optional threshold; - for stdin")
    score.add_argument("--format", choices=("json", "table"), default="json")
    score.set_defaults(func=_cmd_score)
    from otel_grounding.frameworks import INSTALL, SCENARIOS

    frameworks = "\n".join(f"  {name:28} {scenario.about}" for name, scenario in SCENARIOS.items())
    demo = commands.add_parser(
        "demo",
        help="run a scripted agent (or a real framework) through a real SDK pipeline",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Agent runs through a real SDK pipeline with GroundingSpanProcessor\n"
        "(threshold 0.7): prints each run's rate, grade and ungrounded claims. With\n"
        "OTEL_EXPORTER_OTLP_ENDPOINT set, traces and metrics also go out over OTLP.",
        epilog=f"--framework NAME (offline: a fake model, one tool; needs {INSTALL}):\n"
        + frameworks,
    )
    demo.add_argument(
        "--framework",
        choices=list(SCENARIOS),
        metavar="NAME",
        default=None,
        help="run a real agent framework (below) for a grounded and a hallucinating answer, "
        "instead of the scripted agent",
    )
    demo.add_argument(
        "--prometheus-port", type=int, default=None, help="serve metrics on 127.0.0.1:PORT"
    )
    demo.add_argument(
        "--serve-seconds", type=float, default=0.0, help="keep serving metrics this long"
    )
    demo.set_defaults(func=_cmd_demo)
    from otel_grounding.relay import add_parser as add_relay_parser

    add_relay_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (UsageError, ConfigError) as exc:
        print(f"otel-grounding {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`otel-grounding score run.json | head`): stop quietly, and keep
        # the interpreter's final flush of stdout from raising the same error again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
