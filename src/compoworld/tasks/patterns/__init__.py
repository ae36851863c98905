"""Difficulty patterns: parts a scenario takes on where they fit, each with its own setup and criteria.

Real cross-application work is hard less for its length than for what the world holds: a rule kept in
a spreadsheet, a near-duplicate of the person the work is about, a row that looks right and is stale.
A pattern is applied to a drawn walk before it becomes a task: it adds calls to the task's setup (what
the world holds when the agent starts), steps to the oracle's solution (the lookups a rule asks for) and
negative criteria (what the agent must leave alone). The task is kept only if it still replays, passes
every gate with the patterns in place, and fails every shortcut they name (:func:`shortcut_passes`).

Each pattern lives in its own module; :data:`PLANTERS` lists them in the order they are applied (a
decoy last, so it imitates a record the final walk acts on):

* :mod:`~compoworld.tasks.patterns.policy`: ``policy``, ``conditional``, ``recency`` (a rule table);
* :mod:`~compoworld.tasks.patterns.softmatch`: ``softmatch`` (a record named loosely, found by search);
* :mod:`~compoworld.tasks.patterns.aggregation`: ``aggregation`` (how many records someone has decides a value);
* :mod:`~compoworld.tasks.patterns.exclusion`: ``exclusion`` (records on hold, closed or opted out are skipped);
* :mod:`~compoworld.tasks.patterns.conversion`: ``conversion`` (an amount in another currency, days in working days);
* :mod:`~compoworld.tasks.patterns.crossref`: ``crossref`` (a stale copy of a person's value; the source of truth has another);
* :mod:`~compoworld.tasks.patterns.batch`: ``batch`` (the same work on every record a lookup finds);
* :mod:`~compoworld.tasks.patterns.decoys`: ``decoys`` (a near-duplicate record).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns.aggregation import plant_aggregation
from compoworld.tasks.patterns.base import (
    Negative,
    Part,
    Planter,
    Shortcut,
    insert_steps,
    literal_step,
    not_made_with,
    rerun,
    shortcut_passes,
    singled,
    value_at,
    with_argument,
    written_record,
)
from compoworld.tasks.patterns.batch import plant_batch
from compoworld.tasks.patterns.conversion import plant_conversion, plant_currency, plant_working_days
from compoworld.tasks.patterns.crossref import Crossref, find_crossrefs, plant_crossref
from compoworld.tasks.patterns.decoys import Decoy, near_duplicate, near_duplicate_email, plant_decoy, plant_decoys
from compoworld.tasks.patterns.exclusion import plant_exclusion
from compoworld.tasks.patterns.policy import RULE_PATTERNS, plant_policy, plant_rules
from compoworld.tasks.patterns.softmatch import loose_name, plant_soft_match
from compoworld.tasks.walk import Walk
from compoworld.world.world import World

__all__ = [
    "PATTERNS",
    "PLANTERS",
    "Crossref",
    "Decoy",
    "Negative",
    "Part",
    "Patterned",
    "Planter",
    "Shortcut",
    "apply_patterns",
    "find_crossrefs",
    "insert_steps",
    "literal_step",
    "loose_name",
    "near_duplicate",
    "near_duplicate_email",
    "not_made_with",
    "plant_aggregation",
    "plant_batch",
    "plant_conversion",
    "plant_crossref",
    "plant_currency",
    "plant_decoy",
    "plant_exclusion",
    "plant_policy",
    "plant_soft_match",
    "plant_working_days",
    "rerun",
    "shortcut_passes",
    "singled",
    "value_at",
    "with_argument",
    "written_record",
]

PLANTERS: tuple[tuple[tuple[str, ...], Planter], ...] = (
    (RULE_PATTERNS, plant_rules),
    (("softmatch",), plant_soft_match),
    (("aggregation",), plant_aggregation),
    (("exclusion",), plant_exclusion),
    (("conversion",), plant_conversion),
    (("crossref",), plant_crossref),
    (("batch",), plant_batch),
    (("decoys",), plant_decoys),
)
"""Each planter with the pattern names it makes, in the order they are applied."""

PATTERNS: tuple[str, ...] = tuple(n for names, _ in PLANTERS for n in names)
"""The patterns synthesis can apply, by name (``synth --patterns``)."""


@dataclass(frozen=True, slots=True)
class Patterned:
    """A walk with patterns applied.

    Attributes:
        walk: The walk, its setup extended by the patterns' calls (before the trigger event), its steps
            made again after them.
        negatives: The criteria the patterns add (ids are given when the task's criteria are known).
        names: The patterns applied, in order.
        notes: Sentences the instruction ends with (where a rule the agent must apply is kept).
        shortcuts: The corners the patterns name, on the final solution's steps.
    """

    walk: Walk
    negatives: list[Negative]
    names: list[str]
    notes: list[str] = field(default_factory=list)
    shortcuts: list[Shortcut] = field(default_factory=list)


def apply_patterns(
    world: World, graph: ToolGraph, walk: Walk, names: tuple[str, ...], rng: random.Random
) -> Patterned | None:
    """Apply the named patterns that fit a walk, each on the walk the earlier ones left.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The drawn walk (not changed).
        names: The patterns to try, of :data:`PATTERNS`.
        rng: Draws what the patterns plant.

    Returns:
        The walk with the patterns that fit, made again after their setup, or None when none fits or
        the steps no longer find what they found.

    Raises:
        ValueError: naming an unknown pattern.
    """
    unknown = [n for n in names if n not in PATTERNS]
    if unknown:
        raise ValueError(f"unknown pattern(s) {', '.join(unknown)}; known: {', '.join(PATTERNS)}")
    asked = frozenset(names)
    negatives: list[Negative] = []
    applied: list[str] = []
    notes: list[str] = []
    shortcuts: list[Shortcut] = []
    for made, planter in PLANTERS:
        if not asked & set(made):
            continue
        part = planter(world, graph, walk, rng, asked)
        if part is None:
            continue
        if part.inserted:
            # Earlier shortcuts name steps by index: they follow the steps this part put in front of them.
            index = [i for i in range(len(part.walk.steps)) if i not in set(part.inserted)]
            shortcuts = [s.moved(index) for s in shortcuts]
        walk = part.walk
        negatives += part.negatives
        notes += part.notes
        shortcuts += part.shortcuts
        applied += [n for n in part.names if n not in applied]
    if not applied:
        return None
    made_again = rerun(world, walk)
    return Patterned(made_again, negatives, applied, notes, shortcuts) if made_again is not None else None
