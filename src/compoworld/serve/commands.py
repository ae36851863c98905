"""What ``compoworld serve mcp`` and ``compoworld serve http`` do, apart from option parsing.

Every problem found before serving (an unknown service, a task of another
catalog, a bind beyond loopback without a token, a port in use) is raised as
:class:`StartError` with a message that says what to change.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import Sequence
from pathlib import Path

from compoworld.engine.errors import CatalogError
from compoworld.serve.security import InsecureBind, check_bind
from compoworld.serve.sessions import ServeBackend, ServeLimits, SessionManager

__all__ = ["StartError", "parse_address", "parse_services", "parse_task_ref", "run_http", "run_mcp"]


class StartError(Exception):
    """The server cannot start; the message says why and what to change."""


def parse_services(values: Sequence[str] | None) -> list[str] | None:
    """Service names from repeated and comma-separated options (None when none were given)."""
    if not values:
        return None
    names = [n.strip() for v in values for n in v.split(",") if n.strip()]
    return names or None


def parse_task_ref(ref: str) -> tuple[Path, str]:
    """Split ``FILE:ID`` into the task file and the task id.

    Raises:
        StartError: if there is no ``:ID`` part.
    """
    path, sep, task_id = ref.rpartition(":")
    if not sep or not path or not task_id:
        raise StartError(f"--task takes FILE:ID (a tasks.jsonl file and a task id), not {ref!r}")
    return Path(path), task_id


def parse_address(address: str) -> tuple[str, int]:
    """Split ``HOST:PORT`` (``[::1]:PORT`` for IPv6).

    Raises:
        StartError: for a malformed address.
    """
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise StartError(f"expected HOST:PORT, e.g. 127.0.0.1:8765, not {address!r}")
    return host.strip("[]"), int(port)


def _backend(
    services: Sequence[str] | None, *, seed: int, task_files: Sequence[Path], task_ids: Sequence[str] | None
) -> ServeBackend:
    try:
        return ServeBackend.load(services, seed=seed, task_files=task_files, task_ids=task_ids)
    except (CatalogError, OSError, ValueError) as exc:
        raise StartError(str(exc)) from exc


def _check(host: str, token: str | None) -> None:
    try:
        check_bind(host, token)
    except InsecureBind as exc:
        raise StartError(str(exc)) from exc


def _bind(host: str, port: int) -> socket.socket:
    from compoworld.serve.listen import bind

    try:
        return bind(host, port)
    except OSError as exc:
        raise StartError(f"cannot listen on {host}:{port}: {exc}") from exc


def run_mcp(
    *,
    services: Sequence[str] | None,
    task: str | None,
    seed: int,
    http: str | None,
    token: str | None,
    limits: ServeLimits,
    page_size: int,
    discovery: bool = False,
) -> None:
    """Serve a scope over MCP: stdio by default, streamable HTTP with ``http="HOST:PORT"``.

    With ``discovery`` the server lists only ``search_tools`` and ``call_tool`` (and a task's two tools).

    Raises:
        StartError: if the server cannot start.
    """
    from compoworld.serve.mcp_server import MCPService

    host, port = parse_address(http) if http is not None else ("", 0)
    if http is not None:
        _check(host, token)
    task_ref = parse_task_ref(task) if task is not None else None
    backend = _backend(
        services,
        seed=seed,
        task_files=[task_ref[0]] if task_ref else [],
        task_ids=[task_ref[1]] if task_ref else None,
    )
    try:
        if task_ref:
            scope = backend.scope_for_task(task_ref[1], discovery=discovery)
        else:
            scope = backend.scope_for_services(services, discovery=discovery)
    except ImportError as exc:  # discovery mode without its extra
        raise StartError(str(exc)) from exc
    if http is None:
        # One client over stdio: one session, which never expires while the process lives.
        manager = SessionManager(dataclasses.replace(limits, idle_timeout_s=None, max_sessions=1))
        asyncio.run(MCPService(scope, manager, stdio=True, page_size=page_size, seed=seed).run_stdio())
        return
    from compoworld.serve.listen import serve_asgi
    from compoworld.serve.mcp_server import jsonrpc_http_error

    manager = SessionManager(limits)
    service = MCPService(scope, manager, stdio=False, page_size=page_size, seed=seed)
    app = service.http_app(host=host, token=token, max_body_bytes=limits.max_body_bytes)
    sock = _bind(host, port)
    bad_request = jsonrpc_http_error(400, "Bad Request: the request is not valid HTTP/1.1")
    serve_asgi(app, sock, manager, path="/mcp", bad_request=bad_request)


def run_http(
    *,
    host: str,
    port: int,
    services: Sequence[str] | None,
    task_files: Sequence[Path],
    seed: int,
    token: str | None,
    limits: ServeLimits,
) -> None:
    """Serve the HTTP API.

    Raises:
        StartError: if the server cannot start.
    """
    from compoworld.serve.http_server import create_app
    from compoworld.serve.listen import serve_asgi

    _check(host, token)
    backend = _backend(services, seed=seed, task_files=task_files, task_ids=None)
    manager = SessionManager(limits)
    app = create_app(backend, manager, token=token)
    sock = _bind(host, port)
    serve_asgi(app, sock, manager)
