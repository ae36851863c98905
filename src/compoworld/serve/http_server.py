"""The HTTP server: sessions, tool calls and the uniform state interface as a JSON API.

``create_app`` builds a FastAPI app over a :class:`~compoworld.serve.sessions.ServeBackend`:

=========================================================  ====================================
``GET /health``, ``GET /info``                              liveness and counters; what is served
``POST /sessions``                                          open a session (services or a task)
``GET /sessions/{id}``, ``DELETE /sessions/{id}``           describe, close
``GET /sessions/{id}/tools``                                its tools with their JSON Schemas
``POST /sessions/{id}/tools/{tool}``                        call a tool (body: the arguments)
``GET /sessions/{id}/diff[?since=snap]``                    records added, updated, removed
``POST /sessions/{id}/reset``                               back to the initial state
``POST /sessions/{id}/snapshots``                           take a snapshot
``POST /sessions/{id}/snapshots/{snap}/restore``            restore it; ``DELETE`` forgets it
``POST /sessions/{id}/evaluate``                            the task's rubric verdict
=========================================================  ====================================

The OpenAPI description (``/openapi.json``) documents one operation per tool,
whose request and response bodies are the tool's own parameter and result
schemas. Every answer that is not a success is JSON
``{"ok": false, "error": {"type", "message", "field", "hint"}}`` with a 4xx
status: malformed JSON 400, missing token 401, unknown session, service, task,
tool or record 404, an expired session 410, a state conflict 409, an oversized body 413,
invalid arguments 422, too many sessions 429, a fault of the server 500; every
operation documents each of them, and a request that is not valid HTTP gets a
JSON 400 too (see :mod:`compoworld.serve.listen`). A tool's domain rule that the
current state breaks (a refund above the charge) is a conflict, 409.

Handlers are ``async`` and never await while they hold a session, so each
session's episode is only ever touched by one request at a time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from compoworld.engine.version import __version__
from compoworld.serve.schemas import Components
from compoworld.serve.security import BearerTokenMiddleware, BodyLimitMiddleware, error_body
from compoworld.serve.sessions import (
    MAX_ANSWER_CHARS,
    TASK_TOOLS,
    Evaluation,
    ServeBackend,
    ServeError,
    SessionManager,
    ToolSpec,
)

__all__ = ["ERROR_STATUS", "create_app"]

ERROR_STATUS: dict[str, int] = {
    # session-level refusals
    "unknown_session": 404,
    "session_expired": 410,
    "session_limit": 429,
    "unknown_snapshot": 404,
    "snapshot_limit": 409,
    "write_limit": 409,
    "not_a_task": 409,
    "task_submitted": 409,
    "unknown_task": 404,
    "unknown_service": 404,
    "no_session": 400,
    # a tool call's own failures
    "unknown_tool": 404,
    "invalid_arguments": 422,
    "not_found": 404,
    "conflict": 409,
    "rule_violation": 409,
    "internal_error": 500,
}
"""The HTTP status of each error type."""

# Every status an operation can answer besides its success (401 is added with a token); 500 is a fault of the server.
_DOCUMENTED_ERRORS = (400, 404, 409, 410, 413, 422, 429, 500)
SessionId = Annotated[str, Path(max_length=64, description="The session's id.")]
SnapshotId = Annotated[str, Path(max_length=64, description="The snapshot's id.")]


class ErrorDetail(BaseModel):
    """What went wrong, in a form a client or an agent can act on."""

    type: str = Field(description="A stable code: unknown_session, invalid_arguments, not_found, ...")
    message: str = Field(description="What went wrong.")
    field: str | None = Field(default=None, description="The argument at fault, if one is.")
    hint: str = Field(default="", description="What to do instead.")


class ErrorResponse(BaseModel):
    """Every answer that is not a success."""

    ok: Literal[False] = False
    error: ErrorDetail


class CreateSession(BaseModel):
    """A session of chosen services, or of one task loaded by the server (not both)."""

    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"not": {"required": ["services", "task_id"]}}
    )

    services: list[Annotated[str, Field(min_length=1, max_length=100)]] | None = Field(
        default=None, min_length=1, max_length=200, description="Services to offer (default: every loaded one)."
    )
    task_id: str | None = Field(default=None, min_length=1, max_length=200, description="A task loaded by the server.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Episode seed.")

    @field_validator("seed", mode="before")
    @classmethod
    def _integral_seed(cls, value: object) -> object:
        # JSON Schema counts 5.0 as an integer; strict mode would refuse it (booleans stay refused).
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> CreateSession:
        if {"services", "task_id"} <= self.model_fields_set:
            raise ValueError("give services or task_id, not both")
        return self


class SessionInfo(BaseModel):
    """A session."""

    session_id: str
    services: list[str]
    task_id: str | None
    instruction: str | None = Field(description="The task's instruction, for a task session.")
    tools: list[str] = Field(description="The tools it offers.")
    calls: int
    writes: int = Field(description="Successful write calls since the last reset.")
    snapshots: list[str]
    submitted: bool = Field(description="A task session's final answer was submitted.")
    state_hash: str
    idle_timeout_s: float | None = Field(description="Unused this long, the session is dropped.")


class ToolAnnotationsModel(BaseModel):
    """A tool's side effects."""

    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool


class ToolInfo(BaseModel):
    """A tool and its schemas."""

    name: str
    description: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the arguments.")
    result: dict[str, Any] = Field(description="JSON Schema of the result.")
    annotations: ToolAnnotationsModel


class ToolList(BaseModel):
    """A session's tools."""

    tools: list[ToolInfo]


class RecordChangeModel(BaseModel):
    """An updated record."""

    id: str
    changed: list[str]
    before: dict[str, Any]
    after: dict[str, Any]


class TableChanges(BaseModel):
    """Records added, updated and removed in one table."""

    added: list[dict[str, Any]]
    updated: list[RecordChangeModel]
    removed: list[dict[str, Any]]


class DiffResponse(BaseModel):
    """What changed since the initial state (or a snapshot)."""

    tables: dict[str, TableChanges]
    counts: dict[str, dict[str, int]]
    state_hash: str


class StateResponse(BaseModel):
    """A session's state after reset or restore."""

    session_id: str
    state_hash: str
    writes: int


class SnapshotResponse(BaseModel):
    """A snapshot taken."""

    snapshot_id: str
    state_hash: str


class EvaluateRequest(BaseModel):
    """The final answer to check along with the state."""

    model_config = ConfigDict(extra="forbid", strict=True)

    answer: str = Field(default="", max_length=MAX_ANSWER_CHARS, description="The agent's final answer.")


class Health(BaseModel):
    """Liveness and counters."""

    status: Literal["ok"] = "ok"
    sessions: int
    created: int
    expired: int
    closed: int
    calls: int
    allocated_blocks: int = Field(description="Memory blocks the interpreter holds (falls back when sessions go).")


class ServerInfo(BaseModel):
    """What the server offers."""

    version: str
    services: list[str]
    tasks: list[str]
    tools: int
    world_seed: int
    max_sessions: int
    idle_timeout_s: float | None
    max_body_bytes: int


def _error(status: int, type_: str, message: str, hint: str = "") -> JSONResponse:
    return JSONResponse(error_body(type_, message, hint), status_code=status)


def _serve_error(exc: ServeError) -> JSONResponse:
    return JSONResponse({"ok": False, "error": exc.to_dict()}, status_code=ERROR_STATUS.get(exc.type, 400))


def _responses() -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorResponse} for code in _DOCUMENTED_ERRORS}


def _info(manager: SessionManager, session_id: str) -> SessionInfo:
    session = manager.get(session_id)
    return SessionInfo(**session.info(), idle_timeout_s=manager.limits.idle_timeout_s)


def _tool_info(spec: ToolSpec) -> ToolInfo:
    a = spec.annotations
    return ToolInfo(
        name=spec.name,
        description=spec.description,
        parameters=spec.input_schema,
        result=spec.output_schema,
        annotations=ToolAnnotationsModel(
            read_only=a.read_only, destructive=a.destructive, idempotent=a.idempotent, open_world=a.open_world
        ),
    )


def _all_specs(backend: ServeBackend) -> list[ToolSpec]:
    specs = [ToolSpec.of(t) for t in backend.catalog.tools.values()]
    if backend.tasks:
        scope = backend.scope_for_task(next(iter(backend.tasks)))
        specs.extend(s for s in scope.tool_specs() if s.name in TASK_TOOLS)
    return specs


def _tool_operations(backend: ServeBackend, doc: dict[str, Any]) -> None:
    """Add one documented operation per tool, with the tool's schemas, to an OpenAPI document."""
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    components = Components(reserved=schemas)
    error_ref = {"$ref": "#/components/schemas/ErrorResponse"}
    errors = {
        str(code): {"description": "Error", "content": {"application/json": {"schema": error_ref}}}
        for code in _DOCUMENTED_ERRORS
    }
    session_param = {
        "name": "session_id",
        "in": "path",
        "required": True,
        "description": "The session's id.",
        "schema": {"type": "string", "maxLength": 64},
    }
    for spec in _all_specs(backend):
        params = components.add(spec.input_schema)
        result = components.add(spec.output_schema)
        a = spec.annotations
        doc["paths"][f"/sessions/{{session_id}}/tools/{spec.name}"] = {
            "post": {
                "tags": [spec.name.split("__", 1)[0]],
                "operationId": f"call_{spec.name}",
                "summary": spec.description.split("\n", 1)[0][:120],
                "description": spec.description,
                "parameters": [session_param],
                # Without a body the arguments are {}: the body is required only when an argument is.
                "requestBody": {
                    "required": bool(params.get("required")),
                    "content": {"application/json": {"schema": params}},
                },
                "responses": {
                    "200": {
                        "description": "The tool's result.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"ok": {"const": True}, "result": result},
                                    "required": ["ok", "result"],
                                }
                            }
                        },
                    },
                    **errors,
                },
                "x-compoworld-annotations": {
                    "read_only": a.read_only,
                    "destructive": a.destructive,
                    "idempotent": a.idempotent,
                    "open_world": a.open_world,
                },
            }
        }
    schemas.update(components.schemas)


def create_app(
    backend: ServeBackend,
    manager: SessionManager | None = None,
    *,
    token: str | None = None,
) -> FastAPI:
    """Build the HTTP server's ASGI app.

    Args:
        backend: What it serves.
        manager: Its sessions (default: a manager with default limits).
        token: Bearer token every request must carry (None: no token; only for loopback).

    Returns:
        The FastAPI app; ``app.state.manager`` holds the sessions.
    """
    manager = manager if manager is not None else SessionManager()
    app = _new_app(backend, manager, token)
    _add_error_handlers(app)
    errors = _responses()
    # The groups are added in this order because it is the order of the routes, hence of /openapi.json's paths.
    _add_meta_routes(app, backend, manager, errors)
    _add_session_routes(app, backend, manager, errors)
    _add_tool_routes(app, manager, errors)
    _add_state_routes(app, manager, errors)
    _add_task_routes(app, manager, errors)
    _install_openapi(app, backend, token)
    return app


def _new_app(backend: ServeBackend, manager: SessionManager, token: str | None) -> FastAPI:
    """The bare app: its description, its state, a lifespan that closes the sessions, and the middleware."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.close_all()

    app = FastAPI(
        title="CompoWorld",
        version=__version__,
        description="Isolated sessions over CompoWorld's services: call tools, read state diffs, snapshot, "
        "restore and evaluate tasks.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.backend = backend
    app.add_middleware(BodyLimitMiddleware, max_bytes=manager.limits.max_body_bytes)
    if token:
        app.add_middleware(BearerTokenMiddleware, token=token)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """Answer every failure, the server's own and the framework's, with the JSON error body."""

    @app.exception_handler(ServeError)
    async def on_serve_error(request: Request, exc: ServeError) -> JSONResponse:
        return _serve_error(exc)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error(400, "malformed_json", "the request body is not valid JSON", "send one JSON object")
        first = errors[0] if errors else {}
        loc = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _error(422, "invalid_request", f"{loc or 'request'}: {first.get('msg', 'invalid')}", "see /openapi.json")

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {404: "unknown_route", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        response = _error(exc.status_code, kind, str(exc.detail), "see /openapi.json")
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # Starlette names the first matching route's methods only
            allowed = {
                m
                for route in app.router.routes
                if isinstance(route, BaseRoute) and route.matches(request.scope)[0] == Match.PARTIAL
                for m in getattr(route, "methods", None) or ()
            }
            response.headers["Allow"] = ", ".join(sorted(allowed))
        return response

    @app.exception_handler(Exception)
    async def on_bug(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, "internal_error", f"{type(exc).__name__}: {exc}", "this is a fault of the server")


def _add_meta_routes(
    app: FastAPI, backend: ServeBackend, manager: SessionManager, errors: dict[int | str, dict[str, Any]]
) -> None:
    """``GET /health`` and ``GET /info``."""

    @app.get("/health", response_model=Health, responses=errors)
    async def health() -> Health:
        """Liveness and counters of sessions and calls."""
        return Health(**manager.stats(), allocated_blocks=sys.getallocatedblocks())

    @app.get("/info", response_model=ServerInfo, responses=errors)
    async def info() -> ServerInfo:
        """The services and tasks this server offers, and its limits."""
        limits = manager.limits
        return ServerInfo(
            version=__version__,
            services=list(backend.catalog.services),
            tasks=list(backend.tasks),
            tools=len(backend.catalog.tools),
            world_seed=backend.seed,
            max_sessions=limits.max_sessions,
            idle_timeout_s=limits.idle_timeout_s,
            max_body_bytes=limits.max_body_bytes,
        )


def _add_session_routes(
    app: FastAPI, backend: ServeBackend, manager: SessionManager, errors: dict[int | str, dict[str, Any]]
) -> None:
    """``POST /sessions``, ``GET`` and ``DELETE /sessions/{id}``."""

    @app.post("/sessions", status_code=201, response_model=SessionInfo, responses=errors)
    async def create_session(body: CreateSession) -> SessionInfo:
        """Open a session: its own episode over chosen services, or over one loaded task."""
        if body.task_id is not None:
            scope = backend.scope_for_task(body.task_id)
        else:
            scope = backend.scope_for_services(body.services)
        session = manager.create(scope, seed=body.seed)
        return SessionInfo(**session.info(), idle_timeout_s=manager.limits.idle_timeout_s)

    @app.get("/sessions/{session_id}", response_model=SessionInfo, responses=errors)
    async def get_session(session_id: SessionId) -> SessionInfo:
        """Describe a session."""
        return _info(manager, session_id)

    @app.delete("/sessions/{session_id}", status_code=204, response_class=Response, responses=errors)
    async def close_session(session_id: SessionId) -> Response:
        """Close a session and free its episode."""
        manager.close(session_id)
        return Response(status_code=204)


def _add_tool_routes(app: FastAPI, manager: SessionManager, errors: dict[int | str, dict[str, Any]]) -> None:
    """``GET /sessions/{id}/tools`` and ``POST /sessions/{id}/tools/{tool}``."""

    @app.get("/sessions/{session_id}/tools", response_model=ToolList, responses=errors)
    async def list_tools(session_id: SessionId) -> ToolList:
        """A session's tools, with their parameter and result JSON Schemas."""
        session = manager.get(session_id)
        return ToolList(tools=[_tool_info(s) for s in session.scope.tool_specs()])

    async def call_tool(request: Request) -> JSONResponse:
        """Call a tool; the body is its arguments (documented per tool in /openapi.json).

        A plain Starlette route: the hottest path skips FastAPI's dependency solving.
        """
        session = manager.get(request.path_params["session_id"])
        raw = await request.body()
        arguments: Any = {}
        if raw.strip():
            try:
                arguments = json.loads(raw)
            except (ValueError, RecursionError):
                return _error(
                    400, "malformed_json", "the request body is not valid JSON", "send the arguments as one JSON object"
                )
            if not isinstance(arguments, dict):
                return _error(
                    422, "invalid_arguments", "the body must be a JSON object of arguments", "send e.g. {} for none"
                )
        outcome = session.call(request.path_params["tool_name"], arguments)
        if outcome.ok:
            return JSONResponse({"ok": True, "result": outcome.result})
        assert outcome.error is not None
        return JSONResponse(
            {"ok": False, "error": outcome.error.to_dict()}, status_code=ERROR_STATUS.get(outcome.error.type, 400)
        )

    app.add_route("/sessions/{session_id}/tools/{tool_name}", call_tool, methods=["POST"], include_in_schema=False)


def _add_state_routes(app: FastAPI, manager: SessionManager, errors: dict[int | str, dict[str, Any]]) -> None:
    """A session's state: its diff, reset, and snapshots taken, restored and dropped."""

    @app.get("/sessions/{session_id}/diff", response_model=DiffResponse, responses=errors)
    async def diff(
        session_id: SessionId,
        since: Annotated[
            str | None, Query(max_length=64, description="A snapshot id (default: the initial state).")
        ] = None,
    ) -> JSONResponse:
        """Records added, updated and removed, per table."""
        session = manager.get(session_id)
        d = session.diff(since)
        return JSONResponse({"tables": d.to_dict(), "counts": d.counts(), "state_hash": session.episode.state_hash()})

    @app.post("/sessions/{session_id}/reset", response_model=StateResponse, responses=errors)
    async def reset(session_id: SessionId) -> StateResponse:
        """Drop every write: back to the world's initial state (snapshots are kept)."""
        session = manager.get(session_id)
        session.reset()
        return StateResponse(session_id=session.id, state_hash=session.episode.state_hash(), writes=session.writes)

    @app.post("/sessions/{session_id}/snapshots", status_code=201, response_model=SnapshotResponse, responses=errors)
    async def snapshot(session_id: SessionId) -> SnapshotResponse:
        """Take a snapshot of the current state."""
        session = manager.get(session_id)
        snap = session.snapshot()
        return SnapshotResponse(snapshot_id=snap, state_hash=session.episode.state_hash())

    @app.post("/sessions/{session_id}/snapshots/{snapshot_id}/restore", response_model=StateResponse, responses=errors)
    async def restore(session_id: SessionId, snapshot_id: SnapshotId) -> StateResponse:
        """Return to a snapshot's state."""
        session = manager.get(session_id)
        session.restore(snapshot_id)
        return StateResponse(session_id=session.id, state_hash=session.episode.state_hash(), writes=session.writes)

    @app.delete(
        "/sessions/{session_id}/snapshots/{snapshot_id}", status_code=204, response_class=Response, responses=errors
    )
    async def drop_snapshot(session_id: SessionId, snapshot_id: SnapshotId) -> Response:
        """Forget a snapshot."""
        manager.get(session_id).drop_snapshot(snapshot_id)
        return Response(status_code=204)


def _add_task_routes(app: FastAPI, manager: SessionManager, errors: dict[int | str, dict[str, Any]]) -> None:
    """``POST /sessions/{id}/evaluate``: a task session's rubric verdict."""

    @app.post("/sessions/{session_id}/evaluate", response_model=Evaluation, responses=errors)
    async def evaluate(session_id: SessionId, body: EvaluateRequest) -> Evaluation:
        """Check the task's rubric on the current state and a final answer (changes nothing)."""
        return manager.get(session_id).evaluate(body.answer)


def _install_openapi(app: FastAPI, backend: ServeBackend, token: str | None) -> None:
    """Make ``app.openapi()`` build the document once: the routes', one operation per tool, and the token's scheme."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            _tool_operations(backend, doc)
            if token:
                _bearer_security(doc)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _bearer_security(doc: dict[str, Any]) -> None:
    """Declare the bearer token in an OpenAPI document, and the 401 answer of every operation."""
    doc["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
    doc["security"] = [{"bearer": []}]
    for path in doc["paths"].values():
        for op in path.values():
            op["responses"].setdefault(
                "401",
                {
                    "description": "Missing or wrong token",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
                },
            )
