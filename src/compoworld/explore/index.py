"""On-disk indexes of task files and runs, so that the explorer's pages stay fast on tens of thousands of lines.

A task file (``tasks.jsonl``) or a run's ``trajectories.jsonl`` is read once: each line's
byte offset and the columns a table filters and sorts on go into a small SQLite file
beside it (``<file>.explore.sqlite``), or, where that folder cannot be written, into the
user's cache. The index remembers the size and modification time of the file it was
built from and is rebuilt when either changes (a run that grew, a task set re-synthesized).
A page then reads one line at its offset, never the whole file.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.agents.rollout import RUN_INFO, TRAJECTORIES
from compoworld.tasks.criteria import NEGATIVE_KINDS

__all__ = [
    "INDEX_SUFFIX",
    "INDEX_VERSION",
    "RunIndex",
    "TaskFilter",
    "TaskIndex",
    "first_failed",
    "index_path",
    "trigger_kind",
]

INDEX_SUFFIX = ".explore.sqlite"
INDEX_VERSION = 3
"""Bumped whenever the tables change, so that old indexes are rebuilt rather than misread."""


def index_path(source: Path) -> Path:
    """Where the index of ``source`` lives: beside it, or in the user's cache when its folder is read-only.

    Args:
        source: The indexed JSONL file.

    Returns:
        The index file's path (its folder exists).
    """
    beside = source.with_name(source.name + INDEX_SUFFIX)
    if os.access(source.parent, os.W_OK):
        return beside
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "compoworld" / "explore"
    cache.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    return cache / f"{key}-{source.name}{INDEX_SUFFIX}"


def trigger_kind(task: dict[str, Any]) -> str:
    """How a task starts: ``event`` (its setup wrote the change it reacts to), ``message`` (a told trigger) or ``request``."""
    if not task.get("trigger"):
        return "request"
    return "event" if task.get("setup") else "message"


def first_failed(verdicts: Sequence[dict[str, Any]]) -> str | None:
    """The id of the first failed criterion: the first failed positive one, else the first failed negative one."""
    failed = [v for v in verdicts if not v.get("passed")]
    for v in failed:
        if v.get("kind") not in NEGATIVE_KINDS:
            return str(v["id"])
    return str(failed[0]["id"]) if failed else None


def _lines(path: Path) -> Iterator[tuple[int, int, int, bytes]]:
    """``(line number, offset, length, bytes)`` of each non-blank line."""
    offset = 0
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, 1):
            if raw.strip():
                yield number, offset, len(raw), raw
            offset += len(raw)


class _Index:
    """An index of one JSONL file in SQLite, rebuilt when the file changes."""

    SCHEMA = ""
    KIND = ""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.path = index_path(source)
        self.db = self._open()

    def _stamp(self) -> str:
        st = self.source.stat()
        return f"{INDEX_VERSION}:{self.KIND}:{st.st_size}:{st.st_mtime_ns}"

    def _open(self) -> sqlite3.Connection:
        stamp = self._stamp()
        if self.path.exists():
            db = sqlite3.connect(self.path, check_same_thread=False)
            try:
                row = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
            except sqlite3.DatabaseError:
                row = None
            if row is not None and row[0] == stamp:
                return db
            db.close()
        # Built under a temporary name and moved into place: a crash or a second explorer never sees half an index.
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        db = sqlite3.connect(tmp)
        try:
            db.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);" + self.SCHEMA)
            with db:
                self._fill(db)
                db.execute("INSERT INTO meta VALUES ('stamp', ?)", (stamp,))
        except BaseException:
            db.close()
            tmp.unlink(missing_ok=True)
            raise
        db.close()
        os.replace(tmp, self.path)
        return sqlite3.connect(self.path, check_same_thread=False)

    def _fill(self, db: sqlite3.Connection) -> None:
        raise NotImplementedError

    def _bad_line(self, number: int, exc: Exception) -> ValueError:
        return ValueError(f"{self.source}:{number}: not a {self.KIND} line ({exc}); fix or remove the line")

    def read_at(self, offset: int, length: int) -> dict[str, Any]:
        """The JSON object on the line at ``offset``."""
        with self.source.open("rb") as fh:
            fh.seek(offset)
            data: dict[str, Any] = json.loads(fh.read(length))
        return data

    def count(self) -> int:
        """How many lines are indexed."""
        return int(self.db.execute(f"SELECT COUNT(*) FROM {self.KIND}s").fetchone()[0])


@dataclass(frozen=True, slots=True)
class TaskFilter:
    """What the task table shows: every condition set here must hold.

    Attributes:
        service: Tasks that use this service.
        pattern: Tasks with this hard pattern.
        trigger: Tasks of this trigger kind (see :func:`trigger_kind`).
        min_length: Tasks of at least this many solution steps.
        max_length: Tasks of at most this many.
        min_writes: Tasks with at least this many writes.
        text: Words that must all occur in the instruction or the id.
    """

    service: str = ""
    pattern: str = ""
    trigger: str = ""
    min_length: int | None = None
    max_length: int | None = None
    min_writes: int | None = None
    text: str = ""

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition and its parameters."""
        conds: list[str] = []
        args: list[Any] = []
        if self.service:
            conds.append("services LIKE ?")
            args.append(f"%,{self.service},%")
        if self.pattern:
            conds.append("patterns LIKE ?")
            args.append(f"%,{self.pattern},%")
        if self.trigger:
            conds.append("trigger_kind = ?")
            args.append(self.trigger)
        for column, op, value in (
            ("length", ">=", self.min_length),
            ("length", "<=", self.max_length),
            ("writes", ">=", self.min_writes),
        ):
            if value is not None:
                conds.append(f"{column} {op} ?")
                args.append(value)
        for word in self.text.lower().split():
            conds.append("(lower(instruction) LIKE ? OR id LIKE ?)")
            args.extend([f"%{word}%", f"%{word}%"])
        return (" WHERE " + " AND ".join(conds)) if conds else "", args


class TaskIndex(_Index):
    """The index of one ``tasks.jsonl``: one row per task, with the columns the task table filters on."""

    KIND = "task"
    SCHEMA = """
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY, idx INTEGER, line INTEGER, offset INTEGER, size INTEGER,
        services TEXT, patterns TEXT, writes INTEGER, trigger_kind TEXT,
        difficulty INTEGER, instruction TEXT, length INTEGER
    );
    CREATE INDEX tasks_idx ON tasks (idx);
    """

    def _fill(self, db: sqlite3.Connection) -> None:
        rows = []
        seen: set[str] = set()
        for number, offset, length, raw in _lines(self.source):
            try:
                t = json.loads(raw)
                meta = t["metadata"]
                task_id = str(t["id"])
                row = (
                    task_id,
                    int(t["index"]),
                    number,
                    offset,
                    length,
                    "," + ",".join(meta.get("services", [])) + ",",
                    "," + ",".join(t.get("patterns", [])) + ",",
                    int(meta.get("writes", 0)),
                    trigger_kind(t),
                    int(meta.get("difficulty", 0)),
                    str(t["instruction"]),
                    int(meta.get("length", len(t["solution"]))),
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise self._bad_line(number, exc) from exc
            if task_id in seen:
                raise ValueError(f"{self.source}:{number}: task id {task_id} is repeated; a task file holds each once")
            seen.add(task_id)
            rows.append(row)
        db.executemany("INSERT INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)

    def get(self, task_id: str) -> dict[str, Any] | None:
        """The task with this id, or None."""
        row = self.db.execute("SELECT offset, size FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return None if row is None else self.read_at(row[0], row[1])

    def has(self, task_id: str) -> bool:
        """Whether the file holds this task."""
        return self.db.execute("SELECT 1 FROM tasks WHERE id = ?", (task_id,)).fetchone() is not None

    def rows(self, flt: TaskFilter, *, sort: str = "idx", offset: int = 0, limit: int = 50) -> list[dict[str, Any]]:
        """One page of the task table."""
        order = {"idx": "idx", "length": "length DESC, idx", "writes": "writes DESC, idx"}.get(sort, "idx")
        where, args = flt.where()
        cur = self.db.execute(
            "SELECT id, idx, services, patterns, length, writes, trigger_kind, difficulty, substr(instruction, 1, 160) "
            f"FROM tasks{where} ORDER BY {order} LIMIT ? OFFSET ?",
            [*args, limit, offset],
        )
        keys = ("id", "index", "services", "patterns", "length", "writes", "trigger", "difficulty", "instruction")
        out = []
        for r in cur:
            row = dict(zip(keys, r, strict=True))
            row["services"] = [s for s in row["services"].split(",") if s]
            row["patterns"] = [p for p in row["patterns"].split(",") if p]
            out.append(row)
        return out

    def matching(self, flt: TaskFilter) -> int:
        """How many tasks pass the filter."""
        where, args = flt.where()
        return int(self.db.execute(f"SELECT COUNT(*) FROM tasks{where}", args).fetchone()[0])

    def facets(self) -> dict[str, list[str]]:
        """The values each filter can take: services, patterns and trigger kinds that occur."""
        services: set[str] = set()
        patterns: set[str] = set()
        for s, p in self.db.execute("SELECT DISTINCT services, patterns FROM tasks"):
            services.update(x for x in s.split(",") if x)
            patterns.update(x for x in p.split(",") if x)
        triggers = [r[0] for r in self.db.execute("SELECT DISTINCT trigger_kind FROM tasks ORDER BY 1")]
        return {"services": sorted(services), "patterns": sorted(patterns), "triggers": triggers}


class RunIndex(_Index):
    """The index of one run folder's ``trajectories.jsonl``: one row per trajectory."""

    KIND = "trajectory"
    SCHEMA = """
    CREATE TABLE trajectorys (
        task_id TEXT, rollout INTEGER, line INTEGER, offset INTEGER, size INTEGER, policy TEXT,
        success INTEGER, passed INTEGER, criteria INTEGER, calls INTEGER, errors INTEGER, stop TEXT,
        first_failed TEXT, PRIMARY KEY (task_id, rollout)
    );
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        info_path = run_dir / RUN_INFO
        self.info: dict[str, Any] = json.loads(info_path.read_text()) if info_path.exists() else {}
        super().__init__(run_dir / TRAJECTORIES)

    @property
    def name(self) -> str:
        """The run's name: its folder's."""
        return self.run_dir.name

    @property
    def tasks_path(self) -> Path | None:
        """The task file the run was rolled out on, when ``run.json`` names one that exists."""
        given = self.info.get("tasks_path")
        if not given:
            return None
        path = Path(given)
        if not path.is_absolute():
            path = (self.run_dir / path).resolve()
        return path if path.exists() else None

    def _fill(self, db: sqlite3.Connection) -> None:
        rows = []
        for number, offset, length, raw in _lines(self.source):
            try:
                t = json.loads(raw)
                verdicts = t["verdicts"]
                calls = t["calls"]
                row = (
                    str(t["task_id"]),
                    int(t["rollout"]),
                    number,
                    offset,
                    length,
                    str(t["policy"]),
                    int(bool(t["success"])),
                    sum(1 for v in verdicts if v["passed"]),
                    len(verdicts),
                    len(calls),
                    sum(1 for c in calls if not c["ok"]),
                    str(t["stop"]),
                    first_failed(verdicts),
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise self._bad_line(number, exc) from exc
            rows.append(row)
        # A resumed run may append a trajectory again: the last line of a (task, rollout) wins, as readers of runs do.
        db.executemany("INSERT OR REPLACE INTO trajectorys VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)

    def get(self, task_id: str, rollout: int) -> dict[str, Any] | None:
        """One trajectory, or None."""
        row = self.db.execute(
            "SELECT offset, size FROM trajectorys WHERE task_id = ? AND rollout = ?", (task_id, rollout)
        ).fetchone()
        return None if row is None else self.read_at(row[0], row[1])

    def by_task(self, task_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """The rollouts of each of these tasks: rollout, success, passed/criteria, first failed criterion."""
        out: dict[str, list[dict[str, Any]]] = {}
        if not task_ids:
            return out
        marks = ",".join("?" * len(task_ids))
        cur = self.db.execute(
            "SELECT task_id, rollout, success, passed, criteria, first_failed, calls, errors, stop "
            f"FROM trajectorys WHERE task_id IN ({marks}) ORDER BY task_id, rollout",
            list(task_ids),
        )
        keys = ("rollout", "success", "passed", "criteria", "first_failed", "calls", "errors", "stop")
        for r in cur:
            out.setdefault(r[0], []).append(dict(zip(keys, r[1:], strict=True)))
        return out

    def task_ids(self, *, failed_only: bool = False) -> list[str]:
        """Every task the run holds (or only those with a failed rollout), in first-seen order."""
        having = " HAVING MIN(success) = 0" if failed_only else ""
        cur = self.db.execute(f"SELECT task_id FROM trajectorys GROUP BY task_id{having} ORDER BY MIN(line)")
        return [r[0] for r in cur]

    def summary(self) -> dict[str, Any]:
        """Trajectories, tasks, the success rate and the share of criteria passed."""
        n, tasks, ok, passed, total = self.db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT task_id), SUM(success), SUM(passed), SUM(criteria) FROM trajectorys"
        ).fetchone()
        return {
            "trajectories": n,
            "tasks": tasks,
            "success": (ok or 0) / n if n else 0.0,
            "criteria_passed": (passed or 0) / total if total else 0.0,
            "policy": self.info.get("policy", ""),
        }
