"""The conformance suite: the same checks over every registered service and tool.

For each tool: its schemas are valid JSON Schema; a valid call built from the
schema and the world succeeds and its result matches the result schema;
invalid calls (missing required argument, wrong type, unknown argument,
unknown id) give structured errors and leave the state hash unchanged; read
tools never write; the same calls on two fresh episodes give the same hash;
snapshot/restore and reset round-trip exactly.

Used by ``compoworld check`` and by the test suite, which parametrises it over
the registry so a new service is covered the moment it is registered.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from compoworld.context import Ctx
from compoworld.episode import Episode
from compoworld.tools import Tool, resolve_ref
from compoworld.types import SEMANTIC_KEY
from compoworld.world import World

__all__ = ["ArgumentGenerator", "CheckResult", "ValuePool", "check_tool", "check_world", "find_valid_arguments"]

MAX_ATTEMPTS = 48
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
UNKNOWN_ID = "zz_missing_000000"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check of one tool."""

    tool: str
    check: str
    ok: bool
    detail: str = ""


@dataclass(slots=True)
class ValuePool:
    """Values of each semantic type found in the world, per service and overall."""

    by_service: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    overall: dict[str, list[Any]] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_world(cls, world: World, per_table: int = 200) -> ValuePool:
        """Collect up to ``per_table`` records' values of every semantic field of every table."""
        pool = cls()
        for table in world.tables.values():
            spec = table.spec
            pool.ids[spec.qualified] = list(table.sorted_ids)
            svc = pool.by_service.setdefault(spec.service, {})
            schema = spec.model.model_json_schema(mode="serialization")
            fields = []
            for fname, prop in schema.get("properties", {}).items():
                sem = _non_null(prop, schema).get(SEMANTIC_KEY)
                if isinstance(sem, str) and not sem.endswith(".id"):
                    fields.append((fname, sem))
            for rid in table.sorted_ids[:per_table]:
                data = table.records[rid].model_dump(mode="json")
                for fname, sem_name in fields:
                    value = data.get(fname)
                    if value is None:
                        continue
                    for bucket in (svc, pool.overall):
                        values = bucket.setdefault(sem_name, [])
                        if value not in values:
                            values.append(value)
        return pool


def _non_null(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
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
        world: World,
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

    def value(self, schema: dict[str, Any], root: dict[str, Any], depth: int = 0) -> Any:
        """A plausible value for ``schema`` (``root`` holds its ``$defs``)."""
        s = _non_null(schema, root)
        sem = s.get(SEMANTIC_KEY)
        if "enum" in s:
            return self.rng.choice(s["enum"])
        if "const" in s:
            return s["const"]
        if isinstance(sem, str) and sem.endswith(".id"):
            ids = self.pool.ids.get(sem[: -len(".id")], [])
            return self.rng.choice(ids) if ids else UNKNOWN_ID
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


def _transition_sources(world: World, tool: Tool) -> dict[str, list[str]]:
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
    world: World, tool: Tool, pool: ValuePool | None = None, attempts: int = MAX_ATTEMPTS
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


def _wrong_type_value(prop: dict[str, Any], root: dict[str, Any]) -> Any:
    s = _non_null(prop, root)
    kind = s.get("type")
    if "enum" in s:
        return "__not_an_allowed_value__"
    if kind == "string":
        return {"unexpected": ["object"]}
    if kind in ("integer", "number"):
        return "not a number"
    if kind == "boolean":
        return "maybe"
    if kind == "array":
        return 17
    if kind == "object":
        return 17
    return None


def _expect_error(world: World, tool: Tool, args: Any, check: str, etype: str, field_prefix: str | None) -> CheckResult:
    ep = Episode(world)
    before = ep.state_hash()
    try:
        res = ep.call(tool.name, args)
    except Exception as exc:  # the runtime must never raise
        return CheckResult(tool.name, check, False, f"runtime raised {type(exc).__name__}: {exc}")
    if res.ok:
        return CheckResult(tool.name, check, False, f"call with {args} succeeded; expected {etype}")
    assert res.error is not None
    problems = []
    if res.error.type != etype:
        problems.append(f"error type {res.error.type} ({res.error.message}), expected {etype}")
    if field_prefix is not None and not (res.error.field or "").startswith(field_prefix):
        problems.append(f"error field {res.error.field!r}, expected {field_prefix!r}")
    if not res.error.message or not res.error.hint:
        problems.append("error lacks a message or a hint")
    if ep.state_hash() != before or not ep.diff().is_empty:
        problems.append("failed call changed the state")
    return CheckResult(tool.name, check, not problems, "; ".join(problems))


def check_tool(world: World, tool: Tool, pool: ValuePool | None = None) -> list[CheckResult]:
    """Run every conformance check on one tool.

    Args:
        world: The world.
        tool: The tool.
        pool: Semantic values of the world (built if None).

    Returns:
        One result per check.
    """
    results: list[CheckResult] = []
    name = tool.name
    try:
        jsonschema.Draft202012Validator.check_schema(tool.parameters_schema)
        jsonschema.Draft202012Validator.check_schema(tool.result_schema)
        props = tool.parameters_schema.get("properties", {})
        undocumented = [k for k, v in props.items() if not v.get("description")]
        if tool.parameters_schema.get("type") != "object" or undocumented:
            raise ValueError(f"parameters must be an object with described properties; undocumented: {undocumented}")
        results.append(CheckResult(name, "schema", True))
    except Exception as exc:
        results.append(CheckResult(name, "schema", False, str(exc)))

    args, why = find_valid_arguments(world, tool, pool)
    if args is None:
        results.append(CheckResult(name, "valid_call", False, f"no valid call found: {why}"))
        return results

    ep1 = Episode(world)
    initial = ep1.state_hash()
    snap = ep1.snapshot()
    res1 = ep1.call(name, args)
    if not res1.ok:
        results.append(CheckResult(name, "valid_call", False, f"{res1.error}"))
        return results
    try:
        jsonschema.validate(res1.result, tool.result_schema, cls=jsonschema.Draft202012Validator)
        results.append(CheckResult(name, "valid_call", True, f"arguments {args}"))
    except jsonschema.ValidationError as exc:
        results.append(CheckResult(name, "valid_call", False, f"result does not match its schema: {exc.message}"))

    changed = not ep1.diff().is_empty
    if tool.annotations.read_only:
        results.append(CheckResult(name, "read_only", not changed, "a read tool wrote" if changed else ""))

    ep2 = Episode(world)
    res2 = ep2.call(name, args)
    same = res2.ok and res2.result == res1.result and ep2.state_hash() == ep1.state_hash()
    results.append(CheckResult(name, "deterministic", same, "" if same else "two fresh episodes disagree"))

    after = ep1.state_hash()
    snap_after = ep1.snapshot()
    ep1.restore(snap)
    ok_restore = ep1.state_hash() == initial and ep1.diff().is_empty
    ep1.restore(snap_after)
    ok_restore = ok_restore and ep1.state_hash() == after
    ep1.reset()
    ok_reset = ep1.state_hash() == initial and ep1.diff().is_empty
    results.append(
        CheckResult(
            name,
            "snapshot_restore_reset",
            ok_restore and ok_reset,
            "" if ok_restore and ok_reset else f"restore ok={ok_restore} reset ok={ok_reset}",
        )
    )

    root = tool.parameters_schema
    props = root.get("properties", {})
    if tool.required:
        missing = sorted(tool.required)[0]
        bad = {k: v for k, v in args.items() if k != missing}
        results.append(_expect_error(world, tool, bad, "missing_required", "invalid_arguments", missing))
    for pname, prop in props.items():
        wrong = _wrong_type_value(prop, root)
        if wrong is not None:
            results.append(_expect_error(world, tool, {**args, pname: wrong}, "wrong_type", "invalid_arguments", pname))
            break
    results.append(
        _expect_error(
            world, tool, {**args, "zz_unknown_field": 1}, "unknown_field", "invalid_arguments", "zz_unknown_field"
        )
    )
    for pname, _resource, _table in tool.id_params:
        results.append(_expect_error(world, tool, {**args, pname: UNKNOWN_ID}, "unknown_id", "not_found", pname))
        break
    results.append(_expect_error(world, tool, "{not json", "malformed_json", "invalid_arguments", None))
    return results


def check_world(world: World, services: list[str] | None = None) -> Iterator[CheckResult]:
    """Run the conformance suite over every tool of the given services (default: all)."""
    pool = ValuePool.from_world(world)
    for tool in world.catalog.tools.values():
        if services is None or tool.service in services:
            yield from check_tool(world, tool, pool)
