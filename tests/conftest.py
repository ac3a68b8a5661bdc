"""Fixtures shared by the relay tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from otel_grounding.relay.testing import OtlpSink


@pytest.fixture(scope="module")
def sink() -> Iterator[OtlpSink]:
    """A real OTLP/gRPC sink on 127.0.0.1: the relay's next hop."""
    with OtlpSink() as server:
        yield server
