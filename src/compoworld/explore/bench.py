"""How fast the explorer's pages are on a large task set and run: ``compoworld bench explore``.

A task file and its runs are grown to ``size`` tasks and ``size`` trajectories per run
by repeating their lines under new ids (each line keeps its real content and size),
indexed once (timed: the cold start), and every kind of page is then requested
through the app in-process, several times each; the median and the worst time count.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compoworld.agents.rollout import RUN_INFO, TRAJECTORIES
from compoworld.engine.catalog import Catalog
from compoworld.tasks.taskset import task_set_services

__all__ = ["PAGE_TARGET_MS", "bench_explore", "grow_run", "grow_tasks"]

PAGE_TARGET_MS = 300.0
"""The slowest a page may be (docs/design.md's explorer target)."""


def grow_tasks(source: Path, out: Path, size: int) -> list[str]:
    """Write ``size`` tasks to ``out``: the source's, repeated under ids suffixed ``-r<k>``; copies ``stats.json``.

    Returns:
        The ids written, in order.
    """
    tasks = [json.loads(x) for x in source.read_text().splitlines() if x.strip()]
    if not tasks:
        raise ValueError(f"{source} holds no tasks")
    out.parent.mkdir(parents=True, exist_ok=True)
    ids = []
    with out.open("w") as fh:
        for k in range(size):
            task = dict(tasks[k % len(tasks)])
            task["id"] = f"{task['id']}-r{k // len(tasks)}"
            task["index"] = k
            ids.append(task["id"])
            fh.write(json.dumps(task) + "\n")
    stats = source.parent / "stats.json"
    if stats.exists():
        shutil.copy(stats, out.parent / "stats.json")
    return ids


def grow_run(source: Path, out: Path, tasks_path: Path, rounds: int, size: int) -> None:
    """Write ``size`` trajectories to ``out``: the source run's, with task ids of each ``-r<k>`` round of tasks."""
    lines = [json.loads(x) for x in (source / TRAJECTORIES).read_text().splitlines() if x.strip()]
    if not lines:
        raise ValueError(f"{source / TRAJECTORIES} holds no trajectories")
    out.mkdir(parents=True, exist_ok=True)
    info = json.loads((source / RUN_INFO).read_text()) if (source / RUN_INFO).exists() else {}
    info["tasks_path"] = str(tasks_path)
    (out / RUN_INFO).write_text(json.dumps(info))
    written = 0
    with (out / TRAJECTORIES).open("w") as fh:
        for k in range(rounds):
            for t in lines:
                if written == size:
                    return
                fh.write(json.dumps({**t, "task_id": f"{t['task_id']}-r{k}"}) + "\n")
                written += 1


def _time(client: Any, url: str, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        res = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        if res.status_code != 200:
            raise RuntimeError(f"{url} answered {res.status_code}: {res.text[:300]}")
    return statistics.median(times), max(times)


def bench_explore(
    tasks: Path, runs: Sequence[Path], *, size: int = 10_000, repeat: int = 5, workdir: Path | None = None
) -> dict[str, Any]:
    """Grow a task file and runs to ``size``, index them and time every kind of page.

    Args:
        tasks: A ``tasks.jsonl``.
        runs: Run folders rolled out on it.
        size: Tasks, and trajectories per run, to grow to.
        repeat: Requests per page.
        workdir: Where the grown files go (default: a temporary folder, removed after).

    Returns:
        ``index_s`` (cold indexing), ``open_s`` (warm start), per page its median and worst
        milliseconds, and ``targets_met``.
    """
    from fastapi.testclient import TestClient

    from compoworld.explore.app import create_app
    from compoworld.explore.store import Explorer

    own = workdir is None
    root = Path(tempfile.mkdtemp(prefix="explore-bench-")) if workdir is None else workdir
    try:
        grown = root / "tasks" / "tasks.jsonl"
        ids = grow_tasks(tasks, grown, size)
        base = len({i.rsplit("-r", 1)[0] for i in ids})
        rounds = -(-size // base)
        for run in runs:
            grow_run(run, root / "runs" / run.name, grown, rounds, size)
        catalog = Catalog.load(task_set_services(grown))
        start = time.perf_counter()
        Explorer.open([grown], [root / "runs"], catalog)
        index_s = time.perf_counter() - start
        start = time.perf_counter()
        explorer = Explorer.open([grown], [root / "runs"], catalog)
        open_s = time.perf_counter() - start
        client = TestClient(create_app(explorer))
        first = json.loads(grown.open().readline())
        run_name = runs[0].name if runs else ""
        failed = explorer.runs[run_name].task_ids(failed_only=True) if run_name else []
        service = first["metadata"]["services"][0]
        tool = first["solution"][0]["tool"]
        last_task_page = -(-size // 50)
        pages = {
            "catalog": "/catalog",
            "search": "/catalog?q=update+status",
            "service": f"/catalog/{service}",
            "tool": f"/tools/{tool}",
            "tasks": "/tasks",
            "tasks_filtered": f"/tasks?service={service}&min_length=3&text=the",
            "tasks_last_page": f"/tasks?page={last_task_page}",
            "task": f"/tasks/0/{ids[-1]}",
            "runs": "/runs",
            "runs_failed_last_page": "/runs?failed=1&page=1000000",
            "playground": f"/playground?task={ids[-1]}",
        }
        if failed:
            pages["trajectory"] = f"/runs/{run_name}/{failed[-1]}/0"
        client.get("/tools/" + tool)  # the dependency graph is built once, on the first tool page
        timings = {name: _time(client, url, repeat) for name, url in pages.items()}
        out: dict[str, Any] = {
            "tasks": explorer.task_files[0].count(),
            "trajectories": sum(r.count() for r in explorer.runs.values()),
            "index_s": round(index_s, 2),
            "open_s": round(open_s, 3),
            "pages_ms": {k: {"median": round(m, 1), "max": round(x, 1)} for k, (m, x) in timings.items()},
        }
        out["targets_met"] = {k: m <= PAGE_TARGET_MS for k, (m, _) in timings.items()}
        return out
    finally:
        if own:
            shutil.rmtree(root, ignore_errors=True)
