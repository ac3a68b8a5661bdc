"""A real OTLP/gRPC trace receiver on 127.0.0.1 for tests: keeps every request it is sent."""

from __future__ import annotations

import threading
import time
from concurrent import futures
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span


class OTLPSink(trace_service_pb2_grpc.TraceServiceServicer):
    """Start with `with OTLPSink() as sink:`; `sink.endpoint` is the address to export to."""

    def __init__(self) -> None:
        self.requests: list[trace_service_pb2.ExportTraceServiceRequest] = []
        self._lock = threading.Lock()
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self, self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def Export(self, request: Any, context: Any) -> trace_service_pb2.ExportTraceServiceResponse:
        with self._lock:
            self.requests.append(request)
        return trace_service_pb2.ExportTraceServiceResponse()

    def __enter__(self) -> OTLPSink:
        self._server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.stop(grace=None)

    def spans(self) -> list[Span]:
        with self._lock:
            return [
                span
                for request in self.requests
                for resource_spans in request.resource_spans
                for scope_spans in resource_spans.scope_spans
                for span in scope_spans.spans
            ]

    def wait_for(self, predicate: Any, timeout: float = 20.0) -> list[Span]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            spans = self.spans()
            if predicate(spans):
                return spans
            time.sleep(0.05)
        raise AssertionError(f"sink did not receive the expected spans within {timeout}s")


def value(any_value: AnyValue) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


def span_attributes(span: Span) -> dict[str, Any]:
    return {kv.key: value(kv.value) for kv in span.attributes}
