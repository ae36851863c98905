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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema

from compoworld.engine.episode import Episode
from compoworld.engine.tools import Tool
from compoworld.tasks.arguments import UNKNOWN_ID, ValuePool, find_valid_arguments, non_null
from compoworld.world.world import World

__all__ = ["CheckResult", "check_tool", "check_world"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check of one tool."""

    tool: str
    check: str
    ok: bool
    detail: str = ""


def _wrong_type_value(prop: dict[str, Any], root: dict[str, Any]) -> Any:
    s = non_null(prop, root)
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
