"""The task commands: ``synth``, ``verify``, ``render`` and ``graph stats``/``export``.

They make task sets, check and show them, and expose the tool dependency
graph that synthesis walks.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from compoworld.cli.common import (
    ExecutorOpt,
    JsonOpt,
    LLMBaseUrlOpt,
    LLMModelOpt,
    RayAddressOpt,
    SkipBadLinesOpt,
    WorkersOpt,
    console,
    err,
    file_errors,
    load_catalog,
    make_executor,
    print_json,
)
from compoworld.engine.errors import CatalogError

if TYPE_CHECKING:
    from compoworld.agents.rewrite import InstructionRewriter
    from compoworld.tasks.parallel import Executor
    from compoworld.tasks.split import Split
    from compoworld.tasks.synthesis import SynthConfig

__all__ = ["graph_app", "render_tasks", "synth", "verify"]

graph_app = typer.Typer(help="The tool dependency graph.", no_args_is_help=True)

ServicesOpt = Annotated[
    list[str] | None, typer.Option("--service", help="Only these services (repeatable; default: all).")
]


def synth(
    tasks: Annotated[int, typer.Option("--tasks", help="Tasks to keep.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Synthesis seed.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Output directory (resumed if it holds a run).")] = Path(
        "out/tasks"
    ),
    world_seed: Annotated[int, typer.Option("--world-seed", help="World seed.")] = 0,
    min_length: Annotated[
        int | None,
        typer.Option(help="Fewest steps per task, its closing message included [default: 3; 6 with --patterns]."),
    ] = None,
    max_length: Annotated[
        int | None, typer.Option(help="Most steps per task [default: 6; 10 with --patterns].")
    ] = None,
    min_services: Annotated[int, typer.Option(help="Fewest services per task.")] = 2,
    max_services: Annotated[int, typer.Option(help="Most services per task.")] = 4,
    fan_in: Annotated[
        bool, typer.Option("--fan-in/--no-fan-in", help="Require a step using two earlier steps.")
    ] = False,
    open_world: Annotated[bool, typer.Option("--open-world/--no-open-world", help="Allow open-world steps.")] = True,
    distractors: Annotated[int, typer.Option(help="Tools shown beyond the solution's.")] = 8,
    patterns: Annotated[
        str,
        typer.Option(
            "--patterns",
            help="Difficulty patterns applied where they fit: 'none', 'all' or names separated by commas "
            "(policy: a rule table in a spreadsheet decides a choice; conditional: the table keys on two "
            "values; recency: dated rows, the newest wins; aggregation: how many records someone has (or "
            "what they add up to) decides a choice or is told in the message; exclusion: records on hold, closed "
            "or opted out are skipped when picking or counting; conversion: an amount in another currency than the "
            "books, or a due date in working days, converted with the world's exchange-rate or holiday service; "
            "crossref: a person's value the work copies is stale, the source of truth named by a rule holds "
            "another; softmatch: a person or company named loosely, found by search; batch: the same work on "
            "several records, those the opening event happened to or those a lookup finds; decoys: a near-duplicate of a record the task acts on, to be left alone).",
        ),
    ] = "none",
    service: ServicesOpt = None,
    cover: Annotated[
        bool,
        typer.Option(
            "--cover/--no-cover",
            help="Make one task in four a coverage task: one service to use, the catalog's in turn, opening "
            "with an event or starting cold, so that the set covers services few walks reach (off: every task "
            "opens with an event where one can be made, and walks gather where events are carried over).",
        ),
    ] = True,
    triggers: Annotated[
        bool,
        typer.Option(
            "--triggers/--no-triggers",
            help="Open each task with an event on the record it starts from (off: tasks follow the recipe prior "
            "from any start, which services whose records see no event need).",
        ),
    ] = True,
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="train: synthesize without the held-out services; eval: only tasks touching one, drawn from "
            "indices 1,000,000 on (apart from training's with the same --seed).",
        ),
    ] = None,
    holdout: Annotated[
        list[str] | None,
        typer.Option(
            "--holdout", help="With --split: a held-out service (repeatable; default: one in five, by name hash)."
        ),
    ] = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = None,
    skip_bad_lines: SkipBadLinesOpt = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    workers: WorkersOpt = 2,
) -> None:
    """Synthesize verified cross-service tasks into OUT/tasks.jsonl and OUT/stats.json (resumable).

    A resume needs the settings OUT was made with, keeps every valid line and repairs only a torn last line;
    a damaged line stops it (exit 1) unless --skip-bad-lines moves it to OUT/tasks.jsonl.bad, in which case
    synthesis carries on after the last index it drew (that line's index is not made again).

    With --llm-base-url and --llm-model, instructions are rephrased by that endpoint and each rewrite is
    kept only if it passes every gate again.

    With --executor ray, indices are drawn by Ray actors (each loads the world once) and committed here in
    order: the files are the same, byte for byte, as a local run's.
    """
    chosen = _patterns(patterns)
    min_length, max_length = _lengths(min_length, max_length, bool(chosen))
    if not (1 <= min_length <= max_length) or not (1 <= min_services <= max_services):
        err.print("[red]need 1 <= min-length <= max-length and 1 <= min-services <= max-services[/red]")
        raise typer.Exit(2)
    config = _synth_config(min_length, max_length, min_services, max_services, fan_in, open_world, distractors)
    from compoworld.tasks.synthesis import COVER_SHARE

    config = dataclasses.replace(
        config,
        patterns=chosen,
        cover=COVER_SHARE if cover else 0.0,
        walk=dataclasses.replace(config.walk, trigger=triggers),
    )
    rewriter = _rewriter(llm_base_url, llm_model)
    pool = make_executor(executor, ray_address, workers)
    try:
        stats = _synthesize(
            out,
            tasks,
            seed,
            world_seed,
            config,
            service,
            rewriter,
            skip_bad_lines,
            _split(split, service, holdout),
            pool,
        )
    finally:
        if pool is not None:
            pool.close()
    if stats["skipped_lines_this_run"]:
        err.print(
            f"[yellow]moved {stats['skipped_lines_this_run']} damaged line(s) to {escape(stats['bad_lines_file'])}; "
            "the tasks they held are not made again; later indices make up the count[/yellow]",
            soft_wrap=True,
        )
    console.print(f"kept {stats['kept']} of {tasks} tasks in {out}/tasks.jsonl; stats in {out}/stats.json")
    console.print(f"rejected: {stats['rejected']}")
    if stats["kept"] < tasks:
        raise typer.Exit(1)


def _lengths(min_length: int | None, max_length: int | None, patterned: bool) -> tuple[int, int]:
    """The walk lengths asked for, the defaults filled in: longer walks when patterns are applied."""
    from compoworld.tasks.synthesis import PATTERNED_WALK
    from compoworld.tasks.walk import WalkConfig

    default = PATTERNED_WALK if patterned else WalkConfig()
    # One bound given: the other default gives way to it rather than contradict it.
    low = min(default.min_length, max_length or default.min_length) if min_length is None else min_length
    return low, max(default.max_length, low) if max_length is None else max_length


def _synth_config(
    min_length: int,
    max_length: int,
    min_services: int,
    max_services: int,
    fan_in: bool,
    open_world: bool,
    distractors: int,
) -> SynthConfig:
    from compoworld.tasks.synthesis import SynthConfig
    from compoworld.tasks.walk import WalkConfig

    walk = WalkConfig(
        min_length=min_length,
        max_length=max_length,
        min_services=min_services,
        max_services=max_services,
        fan_in=fan_in,
        open_world=open_world,
    )
    return SynthConfig(walk=walk, distractors=distractors)


def _patterns(value: str) -> tuple[str, ...]:
    """The patterns ``--patterns`` names; exit 2 naming the known ones on an unknown name."""
    from compoworld.tasks.patterns import PATTERNS

    names = [n.strip() for n in value.split(",") if n.strip()]
    if names in ([], ["none"]):
        return ()
    if names == ["all"]:
        return PATTERNS
    unknown = [n for n in names if n not in PATTERNS]
    if unknown:
        err.print(f"[red]unknown pattern(s) {', '.join(unknown)}; use none, all or some of {', '.join(PATTERNS)}[/red]")
        raise typer.Exit(2)
    return tuple(dict.fromkeys(names))


def _split(name: str | None, services: list[str] | None, holdout: list[str] | None) -> Split | None:
    """The split ``--split`` names; exit 2 saying what is wrong with it."""
    from compoworld.tasks.split import Split

    if name is None:
        if holdout:
            err.print("[red]--holdout needs --split train or --split eval[/red]")
            raise typer.Exit(2)
        return None
    try:
        return Split.make(name, services, holdout)
    except (ValueError, CatalogError) as exc:
        err.print(f"[red]--split:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _rewriter(base_url: str | None, model: str | None) -> InstructionRewriter | None:
    from compoworld.agents.rewrite import InstructionRewriter

    if not (base_url or model):
        return None
    if not (base_url and model):
        err.print("[red]instruction rewriting needs both --llm-base-url and --llm-model[/red]")
        raise typer.Exit(2)
    return InstructionRewriter(base_url, model)


def _synthesize(
    out: Path,
    count: int,
    seed: int,
    world_seed: int,
    config: SynthConfig,
    services: list[str] | None,
    rewriter: InstructionRewriter | None,
    skip_bad_lines: bool,
    split: Split | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    from rich.progress import Progress

    from compoworld.tasks.taskset import synthesize

    with Progress(console=err, transient=True) as bar:
        job = bar.add_task("synthesizing", total=count)

        def advance(kept: int, total: int) -> None:
            bar.update(job, completed=kept)

        try:
            with file_errors("--skip-bad-lines"):
                return synthesize(
                    out,
                    count=count,
                    seed=seed,
                    world_seed=world_seed,
                    config=config,
                    services=services,
                    progress=advance,
                    rewriter=rewriter,
                    skip_bad_lines=skip_bad_lines,
                    split=split,
                    executor=executor,
                )
        except (CatalogError, ValueError) as exc:
            err.print(f"[red]synth failed:[/red] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(2) from exc


def verify(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    service: ServicesOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    ray_workers: WorkersOpt = 2,
) -> None:
    """Re-run every gate and criterion of every task on a fresh world; exit 1 naming failures.

    With --executor ray, chunks of tasks are checked by Ray actors (each builds the worlds once).
    """
    from compoworld.tasks.taskset import verify_file

    pool = make_executor(executor, ray_address, ray_workers)
    try:
        with file_errors():
            checked, failures = verify_file(path, service, executor=pool)
    except typer.Exit:
        raise
    except (OSError, ValueError, CatalogError, RuntimeError) as exc:  # RuntimeError: Ray workers that keep dying
        err.print(f"[red]cannot verify {path}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    finally:
        if pool is not None:
            pool.close()
    for f in failures:
        err.print(f"[red]FAIL[/red] {f.task_id}: {escape(f.reason)}")
    console.print(f"{checked} tasks, {len(failures)} failed")
    if failures:
        raise typer.Exit(1)


def audit(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    service: ServicesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Measure how much a task set reads like real work (identity, roles, transitions, verbs, messages, wording)."""
    from compoworld.tasks.taskset import audit_file

    try:
        with file_errors():
            report = audit_file(path, service)
    except (OSError, ValueError, CatalogError) as exc:
        err.print(f"[red]cannot audit {path}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    if as_json:
        print_json(report.to_dict())
        return
    table = Table(title=f"{report.tasks} tasks in {path}")
    for column in ("metric", "value", "count", "target", "met"):
        table.add_column(column)
    for name, metric in report.metrics.items():
        d = metric.to_dict()
        shown = "—" if d["value"] is None else f"{d['value']:.1%}"
        met = {True: "[green]yes[/green]", False: "[red]no[/red]", None: "—"}[d["met"]]
        table.add_row(name, shown, f"{d['count']} of {d['of']} {d['unit']}", d["target"], met)
    console.print(table)
    for name, metric in report.metrics.items():
        for task_id, detail in metric.examples[:2] if metric.met is False else []:
            console.print(f"  {name}: {task_id}: {escape(detail)}", soft_wrap=True)
    if set(report.by_pattern) - {"none"}:
        patterns = Table(title=f"By difficulty pattern ({report.negative_share:.1%} of all criteria are negatives)")
        for column in ("pattern", "tasks", "mean length", "mean criteria", "negatives"):
            patterns.add_column(column)
        for name, row in report.by_pattern.items():
            patterns.add_row(
                name,
                str(int(row["tasks"])),
                f"{row['mean_length']:.2f}",
                f"{row['mean_criteria']:.2f}",
                f"{row['negative_criteria_share']:.1%}",
            )
        console.print(patterns)


def render_tasks(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    out: Annotated[Path, typer.Option("--out", help="Directory for one Markdown file per task.")] = Path(
        "docs/examples"
    ),
    limit: Annotated[int, typer.Option(help="How many tasks.")] = 10,
) -> None:
    """Render tasks for a reader: instruction, given facts, solution with provenance, criteria."""
    from compoworld.tasks.taskset import read_tasks, render_markdown

    with file_errors():
        chosen = read_tasks(path)[:limit]
    out.mkdir(parents=True, exist_ok=True)
    for task in chosen:
        (out / f"{task.id}.md").write_text(render_markdown(task))
    console.print(f"wrote {len(chosen)} task(s) to {out}")


@graph_app.command("stats")
def graph_stats(as_json: JsonOpt = False) -> None:
    """Size and connectivity of the dependency graph over every tool."""
    from compoworld.tasks.graph import ToolGraph

    stats = ToolGraph.build(load_catalog()).stats()
    if as_json:
        print_json(stats)
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
    graph = ToolGraph.build(load_catalog())
    written = graph.export(path, "json" if fmt == "json" else "graphml")
    console.print(f"wrote {written} ({len(graph.tools)} tools, {len(graph.edges)} edges)")


def discovery_recall(
    path: Annotated[Path, typer.Argument(help="A tasks.jsonl file.")],
    service: ServicesOpt = None,
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=20, help="The cut-off: recall at K.")] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Tool discovery: how often the oracle's first search query finds each solution tool in the top K, per service."""
    from compoworld.agents.discovery import discovery_recall_file

    try:
        with file_errors():
            report = discovery_recall_file(path, service, k=top_k)
    except ImportError as exc:
        err.print(f"[red]discovery-recall:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except (OSError, ValueError, KeyError, CatalogError) as exc:
        err.print(f"[red]cannot measure {path}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    data = report.to_dict()
    if as_json:
        print_json(data)
        return
    key = f"recall_at_{top_k}"
    table = Table(title=f"recall@{top_k} of the oracle's first queries over {report.tools} tools ({path})")
    for column in ("service", "queries", "found", f"recall@{top_k}"):
        table.add_column(column, justify="left" if column == "service" else "right")
    for name, row in data["per_service"].items():
        table.add_row(name, str(row["queries"]), str(row["found"]), f"{row[key]:.1%}")
    table.add_row("[bold]all[/bold]", str(data["queries"]), str(data["found"]), f"[bold]{data[key]:.1%}[/bold]")
    console.print(table)
    for miss in data["misses"][:5]:
        rank = "not found" if miss["rank"] is None else f"rank {miss['rank']}"
        console.print(f"  missed {miss['tool']} ({rank}): {escape(miss['query'])}", soft_wrap=True)
