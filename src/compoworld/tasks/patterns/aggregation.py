"""Aggregation: how many records someone has, or what they add up to, decides what the work writes.

Support raises a ticket's priority for a customer who already has several open; a note to the account
team says how many orders the client placed. Where the walk has found a person or a company (the
e-mail of the record its trigger is about), the pattern plants a known number of records of theirs in a
service whose list tool filters by that value (tickets by requester e-mail, orders by customer e-mail,
invoices by customer), made by that service's own create tool in the setup. The oracle lists them, and
the number decides something the walk writes, in one of two ways:

* ``choice``: a rule, stated in the instruction, maps the count (or the total of an amount field) to a
  choice of a later write with an ordered set of values (a priority, an urgency): at or above a
  threshold the most urgent value there is ("the highest priority there is", or urgency 1 where a
  service numbers them), below it the value the walk stated or the write's default. The threshold
  lies above one record, so counting one (or none) lands on the other side; a write that makes a
  record also gets a negative criterion against the value below the threshold;
* ``fact``: the closing message tells the count (a fact of its body, checked as a whole number:
  :func:`~compoworld.tasks.criteria.carries_fact`).

The count is made by a transform with no sources (:func:`~compoworld.tasks.transforms.count_items`,
:func:`~compoworld.tasks.transforms.sum_field`): walks never draw it; the re-execution every patterned
walk gets computes it again from what the list finds. The planted records always fit on one page, of
a kind no step of the walk reads or writes, and the lookup goes where it adds no hop between services
that integrations do not make.

Shortcuts the task must fail: ``skip_lookup`` (no lookup: the stated or default choice, or a message
without the count) and ``first_match`` (one record taken for all of them: a count of one).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from compoworld.engine.context import Ctx
from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool, non_null
from compoworld.tasks.graph import ToolGraph, field_label, label
from compoworld.tasks.patterns.base import (
    Negative,
    Part,
    Shortcut,
    insert_steps,
    literal_step,
    not_made_with,
    rerun,
    singled,
    with_argument,
    written_record,
)
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.roles import input_roles, output_role, role_fits, sends
from compoworld.tasks.transforms import apply_transform
from compoworld.tasks.walk import Provenance, Step, Walk, flatten, produced_values
from compoworld.world.world import World

__all__ = [
    "AGGREGATE_SCALES",
    "COUNTABLE",
    "Choice",
    "Tally",
    "find_tallies",
    "plant_aggregation",
    "tally_semantic",
    "top_of_scale",
]

COUNTABLE: frozenset[str] = frozenset(
    {
        "appointment",
        "application",
        "approval_request",
        "booking",
        "card_transaction",
        "change_request",
        "charge",
        "claim",
        "contract",
        "conversation",
        "credit_memo",
        "deal",
        "delivery",
        "dispute",
        "donation",
        "encounter",
        "enrollment",
        "expense",
        "feedback",
        "incident",
        "interview",
        "invoice",
        "issue",
        "lease",
        "leave_request",
        "matter",
        "opportunity",
        "order",
        "payment",
        "pickup",
        "pledge",
        "prescription",
        "purchase_order",
        "quote",
        "receipt",
        "refund",
        "reimbursement",
        "renewal_request",
        "request",
        "requisition",
        "reservation",
        "ride",
        "satisfaction_rating",
        "shipment",
        "showing",
        "submission",
        "subscription",
        "supplier_invoice",
        "ticket",
        "time_off_request",
        "transaction",
        "trip",
        "work_order",
    }
)
"""Kinds of records someone has several of and a team counts (tickets, orders, bookings …), by resource name."""

AGGREGATE_SCALES: dict[str, int] = {
    "lowest": 0,
    "minor": 1,
    "low": 1,
    "p5": 1,
    "p4": 2,
    "normal": 2,
    "medium": 2,
    "moderate": 2,
    "standard": 2,
    "p3": 3,
    "high": 3,
    "major": 3,
    "p2": 4,
    "urgent": 4,
    "critical": 4,
    "p1": 5,
    "emergency": 5,
    "highest": 5,
}
"""Ranks of the values of ordered choices (a priority, a severity): a rule may ask for the highest there is."""

# Choices that are ordered scales: how urgent or how important something is.
_ORDERED = re.compile(r"(^|_)(priority|severity|urgency|impact|level)$")
# The most records planted and the fewest: one is no aggregate, and every record must fit on one page.
_PLANT = (2, 4)
_PAGE = 20
_PAGE_ROOM = 15
# How often a walk that makes an ordered choice gets a rule on it rather than a count in its message.
_CHOICE_SHARE = 0.7
_SUM_SHARE = 0.5
_ANCHORS = ("email", "company.name")
# Numbers that name another record (an order, an invoice): an example's are someone else's.
_HANDLES = frozenset({"order_number", "invoice_number", "tracking_number"})
# What a record says about its person or company, taken from the record the work is about.
_PERSONAL = frozenset({"email", "phone", "person.name", "person.first_name", "person.last_name", "company.name"})
# Amount fields a total may add up: a price, a total, an amount, a balance.
_AMOUNT = re.compile(r"(^|_)(amount|total|price|balance|value|cost|subtotal)(_cents)?$")


@dataclass(frozen=True, slots=True)
class Tally:
    """Records someone may have in a service, and how to count them.

    Attributes:
        anchor: ``(step, path)`` of the found value they are filtered by (the person's e-mail).
        value: That value.
        lister: The list tool that finds them.
        param: Its parameter the value is passed to.
        create: The create tool that plants more of them.
        table: Their table.
    """

    anchor: tuple[int, str]
    value: str
    lister: str
    param: str
    create: str
    table: str


def top_of_scale(values: list[str]) -> str | None:
    """The highest value of an ordered set of choices (``urgent`` of low/normal/high/urgent), or None.

    Args:
        values: The choices.

    Returns:
        The one value of the highest rank, or None when a value has no known rank or two share the top.
    """
    ranks = [AGGREGATE_SCALES.get(v.casefold()) for v in values]
    if not values or any(r is None for r in ranks):
        return None
    top = max(r for r in ranks if r is not None)
    best = [v for v, r in zip(values, ranks, strict=True) if r == top]
    return best[0] if len(best) == 1 else None


def _params(world: World, tool: str) -> dict[str, Any]:
    """A tool's parameter schemas by name."""
    props: dict[str, Any] = world.catalog.tools[tool].parameters_schema.get("properties", {})
    return props


def _creates(world: World, graph: ToolGraph) -> dict[str, list[str]]:
    """The tools that create each resource's records (a domain tool by the record its name names), once per graph."""
    found: dict[str, list[str]] | None = graph.cache.get("aggregation_creates")
    if found is None:
        found = {}
        prior = RecipePrior.default()
        for name in sorted(graph.tools):
            tool = world.catalog.tools[name]
            if action_of(tool) != "create":
                continue
            subjects = prior.subjects(tool)
            if len(subjects) == 1:
                found.setdefault(next(iter(subjects)), []).append(name)
        graph.cache["aggregation_creates"] = found
    return found


def find_tallies(world: World, graph: ToolGraph, walk: Walk, before: int) -> list[Tally]:
    """Records the walk's person or company may have several of, to be counted before step ``before``.

    The value is one the walk's first step found about the record the work is about (its e-mail, its
    company, its own id); the list tool is a standard one of a kind of record people have several of
    (tickets, orders, bookings: :data:`COUNTABLE`) that filters by that value, taking its role, and
    whose service has a tool that creates such records.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk.
        before: The step the count is made for (the value must be found before it).

    Returns:
        The tallies, in a fixed order.
    """
    if not walk.steps or before <= 0:
        return []
    tools = world.catalog.tools
    first = walk.steps[0]
    # Who the work is about: the value the first step looked its record up by, the record itself, its company.
    stated = {v for n, v in first.arguments.items() if first.provenance[n].kind == "given"}
    anchors = [
        p
        for p in produced_values(0, first.result, graph.outputs[first.tool])
        if isinstance(p.value, str)
        and p.value
        and (
            (p.semantic in _ANCHORS and p.value in stated)
            or (p.semantic.endswith(".id") and p.path.removeprefix("items[0].") == "id")
            or p.semantic == "company.name"
        )
    ]

    # One anchor per value, named by the field the first step filtered on where it holds it (the
    # incident's assignee e-mail, not the same person's address as the one who resolved it).
    def rank(path: str) -> tuple[bool, int]:
        return (path.rsplit(".", 1)[-1] not in first.arguments, len(path))

    by_value: dict[str, Any] = {}
    for anchor in sorted(anchors, key=lambda p: rank(p.path)):
        by_value.setdefault(str(anchor.value), anchor)
    found: list[Tally] = []
    for anchor in by_value.values():
        role = output_role(tools[first.tool], re.sub(r"\[\d+\]", "[]", anchor.path))
        for lister, param in _listers(world, graph).get(anchor.semantic, []):
            accepted = input_roles(tools[lister], param)
            if (
                anchor.semantic in _ANCHORS
                and role is not None
                and accepted is not None
                and not role_fits(role, accepted)
            ):
                continue
            resource = tools[lister].resource or ""
            spec = world.catalog.resources[resource]
            for create in _creates(world, graph).get(resource, []):
                found.append(Tally((0, anchor.path), anchor.value, lister, param, create, spec.table))
    return found


def _listers(world: World, graph: ToolGraph) -> dict[str, list[tuple[str, str]]]:
    """Standard list tools of countable records, with each filter, by the filter's semantic type (once per graph)."""
    found: dict[str, list[tuple[str, str]]] | None = graph.cache.get("aggregation_listers")
    if found is None:
        found = {}
        for name in sorted(graph.tools):
            tool = world.catalog.tools[name]
            spec = world.catalog.resources.get(tool.resource or "")
            if tool.kind != "list" or spec is None or spec.name not in COUNTABLE:
                continue
            for port in graph.inputs[name]:
                own = port.semantic == f"{spec.qualified}.id"
                if "." in port.path or port.path not in (spec.filters or ()) or own or port.path in spec.unique:
                    continue
                if port.semantic in _ANCHORS or port.semantic.endswith(".id"):
                    found.setdefault(port.semantic, []).append((name, port.path))
        graph.cache["aggregation_listers"] = found
    return found


def _touched(world: World, walk: Walk) -> set[str] | None:
    """The tables the walk's steps read or change (after its setup), or None when it does not replay.

    Records planted in a table the walk reads would show up in what it finds; in one it writes, the
    count would depend on when it is made.
    """
    episode = Episode(world)
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    snap = episode.snapshot()
    prefixes = {(spec.service, spec.prefix): spec.table for spec in world.catalog.resources.values()}
    read: set[str] = set()
    for step in walk.steps:
        res = episode.call(step.tool, step.arguments)
        if not res.ok:
            return None
        service = world.catalog.tools[step.tool].service
        for path, value in flatten(res.result):
            if path.rsplit(".", 1)[-1] == "id" and isinstance(value, str) and "_" in value:
                table = prefixes.get((service, value.rsplit("_", 1)[0]))
                if table is not None:
                    read.add(table)
    changed = {t for t, td in episode.diff(snap).tables.items() if td.added or td.updated or td.removed}
    return read | changed


def _person_values(world: World, graph: ToolGraph, walk: Walk, tally: Tally) -> dict[str, str]:
    """What the records planted say about their person or company, by semantic type.

    What the walk's first step found about its record, the value counted by, and, for a person the
    world knows by e-mail, their own name and phone.
    """
    first = walk.steps[0]
    found = {
        p.semantic: p.value
        for p in reversed(produced_values(0, first.result, graph.outputs[first.tool]))
        if isinstance(p.value, str) and (p.semantic in _PERSONAL or p.semantic.endswith(".id"))
    }
    found[tally_semantic(graph, tally)] = tally.value
    email = found.get("email", "")
    person = next((p for p in world.population.people if p.email.casefold() == email.casefold()), None)
    if person is not None:
        found |= {
            "person.name": person.name,
            "person.first_name": person.first_name,
            "person.last_name": person.last_name,
            "phone": person.phone,
        }
    return found


def _attempts(
    world: World, graph: ToolGraph, tally: Tally, person: dict[str, str], rng: random.Random
) -> list[dict[str, Any]]:
    """Arguments to try for one planted record, best first.

    The tool's own example, its texts taken from a record of the table the world holds (so records
    differ), then the example as it is, then arguments made from such a record and the schema; in every
    one the person's own values where the tool asks for a value of that kind.
    """
    tools = world.catalog.tools
    tool = tools[tally.create]
    props = _params(world, tally.create)
    required = set(tool.required)
    semantics = {p.path: p.semantic for p in graph.inputs[tally.create]}
    table = world.tables[tally.table]
    gen = ArgumentGenerator(world, _pool(world, graph), tool.service, rng, fresh=False)
    schema = tool.parameters_schema
    ids = table.sorted_ids
    template = table.records[rng.choice(ids)].model_dump(mode="json") if ids else {}

    def theirs(args: dict[str, Any]) -> dict[str, Any]:
        out = dict(args)
        for name in props:
            semantic = semantics.get(name, "")
            if semantic in person and not sends(name) and not _owned(name):
                out[name] = person[semantic]
            elif semantic in _HANDLES and name not in required:
                out.pop(name, None)  # another order's number is no part of this person's record
        return out

    companies = _companies(world, graph)
    own_company = person.get("company.name", "")

    def texts(args: dict[str, Any]) -> dict[str, Any]:
        out = dict(args)
        for name in props:
            value = template.get(name)
            semantic = semantics.get(name, "")
            # Another record's text about another company is no text of this one's.
            if isinstance(value, str) and any(c in value for c in companies - {own_company}):
                continue
            if name in out and isinstance(value, str) and value and isinstance(out[name], str):
                plain = not semantic or semantic.startswith("text.")
                if plain and "format" not in props[name] and not _unique(world, tally.table, name):
                    out[name] = value
        return out

    made: dict[str, Any] = {}
    for name in sorted(props):
        semantic = semantics.get(name, "")
        value = template.get(name)
        scalar = isinstance(value, str | int | float | bool) and "format" not in props[name]
        if (
            scalar
            and not semantic.endswith(".id")
            and semantic not in _PERSONAL
            and not _unique(world, tally.table, name)
        ):
            made[name] = value
        elif name in required:
            made[name] = gen.value(props[name], schema, name=name, resource=table.spec.qualified)
    out: list[dict[str, Any]] = []
    if tool.example is not None:
        try:
            example = tool.example(Ctx(Episode(world), tool, writable=False))
        except Exception:  # a broken example provider is no reason to stop: the others are tried
            example = None
        if isinstance(example, dict):
            out += [theirs(texts(example)), theirs(example)]
    out.append(theirs(made))
    return out


def _companies(world: World, graph: ToolGraph) -> frozenset[str]:
    """The names of the world's companies, once per graph."""
    key = f"aggregation_companies:{world.seed}:{world.version}"
    names: frozenset[str] | None = graph.cache.get(key)
    if names is None:
        names = graph.cache[key] = frozenset(c.name for c in world.population.companies)
    return names


def tally_semantic(graph: ToolGraph, tally: Tally) -> str:
    """The semantic type of the list tool's parameter the value is passed to."""
    return next(p.semantic for p in graph.inputs[tally.lister] if p.path == tally.param)


def _owned(name: str) -> bool:
    """Whether a parameter names someone on the team's side of the record (its owner, assignee, agent)."""
    return any(w in name for w in ("owner", "assignee", "assigned", "agent", "manager", "approver", "recruiter"))


def _unique(world: World, table: str, name: str) -> bool:
    """Whether a field must be unique in its table, or is a handle no second record may share."""
    spec = world.tables[table].spec
    return name in spec.unique or any(w in name for w in ("number", "code", "sku", "slug", "handle", "external"))


def _pool(world: World, graph: ToolGraph) -> ValuePool:
    """The world's values for generated arguments, built once per graph."""
    key = f"aggregation_pool:{world.seed}:{world.version}"
    pool: ValuePool | None = graph.cache.get(key)
    if pool is None:
        pool = graph.cache[key] = ValuePool.from_world(world)
    return pool


@dataclass(frozen=True, slots=True)
class Choice:
    """An ordered choice of a later write that a threshold rule can make.

    Attributes:
        step: The write.
        name: Its parameter.
        otherwise: What the write makes of it below the threshold (stated, default or what the record gets).
        then: The value at or above the threshold: the most urgent there is.
        said: How the rule names ``then``: ``the highest priority there is``, or a number as it is.
    """

    step: int
    name: str
    otherwise: Any
    then: Any
    said: str


def _choices(world: World, walk: Walk, after: int) -> list[Choice]:
    """Ordered choices (a priority, an urgency) of writes after step ``after`` the walk states or leaves unset."""
    tools = world.catalog.tools
    out = []
    for j, step in enumerate(walk.steps):
        if j <= after or not tools[step.tool].writes or j in walk.told:
            continue
        schema = tools[step.tool].parameters_schema
        for name, prop in _params(world, step.tool).items():
            prov = step.provenance.get(name)
            if not _ORDERED.search(name) or (prov is not None and prov.kind not in ("literal", "given")):
                continue
            # What the write makes of it otherwise: the value stated, the tool's default, what its record got.
            made = step.result.get(name) if isinstance(step.result, dict) else None
            otherwise = step.arguments.get(name, prop.get("default", made))
            values = non_null(prop, schema).get("enum")
            if not isinstance(values, list) or otherwise not in values:
                continue
            if all(isinstance(v, str) for v in values):
                top = top_of_scale(values)
                said = f"the highest {label(name)} there is"
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                top = min(values)  # 1 is the most urgent, as service desks number them
                said = str(top)
            else:
                continue
            if top is not None and otherwise != top:
                out.append(Choice(j, name, otherwise, top, said))
    return out


def _messages(walk: Walk) -> list[int]:
    """Steps that send a message whose text carries facts and no derived one yet."""
    return [
        j
        for j, step in enumerate(walk.steps)
        if any(p.kind == "compose" and p.transform is None and p.step is None for p in step.provenance.values())
    ]


def _amount(world: World, tally: Tally, records: list[dict[str, Any]]) -> str | None:
    """A number field of the counted records that holds an amount (a total, a price) in every one, or None."""
    spec = world.tables[tally.table].spec
    for name in sorted(str(n) for n in spec.model.model_fields):
        if not _AMOUNT.search(name):
            continue
        values = [r.get(name) for r in records]
        if values and all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in values):
            return name
    return None


def _whose(world: World, walk: Walk, tally: Tally) -> str:
    """Whose records they are, as the instruction names them: ``the help desk user``, ``the issue's assignee``."""
    step, path = tally.anchor
    tool = world.catalog.tools[walk.steps[step].tool]
    spec = world.catalog.resources.get(tool.resource or "")
    noun = spec.noun if spec is not None else "customer"
    field = re.sub(r"\[\d*\]", "", path).rsplit(".", 1)[-1]
    role = label(re.sub(r"(^|_)(email|name|address)$", "", field))
    if field == "id" or not role or role == noun:
        return f"the {noun}"
    return f"the {noun}'s {role}"


def plant_aggregation(
    world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]
) -> Part | None:
    """The ``aggregation`` pattern: a count (or a total) of someone's records decides a choice or a fact.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the records, the variant and the threshold.
        names: The patterns asked for (unused: the planter is only called for ``aggregation``).

    Returns:
        The part, or None when the walk neither makes an ordered choice nor sends a message after a
        value the records could be counted by, or the count would change what the walk finds.
    """
    choices = _choices(world, walk, 0)
    messages = [j for j in _messages(walk) if j > 0]
    if not choices and not messages:
        return None
    touched = _touched(world, walk)
    if touched is None:
        return None
    use_choice = bool(choices) and (not messages or rng.random() < _CHOICE_SHARE)
    j_choice = rng.choice(choices) if use_choice else None
    consumer = j_choice.step if j_choice is not None else rng.choice(messages)
    tallies = [t for t in find_tallies(world, graph, walk, consumer) if t.table not in touched]
    if not tallies:
        return None
    rng.shuffle(tallies)
    # Where each count reads best: among the steps whose hops between services integrations make.
    # A count that adds a hop no integration makes reads as made up: it is left out.
    before = _odd_hops(RecipePrior.default(), [world.catalog.tools[s.tool] for s in walk.steps])
    placed = [(tally, *_placement(world, walk, tally.lister, consumer)) for tally in tallies]
    placed = [p for p in placed if p[2] <= before]
    # Services the walk already works in next: their records are the ones its people have.
    services = set(walk.services)
    placed.sort(key=lambda x: (x[2], world.catalog.tools[x[0].lister].service not in services))
    for tally, at, _ in placed[:3]:
        part = _plant(world, graph, walk, rng, tally, consumer, at, j_choice)
        if part is not None:
            return part
    return None


def _placement(world: World, walk: Walk, lister: str, consumer: int) -> tuple[int, int]:
    """Where a count's lookup goes (before which step, up to ``consumer``) and how many odd hops it makes there.

    A hop is a step following work in another service that no integration the recipe prior knows
    makes (as the audit counts them: a read that finds the record the next step of its service acts
    on goes with that step; lookups of open-world services hop from anywhere). The first position
    with the fewest odd hops wins.
    """
    prior = RecipePrior.default()
    tools = world.catalog.tools
    best: tuple[int, int] | None = None
    for at in range(1, consumer + 1):
        sequence = [tools[s.tool] for s in walk.steps]
        sequence.insert(at, tools[lister])
        odd = _odd_hops(prior, sequence)
        if best is None or odd < best[1]:
            best = (at, odd)
    return best if best is not None else (consumer, 0)


def _odd_hops(prior: RecipePrior, tools: list[Any]) -> int:
    """How many hops between services in a sequence of tools the recipe prior does not explain."""

    def serves_next(j: int) -> bool:
        return 0 < j < len(tools) - 1 and not tools[j].writes and tools[j + 1].service == tools[j].service

    odd = 0
    for j, tool in enumerate(tools):
        if serves_next(j):
            continue
        work = [t for i, t in enumerate(tools[:j]) if not prior.is_lookup(t) and not serves_next(i)]
        if prior.is_lookup(tool):
            work = tools[:j]
        if work and work[-1].service != tool.service and not prior.inside(work[-1], tool):
            odd += 1
    return odd


def _plant(
    world: World,
    graph: ToolGraph,
    walk: Walk,
    rng: random.Random,
    tally: Tally,
    consumer: int,
    at: int,
    choice: Choice | None,
) -> Part | None:
    """The pattern with one tally: the records planted, the list inserted before step ``at``, the count used by ``consumer``."""
    tools = world.catalog.tools
    n = rng.randint(*_PLANT)
    person = _person_values(world, graph, walk, tally)
    # The records are planted first, as the world held them before anything happened.
    episode = Episode(world)
    setup: list[Step] = []
    planted: set[Any] = set()
    for _ in range(n):
        for args in _attempts(world, graph, tally, person, rng):
            snap = episode.snapshot()
            res = episode.call(tally.create, args)
            added = episode.diff(snap).tables.get(tally.table) if res.ok else None
            # A call that makes a record of the kind counted (not one that tags or changes one already there).
            if (
                isinstance(res.result, dict)
                and added is not None
                and res.result.get("id") in {r.get("id") for r in added.added}
            ):
                planted.add(res.result.get("id"))
                setup.append(literal_step(tally.create, args, res.result))
                break
            episode.restore(snap)
        else:
            return None
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    listed = episode.call(tally.lister, {tally.param: tally.value})
    page = listed.result if listed.ok and isinstance(listed.result, dict) else None
    items = page.get("items") if page is not None else None
    if not isinstance(items, list) or page is None or page.get("next_cursor") is not None or len(items) > _PAGE_ROOM:
        return None
    count = len(items)
    # Every record planted is one the list finds by the value: they are that person's.
    if count < 2 or count > _PAGE or not planted <= {i.get("id") for i in items if isinstance(i, dict)}:
        return None
    lookup = Step(
        tally.lister,
        {tally.param: tally.value},
        {tally.param: Provenance("step", tally.anchor[0], tally.anchor[1], tally_semantic(graph, tally))},
        None,
    )
    inserted = insert_steps(walk, at, [lookup])
    steps = list(inserted.steps)
    j = consumer + 1
    target = steps[j]
    spec = world.tables[tally.table].spec
    svc = world.catalog.services[tools[tally.lister].service].title
    whose = _whose(world, walk, tally)
    plural = spec.plural.replace("_", " ")
    negatives: list[Negative] = []
    shortcuts: list[Shortcut] = []
    notes: list[str] = []
    if choice is not None:
        name, otherwise, top = choice.name, choice.otherwise, choice.then
        amount = _amount(world, tally, items) if rng.random() < _SUM_SHARE else None
        params: dict[str, Any]
        if amount is not None:
            amounts = sorted(float(i[amount]) for i in items)
            threshold = _round_between(amounts[-1], sum(amounts), rng)
            if threshold is None:
                return None
            params = {"field": amount, "at_least": threshold, "then": top, "else": otherwise}
            transform = "sum_field"
            shown = f"{threshold:,.0f}" if threshold == int(threshold) else f"{threshold:,.2f}"
            case = f"{whose}'s {plural} in {svc} add up to {shown} or more in {field_label(amount)}"
        else:
            threshold_n = rng.randint(2, count)
            params = {"at_least": threshold_n, "then": top, "else": otherwise}
            transform = "count_items"
            case = f"{whose} has {threshold_n} or more {plural} in {svc}"
        if apply_transform(transform, page, params) != top:
            return None
        semantic = "text" if isinstance(top, str) else "number"
        prov = Provenance("derived", at, "", semantic, transform=transform, params=tuple(sorted(params.items())))
        steps[j] = with_argument(target, name, top, prov)
        subject = written_record(world, target.tool)
        noun = subject.noun if subject is not None else "record"
        shown_else = repr(otherwise) if isinstance(otherwise, str) else str(otherwise)
        notes.append(
            f"Our rule for the {label(name)} of the {noun}: when {case}, it is {choice.said}; "
            f"otherwise it is {shown_else}."
        )
        stated = target.arguments.get(name)
        shortcuts.append(Shortcut("skip_lookup", drop=(at,), choice=(j, name, stated)))
        shortcuts.append(Shortcut("first_match", choice=(j, name, otherwise)))
        negatives += not_made_with(world, target.tool, name, [otherwise], "a miscount under the rule has it")
    else:
        body_name, body_prov = next((k, p) for k, p in target.provenance.items() if p.kind == "compose")
        body = str(target.arguments[body_name])
        sentence = _count_sentence(graph, target, tally, person, count, plural, svc)
        told = f"{body} {sentence}"
        prov = replace(body_prov, step=at, field="", transform="count_items", params=())
        steps[j] = with_argument(target, body_name, told, prov)
        shortcuts.append(Shortcut("skip_lookup", drop=(at,), choice=(j, body_name, body)))
        one = f"{body} {_count_sentence(graph, target, tally, person, 1, spec.noun, svc)}"
        shortcuts.append(Shortcut("first_match", choice=(j, body_name, one)))
    # The count must be what the list finds once every earlier part is in place; later parts see it found.
    new = rerun(world, replace(inserted, steps=steps, setup=[*setup, *walk.setup]))
    if new is None or not singled(new):
        return None
    return Part(
        names=("aggregation",),
        walk=new,
        inserted=(at,),
        negatives=negatives,
        notes=notes,
        shortcuts=shortcuts,
    )


def _round_between(largest: float, total: float, rng: random.Random) -> float | None:
    """A round threshold above the largest single amount and at most the total, or None when none is."""
    for step in (1000, 500, 100, 50, 10, 5, 1):
        low = int(largest // step + 1) * step
        if low <= total:
            options = list(range(low, int(total // step) * step + 1, step))
            return float(rng.choice(options[:3]))
    return None


def _count_sentence(
    graph: ToolGraph, target: Step, tally: Tally, person: dict[str, str], count: int, noun: str, svc: str
) -> str:
    """The sentence a message tells the count in (``Ana Costa has 3 tickets in Beacon Desk.``).

    A company's records are the company's; a person's are theirs, and a message to that very person
    says "you".
    """
    if tally_semantic(graph, tally) == "company.name":
        return f"{tally.value} has {count} {noun} in {svc}."
    recipients = {
        str(v) for name, a in target.arguments.items() if not sends(name) for v in (a if isinstance(a, list) else [a])
    }
    if tally.value in recipients or person.get("email", "") in recipients:
        return f"You have {count} {noun} in {svc}."
    who = person.get("person.name") or person.get("company.name") or "The customer"
    return f"{who} has {count} {noun} in {svc}."
