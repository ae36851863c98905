"""Safety shared by both servers: bind checks, bearer tokens and request size limits.

A server bound to anything but loopback must be given a token; every request
then carries ``Authorization: Bearer <token>`` or gets a 401. Request bodies
are read up to a limit and refused with a 413 beyond it. Both checks are plain
ASGI middleware, so they sit in front of FastAPI and the MCP SDK alike and
answer in the servers' JSON error shape. :class:`JsonErrorsMiddleware` turns the
plain-text error answers of a framework underneath (the MCP SDK's 400, 403, 404,
413 and 421) into JSON as well.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

__all__ = [
    "TOKEN_ENV",
    "BearerTokenMiddleware",
    "BodyLimitMiddleware",
    "InsecureBind",
    "JsonErrorsMiddleware",
    "check_bind",
    "error_body",
    "is_loopback",
    "send_json",
]

TOKEN_ENV = "COMPOWORLD_TOKEN"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class InsecureBind(ValueError):
    """A server would listen beyond loopback without a token."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1); any other name counts as exposed."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a token.

    Args:
        host: The address the server binds.
        token: The bearer token, if any.

    Raises:
        InsecureBind: naming the fix.
    """
    if token is not None and not token.strip():
        raise InsecureBind("the token is empty; give a real one or none")
    if not is_loopback(host) and not token:
        raise InsecureBind(
            f"refusing to listen on {host} without a token: anyone who can reach it could use the server. "
            f"Pass --token or set {TOKEN_ENV}, or bind 127.0.0.1"
        )


def error_body(type_: str, message: str, hint: str = "") -> dict[str, Any]:
    """The servers' JSON error answer."""
    return {"ok": False, "error": {"type": type_, "message": message, "field": None, "hint": hint}}


async def send_json(send: Send, status: int, body: dict[str, Any], headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Send a complete JSON response on a raw ASGI channel."""
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BearerTokenMiddleware:
    """Require ``Authorization: Bearer <token>`` on every HTTP request (compared in constant time).

    Args:
        app: The wrapped ASGI app.
        token: The expected token.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request if it carries the token, else answer 401."""
        if scope["type"] == "http":
            given = b""
            for name, value in scope.get("headers", ()):
                if name == b"authorization":
                    given = value
                    break
            if not hmac.compare_digest(given, self._expected):
                await send_json(
                    send,
                    401,
                    error_body("unauthorized", "missing or wrong bearer token", "send Authorization: Bearer <token>"),
                    [(b"www-authenticate", b"Bearer")],
                )
                return
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    """Read each request body up to ``max_bytes``; answer 413 beyond it, before the app sees anything.

    Args:
        app: The wrapped ASGI app.
        max_bytes: The largest body accepted.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _too_large(self, send: Send) -> None:
        await send_json(
            send,
            413,
            error_body("too_large", f"the request body is larger than {self.max_bytes} bytes", "send less data"),
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Buffer the body within the limit and replay it to the app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.max_bytes:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class JsonErrorsMiddleware:
    """Answer in JSON where the wrapped app answers an error (status 400 or more) in anything else.

    Successful answers and JSON error answers pass through untouched; a non-JSON error body (small by
    nature) is read whole and replaced, keeping the status and the other headers.

    Args:
        app: The wrapped ASGI app.
        body: The JSON body for a status and the original body's text.
    """

    def __init__(self, app: ASGIApp, body: Callable[[int, str], dict[str, Any]]) -> None:
        self.app = app
        self.body = body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, rewriting a non-JSON error answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None
        chunks: list[bytes] = []

        async def rewrite(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                if message["status"] >= 400 and not _is_json(message.get("headers", ())):
                    held = message
                    return
            elif message["type"] == "http.response.body" and held is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                status = held["status"]
                kept = [(k, v) for k, v in held.get("headers", ()) if k.lower() not in _BODY_HEADERS]
                held = None
                text = b"".join(chunks).decode("utf-8", errors="replace")
                await send_json(send, status, self.body(status, text), kept)
                return
            await send(message)

        await self.app(scope, receive, rewrite)


_BODY_HEADERS = (b"content-type", b"content-length")


def _is_json(headers: Sequence[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name.lower() == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return False
