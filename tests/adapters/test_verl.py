"""The verl adapter's contract, tested without verl (it needs GPUs and Ray): compute_score, the batch reward
function, the tool lifecycle as verl's agent loops drive it, and the tool YAML."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from compoworld.adapters import verl as adapter
from compoworld.adapters.common import messages_from_text, replay_messages
from compoworld.agents.chat import render_hermes_call
from compoworld.agents.session import TaskSession
from compoworld.engine.catalog import Catalog
from compoworld.tasks.criteria import NEGATIVE_KINDS
from compoworld.tasks.rewards import RewardConfig, group_rewards
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from compoworld.train import verl_tools
from compoworld.train.export import rl_rows
from tests.agents_support import SERVICES, make_tasks


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("verl"), count=6)


@pytest.fixture(scope="module")
def tasks(tasks_path: Path) -> list[Task]:
    return read_tasks(tasks_path)


@pytest.fixture(scope="module")
def rows(tasks: list[Task]) -> list[dict[str, Any]]:
    return rl_rows(tasks, Catalog.load(SERVICES), "verl")


def answer_of(task: Task) -> str:
    return task_answer(task) or "Done."


def response_text(task: Task, steps: int | None = None, answer: str | None = None) -> str:
    """A response as verl decodes it (Qwen template, special tokens skipped): calls, tool responses, answer."""
    session = TaskSession(task)
    parts = []
    for step in task.solution[:steps]:
        arguments = json.dumps(step.arguments)
        result = json.dumps(session.call(step.tool, arguments)["result"])
        parts.append(
            render_hermes_call(step.tool, arguments) + f"user\n<tool_response>\n{result}\n</tool_response>\nassistant\n"
        )
    parts.append(answer_of(task) if answer is None else answer)
    return "".join(parts)


def test_compute_score_gives_the_oracle_one_and_the_same_fields_to_every_sample(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    scores = []
    for task, row in zip(tasks, rows, strict=True):
        truth, info = row["reward_model"]["ground_truth"], row["extra_info"]
        oracle = adapter.compute_score(row["data_source"], response_text(task), truth, info)
        assert oracle["score"] == 1.0 and oracle["acc"] == 1.0 and oracle["criteria_pass_rate"] == 1.0
        nothing = adapter.compute_score(row["data_source"], "I did it.", truth, info, scheme="binary")
        assert nothing["score"] == 0.0 and nothing["acc"] == 0.0
        # All but the last call: what the earlier writes achieved earns part of the reward, reads alone nothing.
        cut = len(task.solution) - 1
        half = adapter.compute_score(row["data_source"], response_text(task, steps=cut), truth, info, scheme="uniform")
        wrote = any(c.kind not in NEGATIVE_KINDS and c.step is not None and c.step < cut for c in task.criteria)
        assert (0.0 < half["score"] < 1.0) if wrote else half["score"] == 0.0
        scores += [oracle, nothing, half]
        assert oracle["state_total"] == sum(c.kind == "state" for c in task.criteria) == oracle["state_passed"]
    assert len({tuple(s) for s in scores}) == 1  # verl stacks each key into a per-batch array


def test_the_final_answer_is_read_after_the_last_tool_response_never_inside_one(tasks: list[Task]) -> None:
    step = tasks[0].solution[0]
    call = render_hermes_call(step.tool, json.dumps(step.arguments))
    text = call + "user\n<tool_response>\nSECRET\n</tool_response>\n<|im_start|>assistant\nThe value is 42."
    messages = messages_from_text(text)
    assert all("SECRET" not in m["content"] for m in messages)
    session = TaskSession(tasks[0])
    assert replay_messages(session, messages) == "The value is 42." and session.calls == 1
    # Cut off after a call (no final turn): no answer.
    assert replay_messages(TaskSession(tasks[0]), messages_from_text(call)) == ""


def test_the_batch_reward_applies_the_group_scheme_over_rows_sharing_a_group(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    a, b = tasks[0], tasks[1]
    row_a, row_b = rows[0], rows[1]
    texts = [response_text(a), response_text(a, steps=2), "nothing", response_text(b), "nothing"]
    batch_rows = [row_a, row_a, row_a, row_b, row_b]
    out = adapter.compute_score_batch(
        data_sources=[r["data_source"] for r in batch_rows],
        solution_strs=texts,
        ground_truths=[r["reward_model"]["ground_truth"] for r in batch_rows],
        extra_infos=[r["extra_info"] for r in batch_rows],
        reward_router_address=None,  # what newer verl managers may add
    )
    assert [o["acc"] for o in out] == [1.0, 0.0, 0.0, 1.0, 0.0]
    singles = [
        adapter.compute_score("compoworld", t, r["reward_model"]["ground_truth"], scheme="binary")
        for t, r in zip(texts, batch_rows, strict=True)
    ]
    verdict_rows = [[s[f"{k}_passed"] for k in ("state", "transition")] for s in singles]
    assert verdict_rows[0] != verdict_rows[1]
    # The group's rewards are those of the scheme over the group's verdicts, not of each sample alone.
    group = []
    for text in texts[:3]:
        s = TaskSession(a)
        group.append([v.passed for v in s.verdicts(replay_messages(s, messages_from_text(text)))])
    index = {c.id: k for k, c in enumerate(a.criteria)}
    depends = [[index[d] for d in c.depends_on] for c in a.criteria]
    negative = [c.kind in NEGATIVE_KINDS for c in a.criteria]
    expected = group_rewards(group, depends, RewardConfig(), negative).rewards
    assert [o["score"] for o in out[:3]] == pytest.approx(expected)
    assert out[0]["score"] == out[3]["score"] == 1.0


def read_config(path: Path) -> dict[str, Any]:
    try:
        import yaml
    except ImportError:  # the writer falls back to JSON, which YAML reads too
        return dict(json.loads(path.read_text()))
    return dict(yaml.safe_load(path.read_text()))


class AgentData(SimpleNamespace):
    """What verl's ToolAgentLoop hands a tool as ``agent_data`` (the part the tool reads)."""


async def agent_loop_call(tools: dict[str, Any], name: str, args: dict[str, Any], agent_data: AgentData) -> str:
    """One call as verl's ToolAgentLoop._call_tool makes it: create, execute, release, every time."""
    tool = tools[name]
    kwargs = agent_data.tools_kwargs.get(name, {})
    instance_id, _ = await tool.create(create_kwargs=kwargs.get("create_kwargs", {}))
    try:
        response, reward, _metrics = await tool.execute(instance_id, args, agent_data=agent_data)
    finally:
        await tool.release(instance_id)
    assert reward == 0.0
    return str(response.text)


def load_tools(path: Path) -> dict[str, adapter.CompoWorldTool]:
    config = read_config(path)
    tools = {}
    for entry in config["tools"]:
        assert entry["class_name"] == verl_tools.TOOL_CLASS == f"{adapter.__name__}.{adapter.CompoWorldTool.__name__}"
        tool = adapter.CompoWorldTool(entry["config"], entry["tool_schema"])
        tools[tool.name] = tool
    return tools


def test_the_tool_config_lists_every_tool_once_with_schemas_verl_accepts(tasks_path: Path, tmp_path: Path) -> None:
    path = verl_tools.write_verl_tool_config(tasks_path, tmp_path / "tools.yaml")
    config = read_config(path)
    names = [e["tool_schema"]["function"]["name"] for e in config["tools"]]
    assert len(names) == len(set(names)) == len({n for t in read_tasks(tasks_path) for n in t.tools})
    for entry in config["tools"]:
        assert entry["config"]["type"] == "native" and entry["config"]["tasks_path"] == str(tasks_path.resolve())
        assert sorted(entry["config"]["services"]) == sorted(SERVICES)
        params = entry["tool_schema"]["function"]["parameters"]
        assert all("type" in p for p in params["properties"].values())  # verl's property model requires it
    if adapter.VERL_AVAILABLE:  # pragma: no cover - verl is not installed in CI
        from verl.tools.schemas import OpenAIFunctionToolSchema

        for entry in config["tools"]:
            OpenAIFunctionToolSchema.model_validate(entry["tool_schema"])


def test_the_tool_lifecycle_as_the_agent_loop_drives_it_solves_the_task(
    tasks_path: Path, tasks: list[Task], rows: list[dict[str, Any]], tmp_path: Path
) -> None:
    tools = load_tools(verl_tools.write_verl_tool_config(tasks_path, tmp_path / "tools.yaml"))

    async def run() -> None:
        for task, row in zip(tasks, rows, strict=True):
            agent_data = AgentData(tools_kwargs=row["extra_info"]["tools_kwargs"])
            for step in task.solution:
                text = await agent_loop_call(tools, step.tool, step.arguments, agent_data)
                assert "error" not in json.loads(text)
            session = agent_data.compoworld_sessions[task.id]
            assert session.calls == len(task.solution)
            assert all(v.passed for v in session.verdicts(answer_of(task)))
            # A wrong call: an error the model reads, and nothing changes.
            bad = json.loads(await agent_loop_call(tools, task.solution[0].tool, {"nope": 1}, agent_data))
            assert bad["error"]["type"] == "invalid_arguments"
            other = next(n for n in tools if n not in task.tools)
            refused = json.loads(await agent_loop_call(tools, other, {}, agent_data))
            assert refused["error"]["type"] == "unknown_tool"
        assert adapter.open_instances() == 0 and all(t.instances == 0 for t in tools.values())

    asyncio.run(run())


def test_tools_sharing_an_instance_id_share_its_episode_until_the_last_release(
    tasks_path: Path, tasks: list[Task], tmp_path: Path
) -> None:
    # verl's older SGLang rollout creates every tool of a request under the request's id, scores with
    # calc_reward and releases each at the end.
    tools = load_tools(verl_tools.write_verl_tool_config(tasks_path, tmp_path / "tools.yaml"))
    task = tasks[0]

    async def run() -> None:
        used = [tools[name] for name in task.tools]
        for tool in used:
            iid, created = await tool.create("request-1", create_kwargs={"task_id": task.id})
            assert iid == "request-1" and created.text is None
        first = used[0]
        assert await first.calc_reward("request-1") < 1.0  # nothing done yet
        for step in task.solution:
            response, _, metrics = await tools[step.tool].execute("request-1", step.arguments)
            assert metrics == {"ok": 1}, response.text
        assert await first.calc_reward("request-1", answer=answer_of(task)) == 1.0
        for tool in used:
            await tool.release("request-1")
        assert adapter.open_instances() == 0
        response, _, metrics = await first.execute("request-1", task.solution[0].arguments)
        assert metrics == {"ok": 0} and "no tool instance" in json.loads(response.text)["error"]["message"]
        assert await first.calc_reward("request-1") == 0.0

    asyncio.run(run())


def test_a_task_the_tasks_file_lacks_fails_at_the_call_not_the_process(tasks_path: Path, tmp_path: Path) -> None:
    tools = load_tools(verl_tools.write_verl_tool_config(tasks_path, tmp_path / "tools.yaml"))
    tool = next(iter(tools.values()))

    async def run() -> None:
        iid, _ = await tool.create(create_kwargs={"task_id": "t99999-missing"})
        with pytest.raises(ValueError, match="no task"):  # verl's agent loop turns this into an error response
            await tool.execute(iid, {})
        await tool.release(iid)

    asyncio.run(run())
    assert adapter.open_instances() == 0


def test_in_discovery_mode_the_tool_config_lists_the_meta_tools_and_the_agent_loop_solves_the_task(
    tasks_path: Path, tasks: list[Task], tmp_path: Path
) -> None:
    path = verl_tools.write_verl_tool_config(tasks_path, tmp_path / "tools.yaml", discovery=True)
    config = read_config(path)
    assert [e["tool_schema"]["function"]["name"] for e in config["tools"]] == ["search_tools", "call_tool"]
    assert all(e["config"]["discovery"] is True for e in config["tools"])
    tools = load_tools(path)
    assert all(t.discovery for t in tools.values())
    rows = rl_rows(tasks, Catalog.load(SERVICES), "verl", discovery=True)

    async def run() -> None:
        for task, row in zip(tasks, rows, strict=True):
            assert set(row["extra_info"]["tools_kwargs"]) == {"search_tools", "call_tool"}
            agent_data = AgentData(tools_kwargs=row["extra_info"]["tools_kwargs"])
            for step in task.solution:
                found = json.loads(await agent_loop_call(tools, "search_tools", {"query": step.tool}, agent_data))
                assert found["results"][0]["name"] == step.tool
                called = {"name": step.tool, "arguments": step.arguments}
                assert "error" not in json.loads(await agent_loop_call(tools, "call_tool", called, agent_data))
            session = agent_data.compoworld_sessions[task.id]
            assert session.discovery and session.calls == 2 * len(task.solution)
            assert all(v.passed for v in session.verdicts(answer_of(task)))
            missing = {"name": "crm__delete_everything", "arguments": {}}
            refused = json.loads(await agent_loop_call(tools, "call_tool", missing, agent_data))
            assert refused["error"]["type"] == "unknown_tool" and "search_tools" in refused["error"]["hint"]
        assert adapter.open_instances() == 0

    asyncio.run(run())
    # compute_score replays a discovery response in discovery mode, as the row's extra_info says.
    task, row = tasks[0], rows[0]
    text = "".join(
        render_hermes_call("call_tool", json.dumps({"name": s.tool, "arguments": s.arguments}))
        + "user\n<tool_response>\n{}\n</tool_response>\nassistant\n"
        for s in task.solution
    )
    scored = adapter.compute_score("compoworld", text + answer_of(task), task.model_dump_json(), row["extra_info"])
    assert scored["acc"] == 1.0 and scored["score"] == 1.0
