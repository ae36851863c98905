"""Synthesis on Ray actors writes what a local run writes, byte for byte, even when an actor dies mid-run.

Runs on a local Ray with 2 workers (the ``ray`` extra, installed by ``make test``).
"""

from __future__ import annotations

import filecmp
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compoworld.tasks.taskset import synthesize

ray = pytest.importorskip("ray")

from compoworld.adapters.ray import RayExecutor  # noqa: E402 - only once Ray is known to be there

FILES = ("tasks.jsonl", "stats.json", "progress.json")
COUNT = 24
SEED = 5


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local")
    synthesize(out, count=COUNT, seed=SEED)
    return out


@pytest.fixture(scope="module")
def executor() -> Iterator[RayExecutor]:
    pool = RayExecutor(workers=2)
    yield pool
    pool.close()


def _same(a: Path, b: Path) -> None:
    for name in FILES:
        assert filecmp.cmp(a / name, b / name, shallow=False), f"{name} differs"


def test_synthesis_on_ray_writes_the_local_runs_files_byte_for_byte(
    local_run: Path, executor: RayExecutor, tmp_path: Path
) -> None:
    stats = synthesize(tmp_path, count=COUNT, seed=SEED, executor=executor)
    assert stats["kept"] == COUNT
    _same(local_run, tmp_path)


def test_an_actor_killed_mid_run_is_replaced_and_the_files_do_not_change(
    local_run: Path, executor: RayExecutor, tmp_path: Path
) -> None:
    killed: list[int] = []

    def kill_one(kept: int, count: int) -> None:
        if kept == COUNT // 3 and not killed:
            killed.append(kept)
            ray.kill(executor.actors[0])

    before = executor.replaced
    synthesize(tmp_path, count=COUNT, seed=SEED, executor=executor, progress=kill_one)
    assert killed and executor.replaced == before + 1
    _same(local_run, tmp_path)


def test_a_killed_ray_run_resumes_to_the_same_files(local_run: Path, executor: RayExecutor, tmp_path: Path) -> None:
    class Stop(Exception):
        pass

    def stop(kept: int, count: int) -> None:
        if kept == COUNT // 2:
            raise Stop

    with pytest.raises(Stop):
        synthesize(tmp_path, count=COUNT, seed=SEED, executor=executor, progress=stop)
    synthesize(tmp_path, count=COUNT, seed=SEED, executor=executor)
    _same(local_run, tmp_path)


def test_rollouts_on_ray_with_an_actor_killed_mid_run_make_every_episode_exactly_once(
    local_run: Path, executor: RayExecutor, tmp_path: Path
) -> None:
    from compoworld.agents.factory import make_policy
    from compoworld.agents.rollout import RolloutConfig, read_trajectories, run_rollouts

    config = RolloutConfig(group_size=2, concurrency=2, seed=1)
    tasks = local_run / "tasks.jsonl"
    local = run_rollouts(tasks, make_policy("oracle"), tmp_path / "local", config, limit=8)
    killed: list[int] = []

    def kill_one(n: int) -> None:
        killed.append(n)
        if len(killed) == 5:
            ray.kill(executor.actors[-1])

    before = executor.replaced
    remote = run_rollouts(
        tasks,
        make_policy("oracle"),
        tmp_path / "ray",
        config,
        limit=8,
        executor=executor,
        policy_spec={"spec": "oracle"},
        progress=kill_one,
    )
    assert executor.replaced == before + 1
    assert remote.done_now == local.done_now == 16 and not remote.failures
    here = read_trajectories(tmp_path / "local")
    there = read_trajectories(tmp_path / "ray")
    assert sorted(t.key for t in there) == sorted(t.key for t in here)
    assert len({t.key for t in there}) == len(there)
    by_key = {t.key: t for t in here}

    def calls(t: Any) -> list[tuple[str, str, bool]]:
        return [(c.tool, c.arguments, c.ok) for c in t.calls]

    assert all(t.success == by_key[t.key].success and calls(t) == calls(by_key[t.key]) for t in there)

    # Scoring the run on the actors, a few groups per shard, gives the local summary and rows.
    from compoworld.tasks.rewards import RewardConfig
    from compoworld.train.scoring import score_trajectories

    scheme = RewardConfig(scheme="completion_focused")
    assert score_trajectories(there, scheme, executor=executor, shard=3) == score_trajectories(there, scheme)


def test_workers_that_cannot_start_stop_the_job_with_their_error(executor: RayExecutor) -> None:
    from compoworld.tasks.synthesis import SynthConfig

    init = {"seed": 0, "world_seed": 0, "config": SynthConfig(), "services": ["no_such_service"]}
    with pytest.raises(RuntimeError, match="no_such_service"):
        list(executor.imap("compoworld.tasks.parallel:SynthWorker", init, "draw", range(4)))


def test_verify_on_ray_finds_what_a_local_verify_finds(local_run: Path, executor: RayExecutor, tmp_path: Path) -> None:
    from compoworld.tasks.taskset import verify_file

    lines = (local_run / "tasks.jsonl").read_text().splitlines()
    # Two tasks that no longer hold: made in another world, as far as the file says.
    for i in (3, 17):
        task = json.loads(lines[i])
        task["world_version"] = "0" * len(task["world_version"])
        lines[i] = json.dumps(task)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    here = verify_file(tasks)
    there = verify_file(tasks, executor=executor, chunk=5)
    assert here == there and here[0] == COUNT and len(here[1]) == 2


def test_rollouts_against_an_endpoint_on_ray_keep_each_workers_concurrency_bound(
    local_run: Path, executor: RayExecutor, tmp_path: Path
) -> None:
    import threading

    from compoworld.agents.factory import make_policy
    from compoworld.agents.rollout import RolloutConfig, run_rollouts
    from compoworld.devtools.testing import ScriptedChatServer
    from tests.agents_support import oracle_responder

    tasks = local_run / "tasks.jsonl"
    answer = oracle_responder(tasks, delay_s=0.05)
    lock = threading.Lock()
    now = peak = 0

    def counted(request: dict[str, Any]) -> Any:
        nonlocal now, peak
        with lock:
            now += 1
            peak = max(peak, now)
        try:
            return answer(request)
        finally:
            with lock:
                now -= 1

    with ScriptedChatServer(responder=counted) as server:
        spec: dict[str, Any] = {"spec": "openai", "base_url": server.url, "model": "oracle", "temperature": 0.0}
        result = run_rollouts(
            tasks,
            make_policy(**spec),
            tmp_path / "run",
            RolloutConfig(concurrency=3),
            limit=12,
            executor=executor,
            policy_spec=spec,
        )
    assert result.complete and result.done_now == 12 and not result.failures
    assert 2 <= peak <= executor.workers * 3
