"""One task session: the same task played through rollouts, the TRL adapter and the HTTP server is judged alike."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from compoworld import Catalog
from compoworld.adapters.trl import CompoWorldToolEnvironment
from compoworld.agents.policies import Policy, PolicyTurn, TurnInput, oracle_message
from compoworld.agents.rollout import RolloutConfig, load_task_worlds, run_episode
from compoworld.agents.session import TaskSession, WorldCache
from compoworld.serve import ServeBackend, ServeLimits, SessionManager
from compoworld.serve.http_server import create_app
from compoworld.tasks.criteria import MessageCriterion, StateCriterion
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from compoworld.train.export import rl_rows
from tests.agents_support import SERVICES, make_tasks

Judged = list[tuple[str, bool, str]]


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("tasks"), count=4)


@pytest.fixture(scope="module")
def tasks(tasks_path: Path) -> list[Task]:
    return read_tasks(tasks_path)


def _plays(task: Task) -> list[tuple[int, str]]:
    """How far into the solution each play goes, and its final answer.

    Nothing, half, up to the first write a criterion asks for, all without and with the answer.
    """
    n = len(task.solution)
    first = min(
        (c.step for c in task.criteria if isinstance(c, StateCriterion | MessageCriterion) and c.step is not None),
        default=0,
    )
    plays = [(0, ""), (n // 2, ""), (first + 1, ""), (n, ""), (n, task_answer(task))]
    return list(dict.fromkeys(plays))


class _Prefix(Policy):
    """The oracle's first ``steps`` calls, one bad call, then ``answer``."""

    name = "prefix"

    def __init__(self, steps: int, answer: str) -> None:
        self.steps, self.answer = steps, answer

    async def act(self, inp: TurnInput) -> PolicyTurn:
        if inp.turn < self.steps:
            return PolicyTurn(oracle_message(inp.task, inp.turn))
        if inp.turn == self.steps:
            bad = {"id": "bad", "type": "function", "function": {"name": "nope__tool", "arguments": "{}"}}
            return PolicyTurn({"role": "assistant", "content": None, "tool_calls": [bad]})
        return PolicyTurn({"role": "assistant", "content": self.answer or "Done."})


def _judged(verdicts: list[Any]) -> Judged:
    return [
        (v["id"], v["passed"], v["detail"]) if isinstance(v, dict) else (v.id, v.passed, v.detail) for v in verdicts
    ]


def _by_rollout(task: Task, steps: int, answer: str, tasks_path: Path) -> Judged:
    world = load_task_worlds([task], tasks_path=tasks_path)[task.world_seed]
    traj = asyncio.run(run_episode(world, task, _Prefix(steps, answer), rollout=0, config=RolloutConfig(max_turns=30)))
    assert any(c.error and c.error["type"] == "unknown_tool" for c in traj.calls)
    return _judged(traj.verdicts)


def _by_trl(task: Task, steps: int, answer: str, row: dict[str, Any]) -> Judged:
    env = CompoWorldToolEnvironment()
    env.reset(**row)
    for step in task.solution[:steps]:
        assert "error" not in json.loads(env.call_tool(step.tool, json.dumps(step.arguments)))
    assert json.loads(env.call_tool("nope__tool", "{}"))["error"]["type"] == "unknown_tool"
    env.submit_answer(answer)
    assert env.session is not None
    return _judged(env.session.verdicts())


def _by_http(task: Task, steps: int, answer: str, client: TestClient) -> Judged:
    sid = client.post("/sessions", json={"task_id": task.id}).json()["session_id"]
    for step in task.solution[:steps]:
        assert client.post(f"/sessions/{sid}/tools/{step.tool}", json=step.arguments).json()["ok"] is True
    assert client.post(f"/sessions/{sid}/tools/nope__tool", json={}).json()["error"]["type"] == "unknown_tool"
    evaluation = client.post(f"/sessions/{sid}/evaluate", json={"answer": answer}).json()
    client.delete(f"/sessions/{sid}")
    return _judged(evaluation["criteria"])


def test_rollout_trl_adapter_and_http_server_give_the_same_verdicts_for_the_same_play(
    tasks: list[Task], tasks_path: Path
) -> None:
    rows = {r["task_id"]: r for r in rl_rows(tasks, Catalog.load(SERVICES), "trl", services=SERVICES)}
    backend = ServeBackend(Catalog.load(SERVICES), tasks=tasks)
    with TestClient(create_app(backend, SessionManager(ServeLimits()))) as client:
        for task in tasks:
            outcomes = set()
            for steps, answer in _plays(task):
                rollout = _by_rollout(task, steps, answer, tasks_path)
                assert rollout == _by_trl(task, steps, answer, rows[task.id]) == _by_http(task, steps, answer, client)
                outcomes.add(tuple(passed for _, passed, _ in rollout))
            # The plays differ in what they achieve, so equal verdicts are not equal by accident: as many
            # outcomes as the task has steps that criteria judge, plus doing nothing (three at most).
            judged = {c.step for c in task.criteria if c.step is not None}
            assert len(outcomes) >= min(3, len(judged) + 1), outcomes


def test_a_session_refuses_tools_the_task_does_not_give_and_calls_after_the_answer(tasks: list[Task]) -> None:
    task = tasks[0]
    session = TaskSession(task, services=SERVICES, worlds=WorldCache())
    other = next(t for t in session.world.catalog.tools if t not in task.tools)
    refused = session.call(other, {})
    assert refused["ok"] is False and refused["error"]["type"] == "unknown_tool"
    malformed = session.call(task.solution[0].tool, "{not json")
    assert malformed["ok"] is False and malformed["error"]["type"] == "invalid_arguments"
    assert session.episode.diff(session.base).is_empty
    assert session.submit("done") and not session.submit("again")
    after = session.call(task.solution[0].tool, task.solution[0].arguments)
    assert after["ok"] is False and after["error"]["type"] == "rule_violation"
    assert (session.calls, session.errors) == (3, 3)
    session.reset()
    assert not session.done and session.calls == 0


def test_a_session_refuses_a_world_the_task_was_not_made_in(tasks: list[Task]) -> None:
    cache = WorldCache()
    with pytest.raises(ValueError, match="synthesized with catalog"):
        TaskSession(tasks[0], world=cache.world(["crm"], tasks[0].world_seed))
    other_seed = cache.world(SERVICES, tasks[0].world_seed + 1)
    with pytest.raises(ValueError, match="made in world"):
        TaskSession(tasks[0], world=other_seed)
