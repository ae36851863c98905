"""Append-only JSONL files that survive being killed mid-write.

Long jobs (synthesis, rollouts) append one record per line, flushed and
fsynced, so a kill loses at most the line being written. On restart
:func:`recover` keeps every complete, valid line and cuts a half-written
tail, and the job carries on from there: nothing lost, nothing duplicated.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

__all__ = ["append_line", "recover", "write_json_atomic"]

T = TypeVar("T")


def recover(path: Path, parse: Callable[[bytes], T]) -> list[T]:
    """Read the complete, valid records of a JSONL file and cut whatever follows them.

    Args:
        path: The file (a missing file has no records).
        parse: Turns one line into a record; raises ``ValueError`` for an invalid one.

    Returns:
        The records up to the first incomplete or invalid line, which is removed
        with everything after it.
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    records: list[T] = []
    pos = good_end = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break  # no newline: the line was being written when the job stopped
        try:
            records.append(parse(data[pos:nl]))
        except ValueError:
            break
        pos = good_end = nl + 1
    if good_end != len(data):
        with path.open("r+b") as fh:
            fh.truncate(good_end)
    return records


def append_line(fh: IO[str], line: str) -> None:
    """Append one record line and make it durable before returning."""
    fh.write(line + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def write_json_atomic(path: Path, doc: dict[str, Any]) -> None:
    """Write a small JSON document so that readers see the old or the new one, never half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True))
    tmp.replace(path)
