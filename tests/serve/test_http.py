"""The HTTP server: isolated sessions, the state interface, task evaluation, clean 4xx answers, its OpenAPI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from compoworld import Catalog
from compoworld.cli import app as cli_app
from compoworld.serve import InsecureBind, ServeBackend, ServeLimits, SessionManager, check_bind
from compoworld.serve.http_server import create_app
from compoworld.serve.sessions import SUBMIT_TOOL, TASK_TOOLS
from compoworld.tasks.task import Task, task_answer
from tests.serve_support import SERVICES, make_task_set


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def task_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Task]]:
    return make_task_set(tmp_path_factory.mktemp("tasks"))


@pytest.fixture(scope="module")
def backend(task_set: tuple[Path, list[Task]]) -> ServeBackend:
    return ServeBackend(Catalog.load(SERVICES), tasks=task_set[1])


def _client(backend: ServeBackend, **limits: Any) -> tuple[TestClient, SessionManager, FakeClock]:
    clock = FakeClock()
    manager = SessionManager(ServeLimits(**{"max_sessions": 8, "max_body_bytes": 50_000, **limits}), clock=clock)
    return TestClient(create_app(backend, manager)), manager, clock


@pytest.fixture
def client(backend: ServeBackend) -> Iterator[TestClient]:
    client, _, _ = _client(backend)
    with client:
        yield client


def _session(client: TestClient, **body: Any) -> str:
    r = client.post("/sessions", json=body or {"services": ["crm"]})
    assert r.status_code == 201, r.text
    return str(r.json()["session_id"])


LEAD = {"first_name": "Ada", "last_name": "Byron", "company": "Engines Ltd", "email": "ada@engines.example.com"}


def _error(r: Any, status: int, type_: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["ok"] is False
    assert body["error"]["type"] == type_, body
    assert set(body["error"]) == {"type", "message", "field", "hint"}
    return dict(body["error"])


def test_a_session_calls_tools_and_reads_its_diff(client: TestClient, backend: ServeBackend) -> None:
    sid = _session(client)
    tools = client.get(f"/sessions/{sid}/tools").json()["tools"]
    assert [t["name"] for t in tools] == [t.name for t in backend.catalog.tools_of("crm")]
    assert all(t["parameters"]["type"] == "object" and t["result"] for t in tools)
    start = client.get(f"/sessions/{sid}").json()["state_hash"]
    r = client.post(f"/sessions/{sid}/tools/crm__create_lead", json=LEAD)
    assert r.status_code == 200 and r.json()["ok"] is True
    lead = r.json()["result"]
    diff = client.get(f"/sessions/{sid}/diff").json()
    assert diff["counts"] == {"crm.leads": {"added": 1, "updated": 0, "removed": 0}}
    assert diff["tables"]["crm.leads"]["added"][0]["id"] == lead["id"]
    assert diff["state_hash"] != start
    assert client.get(f"/sessions/{sid}").json()["writes"] == 1


def test_sessions_never_see_each_others_writes(client: TestClient) -> None:
    a, b = _session(client), _session(client)
    lead = client.post(f"/sessions/{a}/tools/crm__create_lead", json=LEAD).json()["result"]
    _error(client.post(f"/sessions/{b}/tools/crm__get_lead", json={"lead_id": lead["id"]}), 404, "not_found")
    assert client.get(f"/sessions/{b}/diff").json()["tables"] == {}
    assert client.post(f"/sessions/{a}/tools/crm__get_lead", json={"lead_id": lead["id"]}).json()["ok"] is True
    # The same write in b gets the same id: each session draws ids from its own episode.
    assert client.post(f"/sessions/{b}/tools/crm__create_lead", json=LEAD).json()["result"]["id"] == lead["id"]


def test_snapshots_restore_and_reset_move_the_state(backend: ServeBackend) -> None:
    client, _, _ = _client(backend, max_snapshots=2)
    with client:
        sid = _session(client)
        initial = client.get(f"/sessions/{sid}").json()["state_hash"]
        snap = client.post(f"/sessions/{sid}/snapshots")
        assert snap.status_code == 201
        snap_id = snap.json()["snapshot_id"]
        client.post(f"/sessions/{sid}/tools/crm__create_lead", json=LEAD)
        since = client.get(f"/sessions/{sid}/diff", params={"since": snap_id}).json()
        assert since["counts"]["crm.leads"]["added"] == 1
        restored = client.post(f"/sessions/{sid}/snapshots/{snap_id}/restore").json()
        assert restored["state_hash"] == initial
        client.post(f"/sessions/{sid}/tools/crm__create_lead", json=LEAD)
        assert client.post(f"/sessions/{sid}/reset").json()["state_hash"] == initial
        _error(client.post(f"/sessions/{sid}/snapshots/snap-99/restore"), 404, "unknown_snapshot")
        client.post(f"/sessions/{sid}/snapshots")
        _error(client.post(f"/sessions/{sid}/snapshots"), 409, "snapshot_limit")
        assert client.delete(f"/sessions/{sid}/snapshots/{snap_id}").status_code == 204
        assert client.post(f"/sessions/{sid}/snapshots").status_code == 201


def test_bad_requests_get_clean_json_4xx_answers(backend: ServeBackend) -> None:
    client, _, _ = _client(backend, max_sessions=3)
    with client:
        sid = _session(client)
        tool = f"/sessions/{sid}/tools/crm__create_lead"
        _error(client.post(tool, content=b"{not json"), 400, "malformed_json")
        _error(
            client.post("/sessions", content=b"{not json", headers={"content-type": "application/json"}),
            400,
            "malformed_json",
        )
        _error(client.post(tool, json=["a", "list"]), 422, "invalid_arguments")
        err = _error(client.post(tool, json={"first_name": "Ada"}), 422, "invalid_arguments")
        assert "required" in err["hint"]
        _error(client.post(f"/sessions/{sid}/tools/crm__create_leed", json=LEAD), 404, "unknown_tool")
        _error(client.post(f"/sessions/{sid}/tools/mail__send_message", json={}), 404, "unknown_tool")
        _error(client.post("/sessions/no-such-session/tools/crm__get_lead", json={}), 404, "unknown_session")
        _error(client.get("/sessions/no-such-session/diff"), 404, "unknown_session")
        _error(client.post(tool, content=b"x" * 60_000), 413, "too_large")
        _error(client.get("/no/such/route"), 404, "unknown_route")
        _error(client.post("/sessions", json={"services": ["nope"]}), 404, "unknown_service")
        _error(client.post("/sessions", json={"task_id": "nope"}), 404, "unknown_task")
        _error(client.post("/sessions", json={"services": ["crm"], "task_id": "x"}), 422, "invalid_request")
        _error(client.post("/sessions", json={"tasks_file": "/etc/passwd"}), 422, "invalid_request")
        _error(client.post(f"/sessions/{sid}/evaluate", json={"answer": "x"}), 409, "not_a_task")
        _session(client)
        _session(client)
        _error(client.post("/sessions", json={}), 429, "session_limit")
        assert client.delete(f"/sessions/{sid}").status_code == 204
        _error(client.get(f"/sessions/{sid}"), 404, "unknown_session")
        assert client.post("/sessions", json={}).status_code == 201


def test_idle_sessions_expire_and_free_their_slot(backend: ServeBackend) -> None:
    client, manager, clock = _client(backend, idle_timeout_s=30.0, max_sessions=1)
    with client:
        sid = _session(client)
        clock.now += 20
        assert client.get(f"/sessions/{sid}").status_code == 200  # use keeps it alive
        clock.now += 31
        _error(client.post(f"/sessions/{sid}/tools/crm__list_leads", json={}), 410, "session_expired")
        assert len(manager) == 0
        _session(client)
        clock.now += 31
        _session(client)  # the idle one is swept to make room
        health = client.get("/health").json()
        assert health["expired"] == 2 and health["sessions"] == 1


def test_a_task_session_is_evaluated_against_its_rubric(client: TestClient, task_set: tuple[Path, list[Task]]) -> None:
    task = task_set[1][0]
    sid = _session(client, task_id=task.id)
    info = client.get(f"/sessions/{sid}").json()
    assert info["instruction"] == task.instruction
    assert info["tools"] == [*task.tools, *TASK_TOOLS]
    nothing = client.post(f"/sessions/{sid}/evaluate", json={"answer": ""}).json()
    assert nothing["passed"] is False and nothing["score"] < 1.0
    for step in task.solution:
        r = client.post(f"/sessions/{sid}/tools/{step.tool}", json=step.arguments)
        assert r.status_code == 200, r.text
    done = client.post(f"/sessions/{sid}/evaluate", json={"answer": task_answer(task)}).json()
    assert done["passed"] is True and done["score"] == 1.0
    assert [v["id"] for v in done["criteria"]] == [c.id for c in task.criteria]
    submitted = client.post(f"/sessions/{sid}/tools/{SUBMIT_TOOL}", json={"answer": task_answer(task)}).json()
    assert submitted["ok"] is True and submitted["result"]["passed"] is True
    _error(
        client.post(f"/sessions/{sid}/tools/{task.solution[0].tool}", json=task.solution[0].arguments),
        409,
        "task_submitted",
    )
    client.post(f"/sessions/{sid}/reset")
    assert client.get(f"/sessions/{sid}").json()["submitted"] is False


def test_a_token_is_required_when_one_is_set(backend: ServeBackend) -> None:
    with TestClient(create_app(backend, SessionManager(), token="s3cret")) as client:
        _error(client.get("/health"), 401, "unauthorized")
        _error(client.get("/health", headers={"Authorization": "Bearer wrong"}), 401, "unauthorized")
        assert client.get("/health", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        doc = client.get("/openapi.json", headers={"Authorization": "Bearer s3cret"}).json()
        assert doc["security"] == [{"bearer": []}]


def test_serving_beyond_loopback_needs_a_token() -> None:
    check_bind("127.0.0.1", None)
    check_bind("::1", None)
    check_bind("localhost", None)
    check_bind("0.0.0.0", "t")
    for host in ("0.0.0.0", "::", "192.168.1.4", "example.com"):
        with pytest.raises(InsecureBind, match="token"):
            check_bind(host, None)
    result = CliRunner().invoke(
        cli_app, ["serve", "http", "--host", "0.0.0.0", "--port", "0"], env={"COMPOWORLD_TOKEN": ""}
    )
    assert result.exit_code == 2
    assert "token" in result.output


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_openapi_documents_every_tool_with_its_own_schemas(client: TestClient, backend: ServeBackend) -> None:
    doc = client.get("/openapi.json").json()
    for tool in backend.catalog.tools.values():
        op = doc["paths"][f"/sessions/{{session_id}}/tools/{tool.name}"]["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]
        assert set(body.get("properties", {})) == set(tool.parameters_schema.get("properties", {}))
        assert sorted(body.get("required", [])) == sorted(tool.parameters_schema.get("required", []))
        assert op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["result"]
    assert f"/sessions/{{session_id}}/tools/{SUBMIT_TOOL}" in doc["paths"]
    components = doc["components"]["schemas"]
    for ref in _refs(doc):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in components, ref
    # No operation takes a file name: parameters are ids, bodies are arguments and answers.
    names = {p["name"] for path in doc["paths"].values() for op in path.values() for p in op.get("parameters", [])}
    assert names == {"session_id", "snapshot_id", "since"}


# -- schemathesis over the whole OpenAPI description ---------------------------------------------
#
# Every operation is fuzzed (a few generated examples each). The session API and a few tools of every
# kind also go through schemathesis' coverage phase (boundary values, missing and wrongly typed parts);
# doing that for all 31 tools would multiply the run time by ten for little more.

_fuzz_backend = ServeBackend(Catalog.load(["crm"]))
_fuzz_manager = SessionManager(ServeLimits(max_sessions=64))
_fuzz_app = create_app(_fuzz_backend, _fuzz_manager)
_COVERED_TOOLS = r"/tools/crm__(list_leads|create_lead|get_lead|convert_lead)$"
_NOT_A_TOOL = r"^(?!.*/tools/)"
_with_coverage = schemathesis.openapi.from_asgi("/openapi.json", _fuzz_app)
_fuzz_only = schemathesis.openapi.from_asgi(
    "/openapi.json", _fuzz_app, config=schemathesis.Config.from_dict({"phases": {"coverage": {"enabled": False}}})
)
covered = _with_coverage.include(path_regex=f"{_NOT_A_TOOL}|{_COVERED_TOOLS}")
fuzzed = _fuzz_only.include(path_regex="/tools/").exclude(path_regex=_COVERED_TOOLS)
_live: list[str] = []


def _live_session() -> str:
    """A live session for the generated requests (recreated when a DELETE closed it)."""
    if not _live or _live[0] not in _fuzz_manager:
        _fuzz_manager.sweep()
        if len(_fuzz_manager) >= 60:
            _fuzz_manager.close_all()
        _live[:] = [_fuzz_manager.create(_fuzz_backend.scope_for_services()).id]
    return _live[0]


def _check(case: schemathesis.Case[Any]) -> None:
    """Every built-in check holds, response schemas included.

    Tool calls too refuse every value their schema does not allow (negative data): the schema is the contract.
    """
    if case.path_parameters and "session_id" in case.path_parameters:
        case.path_parameters["session_id"] = _live_session()
    case.call_and_validate()


@covered.parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_session_api_holds_under_generated_and_boundary_requests(case: schemathesis.Case[Any]) -> None:
    _check(case)


@fuzzed.parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_tool_operation_holds_under_generated_requests(case: schemathesis.Case[Any]) -> None:
    _check(case)
