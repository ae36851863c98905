"""The published parameter schema is the contract: the runtime refuses what it does not allow, before any write.

Every tool of the catalog is tried with arguments that are valid but for one value: text that is not
valid Unicode (a lone surrogate, in a value, a list item or an object's key, at any depth) or a value its
JSON Schema does not allow (checked with a JSON Schema validator, formats included). Each is refused as
``invalid_arguments`` naming the value's path, and the episode's state stays as it was.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker
from pydantic import BaseModel, ConfigDict, Field

from compoworld import Catalog, Ctx, Episode, Service, World
from compoworld.engine.openworld import OpenWorldCall, WorldModel
from compoworld.engine.registration import registered
from compoworld.engine.types import Date, DateTime
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from tests.invalid_text_support import Path, field_of, holding_invalid_text, invalid_text

_SERVICES = sorted(registered())
_SETTINGS = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
_POOL: dict[int, ValuePool] = {}
_BASE: dict[tuple[int, str], dict[str, Any]] = {}


def _base_arguments(world: World, name: str) -> dict[str, Any]:
    """Arguments that pass validation (the call may still fail on the state): the tool's example, or generated ones."""
    key = (id(world), name)
    if key in _BASE:
        return _BASE[key]
    tool = world.catalog.tools[name]
    candidates: list[dict[str, Any]] = []
    if tool.example is not None:
        example = tool.example(Ctx(Episode(world), tool, writable=False))
        if example is not None:
            candidates.append(json.loads(json.dumps(example, default=lambda v: v.isoformat())))
    pool = _POOL.get(id(world))
    if pool is None:  # built once per worker: collecting a whole world's values takes a while
        pool = _POOL[id(world)] = ValuePool.from_world(world)
    for attempt in range(12):
        gen = ArgumentGenerator(world, pool, tool.service, random.Random(f"{name}:{attempt}"))
        candidates.append(gen.arguments(tool, include_optional=0.5 if attempt else 0.0))
    for args in candidates:
        res = Episode(world).call(name, args)
        if res.ok or (res.error is not None and res.error.type != "invalid_arguments"):
            _BASE[key] = args
            return args
    raise AssertionError(f"no arguments of {name} pass validation; last error: {res.error}")


def _assert_refused(episode: Episode, name: str, arguments: Any, field: str | None) -> None:
    """The call is refused as invalid arguments (naming ``field``, or a part of it), and the state stays as it was."""
    before = episode.state_hash()
    res = episode.call(name, arguments)
    assert not res.ok and res.error is not None, f"{name} took {arguments!r}"
    assert res.error.type == "invalid_arguments", (name, arguments, res.error)
    if field is not None:
        assert res.error.field == field or (res.error.field or "").startswith(field + "."), (name, res.error)
    # Nothing was written, and what the runtime answered can be sent as JSON text (UTF-8).
    assert episode.state_hash() == before and episode.diff().is_empty
    json.dumps(res.to_dict(), ensure_ascii=False).encode("utf-8")


# -- invalid text ---------------------------------------------------------------------------------


def _containers(value: Any, path: Path) -> list[tuple[Path, Any]]:
    """Every object and list in ``value``, with its path."""
    found: list[tuple[Path, Any]] = []
    if isinstance(value, dict):
        found.append((path, value))
        for k, v in value.items():
            found.extend(_containers(v, [*path, k]))
    elif isinstance(value, list):
        found.append((path, value))
        for i, v in enumerate(value):
            found.extend(_containers(v, [*path, i]))
    return found


def _put(arguments: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    """A deep copy of ``arguments`` with ``value`` at ``path`` (a list index one past the end appends)."""
    out: Any = json.loads(json.dumps(arguments))
    node = out
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    if isinstance(node, list) and last == len(node):
        node.append(value)
    else:
        node[last] = value
    return dict(out)


@pytest.mark.parametrize("service", _SERVICES)
@_SETTINGS
@given(data=st.data())
def test_invalid_text_anywhere_in_the_arguments_is_refused_before_any_write(
    world: World, service: str, data: st.DataObject
) -> None:
    episode = Episode(world)
    for tool in world.catalog.tools_of(service):
        base = _base_arguments(world, tool.name)
        # Where it goes: a parameter (named by the tool or not), or into an object or list the valid arguments hold.
        spots: list[Path] = [[p] for p in sorted(tool.parameters_schema.get("properties", {}))]
        spots.append([data.draw(invalid_text, label=f"{tool.name} argument name")])
        for path, node in _containers(base, [])[1:]:
            if isinstance(node, dict):
                spots.extend([*path, k] for k in node)
            else:
                spots.append([*path, len(node)])
        spot = data.draw(st.sampled_from(spots), label=f"{tool.name} spot")
        value, inner = data.draw(holding_invalid_text(), label=f"{tool.name} value")
        if isinstance(spot[-1], str) and field_of([spot[-1]]) != spot[-1]:
            inner = []  # the name itself is the invalid text: it is found before its value
        _assert_refused(episode, tool.name, _put(base, spot, value), field_of([*spot, *inner]))


# -- values outside the schema ----------------------------------------------------------------------

_LAX_FORMS: list[Any] = [
    "5",
    "-1",
    "2.5",
    "true",
    "false",
    "yes",
    "on",
    "1",
    "0",
    "",
    "2026-03-02",
    "2026-03-02T09:00:00",
    "2026-03-02T09:00:00Z",
    "2026-03-02 09:00",
    "1700006400",
    "20260302",
    0,
    1,
    -1,
    5,
    1_704_067_200,
    2.5,
    True,
    False,
    None,
    [],
    {},
    ["5"],
    {"a": 1},
]
"""Values lax validation turns into another type (``"5"`` into 5, ``0`` into false or 1970-01-01 …)."""


def _near_forms(value: Any) -> list[Any]:
    """Values that mean ``value`` in another JSON type: what a lax runtime would take for it."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), str(int(value))]
    if isinstance(value, int):
        return [str(value), value + 0.5, value == 1, [value]]
    if isinstance(value, float):
        return [str(value), [value]]
    if isinstance(value, str):
        forms: list[Any] = [[value], {"value": value}]
        if re.fullmatch("-?[0-9]+", value):
            forms.append(int(value))
        try:
            day = dt.date.fromisoformat(value[:10])
        except ValueError:
            return forms
        midnight = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
        return [
            *forms,
            int(midnight.timestamp()),
            str(int(midnight.timestamp())),
            value[:10],
            value[:19],
            f"{value[:10]}T00:00:00",
        ]
    if isinstance(value, list):
        return [value[0], json.dumps(value)] if value else [None, "[]"]
    if isinstance(value, dict):
        return [[[k, v] for k, v in value.items()], json.dumps(value)]
    return [0, "null"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6,
)


def _leaves(value: Any, path: Path) -> list[tuple[Path, Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, [*path, k])] or [(path, value)]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, [*path, i])] or [(path, value)]
    return [(path, value)]


_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(world: World, name: str) -> Draft202012Validator:
    if name not in _VALIDATORS:
        _VALIDATORS[name] = Draft202012Validator(
            world.catalog.tools[name].parameters_schema, format_checker=FormatChecker()
        )
    return _VALIDATORS[name]


@pytest.mark.parametrize("service", _SERVICES)
@_SETTINGS
@given(data=st.data())
def test_values_the_published_schema_does_not_allow_are_refused_before_any_write(
    world: World, service: str, data: st.DataObject
) -> None:
    episode = Episode(world)
    for tool in world.catalog.tools_of(service):
        base = _base_arguments(world, tool.name)
        validator = _validator(world, tool.name)
        assert validator.is_valid(base), f"{tool.name} took arguments its schema refuses: {base}"
        params = sorted(tool.parameters_schema.get("properties", {}))
        spots = [(path, value) for path, value in _leaves(base, []) if path]
        spots.extend(([p], None) for p in params if p not in base)
        path, current = data.draw(st.sampled_from(spots or [(["unexpected"], None)]), label=f"{tool.name} spot")
        values = st.sampled_from([*_near_forms(current), *_LAX_FORMS]) | json_values
        for _ in range(4):  # most values drawn are outside the schema; a few tries find one
            arguments = _put(base, path, data.draw(values, label=f"{tool.name} value"))
            if not validator.is_valid(arguments):
                _assert_refused(episode, tool.name, arguments, field_of(path))
                break


# -- the coercions, one by one ----------------------------------------------------------------------

FORMS = Service("forms", title="Forms", category="test", modeled_on="nothing", description="Every kind of parameter.")


class Slot(BaseModel):
    """A nested object."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    day: Date = Field(description="A day.")
    seats: int = Field(description="Seats.")


@FORMS.tool(intent="echo the arguments")
def echo(
    ctx: Ctx,
    count: int = 1,
    share: float = 0.5,
    flag: bool = False,
    day: Date | None = None,
    at: DateTime | None = None,
    status: Literal["open", "closed"] = "open",
    level: Literal[1, 2, 3] = 1,
    tags: tuple[str, ...] = (),
    slots: list[Slot] | None = None,
    note: str = "",
    extra: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Return the arguments as the tool received them.

    Args:
        count: An integer.
        share: A number.
        flag: A boolean.
        day: A date.
        at: A date-time.
        status: A string enum.
        level: An integer enum.
        tags: An array, received as a tuple.
        slots: An array of objects.
        note: Free text.
        extra: An object of integers.
    """
    return {
        "count": count,
        "share": share,
        "flag": flag,
        "day": day,
        "at": at,
        "status": status,
        "level": level,
        "tags": tags,
        "slots": slots,
        "note": note,
        "extra": extra,
    }


@pytest.fixture(scope="module")
def forms() -> World:
    return World.build(Catalog([FORMS]), seed=0)


@pytest.mark.parametrize(
    ("name", "value", "received"),
    [
        # Kept: JSON Schema counts 2.0 as an integer and 2 as a number, and enum [1, 2, 3] holds 1.0.
        ("count", 2, 2),
        ("count", 2.0, 2),
        ("share", 2, 2.0),
        ("level", 2.0, 2),
        ("day", "2026-03-02", "2026-03-02"),
        ("at", "2026-03-02T09:00:00+01:00", "2026-03-02T08:00:00Z"),
        ("at", "2026-03-02t09:00:00.5z", "2026-03-02T09:00:00.500000Z"),
        ("tags", ["a", "b"], ["a", "b"]),
        ("slots", [{"day": "2026-03-02", "seats": 2.0}], [{"day": "2026-03-02", "seats": 2}]),
        ("note", "emoji \U0001f600 and accents é", "emoji \U0001f600 and accents é"),
        ("extra", {"a": 1}, {"a": 1}),
    ],
)
def test_the_json_forms_the_schema_allows_are_taken(forms: World, name: str, value: Any, received: Any) -> None:
    res = Episode(forms).call("forms__echo", {name: value})
    assert res.ok, res.error
    assert res.result[name] == received


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("count", "5"),
        ("count", "5.0"),
        ("count", True),
        ("count", 5.5),
        ("share", "2.5"),
        ("share", True),
        ("flag", 0),
        ("flag", 1),
        ("flag", 1.0),
        ("flag", "true"),
        ("flag", "yes"),
        ("flag", "on"),
        ("flag", "1"),
        ("flag", "f"),
        ("day", 0),
        ("day", 1_704_067_200),
        ("day", "1700006400"),
        ("day", "2026-03-02T00:00:00"),
        ("day", "20260302"),
        ("day", "2026-02-30"),
        ("day", True),
        ("at", 0),
        ("at", 1_700_000_000),
        ("at", 1.5),
        ("at", "1700000000"),
        ("at", "2026-03-02"),
        ("at", "2026-03-02T09:00:00"),
        ("at", "2026-03-02 09:00:00Z"),
        ("at", "2026-03-02T09:00Z"),
        ("status", "OPEN"),
        ("status", 1),
        ("level", True),
        ("level", "1"),
        ("tags", "a"),
        ("tags", {"0": "a"}),
        ("slots", [{"day": 0, "seats": 1}]),
        ("slots", [{"day": "2026-03-02", "seats": "1"}]),
        ("note", 5),
        ("extra", {"a": "1"}),
        ("extra", {"a": True}),
    ],
)
def test_every_lax_coercion_is_refused_with_its_field(forms: World, name: str, value: Any) -> None:
    arguments = {name: value}
    schema_allows = Draft202012Validator(
        forms.catalog.tools["forms__echo"].parameters_schema, format_checker=FormatChecker()
    ).is_valid(arguments)
    assert not schema_allows, "the example must be outside the schema"
    _assert_refused(Episode(forms), "forms__echo", arguments, name)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_numbers_json_cannot_hold_are_refused(forms: World, value: float) -> None:
    # Python's json module reads NaN and Infinity; no JSON Schema number is either.
    _assert_refused(Episode(forms), "forms__echo", {"share": value}, "share")
    _assert_refused(
        Episode(forms), "forms__echo", json.dumps({"slots": [{"day": "2026-03-02", "seats": value}]}), "slots.0.seats"
    )


def test_an_error_says_what_was_sent_and_how_a_date_is_written(forms: World) -> None:
    err = Episode(forms).call("forms__echo", {"day": 0}).error
    assert err is not None and err.field == "day"
    assert "YYYY-MM-DD" in err.message and "got an integer" in err.message
    err = Episode(forms).call("forms__echo", {"at": "2026-03-02T09:00:00"}).error
    assert err is not None and err.field == "at" and "offset" in err.message and "got a string" in err.message
    err = Episode(forms).call("forms__echo", {"flag": "true"}).error
    assert err is not None and err.field == "flag" and "got a string" in err.message


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"note": "a\ud800b"}, "note"),
        ('{"note": "a\\ud800b"}', "note"),
        (b'{"note": "\\udfff"}', "note"),
        ({"tags": ["ok", "\udc80"]}, "tags.1"),
        ({"slots": [{"day": "2026-03-02", "seats": 1}, {"\ud800": 1}]}, "slots.1.\\ud800"),
        ({"extra": {"ok": 1, "b\udbff": 2}}, "extra.b\\udbff"),
        ({"\ud800": 1}, "\\ud800"),
        ('{"\\ud83d": 1}', "\\ud83d"),
    ],
)
def test_invalid_text_is_refused_with_the_path_to_it(forms: World, arguments: Any, field: str) -> None:
    _assert_refused(Episode(forms), "forms__echo", arguments, None)
    err = Episode(forms).call("forms__echo", arguments).error
    assert err is not None and err.field == field and "surrogate" in err.message and err.hint


def test_a_surrogate_pair_is_one_character_and_is_taken(forms: World) -> None:
    res = Episode(forms).call("forms__echo", '{"note": "\\ud83d\\ude00"}')
    assert res.ok and res.result["note"] == "\U0001f600"


class _GarbledModel(WorldModel):
    """A world model whose answers hold a lone surrogate, as an LLM's JSON (``"\\ud800"``) can."""

    name = "garbled"

    def answer(self, call: OpenWorldCall) -> Any:
        return {"summary": "sunny \ud800"}


def test_an_open_world_answer_that_is_not_valid_text_is_an_error_not_a_result() -> None:
    world = World.build(Catalog.load(["weather"]), seed=0)
    tool = next(t for t in world.catalog.tools.values() if t.annotations.open_world)
    arguments = _base_arguments(world, tool.name)
    episode = Episode(world, world_model=_GarbledModel())
    res = episode.call(tool.name, arguments)
    assert not res.ok and res.error is not None and res.error.type == "internal_error", res
    assert "U+D800" in res.error.message
    json.dumps(res.to_dict(), ensure_ascii=False).encode("utf-8")  # the error itself is valid text
    assert episode.recording.answers == {}
