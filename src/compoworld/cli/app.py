"""The ``compoworld`` command line."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from compoworld.cli.agents import register as register_agent_commands
from compoworld.engine.catalog import Catalog
from compoworld.engine.errors import CatalogError
from compoworld.engine.openworld import WorldModel

__all__ = ["app"]

app = typer.Typer(help="CompoWorld: verifiable multi-service worlds for tool-using agents.", no_args_is_help=True)
catalog_app = typer.Typer(help="Browse the catalog of services and tools.", no_args_is_help=True)
bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True)
graph_app = typer.Typer(help="The tool dependency graph.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")
app.add_typer(bench_app, name="bench")
app.add_typer(graph_app, name="graph")

console = Console()
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="World seed.")]
WorldModelOpt = Annotated[
    str, typer.Option("--world-model", help="Answers of open-world tools: synthetic (offline), llm or replay.")
]
LLMBaseUrlOpt = Annotated[
    str | None, typer.Option("--llm-base-url", envvar="COMPOWORLD_LLM_BASE_URL", help="llm: OpenAI-compatible URL.")
]
LLMModelOpt = Annotated[str | None, typer.Option("--llm-model", envvar="COMPOWORLD_LLM_MODEL", help="llm: model.")]
LLMCacheOpt = Annotated[Path | None, typer.Option("--llm-cache", help="llm: SQLite answer cache file.")]
RecordingOpt = Annotated[Path | None, typer.Option("--recording", help="replay: the recording to answer from.")]


def _world_model(
    backend: str, base_url: str | None, model: str | None, cache: Path | None, recording: Path | None
) -> WorldModel:
    from pydantic import ValidationError

    from compoworld.agents.worldmodel import WorldModelConfig, make_world_model

    try:
        config = WorldModelConfig(
            backend=backend,
            base_url=base_url,
            model=model,
            cache_path=str(cache) if cache else None,
            recording=str(recording) if recording else None,
        )
        return make_world_model(config)
    except (ValidationError, ValueError, OSError) as exc:
        err.print(f"[red]world model:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _load(services: list[str] | None = None, *, render_schemas: bool = False) -> Catalog:
    try:
        return Catalog.load(services, render_schemas=render_schemas)
    except CatalogError as exc:
        err.print(f"[red]catalog error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


@catalog_app.command("stats")
def catalog_stats(as_json: JsonOpt = False) -> None:
    """Counts of services, tools, categories and resources."""
    stats = _load().stats()
    if as_json:
        _print_json(stats)
        return
    table = Table(title="CompoWorld catalog")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in stats.items():
        if not isinstance(value, dict):
            table.add_row(key, str(value))
    console.print(table)
    by_cat = Table(title="services by category")
    by_cat.add_column("category")
    by_cat.add_column("services", justify="right")
    for key, value in stats["services_by_category"].items():
        by_cat.add_row(key, str(value))
    console.print(by_cat)


@catalog_app.command("show")
def catalog_show(service: str, as_json: JsonOpt = False) -> None:
    """Show one service: what it models, its resources and its tools."""
    catalog = _load([service])
    svc = catalog.services[service]
    tools = catalog.tools_of(service)
    if as_json:
        _print_json(
            {
                "name": svc.name,
                "title": svc.title,
                "category": svc.category,
                "modeled_on": svc.modeled_on,
                "description": svc.description,
                "resources": [{"name": r.qualified, "table": r.table} for r in svc.resources],
                "tools": [
                    t.openai()["function"] | {"annotations": t.annotations.__repr__(), "intent": t.intent}
                    for t in tools
                ],
            }
        )
        return
    console.print(f"[bold]{svc.title}[/bold] ({svc.name}, {svc.category})")
    console.print(f"modeled on: {svc.modeled_on}")
    console.print(svc.description)
    console.print("resources: " + ", ".join(r.qualified for r in svc.resources))
    table = Table(title=f"{len(tools)} tools")
    for col in ("tool", "kind", "effects", "intent"):
        table.add_column(col)
    for t in tools:
        a = t.annotations
        effects = "read" if a.read_only else "write" + (", destructive" if a.destructive else "")
        if a.open_world:
            effects += ", open-world"
        table.add_row(t.name, t.kind, effects, t.intent)
    console.print(table)


@app.command("check")
def check(
    service: Annotated[list[str] | None, typer.Option("--service", help="Only this service (repeatable).")] = None,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Run the conformance suite over every tool (or one service's); exit 1 on any failure."""
    from compoworld.devtools.conformance import check_world
    from compoworld.world.world import World

    catalog = _load(service or None, render_schemas=True)
    world = World.build(catalog, seed=seed)
    results = list(check_world(world, service))
    failures = [r for r in results if not r.ok]
    per_check: Counter[str] = Counter(r.check for r in results)
    if as_json:
        _print_json(
            {
                "tools": len({r.tool for r in results}),
                "checks": len(results),
                "failures": [
                    r.__dict__ if hasattr(r, "__dict__") else {"tool": r.tool, "check": r.check, "detail": r.detail}
                    for r in failures
                ],
                "by_check": dict(per_check),
            }
        )
    else:
        by_tool: dict[str, list[str]] = defaultdict(list)
        for r in failures:
            by_tool[r.tool].append(f"{r.check}: {r.detail}")
        for tool, problems in sorted(by_tool.items()):
            err.print(f"[red]FAIL[/red] {tool}")
            for p in problems:
                err.print(f"    {escape(str(p))}")
        console.print(
            f"{len({r.tool for r in results})} tools, {len(results)} checks, "
            f"[{'red' if failures else 'green'}]{len(failures)} failed[/]"
        )
    if failures:
        raise typer.Exit(1)


@app.command("call")
def call_tool(
    tool: str,
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    seed: SeedOpt = 0,
    sqlite: Annotated[Path | None, typer.Option(help="Also export the episode's state to this SQLite file.")] = None,
    world_model: WorldModelOpt = "synthetic",
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = None,
    llm_cache: LLMCacheOpt = None,
    recording: RecordingOpt = None,
    save_recording: Annotated[
        Path | None, typer.Option(help="Write the open-world answers of this call to a recording file.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Call one tool on a fresh episode; print the result or error and the state diff."""
    from compoworld.engine.episode import Episode
    from compoworld.engine.registration import registered
    from compoworld.world.world import World

    model = _world_model(world_model, llm_base_url, llm_model, llm_cache, recording)
    # Load only the tool's service when the name says which; otherwise everything, for suggestions.
    service = tool.split("__", 1)[0]
    catalog = _load([service] if service in registered() else None)
    episode = Episode(World.build(catalog, seed=seed), world_model=model)
    result = episode.call(tool, arguments)
    out = result.to_dict() | {"diff": episode.diff().to_dict(), "state_hash": episode.state_hash()}
    if sqlite is not None:
        out["sqlite"] = str(episode.export_sqlite(sqlite))
    if save_recording is not None:
        out["recording"] = str(episode.recording.save(save_recording))
    if as_json:
        _print_json(out)
    else:
        console.print_json(json.dumps(out, ensure_ascii=False))
    if not result.ok:
        raise typer.Exit(1)


ServicesOpt = Annotated[
    list[str] | None, typer.Option("--service", help="Only these services (repeatable; default: all).")
]


@app.command("synth")
def synth(
    tasks: Annotated[int, typer.Option("--tasks", help="Tasks to keep.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Synthesis seed.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Output directory (resumed if it holds a run).")] = Path(
        "out/tasks"
    ),
    world_seed: Annotated[int, typer.Option("--world-seed", help="World seed.")] = 0,
    min_length: Annotated[int, typer.Option(help="Fewest steps per task.")] = 4,
    max_length: Annotated[int, typer.Option(help="Most steps per task.")] = 6,
    min_services: Annotated[int, typer.Option(help="Fewest services per task.")] = 2,
    max_services: Annotated[int, typer.Option(help="Most services per task.")] = 4,
    fan_in: Annotated[
        bool, typer.Option("--fan-in/--no-fan-in", help="Require a step using two earlier steps.")
    ] = False,
    open_world: Annotated[bool, typer.Option("--open-world/--no-open-world", help="Allow open-world steps.")] = True,
    distractors: Annotated[int, typer.Option(help="Tools shown beyond the solution's.")] = 8,
    service: ServicesOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = None,
) -> None:
    """Synthesize verified cross-service tasks into OUT/tasks.jsonl and OUT/stats.json (resumable).

    With --llm-base-url and --llm-model, instructions are rephrased by that endpoint and each rewrite is
    kept only if it passes every gate again.
    """
    from rich.progress import Progress

    from compoworld.agents.rewrite import InstructionRewriter
    from compoworld.tasks.synthesis import SynthConfig
    from compoworld.tasks.taskset import synthesize
    from compoworld.tasks.walk import WalkConfig

    if not (1 <= min_length <= max_length) or not (1 <= min_services <= max_services):
        err.print("[red]need 1 <= min-length <= max-length and 1 <= min-services <= max-services[/red]")
        raise typer.Exit(2)
    config = SynthConfig(
        walk=WalkConfig(
            min_length=min_length,
            max_length=max_length,
            min_services=min_services,
            max_services=max_services,
            fan_in=fan_in,
            open_world=open_world,
        ),
        distractors=distractors,
    )
    rewriter = None
    if llm_base_url or llm_model:
        if not (llm_base_url and llm_model):
            err.print("[red]instruction rewriting needs both --llm-base-url and --llm-model[/red]")
            raise typer.Exit(2)
        rewriter = InstructionRewriter(llm_base_url, llm_model)
    with Progress(console=err, transient=True) as bar:
        job = bar.add_task("synthesizing", total=tasks)

        def advance(kept: int, total: int) -> None:
            bar.update(job, completed=kept)

        try:
            stats = synthesize(
                out,
                count=tasks,
                seed=seed,
                world_seed=world_seed,
                config=config,
                services=service,
                progress=advance,
                rewriter=rewriter,
            )
        except (CatalogError, ValueError) as exc:
            err.print(f"[red]synth failed:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from exc
    console.print(f"kept {stats['kept']} of {tasks} tasks in {out}/tasks.jsonl; stats in {out}/stats.json")
    console.print(f"rejected: {stats['rejected']}")
    if stats["kept"] < tasks:
        raise typer.Exit(1)


@app.command("verify")
def verify(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    service: ServicesOpt = None,
) -> None:
    """Re-run every gate and criterion of every task on a fresh world; exit 1 naming failures."""
    from compoworld.tasks.taskset import verify_file

    try:
        checked, failures = verify_file(path, service)
    except (OSError, ValueError, CatalogError) as exc:
        err.print(f"[red]cannot verify {path}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    for f in failures:
        err.print(f"[red]FAIL[/red] {f.task_id}: {escape(f.reason)}")
    console.print(f"{checked} tasks, {len(failures)} failed")
    if failures:
        raise typer.Exit(1)


@app.command("render")
def render_tasks(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    out: Annotated[Path, typer.Option("--out", help="Directory for one Markdown file per task.")] = Path(
        "docs/examples"
    ),
    limit: Annotated[int, typer.Option(help="How many tasks.")] = 10,
) -> None:
    """Render tasks for a reader: instruction, given facts, solution with provenance, criteria."""
    from compoworld.tasks.taskset import read_tasks, render_markdown

    out.mkdir(parents=True, exist_ok=True)
    for task in read_tasks(path)[:limit]:
        (out / f"{task.id}.md").write_text(render_markdown(task))
    console.print(f"wrote {min(limit, len(read_tasks(path)))} task(s) to {out}")


@graph_app.command("stats")
def graph_stats(as_json: JsonOpt = False) -> None:
    """Size and connectivity of the dependency graph over every tool."""
    from compoworld.tasks.graph import ToolGraph

    stats = ToolGraph.build(_load()).stats()
    if as_json:
        _print_json(stats)
        return
    table = Table(title="tool dependency graph")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in stats.items():
        table.add_row(key, str(value))
    console.print(table)


@graph_app.command("export")
def graph_export(
    path: Annotated[Path, typer.Argument(help="File to write.")],
    fmt: Annotated[str, typer.Option("--format", help="json (node-link with field links) or graphml.")] = "json",
) -> None:
    """Write the dependency graph for other tools."""
    from compoworld.tasks.graph import ToolGraph

    if fmt not in ("json", "graphml"):
        err.print(f"[red]unknown format[/red] {escape(repr(fmt))}: use json or graphml")
        raise typer.Exit(2)
    graph = ToolGraph.build(_load())
    written = graph.export(path, "json" if fmt == "json" else "graphml")
    console.print(f"wrote {written} ({len(graph.tools)} tools, {len(graph.edges)} edges)")


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
        _print_json(out)
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
    as_json: JsonOpt = False,
) -> None:
    """Measure synthesis throughput with every gate applied, and the graph build time."""
    import time

    from compoworld.tasks.graph import ToolGraph
    from compoworld.tasks.synthesis import Synthesizer
    from compoworld.world.world import World

    catalog = _load()
    world = World.build(catalog, seed=0)
    start = time.perf_counter()
    catalog.render_schemas()  # once per process; agents' tool lists need them too
    render_s = time.perf_counter() - start
    start = time.perf_counter()
    graph = ToolGraph.build(catalog)
    graph_s = time.perf_counter() - start
    synth = Synthesizer(world, graph)
    start = time.perf_counter()
    kept = sum(1 for _, task, _ in synth.tasks(0, tasks) if task is not None)
    elapsed = time.perf_counter() - start
    out = {
        "tasks": kept,
        "seconds": round(elapsed, 3),
        "tasks_per_s": round(kept / elapsed, 2) if elapsed else 0.0,
        "graph_build_s": round(graph_s, 3),
        "schema_render_s": round(render_s, 3),
        "graph_tools": len(graph.tools),
        "graph_edges": len(graph.edges),
    }
    if as_json:
        _print_json(out)
    else:
        console.print(out)


@app.command("tour")
def tour(seed: SeedOpt = 0) -> None:
    """Load the whole catalog, print its summary and run one scripted multi-service episode."""
    from compoworld.devtools.tour import DemoError, run_demo

    try:
        run_demo(console, seed=seed)
    except DemoError as exc:
        err.print(f"[red]demo failed:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc


serve_app = typer.Typer(
    help="Serve the services over MCP or HTTP (needs the package's serve extra).",
    no_args_is_help=True,
)
app.add_typer(serve_app, name="serve")
ServeServicesOpt = Annotated[
    list[str] | None, typer.Option("--services", help="Services to serve, comma-separated or repeated (default: all).")
]
TokenOpt = Annotated[
    str | None,
    typer.Option("--token", envvar="COMPOWORLD_TOKEN", help="Bearer token required of clients (needed off loopback)."),
]
MaxSessionsOpt = Annotated[int, typer.Option("--max-sessions", min=1, help="Live sessions at most.")]
IdleOpt = Annotated[float, typer.Option("--idle-timeout", min=0.1, help="Seconds before an idle session is dropped.")]
MaxBodyOpt = Annotated[int, typer.Option("--max-body-bytes", min=1024, help="Largest request body.")]


def _serve(run: Any, **kwargs: Any) -> None:
    from compoworld.serve.commands import StartError

    try:
        run(**kwargs)
    except StartError as exc:
        err.print(f"[red]cannot serve:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in {"mcp", "mcp_types", "fastapi", "starlette", "uvicorn"}:
            raise
        err.print(f"[red]serving needs the package's serve extra[/red] (mcp, fastapi, uvicorn): {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except KeyboardInterrupt:
        pass


@serve_app.command("mcp")
def serve_mcp(
    services: ServeServicesOpt = None,
    task: Annotated[
        str | None, typer.Option("--task", help="Serve one task: FILE:ID (its tools plus a submit tool).")
    ] = None,
    http: Annotated[
        str | None, typer.Option("--http", help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio.")
    ] = None,
    seed: SeedOpt = 0,
    token: TokenOpt = None,
    max_sessions: MaxSessionsOpt = 256,
    idle_timeout: IdleOpt = 900.0,
    max_body_bytes: MaxBodyOpt = 1_000_000,
    page_size: Annotated[int, typer.Option("--page-size", min=1, help="Tools per tools/list page.")] = 100,
) -> None:
    """Serve services (or one task) over MCP: stdio by default, one private episode per session."""
    from compoworld.serve.commands import parse_services, run_mcp
    from compoworld.serve.sessions import ServeLimits

    limits = ServeLimits(max_sessions=max_sessions, idle_timeout_s=idle_timeout, max_body_bytes=max_body_bytes)
    _serve(
        run_mcp,
        services=parse_services(services),
        task=task,
        seed=seed,
        http=http,
        token=token,
        limits=limits,
        page_size=page_size,
    )


@serve_app.command("http")
def serve_http(
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8765,
    services: ServeServicesOpt = None,
    tasks: Annotated[
        list[Path] | None, typer.Option("--tasks", help="A tasks.jsonl file whose tasks sessions may use (repeatable).")
    ] = None,
    seed: SeedOpt = 0,
    token: TokenOpt = None,
    max_sessions: MaxSessionsOpt = 256,
    idle_timeout: IdleOpt = 900.0,
    max_body_bytes: MaxBodyOpt = 1_000_000,
) -> None:
    """Serve the HTTP/OpenAPI API: sessions, tool calls, diffs, snapshots, task evaluation."""
    from compoworld.serve.commands import parse_services, run_http
    from compoworld.serve.sessions import ServeLimits

    limits = ServeLimits(max_sessions=max_sessions, idle_timeout_s=idle_timeout, max_body_bytes=max_body_bytes)
    _serve(
        run_http,
        host=host,
        port=port,
        services=parse_services(services),
        task_files=tasks or [],
        seed=seed,
        token=token,
        limits=limits,
    )


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
        _print_json(out)
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


register_agent_commands(app)


def main() -> None:
    """Entry point."""
    app()


if __name__ == "__main__":
    main()
