"""Both servers answer arguments outside the schema, invalid text included, with a structured error, and go on.

A lone surrogate gets in as the JSON escape ``"\\ud800"``: valid JSON text, invalid Unicode. Over HTTP it
is a 422 before any write (never a 500 after one). Over MCP the SDK's transport reads JSON with a parser
that refuses such an escape, so the message never reaches the tools; what matters there is that an answer
comes at all and the server goes on. Every wait here is bounded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from compoworld import Catalog
from compoworld.serve import ServeBackend, ServeLimits, SessionManager
from compoworld.serve.http_server import create_app
from compoworld.serve.mcp_server import MCPService
from tests.invalid_text_support import field_of, holding_invalid_text, invalid_text
from tests.serve.stdio_support import StdioServer

ACCOUNT = "acc_000001"
TOOL = "crm__update_account"
_OUTSIDE_THE_SCHEMA = [
    ("crm__list_accounts", {"limit": "5"}, "limit"),
    ("crm__list_accounts", {"limit": True}, "limit"),
    ("crm__update_account", {"account_id": ACCOUNT, "industry": 5}, "industry"),
    ("crm__update_opportunity", {"opportunity_id": "opp_000001", "close_date": 0}, "close_date"),
]
_SETTINGS = settings(
    max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def invalid_update(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """Arguments of a valid account update but for invalid text in one place, and that place's path."""
    kind = draw(st.sampled_from(["industry", "address", "name"]))
    value, inner = draw(holding_invalid_text())
    args: dict[str, Any] = {"account_id": ACCOUNT, "industry": "logistics"}
    if kind == "industry":
        args["industry"] = value
        return args, field_of(["industry", *inner])
    if kind == "address":
        address = {"street": "1 Main Street", "city": "Berlin", "postal_code": "10115", "country": "DE"}
        at = draw(st.sampled_from(sorted(address)))
        address[at] = value
        args["billing_address"] = address
        return args, field_of(["billing_address", at, *inner])
    name = draw(invalid_text)  # an argument named with invalid text
    args[name] = "x"
    return args, field_of([name])


@pytest.fixture(scope="module")
def backend() -> ServeBackend:
    return ServeBackend(Catalog.load(["crm"]))


# -- HTTP --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(backend: ServeBackend) -> Iterator[TestClient]:
    with TestClient(create_app(backend, SessionManager(ServeLimits(max_sessions=64)))) as client:
        yield client


def _assert_error(body: dict[str, Any], field: str | None) -> None:
    assert body["ok"] is False and set(body["error"]) == {"type", "message", "field", "hint"}
    assert body["error"]["type"] == "invalid_arguments", body
    assert body["error"]["field"] == field and body["error"]["hint"]


@_SETTINGS
@given(case=invalid_update())
def test_over_http_invalid_text_is_a_422_before_any_write_and_the_session_goes_on(
    http: TestClient, case: tuple[dict[str, Any], str]
) -> None:
    arguments, field = case
    sid = http.post("/sessions", json={"services": ["crm"]}).json()["session_id"]
    try:
        start = http.get(f"/sessions/{sid}").json()["state_hash"]
        # json.dumps writes a lone surrogate as its \\u escape: the body is valid JSON (and ASCII).
        body = json.dumps(arguments).encode()
        r = http.post(f"/sessions/{sid}/tools/{TOOL}", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        _assert_error(r.json(), field)
        info = http.get(f"/sessions/{sid}")
        assert info.status_code == 200 and info.json()["state_hash"] == start and info.json()["writes"] == 0
        diff = http.get(f"/sessions/{sid}/diff")
        assert diff.status_code == 200 and diff.json()["tables"] == {}
        ok = http.post(f"/sessions/{sid}/tools/{TOOL}", json={"account_id": ACCOUNT, "industry": "logistics"})
        assert ok.status_code == 200, ok.text
    finally:
        http.delete(f"/sessions/{sid}")


@pytest.mark.parametrize(("tool", "arguments", "field"), _OUTSIDE_THE_SCHEMA)
def test_over_http_a_value_outside_the_schema_is_a_422(
    http: TestClient, tool: str, arguments: dict[str, Any], field: str
) -> None:
    sid = http.post("/sessions", json={"services": ["crm"]}).json()["session_id"]
    try:
        r = http.post(f"/sessions/{sid}/tools/{tool}", json=arguments)
        assert r.status_code == 422, r.text
        _assert_error(r.json(), field)
        assert http.get(f"/sessions/{sid}").json()["writes"] == 0
    finally:
        http.delete(f"/sessions/{sid}")


# -- MCP ---------------------------------------------------------------------------------------------


def _error_of(result: Any) -> dict[str, Any]:
    """The structured error of an error result, read from its JSON text block."""
    assert result.is_error
    error = json.loads(result.content[0].text)["error"]
    assert set(error) == {"type", "message", "field", "hint"}
    return dict(error)


@pytest.mark.parametrize(("tool", "arguments", "field"), _OUTSIDE_THE_SCHEMA)
def test_over_mcp_a_value_outside_the_schema_is_an_error_result_before_any_write(
    backend: ServeBackend, tool: str, arguments: dict[str, Any], field: str
) -> None:
    service = MCPService(backend.scope_for_services(), SessionManager(), stdio=True)

    probes = [("crm__get_account", {"account_id": ACCOUNT}), ("crm__get_opportunity", {"opportunity_id": "opp_000001"})]

    async def main() -> None:
        with anyio.fail_after(60):
            async with Client(service.server) as client:
                before = [(await client.call_tool(*probe)).content[0].text for probe in probes]
                error = _error_of(await client.call_tool(tool, arguments))
                assert error["type"] == "invalid_arguments" and error["field"] == field, error
                after = [(await client.call_tool(*probe)).content[0].text for probe in probes]
                assert after == before  # nothing was written

    anyio.run(main)


def _call(tool: str, arguments_json: str) -> str:
    return f'{{"name": "{tool}", "arguments": {arguments_json}}}'


def test_over_mcp_stdio_a_lone_surrogate_gets_an_answer_and_the_server_goes_on() -> None:
    server = StdioServer("--services", "crm")
    try:
        init = {
            "protocolVersion": HANDSHAKE_PROTOCOL_VERSIONS[-1],
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        }
        assert "result" in server.request("initialize", json.dumps(init), timeout_s=120)
        server.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        probe = _call("crm__get_account", f'{{"account_id": "{ACCOUNT}"}}')
        before = server.request("tools/call", probe)["result"]
        for arguments in (
            f'{{"account_id": "{ACCOUNT}", "industry": "a\\ud800b"}}',
            f'{{"account_id": "{ACCOUNT}", "industry": ["ok", "\\udfff"]}}',
            f'{{"account_id": "{ACCOUNT}", "\\udbff": 1}}',
            f'{{"account_id": "{ACCOUNT}", "billing_address": {{"\\ud800": "x"}}}}',
        ):
            answer = server.request("tools/call", _call(TOOL, arguments))
            # Refused either way: as a tool's error result, or as a message the server could not read.
            assert answer.get("error") or answer["result"]["isError"] is True, answer
            if "result" in answer:
                error = json.loads(answer["result"]["content"][0]["text"])["error"]
                assert error["type"] == "invalid_arguments", error
        assert server.request("tools/call", probe)["result"] == before  # answered, and nothing was written
    finally:
        server.close()
