"""The catalog commands: ``catalog stats``/``show``, ``check``, ``call`` and ``tour``.

They look at the services themselves: what the catalog holds, whether every
tool conforms, what one call does, and a scripted episode across services.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from compoworld.cli.common import (
    JsonOpt,
    LLMBaseUrlOpt,
    LLMCacheOpt,
    LLMModelOpt,
    RecordingOpt,
    SeedOpt,
    WorldModelOpt,
    build_world_model,
    console,
    err,
    load_catalog,
    print_json,
)

if TYPE_CHECKING:
    from compoworld.devtools.conformance import CheckResult
    from compoworld.engine.catalog import Catalog

__all__ = ["call_tool", "catalog_app", "check", "tour"]

catalog_app = typer.Typer(help="Browse the catalog of services and tools.", no_args_is_help=True)


@catalog_app.command("stats")
def catalog_stats(as_json: JsonOpt = False) -> None:
    """Counts of services, tools, categories and resources."""
    stats = load_catalog().stats()
    if as_json:
        print_json(stats)
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


@catalog_app.command("coverage")
def catalog_coverage(as_json: JsonOpt = False) -> None:
    """The share of real automation usage (public n8n workflows' apps) whose kind of app the catalog serves."""
    from compoworld.tasks.prior import RecipePrior, usage_coverage

    catalog = load_catalog()
    out = usage_coverage(RecipePrior.default().with_catalog(catalog), catalog)
    if as_json:
        print_json(out)
        return
    table = Table(title=f"usage coverage {out['coverage']:.1%} of {out['workflows']} app uses in n8n workflows")
    table.add_column("n8n category")
    table.add_column("app uses", justify="right")
    table.add_column("our category")
    table.add_column("served")
    rows = [(k, v, True) for k, v in out["served"].items()] + [(k, v, False) for k, v in out["unserved"].items()]
    for n8n, v, hit in sorted(rows, key=lambda r: -r[1]["workflows"]):
        table.add_row(n8n, str(v["workflows"]), v["category"] or "-", "yes" if hit else "no")
    console.print(table)


@catalog_app.command("show")
def catalog_show(service: str, as_json: JsonOpt = False) -> None:
    """Show one service: what it models, its resources and its tools."""
    catalog = load_catalog([service])
    if as_json:
        print_json(_service_json(catalog, service))
    else:
        _print_service(catalog, service)


def _service_json(catalog: Catalog, service: str) -> dict[str, Any]:
    svc = catalog.services[service]
    return {
        "name": svc.name,
        "title": svc.title,
        "category": svc.category,
        "modeled_on": svc.modeled_on,
        "description": svc.description,
        "resources": [{"name": r.qualified, "table": r.table} for r in svc.resources],
        "tools": [
            t.openai()["function"] | {"annotations": t.annotations.__repr__(), "intent": t.intent}
            for t in catalog.tools_of(service)
        ],
    }


def _print_service(catalog: Catalog, service: str) -> None:
    svc = catalog.services[service]
    tools = catalog.tools_of(service)
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


def check(
    service: Annotated[list[str] | None, typer.Option("--service", help="Only this service (repeatable).")] = None,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Run the conformance suite over every tool (or one service's); exit 1 on any failure."""
    from compoworld.devtools.conformance import check_world
    from compoworld.world.world import World

    catalog = load_catalog(service or None, render_schemas=True)
    world = World.build(catalog, seed=seed)
    results = list(check_world(world, service))
    failures = [r for r in results if not r.ok]
    if as_json:
        print_json(_check_json(results, failures))
    else:
        _print_check(results, failures)
    if failures:
        raise typer.Exit(1)


def _check_json(results: list[CheckResult], failures: list[CheckResult]) -> dict[str, Any]:
    per_check: Counter[str] = Counter(r.check for r in results)
    return {
        "tools": len({r.tool for r in results}),
        "checks": len(results),
        "failures": [
            r.__dict__ if hasattr(r, "__dict__") else {"tool": r.tool, "check": r.check, "detail": r.detail}
            for r in failures
        ],
        "by_check": dict(per_check),
    }


def _print_check(results: list[CheckResult], failures: list[CheckResult]) -> None:
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

    model = build_world_model(world_model, llm_base_url, llm_model, llm_cache, recording)
    # Load only the tool's service when the name says which; otherwise everything, for suggestions.
    service = tool.split("__", 1)[0]
    catalog = load_catalog([service] if service in registered() else None)
    episode = Episode(World.build(catalog, seed=seed), world_model=model)
    result = episode.call(tool, arguments)
    out = result.to_dict() | {"diff": episode.diff().to_dict(), "state_hash": episode.state_hash()}
    if sqlite is not None:
        out["sqlite"] = str(episode.export_sqlite(sqlite))
    if save_recording is not None:
        out["recording"] = str(episode.recording.save(save_recording))
    if as_json:
        print_json(out)
    else:
        console.print_json(json.dumps(out, ensure_ascii=False))
    if not result.ok:
        raise typer.Exit(1)


def tour(seed: SeedOpt = 0) -> None:
    """Load the whole catalog, print its summary and run one scripted multi-service episode."""
    from compoworld.devtools.tour import DemoError, run_demo

    try:
        run_demo(console, seed=seed)
    except DemoError as exc:
        err.print(f"[red]demo failed:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc
