"""The MCP server, driven by clients the project did not write: the TypeScript and Python SDKs' own.

The TypeScript SDK client (``@modelcontextprotocol/sdk``, pinned in ``interop/package.json``, the client
most MCP hosts are built on) runs in node through ``interop/mcp_client.mjs``; the Python SDK client
runs in this process. Each, over stdio and over streamable HTTP, lists every page of tools and makes
the same calls: reads (one with a non-object result), a write, an unknown tool, an unknown id, invalid
arguments, a broken rule; and a task session through submit and past it. Every failed call must come
back as an ``isError`` result whose text is the structured error, never as an exception: the
TypeScript client validates any structured content against the tool's output schema, so an error
result must carry none.

``make test`` installs the npm package (``npm ci --prefix tests/serve/interop``). Outside CI a missing
node or package skips these tests with the reason; in CI (``CI`` set) it fails them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters

from compoworld import Catalog
from compoworld.serve.bench import ServerProcess
from compoworld.serve.sessions import INSTRUCTION_TOOL, SUBMIT_TOOL
from compoworld.tasks.task import Task, task_answer
from tests.serve_support import SERVICES, make_task_set

pytestmark = pytest.mark.slow  # every test starts a server process or a node client

INTEROP = Path(__file__).parent / "interop"
TS_SDK = "@modelcontextprotocol/sdk"
TS_SDK_VERSION = "1.32.2"
STDIO_SERVICES = "crm,mail,calendar"  # the issue's own server: 83 tools, 9 pages of 10
STDIO_PAGE_SIZE = 10
TIMEOUT_S = 240.0

LEAD = {"first_name": "Ada", "last_name": "Byron", "company": "Engines Ltd", "email": "ada@engines.example.com"}
ROOMS = {"start": "2026-03-10T10:00:00Z", "end": "2026-03-10T11:00:00Z"}
# The calls of a services session, and what each must give: the structured result's check, or an error type.
SERVICE_CALLS: list[tuple[str, dict[str, Any], str | None]] = [
    ("crm__get_account", {"account_id": "acc_000001"}, None),  # 0: a read
    ("calendar__find_available_rooms", ROOMS, None),  # 1: a read whose result is an array (wrapped)
    ("crm__create_lead", LEAD, None),  # 2: a write
    ("crm__get_lead", {"lead_id": {"$result": 2, "key": "id"}}, None),  # 3: reads the write back
    ("crm__disqualify_lead", {"lead_id": {"$result": 2, "key": "id"}}, None),  # 4: a state change
    ("crm__disqualify_lead", {"lead_id": {"$result": 2, "key": "id"}}, "rule_violation"),  # 5: twice
    ("crm__create_leed", LEAD, "unknown_tool"),  # 6
    ("crm__get_account", {"account_id": "nope"}, "not_found"),  # 7: an unknown id
    ("crm__update_account", {"account_id": "acc_000001", "industry": 5}, "invalid_arguments"),  # 8
    ("crm__create_lead", {"first_name": "Ada"}, "invalid_arguments"),  # 9: arguments missing
    ("crm__create_lead", LEAD, "conflict"),  # 10: the same e-mail again
]


def require_ts_client() -> None:
    """Skip outside CI when node or the pinned TypeScript SDK is missing; in CI fail instead."""
    missing = []
    if shutil.which("node") is None:
        missing.append("node")
    manifest = INTEROP / "node_modules" / TS_SDK / "package.json"
    if not manifest.exists():
        missing.append(f"{TS_SDK} (npm ci --prefix tests/serve/interop; make test runs it)")
    elif json.loads(manifest.read_text())["version"] != TS_SDK_VERSION:
        missing.append(f"{TS_SDK} {TS_SDK_VERSION} (npm ci --prefix tests/serve/interop)")
    if missing and not os.environ.get("CI"):
        pytest.skip(f"needs {', '.join(missing)}")
    assert not missing, f"CI must run the interop tests: {missing} missing"


def _server_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "compoworld", "serve", "mcp", *args]


# -- the two clients ------------------------------------------------------------------------------


def _resolve(value: Any, calls: list[dict[str, Any]]) -> Any:
    """Argument values that name an earlier call's result field, as ``mcp_client.mjs`` resolves them."""
    if isinstance(value, list):
        return [_resolve(v, calls) for v in value]
    if isinstance(value, dict):
        if "$result" in value:
            return (calls[value["$result"]].get("result") or {}).get("structuredContent", {}).get(value["key"])
        return {k: _resolve(v, calls) for k, v in value.items()}
    return value


def run_typescript(target: dict[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Drive the server with the TypeScript SDK client; its report (see ``mcp_client.mjs``)."""
    require_ts_client()
    plan = {**target, "calls": calls, "timeout_ms": int(TIMEOUT_S * 1000)}
    done = subprocess.run(
        ["node", str(INTEROP / "mcp_client.mjs"), json.dumps(plan)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S + 30,
        cwd=INTEROP,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def run_python(target: dict[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Drive the server with the Python SDK client; a report of the same shape as the TypeScript one."""
    if target["transport"] == "stdio":
        server: Any = StdioServerParameters(command=target["command"], args=target["args"], env=dict(os.environ))
    else:
        server = target["url"]
    report: dict[str, Any] = {"pages": 0, "tools": [], "calls": []}

    async def main() -> None:
        with anyio.fail_after(TIMEOUT_S):
            async with Client(server) as client:
                cursor: str | None = None
                while True:
                    page = await client.list_tools(cursor=cursor)
                    report["pages"] += 1
                    for tool in page.tools:
                        annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True)
                        report["tools"].append(
                            {
                                "name": tool.name,
                                "outputSchema": tool.output_schema is not None,
                                "annotations": annotations,
                            }
                        )
                    cursor = page.next_cursor
                    if cursor is None:
                        break
                for call in calls:
                    arguments = _resolve(call["arguments"], report["calls"])
                    try:
                        result = await client.call_tool(call["name"], arguments)
                    except (MCPError, RuntimeError) as exc:
                        thrown = {"name": type(exc).__name__, "code": getattr(exc, "code", None), "message": str(exc)}
                        report["calls"].append({"name": call["name"], "thrown": thrown})
                    else:
                        wire = result.model_dump(by_alias=True, mode="json", exclude_none=True)
                        report["calls"].append({"name": call["name"], "result": wire})

    anyio.run(main)
    return report


CLIENTS = {"typescript": run_typescript, "python": run_python}


# -- what every report must show -----------------------------------------------------------------


def _success(entry: dict[str, Any]) -> Any:
    """The structured result of a successful call, checked against its text content."""
    assert "thrown" not in entry, entry
    result = entry["result"]
    assert not result.get("isError"), result
    structured = result["structuredContent"]
    assert result["content"][0]["type"] == "text"
    assert json.loads(result["content"][0]["text"]) in (structured, structured.get("result"))
    return structured


def _error(entry: dict[str, Any], type_: str) -> dict[str, Any]:
    """The structured error of a failed call: an ``isError`` result, its text the error, no structured content."""
    assert "thrown" not in entry, f"{entry['name']}: the client threw instead of returning the error: {entry}"
    result = entry["result"]
    assert result.get("isError") is True, result
    assert "structuredContent" not in result, result
    assert [block["type"] for block in result["content"]] == ["text"]
    body = json.loads(result["content"][0]["text"])
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message", "field", "hint"}, body
    assert body["error"]["type"] == type_, body
    assert body["error"]["message"], body
    return dict(body["error"])


def check_services_report(report: dict[str, Any], tools: list[str], page_size: int) -> None:
    """The listing is complete and in order, and every call gave what it must."""
    assert [t["name"] for t in report["tools"]] == tools
    assert report["pages"] == -(-len(tools) // page_size)
    assert all(t["outputSchema"] for t in report["tools"])
    by_name = {t["name"]: t["annotations"] for t in report["tools"]}
    assert by_name["crm__get_account"]["readOnlyHint"] is True
    assert by_name["crm__create_lead"]["readOnlyHint"] is False
    assert by_name["crm__delete_lead"]["destructiveHint"] is True
    calls = report["calls"]
    assert [c["name"] for c in calls] == [name for name, _, _ in SERVICE_CALLS]
    for entry, (_, _, error) in zip(calls, SERVICE_CALLS, strict=True):
        if error is None:
            _success(entry)
        else:
            _error(entry, error)
    assert _success(calls[0])["id"] == "acc_000001"
    rooms = _success(calls[1])
    assert set(rooms) == {"result"} and isinstance(rooms["result"], list) and rooms["result"]
    lead = _success(calls[2])
    assert lead["email"] == LEAD["email"]
    assert _success(calls[3])["id"] == lead["id"]
    assert _success(calls[4])["status"] == "disqualified"
    assert "crm__create_lead" in _error(calls[6], "unknown_tool")["hint"]
    assert _error(calls[7], "not_found")["field"] == "account_id"
    assert _error(calls[8], "invalid_arguments")["field"] == "industry"
    assert "required" in _error(calls[9], "invalid_arguments")["hint"]


def task_calls(task: Task) -> list[dict[str, Any]]:
    """A task session's calls: the instruction, a bad submission, the solution, the answer, one call too many."""
    calls: list[dict[str, Any]] = [
        {"name": INSTRUCTION_TOOL, "arguments": {}},
        {"name": SUBMIT_TOOL, "arguments": {"answer": 5}},
    ]
    calls += [{"name": step.tool, "arguments": step.arguments} for step in task.solution]
    calls += [
        {"name": SUBMIT_TOOL, "arguments": {"answer": task_answer(task)}},
        {"name": task.solution[0].tool, "arguments": task.solution[0].arguments},
    ]
    return calls


def check_task_report(report: dict[str, Any], task: Task) -> None:
    """The task's tools are listed, the solution works, the verdict passes, and the task is then final."""
    assert [t["name"] for t in report["tools"]] == [*task.tools, INSTRUCTION_TOOL, SUBMIT_TOOL]
    calls = report["calls"]
    assert _success(calls[0])["instruction"] == task.instruction
    assert _error(calls[1], "invalid_arguments")["field"] == "answer"
    for entry in calls[2:-2]:
        _success(entry)
    verdict = _success(calls[-2])
    assert verdict["passed"] is True and verdict["score"] == 1.0
    assert [c["id"] for c in verdict["criteria"]] == [c.id for c in task.criteria]
    _error(calls[-1], "task_submitted")


# -- the servers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog_tools() -> list[str]:
    return list(Catalog.load().tools)


@pytest.fixture(scope="module")
def full_server() -> Iterator[ServerProcess]:
    """Every service over streamable HTTP (the default page size: 26 pages)."""
    with ServerProcess([], kind="mcp", start_timeout_s=TIMEOUT_S) as server:
        yield server


@pytest.fixture(scope="module")
def task_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Task]]:
    return make_task_set(tmp_path_factory.mktemp("tasks"))


@pytest.fixture(scope="module")
def task_server(task_set: tuple[Path, list[Task]]) -> Iterator[ServerProcess]:
    path, tasks = task_set
    args = ["--task", f"{path}:{tasks[0].id}", "--services", ",".join(SERVICES)]
    with ServerProcess(args, kind="mcp", start_timeout_s=TIMEOUT_S) as server:
        yield server


def _service_calls() -> list[dict[str, Any]]:
    return [{"name": name, "arguments": arguments} for name, arguments, _ in SERVICE_CALLS]


# -- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("client", list(CLIENTS))
def test_over_http_every_page_of_the_full_catalog_lists_and_every_error_is_a_readable_tool_result(
    client: str, full_server: ServerProcess, catalog_tools: list[str]
) -> None:
    report = CLIENTS[client]({"transport": "http", "url": full_server.url}, _service_calls())
    check_services_report(report, catalog_tools, page_size=100)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_over_stdio_every_page_lists_and_every_error_is_a_readable_tool_result(client: str) -> None:
    tools = [t.name for s in STDIO_SERVICES.split(",") for t in Catalog.load([s]).tools_of(s)]
    args = ["--services", STDIO_SERVICES, "--page-size", str(STDIO_PAGE_SIZE)]
    target = {"transport": "stdio", "command": sys.executable, "args": _server_command(*args)[1:]}
    report = CLIENTS[client](target, _service_calls())
    check_services_report(report, tools, page_size=STDIO_PAGE_SIZE)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_over_http_a_task_session_is_solved_submitted_and_then_final(
    client: str, task_server: ServerProcess, task_set: tuple[Path, list[Task]]
) -> None:
    task = task_set[1][0]
    report = CLIENTS[client]({"transport": "http", "url": task_server.url}, task_calls(task))
    check_task_report(report, task)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_over_stdio_a_task_session_is_solved_submitted_and_then_final(
    client: str, task_set: tuple[Path, list[Task]]
) -> None:
    path, tasks = task_set
    task = tasks[0]
    args = ["--task", f"{path}:{task.id}", "--services", ",".join(SERVICES)]
    target = {"transport": "stdio", "command": sys.executable, "args": _server_command(*args)[1:]}
    report = CLIENTS[client](target, task_calls(task))
    check_task_report(report, task)
