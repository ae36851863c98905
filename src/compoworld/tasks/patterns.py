"""Difficulty patterns: parts a scenario takes on where they fit, each with its own setup and criteria.

Real cross-application work is hard less for its length than for what the world holds: a
near-duplicate of the person the work is about, a row that looks right and is stale. A pattern is
applied to a drawn walk before it becomes a task: it adds calls to the task's setup (what the world
holds when the agent starts) and negative criteria (what the agent must leave alone). The walk's own
steps stay the oracle's; the task is kept only if it still replays and passes every gate with the
pattern in place.

* ``policy``: a choice a write makes (the kind of follow-up, a priority, a channel) is no longer stated:
  a rule table in a spreadsheet, planted in the setup, maps a value of the trigger's record (its
  priority, its tier, its country) to it, with rows for other values around the right one. The agent
  must find the sheet, look the record's value up and apply the row.
* ``decoys``: a near-duplicate of a record the work acts on (the same person under a look-alike
  e-mail domain, a product under a variant SKU) is planted in the setup, in the state of the record it
  imitates; a criterion asks that it be left alone.

Each pattern names the corners an agent could cut (:class:`Shortcut`: ignore the rule, act on every
match); synthesis keeps a patterned task only if each of them fails it (:func:`shortcut_passes`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.engine.openworld import ReplayWorldModel
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import non_null
from compoworld.tasks.criteria import UnchangedCriterion, check_criteria
from compoworld.tasks.graph import ToolGraph, field_label, label
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.triggers import event_tools
from compoworld.tasks.walk import Provenance, Step, Walk, flatten
from compoworld.world.world import World

__all__ = [
    "PATTERNS",
    "Decoy",
    "Patterned",
    "Policy",
    "Shortcut",
    "apply_patterns",
    "near_duplicate",
    "near_duplicate_email",
    "plant_decoy",
    "plant_policy",
    "shortcut_passes",
]

PATTERNS: tuple[str, ...] = ("policy", "decoys")
"""The patterns synthesis can apply, by name (``synth --patterns``)."""


@dataclass(frozen=True, slots=True)
class Decoy:
    """A near-duplicate planted in the setup.

    Attributes:
        steps: The setup calls that create it and bring it to the state of the record it imitates.
        table: Its table.
        record_id: Its id, as the call returned it.
        of: The id of the record it imitates.
        why: What it is, in words.
    """

    steps: list[Step]
    table: str
    record_id: str
    of: str
    why: str


@dataclass(frozen=True, slots=True)
class Patterned:
    """A walk with patterns applied.

    Attributes:
        walk: The walk, its setup extended by the patterns' calls (before the trigger event).
        negatives: The criteria the patterns add (ids are given when the task's criteria are known).
        names: The patterns applied, in order.
        notes: Sentences the instruction ends with (where a rule the agent must apply is kept).
    """

    walk: Walk
    negatives: list[UnchangedCriterion]
    names: list[str]
    notes: list[str] = field(default_factory=list)
    shortcuts: list[Shortcut] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Shortcut:
    """A corner an agent could cut that a patterned task must not reward (the task is dropped if it does).

    Attributes:
        name: ``ignore_policy`` (never read the rule: keep the stated or default choice, skip the lookups)
            or ``every_match`` (act on every record that looks right: the decoy too).
        drop: Solution steps the shortcut skips.
        choice: ``(step, argument, value)``: the value the shortcut passes instead (None: leaves it out).
        also: ``(id, other id)``: every call that names the first is made on the second as well.
    """

    name: str
    drop: tuple[int, ...] = ()
    choice: tuple[int, str, Any] | None = None
    also: tuple[str, str] | None = None

    def calls(self, solution: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
        """The solution's calls as the shortcut makes them."""
        out: list[tuple[str, dict[str, Any]]] = []
        for i, (tool, args) in enumerate(solution):
            if i in self.drop:
                continue
            if self.choice is not None and self.choice[0] == i:
                _, name, value = self.choice
                args = {k: v for k, v in args.items() if k != name} | ({} if value is None else {name: value})
            out.append((tool, args))
            if self.also is not None and self.also[0] in args.values():
                out.append((tool, {k: self.also[1] if v == self.also[0] else v for k, v in args.items()}))
        return out


def shortcut_passes(world: World, task: Task, shortcut: Shortcut) -> bool:
    """Whether a shortcut's calls, made after the task's setup, meet every criterion of the task.

    Args:
        world: The task's world.
        task: The task.
        shortcut: The shortcut.
    """
    episode = Episode(world, world_model=ReplayWorldModel(task.recording))
    base = apply_setup(episode, task)
    for tool, args in shortcut.calls([(s.tool, s.arguments) for s in task.solution]):
        episode.call(tool, args)
    return all(v.passed for v in check_criteria(task.criteria, episode, task_answer(task), base))


def _lookalikes(domain: str) -> list[str]:
    """Look-alike domains a second record of the same person may carry (a typo, a subsidiary, an old signup)."""
    stem, _, tld = domain.rpartition(".")
    found = [f"{stem}.co" if tld == "com" else "", f"{stem}.net" if tld != "net" else "", f"{stem}-group.{tld}"]
    return [d for d in [*found, f"mail.{domain}"] if d and d != domain]


def near_duplicate_email(email: str, rng: random.Random, taken: set[str] | None = None) -> str | None:
    """The same mailbox name at a look-alike domain (``jane.doe@acme.co`` for ``jane.doe@acme.com``).

    Args:
        email: The address to imitate.
        rng: Draws the look-alike.
        taken: Addresses already in use (casefolded), never returned.

    Returns:
        The look-alike address, or None when ``email`` is no address or every look-alike is taken.
    """
    local, at, domain = email.partition("@")
    if not at or not local or "." not in domain:
        return None
    variants = _lookalikes(domain)
    rng.shuffle(variants)
    for variant in variants:
        candidate = f"{local}@{variant}"
        if taken is None or candidate.casefold() not in taken:
            return candidate
    return None


def _targets(world: World, graph: ToolGraph, walk: Walk) -> list[tuple[str, str, str, str]]:
    """World records the walk changes after finding them by a value: ``(table, id, field, value)``.

    A record qualifies when a step updates or moves it, its id came from an earlier read that filtered
    on one of its own fields by the value it holds there (an e-mail, a SKU, a company), and the world
    held it before the walk.
    """
    tools = world.catalog.tools
    found = []
    for step in walk.steps:
        tool = tools[step.tool]
        if action_of(tool) not in ("update", "transition"):
            continue
        for port in graph.inputs[step.tool]:
            prov = step.provenance.get(port.path)
            if prov is None or prov.kind != "step" or not port.semantic.endswith(".id") or prov.step is None:
                continue
            spec = world.catalog.resources.get(port.semantic.removesuffix(".id"))
            record_id = step.arguments.get(port.path)
            if spec is None or not isinstance(record_id, str) or record_id not in world.tables[spec.table].records:
                continue
            finder = walk.steps[prov.step]
            if tools[finder.tool].writes or tools[finder.tool].resource != spec.qualified:
                continue
            for name, value in finder.arguments.items():
                if (
                    name in spec.model.model_fields
                    and isinstance(value, str)
                    and finder.provenance[name].kind in ("step", "given")
                    and getattr(world.tables[spec.table].records[record_id], name, None) == value
                ):
                    found.append((spec.table, record_id, name, value))
    return found


_CODE = re.compile(r"^[A-Z0-9][A-Z0-9-]*$")


def near_duplicate(value: str, rng: random.Random, taken: set[str] | None = None) -> str | None:
    """A value that looks like ``value`` and is another: a look-alike e-mail, a variant code, a longer name.

    ``jane.doe@acme.co`` for ``jane.doe@acme.com``, ``WC-1042-B`` for ``WC-1042``, ``Kovacs Consulting
    Group`` for ``Kovacs Consulting``.

    Args:
        value: The value to imitate.
        rng: Draws the variant.
        taken: Values already in use (casefolded), never returned.

    Returns:
        The variant, or None when none fits or every one is taken.
    """
    if "@" in value:
        return near_duplicate_email(value, rng, taken)
    if _CODE.match(value):
        variants = [f"{value}-B", f"{value}-OLD", f"{value}-2"]
    elif " " in value.strip():
        variants = [f"{value} Group", f"{value} Holdings", f"{value} International"]
    else:
        return None
    rng.shuffle(variants)
    return next((v for v in variants if taken is None or v.casefold() not in taken), None)


def plant_decoy(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Decoy | None:
    """A near-duplicate of a record the walk acts on: the same person at a look-alike e-mail domain, a variant SKU.

    It is made by the create tool of the record's own service, with the record's own values but a
    look-alike of the value the walk found it by (:func:`near_duplicate`), so the walk's lookups by
    that value still find one record, while anyone who looks it up by name finds two.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk.
        rng: Draws the target and the look-alike.

    Returns:
        The decoy, or None when the walk acts on no such record or no decoy can be made.
    """
    targets = _targets(world, graph, walk)
    if not targets:
        return None
    table, record_id, field, value = rng.choice(targets)
    spec = world.tables[table].spec
    record = world.tables[table].records[record_id]
    tools = world.catalog.tools
    creates = [
        n
        for n in graph.tools
        if tools[n].resource == spec.qualified and action_of(tools[n]) == "create" and field in _params(world, n)
    ]
    if not creates:
        return None
    taken = {str(v).casefold() for v in world.tables[table].index(field)}
    lookalike = near_duplicate(value, rng, taken)
    if lookalike is None:
        return None
    for name in sorted(creates):
        required = set(tools[name].required)
        values = record.model_dump(mode="json")
        # The record's own values where the tool takes them, but no second copy of its phone or other
        # unique handles: a duplicate signup shares a name and a company, not a number.
        args: dict[str, Any] = {
            k: values[k]
            for k in sorted(_params(world, name))
            if k in values and values[k] not in (None, "", []) and (k in required or not _handle(k))
        }
        args[field] = lookalike
        if not required <= set(args):
            continue
        # Made first, as the task's setup makes it: the duplicate was there before anything happened.
        episode = Episode(world)
        res = episode.call(name, args)
        if not res.ok or not isinstance(res.result, dict) or not isinstance(res.result.get("id"), str):
            continue
        decoy_id = res.result["id"]
        # A copy still in its first state (a draft listing) is no trap: it is brought to the original's state.
        moves = _same_state(world, graph, episode, spec.table, decoy_id, record)
        if not all(episode.call(call.tool, call.arguments).ok for call in walk.setup):
            continue
        step = Step(name, args, {k: Provenance("literal") for k in args}, res.result)
        why = f"the near-duplicate {spec.noun} with {field.replace('_', ' ')} {lookalike}"
        return Decoy([step, *moves], table, decoy_id, record_id, why)
    return None


# Fields that say what state a record is in: a copy must match them to pass for the original.
_STATE = re.compile(r"^(status|state|stage|active|is_active|enabled|published|archived|suspended)$")


def _same_state(
    world: World, graph: ToolGraph, episode: Episode, table: str, decoy_id: str, original: Any
) -> list[Step]:
    """Calls that move a new copy to the state of the record it imitates (none when it is there already).

    One call of a tool of the record's service that changes its state (:func:`event_tools`) and needs
    nothing but its id and the state to set; [] when none brings it there (the copy stays as it is).
    """
    spec = world.tables[table].spec
    decoy = episode.get(table, decoy_id)
    if decoy is None:
        return []
    target = {
        f: getattr(original, f)
        for f in spec.model.model_fields
        if _STATE.match(f) and getattr(decoy, f, None) != getattr(original, f, None)
    }
    if not target:
        return []
    tools = world.catalog.tools
    for name in event_tools(world, graph, f"{spec.qualified}.id"):
        id_param = next(p.path for p in graph.inputs[name] if p.required and p.semantic == f"{spec.qualified}.id")
        args: dict[str, Any] = {id_param: decoy_id}
        props = tools[name].parameters_schema.get("properties", {})
        args |= {f: v for f, v in target.items() if f in props and isinstance(v, str | bool)}
        if not set(tools[name].required) <= set(args):
            continue
        snap = episode.snapshot()
        res = episode.call(name, args)
        moved = episode.get(table, decoy_id)
        if res.ok and moved is not None and all(getattr(moved, f) == v for f, v in target.items()):
            return [Step(name, args, {k: Provenance("literal") for k in args}, res.result)]
        episode.restore(snap)
    return []


def _params(world: World, tool: str) -> set[str]:
    """A tool's parameter names."""
    return set(world.catalog.tools[tool].parameters_schema.get("properties", {}))


def _handle(name: str) -> bool:
    """Whether a field is a unique handle of its record (a phone, a login, an external id)."""
    return any(w in name for w in ("phone", "login", "username", "handle", "external", "number", "code", "sku"))


def apply_patterns(
    world: World, graph: ToolGraph, walk: Walk, names: tuple[str, ...], rng: random.Random
) -> Patterned | None:
    """Apply the named patterns that fit a walk.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The drawn walk (not changed).
        names: The patterns to try, of :data:`PATTERNS`.
        rng: Draws what the patterns plant.

    Returns:
        The walk with the patterns that fit, or None when none fits.

    Raises:
        ValueError: naming an unknown pattern.
    """
    unknown = [n for n in names if n not in PATTERNS]
    if unknown:
        raise ValueError(f"unknown pattern(s) {', '.join(unknown)}; known: {', '.join(PATTERNS)}")
    setup = list(walk.setup)
    negatives: list[UnchangedCriterion] = []
    applied: list[str] = []
    notes: list[str] = []
    shortcuts: list[Shortcut] = []
    if "policy" in names:
        policy = plant_policy(world, graph, walk, rng)
        if policy is not None:
            walk = policy.walk
            setup = [*policy.setup, *setup]
            notes.append(policy.note)
            shortcuts.append(policy.shortcut)
            applied.append("policy")
    if "decoys" in names:
        decoy = plant_decoy(world, graph, walk, rng)
        if decoy is not None:
            setup = [*decoy.steps, *setup]
            shortcuts.append(Shortcut("every_match", also=(decoy.of, decoy.record_id)))
            negatives.append(
                UnchangedCriterion(
                    id="",
                    description=f"{decoy.why} is left alone",
                    table=decoy.table,
                    record_id=decoy.record_id,
                    why=decoy.why,
                )
            )
            applied.append("decoys")
    if not applied:
        return None
    rerun = _rerun(world, replace(walk, setup=setup))
    return Patterned(rerun, negatives, applied, notes, shortcuts) if rerun is not None else None


@dataclass(frozen=True, slots=True)
class Policy:
    """A rule table planted in a spreadsheet, and the walk that applies it.

    Attributes:
        walk: The walk with the lookups inserted after its first step and the decision taken from the row;
            the inserted reads have no result yet (:func:`apply_patterns` makes every step again after
            the setup).
        setup: The calls that make the spreadsheet, its columns and its rows.
        note: The sentence that tells the agent where the rule is kept.
        shortcut: What an agent that never reads the rule would do (the task must fail it).
    """

    walk: Walk
    setup: list[Step]
    note: str
    shortcut: Shortcut


# Record fields a team keys a rule on, and choices a rule makes: short categorical values.
_CHOICES = re.compile(r"(^|_)(kind|type|priority|severity|channel|category|queue|tier|level|method)$")
# Which values a team keys each kind of choice on: how to follow up by who the customer is, how urgent by
# how much is at stake, where work goes by what it is about. A status is no key: it is what just happened.
_HOW = frozenset(
    {"tier", "plan", "country", "region", "segment", "industry", "language", "locale", "role", "source", "priority"}
)
_URGENCY = frozenset({"tier", "plan", "priority", "severity", "urgency", "category", "type", "segment"})
_ROUTE = frozenset({"type", "kind", "category", "department", "region", "country", "source", "language"})
_KEYED_ON: dict[str, frozenset[str]] = {
    "kind": _HOW,
    "type": _HOW,
    "method": _HOW,
    "channel": _HOW,
    "priority": _URGENCY,
    "severity": _URGENCY,
    "level": _URGENCY,
    "tier": _URGENCY,
    "category": _ROUTE,
    "queue": _ROUTE,
}
_KEYS = frozenset().union(*_KEYED_ON.values())
# The service and tools the rule table is kept with: a spreadsheet, as teams keep routing tables.
_SHEETS = "sheets"


def _key_word(path: str) -> str:
    """What a record's field says about it, by the last word of its name (``type`` for ``items[0].issue_type``)."""
    return path.rsplit(".", 1)[-1].rsplit("_", 1)[-1]


def _choice_word(name: str) -> str:
    """What kind of choice a parameter makes (``kind`` for ``activity_kind``), or "" for none."""
    found = _CHOICES.search(name)
    return found.group(2) if found else ""


def _enum(world: World, tool: str, name: str) -> list[str]:
    """The closed set of string values a parameter takes, or [] when it takes any."""
    schema = world.catalog.tools[tool].parameters_schema
    values = non_null(schema.get("properties", {}).get(name, {}), schema).get("enum")
    return list(values) if isinstance(values, list) and all(isinstance(v, str) for v in values) else []


def plant_policy(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Policy | None:
    """Keep one choice of a write in a rule table, keyed on a value of the trigger's record.

    The choice is a parameter of a later write with a closed set of values (the kind of a follow-up
    activity, a priority, a channel): stated by the walk, or left to its default. The key is a short
    categorical field of the record the first step found (a priority, a tier, a country). The table
    maps the record's value to a value other than the one stated or the default, and two or three of
    the world's other values of the field to other choices. The walk looks the sheet up by its title
    and the record's value up in it, and takes the choice from the row.

    Args:
        world: The world (it must hold the spreadsheet service).
        graph: Its dependency graph.
        walk: The walk.
        rng: Draws the choice, the key and the table.

    Returns:
        The policy, or None when the walk makes no such choice, its first record has no such field, or
        the world has no spreadsheet service.
    """
    if _SHEETS not in world.catalog.services or not walk.steps or not walk.setup:
        return None
    tools = world.catalog.tools
    first = walk.steps[0]
    spec = world.catalog.resources.get(tools[first.tool].resource or "")
    if spec is None:
        return None
    keys = [
        (path, value)
        for path, value in flatten(first.result)
        if isinstance(value, str)
        and 2 <= len(value) <= 30
        and _key_word(path) in _KEYS
        and path.count("[") <= 1
        and path.rsplit(".", 1)[-1] in spec.model.model_fields
    ]
    choices: list[tuple[int, str, list[str]]] = []
    for j, step in enumerate(walk.steps):
        if j == 0 or not tools[step.tool].writes:
            continue
        for name in tools[step.tool].parameters_schema.get("properties", {}):
            prov = step.provenance.get(name)
            if not _CHOICES.search(name) or (prov is not None and prov.kind not in ("literal", "given")):
                continue
            values = _enum(world, step.tool, name)
            if len(values) >= 3:
                choices.append((j, name, values))
    pairs = [
        (key, choice)
        for key in keys
        for choice in choices
        if _key_word(key[0]) in _KEYED_ON.get(_choice_word(choice[1]), frozenset()) - {_choice_word(choice[1])}
    ]
    if not pairs:
        return None
    (key_path, key_value), (j, name, values) = rng.choice(pairs)
    key_field = key_path.rsplit(".", 1)[-1]
    step = walk.steps[j]
    stated = step.arguments.get(name)
    default = tools[step.tool].parameters_schema["properties"][name].get("default")
    picks = [v for v in values if v not in (stated, default)]
    if not picks:
        return None
    chosen = rng.choice(picks)
    others = sorted(
        {
            str(v)
            for v in world.tables[spec.table].index(key_field)
            if isinstance(v, str) and v.casefold() != key_value.casefold()
        }
    )
    if not others:
        return None
    rows = [(key_value, chosen)] + [(v, rng.choice(values)) for v in rng.sample(others, min(3, len(others)))]
    rng.shuffle(rows)
    key_label, choice_label = field_label(key_field).capitalize(), label(name).capitalize()
    # The record the write makes or changes: its resource, or the one thing its name says it acts on.
    subjects = RecipePrior.default().subjects(tools[step.tool])
    resource = tools[step.tool].resource or (next(iter(subjects)) if len(subjects) == 1 else "")
    noun = world.catalog.resources[resource].noun if resource in world.catalog.resources else "record"
    sheet_title = f"{choice_label} by {key_label.lower()}"[:90]
    owner = rng.choice(world.population.employees).email
    title = f"{world.catalog.services[tools[step.tool].service].title} rules"
    calls: list[tuple[str, dict[str, Any]]] = [
        ("sheets__create_spreadsheet", {"owner_email": owner, "title": title, "sheet_title": sheet_title}),
    ]
    episode = Episode(world)
    made = episode.call(*calls[0])
    if not made.ok or not isinstance(made.result, dict):
        return None
    sheet_id = made.result["sheets"][0]["id"]
    calls += [
        ("sheets__add_column", {"sheet_id": sheet_id, "actor_email": owner, "name": key_label, "type": "text"}),
        ("sheets__add_column", {"sheet_id": sheet_id, "actor_email": owner, "name": choice_label, "type": "text"}),
    ]
    calls += [
        ("sheets__append_row", {"sheet_id": sheet_id, "actor_email": owner, "values": {key_label: k, choice_label: v}})
        for k, v in rows
    ]
    results = [made.result]
    for tool, args in calls[1:]:
        res = episode.call(tool, args)
        if not res.ok:
            return None
        results.append(res.result)
    setup = [Step(t, a, {k: Provenance("literal") for k in a}, r) for (t, a), r in zip(calls, results, strict=True)]
    # The walk with the sheet found by its title and the record's value looked up, right after the first step.
    find = Step("sheets__list_sheets", {"title": sheet_title}, {"title": Provenance("given", semantic="text")}, None)
    lookup = Step(
        "sheets__lookup_rows",
        {"sheet_id": sheet_id, "column": key_label, "value": key_value},
        {
            "sheet_id": Provenance("step", 1, "items[0].id", "sheets.sheet.id"),
            "column": Provenance("literal"),
            "value": Provenance("step", 0, key_path, "text"),
        },
        None,
    )
    steps = [first, find, lookup, *(_shifted(s, 2) for s in walk.steps[1:])]
    target = steps[j + 2]
    steps[j + 2] = replace(
        target,
        arguments={**target.arguments, name: chosen},
        provenance={**target.provenance, name: Provenance("step", 2, f"[0].cells.{choice_label}", "text")},
    )
    note = (
        f"How to set the {label(name)} of the {noun} is kept in the {sheet_title!r} sheet in "
        f"{world.catalog.services[_SHEETS].title}: look up the {field_label(key_field)} of the "
        f"{spec.noun} there."
    )
    told = frozenset({1, 2} | {k + 2 for k in walk.told if k >= 1} | {k for k in walk.told if k < 1})
    ignore = Shortcut("ignore_policy", drop=(1, 2), choice=(j + 2, name, stated))
    return Policy(replace(walk, steps=steps, told=told), setup, note, ignore)


def _shifted(step: Step, by: int) -> Step:
    """A step whose references to steps after the first point ``by`` steps further."""

    def move(k: int) -> int:
        return k + by if k >= 1 else k

    provenance = {
        n: replace(
            p,
            step=move(p.step) if p.step is not None else None,
            parts=tuple((move(k), f) for k, f in p.parts),
        )
        for n, p in step.provenance.items()
    }
    return replace(step, provenance=provenance)


def _rerun(world: World, walk: Walk) -> Walk | None:
    """The walk's steps made again after its new setup, or None when what they found changed.

    What a pattern plants moves the clock and may show up in results; every value a later step took
    from an earlier one must still be there, as it was, for the steps to stay the oracle's.
    """
    episode = Episode(world)
    if not all(episode.call(call.tool, call.arguments).ok for call in walk.setup):
        return None
    steps: list[Step] = []
    for step in walk.steps:
        res = episode.call(step.tool, step.arguments)
        if not res.ok:
            return None
        steps.append(replace(step, result=res.result))
    found = [dict(flatten(s.result)) for s in steps]
    before = [dict(flatten(s.result)) for s in walk.steps]
    for step in walk.steps:
        for name, prov in step.provenance.items():
            if prov.kind == "step" and prov.step is not None and prov.field is not None:
                # The value the step takes must be where it was found.
                value = found[prov.step].get(prov.field, _MISSING)
                if step.arguments.get(name) not in (value, [value]):
                    return None
                continue
            fields = list(prov.parts) if prov.kind == "compose" else []
            if prov.kind == "derived" and prov.step is not None and prov.field is not None:
                fields.append((prov.step, prov.field))
            for k, path in fields:
                if before[k].get(path) != found[k].get(path, _MISSING):
                    return None
    return replace(walk, steps=steps, episode=episode)


_MISSING = object()
