"""The Gymnasium-style environment: the oracle through step(), malformed actions, truncation, env_checker."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from compoworld.adapters.gym import GYMNASIUM_AVAILABLE, CompoWorldEnv, register_env
from compoworld.agents.chat import render_hermes_call
from compoworld.tasks.criteria import NEGATIVE_KINDS
from compoworld.tasks.rewards import RewardConfig
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from tests.agents_support import make_tasks


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("gym"), count=6)


@pytest.fixture(scope="module")
def env(tasks_path: Path) -> CompoWorldEnv:
    return CompoWorldEnv(tasks_path, max_turns=12)


def oracle_actions(task: Task) -> list[Any]:
    """The solution, alternating dict calls and Hermes text, then the final answer."""
    actions: list[Any] = []
    for i, step in enumerate(task.solution):
        if i % 2:
            actions.append({"tool": step.tool, "arguments": step.arguments})
        else:
            actions.append(render_hermes_call(step.tool, json.dumps(step.arguments)))
    actions.append(task_answer(task) or "All done.")
    return actions


def test_the_oracle_through_step_terminates_with_reward_one_on_every_task(env: CompoWorldEnv) -> None:
    for index, task in enumerate(env.tasks):
        obs, info = env.reset(options={"task_index": index})
        assert info["task_id"] == task.id and task.instruction in obs and all(t in obs for t in task.tools)
        for action in oracle_actions(task)[:-1]:
            obs, reward, terminated, truncated, info = env.step(action)
            assert reward == 0.0 and not terminated and not truncated and info["outcomes"] == [True], obs
        obs, reward, terminated, truncated, info = env.step(oracle_actions(task)[-1])
        assert (reward, terminated, truncated, info["success"]) == (1.0, True, False, True)
        assert info["metrics"]["completion"] == 1.0 and len(info["verdicts"]) == len(task.criteria)
        with pytest.raises(RuntimeError, match="reset"):
            env.step({"answer": "again"})


def test_a_final_answer_without_the_work_gets_less(env: CompoWorldEnv) -> None:
    env.reset(options={"task_id": env.tasks[0].id})
    _, reward, terminated, _, info = env.step({"answer": "I did it."})
    assert terminated and reward < 1.0 and not info["success"]


@pytest.mark.parametrize(
    "action",
    [
        "<tool_call>{not json</tool_call>",
        '<tool_call>{"arguments": {}}</tool_call>',
        '<tool_call>{"name": "crm__nope", "arguments": {}}</tool_call>',
        {"tool": "crm__nope"},
        {"tool": 7},
        {"something": "else"},
        42,
    ],
    ids=["bad-json", "no-name", "unknown-tool", "dict-unknown-tool", "dict-bad-name", "dict-unknown", "not-text"],
)
def test_a_malformed_action_is_an_error_observation_not_a_crash(env: CompoWorldEnv, action: Any) -> None:
    env.reset(options={"task_index": 1})
    obs, reward, terminated, truncated, info = env.step(action)
    assert "error" in obs and reward == 0.0 and not terminated and not truncated
    assert info["outcomes"] == [False] and info["turn"] == 1


def test_an_episode_without_an_answer_is_truncated_at_max_turns(tasks_path: Path) -> None:
    tasks = read_tasks(tasks_path)
    # A task whose first calls already achieve something: a write before its last call.
    task = next(
        t
        for t in tasks
        if any(c.kind not in NEGATIVE_KINDS and c.step is not None and c.step < len(t.solution) - 1 for c in t.criteria)
    )
    turns = len(task.solution) - 1
    for score_truncated in (True, False):
        env = CompoWorldEnv(
            tasks, max_turns=turns, score_truncated=score_truncated, reward=RewardConfig(scheme="uniform")
        )
        env.reset(options={"task_id": task.id})
        for turn, step in enumerate(task.solution[:turns], start=1):
            _, reward, terminated, truncated, info = env.step({"tool": step.tool, "arguments": step.arguments})
            assert not terminated and truncated == (turn == turns)
        assert info["success"] is False
        # Scored like a rollout cut at its turn limit (its state, no answer), or 0 when asked.
        assert (0.0 < reward < 1.0) if score_truncated else reward == 0.0


def test_seeded_resets_draw_the_same_task_and_render_shows_the_episode(tasks_path: Path) -> None:
    env = CompoWorldEnv(tasks_path, render_mode="ansi")
    first = [env.reset(seed=s)[1]["task_id"] for s in (1, 2, 3)]
    assert first == [env.reset(seed=s)[1]["task_id"] for s in (1, 2, 3)]
    env.step({"answer": "x"})
    text = env.render()
    assert text is not None and "Final answer recorded" in text


@pytest.mark.skipif(not GYMNASIUM_AVAILABLE, reason="gymnasium is not installed")
def test_gymnasiums_env_checker_passes_directly_and_through_make(tasks_path: Path) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = CompoWorldEnv(tasks_path)
    assert isinstance(env, gymnasium.Env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec": alternative render modes are checked through make below
        check_env(env)
    register_env()
    register_env()  # idempotent
    made = gymnasium.make("compoworld/CompoWorld-v0", tasks=str(tasks_path), max_turns=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)
    obs, _ = made.reset(seed=0)
    assert obs in made.observation_space
    made.close()


def test_in_discovery_mode_the_environment_lists_search_tools_and_call_tool_and_solves_every_task(
    tasks_path: Path,
) -> None:
    env = CompoWorldEnv(tasks_path, max_turns=30, discovery=True)
    for index, task in enumerate(env.tasks):
        obs, info = env.reset(options={"task_index": index})
        assert info["tools"] == ["search_tools", "call_tool"] and "search_tools" in obs
        assert not any(name in obs for name in task.tools)
        for i, step in enumerate(task.solution):
            search = {"tool": "search_tools", "arguments": {"query": step.tool, "top_k": 3}}
            obs, reward, terminated, truncated, info = env.step(search)
            assert info["outcomes"] == [True] and json.loads(obs)["results"][0]["name"] == step.tool
            call = {"name": step.tool, "arguments": step.arguments}
            action: Any = {"tool": "call_tool", "arguments": call}
            if i % 2:  # as model text, a Hermes block
                action = render_hermes_call("call_tool", json.dumps(call))
            obs, reward, terminated, truncated, info = env.step(action)
            assert info["outcomes"] == [True] and not terminated and not truncated, obs
        obs, reward, terminated, _, info = env.step(task_answer(task) or "All done.")
        assert (reward, terminated, info["success"]) == (1.0, True, True)
    env.reset(options={"task_index": 0})
    obs, *_ = env.step({"tool": env.tasks[0].solution[0].tool, "arguments": env.tasks[0].solution[0].arguments})
    assert json.loads(obs)["error"]["type"] == "unknown_tool" and "search_tools" in obs
