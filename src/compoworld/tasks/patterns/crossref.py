"""Cross-reference: a value must agree across two systems, and one of them is the source of truth.

A person's phone number, company, name or job title lives in several systems at once, and they drift
apart: someone changes their number, the help desk is told, the CRM is not. Teams settle it with a rule
("the help desk is the source of truth for phone numbers"). Where the walk takes such a value of a
person from the record it found (a fact its closing message tells, a value a write copies), and the
same person, found by the same e-mail address, has a record with the same value in another service of
the world that a team would keep as the source of truth (a customer's details in the CRM, billing or
the help desk; an employee's in HR, payroll or the identity directory; never a chat or a ride-hailing
app), the pattern:

* plants, in the setup, an update of that other record (made by its service's own update tool): the
  person's value there is now another one (a new number, a renamed company, a promotion, a new
  surname), and the record the walk found holds a stale copy;
* ends the instruction with the rule: the other service is the source of truth for that kind of value;
* inserts the oracle's lookup of the person in the source of truth, right before the write, and the
  write takes the value from there. The instruction names the value by the person it belongs to ("the
  lead's phone"), not by where it is kept: which copy counts is the rule's to say;
* guards the source of truth with an *unchanged* criterion: its record is not brought back to the stale
  copy.

Shortcut the task must fail: ``skip_lookup`` (no lookup: the write takes the stale copy it has at hand).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from compoworld.engine.entities import Person
from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import NotSentCriterion, UnchangedCriterion, carries_fact
from compoworld.tasks.graph import ToolGraph, field_label, normalise_path
from compoworld.tasks.patterns.base import (
    Negative,
    Part,
    Shortcut,
    insert_steps,
    literal_step,
    not_made_with,
    rerun,
    value_at,
    with_argument,
    written_record,
)
from compoworld.tasks.patterns.decoys import near_duplicate
from compoworld.tasks.walk import Provenance, Step, Walk, flatten, identified
from compoworld.world.world import World

__all__ = ["FAMILIES", "Crossref", "find_crossrefs", "plant_crossref"]

FAMILIES: dict[str, str] = {
    "phone": "phone numbers",
    "company": "company names",
    "name": "people's names",
    "job": "job titles",
}
"""The kinds of a person's value two systems can disagree on, with what a rule calls them."""

# A field of each kind, by its name (``caller_name`` is a name, ``mobile_phone`` a phone): the company
# first, so that ``company_name`` is no person's name.
_FIELDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("company", re.compile(r"^(company|company_name|organization|organisation|employer)$")),
    ("phone", re.compile(r"^(?:(\w+)_)?(phone|mobile_phone|mobile|phone_number|work_phone)$")),
    ("name", re.compile(r"^(?:(\w+)_)?(name|full_name|display_name)$")),
    ("job", re.compile(r"^(job_title|title|position)$")),
)
# The systems a team keeps as the source of truth for a person's details, by the category of their service,
# with what colleagues call them: customers' in the CRM, billing or the help desk; staff's in HR or the
# directory. A ride-hailing app or a social network holds copies, not the truth.
_SOURCES_OF_TRUTH: dict[str, tuple[str, frozenset[str]]] = {
    "crm": ("the CRM", frozenset({"contact", "consumer"})),
    "billing": ("billing", frozenset({"contact", "consumer"})),
    "accounting": ("billing", frozenset({"contact", "consumer"})),
    "payments": ("billing", frozenset({"contact", "consumer"})),
    "helpdesk": ("the help desk", frozenset({"contact", "consumer", "employee"})),
    "hr": ("HR", frozenset({"employee"})),
    "hr_payroll": ("payroll", frozenset({"employee"})),
    "identity_access": ("the identity directory", frozenset({"employee"})),
}
_SENIORITY = ("Senior", "Lead", "Principal")
_NOTES = (
    "{Source} is the source of truth for {what}: copies in other systems can lag behind.",
    "For {what}, go by {source}: it is the source of truth, and other systems' copies are not always current.",
)
# How often each kind of value is the one in question, where several are: a new number or a renamed company
# is everyday news; a changed surname is rarer.
_WEIGHTS = {"phone": 3.0, "company": 3.0, "job": 3.0, "name": 1.0}


def _family(world: World, people: dict[str, Person], field: str, email: str, value: str) -> str | None:
    """The kind of a person's value a field holds (``phone``, ``company`` …), or None for none.

    A name, company or job title must be the person's own in the world's population (a vendor's
    ``name`` is its company, not a person's name); a phone goes by the field's name alone.
    """
    for family, pattern in _FIELDS:
        if not pattern.match(field):
            continue
        person = people.get(email.casefold())
        if family == "phone":
            return family
        if person is None:
            return None
        company = world.population.companies_by_key.get(person.company_key or "")
        own = {
            "company": company.name if company is not None else None,
            "name": person.name,
            "job": person.job_title,
        }[family]
        return family if own is not None and own.casefold() == value.casefold() else None
    return None


def _people(world: World, graph: ToolGraph) -> dict[str, Person]:
    """The world's people by e-mail (casefolded), built once per world and graph."""
    key = f"crossref:people:{world.seed}:{world.version}"
    found: dict[str, Person] | None = graph.cache.get(key)
    if found is None:
        found = graph.cache[key] = {p.email.casefold(): p for p in world.population.people}
    return found


def _key(field: str, record: dict[str, Any]) -> str | None:
    """The field of a record that holds the e-mail address of the person a value belongs to.

    ``caller_email`` for ``caller_name``, else ``email``; None when the record holds no address there.
    """
    prefix = next((m.group(1) for _, p in _FIELDS if (m := p.match(field)) and m.groups() and m.group(1)), None)
    for name in ([f"{prefix}_email"] if prefix else []) + ["email"]:
        value = record.get(name)
        if isinstance(value, str) and "@" in value:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Crossref:
    """A person's value the walk takes from one record, also held by a record of theirs in another service.

    Attributes:
        step: The write that takes the value.
        argument: The argument that carries it (the message body, or the parameter it fills).
        found: The step that found the stale copy, and where in its result.
        value: The value, as both records hold it before the setup.
        family: Its kind (a key of :data:`FAMILIES`).
        email: The person's e-mail address, and where the finding step holds it.
        table: The other record's table.
        record_id: The other record.
        field: Its field that holds the value.
        finder: The other service's read that finds the record by the e-mail: ``(tool, parameter)``.
        path: Where that read's result holds the value.
        updater: The other service's tool that sets the field: ``(tool, id parameter)``.
    """

    step: int
    argument: str
    found: tuple[int, str]
    value: str
    family: str
    email: tuple[str, str]
    table: str
    record_id: str
    field: str
    finder: tuple[str, str]
    path: str
    updater: tuple[str, str]


def _taken(walk: Walk, world: World) -> list[tuple[int, str, int, str]]:
    """``(write, argument, step, path)`` of each found value a write takes as it was found.

    A fact of a message's text, or a parameter filled with a value an earlier step found (never an id,
    an e-mail address or whom a message goes to: the records and people the work acts on are not in
    question).
    """
    tools = world.catalog.tools
    out = []
    for j, step in enumerate(walk.steps):
        if not tools[step.tool].writes:
            continue
        message = action_of(tools[step.tool]) == "message"
        for name, prov in step.provenance.items():
            if prov.kind == "compose":
                out += [(j, name, k, path) for k, path in prov.parts]
            elif (
                prov.kind == "step"
                and prov.step is not None
                and prov.field
                and not str(prov.semantic).endswith(".id")
                and prov.semantic != "email"
                and not (message and prov.semantic == "phone")
                and isinstance(step.arguments.get(name), str)
            ):
                out.append((j, name, prov.step, prov.field))
    return [
        (j, name, k, path)
        for j, name, k, path in out
        if k not in walk.told and not walk.steps[k].phrase and walk.steps[k].result is not None
    ]


def _holders(world: World, graph: ToolGraph) -> dict[str, list[tuple[str, str, str]]]:
    """Every record of a source of truth that carries a person's e-mail address, by address.

    ``(table, record id, field)``; built once per world and graph.
    """
    key = f"crossref:holders:{world.seed}:{world.version}"
    cached: dict[str, list[tuple[str, str, str]]] | None = graph.cache.get(key)
    if cached is not None:
        return cached
    found: dict[str, list[tuple[str, str, str]]] = {}
    for name, table in world.tables.items():
        if world.catalog.services[table.spec.service].category not in _SOURCES_OF_TRUTH:
            continue
        for field in table.spec.model.model_fields:
            if field != "email" and not field.endswith("_email"):
                continue
            for rid, record in table.records.items():
                value = getattr(record, field, None)
                if isinstance(value, str) and "@" in value:
                    found.setdefault(value.casefold(), []).append((name, rid, field))
    graph.cache[key] = found
    return found


def _by_resource(world: World, graph: ToolGraph) -> dict[str, list[str]]:
    """The tools of each resource, by name (built once per graph)."""
    cached: dict[str, list[str]] | None = graph.cache.get("crossref:by_resource")
    if cached is None:
        cached = {}
        for n in graph.tools:
            resource = world.catalog.tools[n].resource
            if resource:
                cached.setdefault(resource, []).append(n)
        graph.cache["crossref:by_resource"] = cached
    return cached


def _finders(world: World, graph: ToolGraph, resource: str, key: str) -> list[str]:
    """Reads of a resource that filter by its e-mail field and need nothing else, by name."""
    tools = world.catalog.tools
    return [
        n
        for n in _by_resource(world, graph).get(resource, [])
        if not tools[n].writes
        and key in tools[n].parameters_schema.get("properties", {})
        and set(tools[n].required) <= {key}
    ]


def _updaters(world: World, graph: ToolGraph, resource: str, field: str) -> list[tuple[str, str]]:
    """Tools of a resource that set a field of one record named by its id: ``(tool, id parameter)``."""
    tools = world.catalog.tools
    out = []
    for n in _by_resource(world, graph).get(resource, []):
        tool = tools[n]
        if not tool.writes or action_of(tool) != "update":
            continue
        ids = [p.path for p in graph.inputs[n] if p.semantic == f"{resource}.id" and "." not in p.path]
        props = tool.parameters_schema.get("properties", {})
        if len(ids) == 1 and field in props and set(tool.required) <= {ids[0], field}:
            out.append((n, ids[0]))
    return out


def _sought(result: Any, field: str, record_id: str, value: str) -> str | None:
    """Where a read's result holds a record's field with a value (``items[0].phone``), or None.

    The result must name that record alone (every list on the way to it of one item).
    """
    flat = dict(flatten(result))
    for path, held in flat.items():
        last = path.rsplit(".", 1)[-1]
        parent = path.rpartition(".")[0]
        if last == field and held == value and flat.get(f"{parent}.id" if parent else "id") == record_id:
            return path if identified(result, path) else None
    return None


def find_crossrefs(world: World, graph: ToolGraph, walk: Walk) -> list[Crossref]:
    """Values of a person a write takes that a record of theirs in another service holds as well.

    The other record is in a service the walk does not use, holds the very same value in a field of
    the same kind, is found by the person's e-mail address through a read of its own service (one
    record), and can be set by an update tool of its service that needs nothing but its id.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.

    Returns:
        Every such value and record, in walk order.
    """
    used = set(walk.services)
    holders = _holders(world, graph)
    people = _people(world, graph)
    out = []
    for j, name, k, path in _taken(walk, world):
        value = value_at(walk.steps[k].result, path)
        if not isinstance(value, str) or len(value) < 3:
            continue
        parent, _, field = path.rpartition(".")
        record = value_at(walk.steps[k].result, parent) if parent else walk.steps[k].result
        if not isinstance(record, dict):
            continue
        key = _key(field, record)
        if key is None:
            continue
        email = record[key]
        family = _family(world, people, field, email, value)
        person = people.get(email.casefold())
        if family is None or person is None or (family == "company" and person.role == "employee"):
            continue
        for table, rid, key_field in holders.get(email.casefold(), []):
            spec = world.tables[table].spec
            category = world.catalog.services[spec.service].category
            if spec.service in used or person.role not in _SOURCES_OF_TRUTH[category][1]:
                continue
            held = world.tables[table].records[rid]
            for other in spec.model.model_fields:
                if getattr(held, other, None) != value or _family(world, people, other, email, value) != family:
                    continue
                updaters = _updaters(world, graph, spec.qualified, other)
                if not updaters:
                    continue
                for finder in _finders(world, graph, spec.qualified, key_field):
                    res = Episode(world).call(finder, {key_field: email})
                    where = _sought(res.result, other, rid, value) if res.ok else None
                    if where is not None:
                        out.append(
                            Crossref(
                                j,
                                name,
                                (k, path),
                                value,
                                family,
                                (email, f"{parent}.{key}" if parent else key),
                                table,
                                rid,
                                other,
                                (finder, key_field),
                                where,
                                updaters[0],
                            )
                        )
                        break
    return out


def _new_value(world: World, family: str, value: str, rng: random.Random) -> str | None:
    """Another value of the same kind, as it changes in life: a new number, a renamed company, a new surname."""
    if family == "phone":
        digits = [i for i, ch in enumerate(value) if ch.isdigit()]
        if len(digits) < 6:
            return None
        out = list(value)
        for i in digits[-4:]:
            out[i] = str(rng.randrange(10))
        new = "".join(out)
        return new if new != value else None
    if family == "company":
        return near_duplicate(value, rng) or f"{value} Group"
    if family == "name":
        first, _, last = value.partition(" ")
        surnames = sorted({p.last_name for p in world.population.people} - {last})
        return f"{first} {rng.choice(surnames)}" if last and surnames else None
    rank = next((w for w in _SENIORITY if value.startswith(f"{w} ")), None)
    title = value.removeprefix(f"{rank} ") if rank else value
    return f"{rng.choice([w for w in _SENIORITY if w != rank])} {title}"


def _noun(world: World, step: Step) -> str:
    """What the record a step found is (``lead``), by its tool's resource or the one its name mentions."""
    spec = written_record(world, step.tool)
    return spec.noun if spec is not None else "person"


def _retold(walk: Walk, ref: Crossref, new: str, at: int) -> tuple[Any, Provenance, Any] | None:
    """The write's argument with the source of truth's value: ``(argument, provenance, stale argument)``.

    A message's text gets the new value where it told the stale one (once, and inside no other fact it
    tells); a parameter takes the new value. ``at`` is the index of the inserted lookup.
    """
    step = walk.steps[ref.step]
    prov = step.provenance[ref.argument]
    stale = step.arguments[ref.argument]
    if prov.kind != "compose":
        return new, Provenance("step", at, ref.path, prov.semantic), stale
    if not isinstance(stale, str) or stale.count(ref.value) != 1:
        return None
    others = [value_at(walk.steps[k].result, p) for k, p in prov.parts if (k, p) != ref.found]
    if any(isinstance(o, str) and ref.value.casefold() in o.casefold() for o in others):
        return None
    text = stale.replace(ref.value, new)
    if any(isinstance(o, str) and o.casefold() not in text.casefold() for o in others):
        return None
    parts = tuple((at, ref.path) if (k, p) == ref.found else (k, p) for k, p in prov.parts)
    return text, replace(prov, parts=parts), stale


def _told_elsewhere(world: World, walk: Walk, ref: Crossref) -> bool:
    """Whether the stale value is written, stated or told anywhere but where the pattern replaces it.

    The work would then say two things of the person at once (a subject line with the old name, a
    message with the new one).
    """
    stale = ref.value.casefold()
    if stale in walk.trigger.casefold():
        return True
    for j, step in enumerate(walk.steps):
        if not world.catalog.tools[step.tool].writes and all(
            p.kind not in ("given", "literal") for p in step.provenance.values()
        ):
            continue
        for name, value in step.arguments.items():
            if (j, name) == (ref.step, ref.argument):
                continue
            if any(
                isinstance(v, str) and stale in v.casefold() for v in (value if isinstance(value, list) else [value])
            ):
                return True
    return False


def plant_crossref(
    world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]
) -> Part | None:
    """The ``crossref`` pattern: the walk's copy of a person's value is stale; the source of truth has another.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the value and its new version.
        names: The patterns asked for (unused: the planter is only called for ``crossref``).

    Returns:
        The part (its walk made again), or None when no value of the walk is held elsewhere, or the
        walk no longer replays with the change.
    """
    refs = find_crossrefs(world, graph, walk)
    # A weighted draw without replacement: each value's key is a uniform draw to the power of 1/weight.
    refs.sort(key=lambda r: -(rng.random() ** (1 / _WEIGHTS[r.family])))
    for ref in refs[:3]:
        part = _plant(world, walk, ref, rng)
        if part is None:
            continue
        made = rerun(world, part.walk)
        if made is not None:
            return replace(part, walk=made)
    return None


def _plant(world: World, walk: Walk, ref: Crossref, rng: random.Random) -> Part | None:
    """The part for one cross-reference: the update in the setup, the lookup, the rule and the guard."""
    new = _new_value(world, ref.family, ref.value, rng)
    if new is None or new.casefold() in ref.value.casefold():
        return None  # the stale copy would still tell the new value
    update_tool, id_param = ref.updater
    episode = Episode(world)
    args = {id_param: ref.record_id, ref.field: new}
    res = episode.call(update_tool, args)
    held = episode.get(ref.table, ref.record_id)
    if not res.ok or held is None or getattr(held, ref.field, None) != new:
        return None
    finder, key = ref.finder
    email, email_path = ref.email
    found = episode.call(finder, {key: email})
    if not found.ok or _sought(found.result, ref.field, ref.record_id, new) != ref.path:
        return None
    k = ref.found[0]
    lookup = Step(
        finder,
        {key: email},
        {key: Provenance("step", k, email_path, "email")},
        None,
        phrase=f"the {_noun(world, walk.steps[k])}'s {field_label(normalise_path(ref.found[1]))}",
    )
    j = ref.step
    # Before the reads that find where the write goes (the channel a post goes to): they belong to the write.
    at = j
    tools = world.catalog.tools
    while (
        at - 1 > k
        and not tools[walk.steps[at - 1].tool].writes
        and tools[walk.steps[at - 1].tool].service == (tools[walk.steps[j].tool].service)
    ):
        at -= 1
    retold = _retold(walk, ref, new, at)
    if retold is None:
        return None
    value, prov, stale = retold
    if _told_elsewhere(world, walk, ref):
        return None
    # The text's other facts found at or after the lookup's place move with the steps that found them.
    if prov.kind == "compose":
        parts = tuple((m + 1 if m >= at and (m, p) != (at, ref.path) else m, p) for m, p in prov.parts)
        counted = prov.step + 1 if prov.step is not None and prov.step >= at else prov.step
        prov = replace(prov, parts=parts, step=counted)
    inserted = insert_steps(walk, at, [lookup])
    steps = list(inserted.steps)
    steps[j + 1] = with_argument(steps[j + 1], ref.argument, value, prov)
    spec = world.tables[ref.table].spec
    service = world.catalog.services[spec.service]
    where, who = service.title, _SOURCES_OF_TRUTH[service.category][0]
    # Named by its role ("billing (Paystream)") unless the work uses another system of that kind.
    if any(world.catalog.services[s].category == service.category for s in walk.services):
        who = where
    else:
        who = f"{who} ({where})"
    what = FAMILIES[ref.family]
    guard = UnchangedCriterion(
        id="",
        description=f"the {spec.noun} in {where}, the source of truth for {what}, is left as it is",
        table=ref.table,
        record_id=ref.record_id,
        why=f"the source of truth for {what}",
    )
    # The stale value must not reach the record the work writes (nor be told in its text), unless the
    # current one holds it ("Delta Analytics" inside "Delta Analytics International").
    stale_too: list[Negative] = []
    if not carries_fact(new, ref.value):
        why = f"the stale copy outside {where} has it"
        stale_too = (
            _not_told(world, steps[j + 1].tool, ref.argument, ref.value, where)
            if prov.kind == "compose"
            else not_made_with(world, steps[j + 1].tool, ref.argument, [ref.value], why)
        )
    return Part(
        names=("crossref",),
        walk=replace(inserted, steps=steps, setup=[literal_step(update_tool, args, res.result), *walk.setup]),
        inserted=(at,),
        negatives=[guard, *stale_too],
        notes=[rng.choice(_NOTES).format(Source=who[:1].upper() + who[1:], source=who, what=what)],
        shortcuts=[Shortcut("skip_lookup", drop=(at,), choice=(j + 1, ref.argument, stale))],
    )


def _not_told(world: World, tool: str, name: str, stale: str, source: str) -> list[Negative]:
    """No message tells the stale value in its text (``name``): the source of truth holds another."""
    spec = written_record(world, tool)
    if spec is None or name not in spec.model.model_fields:
        return []
    return [
        NotSentCriterion(
            id="",
            description=f"no {spec.noun} tells the stale {stale!r}: {source} holds the current value",
            table=spec.table,
            fields={},
            contains={name: [stale]},
        )
    ]
