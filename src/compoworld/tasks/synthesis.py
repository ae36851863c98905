"""Task synthesis: walk → oracle run → criteria → instruction → validity gates → task.

A walk (see :mod:`compoworld.tasks.walk`) is executed as it is drawn; this module
re-executes it step by step on a fresh episode, derives its criteria from what
each step changed, renders an instruction that states the goals and the given
facts (never a value the agent must discover), and keeps the task only if it
passes every validity gate of DESIGN §5. Rejected walks are counted by reason.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from compoworld.engine.episode import Episode, StateDiff
from compoworld.engine.openworld import ReplayWorldModel
from compoworld.engine.records import generated_fields
from compoworld.engine.state import canonical_json
from compoworld.tasks.arguments import ValuePool
from compoworld.tasks.criteria import (
    AnswerCriterion,
    NoCollateralCriterion,
    StateCriterion,
    TransitionCriterion,
    check_criteria,
)
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.task import SolutionStep, Task, solution_signature, task_answer
from compoworld.tasks.walk import NAMEABLE, WEAK, Walk, WalkConfig, draw_walk, is_singleton, produced_values
from compoworld.world.world import World

__all__ = [
    "SynthConfig",
    "Synthesizer",
    "TaskBuild",
    "validate_task",
]


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """Knobs of synthesis.

    Attributes:
        walk: Walk constraints (length, services, fan-in, open-world).
        distractors: Tools shown beyond the solution's.
        attempts: Walks drawn per task before giving up on that index.
    """

    walk: WalkConfig = field(default_factory=WalkConfig)
    distractors: int = 8
    attempts: int = 60


@dataclass(slots=True)
class TaskBuild:
    """A task, or why a walk was rejected."""

    task: Task | None
    reason: str = ""


_CONNECTORS_FIRST = ("First, ", "To begin, ", "")
_CONNECTORS_MID = ("Then ", "Next, ", "After that, ", "Once that is done, ")
_CONNECTORS_LAST = ("Finally, ", "Last, ", "To finish, ")


def _label(name: str) -> str:
    return name.replace("_", " ").replace(" id", "").strip()


def _field_label(path: str) -> str:
    last = re.sub(r"\[\d*\]", "", path).split(".")[-1]
    return _label(last)


def _render_value(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        if {"street", "city", "postal_code", "country"} <= set(value):
            return f"{value['street']}, {value['postal_code']} {value['city']}, {value['country']}"
        return json.dumps(value, sort_keys=True)
    return json.dumps(value)


def _added_ids(diff: StateDiff) -> set[str]:
    return {str(r["id"]) for td in diff.tables.values() for r in td.added}


class Synthesizer:
    """Builds validated tasks from one world.

    Args:
        world: The world tasks live in.
        graph: Its dependency graph (built if None).
        config: Knobs.
    """

    def __init__(self, world: World, graph: ToolGraph | None = None, config: SynthConfig | None = None) -> None:
        self.world = world
        self.graph = graph or ToolGraph.build(world.catalog)
        self.config = config or SynthConfig()
        self.pool = ValuePool.from_world(world)
        self._all_tools = sorted(world.catalog.tools)
        self._tools_of: dict[str, list[str]] = {}
        for name in self._all_tools:
            self._tools_of.setdefault(self.graph.service_of[name], []).append(name)

    # -- criteria ------------------------------------------------------------------------

    def _generated(self, table: str) -> set[str]:
        model = self.world.tables[table].spec.model
        return {name for name, _ in generated_fields(model)} | {"id"}

    def derive(self, walk: Walk) -> tuple[list[Any], Episode] | None:
        """Re-execute a walk on a fresh episode and derive its criteria (None if it does not replay)."""
        ep = Episode(self.world)
        diffs: list[StateDiff] = []
        for step in walk.steps:
            snap = ep.snapshot()
            res = ep.call(step.tool, step.arguments)
            if not res.ok or res.result != step.result:
                return None
            diffs.append(ep.diff(snap))
        final = ep.diff()
        added_ids = _added_ids(final)
        criteria: list[Any] = []
        by_step: dict[int, list[str]] = {}
        added_crit: dict[str, int] = {}  # episode-added record id -> index in criteria

        def new_id() -> str:
            return f"c{len(criteria)}"

        for j, (step, d) in enumerate(zip(walk.steps, diffs, strict=True)):
            args_json = json.loads(canonical_json(step.arguments))
            upstream = sorted({p.step for p in step.provenance.values() if p.kind == "step" and p.step is not None})
            deps = [cid for k in upstream for cid in by_step.get(k, [])]
            mine: list[str] = []
            for table, td in d.tables.items():
                skip = self._generated(table)
                for rec in td.added:
                    fields = {
                        k: v
                        for k, v in rec.items()
                        if k in args_json and k not in skip and args_json[k] == v and not _is_new_id(v, added_ids)
                    }
                    if not fields:
                        return None
                    cid = new_id()
                    added_crit[str(rec["id"])] = len(criteria)
                    noun = self.world.tables[table].spec.a_noun
                    desc = f"{noun} exists in {table} with " + ", ".join(
                        f"{k} = {_render_value(v)}" for k, v in fields.items()
                    )
                    criteria.append(
                        StateCriterion(
                            id=cid, description=desc, depends_on=deps, step=j, table=table, mode="added", fields=fields
                        )
                    )
                    mine.append(cid)
                for change in td.updated:
                    changed = [k for k in change.changed if k not in skip]
                    if not changed:
                        continue
                    if change.id in added_ids:
                        idx = added_crit.get(change.id)
                        if idx is None:
                            return None
                        old = criteria[idx]
                        merged = dict(old.fields) | {
                            k: change.after[k] for k in changed if not _is_new_id(change.after[k], added_ids)
                        }
                        # Dependencies stay those of the creation: adding a later step's would make cycles.
                        criteria[idx] = old.model_copy(update={"fields": merged})
                        mine.append(old.id)
                        continue
                    fields = {k: change.after[k] for k in changed}
                    cid = new_id()
                    noun = self.world.tables[table].spec.noun
                    desc = f"{noun} {change.id} in {table} has " + ", ".join(
                        f"{k} = {_render_value(v)}" for k, v in fields.items()
                    )
                    criteria.append(
                        StateCriterion(
                            id=cid,
                            description=desc,
                            depends_on=deps,
                            step=j,
                            table=table,
                            mode="updated",
                            record_id=change.id,
                            fields=fields,
                        )
                    )
                    mine.append(cid)
                for rec in td.removed:
                    if str(rec["id"]) in added_ids:
                        continue
                    cid = new_id()
                    criteria.append(
                        StateCriterion(
                            id=cid,
                            description=f"{table} {rec['id']} is removed",
                            depends_on=deps,
                            step=j,
                            table=table,
                            mode="removed",
                            record_id=str(rec["id"]),
                        )
                    )
                    mine.append(cid)
            # Transitions: an identifying upstream value that this write stored.
            if not d.is_empty:
                for name, prov in step.provenance.items():
                    if prov.kind != "step" or prov.semantic in WEAK or prov.step is None:
                        continue
                    value = args_json.get(name)
                    if isinstance(value, list) and len(value) == 1:
                        value = value[0]
                    if value in (None, "") or isinstance(value, dict | list):
                        continue
                    spot = self._find_value(d, value)
                    if spot is None:
                        continue
                    table, fname = spot
                    ref = None
                    if _is_new_id(value, added_ids):
                        # A record made earlier in this task: match it by its values, not its id.
                        idx = added_crit.get(str(value))
                        if idx is None:
                            continue
                        ref, value = criteria[idx].id, None
                    cid = new_id()
                    criteria.append(
                        TransitionCriterion(
                            id=cid,
                            description=f"the {_field_label(prov.field or name)} found in step {prov.step + 1} "
                            f"is used as {fname} of the record written to {table}",
                            depends_on=sorted(set(by_step.get(prov.step, [])) | ({ref} if ref else set())),
                            step=j,
                            from_step=prov.step,
                            from_field=prov.field or "",
                            value=value,
                            ref_criterion=ref,
                            table=table,
                            field=fname,
                        )
                    )
                    mine.append(cid)
            by_step[j] = mine
        # Settle added-record criteria on their final values (later steps may have changed them).
        for rid, idx in added_crit.items():
            final_rec = next((r for td in final.tables.values() for r in td.added if str(r["id"]) == rid), None)
            if final_rec is None:
                return None
            old = criteria[idx]
            settled = {k: v for k, v in old.fields.items() if final_rec.get(k) == v}
            if not settled:
                return None
            criteria[idx] = old.model_copy(update={"fields": settled})
        # Likewise for world records a later step changed again: the final value is what counts.
        for idx, c in enumerate(criteria):
            if isinstance(c, StateCriterion) and c.mode == "updated" and c.record_id is not None:
                current = ep.get(c.table, c.record_id)
                if current is None:
                    return None
                data = current.model_dump(mode="json")
                settled = {k: v for k, v in c.fields.items() if data.get(k) == v}
                if not settled:
                    return None
                criteria[idx] = c.model_copy(update={"fields": settled})
        last = walk.steps[-1]
        if self.world.catalog.tools[last.tool].annotations.read_only:
            ans = self._answer_value(walk)
            if ans is None:
                return None
            path, value = ans
            criteria.append(
                AnswerCriterion(
                    id=new_id(),
                    description=f"the final answer gives the {_field_label(path)}: {value}",
                    depends_on=[cid for k in range(len(walk.steps)) for cid in by_step.get(k, [])][-3:],
                    step=len(walk.steps) - 1,
                    value=value,
                )
            )
        touched: dict[str, list[str]] = {}
        added: dict[str, int] = {}
        for table, td in final.tables.items():
            if td.added:
                added[table] = len(td.added)
            ids = sorted({c.id for c in td.updated} | {str(r["id"]) for r in td.removed})
            if ids:
                touched[table] = ids
        criteria.append(
            NoCollateralCriterion(
                id=new_id(), description="nothing else was created, changed or deleted", added=added, touched=touched
            )
        )
        return criteria, ep

    @staticmethod
    def _find_value(diff: StateDiff, value: Any) -> tuple[str, str] | None:
        for table, td in diff.tables.items():
            for rec in list(td.added) + [c.after for c in td.updated]:
                for k, v in rec.items():
                    if k == "id":
                        continue
                    if v == value or (isinstance(v, list) and value in v):
                        return table, k
        return None

    def _answer_value(self, walk: Walk) -> tuple[str, str] | None:
        last = len(walk.steps) - 1

        given = {json.dumps(v) for s in walk.steps for v in s.arguments.values()}
        for p in produced_values(last, walk.steps[last].result, self.graph.outputs[walk.steps[last].tool]):
            if (
                isinstance(p.value, str)
                and p.semantic in NAMEABLE | {"person.name", "text.title"}
                and len(p.value) >= 3
                and json.dumps(p.value) not in given
            ):
                return p.path, p.value
        return None

    # -- instruction ---------------------------------------------------------------------

    def instruction(self, walk: Walk, rng: random.Random) -> tuple[str, dict[str, Any]]:
        """Render the instruction and the given facts it states."""
        given: dict[str, Any] = {}
        sentences = []
        n = len(walk.steps)
        for j, step in enumerate(walk.steps):
            tool = self.world.catalog.tools[step.tool]
            svc = self.world.catalog.services[tool.service]
            parts = []
            refs = []
            for name, prov in step.provenance.items():
                value = step.arguments[name]
                if prov.kind in ("given", "literal"):
                    label = _label(name)
                    parts.append(f"{label} {_render_value(value)}")
                    if prov.kind == "given":
                        given[label if label not in given else f"{label} ({j + 1})"] = value
                elif prov.step is not None and prov.semantic not in WEAK:
                    refs.append(f"the {_field_label(prov.field or name)} from step {prov.step + 1}")
            connector = (
                rng.choice(_CONNECTORS_FIRST)
                if j == 0
                else rng.choice(_CONNECTORS_LAST)
                if j == n - 1
                else rng.choice(_CONNECTORS_MID)
            )
            intent = tool.intent
            text = f"{connector}{intent if connector else intent[:1].upper() + intent[1:]} in {svc.title}"
            if parts:
                text += " (" + "; ".join(parts) + ")"
            if refs:
                text += rng.choice((", using ", ", with ", ", based on ")) + " and ".join(dict.fromkeys(refs))
            sentences.append(f"{j + 1}. {text}.")
        last_tool = self.world.catalog.tools[walk.steps[-1].tool]
        if last_tool.annotations.read_only:
            ans = self._answer_value(walk)
            if ans is not None:
                sentences.append(f"Report the {_field_label(ans[0])} you find in your final answer.")
        return "\n".join(sentences), given

    # -- gates ---------------------------------------------------------------------------

    def build(self, walk: Walk, *, seed: int, index: int, rng: random.Random) -> TaskBuild:
        """Turn a walk into a task if it passes every validity gate.

        Returns:
            The task, or a rejection reason: ``unverifiable`` (no criteria can be derived),
            ``no_transition`` (no upstream value reaches a write) or one of :func:`validate_task`'s.
        """
        derived = self.derive(walk)
        if derived is None:
            return TaskBuild(None, "unverifiable")
        criteria, oracle = derived
        if not any(isinstance(c, TransitionCriterion) for c in criteria):
            return TaskBuild(None, "no_transition")
        instruction, given = self.instruction(walk, rng)
        task = self._task(walk, criteria, instruction, given, oracle, seed=seed, index=index, rng=rng)
        # derive() executed the walk afresh: that run is gate 4's second execution.
        reason = validate_task(self.world, task, reference_hash=oracle.state_hash())
        return TaskBuild(None, reason) if reason else TaskBuild(task)

    def _task(
        self,
        walk: Walk,
        criteria: list[Any],
        instruction: str,
        given: dict[str, Any],
        oracle: Episode,
        *,
        seed: int,
        index: int,
        rng: random.Random,
    ) -> Task:
        own = list(dict.fromkeys(s.tool for s in walk.steps))
        services = walk.services
        same = [t for svc in services for t in self._tools_of[svc] if t not in own]
        k = self.config.distractors
        picked = rng.sample(same, min(len(same), (k + 1) // 2))
        # Distractors from other services: draw from all tools, skipping the task's services.
        wanted = k - len(picked)
        others = len(self._all_tools) - sum(len(self._tools_of[svc]) for svc in services)
        chosen: set[str] = set()
        while len(chosen) < min(wanted, others):
            t = self._all_tools[rng.randrange(len(self._all_tools))]
            if self.graph.service_of[t] not in services:
                chosen.add(t)
        picked += sorted(chosen)
        tools = sorted(own + picked)
        fan_in = any(len({p.step for p in s.provenance.values() if p.kind == "step"}) >= 2 for s in walk.steps)
        open_world = sum(1 for s in walk.steps if self.world.catalog.tools[s.tool].annotations.open_world)
        writes = sum(1 for s in walk.steps if self.world.catalog.tools[s.tool].writes)
        digest = hashlib.sha256(f"{seed}:{index}:{self.world.version}".encode()).hexdigest()[:12]
        return Task(
            id=f"t{index:05d}-{digest}",
            seed=seed,
            index=index,
            world_seed=self.world.seed,
            world_version=self.world.version,
            catalog=self.world.catalog.fingerprint,
            instruction=instruction,
            given=given,
            tools=tools,
            solution=[
                SolutionStep(
                    tool=s.tool,
                    arguments=json.loads(canonical_json(s.arguments)),
                    provenance={n: p.to_dict() for n, p in s.provenance.items()},
                )
                for s in walk.steps
            ],
            criteria=criteria,
            recording=oracle.recording,
            metadata={
                "services": services,
                "length": len(walk.steps),
                "writes": writes,
                "fan_in": fan_in,
                "open_world_steps": open_world,
                "difficulty": len(walk.steps) + len(services) + (2 if fan_in else 0),
            },
        )

    # -- the loop ------------------------------------------------------------------------

    def task_at(self, seed: int, index: int, seen: set[str], rejected: dict[str, int]) -> Task | None:
        """Draw walks for one index until one becomes a new task (deterministic in seed and index)."""
        for attempt in range(self.config.attempts):
            rng = random.Random(f"compoworld-synth:{seed}:{index}:{attempt}")
            drawn = draw_walk(self.world, self.graph, rng, self.config.walk, self.pool)
            if drawn.walk is None:
                rejected[drawn.reason] = rejected.get(drawn.reason, 0) + 1
                continue
            built = self.build(drawn.walk, seed=seed, index=index, rng=rng)
            if built.task is None:
                rejected[built.reason] = rejected.get(built.reason, 0) + 1
                continue
            signature = solution_signature(built.task)
            if signature in seen:
                rejected["duplicate"] = rejected.get("duplicate", 0) + 1
                continue
            seen.add(signature)
            return built.task
        return None

    def tasks(
        self, seed: int, count: int, start: int = 0, seen: set[str] | None = None
    ) -> Iterator[tuple[int, Task | None, dict[str, int]]]:
        """Yield ``(index, task or None, rejections)`` for indices ``start..count-1``."""
        seen = seen if seen is not None else set()
        for index in range(start, count):
            rejected: dict[str, int] = {}
            yield index, self.task_at(seed, index, seen, rejected), rejected


def _run(world: World, task: Task, steps: int) -> tuple[Episode, list[Any]]:
    ep = Episode(world, world_model=ReplayWorldModel(task.recording))
    results = []
    for step in task.solution[:steps]:
        res = ep.call(step.tool, step.arguments)
        results.append(res.result if res.ok else res.error)
    return ep, results


def validate_task(world: World, task: Task, *, reference_hash: str | None = None) -> str | None:
    """Run every validity gate of DESIGN §5 on a task, in its world.

    Open-world answers come from the task's recording, so validation never
    asks a world model again.

    Args:
        world: The task's world (same seed and version).
        task: The task.
        reference_hash: The state hash of an independent earlier execution of the
            solution; when given it stands in for gate 4's second execution.

    Returns:
        None when every gate holds, else the first failure: ``bad_dag`` (criteria
        dependencies name unknown criteria or form a cycle), ``unreplayable``,
        ``oracle_fails``, ``trivial``, ``prefix_passes``, ``unused_step``,
        ``nondeterministic``, ``ambiguous`` or ``leak``.
    """
    if not _is_dag(task.criteria):
        return "bad_dag"
    n = len(task.solution)
    # One execution serves gates 1 to 3: the state after k steps is the prefix of length k.
    oracle = Episode(world, world_model=ReplayWorldModel(task.recording))
    prefix_passed: list[bool] = []
    results: list[Any] = []
    for step in task.solution:
        prefix_passed.append(all(v.passed for v in check_criteria(task.criteria, oracle, "")))
        res = oracle.call(step.tool, step.arguments)
        if not res.ok:
            return "unreplayable"
        results.append(res.result)
    # Gate 1: the oracle passes every criterion.
    if not all(v.passed for v in check_criteria(task.criteria, oracle, task_answer(task))):
        return "oracle_fails"
    # Gate 2: doing nothing fails.
    if prefix_passed[0]:
        return "trivial"
    # Gate 3: every proper prefix fails.
    if any(prefix_passed[1:]):
        return "prefix_passes"
    # Every step matters: it writes, or a later step or the answer uses what it found.
    used = {p.get("step") for s in task.solution for p in s.provenance.values() if p["kind"] == "step"}
    for j, step in enumerate(task.solution):
        if not world.catalog.tools[step.tool].writes and j not in used and j != n - 1:
            return "unused_step"
    # Gate 4: re-executing on a fresh episode gives the same state hash.
    if reference_hash is None:
        reference_hash = _run(world, task, n)[0].state_hash()
    if reference_hash != oracle.state_hash():
        return "nondeterministic"
    # Gate 5: every entity named is identified uniquely: values taken from a list come from a one-item list.
    for step in task.solution:
        for prov in step.provenance.values():
            if prov["kind"] == "step" and "[" in str(prov.get("field", "")) and not is_singleton(results[prov["step"]]):
                return "ambiguous"
    # Gate 6: the instruction holds no value the agent must discover.
    stated = {json.dumps(v) for s in task.solution for k, v in s.arguments.items() if s.provenance[k]["kind"] != "step"}
    for step in task.solution:
        for name, prov in step.provenance.items():
            if prov["kind"] != "step":
                continue
            value = step.arguments[name]
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and len(v) >= 3 and json.dumps(v) not in stated and v in task.instruction:
                    return "leak"
    return None


def _is_dag(criteria: list[Any]) -> bool:
    """Whether criteria dependencies name known criteria and have no cycle."""
    deps = {c.id: list(c.depends_on) for c in criteria}
    if any(d not in deps for ds in deps.values() for d in ds):
        return False
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        if state.get(node) == 1:
            return False
        if state.get(node) == 2:
            return True
        state[node] = 1
        ok = all(visit(d) for d in deps[node])
        state[node] = 2
        return ok

    return all(visit(c) for c in deps)


def _is_new_id(value: Any, added_ids: set[str]) -> bool:
    """Whether a value is (or holds) the id of a record this episode created: such ids differ between solutions."""
    if isinstance(value, str):
        return value in added_ids
    if isinstance(value, list):
        return any(_is_new_id(v, added_ids) for v in value)
    if isinstance(value, dict):
        return any(_is_new_id(v, added_ids) for v in value.values())
    return False
