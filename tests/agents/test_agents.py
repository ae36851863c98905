"""Agents end to end: policies, rollouts through the real openai client, scoring, exports, reports."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compoworld.agents.policies import OpenAIPolicy, OraclePolicy, RandomPolicy
from compoworld.agents.rollout import RolloutConfig, load_task_worlds, read_trajectories, run_episode, run_rollouts
from compoworld.devtools.testing import ScriptedChatServer
from compoworld.tasks.rewards import RewardConfig
from compoworld.tasks.taskset import read_tasks
from compoworld.train.scoring import score_run
from tests.agents_support import jsonl, make_tasks, oracle_responder


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("tasks"), count=12)


@pytest.mark.parametrize("hermes", [False, True], ids=["native-tool-calls", "hermes-text"])
def test_the_oracle_through_the_openai_client_completes_every_task_and_random_far_fewer(
    tasks_path: Path, tmp_path: Path, hermes: bool
) -> None:
    with ScriptedChatServer(responder=oracle_responder(tasks_path, hermes=hermes)) as server:
        policy = OpenAIPolicy(base_url=server.url, model="oracle", temperature=0.0)
        result = run_rollouts(tasks_path, policy, tmp_path / "oracle", RolloutConfig(concurrency=4))
    assert result.complete and not result.failures
    run_rollouts(tasks_path, RandomPolicy(), tmp_path / "random", RolloutConfig(group_size=4, concurrency=4))
    oracle = score_run(tmp_path / "oracle", RewardConfig(scheme="binary"))
    random = score_run(tmp_path / "random", RewardConfig(scheme="binary"))
    assert oracle["trajectories"] == 12 and oracle["completion_rate"] == 1.0
    assert oracle["criterion_pass_rate"] == 1.0
    assert random["trajectories"] == 48
    assert random["completion_rate"] <= 0.1
    assert random["criterion_pass_rate"] < 0.5
    for summary in (oracle, random):
        assert set(summary["criterion_pass_rates"]) >= {"state", "no_collateral"}
    trajs = read_trajectories(tmp_path / "oracle")
    # The conversation is in the OpenAI format, and the endpoint saw the task's tools.
    first = trajs[0]
    assert [m["role"] for m in first.messages[:3]] == ["system", "user", "assistant"]
    assert first.messages[2]["tool_calls"][0]["function"]["name"] == first.calls[0].tool
    assert first.messages[3]["role"] == "tool" and first.messages[3]["tool_call_id"] == first.calls[0].id
    assert first.stop == "answer" and first.success and first.diff
    assert all(len(t.calls) == t.metadata["length"] for t in trajs)


def test_in_process_oracle_matches_the_endpoint_oracle(tasks_path: Path, tmp_path: Path) -> None:
    run_rollouts(tasks_path, OraclePolicy(), tmp_path / "a", RolloutConfig())
    with ScriptedChatServer(responder=oracle_responder(tasks_path)) as server:
        run_rollouts(tasks_path, OpenAIPolicy(base_url=server.url, model="o"), tmp_path / "b", RolloutConfig())
    a, b = read_trajectories(tmp_path / "a"), read_trajectories(tmp_path / "b")
    assert [t.diff for t in a] == [t.diff for t in b]
    assert [[c.result for c in t.calls] for t in a] == [[c.result for c in t.calls] for t in b]


def _episode(tasks_path: Path, replies: list[object], max_turns: int = 6):  # type: ignore[no-untyped-def]
    task = read_tasks(tasks_path)[0]
    world = load_task_worlds([task], tasks_path=tasks_path)[task.world_seed]
    with ScriptedChatServer(replies) as server:  # type: ignore[arg-type]
        policy = OpenAIPolicy(base_url=server.url, model="m", max_retries=2)
        traj = asyncio.run(run_episode(world, task, policy, rollout=0, config=RolloutConfig(max_turns=max_turns)))
        asyncio.run(policy.aclose())
    return task, traj


def test_malformed_model_output_becomes_errors_the_agent_reads(tasks_path: Path) -> None:
    tool = task_first_tool(tasks_path)
    _, traj = _episode(
        tasks_path,
        [
            "<tool_call>\n{not json}\n</tool_call>",
            '<tool_call>\n{"name": "no_such_tool", "arguments": {}}\n</tool_call>',
            {"tool_calls": [{"id": "x1", "type": "function", "function": {"name": tool, "arguments": "{bad"}}]},
            '<tool_call>\n{"name": "' + tool + '", "arguments": {"limit": "many"}}\n</tool_call>',
            "I am done.",
        ],
    )
    errors = [c.error["type"] for c in traj.calls if c.error]
    assert errors == ["invalid_arguments", "unknown_tool", "invalid_arguments", "invalid_arguments"]
    tool_messages = [m for m in traj.messages if m["role"] == "tool"]
    assert len(tool_messages) == 4 and all('"error"' in m["content"] for m in tool_messages)
    assert traj.stop == "answer" and traj.answer == "I am done."
    assert not traj.success and traj.diff == {}


def task_first_tool(tasks_path: Path) -> str:
    """A list tool of the first task (it takes a limit)."""
    task = read_tasks(tasks_path)[0]
    return next((t for t in task.tools if "__list_" in t), task.tools[0])


def test_an_agent_that_never_answers_stops_at_the_turn_limit(tasks_path: Path) -> None:
    call = {
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": task_first_tool(tasks_path), "arguments": "{}"}}
        ]
    }
    _, traj = _episode(tasks_path, [call] * 3, max_turns=3)
    assert traj.stop == "turn_limit" and traj.answer is None and traj.turns == 3
    assert len(traj.calls) == 3 and not traj.success


def test_endpoint_errors_are_retried_and_a_dead_endpoint_records_nothing(tasks_path: Path, tmp_path: Path) -> None:
    _, traj = _episode(tasks_path, [503, 503, "Nothing to do."])
    assert traj.stop == "answer" and traj.answer == "Nothing to do."
    # A dead endpoint: every episode fails, none is written, the run says so; once it is back, the rerun completes.
    with ScriptedChatServer() as server:
        dead_url = server.url
    policy = OpenAIPolicy(base_url=dead_url, model="m", max_retries=1, timeout_s=2)
    result = run_rollouts(tasks_path, policy, tmp_path / "run", RolloutConfig(concurrency=2), limit=3)
    assert result.done_now == 0 and len(result.failures) == 3 and not result.complete
    assert not (tmp_path / "run" / "trajectories.jsonl").read_text()
    with ScriptedChatServer(responder=oracle_responder(tasks_path)) as server:
        policy = OpenAIPolicy(base_url=server.url, model="m")
        again = run_rollouts(tasks_path, policy, tmp_path / "run", RolloutConfig(concurrency=2), limit=3)
    assert again.complete and again.done_now == 3


def test_a_run_with_other_settings_is_refused(tasks_path: Path, tmp_path: Path) -> None:
    run_rollouts(tasks_path, OraclePolicy(), tmp_path / "r", RolloutConfig(), limit=2)
    with pytest.raises(ValueError, match="group_size"):
        run_rollouts(tasks_path, OraclePolicy(), tmp_path / "r", RolloutConfig(group_size=2), limit=2)


def test_killing_rollout_midway_then_rerunning_gives_one_trajectory_per_task_and_rollout(
    tasks_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    traj_file = out / "trajectories.jsonl"
    with ScriptedChatServer(responder=oracle_responder(tasks_path, delay_s=0.03)) as server:
        cmd = [
            sys.executable,
            "-m",
            "compoworld.cli",
            "rollout",
            "--tasks",
            str(tasks_path),
            "--policy",
            "openai",
            "--base-url",
            server.url,
            "--model",
            "oracle",
            "--group-size",
            "3",
            "--concurrency",
            "4",
            "--out",
            str(out),
        ]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if traj_file.exists() and len(traj_file.read_text().splitlines()) >= 5:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        before = len(jsonl(traj_file))
        assert 5 <= before < 36, "the run must be killed midway"
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    rows = jsonl(traj_file)
    keys = [(r["task_id"], r["rollout"]) for r in rows]
    assert len(keys) == len(set(keys)) == 12 * 3
    assert all(r["success"] for r in rows)
