"""``compoworld serve mcp`` over stdio, spoken to in raw JSON-RPC lines with a bound on every wait.

The SDK's clients encode their messages first, so they can send neither a lone surrogate nor a line
that is not JSON; tests of how the server answers such lines write them themselves.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from typing import Any

import pytest

__all__ = ["WAIT_S", "StdioServer"]

WAIT_S = 60.0


class StdioServer:
    """A ``compoworld serve mcp`` process: lines written to its stdin, its stdout lines read in a thread."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "compoworld", "serve", "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, line: bytes | str | dict[str, Any]) -> None:
        """Write one line: raw bytes as they are, JSON text (ASCII) or a message to encode."""
        assert self.proc.stdin is not None
        if isinstance(line, dict):
            data = json.dumps(line).encode() + b"\n"
        elif isinstance(line, str):
            data = line.encode("ascii") + b"\n"
        else:
            data = line
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def reply(self, timeout_s: float = WAIT_S) -> dict[str, Any]:
        """The next message the server writes, or a test failure after ``timeout_s``."""
        try:
            line = self.lines.get(timeout=timeout_s)
        except queue.Empty:
            pytest.fail(f"no reply within {timeout_s} s")
        message: dict[str, Any] = json.loads(line)
        return message

    def request(self, method: str, params_json: str, timeout_s: float = 30.0) -> dict[str, Any]:
        """Send a request whose params are JSON text; the answer to it.

        A JSON-RPC error with a null id answers it too: it is how a server answers a message it could
        not read, id included.
        """
        self.next_id += 1
        self.send(f'{{"jsonrpc": "2.0", "id": {self.next_id}, "method": "{method}", "params": {params_json}}}')
        while True:
            message = self.reply(timeout_s)
            if message.get("id") == self.next_id or (message.get("id") is None and "error" in message):
                return message

    def stop(self) -> int:
        """Close stdin and wait for the server to exit; its exit code."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=WAIT_S)
        finally:
            self.close()

    def close(self) -> None:
        """Kill the server if it still runs."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT_S)
