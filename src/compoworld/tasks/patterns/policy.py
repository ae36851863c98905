"""Policies in the data: a rule table in a spreadsheet decides a choice a write makes.

A choice of a write (the kind of a follow-up, a priority, a channel) is no longer stated: a rule table,
planted in the setup, maps a value of the trigger's record (its priority, its tier, its country) to it,
with rows for other values around the right one. The agent must find the sheet, look the record's value
up and apply the row. Two variants make the table harder to read, each a pattern of its own:

* ``conditional``: the table keys on two of the record's values (tier and country → team); rows that
  match the first and not the second come before the right one, so the first match is wrong;
* ``recency``: the rows carry the date they took effect; an older row for the same case, with another
  choice, comes first and the newest one wins.

Shortcuts the task must fail: ``ignore_policy`` (skip the lookups, keep the stated or default choice),
``first_match`` (take the first row the lookup returns) and ``stale_row`` (follow the replaced row).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.engine.state import EPOCH
from compoworld.tasks.arguments import non_null
from compoworld.tasks.graph import ToolGraph, field_label, label
from compoworld.tasks.patterns.base import (
    Part,
    Shortcut,
    insert_steps,
    literal_step,
    not_made_with,
    with_argument,
    written_record,
)
from compoworld.tasks.walk import Provenance, Step, Walk, flatten
from compoworld.world.world import World

__all__ = ["RULE_PATTERNS", "plant_policy", "plant_rules"]

RULE_PATTERNS: tuple[str, ...] = ("policy", "conditional", "recency")
"""The patterns a rule table makes: every rule table is a ``policy``; the variants add their own names."""

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
_EFFECTIVE = "Effective from"
# How often a variant is made when it is asked for and fits: a mix keeps plain tables in the set.
_CONDITIONAL_SHARE = 0.7
_RECENCY_SHARE = 0.6


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


def _others(world: World, table: str, field: str, value: str) -> list[str]:
    """The world's other values of a record field (case aside), sorted."""
    return sorted(
        {str(v) for v in world.tables[table].index(field) if isinstance(v, str) and v.casefold() != value.casefold()}
    )


def _day(rng: random.Random, lo: int, hi: int) -> str:
    """A date ``lo`` to ``hi`` days before the world's first day."""
    return (EPOCH.date() - dt.timedelta(days=rng.randint(lo, hi))).isoformat()


def plant_policy(
    world: World,
    graph: ToolGraph,
    walk: Walk,
    rng: random.Random,
    *,
    conditional: bool = False,
    recency: bool = False,
) -> Part | None:
    """Keep one choice of a write in a rule table, keyed on values of the trigger's record.

    The choice is a parameter of a later write with a closed set of values (the kind of a follow-up
    activity, a priority, a channel): stated by the walk, or left to its default. The key is a short
    categorical field of the record the first step found (a priority, a tier, a country). The table maps
    the record's value to a value other than the one stated or the default, and two or three of the
    world's other values of the field to other choices. The walk looks the sheet up by its title and the
    record's value up in it, and takes the choice from the row.

    Args:
        world: The world (it must hold the spreadsheet service).
        graph: Its dependency graph.
        walk: The walk.
        rng: Draws the choice, the keys and the table.
        conditional: Key the table on a second field of the record as well, with rows that match the
            first key only ahead of the right one (when the record has a second such field).
        recency: Date the rows; an older row for the right case, with another choice, comes first.

    Returns:
        The rule as a pattern part (its names say which variants it made), or None when the walk makes
        no such choice, its first record has no such field, or the world has no spreadsheet service.
        ``conditional`` is dropped when no second key fits.
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
    others = _others(world, spec.table, key_field, key_value)
    if not picks or not others:
        return None
    chosen = rng.choice(picks)
    wrong = [v for v in values if v != chosen]
    # The second condition: another short field of the same record, with other values in the world.
    second: tuple[str, str, list[str]] | None = None
    if conditional:
        seconds = [
            (p.rsplit(".", 1)[-1], v)
            for p, v in keys
            if p.rsplit(".", 1)[-1] != key_field
            and _key_word(p) != _key_word(key_path)
            and p.rsplit(".", 1)[-1] not in (name,)
        ]
        rng.shuffle(seconds)
        for field2, found2 in seconds:
            others2 = _others(world, spec.table, field2, found2)
            if others2:
                second = (field2, found2, others2)
                break
    key_label, choice_label = field_label(key_field).capitalize(), label(name).capitalize()
    columns = [key_label]
    if second is not None:
        columns.append(field_label(second[0]).capitalize())
        if columns[1] == key_label or columns[1] == choice_label:
            second, columns = None, [key_label]
    columns.append(choice_label)
    if recency:
        columns.append(_EFFECTIVE)

    def row(k1: str, k2: str | None, choice: str, day: str | None) -> dict[str, str]:
        cells = {key_label: k1, choice_label: choice}
        if second is not None and k2 is not None:
            cells[columns[1]] = k2
        if recency and day is not None:
            cells[_EFFECTIVE] = day
        return cells

    value2 = second[1] if second is not None else None
    # Rows for other cases first, then the near misses ahead of the right row, as a table grows.
    rows = [
        row(v, rng.choice(second[2]) if second is not None else None, rng.choice(values), _day(rng, 200, 700))
        for v in rng.sample(others, min(3, len(others)))
    ]
    ahead: list[dict[str, str]] = []
    if second is not None:
        for v2 in rng.sample(second[2], min(2, len(second[2]))):
            ahead.append(row(key_value, v2, rng.choice(wrong), _day(rng, 30, 700)))
    stale = row(key_value, value2, rng.choice(wrong), _day(rng, 400, 700)) if recency else None
    right = row(key_value, value2, chosen, _day(rng, 20, 300))
    rng.shuffle(rows)
    rows = [*rows[:1], *ahead, *([stale] if stale is not None else []), *rows[1:], right]
    sheet_title = (
        f"{choice_label} by {key_label.lower()}" + (f" and {columns[1].lower()}" if second is not None else "")
    )[:90]
    owner = rng.choice(world.population.employees).email
    written = written_record(world, step.tool)
    noun = written.noun if written is not None else "record"
    title = f"{world.catalog.services[tools[step.tool].service].title} rules"
    episode = Episode(world)
    created = ("sheets__create_spreadsheet", {"owner_email": owner, "title": title, "sheet_title": sheet_title})
    made = episode.call(*created)
    if not made.ok or not isinstance(made.result, dict):
        return None
    sheet_id = made.result["sheets"][0]["id"]
    setup = [literal_step(*created, made.result)]
    calls = [
        ("sheets__add_column", {"sheet_id": sheet_id, "actor_email": owner, "name": c, "type": t})
        for c, t in ((c, "date" if c == _EFFECTIVE else "text") for c in columns)
    ]
    calls += [("sheets__append_row", {"sheet_id": sheet_id, "actor_email": owner, "values": r}) for r in rows]
    for tool, args in calls:
        res = episode.call(tool, args)
        if not res.ok:
            return None
        setup.append(literal_step(tool, args, res.result))
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
    inserted = insert_steps(walk, 1, [find, lookup])
    if second is None and not recency:
        taken = Provenance("step", 2, f"[0].cells.{choice_label}", "text")
    else:
        params: dict[str, Any] = {"take": choice_label}
        if second is not None:
            params["where"] = ((columns[1], second[1]),)
        if recency:
            params["newest"] = _EFFECTIVE
        taken = Provenance("derived", 2, "", "text", transform="pick_row", params=tuple(sorted(params.items())))
    steps = list(inserted.steps)
    steps[j + 2] = with_argument(steps[j + 2], name, chosen, taken)
    looked = f"the {field_label(key_field)}" + (f" and the {field_label(second[0])}" if second is not None else "")
    note = (
        f"How to set the {label(name)} of the {noun} is kept in the {sheet_title!r} sheet in "
        f"{world.catalog.services[_SHEETS].title}: look up {looked} of the {spec.noun} there"
        + (", and go by the row in effect now." if recency else ".")
    )
    told = frozenset({1, 2} | set(inserted.told))
    shortcuts = [Shortcut("ignore_policy", drop=(1, 2), choice=(j + 2, name, stated))]
    if second is not None or recency:
        shortcuts.append(
            Shortcut(
                "first_match",
                choice=(
                    j + 2,
                    name,
                    next(r for r in rows if r is not right and r[key_label] == key_value)[choice_label],
                ),
            )
        )
    if stale is not None and (second is not None):
        shortcuts.append(Shortcut("stale_row", choice=(j + 2, name, stale[choice_label])))
    near = {v for v in (stated, default) if isinstance(v, str)} | {
        r[choice_label] for r in rows if r[key_label] == key_value
    }
    names = ("policy", *(("conditional",) if second is not None else ()), *(("recency",) if recency else ()))
    return Part(
        names=names,
        walk=replace(inserted, steps=steps, told=told, setup=[*setup, *walk.setup]),
        inserted=(1, 2),
        # What an agent that misreads the table would make: the stated or default choice, a near miss's.
        negatives=not_made_with(world, step.tool, name, sorted(near - {chosen}), "a misread row of the rule has it"),
        notes=[note],
        shortcuts=shortcuts,
    )


def plant_rules(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]) -> Part | None:
    """The rule-table patterns asked for (``policy``, ``conditional``, ``recency``), where a rule fits.

    A table is planted when any of them is asked for; each variant asked for is made on a share of the
    tables, so a set holds plain tables as well.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the variants and the table.
        names: The patterns asked for.

    Returns:
        The part, or None when no rule fits.
    """
    # Without plain tables asked for, every table is of a variant asked for.
    plain = "policy" in names
    conditional = "conditional" in names and (not plain or rng.random() < _CONDITIONAL_SHARE)
    recency = "recency" in names and (not plain or rng.random() < _RECENCY_SHARE)
    rule = plant_policy(world, graph, walk, rng, conditional=conditional, recency=recency)
    if rule is None or (not plain and rule.names == ("policy",)):
        return None
    return rule
