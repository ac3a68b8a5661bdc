"""What an SDK shell (the span processor, the span exporter) is built with: its typed keyword
arguments, handed as they are to `GroundingPipeline.configure`, the one builder of its pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from opentelemetry.metrics import MeterProvider

from otel_grounding.config import GroundingSettings, SettingOptions
from otel_grounding.conventions import Convention


class ShellOptions(SettingOptions, total=False):
    """A shell's keyword arguments: every setting (see `SettingOptions`) and the wiring.

    `settings` replaces the settings (then no setting may be given beside it); otherwise what
    is not given comes from `OTEL_GROUNDING_*` and `settings_file` (or
    `$OTEL_GROUNDING_SETTINGS_FILE`). `meter_provider` and `logger_provider` default to the
    global ones; `conventions` to every built-in convention.
    """

    settings: GroundingSettings | None
    settings_file: str | None
    meter_provider: MeterProvider | None
    conventions: Sequence[Convention]
    logger_provider: Any | None

