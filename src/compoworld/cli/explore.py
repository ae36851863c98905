"""``compoworld explore``: the explorer web app over the catalog, task files and runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from compoworld.cli.common import SeedOpt, err

__all__ = ["explore"]


def explore(
    tasks: Annotated[
        list[Path] | None, typer.Option("--tasks", help="A tasks.jsonl file to show (repeatable).")
    ] = None,
    runs: Annotated[
        list[Path] | None,
        typer.Option("--runs", help="A run folder (with trajectories.jsonl), or a folder of them (repeatable)."),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8770,
    token: Annotated[
        str | None,
        typer.Option("--token", envvar="COMPOWORLD_TOKEN", help="Token required of browsers (needed off loopback)."),
    ] = None,
    seed: SeedOpt = 0,
) -> None:
    """Browse the catalog, task files and runs in a web browser, and play tools by hand (needs the serve extra)."""
    try:
        from compoworld.explore import Explorer
        from compoworld.explore.app import run_explorer
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in {"fastapi", "starlette", "uvicorn", "jinja2"}:
            raise
        err.print(
            f"[red]the explorer needs the package's serve extra[/red] (fastapi, uvicorn, jinja2): {escape(str(exc))}"
        )
        raise typer.Exit(2) from exc
    from compoworld.serve.security import InsecureBind

    try:
        explorer = Explorer.open(tasks or [], runs or [])
    except (OSError, ValueError) as exc:
        err.print(f"[red]cannot open:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    err.print(
        f"indexed {sum(f.count() for f in explorer.task_files)} tasks in {len(explorer.task_files)} files, "
        f"{sum(r.count() for r in explorer.runs.values())} trajectories in {len(explorer.runs)} runs"
    )
    try:
        run_explorer(explorer, host=host, port=port, token=token, seed=seed)
    except InsecureBind as exc:
        err.print(f"[red]cannot serve:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except OSError as exc:
        err.print(f"[red]cannot listen on {escape(host)}:{port}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    except KeyboardInterrupt:
        pass
