"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1: the offline model.

The frameworks talk to it with their real OpenAI / LiteLLM clients (`base_url`). Its script is
the one every scenario uses: while no tool result is in the conversation it answers with one
`get_weather` tool call; once the tool's output is in (a `tool` message, or the weather text
quoted back as a ReAct observation) it answers with `ScriptedModel.answer`. Plain and streamed
(`"stream": true`, server-sent events) responses; `stream_options.include_usage` is honoured.
It also serves a tiny `/models` list, and records every request body for diagnostics.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOOL_NAME = "get_weather"
TOOL_ARGUMENTS = json.dumps({"city": "Paris"})
MODEL = "scripted-model"
USAGE = {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}


def _text(content: Any) -> str:
    """The text of a message's content: a string or a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(_text(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return ""


class ScriptedModel:
    """The server and its script; use as a context manager (binds an ephemeral loopback port)."""

    def __init__(self, tool_output: str, answer: str = "") -> None:
        self.tool_output = tool_output
        self.answer = answer
        self.requests: list[dict[str, Any]] = []
        self._calls = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (ends in /v1)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def tool_result_seen(self, messages: list[dict[str, Any]]) -> bool:
        """Whether the conversation already holds the tool's output."""
        for message in messages:
            if message.get("role") == "tool":
                return True
            if message.get("role") != "system" and self.tool_output in _text(message.get("content")):
                return True
        return False

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The assistant message for one request: the tool call, then the answer."""
        with self._lock:
            self.requests.append(body)
            self._calls += 1
            call_id = f"call_{self._calls}"
        if self.tool_result_seen(body.get("messages") or []):
            return {"role": "assistant", "content": self.answer}
        call = {"name": TOOL_NAME, "arguments": TOOL_ARGUMENTS}
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": call}],
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                message = model.reply(body)
                name = body.get("model") or MODEL
                if body.get("stream"):
                    self._stream(name, message, body)
                else:
                    self._send(200, _completion(name, message))

            def _stream(self, name: str, message: dict[str, Any], body: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                usage = (body.get("stream_options") or {}).get("include_usage")
                for chunk in _chunks(name, message, bool(usage)):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        return Handler


def _finish(message: dict[str, Any]) -> str:
    return "tool_calls" if message.get("tool_calls") else "stop"


def _completion(name: str, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1764547200,
        "model": name,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(message)}],
        "usage": USAGE,
    }


def _chunks(name: str, message: dict[str, Any], usage: bool) -> list[dict[str, Any]]:
    """The streamed form of `message`: role, content or the tool call, finish, usage."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 1764547200,
            "model": name,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    out = [chunk({"role": "assistant", "content": ""})]
    for index, call in enumerate(message.get("tool_calls") or []):
        head = {"index": index, "id": call["id"], "type": "function"}
        out.append(chunk({"tool_calls": [{**head, "function": {"name": call["function"]["name"], "arguments": ""}}]}))
        out.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": call["function"]["arguments"]}}]}))
    if message.get("content"):
        out.append(chunk({"content": message["content"]}))
    out.append(chunk({}, _finish(message)))
    if usage:
        out.append({**chunk({}), "choices": [], "usage": USAGE})
    return out
