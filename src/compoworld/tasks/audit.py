"""How much a task set reads like real work: the realism metrics of ``compoworld audit``.

Gates prove a task is solvable and graded right; they say nothing of whether a
team would ever send it. These metrics do, each a share with its count, its
denominator, the target the project holds synthesis to (docs/design.md §5) and
a few examples of tasks that miss it:

* ``identity_consistency``: of the people a written record names by name and
  by e-mail or phone (the top-level arguments, or one nested object; of several
  e-mails, the one of the person the record is about), and of the messages that
  greet the person they are sent to by name, the share whose name and contact
  belong to one person of the world (a name or contact the task's setup wrote,
  a person's current value in their source of truth, is not judged);
* ``role_fit``: of the links that carry a person's or company's value from a
  step's result into a later step's argument, the share whose roles fit (a
  customer's e-mail into a recipient, not a supplier field);
* ``prior_transitions``: of consecutive steps in different services, the share
  that the recipe prior knows as a real integration pattern (a read that finds the
  record the next step of its service acts on counts as part of that step; a batch's
  steps for its other records, ``metadata["repeats"]``, are judged on the first; a read
  consulted for a value only other services' steps take is judged by where the value goes);
* ``trigger_tasks``: tasks that start from an event their setup puts into the episode;
* ``create_share_of_writes``: of the writing steps, the share that create;
* ``change_tasks``: tasks with an update or a state transition;
* ``message_fact_tasks``: tasks that send a message (mail, chat, SMS, comment,
  note) whose body carries a fact an earlier step found and the instruction
  does not state;
* ``derived_value_tasks``: tasks with an argument derived by a named transform;
* ``goal_level_instructions``: instructions that name no tool and number no step.

The audit replays each task's solution (with its recorded open-world answers)
to read what each step returned.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from compoworld.tasks.actions import action_of, body_parameters
from compoworld.tasks.criteria import NEGATIVE_KINDS
from compoworld.tasks.graph import input_ports
from compoworld.tasks.messages import addressee
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.replay import run_solution
from compoworld.tasks.roles import ROLE_BEARING, input_roles, output_role, role_fits, subject_email
from compoworld.tasks.task import provenance_sources
from compoworld.tasks.walk import flatten

if TYPE_CHECKING:
    from compoworld.engine.catalog import Catalog
    from compoworld.engine.entities import Population
    from compoworld.engine.tools import Tool
    from compoworld.tasks.task import Task
    from compoworld.world.world import World

__all__ = ["TARGETS", "AuditReport", "Metric", "audit_tasks"]

TARGETS: dict[str, tuple[Literal["min", "max"], float]] = {
    "identity_consistency": ("min", 1.0),
    "role_fit": ("min", 0.95),
    "prior_transitions": ("min", 0.90),
    "trigger_tasks": ("min", 0.80),
    "create_share_of_writes": ("max", 0.40),
    "change_tasks": ("min", 0.40),
    "message_fact_tasks": ("min", 0.40),
    "derived_value_tasks": ("min", 0.15),
    "goal_level_instructions": ("min", 1.0),
}
"""Each metric's bound: ``("min", x)`` must reach x, ``("max", x)`` must stay at or below it."""

EXAMPLES = 5
"""Examples kept per metric: enough to see the pattern, few enough to read."""

_STEP_NUMBER = re.compile(r"(?m)^\s*\d+[.)]\s|\bstep\s+\d+\b|\b(first|second|third|next|finally),\s", re.IGNORECASE)
_TOOL_NAME = re.compile(r"\b[a-z][a-z0-9]*__[a-z][a-z0-9_]*\b")
# A body "carries" a found value only if the value says something: short strings and small numbers match by chance.
_MIN_FACT_CHARS = 4


@dataclass(slots=True)
class Metric:
    """One realism metric over a task set.

    Attributes:
        name: The metric's name (a key of :data:`TARGETS`).
        count: How many items meet it.
        total: How many items it was measured over (tasks, links, steps …).
        unit: What ``total`` counts.
        examples: Up to :data:`EXAMPLES` ``(task id, what is wrong)`` pairs of items that miss it.
    """

    name: str
    count: int = 0
    total: int = 0
    unit: str = "tasks"
    examples: list[tuple[str, str]] = field(default_factory=list)

    @property
    def value(self) -> float | None:
        """The share, or None when there was nothing to measure."""
        return self.count / self.total if self.total else None

    @property
    def met(self) -> bool | None:
        """Whether the share is within its target (None when nothing was measured)."""
        value = self.value
        if value is None:
            return None
        bound, target = TARGETS[self.name]
        return value >= target if bound == "min" else value <= target

    def miss(self, task: Task, detail: str) -> None:
        """Keep one example of an item that misses the metric."""
        if len(self.examples) < EXAMPLES:
            self.examples.append((task.id, detail))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        bound, target = TARGETS[self.name]
        value = self.value
        return {
            "value": None if value is None else round(value, 4),
            "count": self.count,
            "of": self.total,
            "unit": self.unit,
            "target": f"{'>=' if bound == 'min' else '<='} {target:g}",
            "met": self.met,
            "examples": [{"task": t, "detail": d} for t, d in self.examples],
        }


@dataclass(slots=True)
class AuditReport:
    """The realism metrics of a task set.

    Attributes:
        tasks: How many tasks were audited.
        metrics: Each metric by name, in the order of :data:`TARGETS`.
        actions: Writing steps by action (create, update, transition, delete, message, other).
        outside_prior: Category transitions outside the recipe prior, most frequent first.
        unreplayable: Ids of tasks whose solution failed on replay (their facts could not be read).
        patterns: Tasks taking on each difficulty pattern (decoys …).
        criteria_kinds: Criteria by kind, over all tasks.
        by_pattern: For each pattern (and ``none``: tasks without any), its tasks' count, mean solution
            length, mean criteria and share of negative criteria.
    """

    tasks: int
    metrics: dict[str, Metric]
    actions: Counter[str]
    outside_prior: Counter[str]
    unreplayable: list[str]
    patterns: Counter[str] = field(default_factory=Counter)
    criteria_kinds: Counter[str] = field(default_factory=Counter)
    by_pattern: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def negative_share(self) -> float:
        """The share of criteria that are negatives (:data:`~compoworld.tasks.criteria.NEGATIVE_KINDS`)."""
        total = sum(self.criteria_kinds.values())
        return sum(n for k, n in self.criteria_kinds.items() if k in NEGATIVE_KINDS) / total if total else 0.0

    @property
    def all_met(self) -> bool:
        """Whether every measured metric is within its target."""
        return all(m.met is not False for m in self.metrics.values())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as ``compoworld audit --json`` prints it and ``stats.json`` keeps it."""
        return {
            "tasks": self.tasks,
            "all_met": self.all_met,
            "metrics": {name: m.to_dict() for name, m in self.metrics.items()},
            "write_actions": dict(self.actions.most_common()),
            "outside_prior": dict(self.outside_prior.most_common(20)),
            "unreplayable": self.unreplayable,
            "patterns": dict(self.patterns.most_common()),
            "criteria_kinds": dict(self.criteria_kinds.most_common()),
            "negative_criteria_share": round(self.negative_share, 4),
            "by_pattern": self.by_pattern,
        }


def _pattern_breakdown(tasks: Sequence[Task]) -> dict[str, dict[str, float]]:
    """Per pattern (a task counts under each of its patterns; ``none`` for those without): size and negatives."""
    groups: dict[str, list[Task]] = {}
    for task in tasks:
        for name in task.patterns or ["none"]:
            groups.setdefault(name, []).append(task)
    out: dict[str, dict[str, float]] = {}
    for name, group in sorted(groups.items()):
        criteria = [c for t in group for c in t.criteria]
        out[name] = {
            "tasks": len(group),
            "mean_length": round(sum(len(t.solution) for t in group) / len(group), 3),
            "mean_criteria": round(len(criteria) / len(group), 3),
            "negative_criteria_share": round(
                sum(c.kind in NEGATIVE_KINDS for c in criteria) / max(1, len(criteria)), 4
            ),
        }
    return out


def _semantics(tool: Tool) -> dict[str, str]:
    """Each typed parameter path of a tool (``email``, ``attendees[].email``) and its semantic type."""
    return {p.path: p.semantic for p in input_ports(tool)}


def _identity_groups(arguments: dict[str, Any], semantics: dict[str, str]) -> list[dict[str, str]]:
    """The person-describing values of each object in the arguments (top level, and every nested object)."""
    groups: list[dict[str, str]] = []

    def visit(obj: dict[str, Any], prefix: str) -> None:
        group: dict[str, str] = {}
        emails: dict[str, str] = {}
        for key, value in obj.items():
            path = f"{prefix}{key}"
            if isinstance(value, dict):
                visit(value, f"{path}.")
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, dict):
                        visit(item, f"{path}[].")
            elif isinstance(value, str):
                semantic = semantics.get(path)
                if semantic == "email":
                    emails[key] = value
                elif semantic in ("person.name", "person.first_name", "person.last_name", "phone"):
                    group.setdefault(semantic, value)
        # A name goes with the e-mail of the person the record is about (``to`` beside ``from_email``).
        own = subject_email(list(emails))
        if own is not None:
            group["email"] = emails[own]
        if group:
            groups.append(group)

    visit(arguments, "")
    return groups


class _People:
    """The world's people, found by name, e-mail and phone."""

    def __init__(self, population: Population) -> None:
        self.by_name: dict[str, set[str]] = defaultdict(set)
        self.by_contact: dict[str, set[str]] = defaultdict(set)
        self.first_names: dict[str, str] = {}
        for person in population.people:
            self.first_names[person.key] = person.first_name
            self.by_name[person.name.casefold()].add(person.key)
            self.by_contact[person.email.casefold()].add(person.key)
            self.by_contact[person.phone].add(person.key)

    def greets(self, arguments: dict[str, Any], semantics: dict[str, str], body: str) -> str | None:
        """Whether a message greets the person whose address it goes to.

        Returns:
            None when it cannot be told (no greeting, or an address that is nobody's), ``""`` when
            the greeting is the addressee's first name, else what is wrong.
        """
        name = addressee(body.strip())
        emails = [k for k, v in arguments.items() if semantics.get(k) == "email" and isinstance(v, str)]
        emails += [k for k, v in arguments.items() if semantics.get(f"{k}[]") == "email" and isinstance(v, list)]
        own = subject_email(emails)
        if name is None or own is None:
            return None
        value = arguments[own]
        address = str(value[0] if isinstance(value, list) and value else value)
        keys = self.by_contact.get(address.casefold(), set())
        if not keys:
            return None
        firsts = {self.first_names[k] for k in keys}
        return "" if name in firsts else f"greets {name!r} in a message to {address!r} ({', '.join(sorted(firsts))})"

    def check(self, group: dict[str, str]) -> str | None:
        """None when the group's name and contact are one person's; else what is wrong.

        Raises:
            KeyError: when the group cannot be checked: it lacks a name or a contact, or neither is
                anyone's in the world.
        """
        name = group.get("person.name")
        if name is None and "person.first_name" in group and "person.last_name" in group:
            name = f"{group['person.first_name']} {group['person.last_name']}"
        contact = group.get("email") or group.get("phone")
        if name is None or contact is None:
            raise KeyError("no name and contact")
        named = self.by_name.get(name.casefold(), set())
        reached = self.by_contact.get(contact.casefold() if "@" in contact else contact, set())
        if named & reached:
            return None
        if not named and not reached:
            # Someone outside the population (an open-world answer's person): nobody to be confused with.
            raise KeyError("unanchored")
        if not named:
            return f"{name!r} is nobody in the world, but {contact!r} is someone's"
        if not reached:
            return f"{contact!r} is nobody's (beside {name!r})"
        return f"{name!r} beside another person's {contact!r}"


def _values(result: Any) -> Iterable[str]:
    """The facts a result holds, as text a message body could quote."""
    for _path, value in flatten(result):
        if isinstance(value, bool) or value is None:
            continue
        text = str(value)
        if len(text) >= _MIN_FACT_CHARS:
            yield text


def _carried_fact(task: Task, results: Sequence[Any], j: int, body: str) -> str | None:
    """A fact an earlier step found, not stated by the instruction, that the body of step ``j`` carries."""
    for k in range(j):
        for fact in _values(results[k]):
            if fact in body and fact not in task.instruction:
                return fact
    return None


def _category(catalog: Catalog, tool: Tool) -> str:
    return catalog.services[tool.service].category


def audit_tasks(
    world: World | Callable[[Task], World], tasks: Sequence[Task], *, prior: RecipePrior | None = None
) -> AuditReport:
    """Measure how much a task set reads like real work.

    Args:
        world: The world the tasks were made in (its population decides who is who), or a function
            giving each task's world.
        tasks: The tasks.
        prior: The recipe prior (default: the packaged one).

    Returns:
        The metrics, with examples of tasks that miss each.
    """
    prior = prior or RecipePrior.default()
    world_of = world if callable(world) else (lambda _task: world)
    people: dict[int, _People] = {}
    metrics = {name: Metric(name) for name in TARGETS}
    metrics["identity_consistency"].unit = "people in written records"
    metrics["role_fit"].unit = "links carrying a person's or company's value"
    metrics["prior_transitions"].unit = "transitions between services"
    metrics["create_share_of_writes"].unit = "writing steps"
    actions: Counter[str] = Counter()
    outside: Counter[str] = Counter()
    unreplayable: list[str] = []
    for task in tasks:
        task_world = world_of(task)
        catalog = task_world.catalog
        if id(task_world) not in people:
            people[id(task_world)] = _People(task_world.population)
        tools = [catalog.tools[s.tool] for s in task.solution]
        run = run_solution(task_world, task)
        if not run.ok:
            unreplayable.append(task.id)
        results = [c.result if c.ok else None for c in run.calls]
        kinds = [action_of(t) for t in tools]
        repeats = set(task.metadata.get("repeats", ()))
        consulted = _consulted(task, tools)
        planted = {v for call in task.setup for _, v in flatten(call.arguments) if isinstance(v, str)}
        changed = sent_fact = derived = False
        for j, (step, tool, kind) in enumerate(zip(task.solution, tools, kinds, strict=True)):
            if kind != "read":
                actions[kind] += 1
                create = metrics["create_share_of_writes"]
                create.total += 1
                create.count += kind == "create"
                changed = changed or kind in ("update", "transition")
                for group in _identity_groups(step.arguments, _semantics(tool)):
                    if planted & set(group.values()):
                        continue  # a person's current value the setup wrote (a source of truth updated)
                    try:
                        wrong = people[id(task_world)].check(group)
                    except KeyError:
                        continue
                    identity = metrics["identity_consistency"]
                    identity.total += 1
                    identity.count += wrong is None
                    if wrong is not None:
                        identity.miss(task, f"{tool.name}: {wrong}")
            if kind == "message":
                body = " ".join(str(step.arguments.get(p, "")) for p in body_parameters(tool))
                sent_fact = sent_fact or _carried_fact(task, results, j, body) is not None
                # A message is a record about the person it goes to: the name it greets is theirs.
                wrong = people[id(task_world)].greets(step.arguments, _semantics(tool), body)
                if wrong is not None:
                    identity = metrics["identity_consistency"]
                    identity.total += 1
                    identity.count += wrong == ""
                    if wrong:
                        identity.miss(task, f"{tool.name}: {wrong}")
            for param, prov in step.provenance.items():
                derived = derived or prov.get("kind") == "derived"
                if prov.get("kind") != "step" or prov.get("semantic") not in ROLE_BEARING:
                    continue
                source = tools[int(prov["step"])]
                role = output_role(source, str(prov["field"]))
                # A list parameter's port is its items' (``to[]``); provenance names the parameter (``to``).
                accepted = input_roles(tool, param) or input_roles(tool, f"{param}[]")
                if role is None or accepted is None:
                    continue
                fit = metrics["role_fit"]
                fit.total += 1
                if role_fits(role, accepted):
                    fit.count += 1
                else:
                    wanted = ", ".join(sorted(accepted))
                    fit.miss(task, f"{source.name}.{prov['field']} ({role}) into {tool.name}.{param} ({wanted})")
            # A lookup (weather, exchange rates …) is an aside: the work goes on from the step before it.
            # A read that finds the record the next step of its service acts on is part of that step:
            # the hop between services is the one to the step it serves.
            if _finds_for_next(tools, j):
                continue
            # A step that repeats, for another record of a batch, what earlier steps did: its hops were
            # judged on the first record, and going back to the first service is no integration.
            if j in repeats:
                continue
            if j in consulted:
                # A read consulted for a value another service's write takes (the source of truth for a
                # name) is judged by where its value goes, not by the step it happens to follow.
                _judge(metrics, outside, catalog, prior, task, tool, tools[consulted[j]])
                continue
            work = (
                [
                    t
                    for i, t in enumerate(tools[:j])
                    if not prior.is_lookup(t) and not _finds_for_next(tools, i) and i not in consulted
                ]
                if not prior.is_lookup(tool)
                else tools[:j]
            )
            if work and work[-1].service != tool.service:
                _judge(metrics, outside, catalog, prior, task, work[-1], tool)
        _count_task(metrics["trigger_tasks"], task, bool(task.setup), "no trigger event: the task starts cold")
        _count_task(metrics["change_tasks"], task, changed, "no update or state transition")
        _count_task(metrics["message_fact_tasks"], task, sent_fact, "no message carries a fact found on the way")
        _count_task(metrics["derived_value_tasks"], task, derived, "no value derived by a transform")
        leak = _TOOL_NAME.search(task.instruction) or _STEP_NUMBER.search(task.instruction)
        _count_task(
            metrics["goal_level_instructions"],
            task,
            leak is None,
            f"the instruction says {leak.group().strip()!r}" if leak else "",
        )
    patterns = Counter(p for t in tasks for p in t.patterns)
    by_kind: Counter[str] = Counter(str(c.kind) for t in tasks for c in t.criteria)
    return AuditReport(
        len(tasks), metrics, actions, outside, unreplayable, patterns, by_kind, _pattern_breakdown(tasks)
    )


def _judge(
    metrics: dict[str, Metric],
    outside: Counter[str],
    catalog: Catalog,
    prior: RecipePrior,
    task: Task,
    a: Tool,
    b: Tool,
) -> None:
    """Count one hop between services: inside the recipe prior, or a miss."""
    transitions = metrics["prior_transitions"]
    transitions.total += 1
    if prior.inside(a, b):
        transitions.count += 1
    else:
        outside[f"{_category(catalog, a)} -> {_category(catalog, b)}"] += 1
        transitions.miss(task, f"{a.name} -> {b.name}")


def _consulted(task: Task, tools: Sequence[Tool]) -> dict[int, int]:
    """Reads (after the first step) whose values only steps of other services take: each with its first taker.

    A read that finds what the next step of its own service acts on is part of that step instead.
    """
    takers: dict[int, list[int]] = {}
    for i, step in enumerate(task.solution):
        for prov in step.provenance.values():
            for k in provenance_sources(prov):
                takers.setdefault(k, []).append(i)
    return {
        j: min(takers[j])
        for j, tool in enumerate(tools)
        if j > 0
        and not tool.writes
        and not _finds_for_next(tools, j)
        and takers.get(j)
        and all(tools[i].service != tool.service for i in takers[j])
    }


def _finds_for_next(tools: Sequence[Tool], j: int) -> bool:
    """Whether step ``j`` is a read, after the first step, whose next step is in its own service."""
    return 0 < j < len(tools) - 1 and not tools[j].writes and tools[j + 1].service == tools[j].service


def _count_task(metric: Metric, task: Task, ok: bool, why: str) -> None:
    metric.total += 1
    metric.count += ok
    if not ok:
        metric.miss(task, why)
