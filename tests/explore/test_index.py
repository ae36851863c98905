"""The explorer's on-disk indexes: built once, reused, rebuilt on change, and filtering like a scan would."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from compoworld.explore.index import INDEX_SUFFIX, RunIndex, TaskFilter, TaskIndex, first_failed, index_path


def _tasks(root: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (root / "tasks" / "tasks.jsonl").read_text().splitlines()]


def test_a_task_index_is_kept_beside_the_file_and_reused_until_the_file_changes(
    explore_data: Path, tmp_path: Path
) -> None:
    src = tmp_path / "tasks.jsonl"
    shutil.copy(explore_data / "tasks" / "tasks.jsonl", src)
    first = TaskIndex(src)
    assert first.path == src.with_name("tasks.jsonl" + INDEX_SUFFIX) and first.path.exists()
    assert first.count() == 12
    built = first.path.stat().st_mtime_ns
    again = TaskIndex(src)
    assert again.path.stat().st_mtime_ns == built  # reused, not rebuilt
    lines = src.read_text().splitlines(keepends=True)
    src.write_text("".join(lines[:5]))
    assert TaskIndex(src).count() == 5  # the file shrank: rebuilt


def test_each_task_is_read_back_whole_from_its_offset(explore_data: Path) -> None:
    index = TaskIndex(explore_data / "tasks" / "tasks.jsonl")
    for task in _tasks(explore_data):
        assert index.get(str(task["id"])) == task
    assert index.get("t-nope") is None


@pytest.mark.parametrize(
    "flt",
    [
        TaskFilter(service="shop"),
        TaskFilter(min_length=6),
        TaskFilter(max_length=5, service="crm"),
        TaskFilter(min_writes=3),
        TaskFilter(text="please"),
    ],
)
def test_filters_pick_what_a_scan_of_the_file_picks(explore_data: Path, flt: TaskFilter) -> None:
    index = TaskIndex(explore_data / "tasks" / "tasks.jsonl")

    def keep(t: dict[str, object]) -> bool:
        meta = t["metadata"]
        assert isinstance(meta, dict)
        return (
            (not flt.service or flt.service in meta["services"])
            and (flt.min_length is None or meta["length"] >= flt.min_length)
            and (flt.max_length is None or meta["length"] <= flt.max_length)
            and (flt.min_writes is None or meta["writes"] >= flt.min_writes)
            and all(w in str(t["instruction"]).lower() for w in flt.text.lower().split())
        )

    want = [t["id"] for t in _tasks(explore_data) if keep(t)]
    got = [r["id"] for r in index.rows(flt, limit=1000)]
    assert got == want and index.matching(flt) == len(want)
    patterns = {p for t in _tasks(explore_data) for p in t["patterns"]}  # type: ignore[attr-defined]
    assert set(index.facets()["patterns"]) == patterns


def test_a_damaged_line_or_a_repeated_id_is_named_with_its_line(explore_data: Path, tmp_path: Path) -> None:
    lines = (explore_data / "tasks" / "tasks.jsonl").read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "{not json\n")
    with pytest.raises(ValueError, match=r"bad.jsonl:2: not a task line"):
        TaskIndex(bad)
    assert not list(tmp_path.glob("*.tmp"))  # a failed build leaves no half index behind
    bad.write_text(lines[0] + lines[1] + lines[0])
    with pytest.raises(ValueError, match=r"bad.jsonl:3: task .* is repeated"):
        TaskIndex(bad)


def test_a_read_only_folder_keeps_its_index_in_the_cache(
    explore_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "access", lambda path, mode: False)  # root may write anywhere
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(explore_data / "tasks" / "tasks.jsonl", folder / "tasks.jsonl")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder.chmod(0o555)
    try:
        path = index_path(folder / "tasks.jsonl")
        assert path.parent == tmp_path / "cache" / "compoworld" / "explore"
        assert TaskIndex(folder / "tasks.jsonl").count() == 12
    finally:
        folder.chmod(0o755)


def test_a_run_index_counts_rollouts_and_knows_its_task_file(explore_data: Path) -> None:
    run = RunIndex(explore_data / "runs" / "random")
    lines = [json.loads(x) for x in (explore_data / "runs" / "random" / "trajectories.jsonl").read_text().splitlines()]
    assert run.count() == len(lines) == 24
    assert run.tasks_path == (explore_data / "tasks" / "tasks.jsonl").resolve()
    summary = run.summary()
    assert summary["policy"] == "random" and summary["trajectories"] == 24
    assert summary["success"] == sum(t["success"] for t in lines) / 24
    failed = run.task_ids(failed_only=True)
    assert failed == list(dict.fromkeys(t["task_id"] for t in lines if not t["success"]))
    rolls = run.by_task(failed[:1])[failed[0]]
    assert [r["rollout"] for r in rolls] == [0, 1]
    one = next(t for t in lines if t["task_id"] == failed[0] and not t["success"])
    assert rolls[one["rollout"]]["first_failed"] == first_failed(one["verdicts"])


def test_the_first_failed_criterion_prefers_a_positive_one() -> None:
    verdicts = [
        {"id": "c0", "kind": "no_collateral", "passed": False},
        {"id": "c1", "kind": "state", "passed": True},
        {"id": "c2", "kind": "transition", "passed": False},
    ]
    assert first_failed(verdicts) == "c2"
    assert first_failed(verdicts[:2]) == "c0"
    assert first_failed(verdicts[1:2]) is None
