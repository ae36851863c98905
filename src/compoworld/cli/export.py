"""The dataset commands: ``export sft`` and ``export rl``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from compoworld.cli.common import console, err, file_errors

__all__ = ["export_app"]

export_app = typer.Typer(help="Training datasets from runs and task sets.", no_args_is_help=True)


@export_app.command("sft")
def export_sft_cmd(
    runs: Annotated[list[Path], typer.Option("--runs", help="Run directories (repeat the option for several).")],
    out: Annotated[Path, typer.Option("--out", help="Output directory.")],
    parquet: Annotated[bool, typer.Option("--parquet/--no-parquet", help="Also write Parquet.")] = True,
    tools: Annotated[
        str, typer.Option("--tools", help="Tool schemas: full, compact or slim (for small contexts).")
    ] = "full",
) -> None:
    """Write the trajectories that met every criterion as {"messages", "tools"} rows (JSONL, Parquet).

    A run made with `compoworld rollout --discovery` exports its searches and call_tool calls as they
    happened, with the two meta-tools as the row's tools.
    """
    from compoworld.train.export import export_sft

    if tools not in ("full", "compact", "slim"):
        err.print(f"[red]--tools must be full, compact or slim, not {escape(repr(tools))}[/red]")
        raise typer.Exit(2)
    try:
        info = export_sft(runs, out, parquet=parquet, tool_detail=tools)  # type: ignore[arg-type]  # checked above
    except (ValueError, FileNotFoundError, ImportError) as exc:
        err.print(f"[red]export failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    console.print(
        f"{info['rows']} SFT rows from {info['successful']} successful of {info['trajectories']} trajectories: "
        + ", ".join(info["files"].values())
    )


@export_app.command("rl")
def export_rl_cmd(
    tasks: Annotated[Path, typer.Option("--tasks", help="A tasks.jsonl file.")],
    fmt: Annotated[str, typer.Option("--format", help="trl or verl.")],
    out: Annotated[Path, typer.Option("--out", help="Output directory.")],
    parquet: Annotated[bool, typer.Option("--parquet/--no-parquet", help="Also write Parquet.")] = True,
    discovery: Annotated[
        bool,
        typer.Option("--discovery", help="Tool discovery mode: every row's tools are search_tools and call_tool."),
    ] = False,
) -> None:
    """Write one RL row per task in the shape TRL's GRPO trainer or verl's RL dataset reads."""
    from compoworld.train.export import export_rl

    try:
        with file_errors():
            info = export_rl(tasks, out, fmt, parquet=parquet, discovery=discovery)  # type: ignore[arg-type]  # checked by export_rl
    except (ValueError, FileNotFoundError, ImportError) as exc:
        err.print(f"[red]export failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    console.print(f"{info['rows']} {fmt} rows: " + ", ".join(info["files"].values()))
