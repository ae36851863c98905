"""Plausible tool arguments from a tool's schema and the world's own values.

:class:`ValuePool` collects the values of every semantic type the world holds;
:class:`ArgumentGenerator` fills a tool's parameters from it (ids of existing
records, e-mails of real people, dates near the world's epoch …), and
:func:`find_valid_arguments` finds a call that succeeds on a fresh episode. The
walks of synthesis, the random policy, the conformance suite and the benchmark
all draw their arguments here.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
from dataclasses import dataclass, field
from typing import Any

from compoworld.engine.context import Ctx
from compoworld.engine.episode import Episode
from compoworld.engine.state import WorldState
from compoworld.engine.tools import Tool, resolve_ref
from compoworld.engine.types import SEMANTIC_KEY

__all__ = ["MAX_ATTEMPTS", "UNKNOWN_ID", "ArgumentGenerator", "ValuePool", "find_valid_arguments", "non_null"]

MAX_ATTEMPTS = 48
"""Generated argument sets :func:`find_valid_arguments` tries before giving up."""
UNKNOWN_ID = "zz_missing_000000"
"""An id no record has."""
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@dataclass(slots=True)
class ValuePool:
    """Values of each semantic type found in the world, per service and overall."""

    by_service: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    overall: dict[str, list[Any]] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)
    by_field: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """Short texts by (qualified resource, field name), and by (service, field name) over its resources."""
    _fitting: dict[tuple[str, str, int, str | None], list[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def fitting(self, owner: str, name: str, max_len: int, pattern: str | None) -> list[str]:
        """The texts of :attr:`by_field` under ``(owner, name)`` no longer than ``max_len`` that match ``pattern``.

        Kept per request: walks fill the same parameters over and over, and a field holds up to a table's
        sample of texts. The pool is not to be changed once asked.
        """
        key = (owner, name, max_len, pattern)
        fits = self._fitting.get(key)
        if fits is None:
            same = self.by_field.get((owner, name), ())
            fits = [v for v in same if len(v) <= max_len and (pattern is None or re.search(pattern, v))]
            self._fitting[key] = fits
        return fits

    @classmethod
    def from_world(cls, world: WorldState, per_table: int = 200) -> ValuePool:
        """Collect up to ``per_table`` records' values of every semantic field of every table."""
        pool = cls()
        for table in world.tables.values():
            spec = table.spec
            pool.ids[spec.qualified] = list(table.sorted_ids)
            svc = pool.by_service.setdefault(spec.service, {})
            schema = spec.model.model_json_schema(mode="serialization")
            fields = []
            for fname, prop in schema.get("properties", {}).items():
                sem = non_null(prop, schema).get(SEMANTIC_KEY)
                if isinstance(sem, str) and not sem.endswith(".id"):
                    fields.append((fname, sem))
            for rid in table.sorted_ids[:per_table]:
                data = table.records[rid].model_dump(mode="json")
                # Short texts by resource and field: a new sender's name looks like the senders' names.
                for fname, value in data.items():
                    if isinstance(value, str) and 0 < len(value) <= 80 and not _ISO_DATE.match(value):
                        for key in ((spec.qualified, fname), (spec.service, fname)):
                            texts = pool.by_field.setdefault(key, [])
                            if value not in texts:
                                texts.append(value)
                for fname, sem_name in fields:
                    value = data.get(fname)
                    if value is None:
                        continue
                    for bucket in (svc, pool.overall):
                        values = bucket.setdefault(sem_name, [])
                        if value not in values:
                            values.append(value)
        return pool


def non_null(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """A property's schema without its ``null`` option (``$ref`` resolved; description and semantic type kept)."""
    schema = resolve_ref(schema, root)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"]
            if options:
                merged = dict(resolve_ref(options[0], root))
                for k in ("description", SEMANTIC_KEY):
                    if k in schema and k not in merged:
                        merged[k] = schema[k]
                return merged
    return schema


class ArgumentGenerator:
    """Builds plausible argument values from a JSON Schema and the world's values.

    Args:
        world: The world.
        pool: Semantic values of the world.
        service: The tool's service (its own values are preferred).
        rng: Source of randomness.
        id_choices: Ids to draw for given parameters instead of any record's.
        fresh: Sometimes turn world values of usually-unique kinds into unused ones.
    """

    def __init__(
        self,
        world: WorldState,
        pool: ValuePool,
        service: str,
        rng: random.Random,
        id_choices: dict[str, list[str]] | None = None,
        fresh: bool = True,
    ) -> None:
        self.world = world
        self.pool = pool
        self.service = service
        self.rng = rng
        self.id_choices = id_choices or {}
        self.fresh = fresh

    def value(
        self,
        schema: dict[str, Any],
        root: dict[str, Any],
        depth: int = 0,
        *,
        name: str | None = None,
        resource: str | None = None,
    ) -> Any:
        """A plausible value for ``schema`` (``root`` holds its ``$defs``).

        With the parameter's ``name``, a text takes a value that the ``resource`` its tool acts on
        (or, without one, any resource of the service) holds in a field of that name: a new
        sender's name is like its senders' names. Otherwise a value of its type.
        """
        s = non_null(schema, root)
        sem = s.get(SEMANTIC_KEY)
        if "enum" in s:
            return self.rng.choice(s["enum"])
        if "const" in s:
            return s["const"]
        if isinstance(sem, str) and sem.endswith(".id"):
            ids = self.pool.ids.get(sem[: -len(".id")], [])
            return self.rng.choice(ids) if ids else UNKNOWN_ID
        if name and s.get("type") == "string" and "format" not in s:
            # The resource's own field first; a tool that names no resource, any of its service's.
            fits = self.pool.fitting(resource or self.service, name, int(s.get("maxLength", 10_000)), s.get("pattern"))
            if fits:
                return self.rng.choice(fits)
        if isinstance(sem, str):
            for bucket in (self.pool.by_service.get(self.service, {}), self.pool.overall):
                values = bucket.get(sem)
                if values:
                    return self._maybe_fresh(sem, copy.deepcopy(self.rng.choice(values)))
        kind = s.get("type")
        if kind == "object" and depth < 4:
            props = s.get("properties", {})
            required = set(s.get("required", []))
            return {
                k: self.value(v, root, depth + 1) for k, v in props.items() if k in required or self.rng.random() < 0.5
            }
        if kind == "array":
            item = s.get("items", {})
            n = max(1, int(s.get("minItems", 1)))
            return [self.value(item, root, depth + 1) for _ in range(n)]
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "integer":
            lo = int(s.get("minimum", s.get("exclusiveMinimum", -1) + 1 if "exclusiveMinimum" in s else 0))
            hi = int(s.get("maximum", lo + 10))
            return self.rng.randint(lo, min(hi, lo + 10 if lo > 0 else 5))
        if kind == "number":
            low = float(s.get("minimum", 0))
            return round(low + self.rng.random() * 5, 2)
        if kind == "string":
            fmt = s.get("format")
            if fmt == "date":
                return (self.world.epoch.date() + dt.timedelta(days=self.rng.randint(1, 20))).isoformat()
            if fmt == "date-time":
                when = self.world.epoch + dt.timedelta(days=self.rng.randint(1, 20), hours=self.rng.randint(0, 6))
                return when.isoformat().replace("+00:00", "Z")
            max_len = int(s.get("maxLength", 40))
            text = self.rng.choice(
                ("Quarterly review", "Follow-up", "Project kickoff", "Onboarding", "Renewal", "Budget planning")
            )
            return text[:max_len] if max_len > 0 else ""
        return None

    def _maybe_fresh(self, sem: str, value: Any) -> Any:
        """Half the time, turn a world value of a usually-unique kind into an unused one."""
        if not self.fresh or not isinstance(value, str) or _ISO_DATE.match(value) or self.rng.random() < 0.5:
            return value  # dates and times stay valid: a suffix would only waste an attempt
        n = self.rng.randint(100, 999)
        if sem == "email" and "@" in value:
            return f"x{n}.{value}"
        if sem == "company.domain":
            return f"x{n}{value}"
        if value.isupper() or value.replace("-", "").isalnum():
            return f"{value}-{n}"  # codes (SKUs, numbers); a pattern that refuses it costs one attempt
        return f"{value} {n}"

    def arguments(self, tool: Tool, include_optional: float) -> dict[str, Any]:
        """Arguments for ``tool``: every required one, each optional one with this probability."""
        root = tool.parameters_schema
        out: dict[str, Any] = {}
        for name, prop in root.get("properties", {}).items():
            if self.id_choices.get(name):
                out[name] = self.rng.choice(self.id_choices[name])
            elif name in tool.required or self.rng.random() < include_optional:
                out[name] = self.value(prop, root)
        return out


def _transition_sources(world: WorldState, tool: Tool) -> dict[str, list[str]]:
    """For a transition tool, the ids of records in a state the transition starts from."""
    if tool.kind != "transition" or tool.resource is None:
        return {}
    spec = world.catalog.resources[tool.resource]
    verb = tool.short_name[: -(len(spec.name) + 1)]
    tr = spec.transitions.get(verb)
    if tr is None:
        return {}
    table = world.tables[spec.table]
    ids = [rid for rid in table.sorted_ids if getattr(table.records[rid], tr.field) in tr.source]
    return {f"{spec.name}_id": ids}


def find_valid_arguments(
    world: WorldState, tool: Tool, pool: ValuePool | None = None, attempts: int = MAX_ATTEMPTS
) -> tuple[dict[str, Any] | None, str]:
    """Find arguments that make ``tool`` succeed on a fresh episode.

    Uses the tool's own ``example`` first, then arguments generated from its
    schema and the world's values.

    Args:
        world: The world.
        tool: The tool.
        pool: Semantic values of the world (built if None).
        attempts: How many generated argument sets to try.

    Returns:
        ``(arguments, "")`` on success, or ``(None, last error)``.
    """
    last = "no attempt made"
    if tool.example is not None:
        episode = Episode(world)
        try:
            example = tool.example(Ctx(episode, tool, writable=False))
        except Exception as exc:  # a broken example provider is reported, not raised
            example = None
            last = f"example provider raised {type(exc).__name__}: {exc}"
        if example is not None:
            res = episode.call(tool.name, example)
            if res.ok:
                return example, ""
            assert res.error is not None
            last = f"example {example} failed: {res.error.type}: {res.error.message}"
    pool = pool or ValuePool.from_world(world)
    id_choices = _transition_sources(world, tool)
    for attempt in range(attempts):
        gen = ArgumentGenerator(world, pool, tool.service, random.Random(f"{tool.name}:{attempt}"), id_choices)
        args = gen.arguments(tool, include_optional=0.0 if attempt == 0 else 0.5)
        res = Episode(world).call(tool.name, args)
        if res.ok:
            return args, ""
        assert res.error is not None
        last = f"{args} -> {res.error.type}: {res.error.message}"
    return None, last
