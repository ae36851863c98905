"""Constrained random walks over the dependency graph, executed as they are drawn.

A walk is a chain of tool calls in which every step after the first consumes
at least one value an earlier step produced. Each step is run on the walk's
own (oracle) episode the moment it is chosen, so every argument is a real
value and every step is known to succeed. Arguments come from three places,
recorded as their provenance:

* ``step``: a value an earlier step returned (``{"step": 0, "field": "items[0].email"}``);
* ``given``: a fact of the world the instruction will state (an e-mail, a
  company name, an order number) — never an id, which an agent must discover;
* ``literal``: a plain value the instruction states (a quantity, a status, a text).

This module draws and executes walks; turning them into criteria, instructions
and validated tasks builds on it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.engine.entities import Person
from compoworld.engine.episode import Episode
from compoworld.engine.tools import Tool
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from compoworld.tasks.graph import Port, ToolGraph, normalise_path
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.roles import ROLE_BEARING, input_roles, output_role, role_fits
from compoworld.world.world import World

__all__ = [
    "Produced",
    "Provenance",
    "Step",
    "Walk",
    "WalkConfig",
    "WalkResult",
    "draw_walk",
    "flatten",
    "produced_values",
]

# Semantic types a person can name in an instruction; ids and generic values never count as givens.
NAMEABLE = frozenset(
    {
        "email",
        "person.name",
        "company.name",
        "company.domain",
        "order_number",
        "invoice_number",
        "tracking_number",
        "product.sku",
        "stock.ticker",
        "phone",
        "url",
    }
)


# Links that alone do not make a step depend on another: any date, amount or title could be a coincidence.
WEAK = frozenset({"date", "datetime", "money.amount", "text.title"})


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an argument came from."""

    kind: Literal["step", "given", "literal"]
    step: int | None = None
    field: str | None = None
    semantic: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.step is not None:
            out["step"] = self.step
        if self.field is not None:
            out["field"] = self.field
        if self.semantic is not None:
            out["semantic"] = self.semantic
        return out


@dataclass(frozen=True, slots=True)
class Produced:
    """A typed value a step returned."""

    step: int
    path: str
    semantic: str
    value: Any


@dataclass(slots=True)
class Step:
    """One executed call of a walk."""

    tool: str
    arguments: dict[str, Any]
    provenance: dict[str, Provenance]
    result: Any


@dataclass(slots=True)
class Walk:
    """An executed walk: its steps and the oracle episode in its final state."""

    steps: list[Step]
    episode: Episode

    @property
    def services(self) -> list[str]:
        """Services touched, in order of first use."""
        return list(dict.fromkeys(s.tool.split("__", 1)[0] for s in self.steps))


@dataclass(frozen=True, slots=True)
class WalkConfig:
    """Constraints of a walk.

    Attributes:
        min_length: Fewest steps.
        max_length: Most steps.
        min_services: Fewest distinct services.
        max_services: Most distinct services.
        fan_in: Require a step consuming values of two different earlier steps.
        open_world: Allow open-world tools.
        candidates: Tools tried per step before giving up.
    """

    min_length: int = 4
    max_length: int = 6
    min_services: int = 2
    max_services: int = 4
    fan_in: bool = False
    open_world: bool = True
    candidates: int = 24


@dataclass(frozen=True, slots=True)
class WalkResult:
    """A walk, or why none was drawn."""

    walk: Walk | None
    reason: str = ""


def flatten(value: Any, path: str = "", *, lists: bool = True) -> list[tuple[str, Any]]:
    """Every leaf (and whole object) of a JSON value with its concrete path (``items[0].email``).

    With ``lists=False`` the insides of lists are left out.
    """
    out: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        if path:
            out.append((path, value))
        for k, v in value.items():
            out.extend(flatten(v, f"{path}.{k}" if path else k, lists=lists))
    elif isinstance(value, list):
        if lists:
            for i, v in enumerate(value):
                out.extend(flatten(v, f"{path}[{i}]", lists=lists))
    elif path:
        out.append((path, value))
    return out


def is_singleton(value: Any) -> bool:
    """Whether every list in ``value`` has at most one element (so each item is identified)."""
    if isinstance(value, dict):
        return all(is_singleton(v) for v in value.values())
    if isinstance(value, list):
        return len(value) <= 1 and all(is_singleton(v) for v in value)
    return True


def produced_values(step: int, result: Any, ports: list[Port]) -> list[Produced]:
    """The typed values of a result an instruction can identify.

    Values inside a list count only when the list holds one element: "the
    fifth contact of an unfiltered listing" is nothing a person can point at.
    """
    by_pattern = {p.path: p.semantic for p in ports}
    single = is_singleton(result)
    out = []
    for path, value in flatten(result, lists=single):
        sem = by_pattern.get(normalise_path(path) if single else path)
        if sem is None or value in (None, "", [], {}):
            continue
        out.append(Produced(step, path, sem, value))
    return out


class _Walker:
    def __init__(self, world: World, graph: ToolGraph, pool: ValuePool, rng: random.Random, config: WalkConfig) -> None:
        self.world = world
        self.graph = graph
        self.pool = pool
        self.rng = rng
        self.config = config
        self.episode = Episode(world)
        self.steps: list[Step] = []
        self.produced: list[Produced] = []
        self.services: set[str] = set()
        self.used: set[str] = set()
        self.tools = world.catalog.tools
        self.prior = RecipePrior.default()
        self.roles: dict[tuple[str, str, bool], Any] = self.graph.cache.setdefault("roles", {})

    def _holds(self, produced: Produced) -> str | None:
        """Whose value an earlier step produced (a customer's, an employee's …), or None if nobody's."""
        tool = self.steps[produced.step].tool
        key = (tool, normalise_path(produced.path), False)
        if key not in self.roles:
            self.roles[key] = output_role(self.tools[tool], key[1])
        role: str | None = self.roles[key]
        return role

    def _accepts(self, tool: str, path: str) -> frozenset[str] | None:
        """Whose values a parameter takes, or None when any value of its type will do."""
        key = (tool, path, True)
        if key not in self.roles:
            self.roles[key] = input_roles(self.tools[tool], path)
        accepted: frozenset[str] | None = self.roles[key]
        return accepted

    def _work_before(self) -> Tool | None:
        """The last step that was not an aside (a weather or exchange-rate lookup): the work goes on from it."""
        for step in reversed(self.steps):
            tool = self.tools[step.tool]
            if not self.prior.is_lookup(tool):
                return tool
        return None

    def _tool(self, name: str) -> Tool:
        return self.tools[name]

    def _allowed(self, name: str) -> bool:
        tool = self.tools[name]
        if tool.annotations.open_world and not self.config.open_world:
            return False
        return tool.service in self.services or len(self.services) < self.config.max_services

    def _required_ids(self) -> dict[str, frozenset[str]]:
        """The id types each tool requires (top-level or nested), computed once per graph."""
        needs: dict[str, frozenset[str]] | None = self.graph.cache.get("required_ids")
        if needs is None:
            needs = {
                n: frozenset(p.semantic for p in self.graph.inputs[n] if p.required and p.semantic.endswith(".id"))
                for n in self.graph.tools
            }
            self.graph.cache["required_ids"] = needs
        return needs

    def _starts(self) -> list[str]:
        """Read tools a walk can start from: no id needed, some fact an instruction can state."""
        starts: list[str] | None = self.graph.cache.get("walk_starts")
        if starts is None:
            starts = [
                n
                for n in self.graph.tools
                if self.tools[n].annotations.read_only
                and not any(p.semantic.endswith(".id") for p in self.graph.inputs[n] if p.required)
                and any(p.semantic in NAMEABLE and "[" not in p.path for p in self.graph.inputs[n])
            ]
            self.graph.cache["walk_starts"] = starts
        return starts

    def _fill(self, tool: Tool, first: bool) -> tuple[dict[str, Any], dict[str, Provenance]] | None:
        """Arguments for ``tool``: upstream values where types match, else givens or literals."""
        schema = tool.parameters_schema
        props = schema.get("properties", {})
        ports = {p.path: p for p in self.graph.inputs[tool.name]}
        # World values as they are: an instruction names real entities, not made-up variants.
        gen = ArgumentGenerator(self.world, self.pool, tool.service, self.rng, fresh=False)
        args: dict[str, Any] = {}
        prov: dict[str, Provenance] = {}
        used_upstream: set[int] = set()
        strong = False
        gave = False
        # A read is only worth its step if what it found is used: the step after a read consumes it.
        last_read = len(self.steps) - 1 if self.steps and not self.tools[self.steps[-1].tool].writes else None
        nested_ids = {
            p.path.split(".", 1)[0].removesuffix("[]")
            for p in self.graph.inputs[tool.name]
            if p.semantic.endswith(".id") and ("." in p.path or p.path.endswith("[]"))
        }
        for name, prop in props.items():
            if name in nested_ids and name not in ports:
                # Records named inside a structure (invoice lines' items …) are ids an agent must
                # discover; a walk cannot state them.
                if name in tool.required:
                    return None
                continue
            port = ports.get(name) or ports.get(f"{name}[]")
            is_list = name not in ports and f"{name}[]" in ports
            required = name in tool.required
            if port is not None:
                matches = [
                    p for p in self.produced if p.semantic == port.semantic and not isinstance(p.value, dict | list)
                ]
                if port.semantic == "postal_address":
                    matches = [p for p in self.produced if p.semantic == port.semantic]
                if port.semantic in ROLE_BEARING and matches:
                    # A value goes only where its owner belongs: a customer's e-mail to a recipient, not a supplier.
                    accepted = self._accepts(tool.name, port.path)
                    if accepted is not None:
                        matches = [p for p in matches if (r := self._holds(p)) is None or role_fits(r, accepted)]
                if matches and (required or self.rng.random() < 0.5):
                    fresh = [p for p in matches if p.step == last_read]
                    pick = self.rng.choice(fresh or matches[-6:])
                    args[name] = [pick.value] if is_list else pick.value
                    prov[name] = Provenance("step", pick.step, pick.path, port.semantic)
                    used_upstream.add(pick.step)
                    strong = strong or port.semantic not in WEAK
                    continue
                if port.semantic.endswith(".id"):
                    if required:
                        return None  # ids are never given: an agent must discover them
                    continue
                if port.semantic in NAMEABLE and (required or (first and not gave)):
                    value = gen.value(prop, schema)
                    args[name] = value
                    prov[name] = Provenance("given", semantic=port.semantic)
                    gave = True
                    continue
            if required:
                args[name] = gen.value(prop, schema)
                prov[name] = Provenance("literal")
        self._same_person(args, prov, ports)
        if first and not gave:
            return None  # a walk starts from a fact the instruction states
        if not first and not strong:
            return None
        if last_read is not None and last_read not in used_upstream:
            return None
        if self.config.fan_in and len(self.steps) >= 2 and len(used_upstream) < 2 and self._needs_fan_in():
            return None
        return args, prov

    def _same_person(self, args: dict[str, Any], prov: dict[str, Provenance], ports: dict[str, Port]) -> None:
        """Make the stated name and phone of a record the ones of the person its e-mail belongs to.

        A record about a person takes every attribute from that person: never one person's name
        beside another's e-mail. Values found upstream are left as they are (they are facts).
        """
        emails = [n for n, port in ports.items() if port.semantic == "email" and isinstance(args.get(n), str)]
        # The record's own e-mail is the plain one; owner_email, cc … name other people.
        subject = "email" if "email" in emails else emails[0] if len(emails) == 1 else None
        if subject is None:
            return
        people = self._people()
        person = people.get(str(args[subject]).casefold())
        if person is None:
            return
        own = {
            "person.first_name": person.first_name,
            "person.last_name": person.last_name,
            "person.name": person.name,
            "phone": person.phone,
        }
        for name, port in ports.items():
            if port.semantic not in own or name not in args or args[name] == own[port.semantic]:
                continue
            # A value found upstream stays, unless it is another person's (a reply-to mailbox beside a
            # recipient's name): then the record takes its e-mail owner's, which the instruction states.
            if prov[name].kind == "step" and not self._named_elsewhere(args[name], person):
                continue
            args[name] = own[port.semantic]
            prov[name] = Provenance("literal")

    def _named_elsewhere(self, value: Any, person: Person) -> bool:
        """Whether ``value`` is the name or phone of someone other than ``person``."""
        others = self.graph.cache.get(f"names:{self.world.seed}:{self.world.version}")
        if others is None:
            others = {}
            for p in self.world.population.people:
                for key in (p.first_name, p.last_name, p.name, p.phone):
                    others.setdefault(key, set()).add(p.key)
            self.graph.cache[f"names:{self.world.seed}:{self.world.version}"] = others
        owners: set[str] = others.get(value, set())
        return bool(owners) and person.key not in owners

    def _people(self) -> dict[str, Person]:
        """The world's people by e-mail, built once per world."""
        key = f"people:{self.world.seed}:{self.world.version}"
        people: dict[str, Person] | None = self.graph.cache.get(key)
        if people is None:
            people = {p.email.casefold(): p for p in self.world.population.people}
            self.graph.cache[key] = people
        return people

    def _needs_fan_in(self) -> bool:
        return not any(
            len({p.step for p in s.provenance.values() if p.kind == "step" and p.step is not None}) >= 2
            for s in self.steps
        )

    def _candidates(self) -> list[str]:
        if not self.steps:
            starts = [n for n in self._starts() if self._allowed(n)]
            self.rng.shuffle(starts)
            return starts
        produced_semantics = sorted({p.semantic for p in self.produced})
        have = set(produced_semantics)
        needs = self._required_ids()
        found = {n for sem in produced_semantics for n in self.graph.consumers.get(sem, ())}
        # Only tools whose required ids an earlier step produced: ids are never given.
        names = [n for n in sorted(found) if n not in self.used and needs[n] <= have and self._allowed(n)]
        services = self.services
        remaining = self.target - len(self.steps)
        need_services = len(services) < self.config.min_services
        need_write = not any(self._tool(s.tool).writes for s in self.steps)

        want_write = need_write or remaining <= 2
        traits = self._traits()
        rand = self.rng.random
        before = self._work_before()
        # Weights after one tool, kept across walks: a walk sorts hundreds of candidates per step.
        after: dict[str, float] = {} if before is None else self.graph.cache.setdefault(f"prior:{before.name}", {})

        def key(n: str) -> float:
            service, writes, delete = traits[n]
            w = 4.0 if need_services and service not in services else 1.0
            if before is not None:
                # What real integrations do next: recipes weigh about 50 times an unexplained jump.
                weight = after.get(n)
                if weight is None:
                    weight = after[n] = self.prior.weight(before, self.tools[n])
                w *= weight
            if writes and want_write:
                w *= 3.0
            if delete:
                w *= 0.3
            return -w * rand()

        return sorted(names, key=key)

    def _traits(self) -> dict[str, tuple[str, bool, bool]]:
        """(service, writes, is a delete) per tool, computed once per graph."""
        traits: dict[str, tuple[str, bool, bool]] | None = self.graph.cache.get("traits")
        if traits is None:
            traits = {n: (t.service, t.writes, t.kind == "delete") for n, t in self.tools.items()}
            self.graph.cache["traits"] = traits
        return traits

    def step(self) -> bool:
        first = not self.steps
        for name in self._candidates()[: self.config.candidates]:
            tool = self._tool(name)
            filled = self._fill(tool, first)
            if filled is None:
                continue
            args, prov = filled
            before = self.episode.state_hash() if tool.writes else ""
            res = self.episode.call(name, args)
            if not res.ok:
                continue
            if tool.writes and self.episode.state_hash() == before:
                continue  # a write that changes nothing is no step of a task
            index = len(self.steps)
            found = produced_values(index, res.result, self.graph.outputs[name])
            if first and not found:
                continue  # a lookup that identifies nothing cannot start a chain
            self.steps.append(Step(name, args, prov, res.result))
            self.services.add(tool.service)
            self.used.add(name)
            self.produced.extend(found)
            return True
        return False

    def run(self) -> WalkResult:
        cfg = self.config
        self.target = self.rng.randint(cfg.min_length, cfg.max_length)
        while len(self.steps) < self.target:
            if not self.step():
                return WalkResult(None, "dead_end" if self.steps else "no_start")
        walk = Walk(self.steps, self.episode)
        if not any(self._tool(s.tool).writes for s in self.steps):
            return WalkResult(None, "no_write")
        if len(walk.services) < cfg.min_services:
            return WalkResult(None, "too_few_services")
        if cfg.fan_in and self._needs_fan_in():
            return WalkResult(None, "no_fan_in")
        return WalkResult(walk)


def draw_walk(
    world: World,
    graph: ToolGraph,
    rng: random.Random,
    config: WalkConfig | None = None,
    pool: ValuePool | None = None,
) -> WalkResult:
    """Draw and execute one walk.

    Args:
        world: The world.
        graph: The dependency graph of the world's catalog.
        rng: Source of randomness (seed it for reproducible walks).
        config: Constraints.
        pool: Semantic values of the world (built if None).

    Returns:
        The walk, or the reason none was drawn (``no_start``, ``dead_end``, ``no_write``,
        ``too_few_services``, ``no_fan_in``).
    """
    return _Walker(world, graph, pool or ValuePool.from_world(world), rng, config or WalkConfig()).run()
