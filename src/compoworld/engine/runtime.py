"""The runtime: validated, atomic tool calls that never crash.

``call(episode, tool, arguments)`` checks the arguments against the tool's
schema, checks that every record they name exists, runs the tool with all of
its writes or none, and returns a :class:`CallResult`: the JSON-ready result,
or a structured :class:`~compoworld.engine.errors.ToolError` an agent can act on.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from compoworld.engine.context import Ctx
from compoworld.engine.errors import CatalogError, ToolError, ToolFailure
from compoworld.engine.openworld import OpenWorldCall, RecordedAnswer

if TYPE_CHECKING:
    from compoworld.engine.overlay import EpisodeState
    from compoworld.engine.tools import Tool

__all__ = ["CallResult", "call"]

MAX_ARGUMENT_CHARS = 1_000_000


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


def _invalid(tool: Tool, exc: ValidationError) -> CallResult:
    errors = exc.errors(include_url=False)
    first = errors[0] if errors else {"loc": (), "msg": str(exc), "type": ""}
    loc = ".".join(str(p) for p in first.get("loc", ())) or None
    kind = first.get("type", "")
    msg = first.get("msg", "invalid value")
    allowed = sorted(tool.parameters_schema.get("properties", {}))
    if kind == "missing":
        message = f"missing required argument {loc!r}"
        hint = f"required arguments: {', '.join(sorted(tool.required))}"
    elif kind == "extra_forbidden":
        message = f"unknown argument {loc!r}"
        hint = f"allowed arguments: {', '.join(allowed)}"
    else:
        message = f"invalid value for {loc!r}: {msg}" if loc else f"invalid arguments: {msg}"
        hint = _describe_expected(tool, loc) if loc else ""
        if not hint:
            hint = f"see the parameter schema of {tool.name}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s))"
    return _fail("invalid_arguments", message, loc, hint)


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
            f"{tool.name} failed: {type(exc).__name__}: {exc}",
            None,
            "this is a fault of the tool, not of the call; try another way",
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
    if arguments is None:
        arguments = {}
    elif isinstance(arguments, (str, bytes)):
        if len(arguments) > MAX_ARGUMENT_CHARS:
            return _fail("invalid_arguments", "arguments are too large", None, "send less data")
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError) as exc:
            return _fail(
                "invalid_arguments",
                f"arguments are not valid JSON: {exc}",
                None,
                "send the arguments as one JSON object",
            )
    if not isinstance(arguments, dict):
        return _fail(
            "invalid_arguments",
            f"arguments must be a JSON object, not {type(arguments).__name__}",
            None,
            "send the arguments as one JSON object, e.g. {}",
        )
    try:
        model = tool.params_model
    except CatalogError as exc:  # a broken declaration: the tool cannot be called, the caller goes on
        return _fail("internal_error", str(exc), None, "this tool is broken; use another")
    try:
        args = model.model_validate(arguments)
    except ValidationError as exc:
        return _invalid(tool, exc)
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
            f"{tool.name} failed: {type(exc).__name__}: {exc}",
            None,
            "this is a fault of the tool, not of the call; try another way",
        )
    episode.commit(writes)
    return CallResult(True, result, None)
