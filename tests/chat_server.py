"""An OpenAI-compatible chat-completions server on 127.0.0.1 with scripted behaviour.

The `openai` judge talks to it through the real `openai` client over a real socket. Each
request takes the next behaviour from `script` (then `default`): `ok` (one verdict per claim:
`contradicted` when the claim holds a word of `contradict`, `unsupported` for a word of
`unsupported`, else `supported`), `delay:<s>` (then ok), `status:<code>`, `garbage` (a reply
whose content is not JSON), `truncated` (JSON cut in half), `incomplete` (a verdict short),
`length` (cut at the token limit), `body-garbage` (an HTTP body that is not JSON) and `hang`
(no answer until the server closes).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG_LIMIT_S = 30.0


class ChatServer:
    def __init__(self, default: str = "ok") -> None:
        self.default = default
        self.script: deque[str] = deque()
        self.contradict: set[str] = set()
        self.unsupported: set[str] = set()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()

    def _next(self) -> str:
        with self._lock:
            return self.script.popleft() if self.script else self.default

    def verdicts(self, body: dict[str, Any]) -> dict[str, Any]:
        payload = json.loads(body["messages"][-1]["content"])
        out = []
        for claim in payload["claims"]:
            words = set(claim["text"].lower().replace(".", " ").split())
            verdict = (
                "contradicted"
                if words & self.contradict
                else "unsupported"
                if words & self.unsupported
                else "supported"
            )
            out.append(
                {
                    "claim": claim["index"],
                    "verdict": verdict,
                    "explanation": f"scripted {verdict}",
                    "evidence": 0 if verdict != "unsupported" and payload["evidence"] else None,
                }
            )
        return {"verdicts": out}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                with server._lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                self._waiting = True
                try:
                    self._answer(server._next(), body)
                finally:
                    self._answered()

            def _answered(self) -> None:
                """The request leaves `in_flight` before its answer is written: once the client
                has read it, it may send its next, which must not count this one too."""
                if self._waiting:
                    self._waiting = False
                    with server._lock:
                        server.in_flight -= 1

            def _answer(self, mode: str, body: dict[str, Any]) -> None:
                if mode == "hang":
                    server._closing.wait(HANG_LIMIT_S)
                    return
                if mode.startswith("delay:"):
                    time.sleep(float(mode.split(":", 1)[1]))
                    mode = "ok"
                if mode.startswith("status:"):
                    self._send(int(mode.split(":", 1)[1]), {"error": {"message": "scripted"}})
                    return
                if mode == "body-garbage":
                    self._raw(200, b"<html>not a chat completion</html>")
                    return
                content = json.dumps(server.verdicts(body))
                finish = "stop"
                if mode == "garbage":
                    content = "I think the claims are mostly fine."
                elif mode == "truncated":
                    content = content[: len(content) // 2]
                elif mode == "incomplete":
                    data = server.verdicts(body)
                    data["verdicts"] = data["verdicts"][:-1]
                    content = json.dumps(data)
                elif mode == "length":
                    finish = "length"
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": content},
                                "finish_reason": finish,
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, data: dict[str, Any]) -> None:
                self._raw(status, json.dumps(data).encode(), "application/json")

            def _raw(self, status: int, raw: bytes, kind: str = "text/html") -> None:
                self._answered()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler
