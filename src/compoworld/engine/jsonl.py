"""Append-only JSONL files that survive being killed mid-write.

Long jobs (synthesis, rollouts) append one record per line, flushed and
fsynced, so a kill loses at most the line being written. On restart
:func:`recover` keeps every valid line and repairs only a torn final line (one
without its newline): a valid record gets its newline back, anything else is
cut. A complete line that is not a valid record, anywhere in the file, is
damage a kill cannot cause: the file is left as it is and :class:`BadLines`
names the line, unless the caller asks to skip bad lines, which moves them
(with their line numbers) to ``<file>.bad`` and keeps every valid line
byte-identical.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from pydantic import ValidationError

__all__ = [
    "BadLine",
    "BadLines",
    "Recovery",
    "append_line",
    "bad_lines_path",
    "error_summary",
    "recover",
    "repair",
    "scan",
    "write_json_atomic",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BadLine:
    """A complete line that is not a valid record.

    Attributes:
        number: Its line number (1-based) in the file as it was scanned.
        reason: Why it is not a valid record, in one line.
        start: Offset of its first byte.
        end: Offset just past its newline.
    """

    number: int
    reason: str
    start: int
    end: int


class BadLines(ValueError):
    """A JSONL file holds complete lines that are not valid records; nothing was changed.

    Attributes:
        path: The file.
        lines: The bad lines, first first.
        bad_path: Where skipping them would move them.
    """

    def __init__(self, path: Path, lines: list[BadLine]) -> None:
        self.path = path
        self.lines = lines
        self.bad_path = bad_lines_path(path)
        first = lines[0]
        more = ""
        if len(lines) > 1:
            shown = ", ".join(str(b.number) for b in lines[1:6])
            more = f" (and {len(lines) - 1} more bad line(s): {shown}{', ...' if len(lines) > 6 else ''})"
        super().__init__(
            f"{path}:{first.number}: line {first.number} is complete but not a valid record: {first.reason}{more}; "
            "the file was left unchanged"
        )


@dataclass(slots=True)
class Recovery(Generic[T]):
    """What :func:`scan` found in a JSONL file, and what :func:`repair` did about it.

    Attributes:
        path: The file.
        records: Every valid record, in file order.
        size: The file's size when scanned.
        bad: Complete lines that are not valid records.
        torn: Bytes of a final line without its newline that is not a valid record.
        unterminated: The final line is a valid record that lost only its newline.
        moved_to: Where bad lines were moved (set by :func:`repair` when it skipped them).
    """

    path: Path
    records: list[T] = field(default_factory=list)
    size: int = 0
    bad: list[BadLine] = field(default_factory=list)
    torn: int = 0
    unterminated: bool = False
    moved_to: Path | None = None


def bad_lines_path(path: Path) -> Path:
    """Where :func:`repair` moves the bad lines of ``path``: ``<file>.bad`` beside it."""
    return path.with_name(path.name + ".bad")


def error_summary(exc: Exception, limit: int = 300) -> str:
    """One line saying why a parser refused some text (the first few of pydantic's errors)."""
    if isinstance(exc, ValidationError):
        parts = []
        for e in exc.errors(include_url=False)[:3]:
            where = ".".join(str(p) for p in e["loc"])
            parts.append(f"{where}: {e['msg']}" if where else str(e["msg"]))
        more = exc.error_count() - len(parts)
        text = "; ".join(parts) + (f"; {more} more error(s)" if more > 0 else "")
    else:
        text = str(exc)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def scan(path: Path, parse: Callable[[bytes], T]) -> Recovery[T]:
    """Read a JSONL file without changing it: its valid records, its bad lines and a torn final line.

    Args:
        path: The file (a missing file has no records).
        parse: Turns one line into a record; raises ``ValueError`` for an invalid one.

    Returns:
        What the file holds; pass it to :func:`repair` before appending to the file.
    """
    found: Recovery[T] = Recovery(path)
    if not path.exists():
        return found
    data = path.read_bytes()
    found.size = len(data)
    pos = 0
    number = 0
    while pos < len(data):
        number += 1
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line = data[pos:end]
        if nl < 0 and not line.strip():
            found.torn = len(line)
        # Blank lines are no records; writers never make them, but a hand edit may, and they hold no work.
        elif line.strip():
            try:
                record = parse(line)
            except ValueError as exc:
                if nl < 0:
                    found.torn = len(line)  # the line being written when the job stopped
                else:
                    found.bad.append(BadLine(number, error_summary(exc), pos, end))
            else:
                found.records.append(record)
                found.unterminated = nl < 0
        pos = end
    return found


def repair(found: Recovery[Any], *, skip_bad: bool = False) -> None:
    """Make a scanned file ready for appending, never dropping a valid line.

    A torn final line is cut; a valid final record without its newline gets it
    back. With bad lines the file is left unchanged and :class:`BadLines` is
    raised, unless ``skip_bad``: then each bad line is appended, with its line
    number and reason, to ``<file>.bad`` (one JSON object per line: ``line``,
    ``reason`` and ``text``, or ``base64`` for bytes that are not UTF-8) and the
    file is rewritten without them, every other line byte for byte.

    Args:
        found: What :func:`scan` found (the file must not have changed since).
        skip_bad: Move bad lines aside instead of refusing.

    Raises:
        BadLines: when the file has bad lines and ``skip_bad`` is false.
    """
    path = found.path
    if found.bad and not skip_bad:
        raise BadLines(path, found.bad)
    if found.bad:
        data = path.read_bytes()
        bad_path = bad_lines_path(path)
        # The bad lines are durable on their own before the file loses them: a crash in between
        # leaves them in both places, never in neither.
        with bad_path.open("a") as fh:
            for b in found.bad:
                raw = data[b.start : b.end].rstrip(b"\n")
                entry: dict[str, Any] = {"line": b.number, "reason": b.reason}
                try:
                    entry["text"] = raw.decode()
                except UnicodeDecodeError:
                    entry["base64"] = base64.b64encode(raw).decode()
                append_line(fh, json.dumps(entry, ensure_ascii=False))
        kept = bytearray()
        pos = 0
        for b in found.bad:
            kept += data[pos : b.start]
            pos = b.end
        kept += data[pos : len(data) - found.torn]
        if found.unterminated:
            kept += b"\n"
        _replace_bytes(path, bytes(kept))
        found.moved_to = bad_path
    elif found.torn:
        with path.open("r+b") as fh:
            fh.truncate(found.size - found.torn)
    elif found.unterminated:
        with path.open("ab") as fh:
            fh.write(b"\n")


def recover(path: Path, parse: Callable[[bytes], T], *, skip_bad: bool = False) -> Recovery[T]:
    """Scan a JSONL file and repair it for appending (:func:`scan`, then :func:`repair`).

    Args:
        path: The file (a missing file has no records).
        parse: Turns one line into a record; raises ``ValueError`` for an invalid one.
        skip_bad: Move complete lines that are not valid records to ``<file>.bad`` instead of refusing.

    Returns:
        Every valid record and what was repaired.

    Raises:
        BadLines: naming the first bad line, when there are any and ``skip_bad`` is false.
    """
    found = scan(path, parse)
    repair(found, skip_bad=skip_bad)
    return found


def append_line(fh: IO[str], line: str) -> None:
    """Append one record line and make it durable before returning."""
    fh.write(line + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def _replace_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def write_json_atomic(path: Path, doc: dict[str, Any]) -> None:
    """Write a small JSON document so that readers see the old or the new one, never half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True))
    tmp.replace(path)
