"""The TRL adapter: reward functions in TRL's signature and the environment_factory class, driven by hand."""

from __future__ import annotations

import inspect
import json
import pickle
from typing import Any

import pytest

from compoworld.adapters.common import replay_messages
from compoworld.adapters.trl import (
    CompoWorldDiscoveryEnvironment,
    CompoWorldDiscoveryToolEnvironment,
    CompoWorldEnvironment,
    CompoWorldToolEnvironment,
    compoworld_reward,
    criterion_rewards,
)
from compoworld.agents.policies import oracle_message
from compoworld.agents.session import TaskSession
from compoworld.engine.catalog import Catalog
from compoworld.tasks.criteria import CRITERION_KINDS, NEGATIVE_KINDS
from compoworld.tasks.rewards import RewardConfig, group_rewards, score_batch
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from compoworld.train.export import rl_rows
from tests.agents_support import SERVICES, make_tasks


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> list[Task]:
    return read_tasks(make_tasks(tmp_path_factory.mktemp("trl"), count=6))


@pytest.fixture(scope="module")
def rows(tasks: list[Task]) -> list[dict[str, Any]]:
    return rl_rows(tasks, Catalog.load(SERVICES), "trl", services=sorted(SERVICES))


def oracle_completion(task: Task, *, hermes: bool = False) -> list[dict[str, Any]]:
    """The oracle's assistant turns, with the tool messages TRL would put between them."""
    out: list[dict[str, Any]] = []
    for turn in range(len(task.solution) + 1):
        out.append(oracle_message(task, turn, hermes=hermes))
        if turn < len(task.solution):
            out.append({"role": "tool", "name": task.solution[turn].tool, "content": "{}"})
    return out


def env_completion(task: Task) -> list[dict[str, Any]]:
    """The oracle as a model driving CompoWorldEnvironment would write it (TRL parses arguments to dicts)."""
    calls = [
        {"type": "function", "function": {"name": "call_tool", "arguments": {"name": s.tool, "arguments": s.arguments}}}
        for s in task.solution
    ]
    submit = {"type": "function", "function": {"name": "submit_answer", "arguments": {"answer": answer_of(task)}}}
    return [
        *({"role": "assistant", "content": "", "tool_calls": [c]} for c in calls),
        {"role": "assistant", "content": "", "tool_calls": [submit]},
        {"role": "assistant", "content": "All done."},
    ]


def answer_of(task: Task) -> str:
    return task_answer(task) or "Done."


def columns(rows: list[dict[str, Any]], times: int = 1) -> dict[str, list[Any]]:
    """Rows as TRL hands them to reward functions: every column but ``prompt`` as a keyword list."""
    return {k: [r[k] for r in rows] * times for k in rows[0] if k != "prompt"}


@pytest.mark.parametrize("scheme", ["binary", "uniform", "completion_focused"])
def test_oracle_completions_score_one_and_empty_or_broken_ones_less(
    tasks: list[Task], rows: list[dict[str, Any]], scheme: Any
) -> None:
    reward = compoworld_reward(scheme, log_metrics=False)
    oracle = [oracle_completion(t) for t in tasks]
    hermes = [oracle_completion(t, hermes=True) for t in tasks]
    empty = [[{"role": "assistant", "content": "I have done everything."}] for _ in tasks]
    broken = [
        [
            {"role": "assistant", "content": '<tool_call>{"name": "nope", "arguments": {}}</tool_call>'},
            {"role": "assistant", "content": "<tool_call>{not json</tool_call>"},
            {"role": "assistant", "content": "Done."},
        ]
        for _ in tasks
    ]
    plain_text = [oracle_completion(t, hermes=True)[0]["content"] for t in tasks]  # one call, then nothing
    completions = oracle + hermes + empty + broken + plain_text
    rewards = reward(prompts=[r["prompt"] for r in rows] * 5, completions=completions, **columns(rows, 5))
    n = len(tasks)
    assert rewards[: 2 * n] == [1.0] * (2 * n)
    assert all(r is not None and r < 1.0 for r in rewards[2 * n :])


def test_the_group_scheme_weighs_criteria_by_the_rows_sharing_a_task_id(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    task, row = tasks[0], rows[0]
    steps = len(task.solution) - 1  # every call but the last, then it stops
    partial = [*oracle_completion(task)[: 2 * steps], {"role": "assistant", "content": "stopped"}]
    group = [oracle_completion(task), partial, [{"role": "assistant", "content": "no"}], partial]
    rewards = compoworld_reward()(prompts=[row["prompt"]] * 4, completions=group, **columns([row], 4))
    verdicts = []
    for completion in group:
        session = TaskSession(task)
        verdicts.append(session.verdicts(replay_messages(session, completion)))
    index = {v.id: k for k, v in enumerate(verdicts[0])}
    depends = [[index[d] for d in v.depends_on] for v in verdicts[0]]
    negative = [v.kind in NEGATIVE_KINDS for v in verdicts[0]]
    expected = group_rewards([[v.passed for v in vs] for vs in verdicts], depends, RewardConfig(), negative)
    assert rewards == pytest.approx(expected.rewards)
    assert rewards[0] == 1.0 and rewards[1] == rewards[3] > rewards[2]
    # Scored alone, each rollout gets other weights: the group matters.
    alone = [score_batch([i], [vs]).rewards[0] for i, vs in enumerate(verdicts)]
    assert alone[1] != pytest.approx(rewards[1])


def test_per_criterion_metrics_and_verdict_columns_are_logged(tasks: list[Task], rows: list[dict[str, Any]]) -> None:
    metrics: dict[str, float] = {}
    extra: dict[str, list[Any]] = {}
    completions = [oracle_completion(t) for t in tasks] + [[{"role": "assistant", "content": "no"}] for _ in tasks]
    compoworld_reward()(
        prompts=[None] * len(completions),
        completions=completions,
        log_metric=metrics.__setitem__,
        log_extra=extra.__setitem__,
        **columns(rows, 2),
    )
    assert metrics["compoworld/completion_rate"] == 0.5
    assert metrics["compoworld/zero_variance_group_share"] == 0.0
    assert {"compoworld/pass_rate/state", "compoworld/pass_rate/transition"} <= set(metrics)
    assert 0.0 < metrics["compoworld/pass_rate/state"] < 1.0
    assert extra["compoworld_failed"][0] == "-" and "state" in extra["compoworld_failed"][-1]


def test_one_reward_function_per_criterion_kind(tasks: list[Task], rows: list[dict[str, Any]]) -> None:
    funcs = {f.__name__: f for f in criterion_rewards()}
    # Every kind of criterion, the negatives and messages included, has its curve.
    assert set(funcs) == {f"compoworld_{k}" for k in CRITERION_KINDS}
    assert {"compoworld_message", "compoworld_unchanged", "compoworld_not_sent"} <= set(funcs)
    completions = [oracle_completion(tasks[0]), [{"role": "assistant", "content": "no"}]]
    kw = columns(rows[:1], 2)
    assert funcs["compoworld_state"](prompts=None, completions=completions, **kw) == [1.0, 0.0]
    assert funcs["compoworld_no_collateral"](prompts=None, completions=completions, **kw) == [1.0, 1.0]
    has_answer = any(c.kind == "answer" for c in tasks[0].criteria)
    assert (funcs["compoworld_answer"](prompts=None, completions=completions, **kw)[0] is None) != has_answer


def test_rows_without_a_task_get_none_and_reward_functions_pickle(rows: list[dict[str, Any]]) -> None:
    reward = compoworld_reward("binary")
    assert reward(prompts=[None], completions=[[{"role": "assistant", "content": "x"}]]) == [None]
    clone = pickle.loads(pickle.dumps(reward))
    assert clone.__name__ == "compoworld_binary" and clone.config == reward.config


def drive_oracle(env: CompoWorldEnvironment, task: Task) -> None:
    for i, step in enumerate(task.solution):
        args: Any = step.arguments if i % 2 else json.dumps(step.arguments)  # TRL may hand over either
        assert "error" not in json.loads(env.call_tool(step.tool, args))
    assert json.loads(env.submit_answer(answer_of(task)))["ok"] is True


@pytest.mark.parametrize("scheme", ["binary", "uniform", "completion_focused"])
def test_the_environment_driven_by_hand_rewards_the_oracle_with_one_and_nothing_with_less(
    tasks: list[Task], rows: list[dict[str, Any]], scheme: Any
) -> None:
    env = CompoWorldEnvironment.factory(RewardConfig(scheme=scheme))()
    for task, row in zip(tasks, rows, strict=True):
        text = env.reset(**row)  # TRL reuses one instance across rollouts
        assert text is not None and all(name in text for name in task.tools)
        drive_oracle(env, task)
        assert env.get_reward() == 1.0
        env.reset(**row)
        assert env.get_reward() < 1.0


def test_the_tools_can_be_listed_as_one_line_signatures_for_small_contexts(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    env = CompoWorldToolEnvironment(tool_listing="signature")
    short = env.reset(**rows[0])
    full = CompoWorldToolEnvironment(tool_listing="compact").reset(**rows[0])
    assert short is not None and full is not None and len(short) < len(full) / 3
    lines = [line for line in short.splitlines() if "__" in line]
    assert [line.split("(")[0] for line in lines] == tasks[0].tools
    step = tasks[0].solution[0]
    assert all(f"{arg}" in short for arg in step.arguments)


def test_the_environment_refuses_what_the_task_does_not_allow(tasks: list[Task], rows: list[dict[str, Any]]) -> None:
    env = CompoWorldEnvironment()
    assert env.get_reward() == 0.0
    env.reset(**rows[0])
    unknown = json.loads(env.call_tool("crm__delete_everything", "{}"))
    assert unknown["error"]["type"] == "unknown_tool"
    bad = json.loads(env.call_tool(tasks[0].solution[0].tool, "{not json"))
    assert bad["error"]["type"] == "invalid_arguments"
    env.submit_answer("done")
    assert "error" in json.loads(env.submit_answer("again"))
    after = json.loads(env.call_tool(tasks[0].solution[0].tool, json.dumps(tasks[0].solution[0].arguments)))
    assert "submitted" in after["error"]["message"]
    with pytest.raises(ValueError, match="task"):
        env.reset(prompt=[])


@pytest.mark.parametrize("cls", [CompoWorldToolEnvironment, CompoWorldEnvironment])
def test_the_environments_expose_exactly_call_tool_and_submit_answer_as_trl_builds_tools(cls: type) -> None:
    env = cls.factory()()
    # As GRPOTrainer lists an environment's tools and its own reward (trl 1.16, grpo_trainer.py).
    members = [name for name, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)]
    tools = [name for name in members if name not in ("reset", "get_reward") and not name.startswith("_")]
    assert tools == ["call_tool", "submit_answer"] and "reset" in members
    assert ("get_reward" in members) == (cls is CompoWorldEnvironment)  # TRL adds it to the rewards by itself
    transformers_utils = pytest.importorskip("transformers.utils")
    schemas = {m: transformers_utils.get_json_schema(getattr(env, m))["function"] for m in tools}
    assert schemas["call_tool"]["parameters"]["required"] == ["name"]
    assert set(schemas["call_tool"]["parameters"]["properties"]) == {"name", "arguments"}
    assert schemas["submit_answer"]["parameters"]["required"] == ["answer"]


def test_the_reward_function_reads_the_environments_or_replays_their_calls(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    envs = []
    for task, row in zip(tasks, rows, strict=True):
        env = CompoWorldToolEnvironment()
        env.reset(**row)
        drive_oracle(env, task)
        envs.append(env)
    completions = [env_completion(t) for t in tasks]
    reward = compoworld_reward("binary", log_metrics=False)
    with_envs = reward(prompts=None, completions=completions, environments=envs, **columns(rows))
    replayed = reward(prompts=None, completions=completions, **columns(rows))
    assert with_envs == replayed == [1.0] * len(tasks)
    # A fresh environment (nothing done) scores below one even with a perfect-looking completion.
    fresh = CompoWorldToolEnvironment()
    fresh.reset(**rows[0])
    assert reward(prompts=None, completions=completions[:1], environments=[fresh], **columns(rows[:1])) == [0.0]


def test_without_the_task_sets_services_a_task_runs_in_its_own_proven_world(tasks: list[Task]) -> None:
    # Given the task alone, without the rows' service list, the session loads the task's own services, a
    # smaller world than the task set's, which it accepts because the task's oracle solution passes there.
    own = TaskSession(tasks[0].model_dump_json())
    assert set(own.world.catalog.services) < set(SERVICES) and own.world.version != tasks[0].world_version
    exact = TaskSession(tasks[0], services=SERVICES)
    assert exact.world.version == tasks[0].world_version
    with pytest.raises(ValueError, match="synthesized with catalog"):
        TaskSession(tasks[0], services=["crm"])


def test_rows_carry_the_task_sets_services_and_the_environment_rebuilds_the_exact_world(
    tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    assert all(row["services"] == sorted(SERVICES) for row in rows)
    env = CompoWorldToolEnvironment()
    env.reset(**rows[0])
    assert env.session is not None and env.session.world.version == tasks[0].world_version


@pytest.mark.parametrize(
    ("cls", "variant"),
    [
        (CompoWorldToolEnvironment, CompoWorldDiscoveryToolEnvironment),
        (CompoWorldEnvironment, CompoWorldDiscoveryEnvironment),
    ],
)
def test_in_discovery_mode_the_environment_exposes_search_tools_and_call_tool_and_solves_the_task(
    tasks: list[Task], rows: list[dict[str, Any]], cls: Any, variant: type
) -> None:
    env = cls.factory(discovery=True)()
    assert type(env) is variant and type(cls(discovery=True)) is variant and type(cls()) is cls
    members = [name for name, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)]
    tools = [name for name in members if name not in ("reset", "get_reward") and not name.startswith("_")]
    assert tools == ["call_tool", "search_tools", "submit_answer"]
    transformers_utils = pytest.importorskip("transformers.utils")
    schema = transformers_utils.get_json_schema(env.search_tools)["function"]
    assert schema["parameters"]["required"] == ["query"] and set(schema["parameters"]["properties"]) == {
        "query",
        "top_k",
    }
    for task, row in list(zip(tasks, rows, strict=True))[:3]:
        text = env.reset(**row)
        assert text is not None and "search_tools" in text and not any(name in text for name in task.tools)
        for step in task.solution:
            found = json.loads(env.search_tools(step.tool, 5))
            assert found["results"][0]["name"] == step.tool
            assert "error" not in json.loads(env.call_tool(step.tool, json.dumps(step.arguments)))
        assert json.loads(env.submit_answer(answer_of(task)))["ok"] is True
        assert env.session is not None and env.session.discovery
        assert all(v.passed for v in env.session.verdicts())
        if isinstance(env, CompoWorldEnvironment):
            assert env.get_reward() == 1.0
    # A tool outside the catalog is refused with how to find one; so is a direct name in place of call_tool.
    env.reset(**rows[0])
    refused = json.loads(env.call_tool("crm__delete_everything", "{}"))
    assert refused["error"]["type"] == "unknown_tool" and "search_tools" in refused["error"]["hint"]
    # The reward function replays a discovery row's completion in discovery mode.
    task = tasks[0]
    calls = [
        {"type": "function", "function": {"name": "search_tools", "arguments": {"query": task.solution[0].tool}}},
        *(
            {
                "type": "function",
                "function": {"name": "call_tool", "arguments": {"name": s.tool, "arguments": s.arguments}},
            }
            for s in task.solution
        ),
    ]
    completion = [{"role": "assistant", "content": "", "tool_calls": [c]} for c in calls]
    completion.append({"role": "assistant", "content": answer_of(task)})
    discovery_rows = rl_rows(tasks[:1], Catalog.load(SERVICES), "trl", services=sorted(SERVICES), discovery=True)
    reward = compoworld_reward("binary", log_metrics=False)
    assert discovery_rows[0]["discovery"] is True
    assert reward(prompts=None, completions=[completion], **columns(discovery_rows)) == [1.0]
