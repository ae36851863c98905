"""Task synthesis: walk → oracle run → criteria → instruction → validity gates → task.

:class:`Synthesizer` draws walks (see :mod:`compoworld.tasks.walk`) and runs
the stages on each: it re-executes the walk and derives its criteria from what
each step changed (:mod:`~compoworld.tasks.derive`, on a
:mod:`~compoworld.tasks.replay`), renders an instruction that states the goals
and the given facts, never a value the agent must discover
(:mod:`~compoworld.tasks.render`), adds distractor tools, and keeps the task
only if it passes every validity gate of docs/design.md §5
(:mod:`~compoworld.tasks.gates`). Rejected walks are counted by reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.engine.state import canonical_json
from compoworld.tasks.arguments import ValuePool
from compoworld.tasks.criteria import MessageCriterion, NotSentCriterion, TransitionCriterion, UnchangedCriterion
from compoworld.tasks.derive import derive_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns import apply_patterns, shortcut_passes
from compoworld.tasks.render import instruction, plan
from compoworld.tasks.task import SolutionStep, Task, calls_signature
from compoworld.tasks.walk import Step, Walk, WalkConfig, draw_walk
from compoworld.world.world import World

__all__ = [
    "BY_PATTERN",
    "COVER_SHARE",
    "PATTERNED_WALK",
    "SynthConfig",
    "Synthesizer",
    "TaskBuild",
]


PATTERNED_WALK = WalkConfig(min_length=6, max_length=10)
"""Walk constraints for synthesis with patterns (``synth --patterns``) unless lengths are given.

Work that is hard in several ways is long as well: real cross-application workflows take tens of
calls. A walk of three to six steps leaves the patterns' lookups most of a task; six to ten steps
(about eight drawn, since walks seldom find ten plausible steps) make the scenario itself longer.
"""


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """Knobs of synthesis.

    Attributes:
        walk: Walk constraints (length, services, fan-in, open-world).
        distractors: Tools shown beyond the solution's.
        attempts: Walks drawn per task before giving up on that index.
        patterns: Difficulty patterns applied where they fit (:data:`~compoworld.tasks.patterns.PATTERNS`).
        combine: With patterns, tasks built per index while looking for one that combines two or more
            (real work is hard in several ways at once) and takes at least ``long`` calls; when none
            does, the first that comes closest (two patterns first) is kept.
        long: With patterns, the fewest calls of a task :attr:`combine` looks for.
        cover: The share of indices that are coverage indices (every ``1/cover``-th): their first
            :attr:`focused` attempts must use one service (see :attr:`WalkConfig.focus`), the catalog's
            services in turn, so that a set covers services few walks reach. Half of those attempts open
            with an event where the walk settings ask for one, half start cold (a service whose records
            see no event can still be in one). After them a coverage index draws up to :attr:`attempts`
            walks as usual, as every other index does. 0 (the default) covers nothing; ``synth --cover``
            is 0.25: 500 coverage indices in 2,000 tasks, more than the catalog's services, while more
            than four tasks in five still open with an event (the audit asks for 80 %).
        focused: Focused attempts per coverage index (before its :attr:`attempts` usual ones).
    """

    walk: WalkConfig = field(default_factory=WalkConfig)
    distractors: int = 8
    attempts: int = 60
    patterns: tuple[str, ...] = ()
    combine: int = 3
    long: int = 12
    cover: float = 0.0
    focused: int = 96


@dataclass(slots=True)
class TaskBuild:
    """A task, or why a walk was rejected."""

    task: Task | None
    reason: str = ""


def _solution_step(step: Step) -> SolutionStep:
    return SolutionStep(
        tool=step.tool,
        arguments=json.loads(canonical_json(step.arguments)),
        provenance={n: p.to_dict() for n, p in step.provenance.items()},
    )


COVER_SHARE = 0.25
"""The share of coverage indices of ``synth --cover`` (:attr:`SynthConfig.cover`)."""

BY_PATTERN = "by_pattern:"
"""Prefix of the rejection counts kept per pattern: ``by_pattern:<pattern>:<reason>``."""


def _count_rejection(rejected: dict[str, int], reason: str, patterns: Sequence[str]) -> None:
    """Count a patterned walk's rejection, in all and under each pattern it had."""
    for key in (reason, *(f"{BY_PATTERN}{p}:{reason}" for p in patterns)):
        rejected[key] = rejected.get(key, 0) + 1


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
        self._focus_order = sorted(world.catalog.services)
        self._focused: dict[tuple[str, bool, bool], WalkConfig] = {}

    def covered_at(self, seed: int, index: int) -> str | None:
        """The service a coverage index must use, or None for any other index."""
        share = self.config.cover
        if share <= 0 or len(self._focus_order) < 2:
            return None
        # The k-th coverage index is the one where floor(index * share) steps to k + 1: evenly spread, and
        # decided by the index alone (a Ray worker draws it as the driver would).
        k = math.floor(index * share)
        if share < 1 and math.floor((index + 1) * share) == k:
            return None
        # Offset by the seed, so that sets of other seeds do not all start the cycle at the same service.
        return self._focus_order[(k + seed) % len(self._focus_order)]

    def walk_config(self, seed: int, index: int, attempt: int) -> WalkConfig:
        """The walk constraints of one attempt: focused on a service for a coverage index's first attempts."""
        service = self.covered_at(seed, index) if attempt < self.config.focused else None
        if service is None:
            return self.config.walk
        # Every other attempt starts elsewhere: a service whose own records see no event can still react.
        # Two in four open with an event, as most tasks do, and two start cold: a service no event reaches
        # is still used, and the set keeps most of its tasks opening with an event.
        start = attempt % 2 == 0
        event = self.config.walk.trigger and attempt % 4 < 2
        found = self._focused.get((service, start, event))
        if found is None:
            found = self._focused[(service, start, event)] = dataclasses.replace(
                self.config.walk, focus=service, focus_start=start, trigger=event
            )
        return found

    # -- one walk ------------------------------------------------------------------------

    def build(
        self,
        walk: Walk,
        *,
        seed: int,
        index: int,
        rng: random.Random,
        negatives: Sequence[UnchangedCriterion | NotSentCriterion] = (),
        patterns: Sequence[str] = (),
        notes: Sequence[str] = (),
    ) -> TaskBuild:
        """Turn a walk into a task if it passes every validity gate.

        ``negatives`` (what the patterns applied ask to be left alone) join the derived criteria;
        ``notes`` (where a rule the agent must apply is kept) end the instruction.

        Returns:
            The task, or a rejection reason: ``unverifiable`` (no criteria can be derived),
            ``no_transition`` (no upstream value reaches a write) or one of :func:`validate_task`'s.
        """
        derived = derive_criteria(self.world, self.graph, walk)
        if derived is None:
            return TaskBuild(None, "unverifiable")
        criteria, oracle = derived.criteria, derived.episode
        if not any(isinstance(c, TransitionCriterion | MessageCriterion) for c in criteria):
            return TaskBuild(None, "no_transition")
        criteria = criteria + [c.model_copy(update={"id": f"c{len(criteria) + i}"}) for i, c in enumerate(negatives)]
        text, given = instruction(self.world, self.graph, walk, rng)
        text = " ".join([text, *notes])
        task = self._task(walk, criteria, text, given, oracle, seed=seed, index=index, rng=rng, patterns=patterns)
        # derive_criteria() executed the walk afresh: that run is gate 4's second execution.
        reason = validate_task(self.world, task, reference_hash=oracle.state_hash())
        return TaskBuild(None, reason) if reason else TaskBuild(task)

    def distractors(self, walk: Walk, rng: random.Random) -> list[str]:
        """Tools to show beyond the solution's: half from the walk's services, the rest from others.

        Args:
            walk: The walk.
            rng: Draws the tools.

        Returns:
            The distractors: those of the walk's services in draw order, then the others sorted.
        """
        own = {s.tool for s in walk.steps}
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
        return picked + sorted(chosen)

    def _metadata(self, walk: Walk) -> dict[str, Any]:
        tools = self.world.catalog.tools
        services = walk.services
        fan_in = any(len({k for p in s.provenance.values() for k in p.sources}) >= 2 for s in walk.steps)
        return {
            "services": services,
            "length": len(walk.steps),
            "writes": sum(1 for s in walk.steps if tools[s.tool].writes),
            "fan_in": fan_in,
            "open_world_steps": sum(1 for s in walk.steps if tools[s.tool].annotations.open_world),
            "difficulty": len(walk.steps) + len(services) + (2 if fan_in else 0),
        } | ({"repeats": sorted(walk.repeats)} if walk.repeats else {})

    def _task(
        self,
        walk: Walk,
        criteria: list[Any],
        text: str,
        given: dict[str, Any],
        oracle: Episode,
        *,
        seed: int,
        index: int,
        rng: random.Random,
        patterns: Sequence[str] = (),
    ) -> Task:
        own = list(dict.fromkeys(s.tool for s in walk.steps))
        digest = hashlib.sha256(f"{seed}:{index}:{self.world.version}".encode()).hexdigest()[:12]
        return Task(
            id=f"t{index:05d}-{digest}",
            seed=seed,
            index=index,
            world_seed=self.world.seed,
            world_version=self.world.version,
            catalog=self.world.catalog.fingerprint,
            setup=[_solution_step(s) for s in walk.setup],
            trigger=walk.trigger,
            instruction=text,
            given=given,
            tools=sorted(own + self.distractors(walk, rng)),
            solution=[_solution_step(s) for s in walk.steps],
            plan=plan(self.world, walk),
            criteria=criteria,
            patterns=list(patterns),
            recording=oracle.recording,
            # The patterns ride in the metadata too: trajectories carry it, so reports break runs down by them.
            metadata=self._metadata(walk) | ({"patterns": list(patterns)} if patterns else {}),
        )

    # -- the loop ------------------------------------------------------------------------

    def task_at(self, seed: int, index: int, seen: set[str], rejected: dict[str, int]) -> Task | None:
        """Draw walks for one index until one becomes a new task (deterministic in seed and index).

        With patterns, up to :attr:`SynthConfig.combine` tasks are built, and the first that combines
        two or more patterns in at least :attr:`SynthConfig.long` calls is kept (else the first that
        comes closest).
        """
        best: tuple[tuple[bool, bool], Task, str] | None = None
        built_count = 0
        # A coverage index draws its focused attempts first, then as many as any other index.
        focused = self.config.focused if self.covered_at(seed, index) is not None else 0
        for attempt in range(focused + self.config.attempts):
            rng = random.Random(f"compoworld-synth:{seed}:{index}:{attempt}")
            drawn = draw_walk(self.world, self.graph, rng, self.walk_config(seed, index, attempt), self.pool)
            if drawn.walk is None:
                rejected[drawn.reason] = rejected.get(drawn.reason, 0) + 1
                continue
            # A walk whose calls a kept task already makes is not built again: it would be its duplicate.
            signature = calls_signature((s.tool, s.arguments) for s in drawn.walk.steps)
            if signature in seen:
                rejected["duplicate"] = rejected.get("duplicate", 0) + 1
                continue
            built = self._patterned(drawn.walk, seed, index, rng, rejected)
            if built is None:
                built = self.build(drawn.walk, seed=seed, index=index, rng=rng)
            if built.task is None:
                rejected[built.reason] = rejected.get(built.reason, 0) + 1
                continue
            built_count += 1
            rank = (len(built.task.patterns) >= 2, len(built.task.solution) >= self.config.long)
            if best is None or rank > best[0]:
                best = (rank, built.task, signature)
            if not self.config.patterns or all(rank) or built_count >= self.config.combine:
                break
        if best is None:
            return None
        seen.add(best[2])
        return best[1]

    def _patterned(
        self, walk: Walk, seed: int, index: int, rng: random.Random, rejected: dict[str, int]
    ) -> TaskBuild | None:
        """The walk built with the configured patterns that fit it, or None when none fits or it fails a gate.

        A walk a pattern breaks (a decoy its own lookups would find) is built as it was drawn instead;
        such rejections are counted as ``pattern:<reason>``, and those whose task a shortcut passes (the
        rule ignored, every match acted on) as ``shortcut:<name>``.
        """
        if not self.config.patterns:
            return None
        patterned = apply_patterns(self.world, self.graph, walk, self.config.patterns, rng)
        if patterned is None:
            return None
        built = self.build(
            patterned.walk,
            seed=seed,
            index=index,
            rng=rng,
            negatives=patterned.negatives,
            patterns=patterned.names,
            notes=patterned.notes,
        )
        if built.task is None:
            _count_rejection(rejected, f"pattern:{built.reason}", patterned.names)
            return None
        # A corner cut must not pass: a task that rewards ignoring its rule or acting on every match is dropped.
        for shortcut in patterned.shortcuts:
            if shortcut_passes(self.world, built.task, shortcut):
                _count_rejection(rejected, f"shortcut:{shortcut.name}", patterned.names)
                return None
        return built

    def tasks(
        self, seed: int, count: int, start: int = 0, seen: set[str] | None = None
    ) -> Iterator[tuple[int, Task | None, dict[str, int]]]:
        """Yield ``(index, task or None, rejections)`` for indices ``start..count-1``."""
        seen = seen if seen is not None else set()
        for index in range(start, count):
            rejected: dict[str, int] = {}
            yield index, self.task_at(seed, index, seen, rejected), rejected
