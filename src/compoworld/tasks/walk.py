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

import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal, NamedTuple

from compoworld.engine.entities import Person
from compoworld.engine.episode import Episode, StateDiff
from compoworld.engine.errors import CatalogError
from compoworld.engine.runtime import CallResult
from compoworld.engine.tools import Tool
from compoworld.tasks.actions import action_of, body_parameters, ends
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from compoworld.tasks.candidates import CandidateIndex, StepState
from compoworld.tasks.graph import (
    Port,
    ToolGraph,
    field_label,
    input_ports,
    label,
    normalise_path,
    output_ports,
    render_value,
)
from compoworld.tasks.messages import compose_body, pick_facts
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.roles import ROLE_BEARING, input_roles, output_role, role_fits, sends, subject_email
from compoworld.tasks.transforms import apply_transform, draw_params, sources_for
from compoworld.tasks.triggers import (
    EVENT_MIX,
    REACTIONS,
    Fired,
    call_key,
    event_tools,
    fire_trigger,
    names_reaction,
    reactions,
    silences,
    trigger_message,
)
from compoworld.world.world import World

__all__ = [
    "REPORTED",
    "Produced",
    "Provenance",
    "Step",
    "Walk",
    "WalkConfig",
    "WalkResult",
    "draw_walk",
    "finding",
    "flatten",
    "identified",
    "produced_values",
    "told",
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


# Parameters naming who sends a message (the rest name who gets it).
_NAMES = frozenset({"person.name", "person.first_name", "person.last_name"})
_UNSET = object()
# A public post tells nobody in particular: no walk ends by telling the world what it found.
_BROADCAST = frozenset({"social_media"})
# How a stated value names its person, and which roles each kind of person of the world can play.
_PERSON_KEYS: dict[str, Callable[[Person], str]] = {
    "email": lambda p: p.email,
    "phone": lambda p: p.phone,
    "person.name": lambda p: p.name,
}
_PLAYS: dict[str, frozenset[str]] = {
    "employee": frozenset({"employee"}),
    "contact": frozenset({"customer", "vendor", "candidate", "public"}),
    "consumer": frozenset({"customer", "candidate", "patient", "student", "guest", "tenant", "donor", "public"}),
}

# Records of correspondence (a mail, a thread, a comment): an event elsewhere is not carried over by
# archiving or deleting one of them.
_CORRESPONDENCE = re.compile(r"_(message|thread|comment|post|reply|note)s?$")

# Values that name a person.
_PERSON_VALUES = frozenset({"email", "phone", "person.name", "person.first_name", "person.last_name"})

# Words of a tool name that say it acts on someone's account, membership or access.
_PEOPLE_WORDS = re.compile(
    r"member|user|person|people|contact|employee|subscriber|cardholder|permission|access|seat|participant|"
    r"invitee|attendee|panelist|registrant|guest|customer|candidate|recipient"
)

# Texts for a work item about no company, when the world's text for it names one.
_PLAIN_TEXTS = ("Follow-up", "Account review", "Check-in call", "Status update")

# Records a message may go out from though the walk did not find them (a team's mailbox, a channel);
# a comment or reply goes only on a record the work is about, never on one looked up for the purpose.
_PLACES = frozenset({"mailbox", "channel", "admin", "app", "member", "sender", "number"})

# Flags that, set, end a record (a new team archived at once was made for nothing).
_ENDING_FLAG = re.compile(r"archiv|disabl|suspend|clos|cancel|delet|lock|inactiv|trash|retir|block")

# A reaction as _react weighs it: its name, its tool, the prior's weight after the first step, the ids it needs.
_Reactor = tuple[str, Tool, float, frozenset[str]]

# First-step reads kept per world (see _Walker._read): a few thousand cover the starts walks repeat.
_FIRST_READS = 4096

# Links that alone do not make a step depend on another: any date, amount or title could be a coincidence.
WEAK = frozenset({"date", "datetime", "money.amount", "text.title"})


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an argument came from.

    Attributes:
        kind: ``step`` (found by an earlier step), ``given`` (a fact the instruction states),
            ``literal`` (a plain value it states), ``derived`` (a found value through a named
            transform, see :mod:`compoworld.tasks.transforms`) or ``compose`` (a message text
            that carries found facts, see :mod:`compoworld.tasks.messages`).
        step: For ``step`` and ``derived``: the step that found the value.
        field: Where in that step's result.
        semantic: The parameter's semantic type.
        transform: For ``derived``: the transform's name.
        params: For ``derived``: the transform's parameters (``(("days", 30),)``).
        parts: For ``compose``: the ``(step, field)`` of each fact the text carries. A ``compose`` may
            also carry one fact derived by a transform (``step``, ``field``, ``transform``, ``params``:
            how many records a list found, see :mod:`compoworld.tasks.patterns.aggregation`).
    """

    kind: Literal["step", "given", "literal", "derived", "compose"]
    step: int | None = None
    field: str | None = None
    semantic: str | None = None
    transform: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    parts: tuple[tuple[int, str], ...] = ()

    @property
    def sources(self) -> list[int]:
        """The earlier steps whose findings the argument uses."""
        if self.kind == "compose":
            return [k for k, _ in self.parts] + ([self.step] if self.step is not None else [])
        return [self.step] if self.kind in ("step", "derived") and self.step is not None else []

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.step is not None:
            out["step"] = self.step
        if self.field is not None:
            out["field"] = self.field
        if self.semantic is not None:
            out["semantic"] = self.semantic
        if self.transform is not None:
            out["transform"] = self.transform
            out["params"] = dict(self.params)
        if self.parts:
            out["parts"] = [{"step": k, "field": f} for k, f in self.parts]
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
    """One executed call of a walk.

    Attributes:
        tool: The tool.
        arguments: Its arguments.
        provenance: Where each argument came from.
        result: What it returned.
        phrase: How the instruction names what the step finds, when a pattern words it ("EUR 480.00" for
            a conversion, "the lead's phone" for a lookup in the system of record); "" names it by its
            record and service.
    """

    tool: str
    arguments: dict[str, Any]
    provenance: dict[str, Provenance]
    result: Any
    phrase: str = ""


@dataclass(slots=True)
class Walk:
    """An executed walk: its steps and the oracle episode in its final state.

    Attributes:
        steps: The steps, in order.
        episode: The episode after the setup and every step.
        setup: Calls made before the first step: the trigger event the task opens with.
        trigger: What the agent is told happened (empty without a setup).
        told: Steps whose stated values the instruction tells in a sentence of their own (where a
            rule is kept, see :mod:`compoworld.tasks.patterns`), not as a record to use.
        named: Reads whose record the instruction names loosely, by a name rather than the value the
            step searches with (``{2: "Bill Turner"}``: the soft-matching pattern).
        repeats: Steps that do again, for another record of a list, what earlier steps did for the
            first (the batch pattern): the instruction asks for that work once, for every record.
        quiet: The addresses and numbers of someone the trigger's event says is not to be contacted
            any more (an unsubscribe, an opt-out): no message may go to them.
    """

    steps: list[Step]
    episode: Episode
    setup: list[Step] = field(default_factory=list)
    trigger: str = ""
    told: frozenset[int] = frozenset()
    named: dict[int, str] = field(default_factory=dict)
    repeats: frozenset[int] = frozenset()
    quiet: frozenset[str] = frozenset()

    @property
    def services(self) -> list[str]:
        """Services touched, in order of first use."""
        return list(dict.fromkeys(s.tool.split("__", 1)[0] for s in self.steps))


@dataclass(frozen=True, slots=True)
class WalkConfig:
    """Constraints of a walk.

    Attributes:
        min_length: Fewest steps, the closing message included.
        max_length: Most steps.
        min_services: Fewest distinct services.
        max_services: Most distinct services.
        fan_in: Require a step consuming values of two different earlier steps.
        open_world: Allow open-world tools.
        candidates: Tools tried per step before giving up.
        trigger: Open the walk with an event on the record its first step finds (a status
            change made in the setup); a walk whose record has no such event is rejected.
        react: With a trigger, carry the event over to another service right after it (see
            :data:`~compoworld.tasks.triggers.REACTIONS`); a walk whose event finds no
            reaction is rejected. Without (or over services that can carry no event over), a
            walk that finds none goes on as the prior has it.
        second: Chance that a second service reacts too, when there is room.
        message: Chance that a walk ends by telling someone what it found (a mail, chat
            message, SMS or note whose body carries found facts).
        derive: Chance that a date or time parameter takes a found one plus some days.
        focus: A service the walk must use: its tools are tried first wherever one can come (the
            start, a reaction, a next step, the closing message), and a walk without it is rejected
            (``no_focus``). Synthesis gives each index's first attempts one, cycling over the catalog,
            so that every service gets walks, not only those most starts lead to.
        focus_start: With a focus, start in it where it can start a walk (else it must come later:
            a service whose records see no event can still react to another's).
    """

    min_length: int = 3
    max_length: int = 6
    min_services: int = 2
    max_services: int = 4
    fan_in: bool = False
    open_world: bool = True
    candidates: int = 24
    trigger: bool = True
    react: bool = True
    second: float = 0.4
    message: float = 1.0
    derive: float = 0.9
    focus: str | None = None
    focus_start: bool = True


# Starts a walk with an opening event tries before it gives up (each found a record no event could change).
_EVENT_STARTS = 3

# How much more a tool of the focus service weighs against the others where tools are drawn by weight.
_FOCUS_BOOST = 1000.0

# What a final read may be asked to report: a value a person can name.
REPORTED = NAMEABLE | {"text.title"}

# Parameters that are a search box: an aside searches it for the company the work is about.
_SEARCH_BOXES = frozenset({"q", "query", "keyword", "keywords", "search", "term"})

# Page sizes: an aside asks a search for its one best finding (the latest article on the company).
_PAGE_SIZES = frozenset({"page_size", "limit", "per_page", "max_results"})

# What an aside works on (the text it translates, the amount it converts): the record's, never stated.
_OWN = frozenset({"text.body", "money.amount"})

# Reads of a lookup service tried for an aside, at most.
_ASIDE_TRIES = 6


@dataclass(frozen=True, slots=True)
class WalkResult:
    """A walk, or why none was drawn."""

    walk: Walk | None
    reason: str = ""


def told(arguments: Sequence[dict[str, Any]]) -> set[str]:
    """Every value the calls were given (each item of a list too), as JSON: what a finding may not be."""
    return {
        json.dumps(x) for args in arguments for v in args.values() for x in [v, *(v if isinstance(v, list) else ())]
    }


def finding(step: int, result: Any, ports: list[Port], given: set[str], *, lookup: bool) -> Produced | None:
    """The value of a final read's result that the final answer must report, if any.

    The first nameable string of at least three characters that no step was given as an argument;
    failing that, for an open-world ``lookup``, the first typed string that is neither an id nor a
    date or amount (a forecast's conditions, a converted amount as written): what it was asked for.

    Args:
        step: The read's index in its walk.
        result: Its result.
        ports: Its tool's output ports.
        given: Every argument value of the walk, as JSON (see :func:`told`).
        lookup: Whether the read is an open-world lookup.

    Returns:
        The value, or None when the result holds nothing to report.
    """
    plain = [
        p
        for p in produced_values(step, result, ports)
        if isinstance(p.value, str) and len(p.value) >= 3 and json.dumps(p.value) not in given
    ]
    named = next((p for p in plain if p.semantic in REPORTED), None)
    if named is not None or not lookup:
        return named
    return next((p for p in plain if not p.semantic.endswith(".id") and p.semantic not in WEAK), None)


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


def _items(value: Any) -> list[Any]:
    """A list's items, or the value alone."""
    return value if isinstance(value, list) else [value]


# What JSON values are looked into (a tuple: isinstance takes it faster than ``dict | list``).
_CONTAINERS = (dict, list)


_INDEX = re.compile(r"\[(\d+)\]")


def identified(value: Any, field: str) -> bool:
    """Whether every list on the way to ``field`` (``items[0].email``) in ``value`` holds one item.

    Such a value names one thing ("the e-mail of the employee found"), whatever other lists the
    result holds: an employee's five working days do not make the listing of that one employee
    ambiguous, while a listing of two employees does.
    """
    here = value
    for part in field.split("."):
        name, bracket, rest = part.partition("[")
        if name:
            if not isinstance(here, dict) or name not in here:
                return True
            here = here[name]
        for index in _INDEX.findall(bracket + rest):
            if not isinstance(here, list):
                return True
            if len(here) > 1:
                return False
            if int(index) >= len(here):
                return True
            here = here[int(index)]
    return True


def produced_values(step: int, result: Any, ports: list[Port]) -> list[Produced]:
    """The typed values of a result an instruction can identify.

    Values inside a list count only when the list holds one element: "the
    fifth contact of an unfiltered listing" is nothing a person can point at.
    Lists that hold no port (a record's working days, its tags) do not matter.
    """
    held = _BY_PATH.get(id(ports))
    if held is None or held[0] is not ports:
        held = _BY_PATH[id(ports)] = (ports, _PortPaths.of(ports))
    paths = held[1]
    out: list[Produced] = []
    # Whether lists are looked into matters only where some port lies inside one.
    _typed(step, result, "", "", paths.in_lists, paths, out)
    return out


@dataclass(frozen=True, slots=True)
class _PortPaths:
    """A tool's output ports as :func:`_typed` reads them.

    Attributes:
        semantic: Semantic type by port path (list indices written ``[]``).
        prefixes: Every leading part of a port path, as text: a value whose path begins none of them holds
            no port, and is not looked into (a listing's records carry many fields no port names).
        in_lists: Whether some port lies inside a list.
    """

    semantic: dict[str, str]
    prefixes: frozenset[str]
    in_lists: bool

    @classmethod
    def of(cls, ports: list[Port]) -> _PortPaths:
        return cls(
            semantic={p.path: p.semantic for p in ports},
            prefixes=frozenset(p.path[:i] for p in ports for i in range(1, len(p.path) + 1)),
            in_lists=any("[]" in p.path for p in ports),
        )


# Port paths per list of ports (a graph's ports are built once; the list is kept to tell a reused id from
# the same list).
_BY_PATH: dict[int, tuple[list[Port], _PortPaths]] = {}


def _typed(step: int, value: Any, path: str, norm: str, lists: bool, ports: _PortPaths, out: list[Produced]) -> None:
    """Append the typed, non-empty values under ``value`` (a dict or a list, as :func:`flatten` orders them) to ``out``.

    ``norm`` is ``path`` without list indices, as ports name it. Plain values are taken where they stand,
    only containers are looked into.
    """
    semantic, prefixes = ports.semantic, ports.prefixes
    if isinstance(value, dict):
        if path and value:
            sem = semantic.get(norm)
            if sem is not None:
                out.append(Produced(step, path, sem, value))
        for k, v in value.items():
            inner = f"{norm}.{k}" if norm else k
            if inner not in prefixes:
                continue
            where = f"{path}.{k}" if path else k
            if isinstance(v, _CONTAINERS):
                _typed(step, v, where, inner, lists, ports, out)
            elif v is not None and v != "":
                sem = semantic.get(inner)
                if sem is not None:
                    out.append(Produced(step, where, sem, v))
    elif isinstance(value, list):
        inner = f"{norm}[]"
        if not lists or inner not in prefixes or len(value) > 1:
            return
        sem = semantic.get(inner)
        for i, v in enumerate(value):
            if isinstance(v, _CONTAINERS):
                _typed(step, v, f"{path}[{i}]", inner, lists, ports, out)
            elif sem is not None and v is not None and v != "":
                out.append(Produced(step, f"{path}[{i}]", sem, v))


@dataclass(frozen=True, slots=True)
class _Shape:
    """A tool's parameters as a walk fills them: ports by path, those to fill in order, message body."""

    ports: dict[str, Port]
    params: tuple[_Param, ...]
    message: bool
    bodies: tuple[str, ...]


class _Param(NamedTuple):
    """A parameter :meth:`_Walker._fill` fills, with what it asks of it that the tool alone decides.

    Attributes:
        name: The parameter.
        prop: Its schema.
        port: Its input port (its items' port, for a list), if any.
        is_list: Whether the port is the list's items'.
        required: Whether the tool requires it.
        recipient: Whether it names whom a message goes to.
        unfillable: A required id named inside a structure (invoice lines' items …): an id an agent must
            discover, which a walk cannot state. A tool that has one cannot be filled.
    """

    name: str
    prop: Any
    port: Port | None
    is_list: bool
    required: bool
    recipient: bool
    unfillable: bool


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
        self.setup: list[Step] = []
        self.trigger = ""
        self.event: Fired | None = None
        self.reaction: re.Pattern[str] | None = None  # what reacts to the event (see triggers.REACTIONS)
        self.about = False  # whether the event happened to someone (see _about_someone)
        self.must_react = False  # whether the walk is rejected when its event finds no reaction
        # (table, record, field) -> the value before the walk's first change of it.
        self.original: dict[tuple[str, str, str], Any] = {}
        self.lookups: set[int] = set()  # steps that found where a message goes out from
        self.target = config.max_length

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

    def _index(self) -> CandidateIndex:
        """The graph's candidate tables (built once per graph, shared by every walk)."""
        return CandidateIndex.of(self.graph, self.tools, self.prior, NAMEABLE)

    def _allowed(self, name: str) -> bool:
        return self._index().allowed(name, self.services, self.config.max_services, self.config.open_world)

    def _required_ids(self) -> dict[str, frozenset[str]]:
        """The id types each tool requires (top-level or nested), computed once per graph."""
        return self._index().required_ids

    def _starts(self) -> list[str]:
        """Read tools a walk can start from: no id needed, some fact an instruction can state."""
        return self._index().starts

    def _fill(
        self, tool: Tool, first: bool, *, lookup: bool = False, find: bool = False
    ) -> tuple[dict[str, Any], dict[str, Provenance]] | None:
        """Arguments for ``tool``: upstream values where types match, else givens or literals.

        A ``find`` (a read that looks up the record a reaction acts on) filters by every found
        value that fits, as they are: it looks for the same entity, not for something near it.
        """
        schema = tool.parameters_schema
        shape = self._shape(tool)
        ports, message, bodies = shape.ports, shape.message, shape.bodies
        # World values as they are: an instruction names real entities, not made-up variants.
        gen = ArgumentGenerator(self.world, self.pool, tool.service, self.rng, fresh=False)
        subjects = self.prior.subjects(tool)
        # The record a tool makes or changes (create_sender makes a sender): its texts look like that record's.
        resource = tool.resource or (next(iter(subjects)) if len(subjects) == 1 else None)
        args: dict[str, Any] = {}
        prov: dict[str, Provenance] = {}
        used_upstream: set[int] = set()
        # Whom else a message could go to, per recipient parameter: (a list?, semantic type, found values).
        others: dict[str, tuple[bool, str, list[Produced]]] = {}
        strong = False
        gave = False
        # A read is only worth its step if what it found is used: the step after a read consumes it.
        last_read = len(self.steps) - 1 if self.steps and not self.tools[self.steps[-1].tool].writes else None
        for name, prop, port, is_list, required, recipient, unfillable in shape.params:
            if unfillable:
                return None
            if port is not None:
                # A thing is looked up by what it is (its SKU, its company), not by whoever looks after it.
                matches = (
                    [] if find and not self.about and port.semantic in _PERSON_VALUES else self._matches(tool, port)
                )
                if recipient:
                    # The mailbox or channel a message goes out from is ours: it is not whom we tell;
                    # and someone who just asked not to be contacted is not written to either.
                    silent = self._silenced()
                    matches = [p for p in matches if p.step not in self.lookups and str(p.value) not in silent]
                derived = None if is_list or find else self._derived(tool, port, bool(matches), required)
                if derived is not None:
                    args[name], prov[name] = derived
                    used_upstream.add(prov[name].sources[0])
                    strong = strong or port.semantic not in WEAK
                    continue
                if matches and (required or find or self.rng.random() < 0.5):
                    fresh = [p for p in matches if p.step == last_read]
                    pick = self.rng.choice(fresh or matches[-6:])
                    if recipient:
                        others[name] = (is_list, port.semantic, [p for p in matches if p.value != pick.value])
                    args[name] = [pick.value] if is_list else pick.value
                    prov[name] = Provenance("step", pick.step, pick.path, port.semantic)
                    used_upstream.add(pick.step)
                    strong = strong or port.semantic not in WEAK
                    continue
                if port.semantic.endswith(".id"):
                    if required:
                        return None  # ids are never given: an agent must discover them
                    continue
                if recipient:
                    return None  # a message goes to someone the work is about, never to a stranger
                if port.semantic in NAMEABLE and (required or (first and not gave)):
                    # A place a message goes out from is named by its own address (a channel's, a
                    # mailbox's), not by someone who might hold one.
                    given = None if lookup else self._given(tool, port)
                    value = given or gen.value(prop, schema, name=name, resource=resource)
                    args[name] = value
                    prov[name] = Provenance("given", semantic=port.semantic)
                    gave = True
                    continue
            if required:
                args[name] = self._about_subject(gen.value(prop, schema, name=name, resource=resource))
                prov[name] = Provenance("literal")
        if message:
            body = self._message(args, prov, ports, others)
            if body is None:
                return None
            for name in bodies[:1]:
                args[name], prov[name] = body
                used_upstream.update(prov[name].sources)
                strong = True
        if not self._same_person(args, prov, ports):
            return None
        if first and not gave:
            return None  # a walk starts from a fact the instruction states
        if not first and not strong:
            return None
        if last_read is not None and last_read not in used_upstream and not lookup:
            return None
        if self.config.fan_in and len(self.steps) >= 2 and len(used_upstream) < 2 and self._needs_fan_in():
            return None
        return args, prov

    def _message(
        self,
        args: dict[str, Any],
        prov: dict[str, Provenance],
        ports: dict[str, Port],
        others: dict[str, tuple[bool, str, list[Produced]]],
    ) -> tuple[str, Provenance] | None:
        """The body of a message, with its recipient changed if need be to one who has news to hear.

        The recipient drawn first may have nothing to learn (the walk found only their own name and
        number); up to three others found on the way are tried before the message is given up.
        ``args`` and ``prov`` keep the recipient the body is for.
        """
        name = next(iter(others), None)
        alternatives = others[name][2] if name is not None else []
        self.rng.shuffle(alternatives)
        for alt in [None, *alternatives[:3]]:
            if alt is not None and name is not None:
                is_list, semantic, _ = others[name]
                args[name] = [alt.value] if is_list else alt.value
                prov[name] = Provenance("step", alt.step, alt.path, semantic)
            if self._to_oneself(args, prov, ports):
                continue
            body = self._body(args, ports, prov)
            if body is not None:
                return body
        return None

    def _shape(self, tool: Tool) -> _Shape:
        """What :meth:`_fill` reads of a tool's parameters, worked out once per graph."""
        shapes: dict[str, _Shape] = self.graph.cache.setdefault("fill_shapes", {})
        shape = shapes.get(tool.name)
        if shape is None:
            inputs = self.graph.inputs[tool.name]
            message = tool.name in self._message_tools()
            ports = {p.path: p for p in inputs}
            nested_ids = {
                p.path.split(".", 1)[0].removesuffix("[]")
                for p in inputs
                if p.semantic.endswith(".id") and ("." in p.path or p.path.endswith("[]"))
            }
            bodies = tuple(body_parameters(tool)) if message else ()
            params = []
            for name, prop in tool.parameters_schema.get("properties", {}).items():
                required = name in tool.required
                if name in nested_ids and name not in ports:
                    if required:
                        params.append(_Param(name, prop, None, False, True, False, True))
                    continue
                if name in bodies:
                    continue  # composed once the recipient is known
                port = ports.get(name) or ports.get(f"{name}[]")
                is_list = name not in ports and f"{name}[]" in ports
                recipient = message and port is not None and port.semantic in ("email", "phone") and not sends(name)
                if recipient and not required:
                    continue  # a message goes to the person the work is about; nobody is copied in for show
                params.append(_Param(name, prop, port, is_list, required, recipient, False))
            shape = shapes[tool.name] = _Shape(ports, tuple(params), message, bodies)
        return shape

    def _matches(self, tool: Tool, port: Port) -> list[Produced]:
        """Found values a parameter may take: of its type, and, for a person's or company's, of a fitting role."""
        if port.semantic == "postal_address":
            matches = [p for p in self.produced if p.semantic == port.semantic]
        else:
            matches = [p for p in self.produced if p.semantic == port.semantic and not isinstance(p.value, dict | list)]
        if port.semantic in ROLE_BEARING and matches:
            # A value goes only where its owner belongs: a customer's e-mail to a recipient, not a supplier.
            accepted = self._accepts(tool.name, port.path)
            if accepted is not None:
                matches = [p for p in matches if (r := self._holds(p)) is None or role_fits(r, accepted)]
        return matches

    def _derived(self, tool: Tool, port: Port, direct: bool, required: bool) -> tuple[Any, Provenance] | None:
        """A found value through a transform (a date plus some days, an e-mail's domain …), or None.

        Dates and times are derived at the configured rate even when a found one would fit as it
        is (a due date is rarely the order date); other types only when nothing found fits as it is.
        """
        transforms = sources_for(port.semantic)
        if not transforms:
            return None
        if port.semantic in ("date", "datetime"):
            if self.rng.random() >= self.config.derive:
                return None
        elif direct or not (required or self.rng.random() < 0.5):
            return None
        accepted = self._accepts(tool.name, port.path) if port.semantic in ROLE_BEARING else None
        for transform in transforms:
            sources = [p for p in self.produced if p.semantic in transform.sources and isinstance(p.value, str)]
            if transform.name == "email_domain":
                sources = [
                    p for p in sources if (r := self._holds(p)) is not None and role_fits(r, accepted or frozenset({r}))
                ]
            # The freshest finding first: the work goes on from what was just found.
            for source in sorted(sources, key=lambda p: -p.step)[:3]:
                params = draw_params(transform, self.rng)
                value = apply_transform(transform.name, source.value, params)
                if value is None or (transform.name == "email_domain" and value not in self._domains()):
                    continue
                return value, Provenance(
                    "derived",
                    source.step,
                    source.path,
                    port.semantic,
                    transform=transform.name,
                    params=tuple(sorted(params.items())),
                )
        return None

    def _given(self, tool: Tool, port: Port) -> Any | None:
        """A stated value for a parameter: of a record like the tool's, of someone whose role fits.

        Values the tool's own records hold in a field of the parameter's name come first; a read
        takes only those that one record alone holds (a user listing filtered by login is given a
        login that finds that user). An e-mail, phone or name may then come from anything the
        service holds. Where the parameter takes a role, only values of people who play it count
        (an employee as an owner). None when nothing fits.
        """
        person = port.semantic in _PERSON_KEYS
        finds = not tool.writes
        if not person and not finds:
            return None
        cache: dict[tuple[str, str], list[Any]] = self.graph.cache.setdefault(
            f"givens:{self.world.seed}:{self.world.version}", {}
        )
        key = (tool.name, port.path)
        fit = cache.get(key)
        if fit is None:
            accepted = self._accepts(tool.name, port.path) if person else None
            people = self._people_by(port.semantic) if person else {}
            own = self.pool.by_field.get((tool.resource, port.path), []) if tool.resource else []
            if finds:
                own = [v for v in own if self._identifies(tool, port.path, v)]
            wide = (
                self.pool.by_service.get(tool.service, {}).get(port.semantic)
                or self.pool.overall.get(port.semantic, [])
                if person
                else []
            )
            fit = []
            for values in (own, wide):
                fit = [
                    v
                    for v in values
                    if isinstance(v, str)
                    and (
                        accepted is None
                        or ((who := people.get(v.casefold())) is not None and bool(_PLAYS[who.role] & accepted))
                    )
                ]
                if fit:
                    break
            cache[key] = fit
        return self.rng.choice(fit) if fit else None

    def _identifies(self, tool: Tool, field: str, value: Any) -> bool:
        """Whether exactly one record of the tool's resource holds ``value`` in ``field``, as the world has them.

        True where that cannot be told (no such field, or one of lists): the call will tell.
        """
        # The world's index of the field, looked up once per world (walks ask of the same few fields).
        indexes: dict[tuple[str | None, str], dict[Any, list[str]] | None] = self.graph.cache.setdefault(
            f"field_indexes:{self.world.seed}:{self.world.version}", {}
        )
        key = (tool.resource, field)
        if key not in indexes:
            spec = self.world.catalog.resources.get(tool.resource) if tool.resource else None
            table = self.world.tables.get(spec.table) if spec is not None else None
            try:
                found = table.index(field) if table is not None and field in table.spec.model.model_fields else None
            except CatalogError:
                found = None
            indexes[key] = found
        index = indexes[key]
        return index is None or len(index.get(value, ())) == 1

    def _people_by(self, semantic: str) -> dict[str, Person]:
        """The world's people by e-mail, phone or full name (casefolded), built once per world."""
        key = f"people:{semantic}:{self.world.seed}:{self.world.version}"
        people: dict[str, Person] | None = self.graph.cache.get(key)
        if people is None:
            people = {_PERSON_KEYS[semantic](p).casefold(): p for p in self.world.population.people}
            self.graph.cache[key] = people
        return people

    def _about_subject(self, value: Any) -> Any:
        """A stated text that names a company names the one the work is about ("Check-in with …").

        Texts drawn from the world name whichever company their record was about; the same text
        in this task is about the trigger's company, or, when the work is about no company, about
        none: it names no other.
        """
        if not isinstance(value, str) or not value:
            return value
        # A product the work never met ("Delivery delay on our Smart Webcam order") is no subject of it.
        products = self._product_pattern().findall(value)
        if products and not set(products) <= {str(p.value) for p in self.produced}:
            return self.rng.choice(_PLAIN_TEXTS)
        found = self._company_pattern().search(value)
        if found is None:
            return value
        subject = self._subject_company()
        if subject is None:
            return self.rng.choice(_PLAIN_TEXTS)
        return self._company_pattern().sub(lambda _: subject, value)

    def _subject_company(self) -> str | None:
        """The company the work is about: named by the first step, or the one of the person it found."""
        homes = self._home_names()
        for p in self.produced:
            if p.step != 0 or not isinstance(p.value, str):
                continue
            if p.semantic == "company.name" and p.value not in homes:
                return p.value
            if p.semantic == "email":
                person = self._people_by("email").get(p.value.casefold())
                name = self._company_names().get(person.company_key or "") if person is not None else None
                if name and name not in homes:
                    return name
        return None

    def _product_pattern(self) -> re.Pattern[str]:
        """Any name of a product of the world, built once per world."""
        key = f"product_pattern:{self.world.seed}:{self.world.version}"
        pattern: re.Pattern[str] | None = self.graph.cache.get(key)
        if pattern is None:
            names = sorted((p.name for p in self.world.population.products), key=len, reverse=True)
            pattern = self.graph.cache[key] = re.compile("|".join(re.escape(n) for n in names) or "(?!)")
        return pattern

    def _company_pattern(self) -> re.Pattern[str]:
        """Any name of a company other than the home one, built once per world."""
        key = f"company_pattern:{self.world.seed}:{self.world.version}"
        pattern: re.Pattern[str] | None = self.graph.cache.get(key)
        if pattern is None:
            names = sorted((c.name for c in self.world.population.companies if not c.home), key=len, reverse=True)
            pattern = self.graph.cache[key] = re.compile("|".join(re.escape(n) for n in names) or "(?!)")
        return pattern

    def _home_names(self) -> frozenset[str]:
        """The names of the home company (the organisation using the internal tools), once per world."""
        key = f"home_names:{self.world.seed}:{self.world.version}"
        names: frozenset[str] | None = self.graph.cache.get(key)
        if names is None:
            names = self.graph.cache[key] = frozenset(c.name for c in self.world.population.companies if c.home)
        return names

    def _company_names(self) -> dict[str, str]:
        """The world's company names by company key, built once per world."""
        key = f"company_names:{self.world.seed}:{self.world.version}"
        names: dict[str, str] | None = self.graph.cache.get(key)
        if names is None:
            names = self.graph.cache[key] = {c.key: c.name for c in self.world.population.companies}
        return names

    def _domains(self) -> set[str]:
        """The web domains of the world's companies, built once per world."""
        key = f"domains:{self.world.seed}:{self.world.version}"
        domains: set[str] | None = self.graph.cache.get(key)
        if domains is None:
            domains = {c.domain.casefold() for c in self.world.population.companies}
            self.graph.cache[key] = domains
        return domains

    def _to_oneself(self, args: dict[str, Any], prov: dict[str, Provenance], ports: dict[str, Port]) -> bool:
        """Whether a message goes to whom it is sent from.

        That is the sender's address, or the mailbox, channel or account it goes out from: the record
        whose own id it takes, whose addresses are ours.
        """
        senders = {str(x.value) for x in self._own(prov)}
        recipients: set[str] = set()
        for path, port in ports.items():
            name = path.removesuffix("[]")
            if port.semantic in ("email", "phone") and name in args:
                (senders if sends(name) else recipients).update(str(v) for v in _items(args[name]) if v is not None)
        return bool(senders & recipients)

    def _own(self, prov: dict[str, Provenance]) -> list[Produced]:
        """The values of the records a message takes by their own id: the mailbox, channel or document it goes on.

        An id the record refers to (a message's mailbox id) names another record, not this one.
        """
        own: list[Produced] = []
        for p in prov.values():
            if p.kind != "step" or p.step is None or p.field is None or not str(p.semantic).endswith(".id"):
                continue
            record, _, leaf = p.field.rpartition(".")
            if leaf != "id":
                continue
            prefix = f"{record}." if record else ""
            own.extend(
                x
                for x in self.produced
                if x.step == p.step and x.path.startswith(prefix) and "." not in x.path[len(prefix) :]
            )
        return own

    def _silenced(self) -> set[str]:
        """The addresses and numbers of the trigger's record when its event asks for no more contact."""
        if self.event is None or not silences(self.event):
            return set()
        return {str(p.value) for p in self.produced if p.step == 0 and p.semantic in ("email", "phone")}

    def _quiet(self) -> frozenset[str]:
        """The address and number of the person who asked not to be contacted: the trigger record's own.

        Not every address the record holds (a deal's owner is no one who opted out): of its e-mails, the
        one of the person it is about (:func:`~compoworld.tasks.roles.subject_email`), and likewise its phone.
        """
        silenced = self._silenced()
        if not silenced:
            return frozenset()  # most events ask nothing of the kind: no walk pays for the lookup
        own: set[str] = set()
        for semantic in ("email", "phone"):
            held = {
                p.path.rsplit(".", 1)[-1]: str(p.value) for p in self.produced if p.step == 0 and p.semantic == semantic
            }
            key = subject_email(sorted(held))
            if key is not None and held[key] in silenced:
                own.add(held[key])
        return frozenset(own)

    def _body(
        self, args: dict[str, Any], ports: dict[str, Port], prov: dict[str, Provenance]
    ) -> tuple[str, Provenance] | None:
        """A message body telling facts the walk found, addressed to the person it goes to; None if nothing to tell."""
        # News is what a service assigned or a read found: a value some step was called with (stated,
        # copied along, or the recipient's own address) tells nobody anything.
        written = {str(x) for a in [*(s.arguments for s in self.steps), args] for v in a.values() for x in _items(v)}
        # The mailbox or channel a message goes out from is no news to anyone either.
        # Nor is what the record it goes on says of itself (a document's own title, in a comment on it).
        theirs = {(x.step, x.path) for x in self._own(prov)}
        found = [p for p in self.produced if p.step not in self.lookups and (p.step, p.path) not in theirs]
        person = None
        people = self._people_by("email")
        for pname, port in ports.items():
            value = args.get(pname.removesuffix("[]"))
            value = value[0] if isinstance(value, list) and value else value
            if port.semantic == "email" and isinstance(value, str) and not sends(pname):
                person = people.get(value.casefold())
                break
        # Nobody at the home company needs telling its name.
        written |= self._home_names()
        if person is not None:
            # Nobody needs to be told their own name, number or company.
            written |= {person.name, person.first_name, person.last_name, person.phone, person.email}
            written |= {self._company_names().get(person.company_key or "", "")}
        facts = pick_facts(found, written, self.rng)
        if not facts:
            return None
        name = person.first_name if person is not None else None
        text = compose_body([(field_label(f.path), str(f.value)) for f in facts], name, self.rng)
        return text, Provenance("compose", semantic="text.body", parts=tuple((f.step, f.path) for f in facts))

    def _same_person(self, args: dict[str, Any], prov: dict[str, Provenance], ports: dict[str, Port]) -> bool:
        """Make the stated name and phone of a record the ones of the person its e-mail (or only phone) belongs to.

        A record about a person takes every attribute from that person: never one person's name
        beside another's e-mail. Values found upstream are left as they are (they are facts).

        Returns:
            False when the record pairs someone's name with a mailbox that is nobody's (a team's
            shared address): no value of the walk can make that one person.
        """
        emails = [n for n, port in ports.items() if port.semantic == "email" and isinstance(args.get(n), str)]
        phones = [n for n, port in ports.items() if port.semantic == "phone" and isinstance(args.get(n), str)]
        # Without an e-mail, a record's only phone says whose it is (a chat contact's name and number).
        subject = subject_email(emails) if emails else phones[0] if len(phones) == 1 else None
        if subject is None:
            return True
        people = self._people_by("email" if emails else "phone")
        person = people.get(str(args[subject]).casefold())
        if person is None:
            return not any(
                port.semantic in _NAMES and self._named_elsewhere(args.get(n), None) for n, port in ports.items()
            )
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
        return True

    def _named_elsewhere(self, value: Any, person: Person | None) -> bool:
        """Whether ``value`` is the name or phone of someone other than ``person`` (of anyone, for None)."""
        others = self.graph.cache.get(f"names:{self.world.seed}:{self.world.version}")
        if others is None:
            others = {}
            for p in self.world.population.people:
                for key in (p.first_name, p.last_name, p.name, p.phone):
                    others.setdefault(key, set()).add(p.key)
            self.graph.cache[f"names:{self.world.seed}:{self.world.version}"] = others
        owners: set[str] = others.get(value, set()) if isinstance(value, str) else set()
        return bool(owners) and (person is None or person.key not in owners)

    def _needs_fan_in(self) -> bool:
        return not any(
            len({p.step for p in s.provenance.values() if p.kind == "step" and p.step is not None}) >= 2
            for s in self.steps
        )

    def _candidates(self) -> list[str]:
        """The tools to try for the next step, best first (see :mod:`compoworld.tasks.candidates`)."""
        cfg = self.config
        first = not self.steps
        state = StepState(
            produced={p.semantic for p in self.produced},
            used=self.used,
            services=self.services,
            before=self._work_before(),
            need_services=len(self.services) < cfg.min_services,
            want_write=not first
            and (self.target - len(self.steps) <= 2 or not any(self._tool(s.tool).writes for s in self.steps)),
            max_services=cfg.max_services,
            open_world=cfg.open_world,
        )
        if first:
            drawn = self._index().first(state, self.rng, cfg.candidates)
            if cfg.focus is None:
                return drawn
            if not cfg.focus_start:
                return [n for n in drawn if self.tools[n].service != cfg.focus]
            own = [n for n in self._starts() if self.tools[n].service == cfg.focus and self._allowed(n)]
            own = self.rng.sample(own, min(3, len(own)))
            return own + [n for n in drawn if n not in own]
        ranked = self._index().rank(state, self.rng, cfg.candidates)
        reacting = self._reactions(state)
        # Only while the walk still lacks its focus service; nothing at all for a walk without one.
        focused = self._focus_fits(state) if cfg.focus is not None and cfg.focus not in self.services else []
        return focused + reacting + [n for n in ranked if n not in reacting and n not in focused]

    def _focus_fits(self, state: StepState) -> list[str]:
        """Up to three tools of the focus service that can follow now, in random order."""
        focus = self.config.focus
        if focus is None:
            return []
        needs = self._required_ids()
        fit = [
            n
            for n, (service, _, _) in self._traits().items()
            if service == focus and n not in state.used and needs[n] <= state.produced and self._allowed(n)
        ]
        return self.rng.sample(fit, min(3, len(fit)))

    def _reaction_tools(self) -> list[str]:
        """The writes that react to the trigger's kind of event, computed once per kind and graph."""
        pattern = self.reaction
        if pattern is None:
            return []
        cache: dict[str, list[str]] = self.graph.cache.setdefault("reaction_tools", {})
        names = cache.get(pattern.pattern)
        if names is None:
            writes: list[tuple[str, str]] | None = self.graph.cache.get("reacting_writes")
            if writes is None:
                # The writes any kind of event may draw, with their action names, once per graph.
                writes = self.graph.cache["reacting_writes"] = [
                    (n, action)
                    for n in self.graph.tools
                    if self.tools[n].writes
                    and not _CORRESPONDENCE.search(action := n.split("__", 1)[1])
                    and self._action(n) != "message"  # telling someone is how the walk ends, not how it reacts
                ]
            names = cache[pattern.pattern] = sorted(n for n, action in writes if names_reaction(pattern, action))
        return names

    def _react(self) -> bool:
        """Carry the event over to where the same entity lives in another service, as integrations do.

        A user deprovisioned in the identity service is suspended in the chat tool; a cancelled
        subscription's customer is flagged in the CRM. The reaction acts on a record found by a
        value of the trigger's record (the person's e-mail, the order number): found first by a
        read when the walk has not found it yet. Each service reacts once. Tries a few
        reactions; False when none fits.
        """
        names = self._reaction_tools()
        if not names or self.reaction is None:
            return False
        src = self.tools[self.steps[0].tool]
        # Where integrations carry such events first (the recipe prior), at random among equals;
        # the prior's weights after the first tool are kept per first tool and kind of event.
        # Someone's account is acted on, and a follow-up with them logged, when something happened to
        # someone (a user deprovisioned, a customer's subscription cancelled), not when something happened
        # to a thing an employee looks after (a wiki space archived): the second list leaves those out.
        cache: dict[tuple[str, str], tuple[list[_Reactor], list[_Reactor]]] = self.graph.cache.setdefault(
            "reaction_weights", {}
        )
        key = (src.name, self.reaction.pattern)
        weighted = cache.get(key)
        if weighted is None:
            needs = self._required_ids()
            ending = self.reaction is REACTIONS[2][1]
            # Only where the prior knows integrations carry such events: a reaction no team wires is no reaction.
            reach = self.prior.reaches(self.prior.category(src))
            every = [
                (n, t, self.prior.weight(src, t), needs[n])
                for n in names
                if (t := self.tools[n]).service != src.service
                and self.prior.category(t) in reach
                and self.prior.recipe_for(src, t) is not None
            ]
            impersonal = [
                r
                for r in every
                if not (self._personal(r[1].resource, r[0]) or (ending and self._action(r[0]) == "create"))
            ]
            weighted = cache[key] = (every, impersonal)
        have = {p.semantic for p in self.produced}
        reacted = {self.tools[s.tool].service for s in self.steps[1:] if not self.prior.is_lookup(self.tools[s.tool])}
        rand = self.rng.random
        # A second reaction follows the first as integrations chain them, too.
        last = self._work_before() if reacted else None
        focus = self.config.focus
        keys = {
            n: w * rand() * (_FOCUS_BOOST if tool.service == focus else 1.0)
            for n, tool, w, ids in weighted[0 if self.about else 1]
            if n not in self.used
            and tool.service not in reacted
            and len(ids - have) <= 1
            and self._allowed(n)
            and (last is None or self.prior.inside(last, tool))
        }
        needs = self._required_ids()
        tried = 0
        finders_of: dict[str, list[str]] = {}
        for name in sorted(keys, key=lambda n: -keys[n]):
            if tried == 6:
                break
            missing = needs[name] - have
            if missing:
                (semantic,) = missing
                # The read must use what the trigger's record holds (step() asks every step to be about it),
                # in a parameter that takes whose it is: a customer's e-mail finds no employee's account.
                # The first three do: step() tries no more. Every try starts from the same walk (one that
                # fails is taken back), so the finders of a kind of record are worked out once a call.
                finders = finders_of.get(semantic)
                if finders is None:
                    finders = finders_of[semantic] = list(
                        islice((n for n in self._lookups(semantic) if n not in self.used and self._can_find(n)), 3)
                    )
                if not finders:
                    continue
                tried += 1
                if not self.step(finders, find=True):
                    continue
                if semantic not in {p.semantic for p in self.produced if p.step == len(self.steps) - 1}:
                    self._drop_last()
                    continue
            else:
                tried += 1
            if self.step([name]):
                return True
            if missing:
                self._drop_last()
        return False

    def _kinds(self, start: str) -> tuple[int, ...]:
        """The kinds of event (indices into REACTIONS) that could be carried over from what ``start`` finds.

        Judged by types alone, once per start.

        Some reaction of some kind, in another service the prior knows, needs no record the start's
        result does not name, or one a read finds by a value of it; a thing (not someone) is looked up by
        what it is, not by a person's address. Starts with none would only draw rejected walks.
        """
        known: dict[str, tuple[int, ...]] = self.graph.cache.setdefault("reaction_kinds", {})
        if start in known:
            return known[start]
        src = self.tools[start]
        have = {p.semantic for p in self.graph.outputs[start]}
        about = self._personal(src.resource) or any(
            p.semantic == "email" and output_role(src, p.path) not in (None, "employee")
            for p in self.graph.outputs[start]
        )
        facts = {s for s in have if not s.endswith(".id") and s not in WEAK and (about or s not in _PERSON_VALUES)}
        found_by: dict[str, set[str]] = self.graph.cache.setdefault("found_by", {})
        kinds: list[int] = []
        category = self.prior.category(src)
        reached: dict[tuple[str, int], list[tuple[Tool, bool, frozenset[str]]]] = self.graph.cache.setdefault(
            "reactors_reached", {}
        )
        for kind, by_category in enumerate(self._reactors_by_category()):
            # Only reactions in a category some recipe goes to from the start's can be explained.
            reactors = reached.get((category, kind))
            if reactors is None:
                reach = sorted(self.prior.reaches(category))
                reactors = reached[(category, kind)] = [r for c in reach for r in by_category.get(c, ())]
            for tool, personal, needs in reactors:
                if tool.service == src.service or (not about and personal):
                    continue
                missing = needs - have
                if len(missing) > 1:
                    continue
                if missing:
                    (semantic,) = missing
                    if semantic not in found_by:
                        # What the reads that find such a record can be given, once per graph.
                        found_by[semantic] = {p.semantic for n in self._lookups(semantic) for p in self.graph.inputs[n]}
                    if not found_by[semantic] & facts:
                        continue
                if self.prior.recipe_for(src, tool) is not None:
                    kinds.append(kind)
                    break
        known[start] = tuple(kinds)
        return known[start]

    def _reactors(self) -> list[list[tuple[Tool, bool, frozenset[str]]]]:
        """Per kind of event (as REACTIONS orders them): the writes that react to it, once per graph.

        With each, whether it acts on someone's account (:meth:`_personal`) and the ids it needs: what
        :meth:`_kinds` asks of every reaction for every start.
        """
        table: list[list[tuple[Tool, bool, frozenset[str]]]] | None = self.graph.cache.get("reactors")
        if table is None:
            needs = self._required_ids()
            saved = self.reaction
            table = []
            try:
                for _, pattern in REACTIONS:
                    self.reaction = pattern
                    tools = [self.tools[n] for n in self._reaction_tools()]
                    table.append([(t, self._personal(t.resource, t.name), needs[t.name]) for t in tools])
            finally:
                self.reaction = saved
            self.graph.cache["reactors"] = table
        return table

    def _reactors_by_category(self) -> list[dict[str, list[tuple[Tool, bool, frozenset[str]]]]]:
        """:meth:`_reactors` per kind, grouped by the category of their service (in their order), once per graph."""
        table: list[dict[str, list[tuple[Tool, bool, frozenset[str]]]]] | None = self.graph.cache.get(
            "reactors_by_category"
        )
        if table is None:
            table = []
            for reactors in self._reactors():
                grouped: dict[str, list[tuple[Tool, bool, frozenset[str]]]] = {}
                for r in reactors:
                    grouped.setdefault(self.prior.category(r[0]), []).append(r)
                table.append(grouped)
            self.graph.cache["reactors_by_category"] = table
        return table

    def _about_someone(self) -> bool:
        """Whether the event happened to someone: their account, or a record of a customer, vendor or other outsider.

        A record an employee merely owns or is assigned (an issue, a shared link) is about a thing.
        """
        assert self.event is not None
        if self._personal(self.world.tables[self.event.table].spec.qualified):
            return True
        return any(
            p.step == 0 and p.semantic == "email" and (role := self._holds(p)) is not None and role != "employee"
            for p in self.produced
        )

    def _personal(self, resource: str | None, tool: str = "") -> bool:
        """Whether a resource's records are people's accounts or entries (they have their own e-mail or login).

        A tool that names no resource acts on someone when its name says so (``remove_team_member``).
        Kept per graph: reactions are sorted by it for every walk, over hundreds of tools.
        """
        known: dict[tuple[str | None, str], bool] = self.graph.cache.setdefault("personal", {})
        key = (resource, tool)
        personal = known.get(key)
        if personal is None:
            spec = self.world.catalog.resources.get(resource) if resource else None
            if spec is None:
                personal = bool(_PEOPLE_WORDS.search(tool.split("__", 1)[-1])) if tool else False
            else:
                personal = bool({"email", "login"} & spec.model.model_fields.keys())
            known[key] = personal
        return personal

    def _reacted(self) -> int:
        """How many steps carried the event over (writes other than messages)."""
        return sum(1 for s in self.steps if self.tools[s.tool].writes and self._action(s.tool) != "message")

    def _can_find(self, name: str) -> bool:
        """Whether a read can look a record up by a value the walk found (of its type, of a fitting role).

        Where the read's records have a field named like the parameter, the world must hold exactly
        one record with the value in it: a lookup that would list none, or several, finds nobody.
        """
        tool = self.tools[name]
        # The ports a record is looked up by (what it is, or whose, when the work is about someone), once per graph.
        keys: dict[tuple[str, bool], list[Port]] = self.graph.cache.setdefault("finder_ports", {})
        ports = keys.get((name, self.about))
        if ports is None:
            ports = keys[(name, self.about)] = [
                port
                for port in self.graph.inputs[name]
                if not port.semantic.endswith(".id")
                and port.semantic not in WEAK
                and (self.about or port.semantic not in _PERSON_VALUES)
            ]
        return any(
            any(
                isinstance(m.value, str | int) and self._identifies(tool, port.path, m.value)
                for m in self._matches(tool, port)
            )
            for port in ports
        )

    def _reactions(self, state: StepState) -> list[str]:
        """Writes that react to the trigger as teams do (suppress after an unsubscribe …) and can follow now.

        Up to three, in random order: tried before the ranked candidates, so a walk reacts to what
        happened when it can, and goes on as the prior has it when it cannot.
        """
        needs = self._required_ids()
        fit = [
            n for n in self._reaction_tools() if n not in state.used and needs[n] <= state.produced and self._allowed(n)
        ]
        focus = [n for n in fit if self.tools[n].service == self.config.focus] if self.config.focus else []
        if focus:
            return self.rng.sample(focus, min(3, len(focus)))
        return self.rng.sample(fit, min(3, len(fit)))

    def _traits(self) -> dict[str, tuple[str, bool, bool]]:
        """(service, writes, is a delete) per tool, computed once per graph."""
        return self._index().traits

    def step(self, names: list[str] | None = None, *, lookup: bool = False, find: bool = False) -> bool:
        """Add one step: the first of ``names`` (default: the ranked candidates) that runs and changes what it should.

        A ``lookup`` step finds a record from a stated fact, as a first step does, for the step after it;
        a ``find`` step finds one by what the walk found (see :meth:`_fill`).
        """
        first = not self.steps or lookup
        created = any(self._action(s.tool) == "create" for s in self.steps)
        for name in names if names is not None else self._candidates()[: self.config.candidates]:
            tool = self._tool(name)
            if created and self._action(name) == "create":
                continue  # one new record a task: a chain of creations is a recipe, not a reaction
            filled = self._fill(tool, first, lookup=lookup, find=find)
            if filled is None:
                continue
            args, prov = filled
            if self.steps and not lookup and not self._anchored(prov):
                continue
            index = len(self.steps)
            found: Sequence[Produced]
            if tool.writes:
                snap = self.episode.snapshot()
                res = self.episode.call(name, args)
                if not res.ok:
                    continue
                change = self.episode.diff(snap)
                # A write that changes nothing is no step of a task; one that undoes the task's work neither.
                if not change.tables or self._undoes(tool, change):
                    self.episode.restore(snap)
                    continue
                self._remember(change)
                found = produced_values(index, res.result, self.graph.outputs[name])
            else:
                res, found = self._read(tool, args, index)
                if not res.ok:
                    continue
            if not found and (first or not tool.writes):
                continue  # a read that identifies nothing can start no chain, feed no step, answer nothing
            if lookup:
                self.lookups.add(index)
            self.steps.append(Step(name, args, prov, res.result))
            self.services.add(tool.service)
            self.used.add(name)
            self.produced.extend(found)
            return True
        return False

    def _read(self, tool: Tool, args: dict[str, Any], index: int) -> tuple[CallResult, Sequence[Produced]]:
        """Run a read as step ``index``: its outcome, and the values it found.

        A walk's first step reads the world's own state, so its outcome depends on the call alone; walks
        often make the same one (the same start, given the same fact), so it is kept per world (the most
        recent :data:`_FIRST_READS`). An open-world read is always asked: its answer goes into the episode's
        recording.
        """
        if index or tool.annotations.open_world or not self.episode.pristine:
            res = self.episode.call(tool.name, args)
            return res, produced_values(index, res.result, self.graph.outputs[tool.name]) if res.ok else ()
        return self._kept_read("first_reads", call_key(tool.name, args), tool.name, args)

    def _kept_read(
        self, kind: str, key: tuple[str, ...], name: str, args: dict[str, Any]
    ) -> tuple[CallResult, tuple[Produced, ...]]:
        """A read made as step 0, kept per world by ``key``: the call, and what made the state it reads.

        ``key`` must fix the outcome (the world's own state needs only the call; after an event made on it,
        the event too). The most recent :data:`_FIRST_READS` of each ``kind`` are kept in the graph's cache.
        """
        memo: dict[tuple[str, ...], tuple[CallResult, tuple[Produced, ...]]] = self.graph.cache.setdefault(
            f"{kind}:{self.world.seed}:{self.world.version}", {}
        )
        known = memo.pop(key, None)
        if known is None:
            res = self.episode.call(name, args)
            known = (res, tuple(produced_values(0, res.result, self.graph.outputs[name])) if res.ok else ())
            if len(memo) >= _FIRST_READS:
                del memo[next(iter(memo))]  # the least recently used: each use moves a read to the end
        memo[key] = known
        return known

    def _anchored(self, prov: dict[str, Provenance]) -> bool:
        """Whether a step uses what the work is about: a value found from the first record on.

        The first step finds the record the trigger happened to; a step is about it when it
        uses a value of that step or of a step that is about it. Lookups (the mailbox a message
        goes out from) serve the step after them and are about nothing.
        """
        about = self._about_steps()
        return any(k in about for p in prov.values() for k in p.sources)

    def _about_steps(self) -> set[int]:
        """The steps that are about what the work is about (see :meth:`_anchored`)."""
        about = {0}
        for i, step in enumerate(self.steps[1:], start=1):
            if i not in self.lookups and any(k in about for p in step.provenance.values() for k in p.sources):
                about.add(i)
        return about

    def _service_tools(self, service: str) -> list[str]:
        """The tools of ``service``, in order, once per graph."""
        by_service: dict[str, list[str]] | None = self.graph.cache.get("tools_by_service")
        if by_service is None:
            by_service = {}
            for n in self.graph.tools:
                by_service.setdefault(self.graph.service_of[n], []).append(n)
            self.graph.cache["tools_by_service"] = by_service
        return by_service.get(service, [])

    def _lookup_only(self, service: str) -> bool:
        """Whether every tool of ``service`` is a lookup (weather, exchange rates, maps …), once per graph."""
        known: dict[str, bool] = self.graph.cache.setdefault("lookup_only", {})
        only = known.get(service)
        if only is None:
            tools = self._service_tools(service)
            only = known[service] = bool(tools) and all(self.prior.is_lookup(self.tools[n]) for n in tools)
        return only

    def _context(self, name: str) -> list[Port]:
        """Every typed value of a tool's result, generic ones included (a record's city, currency, text), once per graph."""
        ports: dict[str, list[Port]] = self.graph.cache.setdefault("context_ports", {})
        found = ports.get(name)
        if found is None:
            found = ports[name] = output_ports(self.tools[name], generic=True)
        return found

    def _aside_ports(self, name: str) -> dict[str, Port]:
        """A lookup's parameters by name, generic ones included (only top-level ones: a lookup takes plain values)."""
        ports: dict[str, dict[str, Port]] = self.graph.cache.setdefault("aside_ports", {})
        found = ports.get(name)
        if found is None:
            found = ports[name] = {p.path.removesuffix("[]"): p for p in input_ports(self.tools[name], generic=True)}
        return found

    def _aside(self) -> bool:
        """Consult the focus lookup service about what the work is on, as the walk's last step.

        A lookup takes plain values (a city, a currency, a text) that no edge of the graph carries:
        here they come from the record the work is about (the city the contact lives in, the
        invoice's currency and amount), all from one record, and a search box takes the company's
        name. Other required values are stated. The lookup must find something to report: the
        final answer tells it.
        """
        focus = self.config.focus
        assert focus is not None
        about = sorted(self._about_steps(), reverse=True)
        values = []
        for i in about:
            for p in produced_values(i, self.steps[i].result, self._context(self.steps[i].tool)):
                values.append(p)
                if p.semantic == "postal_address" and isinstance(p.value, dict):
                    # An address says which city and country it is in: what a weather or map lookup asks.
                    values.extend(
                        Produced(p.step, f"{p.path}.{part}", part, p.value[part])
                        for part in ("city", "country")
                        if isinstance(p.value.get(part), str)
                    )
        given = told([s.arguments for s in self.steps])
        last_read = len(self.steps) - 1 if not self.tools[self.steps[-1].tool].writes else None
        names = [n for n in self._service_tools(focus) if n not in self.used]
        self.rng.shuffle(names)
        for name in names[:_ASIDE_TRIES]:
            filled = self._fill_aside(self.tools[name], values)
            if filled is None:
                continue
            args, prov = filled
            if last_read is not None and not any(last_read in p.sources for p in prov.values()):
                continue  # a read is only worth its step if what it found is used
            res = self.episode.call(name, args)
            index = len(self.steps)
            asked = given | told([args])
            # Something it was not told: a text "translated" into its own language tells nothing.
            if not res.ok or finding(index, res.result, self.graph.outputs[name], asked, lookup=True) is None:
                continue
            self.steps.append(Step(name, args, prov, res.result))
            self.services.add(focus)
            self.used.add(name)
            self.produced.extend(produced_values(index, res.result, self.graph.outputs[name]))
            return True
        return False

    def _fill_aside(self, tool: Tool, values: list[Produced]) -> tuple[dict[str, Any], dict[str, Provenance]] | None:
        """Arguments for a lookup asked about one record the walk found (see :meth:`_aside`).

        Returns:
            None when it would take nothing telling of the record (only a date or an amount), or two
            equal values of one kind (an amount converted from a currency into the same one).
        """
        schema = tool.parameters_schema
        ports = self._aside_ports(tool.name)
        gen = ArgumentGenerator(self.world, self.pool, tool.service, self.rng, fresh=False)
        args: dict[str, Any] = {}
        prov: dict[str, Provenance] = {}
        record: tuple[int, str] | None = None  # the step and the record in its result the values come from
        taken: dict[str, list[Any]] = {}  # values of each kind the lookup was given
        properties = schema.get("properties", {})
        # What tells which record it is about (its city, its currency) picks the record; a date or amount follows.
        order = sorted(properties, key=lambda n: (p := ports.get(n)) is not None and p.semantic in WEAK)
        for name in order:
            prop = properties[name]
            required = name in tool.required
            port = ports.get(name)
            if port is None and required and name in _SEARCH_BOXES:
                port = Port(name, "company.name")
            if port is not None:
                fits = [p for p in values if p.semantic == port.semantic and p.value not in taken.get(p.semantic, ())]
                if record is not None:
                    fits = [p for p in fits if (p.step, p.path.rpartition(".")[0]) == record]
                elif fits:
                    if port.semantic in WEAK:
                        return None
                    first = fits[0].step  # the latest step about the work that holds such a value
                    fits = [p for p in fits if p.step == first]
                if fits:
                    pick = self.rng.choice(fits)
                    record = (pick.step, pick.path.rpartition(".")[0])
                    args[name] = [pick.value] if port.path.endswith("[]") else pick.value
                    prov[name] = Provenance("step", pick.step, pick.path, port.semantic)
                    taken.setdefault(port.semantic, []).append(pick.value)
                    continue
                if port.semantic.endswith(".id"):
                    if required:
                        return None
                    continue
            if name in _PAGE_SIZES and prop.get("type") == "integer" and prop.get("minimum", 1) <= 1:
                args[name] = 1
                prov[name] = Provenance("literal")
                continue
            if required and port is not None and port.semantic in _OWN:
                return None  # the text translated, the amount converted are the record's own, never made up
            if required:
                value = gen.value(prop, schema, name=name, resource=tool.resource)
                if port is not None and value in taken.get(port.semantic, ()):
                    return None
                args[name] = value
                prov[name] = Provenance("literal")
                if port is not None:
                    taken.setdefault(port.semantic, []).append(value)
        if record is None:
            return None
        return args, prov

    def _undoes(self, tool: Tool, change: StateDiff) -> bool:
        """Whether the write just made undoes the task's own work.

        It does when it reverts the trigger event, sets a field back to what it was before an
        earlier step changed it (mute, then unmute), or ends (deletes, archives, cancels, marks
        done …) a record the walk itself created: no team asks for work only to take it back.
        """
        for table, td in change.tables.items():
            for record in td.updated:
                if any(self.original.get((table, record.id, k), _UNSET) == record.after.get(k) for k in record.changed):
                    return True
        event = self.event
        if event is not None and event.table in change.tables:
            for record in change.tables[event.table].updated:
                if record.id == event.record and any(record.after.get(k) != v for k, v in event.changes.items()):
                    return True
        # A record the world does not hold is one the walk made.
        for table, td in change.tables.items():
            held = self.world.tables[table].records
            if ends(tool) and any(
                i not in held for i in [c.id for c in td.updated] + [str(r["id"]) for r in td.removed]
            ):
                return True
            # An update that archives, disables or closes a new record ends it as surely as a tool named so.
            if any(
                c.id not in held and any(c.after.get(k) is True and _ENDING_FLAG.search(k) for k in c.changed)
                for c in td.updated
            ):
                return True
        return False

    def _remember(self, change: StateDiff) -> None:
        """Keep what each field a step changed held before the walk first changed it."""
        for table, td in change.tables.items():
            for record in td.updated:
                for k in record.changed:
                    self.original.setdefault((table, record.id, k), record.before.get(k))

    def _trigger(self) -> bool:
        """Make an event on the record the first step found, before the walk goes on; False if none can be made.

        The event goes into the setup; the first step is run again after it, so what it found is
        what the agent will find.
        """
        first = self.steps[0]
        service = self.tools[first.tool].service
        own = [
            p
            for p in self.produced
            if p.semantic.endswith(".id") and p.semantic.startswith(f"{service}.") and p.path.split(".")[-1] == "id"
        ]
        if not own or not isinstance(own[0].value, str):
            return False
        record = own[0]
        snap = self.episode.snapshot()
        on_world = self.episode.pristine
        # A kind of event the start's record could see carried over, when the walk must carry it.
        kinds = self._kinds(first.tool) if self.must_react else tuple(range(len(REACTIONS)))
        kinds = kinds or tuple(range(len(REACTIONS)))
        focus = self.config.focus
        if focus is not None and focus not in self.services:
            # An event the focus service has a reaction to, where there is one.
            kinds = tuple(k for k in kinds if k in self._focus_kinds(focus)) or kinds
        want = REACTIONS[self.rng.choices(kinds, weights=[EVENT_MIX[k] for k in kinds])[0]][0]
        # A walk that must carry its event over takes only an event of a kind its start can carry over:
        # another kind would be drawn only to be rejected.
        carried = frozenset(REACTIONS[k][1] for k in self._kinds(first.tool)) if self.must_react else None
        fired = fire_trigger(
            self.world,
            self.graph,
            self.episode,
            (record.semantic, record.value, service),
            self.pool,
            self.rng,
            want,
            carried,
        )
        if fired is None:
            return False
        again, found = self._reread(first, fired, on_world)
        if not any(p.path == record.path and p.value == record.value for p in found):
            self.episode.restore(snap)
            return False  # the event moved the record out of what the first step finds
        first.result = again.result
        self.produced = list(found)
        noun = self.world.tables[fired.table].spec.noun
        stated = [(n, first.arguments[n]) for n, p in first.provenance.items() if p.kind == "given"]
        subject = f"the {noun}" + "".join(f" with {label(n)} {render_value(v)}" for n, v in stated[:1])
        self.event = fired
        self.reaction = reactions(fired)
        self.about = self._about_someone()
        self.setup = [
            Step(fired.tool, fired.arguments, {n: Provenance("literal") for n in fired.arguments}, fired.result)
        ]
        self.trigger = trigger_message(self.world, fired, subject, self.rng)
        return True

    def _reread(self, first: Step, fired: Fired, on_world: bool) -> tuple[CallResult, Sequence[Produced]]:
        """The first step made again after the event (``on_world``: made on the world's own state), and what it found.

        After an event on the world's own state, the state is the event's alone: like a first read (see
        :meth:`_read`), the outcome is kept per world, by event and read.
        """
        tool = self.tools[first.tool]
        if not on_world or tool.annotations.open_world:
            res = self.episode.call(first.tool, first.arguments)
            return res, produced_values(0, res.result, self.graph.outputs[first.tool]) if res.ok else ()
        key = call_key(fired.tool, fired.arguments) + call_key(first.tool, first.arguments)
        return self._kept_read("reads_after_event", key, first.tool, first.arguments)

    def _trigger_starts(self) -> list[str]:
        """Starting reads whose record can take an event (a status a tool of its service sets), drawn at random.

        Asked only for a walk's first step, when no service is in use yet: which starts are allowed
        then depends on the configuration alone, so the list is kept per configuration.
        """
        key = f"trigger_starts:{self.config.open_world}:{self.config.max_services}:{self.config.react}"
        cached: tuple[list[str], list[str]] | None = self.graph.cache.get(key)
        if cached is None:
            starts = []
            for name in self._starts():
                service = self.tools[name].service
                own = {
                    p.semantic
                    for p in self.graph.outputs[name]
                    if p.semantic.startswith(f"{service}.") and p.path.split(".")[-1] == "id"
                }
                if self._allowed(name) and any(event_tools(self.world, self.graph, sem) for sem in own):
                    starts.append(name)
            # Walks start where events can be carried over, and must carry theirs over; where none of
            # those finds a record, they start elsewhere and go on as the prior has it (a catalog of a
            # few services may carry no event over).
            reacting = [n for n in starts if self._kinds(n)] if self.config.react else []
            cached = self.graph.cache[key] = (reacting, [n for n in starts if n not in reacting])
        reacting, others = cached
        focus = self.config.focus
        if focus is not None:
            # Start in the focus service where it can start a walk; else (or when told) it has to come later.
            mine = (
                [n for n in reacting if self.tools[n].service == focus],
                [n for n in others if self.tools[n].service == focus],
            )
            if not self.config.focus_start:
                # Start where integrations lead to the focus service from (the prior's recipes), if anywhere.
                feeds = self._feeds(focus, reacting + others)
                reacting = [n for n in reacting if n in feeds] or [
                    n for n in reacting if self.tools[n].service != focus
                ]
                others = [n for n in others if n in feeds] or [n for n in others if self.tools[n].service != focus]
            elif mine[0] or mine[1]:
                reacting, others = mine
        k = self.config.candidates
        first = self.rng.sample(reacting, min(k, len(reacting)))
        return first + self.rng.sample(others, min(k - len(first), len(others)))

    def _focus_kinds(self, focus: str) -> frozenset[int]:
        """The kinds of event (indices into REACTIONS) some write of ``focus`` reacts to."""
        cache: dict[str, frozenset[int]] = self.graph.cache.setdefault("focus_kinds", {})
        found = cache.get(focus)
        if found is None:
            names = [
                n.split("__", 1)[1] for n, (service, writes, _) in self._traits().items() if service == focus and writes
            ]
            found = cache[focus] = frozenset(
                k for k, (_, pattern) in enumerate(REACTIONS) if any(names_reaction(pattern, n) for n in names)
            )
        return found

    def _feeds(self, focus: str, starts: list[str]) -> frozenset[str]:
        """The starts of other services that a recipe of the prior leads from to some write of ``focus``."""
        cache: dict[str, frozenset[str]] = self.graph.cache.setdefault("focus_feeds", {})
        found = cache.get(focus)
        if found is None:
            writes = [
                self.tools[n] for n, (service, writes, _) in self._traits().items() if service == focus and writes
            ]
            found = cache[focus] = frozenset(
                n
                for n in starts
                if self.tools[n].service != focus and any(self.prior.recipe_for(self.tools[n], w) for w in writes)
            )
        return found

    def _notify(self) -> None:
        """End the walk by telling someone what it found, if a message tool can reach them.

        A message tool may need one record the walk did not find: the mailbox, channel or agent
        it sends from (:data:`_PLACES`). It is then looked up first, by a fact the instruction states (the
        mailbox's address), as a team names its own mailbox.
        """
        have = {p.semantic for p in self.produced}
        needs = self._required_ids()
        after = self._work_before()
        room = self.config.max_length - len(self.steps)
        widen = len(self.services) < self.config.max_services
        names = [
            n
            for n, service, ids, others in self._tellers()
            if n not in self.used
            and others <= have
            and len(ids - have) <= min(1, room - 1)
            and (widen or service in self.services)
        ]
        # What real integrations send after this kind of work, and only that: a message no team wires after
        # it would be no integration. A walk that must use one service and has written nothing yet (a lookup
        # of the focus service found something) may still tell its finding where no recipe says where.
        if after is not None:
            known = [n for n in names if self.prior.inside(after, self.tools[n])]
            unwritten = self.config.focus is not None and not any(self._tool(s.tool).writes for s in self.steps)
            names = known or (names if unwritten else [])
        focus = self.config.focus if self.config.focus not in self.services else None
        weights = {
            n: (self.prior.weight(after, self.tools[n]) if after else 1.0)
            * self.rng.random()
            * (_FOCUS_BOOST if self.tools[n].service == focus else 1.0)
            for n in names
        }
        for name in sorted(names, key=lambda n: -weights[n])[:8]:
            missing = needs[name] - have
            if missing:
                (semantic,) = missing
                # The place is named as itself (the mailbox by its address) or by who is in it (the
                # channel a teammate posts in), not through something kept there.
                resource = semantic.removesuffix(".id")
                own = [n for n in self._lookups(semantic) if self.tools[n].resource in (resource, f"{resource}_member")]
                if not self.step(own[:3], lookup=True):
                    continue
                if semantic not in {p.semantic for p in self.produced if p.step == len(self.steps) - 1}:
                    self._drop_last()
                    continue
            if self.step([name]):
                return
            if missing:
                self._drop_last()

    def _tellers(self) -> list[tuple[str, str, frozenset[str], frozenset[str]]]:
        """The message tools a walk may close with, once per graph.

        Each with its service, the ids it needs, and those of them that are no place it sends from
        (:data:`_PLACES`): the walk must have found those itself. A broadcast (a social post) tells the
        public, not the person the work concerns, and is left out.
        """
        found: list[tuple[str, str, frozenset[str], frozenset[str]]] | None = self.graph.cache.get("tellers")
        if found is None:
            needs = self._required_ids()
            services = self.world.catalog.services
            found = self.graph.cache["tellers"] = [
                (n, t.service, needs[n], frozenset(m for m in needs[n] if m.split(".")[1] not in _PLACES))
                for n in self._message_tools()
                if services[(t := self.tools[n]).service].category not in _BROADCAST
            ]
        return found

    def _lookups(self, semantic: str) -> list[str]:
        """Reads of a record's service that find it from a stated fact and need no id (once per graph)."""
        cache: dict[str, list[str]] = self.graph.cache.setdefault("lookups", {})
        if semantic not in cache:
            service, resource = semantic.split(".")[:2]
            by_service: dict[str, list[str]] | None = self.graph.cache.get("starts_by_service")
            if by_service is None:
                by_service = {}
                for n in self._starts():
                    by_service.setdefault(self.tools[n].service, []).append(n)
                self.graph.cache["starts_by_service"] = by_service
            found = [
                n for n in by_service.get(service, ()) if any(p.semantic == semantic for p in self.graph.outputs[n])
            ]
            # The read named after the record (list_mailboxes for a mailbox) before those that merely mention it.
            cache[semantic] = sorted(found, key=lambda n: (resource not in n.split("__", 1)[1], n))
        return cache[semantic]

    def _start_with_event(self, names: list[str]) -> str | None:
        """Take the first start whose record an event can change, with its event; else why none was taken.

        A start whose record no event changes is taken back and the next one tried, up to
        :data:`_EVENT_STARTS` of them: one message found in a mailbox may be no place for an event
        while the next start's ticket is.
        """
        tried = 0
        for name in names:
            if not self.step([name]):
                continue
            self.must_react = self.config.react and bool(self._kinds(name))
            # A try that makes no event draws as much as the world's caches let it (a record found dead
            # before is given up without a draw): the draws after it must not depend on that.
            drawn = self.rng.getstate()
            if self._trigger():
                return None
            self.rng.setstate(drawn)
            self._drop_last()
            tried += 1
            if tried >= _EVENT_STARTS:
                break
        return "no_trigger" if tried else "no_start"

    def _drop_last(self) -> None:
        """Take back the last step, a read (so the episode's state is as it was)."""
        step = self.steps.pop()
        index = len(self.steps)
        self.lookups.discard(index)
        self.produced = [p for p in self.produced if p.step != index]
        self.used.discard(step.tool)
        self.services = {self.tools[s.tool].service for s in self.steps}

    def _action(self, name: str) -> str:
        """What a tool does (:func:`~compoworld.tasks.actions.action_of`), worked out once per graph."""
        actions: dict[str, str] = self.graph.cache.setdefault("actions", {})
        action = actions.get(name)
        if action is None:
            action = actions[name] = action_of(self.tools[name])
        return action

    def _message_tools(self) -> list[str]:
        """The tools that send a message with a text body, computed once per graph."""
        found: list[str] | None = self.graph.cache.get("message_tools")
        if found is None:
            found = sorted(n for n in self.graph.tools if action_of(self.tools[n]) == "message")
            self.graph.cache["message_tools"] = found
        return found

    def run(self) -> WalkResult:
        cfg = self.config
        self.target = self.rng.randint(cfg.min_length, cfg.max_length)
        tell = self.rng.random() < cfg.message
        # A walk that must use a lookup service (weather, exchange rates) consults it last, about the
        # work's record, and the final answer reports what it found: no closing message then.
        aside = cfg.focus is not None and self._lookup_only(cfg.focus)
        if aside:
            tell = False
            self.target = min(self.target, cfg.max_length - 1)
        closing = 1 if tell else 0
        reacted = False
        if tell:
            # Room for the message, and for looking up the mailbox or channel it goes out from.
            self.target = max(cfg.min_length - closing, min(self.target, cfg.max_length - 2))
        while len(self.steps) < self.target:
            if cfg.trigger and not self.steps:
                missed = self._start_with_event(self._trigger_starts())
                if missed is not None:
                    return WalkResult(None, missed)
            elif not self.step():
                if len(self.steps) >= cfg.min_length - closing:
                    break  # nothing can follow, and the walk is long enough: it ends here
                return WalkResult(None, "dead_end" if self.steps else "no_start")
            if cfg.trigger and len(self.steps) == 1:
                # An event of a kind no service can carry over from here is given up at once.
                feasible = self.reaction is not None and any(
                    REACTIONS[k][1] is self.reaction for k in self._kinds(self.steps[0].tool)
                )
                reacted = (feasible or not self.must_react) and self._react()
                if reacted:
                    # Another service may carry it too (a leaver suspended in chat and their links revoked).
                    room = cfg.max_length - len(self.steps) - 2 * closing
                    if len(self.steps) + closing < cfg.min_length or (room >= 2 and self.rng.random() < cfg.second):
                        self._react()
                    # The event is carried over: what is left is to tell someone, not more work.
                    self.target = max(len(self.steps), cfg.min_length - closing)
                elif self.must_react:
                    return WalkResult(None, "no_reaction")
        told = any(s.tool in self._message_tools() for s in self.steps)
        if tell and not told:
            self._notify()
            told = any(s.tool in self._message_tools() for s in self.steps)
        # A walk that reacted is done once it has told someone; one that goes on as the prior has it
        # may still take a step where no message could be sent.
        while len(self.steps) < cfg.min_length and not reacted and self.step():
            pass
        asked = aside and cfg.focus not in self.services and len(self.steps) < cfg.max_length and self._aside()
        if len(self.steps) < cfg.min_length:
            return WalkResult(None, "too_short")
        if (
            reacted
            and not told
            and not asked
            and self._reacted() < 2
            and not (len(self.steps) + 2 <= cfg.max_length and self._react())
        ):
            # One state move on a record of a small table, and nothing to tell: a guess could do it.
            return WalkResult(None, "too_short")
        walk = Walk(self.steps, self.episode, self.setup, self.trigger, quiet=self._quiet())
        if not any(self._tool(s.tool).writes for s in self.steps):
            return WalkResult(None, "no_write")
        if len(walk.services) < cfg.min_services:
            return WalkResult(None, "too_few_services")
        if cfg.focus is not None and cfg.focus not in walk.services:
            return WalkResult(None, "no_focus")
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
        The walk, or the reason none was drawn (``no_start``, ``no_trigger``, ``no_reaction``,
        ``dead_end``, ``too_short``, ``no_write``, ``too_few_services``, ``no_fan_in``).
    """
    return _Walker(world, graph, pool or ValuePool.from_world(world), rng, config or WalkConfig()).run()
