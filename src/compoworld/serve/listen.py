"""Running an ASGI app on a socket with uvicorn, with a sweeper for idle sessions.

The socket is bound before uvicorn starts, so ``--port 0`` works: the real
address is announced on stderr (``compoworld: serving http://HOST:PORT/PATH``)
and tests and benchmarks read it from there.

A request that is not valid HTTP/1.1 never reaches the app: uvicorn answers it
with a 400 itself, in plain text. Here that answer is JSON, in the server's own
error shape, like every other answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import socket
import sys
from typing import Any

from compoworld.serve.sessions import SessionManager

__all__ = ["ANNOUNCE", "bad_request_protocol", "bind", "release_memory", "serve_asgi", "sweep_interval", "url_of"]

ANNOUNCE = "compoworld: serving "
"""The prefix of the line that names the served URL on stderr."""


def bind(host: str, port: int) -> socket.socket:
    """Bind and listen on ``host:port`` (port 0: any free port).

    Raises:
        OSError: if the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    # proto must say TCP: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets that do,
    # and with it on, every small response waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, path: str = "") -> str:
    """The ``http://`` URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in str(host) else str(host)
    return f"http://{shown}:{port}{path}"


def sweep_interval(manager: SessionManager) -> float:
    """How often idle sessions are looked for: a quarter of the timeout, within 0.25 s and 30 s."""
    timeout = manager.limits.idle_timeout_s
    return 30.0 if timeout is None else min(30.0, max(0.25, timeout / 4))


def release_memory() -> None:
    """Collect garbage and hand freed heap pages back to the OS (glibc's ``malloc_trim``, where there is one).

    Without the trim, memory freed by dropped sessions stays in the process's
    heap for reuse: bounded, but the resident size would not come down.
    """
    gc.collect()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # not glibc (musl …)
            ctypes.CDLL(None).malloc_trim(0)


async def _sweep_forever(manager: SessionManager) -> None:
    interval = sweep_interval(manager)
    dropped = manager.expired + manager.closed
    while True:
        await asyncio.sleep(interval)
        manager.sweep()
        now_dropped = manager.expired + manager.closed
        if now_dropped != dropped:  # at most once per interval, and only after sessions were dropped
            release_memory()
            dropped = now_dropped


async def _serve(server: Any, sock: socket.socket, manager: SessionManager) -> None:
    sweeper = asyncio.create_task(_sweep_forever(manager))
    try:
        await server.serve(sockets=[sock])
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper


def bad_request_protocol(body: dict[str, Any]) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP/1.1 protocol (h11), answering a request that is not valid HTTP with a JSON 400.

    Args:
        body: The JSON body of that answer.

    Returns:
        The protocol class, for ``uvicorn.Config(http=...)``.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    data = json.dumps(body).encode()

    class JsonBadRequestProtocol(H11Protocol):
        """uvicorn's h11 protocol with a JSON body on its own 400 answers."""

        def send_400_response(self, msg: str) -> None:
            """Answer 400 with the JSON body and close the connection (as uvicorn does, but in JSON)."""
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ]
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=data),
                h11.EndOfMessage(),
            ):
                output = self.conn.send(event)
                if output:
                    self.transport.write(output)
            self.transport.close()

    return JsonBadRequestProtocol


def serve_asgi(
    app: Any,
    sock: socket.socket,
    manager: SessionManager,
    *,
    path: str = "",
    log_level: str = "warning",
    bad_request: dict[str, Any] | None = None,
) -> None:
    """Serve an ASGI app on a bound socket until SIGINT or SIGTERM.

    Args:
        app: The ASGI app.
        sock: From :func:`bind`.
        manager: Its sessions, swept for idle ones while serving.
        path: Appended to the announced URL.
        log_level: uvicorn's log level.
        bad_request: The JSON body of the 400 that answers a request which is not valid HTTP
            (default: the servers' error body).
    """
    import uvicorn

    from compoworld.serve.security import error_body

    if bad_request is None:
        bad_request = error_body(
            "bad_request", "the request is not valid HTTP/1.1", "send a well-formed HTTP/1.1 request"
        )
    config = uvicorn.Config(
        app,
        http=bad_request_protocol(bad_request),
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    print(ANNOUNCE + url_of(sock, path), file=sys.stderr, flush=True)
    asyncio.run(_serve(server, sock, manager))
