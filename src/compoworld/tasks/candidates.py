"""Which tools a walk tries next, best first.

A walk step tries at most ``k`` tools (:attr:`~compoworld.tasks.walk.WalkConfig.candidates`).
They are the first ``k`` of a weighted random order over every tool that could
follow: one taking a value an earlier step produced, not used yet, whose
required ids were all produced, and whose service still fits the walk. A
tool's weight is the product of

* :func:`static_weight`: what the tool is, whatever came before (the one place
  for per-tool preferences, e.g. by action);
* the recipe prior (:meth:`~compoworld.tasks.prior.RecipePrior.weight`) after
  the last step that was not a lookup;
* :data:`NEW_SERVICE_WEIGHT` for a service the walk has not touched while it
  has too few, and :data:`WANTED_WRITE_WEIGHT` for a write while one is wanted.

The order is the one of ``weight * random()``, largest first. Hundreds of tools
can follow a step but only ``k`` are tried, so :class:`CandidateIndex` keeps,
per tool before and per semantic type, the consumers in tiers of weight (powers
of two) and draws keys tier by tier, heaviest first, only until no tool of a
lighter tier could still enter the first ``k``: the first ``k`` are those a full
sort would give, for far fewer draws. Weights after each tool before are
computed once per graph.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random

    from compoworld.engine.tools import Tool
    from compoworld.tasks.graph import ToolGraph

from compoworld.tasks.actions import action_of, acts_as_outsider
from compoworld.tasks.prior import RecipePrior

__all__ = [
    "DELETE_WEIGHT",
    "NEW_SERVICE_WEIGHT",
    "WANTED_WRITE_WEIGHT",
    "CandidateIndex",
    "StepState",
    "static_weight",
]

NEW_SERVICE_WEIGHT = 4.0
"""Multiplier for a tool of a service the walk has not touched, while it has fewer than ``min_services``."""

WANTED_WRITE_WEIGHT = 3.0
"""Multiplier for a write while the walk has none yet or nears its end."""

DELETE_WEIGHT = 0.3
"""Multiplier for a delete: a task that mostly removes records teaches little."""

ACTION_WEIGHTS: dict[str, float] = {"create": 0.3, "update": 1.5, "transition": 1.5, "message": 1.5}
"""Multiplier per action of a write (see :func:`~compoworld.tasks.actions.action_of`); reads and others get 1."""

_CACHE_KEY = "candidate_index"


def static_weight(tool: Tool) -> float:
    """The part of a tool's weight that depends on the tool alone.

    This is the one place for per-tool preferences: multiply here (e.g. by
    :func:`~compoworld.tasks.actions.action_of`, to prefer updates and
    messages over creates). It is read once per graph, so it must depend on
    nothing but the tool, and it must be positive.

    Args:
        tool: Any catalog tool.

    Returns:
        A positive multiplier; 1.0 for a tool with nothing for or against it.
    """
    # Real work changes what exists more than it adds: updates and state moves over creates.
    action = action_of(tool)
    if action == "delete":
        return DELETE_WEIGHT
    return ACTION_WEIGHTS.get(action, 1.0)


@dataclass(frozen=True, slots=True)
class StepState:
    """What the ranking of a walk's next step depends on.

    Attributes:
        produced: Semantic types of every value the walk's steps produced.
        used: Tools the walk has called.
        services: Services the walk has touched.
        before: The last step that was not a lookup (the prior weighs the next tool after it), if any.
        need_services: The walk has fewer services than it must touch.
        want_write: A write is wanted (none yet, or the walk nears its end).
        max_services: The most services a walk may touch.
        open_world: Whether open-world tools may be drawn.
    """

    produced: Set[str]
    used: Set[str]
    services: Set[str]
    before: Tool | None
    need_services: bool
    want_write: bool
    max_services: int
    open_world: bool


class CandidateIndex:
    """Per-graph tables for ranking a walk's candidate tools, shared by every walk over the graph.

    Attributes:
        graph: The dependency graph.
        tools: The catalog's tools by name.
        prior: The recipe prior weighing transitions.
        nameable: Semantic types an instruction can state.
        traits: ``(service, writes, is a delete)`` per tool.
        required_ids: The id types each tool requires (top-level or nested).
        starts: Read tools a walk can start from, in graph order.
    """

    def __init__(
        self,
        graph: ToolGraph,
        tools: Mapping[str, Tool],
        prior: RecipePrior,
        nameable: frozenset[str],
    ) -> None:
        """Build the tables that do not depend on any walk.

        Args:
            graph: The dependency graph.
            tools: The catalog's tools by name (the world's catalog, which the graph was built over).
            prior: The recipe prior.
            nameable: Semantic types an instruction can state (see :data:`compoworld.tasks.walk.NAMEABLE`).
        """
        self.graph = graph
        self.tools = tools
        self.prior = prior
        self.nameable = nameable
        names = graph.tools
        self.traits: dict[str, tuple[str, bool, bool]] = {
            n: (t.service, t.writes, t.kind == "delete") for n, t in tools.items()
        }
        self.required_ids: dict[str, frozenset[str]] = {
            n: frozenset(p.semantic for p in graph.inputs[n] if p.required and p.semantic.endswith(".id"))
            for n in names
        }
        self.starts: list[str] = [
            n
            for n in names
            if tools[n].annotations.read_only
            and not any(p.semantic.endswith(".id") for p in graph.inputs[n] if p.required)
            and any(p.semantic in nameable and "[" not in p.path for p in graph.inputs[n])
        ]
        self._closed_starts = [n for n in self.starts if not tools[n].annotations.open_world]
        self._static = {n: static_weight(tools[n]) for n in names}
        self._writes = frozenset(n for n in names if tools[n].writes)
        self._open = frozenset(n for n in names if tools[n].annotations.open_world)
        # Consumers needing no id per type; tools needing ids per id type (they follow once all were produced).
        self._free: dict[str, list[str]] = {}
        # A tool that plays an outsider (a customer writing in) is no step of the team's work.
        outsiders = frozenset(n for n in names if acts_as_outsider(tools[n]))
        for sem, users in graph.consumers.items():
            free = [n for n in users if not self.required_ids[n] and n not in outsiders]
            if free:
                self._free[sem] = free
        self._by_id: dict[str, list[str]] = {}
        for n in names:
            if n in outsiders:
                continue
            for sem in sorted(self.required_ids[n]):
                self._by_id.setdefault(sem, []).append(n)
        # Per tool before (None: no step yet that is not a lookup): each tool's weight without the walk's
        # multipliers, and the same with the one for a wanted write.
        self._base: dict[str | None, dict[str, float]] = {}
        self._wanted: dict[str | None, dict[str, float]] = {}
        # Per (tool before, semantic type, write wanted): its consumers needing no id by tier (see _tiers).
        self._tiered: dict[tuple[str | None, str, bool], dict[int, list[str]]] = {}

    @classmethod
    def of(
        cls,
        graph: ToolGraph,
        tools: Mapping[str, Tool],
        prior: RecipePrior,
        nameable: frozenset[str],
    ) -> CandidateIndex:
        """The index of ``graph``, built on first use and kept in ``graph.cache``.

        Args:
            graph: The dependency graph.
            tools: The catalog's tools by name.
            prior: The recipe prior.
            nameable: Semantic types an instruction can state.

        Returns:
            The shared index (a new one if the arguments differ from the cached index's).
        """
        index = graph.cache.get(_CACHE_KEY)
        # Identity first: walks ask for the index on every candidate check.
        if isinstance(index, cls) and index.tools is tools and index.prior is prior and index.nameable is nameable:
            return index
        if (
            not isinstance(index, cls)
            or index.tools is not tools
            or index.prior is not prior
            or index.nameable != nameable
        ):
            index = cls(graph, tools, prior, nameable)
            graph.cache[_CACHE_KEY] = index
        return index

    def allowed(self, name: str, services: Set[str], max_services: int, open_world: bool) -> bool:
        """Whether a walk's constraints admit a tool.

        Args:
            name: A tool name.
            services: The services the walk has touched.
            max_services: The most services it may touch.
            open_world: Whether open-world tools are allowed.

        Returns:
            False for an open-world tool when those are not allowed, or a tool of a new service
            when the walk has touched ``max_services`` already.
        """
        if name in self._open and not open_world:
            return False
        return self.traits[name][0] in services or len(services) < max_services

    def first(self, state: StepState, rng: random.Random, k: int) -> list[str]:
        """Up to ``k`` start tools in uniformly random order.

        Args:
            state: The walk's state (only its services and constraints matter).
            rng: The walk's randomness.
            k: How many tools to return.

        Returns:
            Distinct start tools.
        """
        pool = self.starts if state.open_world else self._closed_starts
        if state.services:
            pool = [n for n in pool if self.allowed(n, state.services, state.max_services, state.open_world)]
        return rng.sample(pool, min(k, len(pool)))

    def rank(self, state: StepState, rng: random.Random, k: int) -> list[str]:
        """The first ``k`` tools of a weighted random order over every tool that may follow.

        The order is the one of sorting by ``weight * rng.random()``, largest first. Keys are drawn
        tier by tier (weights in ``[2**(t-1), 2**t)``), heaviest first, in name order within a tier;
        a lighter tier whose bound cannot beat the ``k``-th key so far is never drawn.

        Args:
            state: The walk's state.
            rng: The walk's randomness.
            k: How many tools to return.

        Returns:
            Up to ``k`` distinct tool names, best first.
        """
        if k <= 0:
            return []
        produced, used, services = state.produced, state.used, state.services
        before = None if state.before is None else state.before.name
        want = state.want_write
        sems = sorted(produced)
        tiers: dict[int, list[str]] = {}
        for sem in sems:
            if sem in self._free:
                for tier, names in self._free_after(before, sem, want).items():
                    tiers.setdefault(tier, []).extend(names)
        # Tools that need ids are few per id type, and can follow only once an earlier step produced every one.
        needs = self.required_ids
        needing = sorted({n for sem in sems for n in self._by_id.get(sem, ()) if needs[n] <= produced})
        if needing:
            for tier, names in self._tiers(before, needing, want).items():
                tiers.setdefault(tier, []).extend(names)
        weights = (self._wanted if want else self._base)[before]
        new_service = NEW_SERVICE_WEIGHT if state.need_services else 1.0
        ceiling = max(new_service, 1.0)  # what the new-service multiplier adds at most to a tier's bound
        full = len(services) >= state.max_services
        closed = not state.open_world
        traits, open_tools = self.traits, self._open
        rand = rng.random
        best: list[tuple[float, str]] = []  # the k largest keys so far, largest first
        for tier in sorted(tiers, reverse=True):
            if len(best) == k and math.ldexp(ceiling, tier) <= best[-1][0]:
                break  # every key from here on is below its tier's bound, which is below the k-th key
            # A tool taking several produced types is listed once per type, always in the same tier.
            names = sorted(set(tiers[tier]).difference(used))
            if closed:
                names = [n for n in names if n not in open_tools]
            if full:
                names = [n for n in names if traits[n][0] in services]
            best += [(weights[n] * (1.0 if traits[n][0] in services else new_service) * rand(), n) for n in names]
            best.sort(reverse=True)
            del best[k:]
        return [name for _, name in best]

    def _tiers(self, before: str | None, names: Iterable[str], want: bool) -> dict[int, list[str]]:
        """``names`` by tier of their weight after ``before``: tier ``t`` holds weights in [2**(t-1), 2**t)."""
        base = self._base.get(before)
        if base is None:
            base = self._base[before] = {}
            self._wanted[before] = {}
        wanted, static, writes = self._wanted[before], self._static, self._writes
        todo = [n for n in names if n not in base]
        if before is None:
            found = [static[n] for n in todo]
        else:
            src, tools, weigh = self.tools[before], self.tools, self.prior.weight
            # What real integrations do next: a recipe weighs about 50 times an unexplained jump.
            found = [static[n] * weigh(src, tools[n]) for n in todo]
        for n, w in zip(todo, found, strict=True):
            base[n] = w
            wanted[n] = w * WANTED_WRITE_WEIGHT if n in writes else w
        weights = wanted if want else base
        tiers: dict[int, list[str]] = {}
        for n in names:
            tiers.setdefault(math.frexp(weights[n])[1], []).append(n)
        return tiers

    def _free_after(self, before: str | None, sem: str, want: bool) -> dict[int, list[str]]:
        """Tools taking ``sem`` that need no id, by tier of their weight after ``before``."""
        key = (before, sem, want)
        tiers = self._tiered.get(key)
        if tiers is None:
            tiers = self._tiered[key] = self._tiers(before, self._free[sem], want)
        return tiers
