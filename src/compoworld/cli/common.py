"""What the command groups share: the consoles, common option types and small helpers.

The helpers turn the package's own errors into a red line on stderr: exit
status 2 for a bad catalog or world model, exit status 1 for a task file that
cannot be used or a resumable file with damaged lines, so that every command
reports them alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from compoworld.engine.catalog import Catalog
from compoworld.engine.errors import CatalogError
from compoworld.engine.openworld import WorldModel

if TYPE_CHECKING:
    from compoworld.tasks.parallel import Executor

__all__ = [
    "ExecutorOpt",
    "JsonOpt",
    "LLMBaseUrlOpt",
    "LLMCacheOpt",
    "LLMModelOpt",
    "RayAddressOpt",
    "RecordingOpt",
    "SeedOpt",
    "SkipBadLinesOpt",
    "WorkersOpt",
    "WorldModelOpt",
    "build_world_model",
    "console",
    "err",
    "file_errors",
    "load_catalog",
    "make_executor",
    "print_json",
]

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
ExecutorOpt = Annotated[
    str, typer.Option("--executor", help="Where the work runs: local (this process) or ray (Ray actors).")
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option("--ray-address", help="ray: a running cluster's address (default: RAY_ADDRESS, else a local Ray)."),
]
WorkersOpt = Annotated[int, typer.Option("--ray-workers", min=1, help="ray: actors, one CPU each.")]
SkipBadLinesOpt = Annotated[
    bool,
    typer.Option(
        "--skip-bad-lines",
        help="Resume past damaged lines of the output file: keep every valid line, move bad ones to FILE.bad.",
    ),
]


def make_executor(kind: str, address: str | None, workers: int) -> Executor | None:
    """The executor the ``--executor`` options name (None for local: the sequential path).

    Args:
        kind: ``local`` or ``ray``.
        address: ray: the cluster's address, or None.
        workers: ray: actors.

    Returns:
        The executor, or None for local.

    Raises:
        typer.Exit: with status 2 for an unknown kind or when Ray is missing.
    """
    if kind == "local":
        if address is not None:
            err.print("[red]--ray-address needs --executor ray[/red]")
            raise typer.Exit(2)
        return None
    if kind != "ray":
        err.print(f"[red]unknown executor[/red] {escape(repr(kind))}: use local or ray")
        raise typer.Exit(2)
    from compoworld.adapters.ray import RayExecutor

    try:
        return RayExecutor(address=address, workers=workers)
    except (RuntimeError, ValueError, ConnectionError) as exc:
        err.print(f"[red]ray executor:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def build_world_model(
    backend: str, base_url: str | None, model: str | None, cache: Path | None, recording: Path | None
) -> WorldModel:
    """Make the world model that the world-model options describe.

    Args:
        backend: synthetic, llm or replay.
        base_url: llm: the OpenAI-compatible endpoint.
        model: llm: the model.
        cache: llm: the SQLite answer cache file.
        recording: replay: the recording to answer from.

    Returns:
        The world model.

    Raises:
        typer.Exit: with status 2 when the options do not make a world model.
    """
    # Imported on use, so that commands without a world model never load the agents layer.
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


def load_catalog(services: list[str] | None = None, *, render_schemas: bool = False) -> Catalog:
    """Load the catalog, or some services of it.

    Args:
        services: The services to load (None: all).
        render_schemas: Render the tools' JSON Schemas now.

    Returns:
        The catalog.

    Raises:
        typer.Exit: with status 2 when the catalog does not load.
    """
    try:
        return Catalog.load(services, render_schemas=render_schemas)
    except CatalogError as exc:
        err.print(f"[red]catalog error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def print_json(data: Any) -> None:
    """Print data as indented JSON with sorted keys, for the ``--json`` options.

    Args:
        data: Anything ``json.dumps`` accepts.
    """
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


@contextmanager
def file_errors(skip_option: str | None = None) -> Iterator[None]:
    """Report a task file that cannot be used, or a damaged resumable file, as one red line and exit status 1.

    Args:
        skip_option: The command's option that resumes past damaged lines, named in the message.

    Raises:
        typer.Exit: with status 1 for a ``TaskFileError`` or ``BadLines`` raised inside.
    """
    # Imported on use: only commands that read task sets pay for loading the tasks layer.
    from compoworld.engine.jsonl import BadLines
    from compoworld.tasks.taskset import TaskFileError

    try:
        yield
    except TaskFileError as exc:
        # soft_wrap: the message stays one line whatever the terminal's width.
        err.print(f"[red]task file error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from exc
    except BadLines as exc:
        what = f"; {skip_option} keeps every valid line and moves the bad ones to {exc.bad_path}" if skip_option else ""
        err.print(f"[red]cannot resume:[/red] {escape(str(exc) + what)}", soft_wrap=True)
        raise typer.Exit(1) from exc
