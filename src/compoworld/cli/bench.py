"""The benchmark commands: ``bench engine``, ``bench synth``, ``bench serve`` and ``bench explore``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from compoworld.cli.common import (
    ExecutorOpt,
    JsonOpt,
    RayAddressOpt,
    WorkersOpt,
    console,
    load_catalog,
    make_executor,
    print_json,
)

if TYPE_CHECKING:
    from compoworld.tasks.parallel import Executor

__all__ = ["bench_app"]

bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True)


@bench_app.command("engine")
def bench_engine_cmd(
    seconds: Annotated[float, typer.Option(help="Seconds per throughput measurement.")] = 1.0,
    episodes: Annotated[int, typer.Option(help="Live episodes in the memory measurement.")] = 10_000,
    as_json: JsonOpt = False,
) -> None:
    """Measure call throughput, state-operation latency, episode memory and load time."""
    from compoworld.devtools.bench import bench_engine

    out = bench_engine(seconds=seconds, episodes=episodes)
    if as_json:
        print_json(out)
        return
    table = Table(title="engine benchmark")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target met")
    for key, value in out.items():
        if key != "targets_met":
            met = out["targets_met"].get(key)
            table.add_row(key, str(value), "" if met is None else ("yes" if met else "[red]no[/red]"))
    console.print(table)


@bench_app.command("synth")
def bench_synth_cmd(
    tasks: Annotated[int, typer.Option(help="Tasks to synthesize.")] = 200,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    workers: WorkersOpt = 2,
    as_json: JsonOpt = False,
) -> None:
    """Measure synthesis throughput with every gate applied, and the graph build time.

    With --executor ray, `compoworld synth`'s loop is timed twice in this run, locally and on Ray actors
    (started and loaded before the clock starts), on the same tasks: both rates, the speed-up, and whether
    the two runs wrote the same files.
    """
    pool = make_executor(executor, ray_address, workers)
    if pool is not None:
        try:
            out = _measure_executor(tasks, pool)
        finally:
            pool.close()
    else:
        out = _measure_synthesis(tasks)
    if as_json:
        print_json(out)
    else:
        console.print(out)


def _measure_synthesis(tasks: int) -> dict[str, Any]:
    import time

    from compoworld.engine.heap import settled
    from compoworld.tasks.graph import ToolGraph
    from compoworld.tasks.synthesis import Synthesizer
    from compoworld.world.world import World

    catalog = load_catalog()
    world = World.build(catalog, seed=0)
    start = time.perf_counter()
    catalog.render_schemas()  # once per process; agents' tool lists need them too
    render_s = time.perf_counter() - start
    start = time.perf_counter()
    _ = world.version  # the world's hash, once per world: part of building it, as its records are
    version_s = time.perf_counter() - start
    start = time.perf_counter()
    graph = ToolGraph.build(catalog)
    graph_s = time.perf_counter() - start
    synth = Synthesizer(world, graph)
    # As `compoworld synth` runs it: the catalog, world and graph out of the cyclic collector's way.
    with settled():
        start = time.perf_counter()
        kept = sum(1 for _, task, _ in synth.tasks(0, tasks) if task is not None)
        elapsed = time.perf_counter() - start
    return {
        "tasks": kept,
        "seconds": round(elapsed, 3),
        "tasks_per_s": round(kept / elapsed, 2) if elapsed else 0.0,
        "graph_build_s": round(graph_s, 3),
        "schema_render_s": round(render_s, 3),
        "world_version_s": round(version_s, 3),
        "graph_tools": len(graph.tools),
        "graph_edges": len(graph.edges),
    }


def _measure_executor(tasks: int, pool: Executor) -> dict[str, Any]:
    import filecmp
    import tempfile
    from pathlib import Path

    from compoworld.tasks.synthesis import SynthConfig
    from compoworld.tasks.taskset import synthesize

    with tempfile.TemporaryDirectory() as tmp:
        local_dir, pool_dir = Path(tmp) / "local", Path(tmp) / "executor"
        local = synthesize(local_dir, count=tasks, seed=0)
        warm = getattr(pool, "warm", None)
        if warm is not None:
            init = {"seed": 0, "world_seed": 0, "config": SynthConfig(), "services": None}
            warm("compoworld.tasks.parallel:SynthWorker", init)
        remote = synthesize(pool_dir, count=tasks, seed=0, executor=pool)
        same = all(filecmp.cmp(local_dir / f, pool_dir / f, shallow=False) for f in ("tasks.jsonl", "stats.json"))
    rate, pooled = local["tasks_per_s_this_run"], remote["tasks_per_s_this_run"]
    return {
        "tasks": local["kept"],
        "workers": pool.workers,
        "local_tasks_per_s": rate,
        "executor_tasks_per_s": pooled,
        "speedup": round(pooled / rate, 2) if rate else 0.0,
        "identical_files": same,
    }


@bench_app.command("serve")
def bench_serve_cmd(
    clients: Annotated[int, typer.Option(help="Concurrent clients, one session each.")] = 32,
    calls: Annotated[int, typer.Option(help="Tool calls per round.")] = 20_000,
    rounds: Annotated[int, typer.Option(min=1, help="Load rounds; sessions expire after each.")] = 2,
    idle_timeout: Annotated[float, typer.Option(help="The server's idle timeout; sessions are left to expire.")] = 2.0,
    as_json: JsonOpt = False,
) -> None:
    """Load-test the HTTP server on loopback: calls/s, lost calls, isolation, peak and post-expiry memory."""
    from compoworld.serve.bench import bench_serve

    out = bench_serve(clients=clients, calls=calls, rounds=rounds, idle_timeout_s=idle_timeout)
    if as_json:
        print_json(out)
    else:
        table = Table(title="HTTP server load test")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, value in out.items():
            if key != "per_round":
                table.add_row(key, str(value))
        console.print(table)
    if out["lost"] or out["failed"] or not out["isolated"] or out["server_counted"] != out["calls"]:
        raise typer.Exit(1)


@bench_app.command("explore")
def bench_explore_cmd(
    tasks: Annotated[Path, typer.Option("--tasks", help="A tasks.jsonl to grow (e.g. out/demo/tasks/tasks.jsonl).")],
    runs: Annotated[list[Path], typer.Option("--runs", help="A run folder rolled out on it (repeatable).")],
    size: Annotated[int, typer.Option("--size", min=1, help="Tasks, and trajectories per run, to grow to.")] = 10_000,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Requests per page.")] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Time the explorer's pages on a task set and runs grown to SIZE lines each (needs the serve extra)."""
    from compoworld.explore.bench import bench_explore

    out = bench_explore(tasks, runs, size=size, repeat=repeat)
    if as_json:
        print_json(out)
        return
    table = Table(title=f"explorer pages: {out['tasks']} tasks, {out['trajectories']} trajectories")
    table.add_column("page")
    table.add_column("median ms", justify="right")
    table.add_column("worst ms", justify="right")
    table.add_column("target met")
    for name, t in out["pages_ms"].items():
        table.add_row(name, str(t["median"]), str(t["max"]), "yes" if out["targets_met"][name] else "[red]no[/red]")
    console.print(table)
    console.print(f"cold indexing {out['index_s']} s, warm start {out['open_s']} s")
