r"""The runtime: validated, atomic tool calls that never crash.

``call(episode, tool, arguments)`` checks the arguments against the tool's
schema, checks that every record they name exists, runs the tool with all of
its writes or none, and returns a :class:`CallResult`: the JSON-ready result,
or a structured :class:`~compoworld.engine.errors.ToolError` an agent can act on.

The published parameter schema is the contract, and the runtime holds callers
to it (docs/design.md §4): arguments are validated in pydantic's strict mode, so
``"5"`` is no integer, ``0`` no boolean and ``0`` no date. Two things happen
before that, in one walk over the arguments: text that is not valid Unicode (a
lone surrogate, which a JSON escape such as ``"\ud800"`` can carry) and numbers JSON
cannot hold (NaN, infinities) are refused, naming the value's path; and a number
with a zero fraction is read as the integer it is (JSON Schema counts ``2.0`` as
an integer, strict pydantic would not).
"""

from __future__ import annotations

import difflib
import json
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from compoworld.engine.context import Ctx
from compoworld.engine.errors import CatalogError, ToolError, ToolFailure
from compoworld.engine.openworld import OpenWorldCall, RecordedAnswer

if TYPE_CHECKING:
    from compoworld.engine.overlay import EpisodeState
    from compoworld.engine.tools import Tool

__all__ = ["CallResult", "call", "parse_arguments"]

MAX_ARGUMENT_CHARS = 1_000_000

_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate: never a character of its own, so never valid in text (UTF-8 cannot encode it)."""


@dataclass(slots=True)
class CallResult:
    """The outcome of one call: ``result`` when ``ok``, else ``error``."""

    ok: bool
    result: Any = None
    error: ToolError | None = None

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        if self.ok:
            return {"ok": True, "result": self.result}
        assert self.error is not None
        return {"ok": False, "error": self.error.to_dict()}


def parse_arguments(arguments: Any) -> dict[str, Any] | ToolError:
    """A call's arguments as a dict: given as one, as a JSON object in text, or None for none.

    Args:
        arguments: What the caller sent.

    Returns:
        The arguments, or the structured error that says what is wrong with them.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, (str, bytes)):
        if len(arguments) > MAX_ARGUMENT_CHARS:
            return ToolError("invalid_arguments", "arguments are too large", None, "send less data")
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError) as exc:
            return ToolError(
                "invalid_arguments",
                f"arguments are not valid JSON: {exc}",
                None,
                "send the arguments as one JSON object",
            )
    if not isinstance(arguments, dict):
        return ToolError(
            "invalid_arguments",
            f"arguments must be a JSON object, not {type(arguments).__name__}",
            None,
            "send the arguments as one JSON object, e.g. {}",
        )
    return arguments


def _fail(type_: Any, message: str, field: str | None = None, hint: str = "") -> CallResult:
    return CallResult(False, None, ToolError(type_, message, field, hint))


def _unknown_tool(episode: EpisodeState, name: Any) -> CallResult:
    tools = episode.world.catalog.tools
    text = name if isinstance(name, str) else repr(name)
    close = difflib.get_close_matches(text, list(tools), n=3, cutoff=0.6) if isinstance(name, str) else []
    hint = f"did you mean {', '.join(close)}?" if close else "call one of the tools you were given, by exact name"
    return _fail("unknown_tool", f"no tool named {text[:100]!r}", None, hint)


def _describe_expected(tool: Tool, field: str) -> str:
    prop = tool.parameters_schema.get("properties", {}).get(field.split(".")[0], {})
    desc = prop.get("description", "")
    return f"{field}: {desc}" if desc else ""


_FORMS = {
    "date_type": " as YYYY-MM-DD",
    "datetime_type": " as an RFC 3339 date-time with its offset, e.g. 2026-03-02T09:00:00Z",
}
"""How the schema writes the values whose type errors name only the type."""


def _json_kind(value: Any) -> str:
    """What a value is in JSON's words, for an error that says what was sent instead of what was expected."""
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string")):
        if isinstance(value, kind):
            return name
    containers: dict[type, str] = {dict: "an object", list: "an array"}
    return containers.get(type(value), f"a {type(value).__name__}")


def _data_path(loc: tuple[int | str, ...], arguments: Any, kind: str) -> list[int | str]:
    """The part of a pydantic error location that leads through the arguments sent.

    Pydantic names the member of a union it tried (``constrained-str``,
    ``list[str]``, a model's name) among the keys and indices; those are no
    place in the arguments and would send the agent looking for a field that
    does not exist, so they are left out. A last key the arguments lack stays
    when the error is that it is missing.
    """
    path: list[int | str] = []
    node = arguments
    for i, part in enumerate(loc):
        inside = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if inside:
            node = node[part]
        elif i == len(loc) - 1 and kind == "missing" and isinstance(node, dict):
            pass
        else:
            continue
        path.append(part)
    return path


def _invalid(tool: Tool, exc: ValidationError, arguments: Any) -> CallResult:
    errors = exc.errors(include_url=False)
    if not errors:
        errors = [{"loc": (), "msg": str(exc), "type": "", "input": None}]
    # Of a union's failures the one that reaches deepest into what was sent says best what is wrong there.
    paths = [_data_path(tuple(e.get("loc", ())), arguments, str(e.get("type", ""))) for e in errors]
    best = max(range(len(errors)), key=lambda i: (len(paths[i]), -i))
    first = errors[best]
    loc = ".".join(str(p) for p in paths[best]) or None
    kind = str(first.get("type", ""))
    msg = first.get("msg", "invalid value")
    allowed = sorted(tool.parameters_schema.get("properties", {}))
    if kind == "missing":
        message = f"missing required argument {loc!r}"
        hint = f"required arguments: {', '.join(sorted(tool.required))}"
    elif kind == "extra_forbidden":
        message = f"unknown argument {loc!r}"
        hint = f"allowed arguments: {', '.join(allowed)}"
    else:
        if kind.endswith("_type") or kind == "literal_error":
            msg = f"{msg}{_FORMS.get(kind, '')} (got {_json_kind(first.get('input'))})"
        message = f"invalid value for {loc!r}: {msg}" if loc else f"invalid arguments: {msg}"
        hint = _describe_expected(tool, loc) if loc else ""
        if not hint:
            hint = f"see the parameter schema of {tool.name}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s))"
    return _fail("invalid_arguments", message, loc, hint)


class _Unfit(Exception):
    """A value no valid JSON text holds; ``path`` leads to it, innermost part first."""

    def __init__(self, problem: str, hint: str, part: str | int, *, key: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.hint = hint
        self.path: list[str | int] = [part]
        self.key = key

    def error(self) -> CallResult:
        """The refusal, naming the value (or the name) at fault by its path."""
        field = _field_path(self.path)
        name = "argument name" if len(self.path) == 1 else "key"
        what = f"the {name} '{field}'" if self.key else f"invalid value for '{field}':"
        return _fail("invalid_arguments", f"{what} {self.problem}", field, self.hint)


def _lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` as ``U+D800``, or None (ASCII text, the usual case, costs one flag test)."""
    if text.isascii():
        return None
    found = _SURROGATE.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


_TEXT_HINT = "send text as valid Unicode: a \\ud800-\\udfff escape is only valid as half of a surrogate pair"


def _bad_text(part: str | int, code: str, *, key: bool) -> _Unfit:
    problem = f"holds a lone surrogate ({code}), which is not valid Unicode"
    return _Unfit(problem if key else f"the text {problem}", _TEXT_HINT, part, key=key)


def _json_number(value: float, part: str | int) -> float | int:
    if value.is_integer():
        return int(value)
    if math.isfinite(value):
        return value
    raise _Unfit(f"{value} is not a JSON number", "send a finite number", part)


def _json_value(value: Any, part: str | int) -> Any:
    """``value`` checked (see the module docstring): itself, or what it reads as where that differs."""
    kind = type(value)
    if kind is str:
        code = _lone_surrogate(value)
        if code is not None:
            raise _bad_text(part, code, key=False)
        return value
    if kind is float:
        return _json_number(value, part)
    if kind is dict or kind is list:
        try:
            return _json_object(value) if kind is dict else _json_array(value)
        except _Unfit as exc:
            exc.path.append(part)
            raise
    return value


def _json_object(obj: dict[Any, Any]) -> dict[Any, Any]:
    """``obj`` with every key and value checked; a copy only where a value changed."""
    out = obj
    for key, value in obj.items():
        if type(key) is str:
            code = _lone_surrogate(key)
            if code is not None:
                raise _bad_text(key, code, key=True)
        new = _json_value(value, key)
        if new is not value:
            if out is obj:
                out = dict(obj)
            out[key] = new
    return out


def _json_array(items: list[Any]) -> list[Any]:
    """``items`` with every item checked; a copy only where an item changed."""
    out = items
    for i, value in enumerate(items):
        new = _json_value(value, i)
        if new is not value:
            if out is items:
                out = list(items)
            out[i] = new
    return out


def _valid_text(text: str) -> str:
    """``text`` with any lone surrogate written as its escape, so that it can be sent."""
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def _field_path(path: list[str | int]) -> str:
    # The path may hold the offending key itself: escaped, so that the error is valid text too.
    return _valid_text(".".join(str(p) for p in reversed(path)))


def _open_world(episode: EpisodeState, tool: Tool, args: Any) -> CallResult:
    """Ask the episode's world model; record what it answered."""
    canonical, key = OpenWorldCall.key_of(tool, args)
    world = episode.world
    kwargs = dict(args.__dict__)

    def synthetic() -> Any:
        ctx = Ctx(episode, tool, writable=False, rng_seed=f"open-world:{world.seed}:{key}", now=world.epoch)
        out = tool.fn(ctx, **kwargs)
        return tool.result_adapter.serializer.to_python(out, mode="json", warnings="error")

    model = episode.world_model
    try:
        result = model.answer(OpenWorldCall(tool, kwargs, canonical, key, world, synthetic))
    except ToolFailure as failure:
        return CallResult(False, None, failure.to_error())
    except Exception as exc:  # a world-model bug must not crash the caller
        return _fail(
            "internal_error",
            _valid_text(f"{tool.name} failed: {type(exc).__name__}: {exc}"),
            None,
            "this is a fault of the tool, not of the call; try another way",
        )
    try:
        # A model's answer is outside text too (an LLM's JSON can hold "\ud800"): what no JSON text
        # holds must not reach the caller, whose reply could then not be sent at all.
        _json_object({"result": result})
    except _Unfit as exc:
        return _fail(
            "internal_error",
            f"{tool.name}: the world model's answer at {_field_path(exc.path)!r} is unfit: {exc.problem}",
            None,
            "this is a fault of the world model, not of the call; try another way",
        )
    episode.recording.answers[key] = RecordedAnswer(
        tool=tool.name, arguments=canonical, result=result, source=model.name
    )
    return CallResult(True, result, None)


def call(episode: EpisodeState, name: str, arguments: Any = None) -> CallResult:
    """Run one tool call against an episode.

    Args:
        episode: The episode.
        name: The tool's full name (``service__tool``).
        arguments: A dict, a JSON object as text, or None for no arguments.

    Returns:
        The result, or a structured error; a failed call leaves the episode unchanged.
    """
    tool = episode.world.catalog.tools.get(name) if isinstance(name, str) else None
    if tool is None:
        return _unknown_tool(episode, name)
    if not isinstance(arguments, dict):
        parsed = parse_arguments(arguments)
        if isinstance(parsed, ToolError):
            return CallResult(False, None, parsed)
        arguments = parsed
    try:
        model = tool.params_model
    except CatalogError as exc:  # a broken declaration: the tool cannot be called, the caller goes on
        return _fail("internal_error", str(exc), None, "this tool is broken; use another")
    try:
        arguments = _json_object(arguments)
    except _Unfit as exc:
        return exc.error()
    except RecursionError:
        return _fail("invalid_arguments", "arguments are nested too deeply", None, "send plain JSON values")
    try:
        args = model.model_validate(arguments, strict=True)
    except ValidationError as exc:
        return _invalid(tool, exc, arguments)
    except (RecursionError, TypeError, ValueError) as exc:
        return _fail("invalid_arguments", f"invalid arguments: {exc}", None, "send plain JSON values")
    kwargs = args.__dict__
    for pname, resource, table in tool.id_params:
        value = kwargs[pname]
        if value is not None and episode.get(table, value) is None:
            noun = episode.world.catalog.resources[resource].noun
            return _fail(
                "not_found",
                f"no {noun} with id {value!r}",
                pname,
                f"find the {noun}'s id with a list or search tool first",
            )
    if tool.annotations.open_world:
        return _open_world(episode, tool, args)
    writes = tool.writes
    ctx = Ctx(episode, tool, writable=writes)
    saved = episode.begin()
    try:
        out = tool.fn(ctx, **kwargs)
        result = tool.result_adapter.serializer.to_python(out, mode="json", warnings="error")
    except ToolFailure as failure:
        episode.rollback(saved)
        return CallResult(False, None, failure.to_error())
    except Exception as exc:  # a tool bug must not crash the caller nor leave half a write
        episode.rollback(saved)
        return _fail(
            "internal_error",
            _valid_text(f"{tool.name} failed: {type(exc).__name__}: {exc}"),
            None,
            "this is a fault of the tool, not of the call; try another way",
        )
    episode.commit(writes)
    return CallResult(True, result, None)
