"""The MCP server: a scope's tools over stdio or streamable HTTP, one episode per MCP session.

Built on the official SDK's low-level ``Server`` (tools are known only at run
time): ``tools/list`` pages through the scope's tools with their input and
output schemas and side-effect annotations; ``tools/call`` runs the engine and
returns structured content. Every failure a model can act on (bad arguments,
an unknown tool, a broken rule, an expired session) comes back as a tool
result with ``is_error``, never as a protocol error: its one text block is the
structured error as JSON, ``{"error": {"type", "message", "field", "hint"}}``.
An error result has no ``structuredContent``: the specification requires
structured content to conform to the tool's output schema, which describes the
success result, and clients that validate it (the TypeScript SDK's does) would
reject the error instead of showing it to the model.

Over stdio, a line that is not JSON gets a JSON-RPC parse error (-32700), and a
JSON value that is not a JSON-RPC message an invalid-request error (-32600),
both with a null id (the SDK's transport drops such lines without an answer).

In tool discovery mode (a scope made with ``discovery=True``; ``compoworld
serve mcp --discovery``) ``tools/list`` lists only ``search_tools`` and
``call_tool`` (and, for a task, its two task tools): the agent finds the
scope's tools by searching and calls them through ``call_tool``.

Sessions: over stdio the process serves one client, so it holds one episode.
Over HTTP each MCP session (its ``Mcp-Session-Id``) gets its own episode from
the shared :class:`~compoworld.serve.sessions.SessionManager`, bounded in
number and dropped when idle. Because the state lives in the session, the
server advertises only the handshake protocol versions on ``server/discover``,
so clients in ``auto`` mode open a session with ``initialize``; a stateless
(2026-07-28) request can list tools but its calls are refused with a readable
error.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from compoworld.agents.discovery import CALL_TOOL, SEARCH_TOOLS
from compoworld.engine.version import __version__
from compoworld.serve.schemas import object_output
from compoworld.serve.sessions import (
    SUBMIT_TOOL,
    Scope,
    ServeError,
    Session,
    SessionManager,
    ToolSpec,
)

__all__ = ["DEFAULT_PAGE_SIZE", "STDIO_SESSION", "MCPService", "jsonrpc_http_error"]

DEFAULT_PAGE_SIZE = 100
STDIO_SESSION = "stdio"
"""The id of the one session a stdio server holds."""
_KEYS_REMEMBERED = 4096


def _text(data: Any) -> list[types.ContentBlock]:
    return [types.TextContent(text=json.dumps(data, ensure_ascii=False))]


def _error_result(error: dict[str, Any]) -> types.CallToolResult:
    """A tool execution error: ``is_error`` with the structured error as JSON text, and no structured content.

    A tool's ``structuredContent`` must conform to its ``outputSchema``, which describes the success
    result, and clients check it whenever it is present (the TypeScript SDK throws otherwise); an error
    result carries none, as the specification's own tool-error example does.
    """
    return types.CallToolResult(content=_text({"error": error}), is_error=True)


def jsonrpc_http_error(status: int, message: str) -> dict[str, Any]:
    """The JSON-RPC error object an MCP endpoint answers an HTTP-level refusal with, as the SDK does its own.

    Args:
        status: The HTTP status (4xx: invalid request, -32600; 5xx: internal error, -32603).
        message: What went wrong.
    """
    code = types.INVALID_REQUEST if status < 500 else types.INTERNAL_ERROR
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message.strip()[:500] or "error"}}


def _unreadable_line_error(exc: Exception) -> types.JSONRPCError | None:
    """The JSON-RPC answer to a stdin line the SDK's transport could not read as a message.

    A line that is not JSON gets a parse error (-32700); JSON that is not a JSON-RPC message gets an
    invalid-request error (-32600). Both carry a null id, as JSON-RPC 2.0 requires when the id cannot
    be read, unless the message's own id can be. A blank line is no message and gets no answer.

    Args:
        exc: What the transport yielded instead of a message (pydantic's validation error).

    Returns:
        The error to send, or None for a blank line.
    """
    errors = exc.errors(include_url=False) if isinstance(exc, ValidationError) else []
    if not errors or errors[0]["type"] == "json_invalid":
        line = errors[0].get("input") if errors else None
        if isinstance(line, str) and not line.strip():
            return None
        return types.JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=types.ErrorData(code=types.PARSE_ERROR, message="Parse error: the line is not valid JSON"),
        )
    request_id: str | int | None = None
    for error in errors:
        found = error.get("input")
        candidate = found.get("id") if isinstance(found, dict) else None
        if isinstance(candidate, str) or (isinstance(candidate, int) and not isinstance(candidate, bool)):
            request_id = candidate
            break
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=types.ErrorData(
            code=types.INVALID_REQUEST,
            message="Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response",
        ),
    )


def _annotations(spec: ToolSpec) -> types.ToolAnnotations:
    a = spec.annotations
    return types.ToolAnnotations(
        read_only_hint=a.read_only,
        destructive_hint=a.destructive,
        idempotent_hint=a.idempotent,
        open_world_hint=a.open_world,
    )


class MCPService:
    """A scope's tools as an MCP server.

    Args:
        scope: What every session of this server sees (chosen services, or one task).
        manager: Holds the sessions.
        stdio: True when one client talks over stdio (one session, no session ids).
        page_size: Tools per ``tools/list`` page.
        seed: Episode seed of new sessions.
    """

    def __init__(
        self,
        scope: Scope,
        manager: SessionManager,
        *,
        stdio: bool,
        page_size: int = DEFAULT_PAGE_SIZE,
        seed: int = 0,
    ) -> None:
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self.scope = scope
        self.manager = manager
        self.stdio = stdio
        self.page_size = page_size
        self.seed = seed
        self._tools: list[types.Tool] = []
        self._wrapped: set[str] = set()
        for spec in scope.tool_specs():
            output, wrapped = object_output(spec.output_schema)
            if wrapped:
                self._wrapped.add(spec.name)
            self._tools.append(
                types.Tool(
                    name=spec.name,
                    description=spec.description,
                    input_schema=spec.input_schema,
                    output_schema=output,
                    annotations=_annotations(spec),
                )
            )
        # MCP session id <-> our session id, for live sessions only; recently dropped keys are remembered apart.
        self._by_key: dict[str, str] = {}
        self._key_of: dict[str, str] = {}
        self._expired_keys: OrderedDict[str, bool] = OrderedDict()
        manager.on_close.append(self._forget)
        self.server: Server[Any] = Server(
            "compoworld",
            version=__version__,
            instructions=self.instructions(),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        if not stdio:
            self.server.add_request_handler("server/discover", types.RequestParams, self._discover)

    def instructions(self) -> str:
        """What the server tells a client at connection: the task's instruction, or the services offered."""
        task = self.scope.task
        finding = (
            f" The services' tools are not listed: find them with {SEARCH_TOOLS} (describe what the tool does) "
            f"and run one by the exact name a search returned with {CALL_TOOL}."
            if self.scope.discovery
            else ""
        )
        if task is not None:
            return (
                f"{task.instruction}\n\nUse the tools to do this.{finding} When everything is done, call "
                f"{SUBMIT_TOOL} once with your final answer; it returns the verdict and ends the task."
            )
        services = ", ".join(self.scope.services)
        return (
            f"CompoWorld services: {services}. Each MCP session works on its own private "
            "copy of a seeded world: what you write is seen by you only. A failed call changes nothing and "
            f"returns an error that says what to do instead.{finding}"
        )

    # -- handlers ---------------------------------------------------------------------

    async def _discover(
        self, ctx: ServerRequestContext[Any], params: types.RequestParams | None
    ) -> types.DiscoverResult:
        # Session state needs a session: advertise the handshake versions only, so clients initialize.
        return types.DiscoverResult(
            supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
            capabilities=self.server.get_capabilities(),
            instructions=self.server.instructions,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        cursor = params.cursor if params is not None else None
        start = 0
        if cursor is not None:
            if len(cursor) > 9 or not cursor.isdigit() or int(cursor) >= len(self._tools):
                raise MCPError(types.INVALID_PARAMS, f"invalid cursor {cursor[:40]!r}")
            start = int(cursor)
        end = start + self.page_size
        return types.ListToolsResult(
            tools=self._tools[start:end],
            next_cursor=str(end) if end < len(self._tools) else None,
        )

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            session = self._session(ctx)
            outcome = session.call(params.name, params.arguments)
        except ServeError as exc:
            return _error_result(exc.to_dict())
        except Exception as exc:  # the server must answer, whatever went wrong
            return _error_result(
                {
                    "type": "internal_error",
                    "message": f"{type(exc).__name__}: {exc}",
                    "field": None,
                    "hint": "this is a fault of the server, not of the call",
                }
            )
        if not outcome.ok:
            assert outcome.error is not None
            return _error_result(dict(outcome.error.to_dict()))
        structured = {"result": outcome.result} if params.name in self._wrapped else outcome.result
        return types.CallToolResult(content=_text(outcome.result), structured_content=structured)

    # -- sessions ---------------------------------------------------------------------

    def _key(self, ctx: ServerRequestContext[Any]) -> str:
        if self.stdio:
            return STDIO_SESSION
        headers = getattr(ctx.request, "headers", None)
        key = headers.get("mcp-session-id") if headers is not None else None
        if not key:
            raise ServeError(
                "no_session",
                "this server keeps one private episode per MCP session, and this request has none",
                "connect with the initialize handshake (mode='legacy' or 'auto' in the SDK's Client)",
            )
        return str(key)

    def _session(self, ctx: ServerRequestContext[Any]) -> Session:
        key = self._key(ctx)
        if self._expired_keys.pop(key, False):
            raise ServeError(
                "session_expired",
                "this MCP session's episode was idle too long and was dropped, with everything it wrote",
                "go on: your next call starts a fresh episode",
            )
        sid = self._by_key.get(key)
        if sid is not None:
            return self.manager.get(sid)
        session = self.manager.create(self.scope, seed=self.seed)
        self._by_key[key] = session.id
        self._key_of[session.id] = key
        return session

    def _forget(self, session: Session) -> None:
        """Drop the key of a session the manager dropped; remember it for a while to say it expired."""
        key = self._key_of.pop(session.id, None)
        if key is None:
            return
        self._by_key.pop(key, None)
        self._expired_keys[key] = True
        while len(self._expired_keys) > _KEYS_REMEMBERED:
            self._expired_keys.popitem(last=False)

    # -- running ----------------------------------------------------------------------

    async def run_stdio(self) -> None:
        """Serve one client over stdin and stdout until it disconnects.

        Lines the SDK's transport cannot read as a JSON-RPC message are answered here with a JSON-RPC
        error (see :func:`_unreadable_line_error`); the SDK would drop them without a word.
        """
        import anyio
        from mcp.server.stdio import stdio_server
        from mcp.shared.message import SessionMessage

        async with stdio_server() as (read_stream, write_stream):
            screened_send, screened = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def screen() -> None:
                async with screened_send:
                    async for item in read_stream:
                        if not isinstance(item, Exception):
                            await screened_send.send(item)
                            continue
                        error = _unreadable_line_error(item)
                        if error is None:
                            continue
                        try:
                            await write_stream.send(SessionMessage(error))
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            return  # the server is shutting down

            async with anyio.create_task_group() as tg:
                tg.start_soon(screen)
                await self.server.run(screened, write_stream, self.server.create_initialization_options())
                tg.cancel_scope.cancel()

    def http_app(self, *, host: str, token: str | None, max_body_bytes: int) -> Any:
        """The streamable-HTTP ASGI app (path ``/mcp``), behind a bearer token when one is given.

        Args:
            host: The bound host (loopback turns on the SDK's DNS-rebinding protection).
            token: Required bearer token, or None.
            max_body_bytes: Largest request body.
        """
        from compoworld.serve.security import BearerTokenMiddleware, JsonErrorsMiddleware

        limits = self.manager.limits
        app: Any = self.server.streamable_http_app(
            host=host,
            max_request_body_size=max_body_bytes,
            session_idle_timeout=limits.idle_timeout_s,
            max_sessions=limits.max_sessions,
        )
        # The SDK answers some refusals (a wrong Host or Origin, a body too large, an unknown path) in plain text.
        app = JsonErrorsMiddleware(app, jsonrpc_http_error)
        return BearerTokenMiddleware(app, token) if token else app
