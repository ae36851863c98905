"""Requests below the tools get JSON answers too: garbage on MCP's stdin, and requests that are not HTTP."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from compoworld.serve.bench import ServerProcess
from tests.serve.stdio_support import WAIT_S, StdioServer

pytestmark = pytest.mark.slow  # every test starts a server process

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


@pytest.fixture
def stdio_server() -> Iterator[StdioServer]:
    server = StdioServer("--services", "crm")
    try:
        yield server
    finally:
        server.close()


def _error(reply: dict[str, Any], code: int, id_: int | None = None) -> None:
    assert reply["jsonrpc"] == "2.0" and "result" not in reply, reply
    assert reply["id"] == id_, reply
    assert reply["error"]["code"] == code and reply["error"]["message"], reply


def test_garbage_lines_on_mcp_stdin_get_json_rpc_errors_and_the_session_goes_on(stdio_server: StdioServer) -> None:
    server = stdio_server
    server.send(b"not json at all\n")
    _error(server.reply(), -32700)  # a parse error even before the handshake
    server.send(INITIALIZE)
    assert server.reply()["result"]["serverInfo"]["name"] == "compoworld"
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    server.send(b"{bad json\n")
    _error(server.reply(), -32700)
    server.send(b"\xff\xfe\x00garbage\n")
    _error(server.reply(), -32700)
    server.send(b"[1, 2]\n")
    _error(server.reply(), -32600)
    server.send(b'{"foo": 1}\n')
    _error(server.reply(), -32600)
    server.send(b'{"jsonrpc": "2.0", "id": 7, "method": 5}\n')  # the id is readable: the error names it
    _error(server.reply(), -32600, 7)
    server.send(b"\n")  # a blank line is no message: no answer (the next reply is the ping's)
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert server.reply() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    call = {"name": "crm__get_account", "arguments": {"account_id": "nope"}}
    server.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call})
    result = server.reply()["result"]
    assert result["isError"] is True and "structuredContent" not in result
    assert json.loads(result["content"][0]["text"])["error"]["type"] == "not_found"
    assert server.stop() == 0  # and it ends cleanly when the client closes stdin


def _raw(host: str, port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read the answer until the server closes the connection."""
    with socket.create_connection((host, port), timeout=WAIT_S) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


NOT_HTTP = [
    b"GARBAGE\r\n\r\n",
    b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\n\r\n",
]


@pytest.mark.parametrize("data", NOT_HTTP, ids=["garbage", "bad-length", "nul"])
def test_the_http_server_answers_a_request_that_is_not_http_with_its_json_error(data: bytes) -> None:
    with ServerProcess(["--services", "crm"], kind="http") as server:
        status, headers, body = _raw(server.host, server.port, data)
    assert status == 400 and headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "ok": False,
        "error": {
            "type": "bad_request",
            "message": "the request is not valid HTTP/1.1",
            "field": None,
            "hint": "send a well-formed HTTP/1.1 request",
        },
    }


def test_the_mcp_http_server_answers_every_refusal_in_json_rpc() -> None:
    with ServerProcess(["--services", "crm", "--max-body-bytes", "2048"], kind="mcp") as server:
        host = f"{server.host}:{server.port}".encode()

        def post(headers: bytes, body: bytes = b"{}") -> tuple[int, dict[str, str], bytes]:
            head = b"POST /mcp HTTP/1.1\r\n" + headers + b"Content-Length: " + str(len(body)).encode()
            return _raw(server.host, server.port, head + b"\r\nConnection: close\r\n\r\n" + body)

        json_post = b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        answers = {
            "not HTTP": _raw(server.host, server.port, NOT_HTTP[0]),
            "wrong host": post(b"Host: evil.example\r\n" + json_post),
            "wrong origin": post(b"Host: " + host + b"\r\nOrigin: http://evil.example\r\n" + json_post),
            "not JSON": post(b"Host: " + host + b"\r\nContent-Type: text/plain\r\n"),
            "too large": post(b"Host: " + host + b"\r\n" + json_post, b"[" + b"1," * 2000 + b"1]"),
            "unknown path": _raw(
                server.host, server.port, b"GET /nope HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"
            ),
        }
    statuses = {name: status for name, (status, _, _) in answers.items()}
    assert statuses == {
        "not HTTP": 400,
        "wrong host": 421,
        "wrong origin": 403,
        "not JSON": 400,
        "too large": 413,
        "unknown path": 404,
    }
    for name, (_, headers, body) in answers.items():
        assert headers["content-type"] == "application/json", name
        reply = json.loads(body)
        assert reply["jsonrpc"] == "2.0" and reply["id"] is None, (name, reply)
        assert reply["error"]["code"] == -32600 and reply["error"]["message"], (name, reply)
