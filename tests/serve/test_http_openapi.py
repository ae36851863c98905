"""Every answer of the HTTP server, errors included, validates against its own OpenAPI document.

A scripted session goes through every route and every error status the server can give (400, 401,
404, 405, 409, 410, 413, 422, 429, 500) and records each request and response; then openapi-core, a
validator the project did not write, checks each response against ``app.openapi()``: its status is
documented for the operation, and its body and content type are what the document says. An answer
on a path or method the document has no operation for (an unknown route or tool, a wrong method) is
checked against the document's ``ErrorResponse`` schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openapi_core import OpenAPI
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS31Validator

from compoworld import Catalog
from compoworld.serve import ServeBackend, ServeLimits, SessionManager
from compoworld.serve.http_server import create_app
from compoworld.serve.sessions import INSTRUCTION_TOOL, SUBMIT_TOOL, Session
from compoworld.tasks.task import Task, task_answer
from tests.serve_support import SERVICES, make_task_set

LEAD = {"first_name": "Ada", "last_name": "Byron", "company": "Engines Ltd", "email": "ada@engines.example.com"}
TOKEN = "s3cret"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Exchange:
    method: str
    path: str
    query: dict[str, str]
    body: bytes
    status: int
    content_type: str
    data: bytes

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status} {self.data[:300]!r}"


class Recorder:
    """A test client that keeps every request and response."""

    def __init__(self, client: TestClient, headers: dict[str, str] | None = None) -> None:
        self.client = client
        self.headers = headers or {}
        self.exchanges: list[Exchange] = []

    def __call__(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        content: bytes | None = None,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        body = content if content is not None else (json.dumps(json_body).encode() if json_body is not None else b"")
        request_headers = {**self.headers, **(headers or {})}
        if body and "content-type" not in {k.lower() for k in request_headers}:
            request_headers["content-type"] = "application/json"
        r = self.client.request(method, path, content=body or None, params=params, headers=request_headers)
        self.exchanges.append(
            Exchange(method, path, params or {}, body, r.status_code, r.headers.get("content-type", ""), r.content)
        )
        return r


def _ok(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return r.json() if r.content else {}


def _err(r: Any, status: int, type_: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["type"] == type_, r.text


@pytest.fixture(scope="module")
def task_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Task]]:
    return make_task_set(tmp_path_factory.mktemp("tasks"))


@pytest.fixture(scope="module")
def backend(task_set: tuple[Path, list[Task]]) -> ServeBackend:
    return ServeBackend(Catalog.load(SERVICES), tasks=task_set[1])


def _script(call: Recorder, clock: FakeClock, task: Task) -> None:
    """Every route, with every answer it can give."""
    _ok(call("GET", "/health"), 200)
    _ok(call("GET", "/info"), 200)
    # POST /sessions: 201, 400, 404 (service, task), 413, 422, 429
    sid = _ok(call("POST", "/sessions", json_body={"services": ["crm", "mail"], "seed": 0}), 201)["session_id"]
    _ok(call("POST", "/sessions", json_body={}), 201)
    _err(call("POST", "/sessions", content=b"{not json"), 400, "malformed_json")
    _err(call("POST", "/sessions", json_body={"services": ["nope"]}), 404, "unknown_service")
    _err(call("POST", "/sessions", json_body={"task_id": "nope"}), 404, "unknown_task")
    _err(call("POST", "/sessions", content=b'{"services": ["' + b"x" * 70_000 + b'"]}'), 413, "too_large")
    _err(call("POST", "/sessions", json_body={"services": ["crm"], "task_id": task.id}), 422, "invalid_request")
    _err(call("POST", "/sessions", json_body={"seed": "seven"}), 422, "invalid_request")
    # GET/DELETE /sessions/{id}: 200, 204, 404, 410, 422
    _ok(call("GET", f"/sessions/{sid}"), 200)
    _err(call("GET", "/sessions/no-such-session"), 404, "unknown_session")
    _err(call("GET", f"/sessions/{'x' * 65}"), 422, "invalid_request")
    doomed = _ok(call("POST", "/sessions", json_body={"services": ["crm"]}), 201)["session_id"]
    assert call("DELETE", f"/sessions/{doomed}").status_code == 204
    _err(call("DELETE", f"/sessions/{doomed}"), 404, "unknown_session")
    # GET /sessions/{id}/tools
    _ok(call("GET", f"/sessions/{sid}/tools"), 200)
    _err(call("GET", "/sessions/no-such-session/tools"), 404, "unknown_session")
    # POST /sessions/{id}/tools/{tool}: 200 (read, write, a non-object result), 400, 404, 409, 413, 422
    tool = f"/sessions/{sid}/tools"
    lead = _ok(call("POST", f"{tool}/crm__create_lead", json_body=LEAD), 200)["result"]
    _ok(call("POST", f"{tool}/crm__get_lead", json_body={"lead_id": lead["id"]}), 200)
    _ok(call("POST", f"{tool}/crm__list_leads"), 200)
    mailbox = _ok(call("POST", f"{tool}/mail__list_mailboxes", json_body={}), 200)["result"]["items"][0]["id"]
    found = _ok(call("POST", f"{tool}/mail__search_messages", json_body={"mailbox_id": mailbox}), 200)
    assert isinstance(found["result"], list)
    _ok(call("POST", f"{tool}/crm__disqualify_lead", json_body={"lead_id": lead["id"]}), 200)
    _err(call("POST", f"{tool}/crm__disqualify_lead", json_body={"lead_id": lead["id"]}), 409, "rule_violation")
    _err(call("POST", f"{tool}/crm__get_account", json_body={"account_id": "nope"}), 404, "not_found")
    _err(
        call("POST", f"{tool}/crm__update_account", json_body={"account_id": "x", "industry": 5}),
        422,
        "invalid_arguments",
    )
    _err(call("POST", f"{tool}/crm__create_lead", json_body=["a", "list"]), 422, "invalid_arguments")
    _err(call("POST", f"{tool}/crm__create_lead", content=b"{not json"), 400, "malformed_json")
    _err(call("POST", f"{tool}/crm__create_lead", content=b"x" * 70_000), 413, "too_large")
    _err(call("POST", f"{tool}/crm__create_leed", json_body=LEAD), 404, "unknown_tool")
    _err(call("POST", f"{tool}/{SUBMIT_TOOL}", json_body={"answer": ""}), 404, "unknown_tool")
    _err(call("POST", "/sessions/no-such-session/tools/crm__get_lead", json_body={}), 404, "unknown_session")
    # a fault of the server is a documented 500 in the same shape
    with pytest.MonkeyPatch.context() as m:

        def broken(self: Session, name: str, arguments: Any = None) -> Any:
            raise RuntimeError("boom")

        m.setattr(Session, "call", broken)
        _err(call("POST", f"{tool}/crm__list_leads", json_body={}), 500, "internal_error")
    # the state routes: diff, reset, snapshots
    _ok(call("GET", f"/sessions/{sid}/diff"), 200)
    snap = _ok(call("POST", f"/sessions/{sid}/snapshots"), 201)["snapshot_id"]
    _ok(call("GET", f"/sessions/{sid}/diff", params={"since": snap}), 200)
    _err(call("GET", f"/sessions/{sid}/diff", params={"since": "snap-99"}), 404, "unknown_snapshot")
    _err(call("GET", f"/sessions/{sid}/diff", params={"since": "s" * 65}), 422, "invalid_request")
    _ok(call("POST", f"/sessions/{sid}/snapshots/{snap}/restore"), 200)
    _err(call("POST", f"/sessions/{sid}/snapshots/snap-99/restore"), 404, "unknown_snapshot")
    for _ in range(3):
        call("POST", f"/sessions/{sid}/snapshots")
    _err(call("POST", f"/sessions/{sid}/snapshots"), 409, "snapshot_limit")
    assert call("DELETE", f"/sessions/{sid}/snapshots/{snap}").status_code == 204
    _err(call("DELETE", f"/sessions/{sid}/snapshots/{snap}"), 404, "unknown_snapshot")
    _ok(call("POST", f"/sessions/{sid}/reset"), 200)
    _err(call("POST", "/sessions/no-such-session/reset"), 404, "unknown_session")
    # a conflict with the state, then the write limit
    _ok(call("POST", f"{tool}/crm__create_lead", json_body=LEAD), 200)
    _err(call("POST", f"{tool}/crm__create_lead", json_body=LEAD), 409, "conflict")
    for n in range(2):
        _ok(call("POST", f"{tool}/crm__create_lead", json_body={**LEAD, "email": f"ada{n}@engines.example.com"}), 200)
    _err(
        call("POST", f"{tool}/crm__create_lead", json_body={**LEAD, "email": "ada9@engines.example.com"}),
        409,
        "write_limit",
    )
    # evaluate and submit: a task session
    _err(call("POST", f"/sessions/{sid}/evaluate", json_body={"answer": "x"}), 409, "not_a_task")
    tid = _ok(call("POST", "/sessions", json_body={"task_id": task.id}), 201)["session_id"]
    _ok(call("POST", f"/sessions/{tid}/tools/{INSTRUCTION_TOOL}", json_body={}), 200)
    for step in task.solution:
        _ok(call("POST", f"/sessions/{tid}/tools/{step.tool}", json_body=step.arguments), 200)
    _ok(call("POST", f"/sessions/{tid}/evaluate", json_body={"answer": task_answer(task)}), 200)
    _err(call("POST", f"/sessions/{tid}/evaluate"), 422, "invalid_request")  # the body is required
    _err(call("POST", f"/sessions/{tid}/evaluate", json_body={"answer": 5}), 422, "invalid_request")
    _err(call("POST", f"/sessions/{tid}/evaluate", content=b"{not json"), 400, "malformed_json")
    _err(call("POST", f"/sessions/{tid}/tools/{SUBMIT_TOOL}", json_body={"answer": 5}), 422, "invalid_arguments")
    submitted = _ok(call("POST", f"/sessions/{tid}/tools/{SUBMIT_TOOL}", json_body={"answer": task_answer(task)}), 200)
    assert submitted["result"]["passed"] is True
    step = task.solution[0]
    _err(call("POST", f"/sessions/{tid}/tools/{step.tool}", json_body=step.arguments), 409, "task_submitted")
    # routes and methods the document has no operation for
    _err(call("GET", "/no/such/route"), 404, "unknown_route")
    _err(call("PUT", "/sessions"), 405, "method_not_allowed")
    _err(call("GET", f"{tool}/crm__get_lead"), 405, "method_not_allowed")
    # 429: too many sessions; 410: an idle session dropped
    while (r := call("POST", "/sessions", json_body={"services": ["crm"]})).status_code == 201:
        pass
    _err(r, 429, "session_limit")
    clock.now += 10_000
    _err(call("GET", f"/sessions/{sid}"), 410, "session_expired")
    _err(call("POST", f"{tool}/crm__list_leads", json_body={}), 410, "session_expired")


@pytest.fixture(scope="module")
def recorded(
    backend: ServeBackend, task_set: tuple[Path, list[Task]]
) -> Iterator[tuple[dict[str, Any], list[Exchange]]]:
    clock = FakeClock()
    limits = ServeLimits(max_sessions=6, idle_timeout_s=600.0, max_snapshots=4, max_writes=3, max_body_bytes=50_000)
    app = create_app(backend, SessionManager(limits, clock=clock))
    with TestClient(app, raise_server_exceptions=False) as client:
        call = Recorder(client)
        _script(call, clock, task_set[1][0])
        yield app.openapi(), call.exchanges


@pytest.fixture(scope="module")
def recorded_with_token(backend: ServeBackend) -> tuple[dict[str, Any], list[Exchange]]:
    app = create_app(backend, SessionManager(), token=TOKEN)
    with TestClient(app) as client:
        call = Recorder(client)
        _err(call("GET", "/health"), 401, "unauthorized")
        _err(call("POST", "/sessions", json_body={}), 401, "unauthorized")
        _err(
            call("POST", "/sessions/x/tools/crm__get_lead", json_body={}, headers={"Authorization": "Bearer no"}),
            401,
            "unauthorized",
        )
        authorized = Recorder(client, {"Authorization": f"Bearer {TOKEN}"})
        sid = _ok(authorized("POST", "/sessions", json_body={"services": ["crm"]}), 201)["session_id"]
        _ok(authorized("POST", f"/sessions/{sid}/tools/crm__list_leads", json_body={}), 200)
        return app.openapi(), call.exchanges + authorized.exchanges


def _validate(doc: dict[str, Any], exchanges: list[Exchange]) -> list[str]:
    openapi = OpenAPI.from_dict(doc)
    error_schema = {"$ref": "#/components/schemas/ErrorResponse", "components": doc["components"]}
    error_validator = OAS31Validator(error_schema)
    failures: list[str] = []
    for ex in exchanges:
        request = MockRequest("http://testserver", ex.method, ex.path, args=ex.query, data=ex.body)
        response = MockResponse(ex.data, status_code=ex.status, content_type=ex.content_type)
        try:
            openapi.validate_response(request, response)
        except (PathNotFound, OperationNotFound):
            # No operation to check against: the answer must be a documented error body.
            problems = [e.message for e in error_validator.iter_errors(json.loads(ex.data))]
            if ex.status < 400 or not ex.content_type.startswith("application/json") or problems:
                failures.append(f"{ex} (undocumented operation): {problems}")
        except Exception as exc:
            failures.append(f"{ex}: {type(exc).__name__}: {exc} {getattr(exc, '__cause__', '')!r}")
    return failures


def test_every_answer_of_a_scripted_session_validates_against_the_openapi_document(
    recorded: tuple[dict[str, Any], list[Exchange]],
) -> None:
    doc, exchanges = recorded
    statuses = {ex.status for ex in exchanges}
    assert statuses >= {200, 201, 204, 400, 404, 405, 409, 410, 413, 422, 429, 500}, statuses
    assert _validate(doc, exchanges) == []


def test_with_a_token_every_answer_validates_too_401_included(
    recorded_with_token: tuple[dict[str, Any], list[Exchange]],
) -> None:
    doc, exchanges = recorded_with_token
    assert {ex.status for ex in exchanges} >= {200, 201, 401}
    assert _validate(doc, exchanges) == []
