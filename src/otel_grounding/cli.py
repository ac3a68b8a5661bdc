"""The `otel-grounding` command: a front over the same pieces the processor uses."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from otel_grounding.config import MAX_SECONDS, ConfigError, check_threshold
from otel_grounding.scoring import TOOL_STEP_TYPE, GroundingResult, as_text, score, tool_outputs

if TYPE_CHECKING:  # imported where used: `score` without a judge does not load the tier
    from otel_grounding.config import GroundingSettings
    from otel_grounding.judgetier import Judgement


class UsageError(Exception):
    """Bad input for a command: printed as one line, exit status 2."""


#: The keys `score` reads of a run and of a step; an unknown key close to one of them is a
#: misspelling (refused), any other is the caller's own field (ignored).
RUN_KEYS = ("output", "steps", "threshold")
STEP_KEYS = ("step_type", "output")
#: How close (difflib's ratio) an unknown key must be to a known one to be taken for it.
MISSPELLING_CUTOFF = 0.75


def _misspelled_value(value: str, known: str) -> bool:
    """Whether a value is close enough to a known one to be taken for a misspelling of it."""
    import difflib

    return difflib.SequenceMatcher(None, value.lower(), known).ratio() >= MISSPELLING_CUTOFF


def _misspelled(keys: Any, known: Sequence[str], where: str) -> None:
    """UsageError for the first key that is not a known one but is close to one."""
    import difflib

    for key in keys:
        if key in known or not isinstance(key, str):
            continue
        match = difflib.get_close_matches(key, known, n=1, cutoff=MISSPELLING_CUTOFF)
        if match and match[0] not in keys:
            raise UsageError(f"{where}unknown key {key!r}; did you mean {match[0]!r}?")


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
    _misspelled(run, RUN_KEYS, f"{path}: ")
    if "output" not in run:
        raise UsageError(f"{path}: missing 'output'")
    steps = run.get("steps", [])
    if not isinstance(steps, list):
        raise UsageError(f"{path}: 'steps' must be a list, got {type(steps).__name__}")
    for index, step in enumerate(steps):
        where = f"{path}: steps[{index}]: "
        if not isinstance(step, dict):
            raise UsageError(
                f"{where}expected an object like {{\"step_type\": \"tool\", \"output\": ...}}, "
                f"got {type(step).__name__}"
            )
        _misspelled(step, STEP_KEYS, where)
        kind = step.get("step_type")
        if isinstance(kind, str) and kind != TOOL_STEP_TYPE and (
            kind.strip().lower() == TOOL_STEP_TYPE
            or _misspelled_value(kind, TOOL_STEP_TYPE)
        ):
            raise UsageError(
                f"{where}step_type {kind!r} is not a step type read; did you mean "
                f"{TOOL_STEP_TYPE!r}?"
            )
    try:
        check_threshold("threshold", run.get("threshold"))
    except ConfigError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return run


def _excerpt(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def format_table(
    result: GroundingResult, reasons: Sequence[str] = (), unseen: bool = False
) -> str:
    """One row per claim, then the totals: what a person reads in a terminal (`reasons`: why
    coverage is short; `unseen`: no evidence could be read, so no rate)."""
    rows = [f"{'#':>3}  {'grounded':8}  {'covered':>7}  {'source':>6}  claim"]
    for claim in result.claims:
        source = "-" if claim.best_source is None else str(claim.best_source)
        rows.append(
            f"{claim.index:>3}  {'yes' if claim.grounded else 'NO':8}  "
            f"{claim.tokens_covered:>3}/{claim.tokens_distinct:<3}  {source:>6}  "
            f"{_excerpt(claim.text, 70)}"
        )
        if not claim.grounded:
            rows.append(f"{'':33}unsupported: {_listed(claim.uncovered_tokens, 12)}")
    threshold = "none" if result.threshold is None else f"{result.threshold:g}"
    rows.append("")
    rate = "-" if unseen else f"{result.rate:.4f}"
    rows.append(
        f"rate {rate} ({result.claims_grounded}/{result.claims_checked} "
        f"{_plural(result.claims_checked, 'claim')} grounded)"
        f"  grade {result.grade}  threshold {threshold}"
        f"  flagged {'yes' if result.below_threshold else 'no'}"
    )
    if reasons:
        rows.append(f"why partial: {', '.join(reasons)}")
    if result.truncated_by:
        rows.append(f"cut by {result.truncated_by}")
    for anchor in result.uncovered_anchors:
        rows.append(f"critical anchor without evidence: {anchor.kind} {anchor.text!r}")
    return "\n".join(rows)


def _plural(count: int, noun: str) -> str:
    """`noun` or its plural, for `count` of them ("1 claim", "2 claims")."""
    return noun if count == 1 else noun + "s"


def _judged(
    result: GroundingResult | None, output: str, sources: Sequence[str],
    settings: GroundingSettings,
) -> Judgement | None:
    """The run's `Judgement` by the judge its settings name, through the judge tier as on a
    span (the same admission, deadline and failure grades); None without a judge."""
    from opentelemetry.metrics import NoOpMeterProvider

    from otel_grounding.judge import load_judge
    from otel_grounding.judgetier import JudgeTier
    from otel_grounding.metrics import GroundingMetrics

    if settings.judge.name is None:
        return None
    judge = load_judge(settings.judge.name, settings.judge)
    tier = JudgeTier(judge, settings.judge, GroundingMetrics(NoOpMeterProvider()))
    settled: list[Judgement] = []
    now = tier.offer(result, output, sources, [None] * len(sources), 0, settled.append)
    tier.shutdown(settings.judge.timeout)
    return now if now is not None else settled[0]


def format_judgement(judgement: Judgement, flagged: bool) -> str:
    """The judge's rows under the table: its rate and flag, then each sentence it did not
    find supported, with why."""
    from otel_grounding.attributes import JUDGE_OUTCOME_OK
    from otel_grounding.judge import SUPPORTED

    name = judgement.name + (f" ({judgement.model})" if judgement.model else "")
    if judgement.outcome != JUDGE_OUTCOME_OK:
        return f"judge {name}: {judgement.outcome} ({judgement.reason}), no verdict"
    rows = [
        f"judge {name}: rate {judgement.rate:.4f} ({judgement.supported}/"
        f"{len(judgement.verdicts)} {_plural(len(judgement.verdicts), 'sentence')} supported)"
        f"  flagged {'yes' if flagged else 'no'}"
        + (f"  kinds {','.join(judgement.unsupported_kinds)}" if judgement.unsupported_kinds
           else "")
    ]
    for text, verdict in zip(judgement.claim_texts, judgement.verdicts, strict=False):
        if verdict.verdict != SUPPORTED:
            rows.append(f"  {verdict.verdict:12}  {_excerpt(text, 70)}")
            if verdict.explanation:
                rows.append(f"  {'':12}  {verdict.explanation}")
    return "\n".join(rows)


def judgement_dict(judgement: Judgement, flagged: bool) -> dict[str, Any]:
    """The judgement as `score`'s JSON gives it: one verdict per judged sentence."""
    from otel_grounding.attributes import JUDGE_OUTCOME_OK

    return {
        "name": judgement.name,
        "model": judgement.model,
        "outcome": judgement.outcome,
        "reason": judgement.reason,
        "rate": judgement.rate if judgement.outcome == JUDGE_OUTCOME_OK else None,
        "below_threshold": flagged,
        "unsupported_kinds": list(judgement.unsupported_kinds),
        "verdicts": [
            {"sentence": text, "verdict": v.verdict, "kinds": list(v.kinds),
             "explanation": v.explanation}
            for text, v in zip(judgement.claim_texts, judgement.verdicts, strict=False)
        ],
    }


def _cmd_score(args: argparse.Namespace) -> int:
    from otel_grounding import attributes as attr
    from otel_grounding.config import SCORE_TRACES, flag_overrides, load_settings

    settings = load_settings(
        flag_overrides(args), settings_file=args.settings_file, shell=SCORE_TRACES
    )
    run = _read_run(args.file)
    steps = run.get("steps", [])
    sources = tool_outputs(steps)
    unread = sum(
        1 for step in steps
        if isinstance(step, dict) and step.get("step_type") == TOOL_STEP_TYPE
        and "output" not in step
    )
    threshold = run.get("threshold")
    result = score(
        as_text(run["output"]),
        sources,
        threshold=settings.min_claim_grounding_rate if threshold is None else threshold,
        options=settings.scoring,
        evidence_incomplete=bool(unread),
    )
    # As on a span: a tool step whose output was not given is evidence unavailable (`partial`);
    # with no tool output at all there is no rate, and nothing is flagged.
    reasons = [attr.REASON_EVIDENCE_UNAVAILABLE] if unread else []
    unseen = bool(unread) and not sources
    if unseen:
        result = dataclasses.replace(result, below_threshold=False)
    # Nothing read to check against: as on a span, the judge is not asked (`judge-nothing`).
    judgement = _judged(None if unseen else result, as_text(run["output"]), sources, settings)
    flagged = judgement is not None and judgement.flags(result.threshold)
    if args.format == "table":
        table = format_table(result, reasons, unseen)
        if judgement is not None:
            table += "\n" + format_judgement(judgement, flagged)
        _emit(table, lambda: table.encode("ascii", "backslashreplace").decode("ascii"))
    else:
        data = result.to_dict()
        data["reasons"] = reasons
        if unseen:
            data["rate"] = None
        if judgement is not None:
            data["judge"] = judgement_dict(judgement, flagged)
        _emit(
            json.dumps(data, indent=2, ensure_ascii=False),
            lambda: json.dumps(data, indent=2, ensure_ascii=True),
        )
    return 0


def _emit(text: str, ascii_text: Callable[[], str]) -> None:
    """Print text; when stdout cannot encode it (a lone surrogate, a narrow locale), its ASCII
    form."""
    try:
        print(text)
    except UnicodeEncodeError:
        print(ascii_text())


def _port(text: str) -> int:
    """A TCP port, 1 to 65535 (argparse names the flag when this refuses)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port (1-65535)") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a TCP port (1-65535)")
    return value


def _cmd_demo(args: argparse.Namespace) -> int:
    from otel_grounding.demo import run_demo, run_framework_demo
    from otel_grounding.demo_frameworks import FrameworkMissing

    if not 0 <= args.serve_seconds <= MAX_SECONDS:  # NaN fails both
        raise UsageError(
            f"--serve-seconds: {args.serve_seconds} is not a number of seconds from 0 to "
            f"{MAX_SECONDS:g}"
        )
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


#: `score-traces` exit statuses beyond 0 (nothing flagged) and 2 (usage).
EXIT_FLAGGED = 1
EXIT_UNREADABLE = 3
#: Every record read, and not one agent run in them: a release gate over nothing is no pass.
EXIT_NOTHING_CHECKED = 4
#: How `score-traces` names its standard input (`-`) in messages and reports.
STDIN_NAME = "<stdin>"
#: Bad records printed on stderr before only their count is given.
MAX_BAD_SHOWN = 20


def _add_grounding_flags(parser: argparse.ArgumentParser) -> None:
    """The settings flags that apply to stored traces (the relay's, less its live timers)."""
    from otel_grounding.config import SCORE_TRACES, add_setting_flags

    add_setting_flags(
        parser.add_argument_group("grounding (also OTEL_GROUNDING_* and the settings file)"),
        SCORE_TRACES,
    )


def _add_score_flags(parser: argparse.ArgumentParser) -> None:
    """`score`'s settings: the threshold, the settings file and `--set` (the scoring bounds and
    anchors through `--set`, the environment or the file; the buffers do not apply)."""
    from otel_grounding.config import ENV_SETTINGS_FILE, SETTINGS_BY_KEY, THRESHOLD_KEY

    group = parser.add_argument_group("grounding (also OTEL_GROUNDING_* and the settings file)")
    group.add_argument("--settings-file", default=None,
                       help="JSON settings file (default $" + ENV_SETTINGS_FILE + ")")
    threshold = SETTINGS_BY_KEY[THRESHOLD_KEY]
    group.add_argument(
        threshold.flag_name, dest=threshold.key, type=threshold.parse_flag, default=None,
        metavar="VALUE", help=f"{threshold.doc}, when the run gives no 'threshold' "
        f"(${threshold.env})",
    )
    group.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="any setting, e.g. --set max_claims=100")


#: Missing tokens a flagged claim's table row lists; more are shown as an ellipsis.
MISSING_TOKENS_SHOWN = 8


def _listed(items: Sequence[str], limit: int) -> str:
    """The first `limit` items, comma-separated, with an ellipsis when there are more."""
    shown = ", ".join(items[:limit])
    return f"{shown}, …" if len(items) > limit else shown


def format_run_row(run: Any) -> str:
    """One re-scored run as a table row (and its ungrounded claims when it is flagged)."""
    scored = run.run
    rate = "-" if scored.rate is None else f"{scored.rate:.3f}"
    why = [*scored.reasons]
    if scored.truncated_by:
        why.append(f"cut by {scored.truncated_by}")
    reasons = ",".join(why) or "-"
    early = " (released early)" if run.released_early else ""
    row = (
        f"{rate:>6}  {scored.grade:18}  {'YES' if scored.flagged else 'no':7}  "
        f"{scored.trace_id}  {scored.span_id}  {reasons:20}  {_excerpt(scored.name, 40)}{early}"
    )
    lines = [row]
    if scored.below_threshold:
        lines.extend(
            f"{'':8}ungrounded #{claim.index}: {_excerpt(claim.excerpt, 70)}  "
            f"[missing: {_listed(claim.missing_tokens, MISSING_TOKENS_SHOWN)}]"
            for claim in scored.ungrounded
        )
    if scored.judge is not None and scored.judge_flagged:  # its line, each claim not supported
        lines.extend(f"{'':6}{line}" for line in scored.judge.describe().splitlines())
    return "\n".join(lines)


def _cmd_score_traces(args: argparse.Namespace) -> int:
    import gzip

    from otel_grounding.config import SCORE_TRACES, flag_overrides, load_settings
    from otel_grounding.judge import load_judge
    from otel_grounding.relay.otlp import count_spans, encode_json
    from otel_grounding.rescore import rescore
    from otel_grounding.stored import expand_paths

    settings = load_settings(
        flag_overrides(args), settings_file=args.settings_file, shell=SCORE_TRACES
    )
    # Built before anything is read or written: a judge that cannot be built is a usage error.
    judge = load_judge(settings.judge.name, settings.judge) if settings.judge.name else None
    for given in args.files:
        if given != "-" and not os.path.exists(given):
            raise UsageError(f"{given}: no such file or directory")
    if args.files.count("-") > 1:
        raise UsageError("-: standard input can be read only once")
    paths = expand_paths(args.files)
    if not paths:
        raise UsageError(f"no input files in {', '.join(args.files)}")
    spooled = _spool_stdin() if "-" in paths else None
    if spooled is not None:
        paths = [spooled if path == "-" else path for path in paths]

    def named(text: str) -> str:
        return text.replace(spooled, STDIN_NAME) if spooled is not None else text

    output: Any = sys.stdout
    if args.output not in (None, "-"):
        for path in paths:
            if os.path.exists(args.output) and os.path.samefile(path, args.output):
                raise UsageError(
                    f"--output: {args.output} is also an input file (it would be emptied "
                    "before it is read)"
                )
        try:
            if args.output.endswith(".gz"):
                output = gzip.open(args.output, "wt", encoding="utf-8")  # noqa: SIM115 - closed below
            else:
                output = open(args.output, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise UsageError(f"--output: cannot write {args.output}: {exc.strerror}") from None
    shown = 0

    def on_bad(bad: Any) -> None:
        nonlocal shown
        shown += 1
        if shown <= MAX_BAD_SHOWN:
            print(f"otel-grounding score-traces: {named(str(bad))}", file=sys.stderr)

    def on_run(run: Any) -> None:
        if spooled is not None and run.source.startswith(spooled):
            run = dataclasses.replace(run, source=named(run.source))
        if args.format == "table":
            print(format_run_row(run), file=output)
        elif args.format == "jsonl":
            print(json.dumps(run.to_dict(), ensure_ascii=False), file=output)

    def on_spans(request: Any) -> None:
        if count_spans(request):
            output.write(encode_json(request).decode("utf-8") + "\n")

    if args.format == "table":
        print(f"{'rate':>6}  {'grade':18}  {'flagged':7}  {'trace':32}  {'span':16}  "
              f"{'reasons':20}  run", file=output)
    try:
        summary = rescore(
            paths, settings, on_run, on_bad, on_spans if args.format == "otlp" else None,
            judge=judge,
        )
    finally:
        if output is not sys.stdout:
            output.close()
        if spooled is not None:
            os.unlink(spooled)
    if shown > MAX_BAD_SHOWN:
        print(f"otel-grounding score-traces: {shown - MAX_BAD_SHOWN} more bad records",
              file=sys.stderr)
    totals = summary.to_dict()
    if args.format == "jsonl" and output is sys.stdout:
        print(json.dumps({"summary": totals}))
    else:
        text = ", ".join(
            f"{key} {' '.join(f'{g}={n}' for g, n in value.items()) or '-'}"
            if isinstance(value, dict) else f"{key} {value}"
            for key, value in totals.items()
        )
        print(f"otel-grounding score-traces: {text}",
              file=sys.stdout if args.format == "table" and output is sys.stdout else sys.stderr)
    status = (
        EXIT_FLAGGED if summary.flagged
        else EXIT_UNREADABLE if summary.bad_records
        else EXIT_NOTHING_CHECKED if summary.runs == 0
        else 0
    )
    if summary.runs == 0:
        print("otel-grounding score-traces: no agent run span in the input (nothing was "
              f"checked; exit status {status})", file=sys.stderr)
    return status


def _spool_stdin() -> str:
    """Standard input copied to a temporary file (the readers look at a file's first bytes
    and may read it twice); the caller removes it."""
    import shutil
    import tempfile

    with tempfile.NamedTemporaryFile(prefix="otel-grounding-stdin-", delete=False) as spool:
        shutil.copyfileobj(sys.stdin.buffer, spool)
    return spool.name


#: A module every build of the compiled kind compiles (README, "The compiled build").
COMPILED_PROBE = "otel_grounding.pipeline"


def version_line() -> str:
    """The version and the kind of build installed: pure Python, or the compiled build (its
    modules C extensions), told from where the pipeline module would load from."""
    spec = importlib.util.find_spec(COMPILED_PROBE)
    origin = (spec.origin or "") if spec is not None else ""
    compiled = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    build = "compiled build (mypyc)" if compiled else "pure Python"
    try:
        version = importlib.metadata.version("otel-grounding")
    except importlib.metadata.PackageNotFoundError:  # the source on the path, not installed
        version = "(not installed)"
    return f"otel-grounding {version}, {build}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="otel-grounding",
        description="Claim grounding rate and coverage grade for AI agent runs.",
    )
    parser.add_argument("--version", action="version", version=version_line())
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score one run given as JSON")
    score.add_argument(
        "file", help="JSON file with output, steps and optional threshold; - for stdin"
    )
    score.add_argument("--format", choices=("json", "table"), default="json")
    _add_score_flags(score)
    score.set_defaults(func=_cmd_score)
    from otel_grounding.demo_frameworks import INSTALL, SCENARIOS

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
        "--prometheus-port", type=_port, default=None,
        help="serve metrics on 127.0.0.1:PORT (needs the prometheus extra)",
    )
    demo.add_argument(
        "--serve-seconds", type=float, default=0.0, help="keep serving metrics this long"
    )
    demo.set_defaults(func=_cmd_demo)
    traces = commands.add_parser(
        "score-traces",
        help="re-score stored traces (OTLP JSON lines, .gz, protobuf, Jaeger /api/v3 JSON)",
        description="Re-score agent runs in stored traces with the processor's pipeline: each "
        "trace assembled across the files in any order, and judged by the judge the settings "
        "name (e.g. --settings-file examples/offline-detection.json). Exit status 1 when a run "
        "is flagged (lexically or by its judge), "
        f"{EXIT_UNREADABLE} when records could not be read (and none was flagged), "
        f"{EXIT_NOTHING_CHECKED} when the input holds no agent run span (nothing was checked), "
        "2 on bad usage.",
    )
    traces.add_argument("files", nargs="+",
                        help="trace files or directories of them; - for standard input")
    traces.add_argument(
        "--format", choices=("table", "jsonl", "otlp"), default="table",
        help="a table of runs, one JSON object per run, or the spans as OTLP/JSON lines "
        "with the new enrichment (default %(default)s)",
    )
    traces.add_argument("--output", default=None, help="write here instead of stdout (.gz: gzip)")
    _add_grounding_flags(traces)
    traces.set_defaults(func=_cmd_score_traces)
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
