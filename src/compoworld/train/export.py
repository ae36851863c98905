"""Datasets for training: SFT conversations and RL task rows (docs/design.md §7).

* SFT: the trajectories that met every criterion, as ``{"messages", "tools"}``
  rows, in JSONL and Parquet; ``datasets`` loads both and TRL's
  ``SFTTrainer`` takes them as they are (``tools`` is a JSON string of the
  tool schemas, which TRL decodes). A discovery-mode trajectory's row lists
  the two meta-tools (``search_tools``, ``call_tool``), and its messages hold
  the searches and ``call_tool`` calls with their results.
* RL: one row per task, in the shape TRL's GRPO trainer reads (a
  conversational ``prompt`` plus the columns its reward functions receive) or
  verl's RL dataset reads (``data_source``, ``prompt``, ``ability``,
  ``reward_model``, ``extra_info``).

Rows are ordered by task index and rollout and carry no timings, so the same
runs export to byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from compoworld.agents.chat import ToolDetail, initial_messages, task_tools
from compoworld.agents.discovery import META_TOOLS, meta_tool_specs
from compoworld.agents.rollout import Trajectory, read_trajectories, run_services
from compoworld.engine.catalog import Catalog
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, task_set_services
from compoworld.train.verl_tools import write_verl_tool_config

__all__ = ["DATA_SOURCE", "export_rl", "export_sft", "rl_rows", "sft_rows", "write_rows"]

DATA_SOURCE = "compoworld"
"""The ``data_source`` of verl rows: what its reward dispatch keys on."""


def _tools_json(tools: list[dict[str, Any]]) -> str:
    return json.dumps(tools, ensure_ascii=False, sort_keys=True)


MESSAGE_KEYS = ("role", "content", "tool_calls", "tool_call_id")


def _uniform(message: dict[str, Any]) -> dict[str, Any]:
    """A message with every key of the format, absent ones as null: JSONL and Parquet then read alike."""
    return {k: message.get(k) for k in MESSAGE_KEYS}


def sft_rows(
    trajectories: Iterable[Trajectory], catalog: Catalog, *, dedupe: bool = True, tool_detail: ToolDetail = "full"
) -> list[dict[str, Any]]:
    """SFT rows from the trajectories that met every criterion.

    Args:
        trajectories: Trajectories of one or more runs.
        catalog: The catalog of the tasks' world (for the tool schemas).
        dedupe: Keep one row per identical conversation (the oracle's rollouts of a task are identical).
        tool_detail: How much of the tool schemas to keep (``slim`` for small contexts).

    Returns:
        ``{"messages": [...], "tools": "<JSON list of tool schemas>"}`` rows (for a discovery-mode
        trajectory, the schemas of ``search_tools`` and ``call_tool``).
    """
    rows = []
    seen: set[str] = set()
    for t in sorted(trajectories, key=lambda t: (t.task_index, t.task_id, t.rollout, t.policy)):
        if not t.success:
            continue
        messages = [_uniform(m) for m in t.messages]
        digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
        if dedupe and digest in seen:
            continue
        seen.add(digest)
        tools = meta_tool_specs(tool_detail) if t.discovery else task_tools(catalog, t.tools, detail=tool_detail)
        rows.append({"messages": messages, "tools": _tools_json(tools)})
    return rows


def rl_rows(
    tasks: Sequence[Task],
    catalog: Catalog,
    fmt: Literal["trl", "verl"],
    *,
    services: Sequence[str] | None = None,
    discovery: bool = False,
) -> list[dict[str, Any]]:
    """RL rows, one per task.

    ``trl``: ``prompt`` (system and user turns), ``task_id``, ``tools`` (JSON of
    the task's tool schemas), ``task`` (the whole task as JSON, so reward
    functions and environments rebuild its criteria without the task file) and
    ``services`` (the task set's services, so the adapters rebuild each task's
    exact world; None when unknown, and the adapters use each task's own).

    ``verl``: ``data_source``, ``agent_name`` (``tool_agent``), ``prompt``,
    ``ability``, ``reward_model`` (``{"style": "rule", "ground_truth": <task JSON>}``)
    and ``extra_info`` (``index``, ``task_id``, ``services``, ``need_tools_kwargs``, and
    ``tools_kwargs`` giving each of the task's tools the task id to create its episode from).

    In discovery mode the tools are the two meta-tools (``search_tools``,
    ``call_tool``) for every task, and rows say so: a ``discovery`` column (TRL)
    or ``extra_info.discovery`` (verl), so that rewards replay completions in
    the same mode.

    Args:
        tasks: The tasks.
        catalog: The catalog of their world.
        fmt: ``trl`` or ``verl``.
        services: The services the tasks were synthesized over (their ``stats.json``'s), if known.
        discovery: Tool discovery mode.
    """
    rows = []
    known = list(services) if services else None
    for task in tasks:
        prompt = initial_messages(task)
        task_json = task.model_dump_json()
        tools = list(META_TOOLS) if discovery else task.tools
        if fmt == "trl":
            trl_row: dict[str, Any] = {
                "prompt": prompt,
                "task_id": task.id,
                "tools": _tools_json(meta_tool_specs() if discovery else task_tools(catalog, task.tools)),
                "task": task_json,
                "services": known,
            }
            if discovery:
                trl_row["discovery"] = True
            rows.append(trl_row)
        else:
            row: dict[str, Any] = {
                "data_source": DATA_SOURCE,
                "agent_name": "tool_agent",
                "prompt": prompt,
                "ability": "tool_use",
                "reward_model": {"style": "rule", "ground_truth": task_json},
                "extra_info": {
                    "index": task.index,
                    "task_id": task.id,
                    "services": known,
                    "need_tools_kwargs": True,
                    "tools_kwargs": {name: {"create_kwargs": {"task_id": task.id}} for name in tools},
                    "interaction_kwargs": {"name": DATA_SOURCE, "task_id": task.id},
                },
            }
            if discovery:
                row["extra_info"]["discovery"] = True
            rows.append(row)
    return rows


def write_rows(rows: list[dict[str, Any]], out: Path, stem: str, *, parquet: bool = True) -> dict[str, Path]:
    """Write rows as ``STEM.jsonl`` and, if asked, ``STEM.parquet``.

    Raises:
        ImportError: when Parquet is asked for and pyarrow is missing (the ``data`` extra).
    """
    out.mkdir(parents=True, exist_ok=True)
    paths = {"jsonl": out / f"{stem}.jsonl"}
    paths["jsonl"].write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))
    if parquet:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError("writing Parquet needs pyarrow: pip install 'compoworld[data]'") from exc
        paths["parquet"] = out / f"{stem}.parquet"
        pq.write_table(pa.Table.from_pylist(rows), paths["parquet"])
    return paths


def export_sft(
    runs: Sequence[str | Path],
    out: str | Path,
    *,
    services: list[str] | None = None,
    parquet: bool = True,
    tool_detail: ToolDetail = "full",
) -> dict[str, Any]:
    """Export the successful trajectories of runs as an SFT dataset.

    Args:
        runs: Run directories written by ``compoworld rollout``.
        out: Output directory (``sft.jsonl``, ``sft.parquet``).
        services: Services of the tasks' world (default: the first run's task set's).
        parquet: Also write Parquet.
        tool_detail: How much of the tool schemas to keep (``slim`` for small contexts).

    Returns:
        ``rows``, ``trajectories``, ``successful`` and the written ``files``.
    """
    trajectories = [t for run in runs for t in read_trajectories(run)]
    if services is None and runs:
        services = run_services(runs[0])
    rows = sft_rows(trajectories, Catalog.load(services), tool_detail=tool_detail)
    paths = write_rows(rows, Path(out), "sft", parquet=parquet)
    return {
        "rows": len(rows),
        "trajectories": len(trajectories),
        "successful": sum(t.success for t in trajectories),
        "files": {k: str(v) for k, v in paths.items()},
    }


def export_rl(
    tasks_path: str | Path,
    out: str | Path,
    fmt: Literal["trl", "verl"],
    *,
    services: list[str] | None = None,
    parquet: bool = True,
    discovery: bool = False,
) -> dict[str, Any]:
    """Export a task set as RL rows for TRL or verl.

    For verl it also writes ``verl_tools.yaml``, the tool config verl's
    multi-turn rollout reads (``actor_rollout_ref.rollout.multi_turn.tool_config_path``):
    every tool of the tasks, backed by :class:`compoworld.adapters.verl.CompoWorldTool`.

    Args:
        tasks_path: A ``tasks.jsonl`` file.
        out: Output directory (``rl_trl.*``, or ``rl_verl.*`` and ``verl_tools.yaml``).
        fmt: ``trl`` or ``verl``.
        services: Services of the tasks' world (default: the task set's).
        parquet: Also write Parquet (verl reads Parquet).
        discovery: Tool discovery mode: every task's tools are ``search_tools`` and ``call_tool``.

    Returns:
        ``rows`` and the written ``files``.
    """
    if fmt not in ("trl", "verl"):
        raise ValueError(f"unknown RL format {fmt!r}; use trl or verl")
    tasks = read_tasks(tasks_path)
    services = services or task_set_services(tasks_path)
    catalog = Catalog.load(services)
    rows = rl_rows(tasks, catalog, fmt, services=services, discovery=discovery)
    paths = write_rows(rows, Path(out), f"rl_{fmt}", parquet=parquet)
    if fmt == "verl":
        paths["tool_config"] = write_verl_tool_config(
            tasks_path, Path(out) / "verl_tools.yaml", services=services, catalog=catalog, discovery=discovery
        )
    return {"rows": len(rows), "files": {k: str(v) for k, v in paths.items()}}
