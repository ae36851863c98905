"""The conversation format agents see: OpenAI chat messages, tools and tool calls.

Everything an agent exchanges with an episode is an OpenAI chat message
(docs/design.md §7): the task's tools in the ``tools`` format, assistant turns with
``tool_calls``, ``tool`` messages with results or structured errors. Models
without native tool calling write Hermes-style ``<tool_call>{json}</tool_call>``
blocks in their text; :func:`parse_tool_calls` reads both forms, and anything
malformed becomes a :class:`ToolCallRequest` with a ``problem`` that the
runner turns into an error message the agent sees.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.engine.catalog import Catalog
from compoworld.engine.runtime import CallResult
from compoworld.engine.tools import resolve_ref
from compoworld.tasks.task import Task

__all__ = [
    "MAX_RESULT_CHARS",
    "SYSTEM_PROMPT",
    "ToolCallRequest",
    "ToolDetail",
    "assistant_message",
    "compact_schema",
    "initial_messages",
    "parse_tool_calls",
    "render_hermes_call",
    "slim_tool",
    "task_tools",
    "tool_message",
]

SYSTEM_PROMPT = (
    "You are an operations assistant with access to the company's business applications through tools. "
    "Complete the user's request by calling tools: look up what you need, make the changes asked for, and use "
    "the values tools return (ids, numbers, addresses) rather than guessing them. A tool that fails returns an "
    "error with a hint; read it and correct the call. Change nothing the request does not ask for. When the "
    "request is done, reply without any tool call, with a short final answer that states what you found or did."
)
"""The system turn of every conversation."""

MAX_RESULT_CHARS = 6_000
"""Tool results longer than this are cut, with a note saying so: contexts are finite."""

ToolDetail = Literal["full", "compact", "slim"]

_HERMES_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class ToolCallRequest:
    """One tool call an assistant turn asks for.

    Attributes:
        id: The call id the ``tool`` message answers.
        name: The tool's name as written by the model (may be unknown).
        arguments: The arguments as the model wrote them: JSON text.
        problem: Why the call cannot be run as written (malformed block), else None.
    """

    id: str
    name: str
    arguments: str
    problem: str | None = None

    def openai(self) -> dict[str, Any]:
        """The call in the OpenAI ``tool_calls`` format."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


def compact_schema(schema: Any) -> Any:
    """A parameters schema without the keys only the engine uses (semantic types, titles)."""
    if isinstance(schema, dict):
        return {k: compact_schema(v) for k, v in schema.items() if k not in ("x-semantic-type", "title")}
    if isinstance(schema, list):
        return [compact_schema(v) for v in schema]
    return schema


def _first_sentence(text: str, limit: int = 80) -> str:
    text = text.split(". ")[0].strip().rstrip(".")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _slim_property(prop: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    prop = resolve_ref(prop, root)
    options = [resolve_ref(o, root) for o in prop.get("anyOf", []) if o.get("type") != "null"]
    base = options[0] if options else prop
    out: dict[str, Any] = {"type": base.get("type", "object")}
    for key in ("enum", "format"):
        if key in base:
            out[key] = base[key]
    if base.get("type") == "array":
        item = resolve_ref(base.get("items", {}), root)
        out["items"] = {"type": item.get("type", "object")}
    desc = prop.get("description") or base.get("description")
    if desc:
        out["description"] = _first_sentence(str(desc))
    return out


def slim_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool in the OpenAI format cut to what a small model can read: types, enums, short descriptions."""
    fn = tool["function"]
    params = fn.get("parameters", {})
    props = {k: _slim_property(v, params) for k, v in params.get("properties", {}).items()}
    slim_params: dict[str, Any] = {"type": "object", "properties": props}
    if params.get("required"):
        slim_params["required"] = params["required"]
    return {
        "type": "function",
        "function": {
            "name": fn["name"],
            "description": _first_sentence(fn.get("description", ""), 160),
            "parameters": slim_params,
        },
    }


def task_tools(catalog: Catalog, names: Sequence[str], *, detail: ToolDetail = "full") -> list[dict[str, Any]]:
    """The tools an agent is shown, in the OpenAI ``tools`` format.

    Args:
        catalog: The catalog the tools come from.
        names: Tool names, in the order to show them.
        detail: ``full`` schemas, ``compact`` (without engine-only keys) or
            ``slim`` (types, enums and first sentences only: for small contexts).

    Raises:
        KeyError: naming a tool the catalog does not have.
    """
    missing = [n for n in names if n not in catalog.tools]
    if missing:
        raise KeyError(f"tools not in the catalog: {', '.join(missing)}")
    out = [catalog.tools[n].openai() for n in names]
    if detail == "compact":
        return [compact_schema(t) for t in out]
    if detail == "slim":
        return [slim_tool(t) for t in out]
    return out


def initial_messages(task: Task, system_prompt: str = SYSTEM_PROMPT) -> list[dict[str, Any]]:
    """The conversation before the agent's first turn: the system prompt and the task's instruction."""
    return [{"role": "system", "content": system_prompt}, {"role": "user", "content": task.instruction}]


def _call_id(turn: int, index: int) -> str:
    return f"call_{turn}_{index}"


def _from_hermes(text: str, turn: int) -> tuple[str, list[ToolCallRequest]]:
    """Split model text into its prose and the Hermes ``<tool_call>`` blocks it holds."""
    calls = []
    for i, match in enumerate(_HERMES_BLOCK.finditer(text)):
        body = match.group(1).strip()
        cid = _call_id(turn, i)
        try:
            data = json.loads(body)
        except ValueError as exc:
            calls.append(ToolCallRequest(cid, "", body[:2000], f"the <tool_call> block is not valid JSON: {exc}"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            calls.append(
                ToolCallRequest(cid, "", body[:2000], 'a <tool_call> block must be {"name": ..., "arguments": {...}}')
            )
            continue
        args = data.get("arguments", {})
        if isinstance(args, str):
            calls.append(ToolCallRequest(cid, data["name"], args))
        else:
            calls.append(ToolCallRequest(cid, data["name"], json.dumps(args, ensure_ascii=False)))
    prose = _HERMES_BLOCK.sub("", text).strip()
    return prose, calls


def parse_tool_calls(message: dict[str, Any], turn: int) -> tuple[str, list[ToolCallRequest]]:
    """Read an assistant message: its text and the tool calls it asks for.

    Native ``tool_calls`` win; without them, Hermes ``<tool_call>`` blocks in
    the content are parsed. Calls without an id get a stable one.

    Args:
        message: The assistant message (OpenAI format).
        turn: The turn number, for generated call ids.

    Returns:
        The prose (content without tool-call blocks) and the calls.
    """
    content = message.get("content") or ""
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False)
    native = message.get("tool_calls") or []
    if native:
        calls = []
        for i, raw in enumerate(native):
            fn = raw.get("function") or {} if isinstance(raw, dict) else {}
            cid = str(raw.get("id") or _call_id(turn, i)) if isinstance(raw, dict) else _call_id(turn, i)
            name = fn.get("name") if isinstance(fn, dict) else None
            args = fn.get("arguments", "{}") if isinstance(fn, dict) else "{}"
            if not isinstance(name, str):
                calls.append(ToolCallRequest(cid, "", json.dumps(raw)[:2000], "the tool call has no function name"))
                continue
            calls.append(ToolCallRequest(cid, name, args if isinstance(args, str) else json.dumps(args)))
        return content.strip(), calls
    return _from_hermes(content, turn)


def assistant_message(prose: str, calls: Sequence[ToolCallRequest]) -> dict[str, Any]:
    """The normalised assistant message kept in the conversation (OpenAI format)."""
    msg: dict[str, Any] = {"role": "assistant", "content": prose or None}
    if calls:
        msg["tool_calls"] = [c.openai() for c in calls]
    return msg


def render_hermes_call(name: str, arguments: str) -> str:
    """One tool call as a Hermes ``<tool_call>`` block (for models that write calls as text)."""
    try:
        args: Any = json.loads(arguments)
    except ValueError:
        args = arguments
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": args}, ensure_ascii=False) + "\n</tool_call>"


def tool_message(call: ToolCallRequest, outcome: CallResult | dict[str, Any]) -> dict[str, Any]:
    """The ``tool`` message answering a call: its result, or its error as JSON.

    Args:
        call: The call answered.
        outcome: The runtime's result, or an error dict for calls that never ran.
    """
    data = outcome.to_dict() if isinstance(outcome, CallResult) else outcome
    body = data["result"] if data.get("ok") else {"error": data.get("error")}
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f" … [cut: {len(text) - MAX_RESULT_CHARS} more characters; narrow the query]"
    return {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": text}
