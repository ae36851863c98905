"""Test doubles that ship with the library: a scripted OpenAI-compatible server.

:class:`ScriptedChatServer` serves ``POST /v1/chat/completions`` on 127.0.0.1
from a script of replies, so code that talks to an endpoint through the real
``openai`` client can be tested offline. It records every request it receives
and fails loudly (HTTP 500, and :meth:`ScriptedChatServer.assert_script_used`)
when the script runs out or a step goes unused.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = ["Message", "Reply", "ScriptedChatServer"]

Message = dict[str, Any]
Reply = str | Message | Callable[[dict[str, Any]], "str | Message"] | int
"""A scripted reply: the assistant's content, a whole assistant message (``content`` and
``tool_calls``), a function of the request giving either, or an HTTP error status."""


class ScriptedChatServer:
    """An OpenAI-compatible chat-completions server on loopback that answers from a script.

    Args:
        replies: Replies in order; each request consumes one.
        model: The model name reported back.
        responder: Answers every request once the script is used up (a policy
            behind an endpoint, e.g. an oracle that reads the conversation).

    Example:
        with ScriptedChatServer(['{"ok": true}']) as server:
            client = openai.OpenAI(base_url=server.url, api_key="x")
    """

    def __init__(
        self,
        replies: Iterable[Reply] = (),
        *,
        model: str = "scripted",
        responder: Callable[[dict[str, Any]], str | Message] | None = None,
    ) -> None:
        self._replies: list[Reply] = list(replies)
        self._responder = responder
        self._lock = threading.Lock()
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL to give an OpenAI client (``http://127.0.0.1:PORT/v1``)."""
        if self._server is None:
            raise RuntimeError("the server is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def add(self, *replies: Reply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._replies.extend(replies)

    def _next(self, request: dict[str, Any]) -> Reply | None:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return self._replies.pop(0)
            return self._responder

    def assert_script_used(self) -> None:
        """Fail if scripted replies were never requested."""
        with self._lock:
            if self._replies:
                raise AssertionError(f"{len(self._replies)} scripted replies were never used")

    def start(self) -> None:
        """Start serving on an ephemeral loopback port."""
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._send(400, {"error": {"message": "request body is not JSON"}})
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = owner._next(request)
                if reply is None:
                    self._send(500, {"error": {"message": "the script has no more replies"}})
                    return
                if isinstance(reply, int):
                    self._send(reply, {"error": {"message": f"scripted status {reply}"}})
                    return
                try:
                    answer = reply(request) if callable(reply) else reply
                except Exception as exc:  # a broken responder is a server error, as a real endpoint's would be
                    self._send(500, {"error": {"message": f"responder failed: {type(exc).__name__}: {exc}"}})
                    return
                message = dict(answer) if isinstance(answer, dict) else {"content": answer}
                message["role"] = "assistant"
                message.setdefault("content", None)  # type: ignore[arg-type]  # OpenAI sends null content with tool calls
                n = len(owner.requests)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{n}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": owner.model,
                        "choices": [
                            {
                                "index": 0,
                                "message": message,
                                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                    },
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-chat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and free the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedChatServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
