"""The verl tool config of a task set: every tool its tasks show, served by the verl adapter.

verl reads it from ``actor_rollout_ref.rollout.multi_turn.tool_config_path``:
one entry per tool, each naming :data:`TOOL_CLASS` (the adapter's
``CompoWorldTool``, which looks each task up in the task file) with the task
set's world and reward scheme, and the tool's schema in the form verl's
``OpenAIFunctionToolSchema`` validates. In discovery mode the config lists
the two meta-tools (``search_tools``, ``call_tool``) with ``discovery: true``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from compoworld.agents.chat import compact_schema
from compoworld.agents.discovery import meta_tool_specs
from compoworld.agents.session import task_services
from compoworld.engine.catalog import Catalog
from compoworld.engine.tools import resolve_ref
from compoworld.tasks.rewards import REWARD_OPTIONS, RewardConfig
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, task_set_services

__all__ = ["TOOL_CLASS", "verl_tool_config", "verl_tool_schema", "write_verl_tool_config"]

TOOL_CLASS = "compoworld.adapters.verl.CompoWorldTool"
"""The class verl instantiates for each tool (named, not imported: the adapter is a peer of this module)."""


def _flat_property(prop: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """A property with a top-level ``type``, as verl's schema model requires (nullable unions lose the null)."""
    resolved = dict(resolve_ref(dict(prop), dict(root)))
    if "type" in resolved or "anyOf" not in resolved:
        return resolved if "type" in resolved else {**resolved, "type": "object"}
    options = [dict(resolve_ref(o, dict(root))) for o in resolved.pop("anyOf") if o.get("type") != "null"]
    types = list(dict.fromkeys(str(o.get("type", "object")) for o in options))
    if len(options) == 1:
        merged = {**options[0], **{k: v for k, v in resolved.items() if k != "default"}}
        if "default" in resolved:
            merged["default"] = resolved["default"]
        return merged
    out: dict[str, Any] = {**resolved, "type": types[0] if len(types) == 1 else types}
    values = [v for o in options for v in (o.get("enum") or ([o["const"]] if "const" in o else []))]
    if values and all("enum" in o or "const" in o for o in options):
        out["enum"] = list(dict.fromkeys(values))
    return out


def verl_tool_schema(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's OpenAI schema in the form verl's ``OpenAIFunctionToolSchema`` validates.

    Every top-level property gets a ``type`` (``$ref`` resolved, ``Optional``
    unions flattened); nested schemas and ``$defs`` are kept.
    """
    fn = tool["function"]
    params = compact_schema(fn.get("parameters") or {"type": "object", "properties": {}})
    props = {k: _flat_property(v, params) for k, v in params.get("properties", {}).items()}
    out_params: dict[str, Any] = {"type": "object", "properties": props, "required": list(params.get("required", []))}
    if params.get("$defs"):
        out_params["$defs"] = params["$defs"]
    return {
        "type": "function",
        "function": {"name": fn["name"], "description": fn.get("description", ""), "parameters": out_params},
    }


def verl_tool_config(
    tasks: Sequence[Task],
    catalog: Catalog,
    *,
    tasks_path: str | Path | None = None,
    services: Sequence[str] | None = None,
    reward: RewardConfig | None = None,
    discovery: bool = False,
) -> dict[str, Any]:
    """The tool config verl reads (``actor_rollout_ref.rollout.multi_turn.tool_config_path``) for a task set.

    Args:
        tasks: The tasks; every tool any of them shows is listed, once.
        catalog: A catalog holding those tools.
        tasks_path: The task file the tools look ``task_id`` up in.
        services: The task set's services (the world the tools rebuild).
        reward: The scheme of :meth:`CompoWorldTool.calc_reward`.
        discovery: List ``search_tools`` and ``call_tool`` (tool discovery mode) instead of the tasks' tools.

    Returns:
        ``{"tools": [{"class_name", "config", "tool_schema"}, ...]}``.
    """
    reward = reward or RewardConfig()
    config: dict[str, Any] = {
        "type": "native",
        "tasks_path": str(Path(tasks_path).resolve()) if tasks_path else None,
        "services": list(services) if services else None,
        "reward": {k: getattr(reward, k) for k in REWARD_OPTIONS},
    }
    if discovery:
        config["discovery"] = True
        schemas = meta_tool_specs()
    else:
        names = list(dict.fromkeys(name for t in tasks for name in t.tools))
        schemas = [catalog.tools[n].openai() for n in names]
    return {
        "tools": [
            {"class_name": TOOL_CLASS, "config": dict(config), "tool_schema": verl_tool_schema(schema)}
            for schema in schemas
        ]
    }


def write_verl_tool_config(
    tasks_path: str | Path,
    out: str | Path,
    *,
    services: Sequence[str] | None = None,
    reward: RewardConfig | None = None,
    catalog: Catalog | None = None,
    discovery: bool = False,
) -> Path:
    """Write the verl tool YAML for a task file.

    Args:
        tasks_path: A ``tasks.jsonl`` file.
        out: The YAML file to write.
        services: The task set's services (default: its ``stats.json``'s; else each task's own).
        reward: The scheme of :meth:`CompoWorldTool.calc_reward`.
        catalog: A loaded catalog holding the tasks' tools (default: loaded here).
        discovery: List the discovery mode's two meta-tools instead of the tasks' tools.

    Returns:
        The written path (YAML when PyYAML is installed, else JSON, which YAML reads too).
    """
    tasks = read_tasks(tasks_path)
    services = list(services) if services else task_set_services(tasks_path)
    catalog_services = services or sorted({s for t in tasks for s in task_services(t)})
    config = verl_tool_config(
        tasks,
        catalog or Catalog.load(catalog_services),
        tasks_path=tasks_path,
        services=services,
        reward=reward,
        discovery=discovery,
    )
    config = json.loads(json.dumps(config))  # no shared objects, which YAML would write as anchors and aliases
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        yaml: Any = importlib.import_module("yaml")
    except ImportError:  # pragma: no cover - PyYAML comes with most trainer stacks
        path.write_text(json.dumps(config, indent=1, ensure_ascii=False) + "\n")
    else:
        path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return path
