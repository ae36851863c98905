"""What the explorer shows: the catalog and its dependency graph, task files and runs, opened once.

:class:`Explorer` is built when the app starts: it indexes every task file and run
given (see :mod:`compoworld.explore.index`), finds the task file each run was rolled
out on, and keeps the catalog, whose dependency graph and search table are built on
first use.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compoworld.engine.catalog import Catalog
from compoworld.engine.types import SEMANTIC_KEY
from compoworld.explore.index import RunIndex, TaskIndex
from compoworld.tasks.graph import Port, ToolGraph
from compoworld.tasks.roles import input_roles, output_role

__all__ = ["CallLink", "Explorer", "ToolNeighbours", "criterion_calls"]


@dataclass(frozen=True, slots=True)
class ToolNeighbours:
    """A tool's place in the dependency graph.

    Attributes:
        fed_by: For each input port (path, semantic type): the services and tools whose output can fill it.
        feeds: For each output port: the services and tools that take it.
    """

    fed_by: list[tuple[Port, dict[str, list[str]]]]
    feeds: list[tuple[Port, dict[str, list[str]]]]


@dataclass(frozen=True, slots=True)
class CallLink:
    """Where a criterion of a trajectory was (or should have been) met.

    Attributes:
        tool: The solution step's tool.
        call: The index of the trajectory's call that made that step, or None when no call did.
        note: Why that call (or none) was chosen, in words.
    """

    tool: str
    call: int | None
    note: str


def _args(call: dict[str, Any]) -> str:
    return str(call.get("arguments", ""))


def criterion_calls(task: dict[str, Any], trajectory: dict[str, Any]) -> dict[str, CallLink]:
    """For each criterion tied to a solution step: the trajectory's call that should have made it.

    The call is the first one to the step's tool whose arguments carry the record or value the
    criterion checks; else the first call to that tool at all; else none.

    Args:
        task: The task (JSON object).
        trajectory: One of its trajectories (JSON object).

    Returns:
        Criterion id → the link.
    """
    solution = task.get("solution", [])
    calls = trajectory.get("calls", [])
    out: dict[str, CallLink] = {}
    for c in task.get("criteria", []):
        step = c.get("step")
        if step is None or step >= len(solution):
            continue
        tool = solution[step]["tool"]
        mine = [i for i, call in enumerate(calls) if tool in (call.get("tool"), call.get("target"))]
        clues = [str(v) for v in (c.get("record_id"), c.get("value")) if v not in (None, "")]
        exact = [i for i in mine if any(clue in _args(calls[i]) for clue in clues)]
        if exact:
            out[c["id"]] = CallLink(tool, exact[0], f"the call to {tool} on {clues[0]}")
        elif mine:
            out[c["id"]] = CallLink(tool, mine[0], f"the first call to {tool} (none names {', '.join(clues) or 'it'})")
        else:
            out[c["id"]] = CallLink(tool, None, f"no call to {tool} was made")
    return out


def _properties(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Top-level fields of an object schema: name, type, semantic type, required, description."""
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        target = prop
        if "$ref" in prop:
            target = defs.get(prop["$ref"].split("/")[-1], prop)
        any_of = target.get("anyOf") or []
        kinds = (
            [a.get("type", a.get("$ref", "").split("/")[-1]) for a in any_of] if any_of else [target.get("type", "")]
        )
        semantic = (
            prop.get(SEMANTIC_KEY)
            or target.get(SEMANTIC_KEY)
            or next((a.get(SEMANTIC_KEY) for a in any_of if a.get(SEMANTIC_KEY)), "")
        )
        rows.append(
            {
                "name": name,
                "type": " | ".join(str(k) for k in kinds if k),
                "semantic": semantic or "",
                "required": name in required,
                "enum": target.get("enum") or prop.get("enum") or [],
                "description": prop.get("description") or target.get("description") or "",
            }
        )
    return rows


@dataclass
class Explorer:
    """The explorer's data: catalog, task files and runs.

    Attributes:
        catalog: The catalog shown (and played in).
        task_files: Each task file's index, in the order given (runs' own task files are added after).
        runs: Each run folder's index, by run name.
    """

    catalog: Catalog
    task_files: list[TaskIndex] = field(default_factory=list)
    runs: dict[str, RunIndex] = field(default_factory=dict)
    _graph: ToolGraph | None = None
    _producers: dict[str, list[str]] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(
        cls, tasks: Sequence[str | Path] = (), runs: Sequence[str | Path] = (), catalog: Catalog | None = None
    ) -> Explorer:
        """Index the task files and runs (reusing indexes on disk that are current).

        Args:
            tasks: ``tasks.jsonl`` files.
            runs: Run folders (holding ``trajectories.jsonl``), or folders of run folders.
            catalog: The catalog (default: every registered service).

        Returns:
            The explorer.

        Raises:
            FileNotFoundError: for a task file or run folder that does not exist.
            ValueError: for a file that is not what it should be (naming the file and line).
        """
        ex = cls(catalog if catalog is not None else Catalog.load(None))
        for path in tasks:
            ex.add_task_file(Path(path))
        for path in runs:
            p = Path(path)
            if not p.is_dir():
                raise FileNotFoundError(f"no run folder {p}")
            folders = (
                [p]
                if (p / "trajectories.jsonl").exists()
                else sorted(d for d in p.iterdir() if (d / "trajectories.jsonl").exists())
            )
            if not folders:
                raise FileNotFoundError(f"{p} holds no trajectories.jsonl, nor do its folders")
            for folder in folders:
                run = RunIndex(folder)
                name = run.name
                while name in ex.runs:
                    name += "'"
                ex.runs[name] = run
                if run.tasks_path is not None:
                    ex.add_task_file(run.tasks_path)
        return ex

    def add_task_file(self, path: Path) -> TaskIndex:
        """Index a task file, once (the same file given twice is one)."""
        if not path.is_file():
            raise FileNotFoundError(f"no task file {path}")
        resolved = path.resolve()
        for found in self.task_files:
            if found.source.resolve() == resolved:
                return found
        index = TaskIndex(path)
        self.task_files.append(index)
        return index

    # --- tasks and runs

    def find_task(self, task_id: str) -> tuple[int, dict[str, Any]] | None:
        """The first task file holding a task of this id, and the task."""
        for i, f in enumerate(self.task_files):
            task = f.get(task_id)
            if task is not None:
                return i, task
        return None

    def run_task(self, run: RunIndex, task_id: str) -> tuple[int, dict[str, Any]] | None:
        """The task a run's trajectory was rolled out on: from the run's own task file first."""
        if run.tasks_path is not None:
            for i, f in enumerate(self.task_files):
                if f.source.resolve() == run.tasks_path.resolve():
                    task = f.get(task_id)
                    if task is not None:
                        return i, task
        return self.find_task(task_id)

    def run_matrix(self, *, failed_only: bool) -> list[str]:
        """The task ids of the runs table: tasks of any run (or those some rollout failed), in id order."""
        # Ids start with the task's zero-padded index, so their order is the task set's.
        return sorted({t for run in self.runs.values() for t in run.task_ids(failed_only=failed_only)})

    # --- catalog

    @property
    def graph(self) -> ToolGraph:
        """The tool dependency graph (built on first use)."""
        with self._lock:
            if self._graph is None:
                self._graph = ToolGraph.build(self.catalog)
                producers: dict[str, set[str]] = defaultdict(set)
                for name, ports in self._graph.outputs.items():
                    for port in ports:
                        producers[port.semantic].add(name)
                self._producers = {k: sorted(v) for k, v in producers.items()}
            return self._graph

    def categories(self) -> dict[str, list[dict[str, Any]]]:
        """Services by category: name, title, modeled-on product and tool count."""
        counts: dict[str, int] = defaultdict(int)
        for t in self.catalog.tools.values():
            counts[t.service] += 1
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for name in sorted(self.catalog.services):
            svc = self.catalog.services[name]
            out[svc.category].append(
                {"name": name, "title": svc.title, "modeled_on": svc.modeled_on, "tools": counts[name]}
            )
        return dict(sorted(out.items()))

    def search(self, query: str, limit: int = 100) -> list[dict[str, Any]]:
        """Tools whose name, intent or description holds every word of the query, best first.

        A word in the tool's name counts most, then in its intent, then in its description.
        """
        words = [w for w in query.lower().split() if w]
        if not words:
            return []
        hits = []
        for t in self.catalog.tools.values():
            name, intent, desc = t.name.lower(), t.intent.lower(), t.description.lower()
            score = 0
            for w in words:
                if w in name:
                    score += 3
                elif w in intent:
                    score += 2
                elif w in desc:
                    score += 1
                else:
                    break
            else:
                hits.append((-score, t.name))
        hits.sort()
        return [self.tool_row(n) for _, n in hits[:limit]]

    def tool_row(self, name: str) -> dict[str, Any]:
        """A tool's line in a table: name, service, kind, effects, intent."""
        t = self.catalog.tools[name]
        a = t.annotations
        effects = "read" if a.read_only else "write" + (", destructive" if a.destructive else "")
        if a.open_world:
            effects += ", open-world"
        return {"name": t.name, "service": t.service, "kind": t.kind, "effects": effects, "intent": t.intent}

    def service(self, name: str) -> dict[str, Any]:
        """A service's page data: what it models, its resources (fields, transitions) and its tools."""
        from compoworld.explore.graphs import state_machine_graph

        svc = self.catalog.services[name]
        resources = []
        for spec in svc.resources:
            schema = spec.model.model_json_schema()
            machine = state_machine_graph(spec.transitions)
            resources.append(
                {
                    "name": spec.qualified,
                    "table": spec.table,
                    "title": spec.title or spec.name,
                    "fields": _properties(schema),
                    "transitions": [
                        {"verb": v, "field": t.field, "source": list(t.source), "target": t.target, "intent": t.intent}
                        for v, t in spec.transitions.items()
                    ],
                    "machine": machine,
                    "description": schema.get("description", ""),
                }
            )
        return {
            "name": name,
            "title": svc.title,
            "category": svc.category,
            "modeled_on": svc.modeled_on,
            "description": svc.description,
            "resources": resources,
            "tools": [self.tool_row(t.name) for t in self.catalog.tools_of(name)],
        }

    def tool(self, name: str) -> dict[str, Any]:
        """A tool's page data: schemas with semantic types and roles, and its neighbours in the graph."""
        t = self.catalog.tools[name]
        params = _properties(t.parameters_schema)
        for p in params:
            roles = input_roles(t, p["name"])
            p["roles"] = sorted(roles) if roles else []
        result = _properties(t.result_schema)
        for r in result:
            role = output_role(t, r["name"])
            r["roles"] = [role] if role else []
        return {
            **self.tool_row(name),
            "description": t.description,
            "params": params,
            "result": result,
            "parameters_schema": json.dumps(t.parameters_schema, indent=1),
            "result_schema": json.dumps(t.result_schema, indent=1),
            "neighbours": self.neighbours(name),
        }

    def neighbours(self, name: str, per_port: int = 40) -> ToolNeighbours:
        """What can feed each of a tool's inputs and what each of its outputs can feed, by service."""
        graph = self.graph
        assert self._producers is not None

        def by_service(tools: list[str]) -> dict[str, list[str]]:
            grouped: dict[str, list[str]] = defaultdict(list)
            for other in tools[:per_port]:
                if other != name:
                    grouped[graph.service_of[other]].append(other)
            return dict(grouped)

        fed_by = [(p, by_service(self._producers.get(p.semantic, []))) for p in graph.inputs.get(name, [])]
        feeds = [(p, by_service(graph.consumers.get(p.semantic, []))) for p in graph.outputs.get(name, [])]
        return ToolNeighbours(fed_by, feeds)
