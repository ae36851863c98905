"""Helpers shared by the task-file tests: unusable task files, and killed runs whose files are then damaged."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

__all__ = ["BAD_CASES", "bad_task_files", "damage_middle_line", "kill_after"]

BAD_CASES = [
    "duplicate",
    "empty",
    "blank",
    "binary",
    "not-utf8",
    "json-array",
    "wrong-object",
    "not-json",
    "directory",
    "missing",
]
"""The names of the files :func:`bad_task_files` makes."""


def bad_task_files(good: Path, where: Path) -> dict[str, tuple[Path, str]]:
    """Task files no reader may use, each with the pattern its one-line message must match."""
    lines = good.read_bytes().splitlines(keepends=True)
    first_id = json.loads(lines[0])["id"]
    made = {
        "duplicate": (lines[0] + lines[1] + lines[0], rf":3: task {first_id} is also on line 1"),
        "empty": (b"", "holds no tasks \\(it is empty\\)"),
        "blank": (b"\n   \n\n", "holds no tasks \\(only blank lines\\)"),
        "binary": (bytes(range(256)) * 8, ":1: binary data, not a tasks.jsonl file"),
        "not-utf8": (lines[0] + b"\xe9t\xe9\n", ":2: not UTF-8 text"),
        "json-array": (lines[0] + b"[1, 2, 3]\n", ":2: not a valid task: Input should be an object"),
        "wrong-object": (b'{"id": "x", "tools": 5}\n', ":1: not a valid task: .*Field required"),
        "not-json": (lines[0] + b"id,instruction\n", ":2: not a valid task: Invalid JSON"),
    }
    files = {}
    for name, (data, pattern) in made.items():
        path = where / f"{name}.jsonl"
        path.write_bytes(data)
        files[name] = (path, pattern)
    files["directory"] = (good.parent, f"is a directory, not a tasks.jsonl file; did you mean {good}")
    files["missing"] = (where / "nope.jsonl", "nope.jsonl does not exist")
    return files


def kill_after(cmd: list[str], target: Path, lines: int) -> None:
    """Run a command and SIGKILL it once ``target`` holds ``lines`` lines (it must not finish first)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if target.exists() and target.read_bytes().count(b"\n") >= lines:
            break
        time.sleep(0.02)
    proc.kill()
    assert proc.wait() == -signal.SIGKILL, "the run must be killed midway, not finish"


def damage_middle_line(target: Path, number: int) -> tuple[bytes, list[bytes]]:
    """Cut line ``number`` short (keeping its newline) and add a torn last line.

    Returns:
        The damaged file, and its complete valid lines in order.
    """
    data = target.read_bytes()
    lines = data[: data.rfind(b"\n") + 1].splitlines(keepends=True)  # whatever the kill left half-written goes
    assert len(lines) > number + 2, "the run must be killed after some lines"
    lines[number - 1] = lines[number - 1][:40] + b"\n"
    damaged = b"".join(lines) + b'{"id": "half-writ'
    target.write_bytes(damaged)
    return damaged, lines[: number - 1] + lines[number:]
