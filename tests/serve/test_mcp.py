"""The MCP server, driven by the official SDK's own client over stdio and over streamable HTTP."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from compoworld import Catalog
from compoworld.serve import ServeBackend, SessionManager
from compoworld.serve.bench import ServerProcess
from compoworld.serve.mcp_server import MCPService
from compoworld.serve.sessions import INSTRUCTION_TOOL, SUBMIT_TOOL
from compoworld.tasks.task import Task, task_answer
from tests.serve_support import SERVICES, make_task_set

pytestmark = pytest.mark.slow  # every test starts a server process

LEAD = {"first_name": "Ada", "last_name": "Byron", "company": "Engines Ltd", "email": "ada@engines.example.com"}


@pytest.fixture(scope="module")
def task_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Task]]:
    return make_task_set(tmp_path_factory.mktemp("tasks"))


def _stdio(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "compoworld", "serve", "mcp", *args])


def _run(main: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(120):
            await main()

    anyio.run(bounded)


async def _all_tools(client: Client) -> tuple[list[Any], int]:
    """Every listed tool, following the cursor, and the number of pages."""
    tools: list[Any] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            return tools, pages


def _error(result: Any) -> dict[str, Any]:
    """The structured error of a tool error result: its one text block, never structured content."""
    assert result.is_error and result.structured_content is None
    body = json.loads(result.content[0].text)
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message", "field", "hint"}
    return dict(body["error"])


async def _solve(client: Client, task: Task) -> None:
    for step in task.solution:
        result = await client.call_tool(step.tool, step.arguments)
        assert not result.is_error, result.content


def test_over_stdio_tools_page_calls_succeed_and_bad_calls_are_tool_errors() -> None:
    crm = [t.name for t in Catalog.load(["crm"]).tools_of("crm")]

    async def main() -> None:
        async with Client(_stdio("--services", "crm", "--page-size", "10")) as client:
            tools, pages = await _all_tools(client)
            assert [t.name for t in tools] == crm
            assert pages == -(-len(crm) // 10)
            create = next(t for t in tools if t.name == "crm__create_lead")
            assert create.input_schema["type"] == "object" and "email" in create.input_schema["required"]
            assert create.output_schema is not None and create.output_schema["type"] == "object"
            assert create.annotations is not None and create.annotations.read_only_hint is False
            ok = await client.call_tool("crm__create_lead", LEAD)
            assert not ok.is_error
            assert ok.structured_content is not None and ok.structured_content["email"] == LEAD["email"]
            bad = _error(await client.call_tool("crm__create_lead", {"first_name": "Ada"}))
            assert bad["type"] == "invalid_arguments"
            assert "required" in bad["hint"]
            unknown = _error(await client.call_tool("crm__create_leed", {}))
            assert unknown["type"] == "unknown_tool"
            assert "crm__create_lead" in unknown["hint"]
            missing = await client.call_tool("crm__get_lead", {"lead_id": "lead_999999"})
            assert _error(missing)["type"] == "not_found"
            # The write of the first call is still there: the failed calls changed nothing.
            again = await client.call_tool("crm__get_lead", {"lead_id": ok.structured_content["id"]})
            assert not again.is_error
            with pytest.raises(MCPError):
                await client.list_tools(cursor="not-a-cursor")

    _run(main)


def test_over_stdio_a_task_session_is_solved_submitted_and_scored(task_set: tuple[Path, list[Task]]) -> None:
    path, tasks = task_set
    task = tasks[0]

    async def main() -> None:
        args = ("--task", f"{path}:{task.id}", "--services", ",".join(SERVICES))
        async with Client(_stdio(*args)) as client:
            tools, _ = await _all_tools(client)
            assert [t.name for t in tools] == [*task.tools, INSTRUCTION_TOOL, SUBMIT_TOOL]
            instruction = await client.call_tool(INSTRUCTION_TOOL, {})
            assert instruction.structured_content["instruction"] == task.instruction
            await _solve(client, task)
            verdict = await client.call_tool(SUBMIT_TOOL, {"answer": task_answer(task)})
            assert not verdict.is_error
            assert verdict.structured_content["passed"] is True and verdict.structured_content["score"] == 1.0
            assert [c["id"] for c in verdict.structured_content["criteria"]] == [c.id for c in task.criteria]
            late = await client.call_tool(task.solution[0].tool, task.solution[0].arguments)
            assert _error(late)["type"] == "task_submitted"

    _run(main)


@pytest.fixture(scope="module")
def crm_server() -> Iterator[ServerProcess]:
    with ServerProcess(["--services", "crm"], kind="mcp") as server:
        yield server


def test_over_http_two_sessions_never_see_each_others_writes(crm_server: ServerProcess) -> None:
    async def main() -> None:
        async with Client(crm_server.url) as a, Client(crm_server.url) as b:
            assert len((await a.list_tools()).tools) == 31
            lead = await a.call_tool("crm__create_lead", LEAD)
            assert not lead.is_error
            lead_id = lead.structured_content["id"]
            hidden = await b.call_tool("crm__get_lead", {"lead_id": lead_id})
            assert _error(hidden)["type"] == "not_found"
            seen = await a.call_tool("crm__get_lead", {"lead_id": lead_id})
            assert not seen.is_error and seen.structured_content["email"] == LEAD["email"]
            listed = await b.call_tool("crm__list_leads", {"email": LEAD["email"]})
            assert listed.structured_content["items"] == []
            bad = await b.call_tool("crm__create_lead", {"email": "not an e-mail"})
            assert _error(bad)["type"] == "invalid_arguments"

    _run(main)


def test_over_http_a_stateless_request_can_list_but_not_call(crm_server: ServerProcess) -> None:
    async def main() -> None:
        async with Client(crm_server.url, mode="2026-07-28") as client:
            assert len((await client.list_tools()).tools) == 31
            refused = await client.call_tool("crm__list_leads", {})
            assert _error(refused)["type"] == "no_session"

    _run(main)


def test_over_http_task_sessions_are_scored_apart(task_set: tuple[Path, list[Task]]) -> None:
    path, tasks = task_set
    task = tasks[1]
    args = ["--task", f"{path}:{task.id}", "--services", ",".join(SERVICES)]

    async def main(url: str) -> None:
        async with Client(url) as solver, Client(url) as idler:
            await _solve(solver, task)
            idle = await idler.call_tool(SUBMIT_TOOL, {"answer": ""})
            assert idle.structured_content["passed"] is False
            solved = await solver.call_tool(SUBMIT_TOOL, {"answer": task_answer(task)})
            assert solved.structured_content["passed"] is True
            again = await idler.call_tool(SUBMIT_TOOL, {"answer": task_answer(task)})
            assert again.structured_content == idle.structured_content  # the first submission is final

    with ServerProcess(args, kind="mcp") as server:
        _run(lambda: main(server.url))


def test_over_http_the_token_is_required_when_set() -> None:
    with ServerProcess(["--services", "crm"], kind="mcp", token="s3cret") as server:
        refused = httpx.post(server.url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert refused.status_code == 401 and refused.json()["error"]["type"] == "unauthorized"

        async def main() -> None:
            http = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"})
            async with http, Client(streamable_http_client(server.url, http_client=http)) as client:
                assert len((await client.list_tools()).tools) == 31

        _run(main)


def test_in_discovery_mode_only_search_tools_and_call_tool_are_listed_and_a_task_is_solved_through_them(
    task_set: tuple[Path, list[Task]],
) -> None:
    path, tasks = task_set
    task = tasks[0]
    backend = ServeBackend.load(SERVICES, task_files=[path])
    services = MCPService(backend.scope_for_services(discovery=True), SessionManager(), stdio=True)
    solving = MCPService(backend.scope_for_task(task.id, discovery=True), SessionManager(), stdio=True)

    async def main() -> None:
        async with Client(services.server) as client:
            tools, _ = await _all_tools(client)
            assert [t.name for t in tools] == ["search_tools", "call_tool"]
            assert tools[0].annotations.read_only_hint is True and tools[1].annotations.destructive_hint is True
            found = await client.call_tool("search_tools", {"query": "find the contact with this e-mail address"})
            assert not found.is_error and found.structured_content["results"][0]["name"] == "crm__find_contact_by_email"
            assert found.structured_content["tools"] == len(backend.catalog.tools)
            lead = await client.call_tool("call_tool", {"name": "crm__create_lead", "arguments": LEAD})
            assert not lead.is_error and lead.structured_content["result"]["email"] == LEAD["email"]
            assert _error(await client.call_tool("crm__create_lead", LEAD))["type"] == "unknown_tool"
            missing = _error(await client.call_tool("call_tool", {"name": "crm__nope", "arguments": {}}))
            assert missing["type"] == "unknown_tool" and "search_tools" in missing["hint"]
            bad = _error(await client.call_tool("call_tool", {"name": "crm__create_lead", "arguments": {"x": 1}}))
            assert bad["type"] == "invalid_arguments"
        async with Client(solving.server) as client:
            tools, _ = await _all_tools(client)
            assert [t.name for t in tools] == ["search_tools", "call_tool", INSTRUCTION_TOOL, SUBMIT_TOOL]
            assert "search_tools" in solving.instructions()
            for step in task.solution:
                found = await client.call_tool("search_tools", {"query": step.tool, "top_k": 2})
                assert found.structured_content["results"][0]["name"] == step.tool
                result = await client.call_tool("call_tool", {"name": step.tool, "arguments": step.arguments})
                assert not result.is_error, result.content
            verdict = await client.call_tool(SUBMIT_TOOL, {"answer": task_answer(task)})
            assert verdict.structured_content["passed"] is True

    _run(main)


def test_serve_mcp_discovery_over_stdio_lists_the_meta_tools() -> None:
    async def main() -> None:
        async with Client(_stdio("--services", "crm", "--discovery")) as client:
            tools, _ = await _all_tools(client)
            assert [t.name for t in tools] == ["search_tools", "call_tool"]
            found = await client.call_tool("search_tools", {"query": "look up an account", "top_k": 1})
            assert found.structured_content["results"][0]["name"] == "crm__get_account"

    _run(main)
