"""Synthesis on Ray actors writes what a local run writes, byte for byte, even when an actor dies mid-run.

Runs on a local Ray with 2 workers (the ``ray`` extra, installed by ``make test``).
"""

from __future__ import annotations

import filecmp
from collections.abc import Iterator
from pathlib import Path

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
