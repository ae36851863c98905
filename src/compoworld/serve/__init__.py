"""Serving CompoWorld's services to any agent framework: MCP and HTTP/OpenAPI servers.

The servers share :mod:`compoworld.serve.sessions` (isolated, bounded sessions
over the engine) and :mod:`compoworld.serve.security` (tokens, size limits).
The server modules themselves, :mod:`compoworld.serve.mcp_server` and
:mod:`compoworld.serve.http_server`, need the ``serve`` extra
(``pip install compoworld[serve]``) and are imported only when used. Serving
imports the engine, the world, tasks and agents (a task session is an
:class:`~compoworld.agents.session.TaskSession`); it is a peer of ``train``,
``adapters`` and ``devtools`` and never imports them.
"""

from compoworld.serve.security import InsecureBind, check_bind, is_loopback
from compoworld.serve.sessions import (
    Evaluation,
    Scope,
    ServeBackend,
    ServeError,
    ServeLimits,
    Session,
    SessionManager,
    ToolSpec,
)

__all__ = [
    "Evaluation",
    "InsecureBind",
    "Scope",
    "ServeBackend",
    "ServeError",
    "ServeLimits",
    "Session",
    "SessionManager",
    "ToolSpec",
    "check_bind",
    "is_loopback",
]
