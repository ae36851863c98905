"""Resuming a rollout never drops a finished trajectory: a damaged line stops it, or is moved aside and run again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld.agents.policies import OraclePolicy
from compoworld.agents.rollout import RolloutConfig, run_rollouts
from compoworld.engine import jsonl as resumable
from tests.agents_support import jsonl, make_tasks
from tests.taskfile_support import damage_middle_line, kill_after

GROUP = 60


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("tasks"), count=6)


def _rollout(tasks_path: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "compoworld.cli",
        "rollout",
        "--tasks",
        str(tasks_path),
        "--policy",
        "oracle",
        "--group-size",
        str(GROUP),
        "--concurrency",
        "4",
        "--out",
        str(out),
    ]


def test_a_killed_rollout_with_a_corrupt_middle_line_refuses_then_skips_it_with_each_key_once(
    tasks_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    target = out / "trajectories.jsonl"
    kill_after(_rollout(tasks_path, out), target, lines=20)
    damaged, valid = damage_middle_line(target, 7)

    refused = subprocess.run(_rollout(tasks_path, out), capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert [line for line in refused.stderr.splitlines() if line.strip()] == [refused.stderr.strip()]
    assert "Traceback" not in refused.stderr
    assert "trajectories.jsonl:7: line 7 " in refused.stderr and "--skip-bad-lines" in refused.stderr
    assert target.read_bytes() == damaged

    done = subprocess.run([*_rollout(tasks_path, out), "--skip-bad-lines"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "moved 1 damaged line(s)" in done.stderr
    assert target.read_bytes().splitlines(keepends=True)[: len(valid)] == valid  # before and after it, byte for byte
    rows = jsonl(target)
    keys = [(r["task_id"], r["rollout"]) for r in rows]
    assert len(keys) == len(set(keys)) == 6 * GROUP
    assert all(r["success"] for r in rows)
    moved = json.loads((out / "trajectories.jsonl.bad").read_text())
    assert moved["line"] == 7 and moved["text"].encode() + b"\n" == damaged.splitlines(keepends=True)[6]


def test_run_rollouts_refuses_a_damaged_trajectory_file_unless_told_to_skip(tasks_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = RolloutConfig(concurrency=2)
    run_rollouts(tasks_path, OraclePolicy(), out, config, limit=3)
    target = out / "trajectories.jsonl"
    lines = target.read_bytes().splitlines(keepends=True)
    target.write_bytes(lines[0] + b'{"task_id": "t1"}\n' + b"".join(lines[1:]))
    damaged = target.read_bytes()
    with pytest.raises(resumable.BadLines, match=r"trajectories\.jsonl:2: ") as caught:
        run_rollouts(tasks_path, OraclePolicy(), out, config, limit=3)
    assert caught.value.bad_path == out / "trajectories.jsonl.bad"
    assert target.read_bytes() == damaged
    again = run_rollouts(tasks_path, OraclePolicy(), out, config, limit=3, skip_bad_lines=True)
    assert (again.done_before, again.done_now, again.skipped_lines) == (3, 0, 1)
    assert again.bad_lines_file == out / "trajectories.jsonl.bad"
    assert target.read_bytes() == b"".join(lines)
