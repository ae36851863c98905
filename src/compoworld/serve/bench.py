"""A bounded load test of the HTTP server on loopback, behind ``compoworld bench serve``.

It starts ``compoworld serve http`` in a child process on a free loopback
port, then, in each round, lets ``clients`` concurrent clients (one session
and one keep-alive connection each) make ``calls`` tool calls in all: creating
leads, reading them back, listing and getting records. It checks that every
call was answered and succeeded, that the server counted exactly the calls
sent, and that each session's diff holds exactly its own writes (no session
sees another's). Then it leaves the sessions idle until the server has dropped
them, and reads the server's resident memory: after the first round (the
warm baseline: lazy indexes, validators and buffers exist by then) and after
the last, which shows whether expired sessions leave anything behind.

The client is a minimal HTTP/1.1 client on asyncio streams, so that the
benchmark needs nothing beyond the standard library and spends little of the
machine on itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from compoworld.serve.listen import ANNOUNCE

__all__ = ["ServerProcess", "bench_serve", "proc_cpu_s", "proc_memory_mb"]


def proc_cpu_s(pid: int) -> float | None:
    """User plus system CPU seconds a process has used, from /proc (Linux; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_memory_mb(pid: int) -> dict[str, float]:
    """Current (``rss_mb``) and peak (``peak_rss_mb``) resident memory of a process, from /proc (Linux).

    Returns:
        The two figures, or an empty dict where /proc is not available.
    """
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out["rss_mb" if key == "VmRSS" else "peak_rss_mb"] = round(int(value.split()[0]) / 1024, 1)
    return out


class ServerProcess:
    """``compoworld serve http`` (or ``serve mcp --http``) in a child process on a free loopback port.

    Args:
        args: Extra command-line arguments (``--services``, ``--idle-timeout`` ...).
        token: Bearer token to start it with.
        kind: ``http`` for the HTTP API, ``mcp`` for MCP over streamable HTTP.
        start_timeout_s: How long to wait for it to listen.

    Attributes:
        url: The announced URL (ending in ``/mcp`` for MCP).
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        token: str | None = None,
        kind: Literal["http", "mcp"] = "http",
        start_timeout_s: float = 60.0,
    ) -> None:
        listen = ["--host", "127.0.0.1", "--port", "0"] if kind == "http" else ["--http", "127.0.0.1:0"]
        cmd = [sys.executable, "-m", "compoworld", "serve", kind, *listen, *args]
        env = dict(os.environ)
        env.pop("COMPOWORLD_TOKEN", None)
        if token:
            cmd += ["--token", token]
        self.token = token
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        self.url = self._await_url(start_timeout_s)
        host_port = self.url.removeprefix("http://").split("/", 1)[0]
        self.host, _, port = host_port.rpartition(":")
        self.port = int(port)

    def _await_url(self, timeout_s: float) -> str:
        assert self.proc.stderr is not None
        deadline = time.monotonic() + timeout_s
        seen: list[str] = []
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line:
                break
            seen.append(line)
            if line.startswith(ANNOUNCE):
                return line[len(ANNOUNCE) :].strip()
        self.stop()
        raise RuntimeError("the server did not start:\n" + "".join(seen[-20:]))

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.proc.pid

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Connection:
    """One keep-alive HTTP/1.1 connection that sends JSON and reads JSON."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, token: str | None
    ) -> None:
        self.reader = reader
        self.writer = writer
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self._head = f"Host: {host}\r\n{auth}Content-Type: application/json\r\n"

    @classmethod
    async def open(cls, host: str, port: int, token: str | None) -> _Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, f"{host}:{port}", token)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\n{self._head}Content-Length: {len(data)}\r\n\r\n"
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        payload = await self.reader.readexactly(length) if length else b""
        return status, (json.loads(payload) if payload else None)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


def _workload(client: int, step: int, lead_id: str | None) -> tuple[str, dict[str, Any], bool]:
    """The ``step``-th call of a client: ``(tool, arguments, writes)``; a quarter are writes."""
    kind = step % 4
    if kind == 0 or lead_id is None:
        email = f"bench{client}.{step}@example.com"
        return (
            "crm__create_lead",
            {"first_name": "Bench", "last_name": f"C{client}", "company": "Load", "email": email},
            True,
        )
    if kind == 1:
        return "crm__get_lead", {"lead_id": lead_id}, False
    if kind == 2:
        return "crm__list_leads", {"limit": 5}, False
    return "crm__get_contact", {"contact_id": "con_000001"}, False


async def _client(host: str, port: int, token: str | None, index: int, calls: int) -> dict[str, Any]:
    conn = await _Connection.open(host, port, token)
    try:
        status, created = await conn.request("POST", "/sessions", {"services": ["crm"]})
        if status != 201:
            raise RuntimeError(f"client {index}: cannot create a session: {status} {created}")
        sid = created["session_id"]
        answered = failed = writes = 0
        lead_id: str | None = None
        for step in range(calls):
            tool, args, write = _workload(index, step, lead_id)
            status, body = await conn.request("POST", f"/sessions/{sid}/tools/{tool}", args)
            answered += 1
            if status != 200 or not body.get("ok"):
                failed += 1
                continue
            if write:
                writes += 1
                lead_id = body["result"]["id"]
        status, diff = await conn.request("GET", f"/sessions/{sid}/diff")
        added = diff["tables"].get("crm.leads", {}).get("added", []) if status == 200 else []
        own = all(r["email"].startswith(f"bench{index}.") for r in added)
        isolated = status == 200 and len(added) == writes and own and set(diff["tables"]) <= {"crm.leads"}
        return {"sent": calls, "answered": answered, "failed": failed, "writes": writes, "isolated": isolated}
    finally:
        await conn.close()


async def _load(
    host: str, port: int, token: str | None, clients: int, calls: int, first_index: int
) -> tuple[list[dict[str, Any]], float]:
    shares = [calls // clients + (1 if i < calls % clients else 0) for i in range(clients)]
    start = time.perf_counter()
    results = await asyncio.gather(*(_client(host, port, token, first_index + i, n) for i, n in enumerate(shares)))
    return list(results), time.perf_counter() - start


async def _get(host: str, port: int, token: str | None, path: str) -> Any:
    conn = await _Connection.open(host, port, token)
    try:
        return (await conn.request("GET", path))[1]
    finally:
        await conn.close()


def _await_expiry(server: ServerProcess, wait_s: float) -> tuple[dict[str, Any], float]:
    """Poll /health until the server holds no session; return the last health and the seconds waited."""
    started = time.monotonic()
    health: dict[str, Any] = {}
    while time.monotonic() - started < wait_s:
        health = asyncio.run(_get(server.host, server.port, server.token, "/health"))
        if health["sessions"] == 0:
            break
        time.sleep(0.1)
    return health, time.monotonic() - started


def _round(server: ServerProcess, clients: int, calls: int, first_index: int, wait_s: float) -> dict[str, Any]:
    """One load round: the calls, then idle until every session expired."""
    host, port, token = server.host, server.port, server.token
    before = asyncio.run(_get(host, port, token, "/health"))
    cpu_before = proc_cpu_s(server.pid)
    results, elapsed = asyncio.run(_load(host, port, token, clients, calls, first_index))
    cpu_after = proc_cpu_s(server.pid)
    loaded = proc_memory_mb(server.pid)
    loaded_health = asyncio.run(_get(host, port, token, "/health"))
    counted = loaded_health["calls"] - before["calls"]
    health, waited = _await_expiry(server, wait_s)
    time.sleep(0.5)  # the sweeper collects garbage right after it drops the sessions
    after = proc_memory_mb(server.pid)
    after_blocks = asyncio.run(_get(host, port, token, "/health"))["allocated_blocks"]
    sent = sum(r["sent"] for r in results)
    cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    return {
        "calls": sent,
        "seconds": round(elapsed, 3),
        "calls_per_s": round(sent / elapsed, 1),
        "server_cpu_s": round(cpu, 2) if cpu is not None else None,
        "calls_per_server_cpu_s": round(sent / cpu, 1) if cpu else None,
        "lost": sent - sum(r["answered"] for r in results),
        "failed": sum(r["failed"] for r in results),
        "writes": sum(r["writes"] for r in results),
        "server_counted": counted,
        "isolated": all(r["isolated"] for r in results),
        "loaded_rss_mb": loaded.get("rss_mb"),
        "after_expiry_rss_mb": after.get("rss_mb"),
        "loaded_blocks": loaded_health["allocated_blocks"],
        "after_expiry_blocks": after_blocks,
        "sessions_after_expiry": health.get("sessions"),
        "expiry_wait_s": round(waited, 2),
    }


def bench_serve(
    *,
    clients: int = 32,
    calls: int = 20_000,
    rounds: int = 2,
    idle_timeout_s: float = 2.0,
    expiry_wait_s: float = 60.0,
    token: str | None = "bench-token",
) -> dict[str, Any]:
    """Run the load test against a fresh server process.

    Each round opens ``clients`` new sessions, makes ``calls`` calls through
    them and leaves them to expire. The first round also warms the server up
    (lazy indexes, validators, caches, connection buffers); memory after the
    last round's expiry compared with the first's shows whether dropped
    sessions leave anything behind.

    Args:
        clients: Concurrent clients, one session and one connection each.
        calls: Tool calls per round, shared between the clients.
        rounds: Load rounds (at least 1).
        idle_timeout_s: The server's idle timeout (sessions are left to expire).
        expiry_wait_s: Longest wait for the server to drop a round's sessions.
        token: Bearer token the server requires (None: none).

    Returns:
        Totals over the rounds (``calls``, ``calls_per_s``, ``lost``, ``failed``, ``server_counted``,
        ``isolated``), memory in MB (``start_rss_mb`` after start-up, ``peak_rss_mb``,
        ``warm_baseline_rss_mb`` after the first round's sessions expired, ``after_expiry_rss_mb``
        after the last round's), the interpreter's allocated memory blocks at the same points
        (``warm_baseline_blocks``, ``loaded_blocks`` and ``after_expiry_blocks``: live objects, which
        fall back when sessions go even where the allocator keeps the pages), and ``per_round``.
    """
    if clients < 1 or calls < clients or rounds < 1:
        raise ValueError("need at least one client, one call per client and one round")
    args = ["--services", "crm", "--idle-timeout", str(idle_timeout_s), "--max-sessions", str(max(64, 2 * clients))]
    with ServerProcess(args, token=token) as server:
        time.sleep(0.5)
        start = proc_memory_mb(server.pid)
        done = [_round(server, clients, calls, r * clients, expiry_wait_s) for r in range(rounds)]
        peak = proc_memory_mb(server.pid).get("peak_rss_mb")
    sent = sum(r["calls"] for r in done)
    seconds = sum(r["seconds"] for r in done)
    cpu = [r["server_cpu_s"] for r in done]
    return {
        "clients": clients,
        "rounds": len(done),
        "calls": sent,
        "seconds": round(seconds, 3),
        "calls_per_s": round(sent / seconds, 1),
        "calls_per_server_cpu_s": round(sent / sum(cpu), 1) if None not in cpu and sum(cpu) else None,
        "lost": sum(r["lost"] for r in done),
        "failed": sum(r["failed"] for r in done),
        "server_counted": sum(r["server_counted"] for r in done),
        "isolated": all(r["isolated"] for r in done),
        "sessions_after_expiry": done[-1]["sessions_after_expiry"],
        "start_rss_mb": start.get("rss_mb"),
        "peak_rss_mb": peak,
        "warm_baseline_rss_mb": done[0]["after_expiry_rss_mb"],
        "after_expiry_rss_mb": done[-1]["after_expiry_rss_mb"],
        "warm_baseline_blocks": done[0]["after_expiry_blocks"],
        "loaded_blocks": done[-1]["loaded_blocks"],
        "after_expiry_blocks": done[-1]["after_expiry_blocks"],
        "idle_timeout_s": idle_timeout_s,
        "per_round": done,
    }
