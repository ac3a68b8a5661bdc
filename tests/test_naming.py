"""One naming scheme for what we emit, and docs/naming.md listing every name (issue 11, item 7).

The names come from the modules that define them: the constants of attributes.py, and the
instruments that metrics.py and relay/telemetry.py really create (a meter provider that records
each `create_*` call, backed by the SDK). The Prometheus spelling of each instrument is what the
real Prometheus exporter produces for it. A name added without a row in docs/naming.md fails
here, and so does a row left behind when a name goes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.metrics import CallbackOptions, Observation
from opentelemetry.sdk.metrics import MeterProvider
from prometheus_client import CollectorRegistry, generate_latest

from otel_grounding import attributes, metrics
from otel_grounding.relay import telemetry

REPO = Path(__file__).resolve().parent.parent
NAMING = REPO / "docs" / "naming.md"
ALERTS_AND_DASHBOARDS = [REPO / "collector-config" / "alerts.yml",
                         *sorted((REPO / "collector-config" / "grafana").rglob("*.json"))]

SIGNAL = "ferrumdeck.reliability."
EVENTS = "reliability."
HEALTH = "otel_grounding."
RELAY_HEALTH = "otel_grounding.relay."
#: A lowercase dotted name: snake_case segments.
DOTTED = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")

#: attributes.py constants that hold values written under a name, not names.
VALUE_PREFIXES = ("REASON_", "BOUND_", "JUDGE_OUTCOME_")
VALUES = {"PREFIX", "EVALUATION_LEXICAL", "EVALUATION_JUDGE", "CLAIM_EXCERPT_CHARS"}


# -- docs/naming.md --------------------------------------------------------------------------
def tables() -> dict[str, list[dict[str, str]]]:
    """The tables of docs/naming.md by section heading; each row keyed by its header cells."""
    found: dict[str, list[dict[str, str]]] = {}
    section = ""
    header: list[str] | None = None
    for line in NAMING.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section, header = line[3:].strip(), None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif not set(line) <= set("|-: "):
                found.setdefault(section, []).append(dict(zip(header, cells, strict=True)))
        else:
            header = None
    return found


def code(cell: str) -> str:
    """The one backticked name a first cell holds."""
    names = re.findall(r"`([^`]+)`", cell)
    assert len(names) == 1, f"expected one `name` in {cell!r}"
    return names[0]


def documented(section: str) -> dict[str, dict[str, str]]:
    rows = tables().get(section)
    assert rows, f"docs/naming.md has no table under '## {section}'"
    by_name = {code(row["name"]): row for row in rows}
    assert len(by_name) == len(rows), f"a name is listed twice under '## {section}'"
    return by_name


# -- attributes.py ---------------------------------------------------------------------------
def assigned(module: Any) -> list[str]:
    """The module-level names a module assigns itself (not those it imports)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    return [target.id for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)]


def defined_names() -> dict[str, dict[str, str]]:
    """attributes.py's names by kind: span attributes, events, event fields, log events and
    their fields. A constant of no known kind fails: classify it here and document it."""
    kinds: dict[str, dict[str, str]] = {k: {} for k in ("attribute", "event", "field", "log")}
    for const in assigned(attributes):
        value = getattr(attributes, const)
        if not const.isupper() or const in VALUES or const.startswith(VALUE_PREFIXES):
            continue
        assert isinstance(value, str), f"attributes.{const} = {value!r}: a name is a string"
        if const.startswith("EVALUATION_"):
            kinds["log"][const] = value
        elif value.startswith(SIGNAL):
            kinds["attribute"][const] = value
        elif const.endswith("_EVENT"):
            kinds["event"][const] = value
        elif const.startswith(("FLAGGED_EVENT_", "CLAIM_EVENT_")):
            kinds["field"][const] = value
        else:
            pytest.fail(f"attributes.{const} = {value!r} is no known kind of name")
    return kinds


def test_span_attributes_are_the_signal_and_documented() -> None:
    names = defined_names()["attribute"]
    for const, value in names.items():
        assert DOTTED.match(value), f"attributes.{const} = {value!r} is not a dotted snake_case name"
    rows = documented("Span attributes (on the run span)")
    assert set(names.values()) - set(rows) == set(), "attributes without a row in docs/naming.md"
    assert set(rows) - set(names.values()) == set(), "rows in docs/naming.md for no attribute"
    for name, row in rows.items():
        assert row["type"] in {"string", "bool", "int", "double", "string[]"}, (name, row)


def test_span_events_are_named_by_the_contract_and_documented() -> None:
    names = defined_names()["event"]
    for const, value in names.items():
        assert value.startswith(EVENTS) and not value.startswith(SIGNAL), (const, value)
        assert DOTTED.match(value), (const, value)
    # the audit event's name is the contract's (docs/contract.md and the other planes)
    assert attributes.FLAGGED_EVENT == "reliability.claim_grounding_below_threshold"
    rows = documented("Span events (on the run span)")
    assert set(rows) == set(names.values())


def test_event_fields_are_short_keys_and_documented() -> None:
    names = defined_names()["field"]
    for const, value in names.items():
        assert DOTTED.match(value) and value.count(".") <= 1, (const, value)
        assert not value.startswith((SIGNAL, HEALTH)), f"a field lives inside its event: {value}"
    rows = documented("Event fields")
    assert set(rows) == set(names.values())


def test_the_evaluation_log_event_uses_the_genai_names_and_is_documented() -> None:
    names = defined_names()["log"]
    event = names.pop("EVALUATION_EVENT")
    assert event == "gen_ai.evaluation.result"
    for const, value in names.items():
        assert value.startswith("gen_ai.evaluation.") or value == "error.type", (const, value)
    rows = documented("Log events")
    assert set(rows) == {event}
    fields = set(re.findall(r"`([^`]+)`", rows[event]["fields"]))
    assert set(names.values()) <= fields
    assert {attributes.EVALUATION_LEXICAL, attributes.EVALUATION_JUDGE} <= fields


# -- instruments -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Created:
    meter: str
    method: str
    name: str
    unit: str
    description: str

    @property
    def kind(self) -> str:
        return {"create_histogram": "histogram", "create_observable_counter": "counter",
                "create_counter": "counter", "create_observable_gauge": "gauge",
                "create_gauge": "gauge", "create_up_down_counter": "updowncounter",
                "create_observable_up_down_counter": "updowncounter"}[self.method]


class RecordingMeterProvider:
    """A meter provider whose meters note every instrument created, then create it on an SDK
    meter (so the code under test runs as it does in production)."""

    def __init__(self) -> None:
        self.created: list[Created] = []
        self._sdk = MeterProvider()

    def get_meter(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return _RecordingMeter(name, self._sdk.get_meter(name, *args, **kwargs), self.created)

    def shutdown(self) -> None:
        self._sdk.shutdown()


class _RecordingMeter:
    def __init__(self, name: str, meter: Any, created: list[Created]) -> None:
        self._name, self._meter, self._created = name, meter, created

    def __getattr__(self, method: str) -> Callable[..., Any]:
        real = getattr(self._meter, method)
        if not method.startswith("create_"):
            return real  # type: ignore[no-any-return]

        def create(name: str, *args: Any, **kwargs: Any) -> Any:
            self._created.append(Created(self._name, method, name, kwargs.get("unit", ""),
                                         kwargs.get("description", "")))
            return real(name, *args, **kwargs)

        return create


@pytest.fixture(scope="module")
def instruments() -> Iterator[list[Created]]:
    provider = RecordingMeterProvider()
    metrics.GroundingMetrics(provider)  # type: ignore[arg-type]
    telemetry.RelayMetrics(provider)  # type: ignore[arg-type]
    telemetry.observe_levels(provider, queue_spans=lambda: 0, queue_bytes=lambda: 0,  # type: ignore[arg-type]
                             runs_held=lambda: 0)
    yield provider.created
    provider.shutdown()


def prometheus_name(instrument: Created) -> str:
    """The metric family the real Prometheus exporter shows for this instrument."""
    registry = CollectorRegistry()
    provider = MeterProvider(metric_readers=[PrometheusMetricReader(registry=registry)])
    try:
        meter = provider.get_meter("naming")
        create = getattr(meter, instrument.method)
        options = {"unit": instrument.unit, "description": instrument.description}
        if instrument.method.startswith("create_observable"):
            def one(options: CallbackOptions) -> list[Observation]:
                return [Observation(1)]

            create(instrument.name, callbacks=[one], **options)
        elif instrument.kind == "histogram":
            create(instrument.name, **options).record(0.5)
        else:
            create(instrument.name, **options).add(1)
        exposition = generate_latest(registry).decode()
    finally:
        provider.shutdown()
    families = [n for n in re.findall(r"^# TYPE (\S+) ", exposition, re.M) if n != "target_info"]
    assert len(families) == 1, exposition
    return families[0]


def test_instrument_names_follow_the_scheme(instruments: list[Created]) -> None:
    names = [i.name for i in instruments]
    assert len(names) == len(set(names)), "an instrument is created twice"
    for instrument in instruments:
        assert DOTTED.match(instrument.name), instrument
        assert instrument.meter in {metrics.METER_NAME, telemetry.METER_NAME}, instrument
        assert instrument.meter.startswith("otel_grounding")
        if instrument.meter == telemetry.METER_NAME:
            assert instrument.name.startswith(RELAY_HEALTH), instrument
        else:
            assert instrument.name.startswith((SIGNAL, HEALTH)), instrument
            assert not instrument.name.startswith(RELAY_HEALTH), instrument


def test_signal_metrics_are_the_ones_alerts_and_dashboards_read(
    instruments: list[Created],
) -> None:
    """A `ferrumdeck.reliability.*` metric is part of the signal: the shipped alerts or
    dashboards read it. The plugin's health is `otel_grounding.*`."""
    shipped = "\n".join(p.read_text(encoding="utf-8") for p in ALERTS_AND_DASHBOARDS)
    signal = [i for i in instruments if i.name.startswith(SIGNAL)]
    assert signal, "no signal metric"
    for instrument in signal:
        assert prometheus_name(instrument) in shipped, (
            f"{instrument.name} is named as the signal but no shipped alert or dashboard reads it"
        )


def test_every_metric_module_constant_is_an_instrument(instruments: list[Created]) -> None:
    created = {i.name for i in instruments}
    for module in (metrics, telemetry):
        for const in assigned(module):
            value = getattr(module, const)
            if (const.isupper() and isinstance(value, str) and value.startswith((SIGNAL, HEALTH))
                    and value not in {module.METER_NAME, getattr(module, "PREFIX", None)}):
                assert value in created, f"{module.__name__}.{const} = {value!r} is never created"


def test_every_metric_is_documented_with_its_kind_unit_and_prometheus_name(
    instruments: list[Created],
) -> None:
    rows = documented("Metrics")
    created = {i.name: i for i in instruments}
    assert set(created) - set(rows) == set(), "instruments without a row in docs/naming.md"
    assert set(rows) - set(created) == set(), "rows in docs/naming.md for no instrument"
    for name, instrument in created.items():
        row = rows[name]
        assert row["kind"] == instrument.kind, (name, row["kind"], instrument.kind)
        assert row["unit"] == instrument.unit, (name, row["unit"], instrument.unit)
        assert code(row["Prometheus"]) == prometheus_name(instrument), name
